// SPDX-License-Identifier: MIT
/*
 * allreduce_csc1.c - CSC1 AllReduce (ours): ReduceScatter then AllGather
 * in ONE job per rank, synchronised by flags instead of host syncs.  Each
 * rank writes the parts of its sendbuff the peers need (if they cannot read
 * it where it is) and raises its flag to 1; waits for flag >= 1 of every
 * peer; reduces its shard in LDM (rank order 0..N-1) and DMA_PUTs it into
 * its recvbuff (and into Global-HBM if its recvbuff is not readable by the
 * peers), raises its flag to 2; then copies each peer's reduced shard as
 * soon as THAT peer's flag is 2.  Writing shard k of the own recvbuff only
 * after rank k's flag is 2 is also what makes in-place safe: rank k is the
 * only reader of that part of the sendbuff.  A final on-card barrier.
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	(void)c;
	return NULL;
}

static bool all_readable(const struct swccl_call *c, bool send)
{
	for (int r = 0; r < c->nranks; r++)
		if (!swccl_readable(c, send ? &c->r[r].send : &c->r[r].recv))
			return false;
	return true;
}

/* [reduced shards for the peers][written sendbuffs] */
static size_t scratch(const struct swccl_call *c)
{
	size_t v = c->count * c->esize;

	return v + (all_readable(c, true) ? 0 : (size_t)c->nranks * v);
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	uint64_t es = c->esize, v = c->count * es, red = c->scratch, written = c->scratch + v;
	uint64_t items[SWCCL_MAX_RANKS], out[2], send = c->r[r].send.va;
	bool mine = swccl_readable(c, &c->r[r].send);
	size_t lo, len;
	int nout = 0;

	(void)s;
	swccl_shard(c->count, nr, r, &lo, &len);
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (!mine) {		/* all but the own shard */
		prog_copy(p, written + (uint64_t)r * v, send, lo * es);
		prog_copy(p, written + (uint64_t)r * v + (lo + len) * es, send + (lo + len) * es,
			  v - (lo + len) * es);
	}
	prog_signal(p, c->sem.flag[r], swccl_flag_value(c, 1));
	prog_progress(p, c, r, SWCCL_STEP_WRITTEN);
	for (int i = 1; i < nr; i++)
		prog_wait(p, c->sem.flag[(r + i) % nr], swccl_flag_value(c, 1));
	prog_progress(p, c, r, SWCCL_STEP_SYNCED);
	for (int j = 0; j < nr; j++)
		items[j] = (j == r || swccl_readable(c, &c->r[j].send) ? c->r[j].send.va :
			    written + (uint64_t)j * v) + lo * es;
	out[nout++] = c->r[r].recv.va + lo * es;
	if (!swccl_readable(c, &c->r[r].recv))
		out[nout++] = red + lo * es;
	phase_fold(p, c, items, nr, r, out, nout, true, len);
	prog_signal(p, c->sem.flag[r], swccl_flag_value(c, 2));
	prog_progress(p, c, r, SWCCL_STEP_REDUCED);
	for (int i = 1; i < nr; i++) {
		int k = (r + i) % nr;
		size_t klo, klen;

		swccl_shard(c->count, nr, k, &klo, &klen);
		prog_wait(p, c->sem.flag[k], swccl_flag_value(c, 2));
		prog_copy(p, c->r[r].recv.va + klo * es,
			  (swccl_readable(c, &c->r[k].recv) ? c->r[k].recv.va : red) + klo * es,
			  klen * es);
	}
	prog_progress(p, c, r, SWCCL_STEP_READ);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_allreduce_csc1 = {
	.name = "CSC1", .coll = SWCCL_ALLREDUCE, .algo = swcclAlgoCsc1,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
