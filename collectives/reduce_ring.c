// SPDX-License-Identifier: MIT
/*
 * reduce_ring.c - RING Reduce, the baseline: a chain 0, 1, ..., N-1 of N-1
 * host-launched steps; in step s rank s+1 reads the running result (rank
 * 0's buffer in step 0) and adds its own buffer in LDM -- so the order is
 * rank order -- and writes the result to the scratch, or in the last step
 * into the root's recvbuff.
 *
 *   T = (N-1)(t_launch + 3 t_dma + 3 V/BW + 3 V/BW_ldm + t_sync)
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	if (c->nranks > 1 && !swccl_readable(c, &c->r[0].send))
		return "rank 0's sendbuff in Local-HBM needs peer access";
	if (c->root != c->nranks - 1 && !swccl_readable(c, &c->r[c->root].recv))
		return "the root's recvbuff in Local-HBM needs peer access";
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	return c->count * c->esize;
}

static int steps(const struct swccl_call *c)
{
	return c->nranks > 1 ? c->nranks - 1 : 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	bool last = s == steps(c) - 1;
	uint64_t items[2], out = last ? c->r[c->root].recv.va : c->scratch;

	if (r != (nr > 1 ? s + 1 : 0))
		return;
	prog_progress(p, c, r, SWCCL_STEP_START);
	items[0] = s ? c->scratch : c->r[0].send.va;
	items[1] = c->r[r].send.va;
	phase_fold(p, c, items, nr > 1 ? 2 : 1, 0, &out, 1, last, c->count);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_reduce_ring = {
	.name = "RING", .coll = SWCCL_REDUCE, .algo = swcclAlgoRing,
	.props = SWCCL_ALGO_HOST_SYNC,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
