// SPDX-License-Identifier: MIT
/*
 * swccl_launch.c - run one call of all ranks: its kind plans it (what runs,
 * the resources it needs, the cost model's prediction), then every rank's
 * jobs go to the rank's stream (its device made current, so the NULL
 * stream is the rank's legacy stream), phase by phase; a host-synchronised
 * schedule (RING) waits for every rank after each phase -- the paper's
 * host-mediated sync -- bounded by SWCCL_TIMEOUT.  The call's report
 * (swcclCommLastCallInfo) comes from the plan.
 */
#include <stdio.h>

#include "swccl_kind.h"
#include "swccl_nic.h"
#include "swccl_rdma.h"
#include "swccl_plan.h"

#define MAX_INSNS ((int)(SWAI_PROGRAM_MAX_BYTES / sizeof(struct swai_insn)))

static swcclResult_t host_wait(struct swccl_shared *sh, struct swccl_call *c, int p,
			       const struct swccl_plan *pl, swcclComm_t comm0)
{
	unsigned ms = (unsigned)(swccl_timeout_s() * 1000);

	for (int r = 0; r < c->nranks; r++) {
		sdaaError_t e;

		if (sh->comm[r]->remote)
			continue;
		sdaaSetDevice(c->r[r].dev);
		e = sdaaStreamSynchronizeTimeout(c->r[r].stream, ms);
		if (e == sdaaErrorTimeout) {
			char msg[512];

			snprintf(msg, sizeof(msg),
				 "%s #%llu (%s): rank %d (CG %d) did not finish step %d of %d "
				 "within SWCCL_TIMEOUT (%.0f s)", c->kind->name(c),
				 (unsigned long long)c->seq, pl->how, r, c->r[r].cg, p + 1,
				 pl->sched.nphases, swccl_timeout_s());
			swccl_fail_shared(sh, swcclTimeout, msg);
			return swccl_fail(comm0, swcclTimeout, "%s", msg);
		}
		if (e)
			return swccl_fail(comm0, swcclUnhandledSdaaError,
					  "%s #%llu: rank %d (CG %d), step %d: %s", c->kind->name(c),
					  (unsigned long long)c->seq, r, c->r[r].cg, p + 1,
					  sdaaGetErrorString(e));
	}
	return swcclSuccess;
}

/* Rank @r's jobs of phase @p on its stream. */
static swcclResult_t launch_rank(const struct swccl_call *c, const struct swccl_plan *pl,
				 int p, int r, swcclComm_t comm0)
{
	const struct swai_progs *js = swccl_sched_jobs(&pl->sched, p, r);
	sdaaError_t e = sdaaSuccess;

	for (int j = 0; j < js->n; j++) {
		const struct swai_prog *prog = &js->p[j];

		if (prog->n > MAX_INSNS)
			return swccl_fail(comm0, swcclInvalidArgument,
					  "%s %s: count %zu needs a program of %d instructions "
					  "(at most %d)", c->kind->name(c), pl->how, c->count,
					  prog->n, MAX_INSNS);
		e = sdaaSetDevice(c->r[r].dev);
		if (!e)
			e = sdaaLaunchProgram(prog->in, (size_t)prog->n, c->r[r].stream);
		if (e)
			return swccl_fail(comm0, swcclUnhandledSdaaError,
					  "%s #%llu (%s): launch on rank %d (CG %d): %s",
					  c->kind->name(c), (unsigned long long)c->seq, pl->how, r,
					  c->r[r].cg, sdaaGetErrorString(e));
		swccl_log(SWCCL_LOG_TRACE, SWCCL_LAUNCH, "%s #%llu (%s): rank %d (CG %d) job %d of "
			  "phase %d: %d instructions", c->kind->name(c),
			  (unsigned long long)c->seq, pl->how, r, c->r[r].cg, j, p, prog->n);
	}
	return swcclSuccess;
}

static swcclResult_t run(struct swccl_shared *sh, struct swccl_call *c,
			 const struct swccl_plan *pl, swcclComm_t comm0)
{
	const struct swccl_sched *s = &pl->sched;
	swcclResult_t res = swcclSuccess;

	if (!s->host_sync)
		swccl_launched(sh, c, pl->how);
	for (int p = 0; p < s->nphases && !res; p++) {
		for (int r = 0; r < c->nranks && !res; r++)
			if (!sh->comm[r]->remote)	/* its own process launches it */
				res = launch_rank(c, pl, p, r, comm0);
		/* Ranks already launched wait on the card for this one: release them. */
		if (res && !s->host_sync)
			swccl_fail_shared(sh, res, comm0->lasterr);
		if (!res && s->host_sync)
			res = host_wait(sh, c, p, pl, comm0);
	}
	return res;
}

swcclResult_t swccl_execute(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0)
{
	struct swccl_plan pl = { .fused = -1 };
	swcclResult_t res;
	int dev = 0;

	sdaaGetDevice(&dev);
	c->scratch = (uint64_t)(uintptr_t)sh->scratch;
	c->scratch_bytes = sh->scratch_bytes;
	res = c->kind->plan(sh, c, &pl, comm0);
	if (!res && pl.rdma && swccl_rdma_reduces(c))
		res = swccl_rdma_reduce_run(sh, c, comm0);
	else if (!res && pl.rdma)
		res = swccl_rdma_run(sh, c, &pl, comm0);
	else if (!res && (pl.algo == swcclAlgoNic || pl.algo == swcclAlgoHost))
		res = swccl_nic_run(sh, c, &pl, comm0);
	else if (!res)
		res = run(sh, c, &pl, comm0);
	sdaaSetDevice(dev);
	if (!res)
		for (int r = 0; r < c->nranks; r++)
			if (!sh->comm[r]->remote)
				sh->comm[r]->last = (struct swcclCallInfo){
				.algo = pl.algo, .launches = pl.launches,
				.host_syncs = pl.host_syncs, .predicted_us = pl.us,
				.transfer_us = pl.transfer_us, .fused = pl.fused,
				.internode_msgs = pl.internode_msgs,
				.internode_bytes = pl.internode_bytes };
	swccl_sched_free(&pl.sched);
	return res;
}
