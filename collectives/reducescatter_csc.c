// SPDX-License-Identifier: MIT
/*
 * reducescatter_csc.c - CSC ReduceScatter, the paper's Algorithm 2.
 *
 * One job per rank: write the sendbuff into Global-HBM (unless it is there
 * already), the host-mediated SYNC, then N-1 rounds that read the running
 * result and the next rank's part of the own shard, reduce them in LDM and
 * write the result back (Algorithm 2's DMA_GET / Reduce / DMA_PUT per
 * peer), in rank order 0..N-1 (round 1 reads ranks 0 and 1); the running
 * result lives in the rank's slot of the Global-HBM scratch, the last round
 * writes the recvbuff.  A last on-card barrier keeps the sendbuffs alive
 * until every peer has read them.
 *
 *   T = t_launch [+ t_step + V/BW] + t_sync
 *       + (N-1)(3 t_dma + 3 V/(N BW) + 3 V/(N BW_ldm)) + t_barrier
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

static bool any_write(const struct swccl_call *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (!shared(&c->r[r].send))
			return true;
	return false;
}

/* [running results: N shards][written sendbuffs: N x N shards] */
static size_t scratch(const struct swccl_call *c)
{
	size_t b = c->count * c->esize, nr = (size_t)c->nranks;

	return nr * b + (any_write(c) ? nr * nr * b : 0);
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	uint64_t b = c->count * c->esize, all = (uint64_t)nr * b;
	uint64_t written = c->scratch + (uint64_t)nr * b, src[SWCCL_MAX_RANKS];

	(void)s;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (!shared(&c->r[r].send))
		prog_copy(p, written + (uint64_t)r * all, c->r[r].send.va, all);
	prog_progress(p, c, r, SWCCL_STEP_WRITTEN);
	prog_barrier(p, c, true);
	prog_progress(p, c, r, SWCCL_STEP_SYNCED);
	for (int j = 0; j < nr; j++)
		src[j] = (j == r || shared(&c->r[j].send) ? c->r[j].send.va :
			  written + (uint64_t)j * all) + (uint64_t)r * b;
	phase_reduce_rounds(p, c, src, c->scratch + (uint64_t)r * b, c->r[r].recv.va, c->count);
	prog_progress(p, c, r, SWCCL_STEP_REDUCED);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_reducescatter_csc = {
	.name = "CSC", .coll = SWCCL_REDUCESCATTER, .algo = swcclAlgoCsc,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
