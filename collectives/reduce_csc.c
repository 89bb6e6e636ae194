// SPDX-License-Identifier: MIT
/*
 * reduce_csc.c - CSC Reduce: every rank writes its buffer into Global-HBM
 * unless it is there, SYNC, the root reduces in rank-order rounds
 * (Algorithm 2's read phase, reducescatter_csc.c) into its recvbuff, then
 * an on-card barrier.
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

/* [running result][written sendbuffs] */
static size_t scratch(const struct swccl_call *c)
{
	size_t v = c->count * c->esize;

	return v + (size_t)c->nranks * v;
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks;
	uint64_t v = c->count * c->esize, written = c->scratch + v, src[SWCCL_MAX_RANKS];

	(void)s;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (r != c->root && !shared(&c->r[r].send))
		prog_copy(p, written + (uint64_t)r * v, c->r[r].send.va, v);
	prog_progress(p, c, r, SWCCL_STEP_WRITTEN);
	prog_barrier(p, c, true);
	prog_progress(p, c, r, SWCCL_STEP_SYNCED);
	if (r == c->root) {
		for (int j = 0; j < nr; j++)
			src[j] = j == r || shared(&c->r[j].send) ? c->r[j].send.va :
				 written + (uint64_t)j * v;
		phase_reduce_rounds(p, c, src, c->scratch, c->r[r].recv.va, c->count);
	}
	prog_progress(p, c, r, SWCCL_STEP_REDUCED);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_reduce_csc = {
	.name = "CSC", .coll = SWCCL_REDUCE, .algo = swcclAlgoCsc,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
