// SPDX-License-Identifier: MIT
/*
 * swccl_shard.c - how AllReduce, Broadcast and Reduce cut their buffer
 * among the ranks.  (AllGather and ReduceScatter need nothing: their count
 * is per rank already, as in NCCL.)
 *
 * n elements into @parts nearly equal contiguous parts: the first n % parts
 * get one element more, so any count works and parts differ by at most one.
 */
#include <math.h>

#include "swccl_algo.h"

void swccl_shard(size_t n, int parts, int i, size_t *lo, size_t *len)
{
	size_t base = n / (size_t)parts, rem = n % (size_t)parts, ui = (size_t)i;

	*len = base + (ui < rem);
	*lo = ui * base + (ui < rem ? ui : rem);
}

/*
 * CSC1 pipelines (Broadcast, Reduce): K chunks cost about V/BW/K of
 * exposed transfer plus K x (a step and @barriers wake-ups), minimised at
 * K ~ sqrt(V/BW / (t_step + barriers x t_barrier)); 1..16, or
 * SWCCL_CSC1_CHUNKS.
 */
uint64_t swccl_pipeline_chunks(const struct swccl_call *c, int barriers)
{
	double us, k;

	if (c->pipeline > 0)
		return (uint64_t)c->pipeline;
	us = (double)(c->count * c->esize) / c->tp.ringMBps;
	k = sqrt(us * 1000 / (c->tp.stepNs + (double)c->tp.barrierNs * barriers));
	return k < 1 ? 1 : k > 16 ? 16 : (uint64_t)(k + 0.5);
}
