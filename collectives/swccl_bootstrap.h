/* SPDX-License-Identifier: MIT */
/*
 * swccl_bootstrap.h - how the ranks of a communicator find each other over
 * TCP, as NCCL's bootstrap: swcclGetUniqueId opens a root that listens, its
 * address goes into the id, and every rank's swcclCommInitRank sends the
 * root a record and gets everyone's back.  The ranks then stay joined
 * through rank 0 (a star of TCP connections) for the exchanges the
 * communicator makes later, while it lives.  Every wait is bounded; a peer
 * that goes away is an error naming it, never a hang.
 */
#ifndef SWCCL_BOOTSTRAP_H
#define SWCCL_BOOTSTRAP_H

#include <stddef.h>

#include "swccl.h"

struct swccl_boot;

/*
 * A new id whose root listens on every address; its thread serves one
 * communicator's joining, whose ranks all come within @timeout_s of the
 * first.  With SWCCL_COMM_ID="host:port" (as NCCL_COMM_ID) the id names
 * that address instead and starts nothing: every process of a job makes
 * the same id, and rank 0's swcclCommInitRank serves it
 * (swccl_boot_serve).  0, or -1 with @why.
 */
int swccl_boot_new_id(swcclUniqueId *id, double timeout_s, char *why, size_t n);
/* Is SWCCL_COMM_ID set (every process makes the same id, rank 0 serves it)? */
int swccl_boot_fixed(void);
/* Rank 0 under SWCCL_COMM_ID: serve the id's joining from this process. */
int swccl_boot_serve(const swcclUniqueId *id, double timeout_s, char *why, size_t n);

/*
 * Rank @rank of @nranks joins the comm of @id, giving @len bytes of @mine;
 * @all gets every rank's, in rank order.  *boot keeps the rank joined.
 * 0, or -1 with @why (a bad id, a root or peer that never answered within
 * @timeout_s seconds or went away, ranks that disagree).
 */
int swccl_boot_join(const swcclUniqueId *id, int rank, int nranks, const void *mine,
		    size_t len, void *all, double timeout_s, struct swccl_boot **boot,
		    char *why, size_t n);

/* Every rank's @len bytes, as in the join; all ranks call it in the same order. */
int swccl_boot_allgather(struct swccl_boot *b, const void *mine, size_t len, void *all,
			 double timeout_s, char *why, size_t n);

void swccl_boot_close(struct swccl_boot *b);

#endif /* SWCCL_BOOTSTRAP_H */
