/* SPDX-License-Identifier: MIT */
/*
 * swccl_rdma_proto.h - the protocol of a schedule over RDMA WRITE (the
 * transport is swccl_rdma.h's): its ports, the records ranks exchange, a
 * call as the protocol sees it, and what carries it (the cards' ports or
 * their NIC engines).  A schedule (tools/cluster/swai-sched.h) runs over
 * the cards' NIC ports with RDMA WRITE (datasheet §16.3).
 *
 * Each rank has SWCCL_RDMA_PORTS ports of its own (beside the trees',
 * swccl_nic.h) and a mailbox of pinned host memory.  A call:
 *
 *   1. ready: every rank PUTs to each rank that will send to it where its
 *      output and scratch are this call (the mailbox record), counted on
 *      that sender's ready port; a sender waits until all its receivers
 *      have told it.  So a WRITE only lands in a buffer whose owner is in
 *      this call -- past its earlier work on it -- and a rank knows only
 *      its own buffers, as across processes it must.  Rounds (calls, and
 *      the rounds of a large one) take the SWCCL_RDMA_READY_PORTS ready
 *      ports in turn: a receiver that took nothing from a sender in one
 *      round may finish it early and send its record for the next while
 *      the sender still waits for this round's; on the same port that
 *      record would count towards this round's wait, which would then end
 *      at its time (wall-clock order deciding the modeled time).
 *   2. phases: a step's phase is 0, or one more than that of the receives
 *      or copies it waits for; a receive's is its send's.  In phase k a
 *      rank makes its phase-k copies (WRITEs to itself: a loopback through
 *      its port, datasheet §16.3) and messages (one WRITE a MiB, the last
 *      counted on the receiver's phase-k port) and waits until its
 *      phase-k port has counted its phase-k receives and copies.
 *      Messages of different phases count on different ports, so a
 *      message of a later phase arriving early never stands in for one
 *      still to come.
 *
 * The host drives it, as the HOST trees are driven: the call is
 * host-synchronous, and its modeled time is the host's clock across it.
 * The protocol (swccl_rdma_proto.c) runs on the cards' ports
 * (swccl_rdma_run.c) and, for the plan, on the cards' own NIC engines
 * (swccl_rdma_model.c): the prediction is the cards' time.
 */
#ifndef SWCCL_RDMA_PROTO_H
#define SWCCL_RDMA_PROTO_H

#include "swai-nic.h"
#include "swai-sched.h"
#include "swccl_comm.h"

/* Phases a schedule may have over the NICs (PLANE: 3). */
#define SWCCL_RDMA_PHASES	4
/* Ready ports, which rounds take in turn; then a port per phase. */
#define SWCCL_RDMA_READY_PORTS	2
#define SWCCL_RDMA_PORTS	(SWCCL_RDMA_READY_PORTS + SWCCL_RDMA_PHASES)
#define SWCCL_RDMA_PHASE_PORT(k)	(SWCCL_RDMA_READY_PORTS + (k))
/*
 * What one phase of a round may send a port: a peer queues 4096 packets of
 * 1 KiB, 4 MiB of WRITEs (datasheet §16.3).
 */
#define SWCCL_RDMA_MSG_MAX	(4u << 20)
#define SWCCL_RDMA_PACKET	1024u

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

/* One call as the protocol sees it (swccl_rdma_proto.c). */
struct swccl_rdma_call {
	struct swccl_shared *sh;
	const struct swccl_call *c;
	swcclComm_t comm0;
	const char *how;			/* "DIRECT", "PLANE" */
	const struct swccl_rdma_peer *peer;	/* every rank's ports and mailbox */
	bool local[SWCCL_MAX_RANKS];		/* the ranks run here */
	/*
	 * [rank][ready port]: ready records counted ahead of the round they
	 * are for (ready_wait), and the rounds run: kept from call to call
	 * by whoever carries them (every rank runs the same rounds).
	 */
	uint32_t (*credit)[SWCCL_RDMA_READY_PORTS];
	uint64_t *rounds;
	int ready;				/* this round's ready port */
	struct swai_sched s;
	int **match;				/* receive -> its send at the peer */
	int *rmatch[SWCCL_MAX_RANKS];		/* send -> its receive at the peer */
	int *level[SWCCL_MAX_RANKS];		/* every step's phase */
	int nlevels;
	/*
	 * Rounds: round j moves bytes [j w, (j + 1) w) of every block, so that
	 * no port is ever sent more than a peer queues (SWCCL_RDMA_MSG_MAX) in
	 * one phase; w is the whole block when one round does.
	 */
	uint64_t win_off, win_len;
	bool in_copy[SWCCL_MAX_RANKS];		/* in place: IN copied to in_va first */
	/*
	 * In place: the input's last piece (from copy_off) is copied out with
	 * the first round's records, on their port ahead of them.
	 */
	bool copy_last[SWCCL_MAX_RANKS];
	uint64_t copy_off[SWCCL_MAX_RANKS];
	uint64_t in_va[SWCCL_MAX_RANKS];
	uint64_t scratch_va[SWCCL_MAX_RANKS];
	/*
	 * AllToAllv through scratch (PLANE): rank r's scratch chunk k starts
	 * vscratch[r][k] bytes in, k <= s.scratch_chunks, each chunk the size
	 * of the block it holds.  NULL: no scratch.
	 */
	uint64_t *vscratch[SWCCL_MAX_RANKS];
};

/*
 * What carries the protocol: the cards' ports, or their NIC engines.
 * post: queue @n descriptors on rank @r's port @port at its host's clock;
 * 0 or -EIO.  wait: take @n completions of that port, the host's clock
 * moving past the latest; 0, -ETIME (fewer within SWCCL_TIMEOUT) or -EIO
 * (one ended with NIC status *status).  rec: the record rank @from left
 * in rank @r's mailbox.
 */
struct swccl_rdma_io {
	void *o;
	int (*post)(void *o, int r, int port, const struct swai_nic_desc *d, int n);
	int (*wait)(void *o, int r, int port, int n, unsigned int *status);
	const struct swccl_rdma_rec *(*rec)(void *o, int r, int from);
};

/*
 * swccl_rdma_proto.c: @x's schedule (x->how, grouped by c->node), its
 * matches and phases; 0, or the reason it cannot run over RDMA.
 */
swcclResult_t swccl_rdma_call_init(struct swccl_rdma_call *x);
void swccl_rdma_call_free(struct swccl_rdma_call *x);
/* The bytes of rank @r's input, and its scratch (what x->in_va, x->scratch_va hold). */
uint64_t swccl_rdma_in_bytes(const struct swccl_rdma_call *x);
uint64_t swccl_rdma_scratch_bytes(const struct swccl_rdma_call *x, int r);
/* The messages between nodes, and their bytes (an AllToAllv's empty ones are none). */
void swccl_rdma_internode(const struct swccl_rdma_call *x, unsigned long long *msgs,
			  unsigned long long *bytes);
/* Must rank @r's input be copied out first: does anything write its output where it is? */
bool swccl_rdma_in_place(const struct swccl_rdma_call *x, int r);
/* The call for x->local's ranks over @io: the ready records, then phase by phase. */
swcclResult_t swccl_rdma_exchange(struct swccl_rdma_call *x, const struct swccl_rdma_io *io);

#endif /* SWCCL_RDMA_PROTO_H */
