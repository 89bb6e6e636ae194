/* SPDX-License-Identifier: MIT */
/*
 * swccl_nic.h - the NIC transport: collectives whose messages cross the
 * cards' NIC ports (Documentation/datasheet.md §16) instead of the fabric,
 * between any ranks -- on one card, across cards, across nodes.
 *
 * Two algorithms, both seed 001's reduction tree of branching degree
 * SWCCL_NIC_BRANCH (default 4) over the ranks, one tree per 48 bytes (a
 * descriptor's data) of AllReduce, Reduce, Broadcast, AllGather and
 * ReduceScatter (swccl_nic_piece.c): NIC, offloaded, and HOST, the same
 * trees driven by the hosts -- tools/card/swai-nic-run.h runs both, here
 * on the cards' ports (and on their NIC engines for the prediction).  Both
 * combine in child order, so both give the same bits.
 */
#ifndef SWCCL_NIC_H
#define SWCCL_NIC_H

#include "swai-nic-run.h"
#include "swccl_comm.h"

struct swccl_plan;

/*
 * At most this many trees a call: each carries 48 bytes, and a tree is
 * tens of microseconds (modeled) and more of wall time under emulation.
 * Larger messages between nodes want RDMA WRITE (datasheet §16), which
 * libswccl does not use yet.
 */
#define SWCCL_NIC_MAX_PIECES	1024

/*
 * Two ports a rank, which the trees take in turn.  A rank that has left
 * tree i may start tree i + 1 and send a packet to a peer still waiting
 * for its parent's in tree i (the next tree's root, so its shape, may
 * differ: a Reduce to rank 1, then an AllReduce from rank 0): on one port
 * that packet would count towards the peer's threshold of tree i, which
 * then fires at the wrong packet's time.  No rank starts tree i + 2 before
 * every rank has left tree i (each gives its part of tree i + 1 after it
 * left tree i, and tree i + 1 ends after all parts), so two sets suffice.
 */
#define SWCCL_NIC_SETS		2

struct swccl_nic {
	struct swai_nic_peer peer[SWCCL_NIC_SETS][SWCCL_MAX_RANKS];	/* every rank's */
	sdaaNicPort_t port[SWCCL_NIC_SETS][SWCCL_MAX_RANKS];	/* this process's ranks */
	/* The ports as the ranks exchange them: a record per rank. */
	struct swai_nic_peer rec[SWCCL_MAX_RANKS][SWCCL_NIC_SETS];
	uint64_t trees;			/* trees run: the next takes set trees % SETS */
	void *stage[SWCCL_MAX_RANKS];		/* their staging (swai-nic-run.h), pinned */
	void *in[SWCCL_MAX_RANKS];		/* their inputs, read by the host, pinned */
	size_t in_bytes[SWCCL_MAX_RANKS];
};

/* One tree of a call (swccl_nic_piece.c). */
struct swccl_nic_piece {
	int root;
	size_t in_off;		/* bytes into the givers' inputs */
	size_t out_off;		/* bytes into the keepers' results */
	unsigned int count;	/* elements */
	bool all_give;		/* every rank gives its input, else the root alone */
	bool all_keep;		/* every rank keeps the result, else the root alone */
};

size_t swccl_nic_pieces(const struct swccl_call *c);
void swccl_nic_piece(const struct swccl_call *c, size_t i, struct swccl_nic_piece *p);
/* Bytes of a rank's input the pieces read. */
size_t swccl_nic_in_bytes(const struct swccl_call *c);

/* NULL if @algo (NIC or HOST) can run @c, else why not. */
const char *swccl_nic_unsupported(const struct swccl_call *c, swcclAlgo_t algo);
/* Every rank's port, opened and known to all (once per comm). */
swcclResult_t swccl_nic_setup(struct swccl_shared *sh, swcclComm_t comm0);
void swccl_nic_free(struct swccl_shared *sh);
/* Do this process's ranks' cards have NIC ports on a network? */
bool swccl_nic_cards(struct swccl_shared *sh, const struct swccl_call *c);
/* The tree's branching degree (SWCCL_NIC_BRANCH). */
unsigned int swccl_nic_branch(void);
/* The ALU's names for @c's type and operation. */
void swccl_nic_types(const struct swccl_call *c, unsigned int *rtype, unsigned int *dtype,
		     unsigned int *width);

/* swccl_nic_run.c: plan @c for c->want (NIC or HOST): the algorithm and its model's time. */
swcclResult_t swccl_nic_plan(struct swccl_shared *sh, struct swccl_call *c,
			     struct swccl_plan *p, swcclComm_t comm0);
/*
 * AUTO: should @c go over the NICs?  @best is the cards' best plan (NULL:
 * none can run); true with *p the NIC's plan if it is cheaper.
 */
bool swccl_nic_auto(struct swccl_shared *sh, struct swccl_call *c, const struct swccl_plan *best,
		    struct swccl_plan *p, swcclComm_t comm0);
/* Run @c with p->algo (NIC or HOST) for this process's ranks. */
swcclResult_t swccl_nic_run(struct swccl_shared *sh, struct swccl_call *c,
			    struct swccl_plan *p, swcclComm_t comm0);

#endif /* SWCCL_NIC_H */
