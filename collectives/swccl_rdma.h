/* SPDX-License-Identifier: MIT */
/*
 * swccl_rdma.h - a schedule (tools/cluster/swai-sched.h) run over the cards'
 * NIC ports with RDMA WRITE (datasheet §16.3): how AllToAll's DIRECT and
 * PLANE run when the ranks span nodes, where no fabric joins their cards.
 *
 * Each rank has 1 + SWCCL_RDMA_PHASES ports of its own (beside the trees'
 * port, swccl_nic.h) and a mailbox of pinned host memory.  A call:
 *
 *   1. ready: every rank PUTs to each rank that will send to it where its
 *      output and scratch are this call (the mailbox record), counted on
 *      that sender's port 0; a sender waits until all its receivers have
 *      told it.  So a WRITE only lands in a buffer whose owner is in this
 *      call -- past its earlier work on it -- and a rank knows only its
 *      own buffers, as across processes it must.
 *   2. phases: a step's phase is 0, or one more than that of the receives
 *      it waits for (through local steps); a receive's is its send's.  In
 *      phase k a rank copies its phase-k local steps (on its stream), sends
 *      its phase-k messages (one WRITE a MiB, the last counted on the
 *      receiver's port 1 + k) and waits until its port 1 + k has counted
 *      its phase-k receives.  Messages of different phases count on
 *      different ports, so a message of a later phase arriving early
 *      never stands in for one still to come.
 *
 * The host drives it, as the HOST trees are driven: the call is
 * host-synchronous, and its modeled time is the host's clock across it.
 */
#ifndef SWCCL_RDMA_H
#define SWCCL_RDMA_H

#include "swccl_comm.h"

struct swccl_plan;

/* Phases a schedule may have over the NICs (PLANE: 3). */
#define SWCCL_RDMA_PHASES	4
#define SWCCL_RDMA_PORTS	(1 + SWCCL_RDMA_PHASES)
/* A message is at most this (a peer queues 4 MiB of WRITEs, datasheet §16.3). */
#define SWCCL_RDMA_MSG_MAX	(4u << 20)

/* Where a rank's ports and mailbox are, as every rank knows it. */
struct swccl_rdma_peer {
	uint32_t node;
	uint32_t vport[SWCCL_RDMA_PORTS];
	uint32_t key[SWCCL_RDMA_PORTS];
	uint32_t pad;
	uint64_t mbox;		/* device address of its mailbox */
};

/* What a receiver tells a sender at the start of a call (a PUT, 32 bytes). */
struct swccl_rdma_rec {
	uint64_t out, scratch;	/* device addresses of its buffers this call */
	uint64_t seq;		/* the call */
	uint64_t bytes;		/* AllToAllv: out is the sender's block, of this size */
};

struct swccl_rdma {
	struct swccl_rdma_peer peer[SWCCL_MAX_RANKS];
	sdaaNicPort_t port[SWCCL_MAX_RANKS][SWCCL_RDMA_PORTS];	/* this process's ranks */
	struct swccl_rdma_rec *mbox[SWCCL_MAX_RANKS];		/* pinned: a record a peer */
	void *scratch[SWCCL_MAX_RANKS];				/* on the rank's card */
	size_t scratch_bytes[SWCCL_MAX_RANKS];
	void *in[SWCCL_MAX_RANKS];		/* an in-place call's input, copied first */
	size_t in_bytes[SWCCL_MAX_RANKS];
};

/* NULL if @c can run over RDMA WRITE, else why not. */
const char *swccl_rdma_unsupported(const struct swccl_call *c);
/* Plan @c (AllToAll, ranks on several nodes): DIRECT or PLANE, as wanted or chosen. */
swcclResult_t swccl_rdma_plan(struct swccl_shared *sh, struct swccl_call *c,
			      struct swccl_plan *p, swcclComm_t comm0);
/* Run it for this process's ranks. */
swcclResult_t swccl_rdma_run(struct swccl_shared *sh, struct swccl_call *c,
			     const struct swccl_plan *p, swcclComm_t comm0);
void swccl_rdma_free(struct swccl_shared *sh);

#endif /* SWCCL_RDMA_H */
