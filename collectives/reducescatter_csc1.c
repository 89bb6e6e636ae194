// SPDX-License-Identifier: MIT
/*
 * reducescatter_csc1.c - CSC1 ReduceScatter (ours).
 *
 * One job per rank, no host sync, and the reduction entirely in LDM: for
 * each LDM-sized chunk of its shard a rank DMA_GETs the N parts (its own
 * from its sendbuff, the peers' where they can be read: Global-HBM, host,
 * Local-HBM with peer access, else the comm's scratch), in a rotated order
 * so ranks do not all hit one source at once, REDUCEs them in rank order
 * 0..N-1 in LDM and DMA_PUTs the result once.  Only the N-1 shards peers
 * need are written to Global-HBM (not the own one), in K chunks, each
 * announced by the writer's flag; a reader waits for chunk k of each peer
 * only.  An on-card barrier replaces the SYNC when nothing is written.
 *
 *   direct:  T = t_launch + t_barrier + N (t_dma + V/(N BW)) + 3 (N-1) V/(N BW_ldm)
 *                + t_dma + V/(N BW) + t_barrier
 *   written: + 2 (t_step) + (N-1) V/(N BW) for the writes, (N-1) t_barrier per chunk
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	(void)c;
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	size_t nr = (size_t)c->nranks;

	return swccl_all_sends_readable(c) ? 0 : nr * nr * c->count * c->esize;
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks, chunks = c->pipeline > 0 ? c->pipeline : 1;
	uint64_t es = c->esize, b = c->count * es, all = (uint64_t)nr * b;
	uint64_t ch = (c->count + (uint64_t)chunks - 1) / (uint64_t)chunks, send = c->r[r].send.va;
	uint64_t items[SWCCL_MAX_RANKS], out;
	bool direct = swccl_all_sends_readable(c), mine = swccl_readable(c, &c->r[r].send);

	(void)s;
	if (!ch)
		ch = 1;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (direct) {
		prog_barrier(p, c, false);
	} else {
		uint64_t w = c->scratch + (uint64_t)r * all;

		for (uint64_t o = 0, k = 1; o < c->count || k == 1; o += ch, k++) {
			uint64_t m = (c->count - o < ch ? c->count - o : ch) * es;

			if (!mine) {	/* chunk k of every shard but the own one */
				prog_copy_rows(p, w + o * es, send + o * es, m, (uint32_t)r, b, b);
				prog_copy_rows(p, w + (uint64_t)(r + 1) * b + o * es,
					       send + (uint64_t)(r + 1) * b + o * es, m,
					       (uint32_t)(nr - r - 1), b, b);
			}
			prog_signal(p, c->sem.flag[r], swccl_flag_value(c, k));
			if (o + ch >= c->count)
				break;
		}
	}
	prog_progress(p, c, r, SWCCL_STEP_WRITTEN);
	for (int j = 0; j < nr; j++)
		items[j] = (j == r || swccl_readable(c, &c->r[j].send) ? c->r[j].send.va :
			    c->scratch + (uint64_t)j * all) + (uint64_t)r * b;
	for (uint64_t o = 0, k = 1; o < c->count; o += ch, k++) {
		uint64_t m = c->count - o < ch ? c->count - o : ch, it[SWCCL_MAX_RANKS];

		if (!direct)
			for (int i = 1; i < nr; i++)
				prog_wait(p, c->sem.flag[(r + i) % nr], swccl_flag_value(c, k));
		for (int j = 0; j < nr; j++)
			it[j] = items[j] + o * es;
		out = c->r[r].recv.va + o * es;
		phase_fold(p, c, it, nr, r, &out, 1, true, m);
	}
	prog_progress(p, c, r, SWCCL_STEP_REDUCED);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_reducescatter_csc1 = {
	.name = "CSC1", .coll = SWCCL_REDUCESCATTER, .algo = swcclAlgoCsc1,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
