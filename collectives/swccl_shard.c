// SPDX-License-Identifier: MIT
/*
 * swccl_shard.c - how AllReduce, Broadcast and Reduce cut their buffer
 * among the ranks.  (AllGather and ReduceScatter need nothing: their count
 * is per rank already, as in NCCL.)
 *
 * n elements into @parts nearly equal contiguous parts: the first n % parts
 * get one element more, so any count works and parts differ by at most one.
 */
#include "swccl_internal.h"

void swccl_shard(size_t n, int parts, int i, size_t *lo, size_t *len)
{
	size_t base = n / (size_t)parts, rem = n % (size_t)parts, ui = (size_t)i;

	*len = base + (ui < rem);
	*lo = ui * base + (ui < rem ? ui : rem);
}
