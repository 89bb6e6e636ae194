// SPDX-License-Identifier: MIT
/*
 * allgather_ring.c - RING AllGather, the paper's baseline (Fig. 4, eq. (3)).
 *
 * N-1 steps.  In step s every rank r launches one job that copies shard
 * (r - s) mod N -- its own in step 0, then the one it received in the step
 * before -- from its buffer straight into the same place of rank r+1's
 * recvbuff (one COPY; into another core group's Local-HBM it needs peer
 * access), and the host waits for all ranks before the next step.
 * Out of place, step 0 also copies the rank's own shard into its recvbuff.
 *
 *   T = (N-1) (t_launch + t_step + V/(N BW) + t_sync)   [+ t_step + V/(N BW)]
 *
 * with V the total bytes: eq. (3), 195 us for 8 MB on 4 CGs.
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (!swccl_readable(c, &c->r[r].recv))
			return "a recvbuff in Local-HBM needs peer access between the core groups";
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	(void)c;
	return 0;
}

static int steps(const struct swccl_call *c)
{
	return c->nranks > 1 ? c->nranks - 1 : 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks, k = (r - s + nr) % nr, next = (r + 1) % nr;
	uint64_t b = c->count * c->esize, own = c->r[r].recv.va + (uint64_t)r * b;

	prog_progress(p, c, r, SWCCL_STEP_START);
	if (s == 0)
		prog_copy(p, own, c->r[r].send.va, b);	/* nothing when in place */
	if (nr > 1)
		prog_copy(p, c->r[next].recv.va + (uint64_t)k * b,
			  c->r[r].recv.va + (uint64_t)k * b, b);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_allgather_ring = {
	.name = "RING", .coll = SWCCL_ALLGATHER, .algo = swcclAlgoRing,
	.props = SWCCL_ALGO_HOST_SYNC,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
