// SPDX-License-Identifier: MIT
/*
 * fused_jobs.c - a fused call's jobs of one rank: the kernel emitters'
 * programs (kernels/swk.h) with libswccl's own instructions (progress,
 * the on-card barrier) around them, packed into as few jobs as fit.
 *
 * Every emitter program is self-contained (it loads what it needs: LDM
 * does not survive a job) and leaves SWCCL_FUSED_RESERVE instructions
 * free, so one program with the instructions that go with it always fits
 * a job, and consecutive programs may share one: fewer launches, the same
 * compute instructions on the same LDM offsets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_internal.h"
#include "swk.h"

void jobs_init(struct swccl_jobs *j)
{
	memset(j, 0, sizeof(*j));
}

void jobs_free(struct swccl_jobs *j)
{
	for (int i = 0; i < j->n; i++)
		prog_free(&j->p[i]);
	free(j->p);
	jobs_init(j);
}

static struct swccl_prog *job_new(struct swccl_jobs *j)
{
	if (j->n == j->cap) {
		int cap = j->cap ? 2 * j->cap : 4;
		struct swccl_prog *p = realloc(j->p, (size_t)cap * sizeof(*p));

		if (!p) {
			j->nomem = true;
			return NULL;
		}
		j->p = p;
		j->cap = cap;
	}
	prog_init(&j->p[j->n]);
	return &j->p[j->n++];
}

void jobs_unit(struct swccl_jobs *j, const struct swccl_prog *pre, const struct swai_insn *body,
	       int nbody, const struct swccl_prog *post, int max_insns)
{
	int n = (pre ? pre->n : 0) + nbody + (post ? post->n : 0);
	struct swccl_prog *p = j->n ? &j->p[j->n - 1] : NULL;

	if (!p || p->n + n > max_insns)
		p = job_new(j);
	if (!p)
		return;
	if (pre)
		prog_append(p, pre->in, pre->n);
	prog_append(p, body, nbody);
	if (post)
		prog_append(p, post->in, post->n);
	j->nomem |= p->nomem;
}

void jobs_add_progs(struct swccl_jobs *j, const struct swk_progs *ps,
		    const struct swccl_prog *pre, const struct swccl_prog *post, int max_insns)
{
	for (int i = 0; i < ps->n; i++)
		jobs_unit(j, i == 0 ? pre : NULL, ps->p[i].in, ps->p[i].n,
			  i == ps->n - 1 ? post : NULL, max_insns);
}

int jobs_two_phases(struct swccl_jobs *out, const struct swccl_call *c, int r,
		    const struct swk_progs *before, const struct swk_progs *after, int max_insns)
{
	struct swccl_prog start, mid, done;
	int e = 0;

	prog_init(&start);
	prog_init(&mid);
	prog_init(&done);
	prog_progress(&start, c, r, SWCCL_STEP_START);
	prog_progress(&mid, c, r, SWCCL_STEP_WRITTEN);
	prog_barrier(&mid, c, false);
	prog_progress(&mid, c, r, SWCCL_STEP_SYNCED);
	prog_progress(&done, c, r, SWCCL_STEP_DONE);
	jobs_add_progs(out, before, &start, &mid, max_insns);
	jobs_add_progs(out, after, NULL, &done, max_insns);
	if (out->nomem || start.nomem || mid.nomem || done.nomem)
		e = -ENOMEM;
	prog_free(&start);
	prog_free(&mid);
	prog_free(&done);
	return e;
}
