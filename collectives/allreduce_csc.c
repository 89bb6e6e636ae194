// SPDX-License-Identifier: MIT
/*
 * allreduce_csc.c - CSC AllReduce: Algorithm 2 then Algorithm 1 in one job
 * per rank.  Write the sendbuff into Global-HBM unless it is there, SYNC,
 * reduce the own shard in rank-order rounds (as reducescatter_csc.c), write
 * it where the peers can read it, SYNC, read the other shards, then an
 * on-card barrier.  2 host syncs, N launches.
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

static bool any_local(const struct swccl_call *c, bool send)
{
	for (int r = 0; r < c->nranks; r++)
		if (!shared(send ? &c->r[r].send : &c->r[r].recv))
			return true;
	return false;
}

/* [running results][reduced shards for the peers][written sendbuffs] */
static size_t scratch(const struct swccl_call *c)
{
	size_t v = c->count * c->esize;

	return 2 * v + (any_local(c, true) ? (size_t)c->nranks * v : 0);
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	uint64_t es = c->esize, v = c->count * es, src[SWCCL_MAX_RANKS];
	uint64_t acc = c->scratch, red = c->scratch + v, written = c->scratch + 2 * v;
	size_t lo, len;

	(void)s;
	swccl_shard(c->count, nr, r, &lo, &len);
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (!shared(&c->r[r].send))
		prog_copy(p, written + (uint64_t)r * v, c->r[r].send.va, v);
	prog_progress(p, c, r, SWCCL_STEP_WRITTEN);
	prog_barrier(p, c, true);
	prog_progress(p, c, r, SWCCL_STEP_SYNCED);
	for (int j = 0; j < nr; j++)
		src[j] = (j == r || shared(&c->r[j].send) ? c->r[j].send.va :
			  written + (uint64_t)j * v) + lo * es;
	phase_reduce_rounds(p, c, src, acc + lo * es, c->r[r].recv.va + lo * es, len);
	if (!shared(&c->r[r].recv))
		prog_copy(p, red + lo * es, c->r[r].recv.va + lo * es, len * es);
	prog_progress(p, c, r, SWCCL_STEP_REDUCED);
	prog_barrier(p, c, true);
	for (int i = 1; i < nr; i++) {
		int k = (r + i) % nr;
		size_t klo, klen;

		swccl_shard(c->count, nr, k, &klo, &klen);
		prog_copy(p, c->r[r].recv.va + klo * es,
			  (shared(&c->r[k].recv) ? c->r[k].recv.va : red) + klo * es, klen * es);
	}
	prog_progress(p, c, r, SWCCL_STEP_READ);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_allreduce_csc = {
	.name = "CSC", .coll = SWCCL_ALLREDUCE, .algo = swcclAlgoCsc,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
