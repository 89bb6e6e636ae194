/* SPDX-License-Identifier: MIT */
/*
 * swccl_rdma.h - collectives over the cards' NIC ports with RDMA WRITE:
 * how AllToAll's DIRECT and PLANE, AllGather's and Broadcast's MESH1 and
 * the reductions (swccl_rdma_reduce.c) run when the ranks span nodes, where
 * no fabric joins their cards -- their plans, models and runs, and what a
 * communicator keeps for them.  The protocol itself is swccl_rdma_proto.h.
 */
#ifndef SWCCL_RDMA_H
#define SWCCL_RDMA_H

#include "swccl_rdma_proto.h"

struct swccl_plan;

/*
 * swccl_rdma_model.c: @c by @how on the cards' NIC engines, every rank
 * from one host time: its time in us, or -1 if the model cannot say (a
 * rank whose AllToAllv counts this process does not know).
 */
double swccl_rdma_model(struct swccl_shared *sh, const struct swccl_call *c, const char *how,
			swcclComm_t comm0);
/*
 * The same from each rank's host clock @host_ns[r] (ns), which it moves to
 * the rank's end: a model of a call made of several exchanges.
 */
double swccl_rdma_model_from(struct swccl_shared *sh, const struct swccl_call *c, const char *how,
			     swcclComm_t comm0, uint64_t *host_ns);

struct swccl_rdma {
	struct swccl_rdma_peer peer[SWCCL_MAX_RANKS];
	sdaaNicPort_t port[SWCCL_MAX_RANKS][SWCCL_RDMA_PORTS];	/* this process's ranks */
	struct swccl_rdma_rec *mbox[SWCCL_MAX_RANKS];		/* pinned: a record a peer */
	void *scratch[SWCCL_MAX_RANKS];				/* on the rank's card */
	size_t scratch_bytes[SWCCL_MAX_RANKS];
	void *in[SWCCL_MAX_RANKS];		/* an in-place call's input, copied first */
	size_t in_bytes[SWCCL_MAX_RANKS];
	void *red[SWCCL_MAX_RANKS];		/* reduction slots (swccl_rdma_reduce.c) */
	/* swccl_rdma_call.credit and .rounds, this process's ranks */
	uint32_t credit[SWCCL_MAX_RANKS][SWCCL_RDMA_READY_PORTS];
	uint64_t rounds;
	size_t red_bytes[SWCCL_MAX_RANKS];
};

/*
 * Plan @c (AllToAll, ranks on several nodes): DIRECT or PLANE, as wanted or
 * by the model; a shape's plan is kept in the comm's cache.
 */
swcclResult_t swccl_rdma_plan(struct swccl_shared *sh, struct swccl_call *c,
			      struct swccl_plan *p, swcclComm_t comm0);
/* Run it for this process's ranks. */
swcclResult_t swccl_rdma_run(struct swccl_shared *sh, struct swccl_call *c,
			     const struct swccl_plan *p, swcclComm_t comm0);
/* Does @c reduce (AllReduce, ReduceScatter, Reduce): swccl_rdma_reduce.c's? */
static inline bool swccl_rdma_reduces(const struct swccl_call *c)
{
	return c->coll == SWCCL_ALLREDUCE || c->coll == SWCCL_REDUCESCATTER ||
	       c->coll == SWCCL_REDUCE;
}
/*
 * swccl_rdma_reduce.c: ReduceScatter, AllReduce or Reduce @c for this
 * process's ranks: its blocks to their owners, summed on the owners' cards,
 * AllReduce's sums back to every rank, Reduce's to the root -- exchanges of
 * swccl_rdma_run.
 */
swcclResult_t swccl_rdma_reduce_run(struct swccl_shared *sh, struct swccl_call *c,
				    swcclComm_t comm0);
/*
 * Its time in us as the cards' NIC engines and the cards take it (the
 * exchanges by swccl_rdma_model_from, the sums by the cost model), or -1.
 */
double swccl_rdma_reduce_model(struct swccl_shared *sh, const struct swccl_call *c,
			       swcclComm_t comm0);
void swccl_rdma_free(struct swccl_shared *sh);
/* The fields of an RDMA plan that are not its choice (one from the cache too). */
void swccl_rdma_finish_plan(struct swccl_plan *p);
/*
 * AUTO inside a node: should AllToAll go over the cards' NICs after all?
 * @best is the fabric's plan (NULL: none); true with *p the RDMA plan if
 * its model says it is faster -- a card's port copies without a job, where
 * the fabric's programs pay their launch and steps.  Not cached here: the
 * caller keeps the choice it makes (swccl_plan_store).
 */
bool swccl_rdma_auto(struct swccl_shared *sh, struct swccl_call *c, const struct swccl_plan *best,
		     struct swccl_plan *p, swcclComm_t comm0);

#endif /* SWCCL_RDMA_H */
