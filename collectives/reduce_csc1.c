// SPDX-License-Identifier: MIT
/*
 * reduce_csc1.c - CSC1 Reduce (ours): the non-roots write their buffers
 * into Global-HBM in K chunks (only if the root cannot read them where they
 * are), raising their flags; the root reduces chunk k in LDM (rank order,
 * one DMA_PUT) as soon as every peer's chunk k is there, so reducing
 * overlaps writing.  An on-card barrier at the end.
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	(void)c;
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	return (size_t)c->nranks * c->count * c->esize;
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	uint64_t es = c->esize, v = c->count * es, k = swccl_pipeline_chunks(c, c->nranks);
	uint64_t ch = (c->count + k - 1) / k, items[SWCCL_MAX_RANKS];

	(void)s;
	if (!ch)
		ch = 1;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (r != c->root) {
		bool direct = swccl_readable(c, &c->r[r].send);

		for (uint64_t o = 0, i = 1; o < c->count || i == 1; o += ch, i++) {
			uint64_t m = c->count - o < ch ? c->count - o : ch;

			if (!direct)
				prog_copy(p, c->scratch + (uint64_t)r * v + o * es,
					  c->r[r].send.va + o * es, m * es);
			prog_signal(p, c->sem.flag[r], swccl_flag_value(c, i));
			if (o + ch >= c->count)
				break;
		}
	} else {
		for (int j = 0; j < nr; j++)
			items[j] = j == r || swccl_readable(c, &c->r[j].send) ? c->r[j].send.va :
				   c->scratch + (uint64_t)j * v;
		for (uint64_t o = 0, i = 1; o < c->count; o += ch, i++) {
			uint64_t m = c->count - o < ch ? c->count - o : ch, it[SWCCL_MAX_RANKS];
			uint64_t out = c->r[r].recv.va + o * es;

			for (int j = 0; j < nr; j++) {
				if (j != r)
					prog_wait(p, c->sem.flag[j], swccl_flag_value(c, i));
				it[j] = items[j] + o * es;
			}
			phase_fold(p, c, it, nr, 0, &out, 1, true, m);
		}
	}
	prog_progress(p, c, r, SWCCL_STEP_REDUCED);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_reduce_csc1 = {
	.name = "CSC1", .coll = SWCCL_REDUCE, .algo = swcclAlgoCsc1,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
