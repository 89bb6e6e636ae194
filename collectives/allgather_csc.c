// SPDX-License-Identifier: MIT
/*
 * allgather_csc.c - CSC AllGather, the paper's Algorithm 1.
 *
 * One job per rank: write the own shard into Global-HBM (only if it is not
 * already there: a sendbuff in Global-HBM, e.g. the paper's in-place
 * AllGather into a Global recvbuff, is read where it is), the host-mediated
 * SYNC (BARRIER with SWAI_BARRIER_HOST), then N-1 COPYs of the other shards
 * from Global-HBM into the recvbuff, in the order rank+1, rank+2, ... so
 * that no two ranks read the same shard at once.  A last on-card barrier
 * keeps every rank's buffers alive until all peers have read them (the
 * collective's completion on a stream means the buffers may be reused).
 *
 *   T = t_launch [+ t_step + V/(N BW)] + t_sync + (N-1)(t_step + V/(N BW)) + t_barrier
 *
 * eq. (4) plus the final 1 us barrier: 116 us for 8 MB on 4 CGs.
 */
#include "swccl_algo.h"

static bool shared(const struct swccl_buf *b)
{
	return b->tier != SWCCL_LOCAL;
}

static const char *unsupported(const struct swccl_call *c)
{
	(void)c;
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (!shared(&c->r[r].send))
			return (size_t)c->nranks * c->count * c->esize;
	return 0;
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

/* Where rank k's shard is read from. */
static uint64_t shard_src(const struct swccl_call *c, int k)
{
	uint64_t b = c->count * c->esize;

	return shared(&c->r[k].send) ? c->r[k].send.va : c->scratch + (uint64_t)k * b;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	uint64_t b = c->count * c->esize, recv = c->r[r].recv.va;

	(void)s;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (!shared(&c->r[r].send))
		prog_copy(p, shard_src(c, r), c->r[r].send.va, b);
	prog_copy(p, recv + (uint64_t)r * b, c->r[r].send.va, b);
	prog_progress(p, c, r, SWCCL_STEP_WRITTEN);
	prog_barrier(p, c, true);
	prog_progress(p, c, r, SWCCL_STEP_SYNCED);
	for (int i = 1; i < nr; i++) {
		int k = (r + i) % nr;

		prog_copy(p, recv + (uint64_t)k * b, shard_src(c, k), b);
	}
	prog_progress(p, c, r, SWCCL_STEP_READ);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_allgather_csc = {
	.name = "CSC", .coll = SWCCL_ALLGATHER, .algo = swcclAlgoCsc,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
