/* SPDX-License-Identifier: MIT */
/*
 * swccl_kind.h - what a rank can call, as the enqueue layer sees it: one
 * rank's arguments (struct swccl_op) and the kind of operation they are
 * (struct swccl_kind: the collectives, the fused calls), whose ops
 * check a rank's arguments, match the ranks' calls, and plan the call of
 * all ranks.  A new kind of operation is one ops table; nothing in the
 * layers below tests which kind a call is.
 */
#ifndef SWCCL_KIND_H
#define SWCCL_KIND_H

#include "swccl_comm.h"

struct swccl_plan;

/* One rank's call, as posted. */
struct swccl_op {
	swcclComm_t comm;
	const struct swccl_kind *kind;
	enum swccl_coll coll;		/* collectives */
	const void *send;
	void *recv;
	size_t count;
	swcclDataType_t dtype;
	swcclRedOp_t op;
	int root;
	sdaaStream_t stream;
	struct swccl_fused fz;		/* fused calls: the shape */
	const void *fp[FB_N];		/* fused calls: the buffers */
	struct swccl_peers *pv;		/* AllToAllv, Send/Recv: the blocks */
	bool merge;			/* Send/Recv: one op per rank in a group */
	struct swccl_joined *joined;	/* Send/Recv: several with one peer (swccl_p2p.c) */
	/*
	 * In levels (swccl_hier.c): this plane's level runs while the comm's
	 * other planes idle, so it has the links to itself (a Broadcast's or
	 * Reduce's level between cards, on the root's plane).
	 */
	bool alone;
};

struct swccl_kind {
	/* "AllGather", "LayerNormAllGatherGemm", ... */
	const char *(*name)(const struct swccl_call *c);
	/* Check rank @op's arguments (no rendezvous yet); fill its part of the call. */
	swcclResult_t (*check)(const struct swccl_op *op, struct swccl_rank *rk);
	/* The call's shared fields, from the first rank that posts it. */
	void (*init)(struct swccl_call *c, const struct swccl_op *op);
	/* Does another rank's @op describe the same call as @c? */
	bool (*same)(const struct swccl_call *c, const struct swccl_op *op);
	/*
	 * The call of all ranks: the resources it needs, how it runs (a
	 * schedule of jobs, struct swccl_plan) and what the card takes for it.
	 */
	swcclResult_t (*plan)(struct swccl_shared *sh, struct swccl_call *c, struct swccl_plan *p,
			      swcclComm_t comm0);
	/* A call of no elements still runs (a barrier); else it returns at once. */
	bool empty;
	/*
	 * In a group, fold @op into @into, an earlier op of the same rank and
	 * kind (Send/Recv: one exchange a group); NULL: every op its own call.
	 */
	swcclResult_t (*merge)(struct swccl_op *into, const struct swccl_op *op);
	/*
	 * In a group, before any of its calls is posted: make a merged @op
	 * one call's worth (Send/Recv: several blocks with one peer staged as
	 * one, on the rank's stream).  After the call was launched (@ran) or
	 * instead of it: finish and free what stage made.  NULL: nothing.
	 */
	swcclResult_t (*stage)(struct swccl_op *op);
	void (*release)(struct swccl_op *op, bool ran);
};

extern const struct swccl_kind swccl_kind_coll;		/* swccl_coll.c */
extern const struct swccl_kind swccl_kind_fused;	/* swccl_fused.c */
extern const struct swccl_kind swccl_kind_barrier;	/* swccl_barrier.c */
extern const struct swccl_kind swccl_kind_p2p;		/* swccl_p2p.c */

/* swccl_enqueue.c: the host rendezvous of the ranks */
swcclResult_t swccl_post(const struct swccl_op *op, uint64_t *seq);
swcclResult_t swccl_wait(swcclComm_t comm, uint64_t seq);
void swccl_insts_free(struct swccl_shared *sh);

/* swccl_group.c: a rank's call, recorded in a group, else posted and waited for */
swcclResult_t swccl_submit(const struct swccl_op *op);

/* swccl_launch.c: plan and launch the call of all ranks (the rank completing it) */
swcclResult_t swccl_execute(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0);
/* The algorithm @comm's calls ask for: swcclCommSetAlgo's, else SWCCL_ALGO's (swccl_coll.c). */
swcclAlgo_t swccl_algo_wanted(swcclComm_t comm);

#endif /* SWCCL_KIND_H */
