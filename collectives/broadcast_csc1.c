// SPDX-License-Identifier: MIT
/*
 * broadcast_csc1.c - CSC1 Broadcast (ours): pipelined.  If the root's
 * buffer cannot be read where it is, the root writes it into Global-HBM in
 * K chunks, raising its flag after each, and the others copy chunk k as
 * soon as the flag says it is there, so reading overlaps writing:
 *
 *   T = t_launch + t_step + V/(K BW) + K (t_barrier + t_step + V/(K BW)) + t_barrier
 *
 * K (SWCCL_CSC1_CHUNKS, else chosen) minimises it: K ~ sqrt(V/BW / (t_step + t_barrier)).
 */
#include "swccl_algo.h"

static const char *unsupported(const struct swccl_call *c)
{
	(void)c;
	return NULL;
}

static bool direct(const struct swccl_call *c)
{
	return swccl_readable(c, &c->r[c->root].send);
}

static size_t scratch(const struct swccl_call *c)
{
	return direct(c) ? 0 : c->count * c->esize;
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static uint64_t chunks(const struct swccl_call *c)
{
	if (direct(c) && c->pipeline <= 0)
		return 1;
	return swccl_pipeline_chunks(c, 1);
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	uint64_t v = c->count * c->esize, k = chunks(c), ch = (v + k - 1) / k;
	uint64_t src = direct(c) ? c->r[c->root].send.va : c->scratch;
	int root = c->root;

	(void)s;
	if (!ch)
		ch = 1;
	prog_progress(p, c, r, SWCCL_STEP_START);
	if (r == root) {
		for (uint64_t o = 0, i = 1; o < v || i == 1; o += ch, i++) {
			if (!direct(c))
				prog_copy(p, c->scratch + o, c->r[r].send.va + o,
					  v - o < ch ? v - o : ch);
			prog_signal(p, c->sem.flag[r], swccl_flag_value(c, i));
			if (o + ch >= v)
				break;
		}
		prog_copy(p, c->r[r].recv.va, c->r[r].send.va, v);
	} else {
		for (uint64_t o = 0, i = 1; o < v; o += ch, i++) {
			prog_wait(p, c->sem.flag[root], swccl_flag_value(c, i));
			prog_copy(p, c->r[r].recv.va + o, src + o, v - o < ch ? v - o : ch);
		}
	}
	prog_progress(p, c, r, SWCCL_STEP_READ);
	prog_barrier(p, c, false);
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_broadcast_csc1 = {
	.name = "CSC1", .coll = SWCCL_BROADCAST, .algo = swcclAlgoCsc1,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
