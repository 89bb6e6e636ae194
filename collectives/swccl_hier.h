/* SPDX-License-Identifier: MIT */
/*
 * swccl_hier.h - a communicator of several core groups on each of several
 * cards, run in levels as HCCL composes them: the core groups of a card
 * over its Global-HBM (the one-card algorithms: CSC, CSC1, RING), the
 * cards over the fabric in planes -- core group slot j of every card (the
 * algorithms between cards).  Each level is a communicator of its own
 * (made by swccl_comm.c); a call of the whole is calls of the levels on
 * the ranks' own streams, so each rank's steps follow one another.
 */
#ifndef SWCCL_HIER_H
#define SWCCL_HIER_H

#include "swccl_comm.h"

struct swccl_hier {
	int ncards, per_card;			/* K cards x G core groups */
	int card_of[SWCCL_MAX_RANKS];		/* rank -> k (order of first appearance) */
	int slot_of[SWCCL_MAX_RANKS];		/* rank -> j (its order on its card) */
	int rank_at[SWCCL_MAX_RANKS][SWCCL_MAX_RANKS];	/* [k][j] -> rank */
	swcclComm_t card[SWCCL_MAX_RANKS][SWCCL_MAX_RANKS];	/* [k][j]: card k's comm */
	swcclComm_t plane[SWCCL_MAX_RANKS][SWCCL_MAX_RANKS];	/* [j][k]: plane j's comm */
};

/*
 * Group @n ranks on @card[] into cards and slots; 0, or -1 with @why
 * (cards with different numbers of ranks: swccl_comm.c then runs them flat).
 */
int swccl_hier_layout(struct swccl_hier *h, const int *card, int n, char *why, size_t len);

/* The call of all ranks of a hierarchical comm (struct swccl_shared.execute). */
swcclResult_t swccl_hier_execute(struct swccl_shared *sh, struct swccl_call *c,
				 swcclComm_t comm0);

/* A level's failure as the comm's (swcclCommGetAsyncError); 0 if none. */
swcclResult_t swccl_hier_failed(struct swccl_shared *sh, char *msg, size_t n);

#endif /* SWCCL_HIER_H */
