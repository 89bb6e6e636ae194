// SPDX-License-Identifier: MIT
/*
 * broadcast_csc.c - CSC Broadcast: the root writes its buffer into
 * Global-HBM unless it is there, SYNC, every other rank copies it, then an
 * on-card barrier.
 *
 *   T = t_launch [+ t_step + V/BW] + t_sync + t_step + V/BW + t_barrier
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	(void)c;
	return NULL;
}

static bool root_shared(const struct swccl_call *c)
{
	return c->r[c->root].send.tier != SWCCL_LOCAL;
}

static size_t scratch(const struct swccl_call *c)
{
	return root_shared(c) ? 0 : c->count * c->esize;
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	uint64_t v = c->count * c->esize;
	uint64_t src = root_shared(c) ? c->r[c->root].send.va : c->scratch;

	(void)s;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (r == c->root) {
		if (!root_shared(c))
			prog_copy(p, c->scratch, c->r[r].send.va, v);
		prog_copy(p, c->r[r].recv.va, c->r[r].send.va, v);
	}
	prog_progress(p, c, r, SWCCL_STEP_WRITTEN);
	prog_barrier(p, c, true);
	prog_progress(p, c, r, SWCCL_STEP_SYNCED);
	if (r != c->root)
		prog_copy(p, c->r[r].recv.va, src, v);
	prog_progress(p, c, r, SWCCL_STEP_READ);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_broadcast_csc = {
	.name = "CSC", .coll = SWCCL_BROADCAST, .algo = swcclAlgoCsc,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
