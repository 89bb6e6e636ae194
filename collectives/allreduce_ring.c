// SPDX-License-Identifier: MIT
/*
 * allreduce_ring.c - RING AllReduce: the RING ReduceScatter steps on the
 * rank's shard of the buffer (swccl_shard: N nearly equal parts), then the
 * RING AllGather steps of the reduced shards: 2(N-1) host-launched steps.
 * Reduction order: rank order, as reducescatter_ring.c explains.
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (!swccl_readable(c, &c->r[r].send) || !swccl_readable(c, &c->r[r].recv))
			return "buffers in Local-HBM need peer access between the core groups";
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	return c->count * c->esize;
}

static int steps(const struct swccl_call *c)
{
	return c->nranks > 1 ? 2 * (c->nranks - 1) : 1;
}

static int cut(int nr, int r, int s)
{
	int peer = s < r ? s : s + 1, n = peer + 1;

	if (n == r)
		n++;
	return s == nr - 2 ? nr : n;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	uint64_t es = c->esize;
	size_t lo, len;

	prog_progress(p, c, r, SWCCL_STEP_START);
	if (s < nr - 1 || nr == 1) {	/* reduce-scatter step */
		int from = s ? cut(nr, r, s - 1) : 0, to = nr > 1 ? cut(nr, r, s) : 1, n = 0;
		uint64_t items[SWCCL_MAX_RANKS + 1], acc, out;
		bool last = nr == 1 || s == nr - 2;

		swccl_shard(c->count, nr, r, &lo, &len);
		acc = c->scratch + lo * es;
		if (s)
			items[n++] = acc;
		for (int j = from; j < to; j++)
			items[n++] = c->r[j].send.va + lo * es;
		out = last ? c->r[r].recv.va + lo * es : acc;
		phase_fold(p, c, items, n, 0, &out, 1, last, len);
	} else {			/* all-gather step */
		int k = (r - (s - (nr - 1)) + nr) % nr, next = (r + 1) % nr;

		swccl_shard(c->count, nr, k, &lo, &len);
		prog_copy(p, c->r[next].recv.va + lo * es, c->r[r].recv.va + lo * es, len * es);
	}
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_allreduce_ring = {
	.name = "RING", .coll = SWCCL_ALLREDUCE, .algo = swcclAlgoRing,
	.props = SWCCL_ALGO_HOST_SYNC,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
