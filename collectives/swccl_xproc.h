/* SPDX-License-Identifier: MIT */
/*
 * swccl_xproc.h - a communicator across cards with one rank per process
 * (swcclGetUniqueId + swcclCommInitRank in each process, as NCCL): what a
 * rank tells the others when it joins, and the memory the ranks share
 * through IPC handles (sdaaIpcGetMemHandle) -- each rank's counters and
 * landing area, on its card, mapped by every peer over the fabric.
 */
#ifndef SWCCL_XPROC_H
#define SWCCL_XPROC_H

#include <stdint.h>

#include "swccl_comm.h"

struct swccl_boot;

/* What each rank sends when it joins (swccl_bootstrap.c carries it). */
struct swccl_xproc_rec {
	int32_t pid;
	int32_t card, cg;		/* sdaaDeviceProp.card, .coreGroup */
	int32_t fabric_id;		/* sdaaDeviceGetFabricInfo */
	uint32_t fabric_tag;
	uint32_t ldm;			/* LDM bytes of its core group */
	uint32_t version;		/* SWCCL_VERSION: one library for all */
	uint32_t pad;
	char host[64];			/* gethostname(): whose pids can be checked */
};

/* This host's identity (name and boot id), as the records carry it. */
void swccl_xproc_host(char *host, size_t n);
/* This process's rank's record. */
swcclResult_t swccl_xproc_rec(int dev, struct swccl_xproc_rec *me, char *why, size_t n);

/*
 * @sh's ranks are each in its own process; @boot keeps them joined (owned
 * by @sh from now on) and @all holds their records: fill in the remote
 * ranks' places and check they make a comm across cards.  The counters
 * come later, with swccl_xproc_flags().
 */
swcclResult_t swccl_xproc_attach(struct swccl_shared *sh, int rank, struct swccl_boot *boot,
				 const struct swccl_xproc_rec *all);
/* Every rank's counters (zeroed, on its card), mapped here: sh->xflags[]. */
swcclResult_t swccl_xproc_flags(struct swccl_shared *sh);
/*
 * Every rank's landing area holds @bytes: sh->xland[].  All ranks grow at
 * the same call, as each computes @bytes from the same call.
 */
swcclResult_t swccl_xproc_land(struct swccl_shared *sh, size_t bytes);
/* Every rank's @len bytes of @what, in rank order, into @all. */
swcclResult_t swccl_xproc_allgather(struct swccl_shared *sh, const void *mine, size_t len,
				    void *all, const char *what);
/*
 * Set up each of this process's ranks with @open (on its card; the current
 * device is kept), which fills in the rank's @len-byte record in
 * @recs[rank]; then every rank's record is known here -- the other
 * processes' over the bootstrap (@what names them in errors).
 */
swcclResult_t swccl_xproc_open_all(struct swccl_shared *sh, swcclComm_t comm0,
				   swcclResult_t (*open)(struct swccl_shared *sh, void *ctx,
							 int r, swcclComm_t comm0),
				   void *ctx, void *recs, size_t len, const char *what);
/* Undo it: @close on each of this process's ranks, on its card; errors dropped. */
void swccl_xproc_close_all(struct swccl_shared *sh, void (*close)(void *ctx, int r),
			   void *ctx);
/* The lowest rank on rank @q's host (node): the grouping of ranks into nodes. */
int swccl_xproc_node(const struct swccl_shared *sh, int q);
/* A remote rank whose process has ended (same host only), or -1. */
int swccl_xproc_dead(const struct swccl_shared *sh);
/* Unmap the peers' memory, free ours, leave the others (the comm's end). */
void swccl_xproc_free(struct swccl_shared *sh);

#endif /* SWCCL_XPROC_H */
