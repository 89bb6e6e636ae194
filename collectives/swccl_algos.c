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
X(swccl_alltoall_direct)
#define XC(c) X(swccl_##c##_xRing) X(swccl_##c##_xMesh1) X(swccl_##c##_xMesh2) \
	X(swccl_##c##_xHd) X(swccl_##c##_xNhr) X(swccl_##c##_xRb) X(swccl_##c##_xFile)
XC(allgather) XC(reducescatter) XC(allreduce) XC(broadcast) XC(reduce)
X(swccl_alltoall_xDirect) X(swccl_alltoall_xPlane) X(swccl_alltoall_xFile)
#undef X

const struct swccl_algo *const swccl_algos[] = {
	&swccl_allgather_ring, &swccl_allgather_csc, &swccl_allgather_csc1,
	&swccl_reducescatter_ring, &swccl_reducescatter_csc, &swccl_reducescatter_csc1,
	&swccl_allreduce_ring, &swccl_allreduce_csc, &swccl_allreduce_csc1,
	&swccl_broadcast_ring, &swccl_broadcast_csc, &swccl_broadcast_csc1,
	&swccl_reduce_ring, &swccl_reduce_csc, &swccl_reduce_csc1,
	&swccl_alltoall_direct,
	/* between cards (swccl_xcard.c) */
#define XA(c) &swccl_##c##_xRing, &swccl_##c##_xMesh1, &swccl_##c##_xMesh2, \
	&swccl_##c##_xHd, &swccl_##c##_xNhr, &swccl_##c##_xRb, &swccl_##c##_xFile
	XA(allgather), XA(reducescatter), XA(allreduce), XA(broadcast), XA(reduce),
#undef XA
	&swccl_alltoall_xDirect, &swccl_alltoall_xPlane, &swccl_alltoall_xFile,
	NULL
};

const struct swccl_algo *swccl_algo_find_for(enum swccl_coll coll, swcclAlgo_t algo,
					     bool xcard)
{
	for (int i = 0; swccl_algos[i]; i++)
		if (swccl_algos[i]->coll == coll && swccl_algos[i]->algo == algo &&
		    !!(swccl_algos[i]->props & SWCCL_ALGO_XCARD) == xcard)
			return swccl_algos[i];
	return NULL;
}

const struct swccl_algo *swccl_algo_find(enum swccl_coll coll, swcclAlgo_t algo)
{
	return swccl_algo_find_for(coll, algo, false);
}

SWCCL_EXPORT const char *swcclAlgoName(swcclAlgo_t algo)
{
	static const char *const n[] = { "AUTO", "RING", "CSC", "CSC1", "MESH1", "MESH2",
					 "HD", "NHR", "RB", "FILE", "NIC", "HOST",
					 "DIRECT", "PLANE" };

	return (unsigned)algo < swcclNumAlgos ? n[algo] : "?";
}
