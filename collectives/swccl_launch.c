// SPDX-License-Identifier: MIT
/*
 * swccl_launch.c - run one collective of all ranks: pick the algorithm,
 * make sure the comm's Global-HBM scratch is big enough, build each rank's
 * program and launch it on the rank's stream (its device made current, so
 * the NULL stream is the rank's legacy stream); host-synchronised
 * algorithms (RING) wait for every rank after each step -- the paper's
 * host-mediated sync -- bounded by SWCCL_TIMEOUT.
 */
#include <stdlib.h>
#include <string.h>

#include "swccl_internal.h"

#define MAX_INSNS ((int)(SWAI_PROGRAM_MAX_BYTES / sizeof(struct swai_insn)))

/* Has every launched collective finished (so no job touches the comm's memory)? */
bool swccl_idle(struct swccl_shared *sh)
{
	return !sh->launched_seq || swccl_all_done(sh, sh->launched_seq);
}

/*
 * Drop Global-HBM the comm no longer needs: freed now if the comm is idle,
 * else kept until the end.
 */
swcclResult_t swccl_retire(struct swccl_shared *sh, void *old)
{
	void **ret;

	if (!old)
		return swcclSuccess;
	if (swccl_idle(sh)) {
		sdaaFreeCross(old);
		return swcclSuccess;
	}
	ret = realloc(sh->retired, (size_t)(sh->nretired + 1) * sizeof(*ret));
	if (!ret)
		return swcclSystemError;
	sh->retired = ret;
	ret[sh->nretired++] = old;
	return swcclSuccess;
}

/* Grow the scratch; the old one may still be in use by launched jobs. */
swcclResult_t swccl_resources(struct swccl_shared *sh, size_t need)
{
	void *p;

	if (need <= sh->scratch_bytes)
		return swcclSuccess;
	need = need < 2 * sh->scratch_bytes ? 2 * sh->scratch_bytes : need;
	if (sh->scratch && swccl_idle(sh)) {	/* room for the new one first */
		sdaaFreeCross(sh->scratch);
		sh->scratch = NULL;
		sh->scratch_bytes = 0;
	}
	if (sdaaSetDevice(sh->comm[0]->dev) || sdaaMallocCross(&p, need))
		return swcclUnhandledSdaaError;
	if (swccl_retire(sh, sh->scratch)) {
		sdaaFreeCross(p);
		return swcclSystemError;
	}
	sh->scratch = p;
	sh->scratch_bytes = need;
	return swcclSuccess;
}

static swcclResult_t host_wait(struct swccl_shared *sh, struct swccl_call *c, int s, int steps,
			       swcclComm_t comm0)
{
	unsigned ms = (unsigned)(swccl_timeout_s() * 1000);

	for (int r = 0; r < c->nranks; r++) {
		sdaaError_t e;

		sdaaSetDevice(c->r[r].dev);
		e = sdaaStreamSynchronizeTimeout(c->r[r].stream, ms);
		if (e == sdaaErrorTimeout) {
			char msg[512];

			snprintf(msg, sizeof(msg),
				 "%s #%llu (RING): rank %d (CG %d) did not finish step %d of %d "
				 "within SWCCL_TIMEOUT (%.0f s)", swccl_coll_name(c->coll),
				 (unsigned long long)c->seq, r, c->r[r].cg, s + 1, steps,
				 swccl_timeout_s());
			swccl_fail_shared(sh, swcclTimeout, msg);
			return swccl_fail(comm0, swcclTimeout, "%s", msg);
		}
		if (e)
			return swccl_fail(comm0, swcclUnhandledSdaaError,
					  "%s #%llu: rank %d (CG %d), step %d: %s",
					  swccl_coll_name(c->coll), (unsigned long long)c->seq, r,
					  c->r[r].cg, s + 1, sdaaGetErrorString(e));
	}
	return swcclSuccess;
}

static swcclResult_t run(struct swccl_shared *sh, struct swccl_call *c,
			 const struct swccl_plan *plan, swcclComm_t comm0)
{
	const struct swccl_algo *a = plan->algo;
	int steps = a->steps(c);
	swcclResult_t res = swcclSuccess;

	for (int s = 0; s < steps && !res; s++) {
		for (int r = 0; r < c->nranks && !res; r++) {
			struct swai_prog p;
			sdaaError_t e = sdaaSuccess;

			swai_prog_init(&p);
			a->build(c, s, r, &p);
			if (p.nomem)
				res = swcclSystemError;
			else if (p.n > MAX_INSNS)
				res = swccl_fail(comm0, swcclInvalidArgument,
						 "%s %s: count %zu needs a program of %d instructions "
						 "(at most %d)", swccl_coll_name(c->coll), a->name,
						 c->count, p.n, MAX_INSNS);
			else if (p.n && !(e = sdaaSetDevice(c->r[r].dev)))
				e = sdaaLaunchProgram(p.in, (size_t)p.n, c->r[r].stream);
			if (e)
				res = swccl_fail(comm0, swcclUnhandledSdaaError,
						 "%s #%llu: launch on rank %d (CG %d): %s",
						 swccl_coll_name(c->coll), (unsigned long long)c->seq,
						 r, c->r[r].cg, sdaaGetErrorString(e));
			swai_prog_free(&p);
		}
		if (res && s == 0 && a->algo != swcclAlgoRing)
			swccl_fail_shared(sh, res, comm0->lasterr);	/* ranks launched wait */
		if (!res && a->algo == swcclAlgoRing)
			res = host_wait(sh, c, s, steps, comm0);
	}
	return res;
}

swcclResult_t swccl_execute(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0)
{
	struct swccl_plan plan;
	swcclResult_t res;
	int dev = 0;

	if (c->coll >= SWCCL_NCOLLS)
		return swccl_fused_execute(sh, c, comm0);
	sdaaGetDevice(&dev);
	c->scratch = (uint64_t)(uintptr_t)sh->scratch;
	c->scratch_bytes = sh->scratch_bytes;
	res = swccl_select(comm0, c, &plan);
	if (!res) {
		res = swccl_resources(sh, plan.algo->scratch(c));
		if (res)
			swccl_fail(comm0, res, "cannot allocate %zu bytes of Global-HBM scratch",
				   plan.algo->scratch(c));
	}
	if (!res) {
		c->scratch = (uint64_t)(uintptr_t)sh->scratch;
		c->scratch_bytes = sh->scratch_bytes;
		if (plan.algo->algo != swcclAlgoRing)
			swccl_launched(sh, c, plan.algo->name);
		res = run(sh, c, &plan, comm0);
	}
	sdaaSetDevice(dev);
	if (!res)
		for (int r = 0; r < c->nranks; r++)
			sh->comm[r]->last = (struct swcclCallInfo){
				.algo = plan.algo->algo, .launches = plan.launches,
				.host_syncs = plan.host_syncs, .predicted_us = plan.us,
				.transfer_us = plan.transfer_us, .fused = -1 };
	return res;
}
