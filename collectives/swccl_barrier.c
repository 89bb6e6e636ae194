// SPDX-License-Identifier: MIT
/*
 * swccl_barrier.c - swcclBarrier, a kind of call of its own (swccl_kind.h):
 * every rank waits for all the others, and for the work queued on its
 * stream before the call.
 *
 * Over the NICs when the cards have ports on a network: seed 001's tree
 * of no data (an AllReduce of nothing, swai-nic-tree.h), offloaded (AUTO,
 * or NIC) or driven by the hosts (HOST) -- the only way between nodes.
 * Otherwise the hosts': the rendezvous every call starts with
 * (swccl_enqueue.c) is already a barrier of this process's ranks; their
 * streams are synchronised, and other processes' joined by the
 * bootstrap's allgather.
 */
#include "swccl_kind.h"
#include "swccl_nic.h"
#include "swccl_plan.h"
#include "swccl_xproc.h"

static const char *name(const struct swccl_call *c)
{
	(void)c;
	return "Barrier";
}

static swcclResult_t check(const struct swccl_op *op, struct swccl_rank *rk)
{
	(void)rk;
	return swccl_stream_check(op->comm, op->stream);
}

/* An AllReduce of no 64-bit elements, as the NIC trees take it. */
static void init(struct swccl_call *c, const struct swccl_op *op)
{
	(void)op;
	c->coll = SWCCL_ALLREDUCE;
	c->count = 0;
	c->dtype = swcclInt64;
	c->op = swcclSum;
	c->root = 0;
	c->esize = 8;
}

static bool same(const struct swccl_call *c, const struct swccl_op *op)
{
	(void)c;
	(void)op;
	return true;
}

/*
 * Without NICs: the barrier is done here, on the host, and the plan runs
 * nothing.  Its time is not modeled (the hosts' rendezvous has no
 * modeled cost).
 */
static swcclResult_t host_barrier(struct swccl_shared *sh, struct swccl_call *c,
				  struct swccl_plan *p, swcclComm_t comm0)
{
	unsigned int ms = (unsigned int)(swccl_timeout_s() * 1000);
	swcclResult_t res = swcclSuccess;

	for (int r = 0; r < c->nranks; r++) {
		sdaaError_t e;

		if (sh->comm[r]->remote)
			continue;
		e = sdaaSetDevice(c->r[r].dev);
		if (!e)
			e = sdaaStreamSynchronizeTimeout(c->r[r].stream, ms);
		if (e)
			return swccl_fail(comm0, e == sdaaErrorTimeout ? swcclTimeout :
					  swcclUnhandledSdaaError, "Barrier #%llu: rank %d's stream: "
					  "%s%s", (unsigned long long)c->seq, r, sdaaGetErrorString(e),
					  e == sdaaErrorTimeout ? " (its work before the barrier did "
					  "not end within SWCCL_TIMEOUT)" : "");
	}
	if (sh->xproc) {
		uint8_t mine = 1, all[SWCCL_MAX_RANKS];

		res = swccl_xproc_allgather(sh, &mine, 1, all, "the barrier");
	}
	p->algo = swcclAlgoAuto;
	p->how = "the hosts' rendezvous";
	p->us = 0;
	p->fused = -1;
	p->host_syncs = 1;
	p->sched.host_sync = true;	/* nothing launched for the watchdog */
	return res;
}

static swcclResult_t plan(struct swccl_shared *sh, struct swccl_call *c, struct swccl_plan *p,
			  swcclComm_t comm0)
{
	swcclAlgo_t want = swccl_algo_wanted(comm0);

	/* Forced NIC or HOST: that tree; any other algorithm has no barrier. */
	if (want == swcclAlgoNic || want == swcclAlgoHost) {
		c->want = want;
		return swccl_nic_plan(sh, c, p, comm0);
	}
	c->want = swcclAlgoAuto;
	if (swccl_nic_auto(sh, c, NULL, p, comm0))
		return swcclSuccess;
	if (sh->xnodes)
		return swccl_fail(comm0, swcclInvalidUsage, "Barrier: the ranks span nodes, and "
				  "only the NICs join them: the cards have no NIC port on a "
				  "network");
	return host_barrier(sh, c, p, comm0);
}

const struct swccl_kind swccl_kind_barrier = {
	.name = name, .check = check, .init = init, .same = same, .plan = plan,
	.empty = true,
};

SWCCL_EXPORT swcclResult_t swcclBarrier(swcclComm_t comm, sdaaStream_t stream)
{
	struct swccl_op o = { .comm = comm, .kind = &swccl_kind_barrier, .stream = stream };

	return swccl_submit(&o);
}
