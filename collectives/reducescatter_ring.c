// SPDX-License-Identifier: MIT
/*
 * reducescatter_ring.c - RING ReduceScatter, the baseline: N-1 steps, each
 * launched on every rank and closed by a host wait, each bringing every
 * rank ONE more peer's part of its shard.
 *
 * Determinism: a classic ring passes a partial sum around, so shard k would
 * be reduced in the ring order k+1, k+2, ..., k -- a different order per
 * shard, and different from the other algorithms.  Here every rank instead
 * folds its shard's parts in rank order 0, 1, ..., N-1: in step s it reads
 * the (s+1)-th peer in rank order (and its own part right after its
 * predecessor's), reducing in LDM onto the running result, which waits
 * between steps in the rank's slot of the comm's Global-HBM scratch (LDM
 * does not survive a job); the last step writes the recvbuff.  Each step
 * still moves one shard per rank, as the ring does.
 *
 *   T ~= (N-1) (t_launch + t_sync + 3 t_dma + 3 V/(N BW) + 3 V/(N BW_ldm))
 *        + (the own part: t_dma + V/(N BW) + ...)
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (!swccl_readable(c, &c->r[r].send))
			return "a sendbuff in Local-HBM needs peer access between the core groups";
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	return (size_t)c->nranks * c->count * c->esize;
}

static int steps(const struct swccl_call *c)
{
	return c->nranks > 1 ? c->nranks - 1 : 1;
}

/* How many parts (in rank order) rank r has folded after step s. */
static int cut(int nr, int r, int s)
{
	int peer = s < r ? s : s + 1;	/* the (s+1)-th rank other than r */
	int n = peer + 1;

	if (n == r)
		n++;			/* the own part follows at once */
	return s == nr - 2 ? nr : n;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks, from = s ? cut(nr, r, s - 1) : 0, to, n = 0;
	uint64_t b = c->count * c->esize, acc = c->scratch + (uint64_t)r * b;
	uint64_t items[SWCCL_MAX_RANKS + 1], out;
	bool last = s == steps(c) - 1;

	to = nr > 1 ? cut(nr, r, s) : 1;
	if (s)
		items[n++] = acc;
	for (int j = from; j < to; j++)
		items[n++] = c->r[j].send.va + (uint64_t)r * b;
	out = last ? c->r[r].recv.va : acc;
	prog_progress(p, c, r, SWCCL_STEP_START);
	phase_fold(p, c, items, n, 0, &out, 1, last, c->count);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_reducescatter_ring = {
	.name = "RING", .coll = SWCCL_REDUCESCATTER, .algo = swcclAlgoRing,
	.props = SWCCL_ALGO_HOST_SYNC,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
