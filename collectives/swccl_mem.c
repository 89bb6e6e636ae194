// SPDX-License-Identifier: MIT
/*
 * swccl_mem.c - the users' buffers and streams as the programs see them, and
 * the memory of a communicator on the card.
 *
 * A communicator owns a Global-HBM scratch for the algorithms (grown on
 * demand), two Global-HBM staging buffers for the fused calls (each in two
 * halves used by alternate calls, so a call writes one half while slow
 * ranks may still read the other) and a Local-HBM scratch per rank.  Memory
 * a launched job may still touch is never freed under it: an older scratch
 * is kept (retired) until the comm is idle or ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_kind.h"

swcclResult_t swccl_buffer(swcclComm_t comm, const void *p, size_t bytes, const char *what,
			   struct swccl_buf *b)
{
	struct sdaaPointerAttributes at;

	memset(b, 0, sizeof(*b));
	if (!p)
		return swccl_fail(comm, swcclInvalidArgument, "%s is NULL", what);
	if (sdaaPointerGetAttributes(&at, p) || at.type == sdaaMemoryTypeUnregistered)
		return swccl_fail(comm, swcclInvalidArgument,
				  "%s %p is not memory of libsdaa (sdaaMalloc, sdaaMallocCross, "
				  "sdaaMallocHost)", what, p);
	if (at.type == sdaaMemoryTypeLocal && at.coreGroup != comm->cg)
		return swccl_fail(comm, swcclInvalidArgument,
				  "%s %p is Local-HBM of CG %d, not of rank %d's CG %d", what, p,
				  at.coreGroup, comm->rank, comm->cg);
	if (at.type != sdaaMemoryTypeHost && at.card != comm->card)
		return swccl_fail(comm, swcclInvalidArgument, "%s %p is on another card", what, p);
	b->va = (uint64_t)(uintptr_t)at.devicePointer;
	b->tier = at.type == sdaaMemoryTypeLocal ? SWCCL_LOCAL :
		  at.type == sdaaMemoryTypeCross ? SWCCL_GLOBAL : SWCCL_HOST;
	b->cg = at.coreGroup;
	b->bytes = bytes;
	return swcclSuccess;
}

swcclResult_t swccl_stream_check(swcclComm_t comm, sdaaStream_t stream)
{
	int dev;

	if (!stream)
		return swcclSuccess;
	if (sdaaStreamGetDevice(stream, &dev))
		return swccl_fail(comm, swcclInvalidArgument, "not a stream");
	if (dev != comm->dev)
		return swccl_fail(comm, swcclInvalidUsage,
				  "stream of device %d, rank %d is device %d", dev,
				  comm->rank, comm->dev);
	return swcclSuccess;
}

bool swccl_idle(struct swccl_shared *sh)
{
	return !sh->launched_seq || swccl_all_done(sh, sh->launched_seq);
}

/*
 * Memory on the current device's card for the peers to write over the
 * fabric: Global-HBM, or the rank's Local-HBM on a card split all Local
 * (Local privacy binds core groups of one card, not the fabric).
 */
static int alloc_any(void **p, size_t bytes)
{
	if (!sdaaMallocCross(p, bytes))
		return 0;
	sdaaGetLastError();
	return sdaaMalloc(p, bytes) ? -1 : 0;
}

static void free_any(void *p)
{
	struct sdaaPointerAttributes at;

	if (!sdaaPointerGetAttributes(&at, p) && at.type == sdaaMemoryTypeLocal)
		sdaaFree(p);
	else
		sdaaFreeCross(p);
}

/* Drop Global-HBM the comm no longer needs: freed now if idle, else at the end. */
static swcclResult_t retire(struct swccl_shared *sh, void *old)
{
	void **ret;

	if (!old)
		return swcclSuccess;
	if (swccl_idle(sh)) {
		free_any(old);
		return swcclSuccess;
	}
	ret = realloc(sh->retired, (size_t)(sh->nretired + 1) * sizeof(*ret));
	if (!ret)
		return swcclSystemError;
	sh->retired = ret;
	ret[sh->nretired++] = old;
	return swcclSuccess;
}

/* *buf of *have bytes holds @need: a new one (old retired) if not. */
static swcclResult_t grow_global(struct swccl_shared *sh, void **buf, size_t *have, size_t need)
{
	void *p;

	if (need <= *have)
		return swcclSuccess;
	if (*buf && swccl_idle(sh)) {	/* room for the new one first */
		sdaaFreeCross(*buf);
		*buf = NULL;
		*have = 0;
	}
	if (sdaaSetDevice(sh->comm[0]->dev) || sdaaMallocCross(&p, need))
		return swcclUnhandledSdaaError;
	if (retire(sh, *buf)) {
		sdaaFreeCross(p);
		return swcclSystemError;
	}
	*buf = p;
	*have = need;
	return swcclSuccess;
}

swcclResult_t swccl_scratch(struct swccl_shared *sh, size_t bytes)
{
	if (bytes <= sh->scratch_bytes)
		return swcclSuccess;
	return grow_global(sh, &sh->scratch, &sh->scratch_bytes,
			   bytes < 2 * sh->scratch_bytes ? 2 * sh->scratch_bytes : bytes);
}

swcclResult_t swccl_stage(struct swccl_shared *sh, int which, size_t half, uint64_t *va)
{
	struct swccl_stage *s = &sh->stage[which];
	swcclResult_t r;

	*va = 0;
	if (!half)
		return swcclSuccess;
	r = grow_global(sh, &s->buf, &s->bytes, 2 * half);
	if (r)
		return r;
	*va = (uint64_t)(uintptr_t)s->buf + (s->calls++ & 1) * half;
	return swcclSuccess;
}

swcclResult_t swccl_tmp(struct swccl_shared *sh, struct swccl_call *c, size_t bytes,
			swcclComm_t comm0)
{
	sdaaError_t e;

	for (int r = 0; r < c->nranks && bytes; r++) {
		if (sh->tmp_bytes[r] < bytes) {
			void *p;

			/* A job of the last call may still use it: wait for the device. */
			e = sdaaSetDevice(c->r[r].dev);
			if (!e && sh->tmp[r])
				e = sdaaDeviceSynchronize();
			if (!e && sh->tmp[r])
				e = sdaaFree(sh->tmp[r]);
			sh->tmp[r] = NULL;
			sh->tmp_bytes[r] = 0;
			if (!e)
				e = sdaaMalloc(&p, bytes);
			if (e)
				return swccl_fail(comm0, swcclUnhandledSdaaError, "%s: %zu bytes of "
						  "Local-HBM scratch on rank %d (CG %d): %s",
						  c->kind->name(c), bytes, r, c->r[r].cg,
						  sdaaGetErrorString(e));
			sh->tmp[r] = p;
			sh->tmp_bytes[r] = bytes;
		}
		if (swccl_buffer(sh->comm[r], sh->tmp[r], bytes, "scratch", &c->r[r].tmp))
			return swcclInternalError;
	}
	return swcclSuccess;
}

swcclResult_t swccl_xflags(struct swccl_shared *sh)
{
	size_t bytes = 2 * SWCCL_MAX_RANKS * sizeof(uint64_t);

	for (int r = 0; r < sh->nranks; r++) {
		if (sh->xflags[r])
			continue;
		if (sdaaSetDevice(sh->comm[r]->dev) || alloc_any(&sh->xflags[r], bytes) ||
		    sdaaMemset(sh->xflags[r], 0, bytes) || sdaaDeviceSynchronize())
			return swcclUnhandledSdaaError;
	}
	return swcclSuccess;
}

/*
 * Rank @r's new landing area on its card.  The old one may still be read by
 * a launched job: retired like the scratch (a peer's mapping of it lives as
 * long as the block, sdaa_memory.c).
 */
swcclResult_t swccl_xland(struct swccl_shared *sh, size_t bytes)
{
	size_t want = bytes < 2 * sh->xland_bytes ? 2 * sh->xland_bytes : bytes;

	if (bytes <= sh->xland_bytes)
		return swcclSuccess;
	/* No job can read them now: room for the new ones first. */
	if (swccl_idle(sh)) {
		for (int r = 0; r < sh->nranks; r++) {
			if (sh->xland[r])
				free_any(sh->xland[r]);
			sh->xland[r] = NULL;
		}
		for (int i = 0; i < sh->nretired; i++)
			free_any(sh->retired[i]);
		sh->nretired = 0;
		sh->xland_bytes = 0;
	}
	/* Doubling saves regrowing; where it does not fit, the exact size may. */
	for (int r = 0; r < sh->nranks && want > bytes; r++) {
		void *p;

		if (sdaaSetDevice(sh->comm[r]->dev) || alloc_any(&p, want)) {
			sdaaGetLastError();
			want = bytes;
		} else {
			free_any(p);
		}
	}
	for (int r = 0; r < sh->nranks; r++) {
		void *p;

		if (sdaaSetDevice(sh->comm[r]->dev) || alloc_any(&p, want))
			return swcclUnhandledSdaaError;
		if (retire(sh, sh->xland[r])) {
			free_any(p);
			return swcclSystemError;
		}
		sh->xland[r] = p;
	}
	sh->xland_bytes = want;
	return swcclSuccess;
}

void swccl_mem_free(struct swccl_shared *sh)
{
	int dev = 0;

	sdaaGetDevice(&dev);
	for (int r = 0; r < sh->nranks; r++) {
		if (sh->xland[r])
			free_any(sh->xland[r]);
		if (sh->xflags[r])
			free_any(sh->xflags[r]);
	}
	for (int i = 0; i < sh->nretired; i++)
		free_any(sh->retired[i]);
	if (sh->scratch)
		sdaaFreeCross(sh->scratch);
	for (int i = 0; i < 2; i++)
		if (sh->stage[i].buf)
			sdaaFreeCross(sh->stage[i].buf);
	for (int r = 0; r < sh->nranks; r++) {
		if (!sh->tmp[r] || sdaaSetDevice(sh->comm[r]->dev))
			continue;
		/* the last call's jobs may still read it */
		if (!sdaaDeviceSynchronize())
			sdaaFree(sh->tmp[r]);
	}
	sdaaSetDevice(dev);
}
