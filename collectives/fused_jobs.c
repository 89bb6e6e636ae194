// SPDX-License-Identifier: MIT
/*
 * fused_jobs.c - a fused call's jobs of one rank: the kernel emitters'
 * programs (runtime/kernels/swk.h) with libswccl's own instructions (progress,
 * the on-card barrier) around them, packed into as few jobs as fit.
 *
 * Every emitter program is self-contained (it loads what it needs: LDM
 * does not survive a job) and leaves SWCCL_FUSED_RESERVE instructions
 * free, so one program with the instructions that go with it always fits
 * a job, and consecutive programs may share one: fewer launches, the same
 * compute instructions on the same LDM offsets.
 */
#include <errno.h>

#include "swccl_algo.h"
#include "swccl_fused.h"
#include "swk.h"

void jobs_unit(struct swai_progs *j, const struct swai_prog *pre, const struct swai_insn *body,
	       int nbody, const struct swai_prog *post, int max_insns)
{
	int n = (pre ? pre->n : 0) + nbody + (post ? post->n : 0);
	struct swai_prog *p = j->n ? &j->p[j->n - 1] : NULL;

	if (!p || p->n + n > max_insns)
		p = swai_progs_add(j);
	if (!p)
		return;
	if (pre)
		swai_prog_append(p, pre->in, pre->n);
	swai_prog_append(p, body, nbody);
	if (post)
		swai_prog_append(p, post->in, post->n);
	j->nomem |= p->nomem;
}

void jobs_add_progs(struct swai_progs *j, const struct swai_progs *ps,
		    const struct swai_prog *pre, const struct swai_prog *post, int max_insns)
{
	for (int i = 0; i < ps->n; i++)
		jobs_unit(j, i == 0 ? pre : NULL, ps->p[i].in, ps->p[i].n,
			  i == ps->n - 1 ? post : NULL, max_insns);
}

int jobs_two_phases(struct swai_progs *out, const struct swccl_call *c, int r,
		    const struct swai_progs *before, const struct swai_progs *after, int max_insns)
{
	struct swai_prog start, mid, done;
	int e = 0;

	swai_prog_init(&start);
	swai_prog_init(&mid);
	swai_prog_init(&done);
	prog_progress(&start, c, r, SWCCL_STEP_START);
	prog_progress(&mid, c, r, SWCCL_STEP_WRITTEN);
	prog_barrier(&mid, c, false);
	prog_progress(&mid, c, r, SWCCL_STEP_SYNCED);
	prog_progress(&done, c, r, SWCCL_STEP_DONE);
	jobs_add_progs(out, before, &start, &mid, max_insns);
	jobs_add_progs(out, after, NULL, &done, max_insns);
	if (out->nomem || start.nomem || mid.nomem || done.nomem)
		e = -ENOMEM;
	swai_prog_free(&start);
	swai_prog_free(&mid);
	swai_prog_free(&done);
	return e;
}
