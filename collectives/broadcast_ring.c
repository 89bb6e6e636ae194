// SPDX-License-Identifier: MIT
/*
 * broadcast_ring.c - RING Broadcast, the baseline: a chain root, root+1,
 * ... of N-1 host-launched steps; in step s rank root+s copies the whole
 * buffer into the next rank's recvbuff (ranks with nothing to do in a step
 * launch nothing), and the host waits after each step.
 *
 *   T = (N-1)(t_launch + t_step + V/BW + t_sync)
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (r != c->root && !swccl_readable(c, &c->r[r].recv))
			return "a recvbuff in Local-HBM needs peer access between the core groups";
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	(void)c;
	return 0;
}

static int steps(const struct swccl_call *c)
{
	return c->nranks > 1 ? c->nranks - 1 : 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int nr = c->nranks, next = (r + 1) % nr;
	uint64_t v = c->count * c->esize;

	if (r != (c->root + s) % nr)
		return;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (s == 0)
		prog_copy(p, c->r[r].recv.va, c->r[r].send.va, v);
	if (nr > 1)
		prog_copy(p, c->r[next].recv.va, c->r[r].recv.va, v);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_broadcast_ring = {
	.name = "RING", .coll = SWCCL_BROADCAST, .algo = swcclAlgoRing,
	.props = SWCCL_ALGO_HOST_SYNC,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
