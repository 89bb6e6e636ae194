// SPDX-License-Identifier: MIT
/*
 * swccl_algos.c - the table of (collective, algorithm) implementations.
 * Adding an algorithm: one file defining a struct swccl_algo, one line here.
 */
#include "swccl_algo.h"

#define X(n) extern const struct swccl_algo n;
X(swccl_allgather_ring) X(swccl_allgather_csc) X(swccl_allgather_csc1)
X(swccl_reducescatter_ring) X(swccl_reducescatter_csc) X(swccl_reducescatter_csc1)
X(swccl_allreduce_ring) X(swccl_allreduce_csc) X(swccl_allreduce_csc1)
X(swccl_broadcast_ring) X(swccl_broadcast_csc) X(swccl_broadcast_csc1)
X(swccl_reduce_ring) X(swccl_reduce_csc) X(swccl_reduce_csc1)
#undef X

const struct swccl_algo *const swccl_algos[] = {
	&swccl_allgather_ring, &swccl_allgather_csc, &swccl_allgather_csc1,
	&swccl_reducescatter_ring, &swccl_reducescatter_csc, &swccl_reducescatter_csc1,
	&swccl_allreduce_ring, &swccl_allreduce_csc, &swccl_allreduce_csc1,
	&swccl_broadcast_ring, &swccl_broadcast_csc, &swccl_broadcast_csc1,
	&swccl_reduce_ring, &swccl_reduce_csc, &swccl_reduce_csc1,
	NULL
};

const struct swccl_algo *swccl_algo_find(enum swccl_coll coll, swcclAlgo_t algo)
{
	for (int i = 0; swccl_algos[i]; i++)
		if (swccl_algos[i]->coll == coll && swccl_algos[i]->algo == algo)
			return swccl_algos[i];
	return NULL;
}

SWCCL_EXPORT const char *swcclAlgoName(swcclAlgo_t algo)
{
	static const char *const n[] = { "AUTO", "RING", "CSC", "CSC1" };

	return (unsigned)algo < swcclNumAlgos ? n[algo] : "?";
}
