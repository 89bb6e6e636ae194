// SPDX-License-Identifier: MIT
/*
 * allgather_csc1.c - CSC1 AllGather (ours).
 *
 * One job per rank and no host sync.  Shards every core group can read
 * where they are (Global-HBM, pinned host memory, or Local-HBM with peer
 * access) are read there after an on-card barrier.  Otherwise each rank
 * writes its shard into the comm's Global-HBM in K chunks, raising its flag
 * after each; a reader waits for chunk k of the peers' flags only, then
 * copies chunk k of all N shards with ONE strided COPY (rows = shards: the
 * shards lie contiguously in the scratch, the paper's "3x contiguous
 * block"), which is also the own shard's copy out of place.
 *
 *   direct:  T = t_launch + t_barrier [+ t_step + V/(N BW)] + (N-1)(t_step + V/(N BW)) + t_barrier
 *   written: T = t_launch + t_step + V/(N BW) + K((N-1) t_barrier + t_step) + V/BW + t_barrier
 *
 * (K = 1 unless SWCCL_CSC1_CHUNKS asks more: the writes of all ranks run in
 * parallel, so chunks only help when ranks start at different times.)
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	(void)c;
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	return swccl_all_sends_readable(c) ? 0 : (size_t)c->nranks * c->count * c->esize;
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void direct(const struct swccl_call *c, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	uint64_t b = c->count * c->esize, recv = c->r[r].recv.va;

	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_SYNCED);
	prog_copy(p, recv + (uint64_t)r * b, c->r[r].send.va, b);
	for (int i = 1; i < nr; i++) {
		int k = (r + i) % nr;

		prog_copy(p, recv + (uint64_t)k * b, c->r[k].send.va, b);
	}
}

static void written(const struct swccl_call *c, int r, struct swai_prog *p)
{
	int nr = c->nranks, chunks = c->pipeline > 0 ? c->pipeline : 1;
	uint64_t b = c->count * c->esize, recv = c->r[r].recv.va;
	uint64_t ch = (b + (uint64_t)chunks - 1) / (uint64_t)chunks;
	bool inplace = c->r[r].send.va == recv + (uint64_t)r * b;

	if (!ch)
		ch = 1;
	/* Write the own shard, or only announce it when peers read it in place. */
	for (uint64_t o = 0, k = 1; o < b || k == 1; o += ch, k++) {
		uint64_t m = b - o < ch ? b - o : ch;

		if (!swccl_readable(c, &c->r[r].send))
			prog_copy(p, c->scratch + (uint64_t)r * b + o, c->r[r].send.va + o, m);
		prog_signal(p, c->sem.flag[r], swccl_flag_value(c, k));
		if (o + m >= b)
			break;
	}
	prog_progress(p, c, r, SWCCL_STEP_WRITTEN);
	for (uint64_t o = 0, k = 1; o < b; o += ch, k++) {
		uint64_t m = b - o < ch ? b - o : ch;
		bool contiguous = true;

		for (int i = 1; i < nr; i++) {
			int j = (r + i) % nr;

			prog_wait(p, c->sem.flag[j], swccl_flag_value(c, k));
			contiguous &= !swccl_readable(c, &c->r[j].send);
		}
		if (contiguous && !inplace && !swccl_readable(c, &c->r[r].send)) {
			prog_copy_rows(p, recv + o, c->scratch + o, m, (uint32_t)nr, b, b);
			continue;
		}
		if (!inplace)
			prog_copy(p, recv + (uint64_t)r * b + o, c->r[r].send.va + o, m);
		for (int i = 1; i < nr; i++) {
			int j = (r + i) % nr;
			uint64_t src = swccl_readable(c, &c->r[j].send) ? c->r[j].send.va :
				       c->scratch + (uint64_t)j * b;

			prog_copy(p, recv + (uint64_t)j * b + o, src + o, m);
		}
	}
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	(void)s;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (swccl_all_sends_readable(c))
		direct(c, r, p);
	else
		written(c, r, p);
	prog_progress(p, c, r, SWCCL_STEP_READ);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_allgather_csc1 = {
	.name = "CSC1", .coll = SWCCL_ALLGATHER, .algo = swcclAlgoCsc1,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
