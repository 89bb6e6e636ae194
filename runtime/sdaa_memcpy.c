// SPDX-License-Identifier: MIT
/*
 * sdaa_memcpy.c - sdaaMemcpy and sdaaMemcpyAsync: where the two pointers
 * live decides which core group copies and how.
 *
 * A core group reaches its own Local-HBM, Global-HBM of its card and pinned
 * host memory, so one COPY job does every copy between those, run by the
 * core group whose Local-HBM is involved (else by the stream's).  Pageable
 * host memory goes through the queue's pinned staging buffers; Local-HBM of
 * one core group to another's in one COPY on the source core group when it
 * enabled peer access to the destination (sdaa_peer.c), else through a
 * Global-HBM bounce buffer (two jobs, the second waiting for the first).
 * Device memory of two cards: when the source's card reaches the other over
 * their fabric (sdaa_fabric.c), one COPY job on the source's card writing
 * the destination through a mapping of its block (sdaa_mem_map_on: the
 * bytes never pass through host memory, and the job is asynchronous like any
 * other); else through pinned host memory, synchronously.  Host to host is
 * a host memcpy after the stream's earlier work.  sdaaMemcpyPeer(Async) are
 * sdaaMemcpy(Async) with the devices checked against the pointers.
 */
#include <string.h>

#include "sdaa_exec.h"
#include "sdaa_fabric.h"
#include "sdaa_memory.h"

enum where { PAGEABLE, PINNED, LOCAL, GLOBAL };

struct place {
	enum where w;
	int card;		/* LOCAL, GLOBAL: index of the card */
	int cg;			/* LOCAL: its core group */
	uint64_t va;		/* device address (not PAGEABLE) */
	char *host;		/* host address (PAGEABLE, PINNED) */
};

/* Where [@p, @p + @n) lives; it must lie inside one buffer. */
static sdaaError_t locate(const void *p, size_t n, struct place *pl)
{
	uint64_t va, avail;
	struct sdaa_block b;
	void *h;

	if (!p)
		return sdaaErrorInvalidValue;
	memset(pl, 0, sizeof(*pl));
	pl->card = -1;
	if (sdaa_host_range((uintptr_t)p, &va, &avail)) {
		pl->w = PINNED;
		pl->va = va;
		pl->host = (char *)p;
		return n <= avail ? sdaaSuccess : sdaaErrorInvalidValue;
	}
	if (!sdaa_block_find((uintptr_t)p, &b)) {
		pl->w = PAGEABLE;
		pl->host = (char *)p;
		return sdaaSuccess;
	}
	pl->va = (uintptr_t)p;
	if (n > b.va + b.len - pl->va)
		return sdaaErrorInvalidValue;
	if (b.region == DRM_SWAI_MEM_HOST) {
		if (!sdaa_host_of_va(pl->va, &h, &avail))
			return sdaaErrorInvalidValue;
		pl->w = PINNED;
		pl->host = h;
		return sdaaSuccess;
	}
	pl->card = b.card;
	pl->w = sdaa_block_tier(&b) == DRM_SWAI_MEM_GLOBAL ? GLOBAL : LOCAL;
	pl->cg = pl->w == LOCAL ? (int)sdaa_block_tier(&b) : -1;
	return sdaaSuccess;
}

static int on_device(const struct place *pl)
{
	return pl->w == LOCAL || pl->w == GLOBAL;
}

static sdaaError_t check_kind(enum sdaaMemcpyKind kind, const struct place *d,
			      const struct place *s)
{
	int ok;

	switch (kind) {
	case sdaaMemcpyHostToHost:
		ok = !on_device(s) && !on_device(d);
		break;
	case sdaaMemcpyHostToDevice:
		ok = !on_device(s) && on_device(d);
		break;
	case sdaaMemcpyDeviceToHost:
		ok = on_device(s) && !on_device(d);
		break;
	case sdaaMemcpyDeviceToDevice:
		ok = on_device(s) && on_device(d);
		break;
	case sdaaMemcpyDefault:
		ok = 1;
		break;
	default:
		ok = 0;
	}
	return ok ? sdaaSuccess : sdaaErrorInvalidMemcpyDirection;
}

/*
 * The queue that works on @pl's memory for stream @s: its own core group's
 * for Local-HBM, else the stream's if on that card, else the card's first.
 */
static sdaaError_t queue_for(const struct place *pl, int card, struct sdaa_stream *s,
			     struct sdaa_queue **q)
{
	struct sdaa_xcard *xc;
	sdaaError_t err = sdaa_xcard_get(card, &xc);
	int cg;

	if (!err)
		err = sdaa_xcard_check(xc);
	if (err)
		return err;
	cg = pl->w == LOCAL ? pl->cg : s->q->xc == xc ? s->q->cg : 0;
	if (cg >= xc->nq)
		return sdaaErrorNotSupported;
	*q = &xc->q[cg];
	return sdaaSuccess;
}

/* Copy on device memory of one card; the stream is locked. */
static sdaaError_t copy_on_card(struct sdaa_stream *s, const struct place *d,
				const struct place *sr, size_t n)
{
	int card = on_device(sr) ? sr->card : d->card;
	struct sdaa_queue *qs, *qd;
	struct sdaa_front deps, done;
	sdaaError_t err;

	err = queue_for(sr, card, s, &qs);
	if (!err)
		err = queue_for(d, card, s, &qd);
	if (!err)
		err = sdaa_stream_deps(s, card, &deps);
	if (err)
		return err;
	sdaa_front_init(&done);
	if (sr->w == PAGEABLE) {
		err = sdaa_stage_in(qd, d->va, sr->host, n, &deps, &done);
	} else if (d->w == PAGEABLE) {
		err = sdaa_stage_out(qs, d->host, sr->va, n, &deps, &done);
	} else if (sr->w == LOCAL && d->w == LOCAL && sr->cg != d->cg &&
		   !sdaa_peer_enabled(qs, d->cg)) {
		struct sdaa_bufpair *bp = &qs->xc->bounce;

		if (!sdaa_bounce_ready(qs->xc)) {
			bp = &qs->stage;
			err = sdaa_stage_ready(qs);
		}
		if (!err)
			err = sdaa_bounce(bp, qs, qd, d->va, sr->va, n, &deps, &done);
	} else {
		/* One job, on the core group whose Local-HBM is involved (the
		 * source's when both are: it has peer access to the other).
		 */
		struct sdaa_queue *q = sr->w == LOCAL ? qs : qd;
		struct swai_insn in = swai_insn_copy(d->va, sr->va, n);
		struct sdaa_fence f;

		err = sdaa_submit(q, &in, 1, &deps, &f);
		if (!err)
			sdaa_front_set(&done, card, q->cg, f);
	}
	if (!err)
		err = sdaa_stream_done(s, &done);
	return err;
}

/*
 * Device memory of card @sr to that of another card @d the source's card
 * reaches: one job on the source's queue through a mapping of @d's block on
 * the source's card.  The stream is locked.
 */
static sdaaError_t copy_over_fabric(struct sdaa_stream *s, const struct place *d,
				    const struct place *sr, size_t n)
{
	struct sdaa_front deps, done;
	struct swai_insn in;
	struct sdaa_queue *q;
	struct sdaa_fence f;
	sdaaError_t err;

	err = sdaa_mem_map_on(sr->card, d->va);
	if (!err)
		err = queue_for(sr, sr->card, s, &q);
	if (!err)
		err = sdaa_stream_deps(s, sr->card, &deps);
	if (err)
		return err;
	in = swai_insn_copy(d->va, sr->va, n);
	err = sdaa_submit(q, &in, 1, &deps, &f);
	if (err)
		return err;
	sdaa_front_init(&done);
	sdaa_front_set(&done, sr->card, q->cg, f);
	return sdaa_stream_done(s, &done);
}

static sdaaError_t copy(void *dst, const void *src, size_t n, enum sdaaMemcpyKind kind,
			sdaaStream_t stream, int sync)
{
	struct place d, sr;
	struct sdaa_stream *s;
	struct sdaa_front f;
	sdaaError_t err;

	if (!n)
		return sdaaSuccess;
	err = locate(dst, n, &d);
	if (!err)
		err = locate(src, n, &sr);
	if (!err)
		err = check_kind(kind, &d, &sr);
	if (!err)
		err = sdaa_stream_begin(stream, &s);
	if (err)
		return err;
	if (!on_device(&d) && !on_device(&sr)) {
		/* Host to host: after the stream's earlier work, by the host. */
		err = sdaa_wait_front(&s->front, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
		if (!err)
			memmove(d.host, sr.host, n);
	} else if (on_device(&d) && on_device(&sr) && d.card != sr.card &&
		   sdaa_fabric_reaches(sr.card, d.card)) {
		err = copy_over_fabric(s, &d, &sr, n);
	} else if (on_device(&d) && on_device(&sr) && d.card != sr.card) {
		struct sdaa_queue *qs, *qd;

		err = sdaa_wait_front(&s->front, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
		if (!err)
			err = queue_for(&sr, sr.card, s, &qs);
		if (!err)
			err = queue_for(&d, d.card, s, &qd);
		if (!err)
			err = sdaa_cross_card(qs, qd, d.va, sr.va, n);
	} else {
		err = copy_on_card(s, &d, &sr, n);
	}
	f = s->front;
	sdaa_stream_end(s);
	if (!err && sync)
		err = sdaa_wait_front(&f, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
	return err;
}

SDAA_API sdaaError_t sdaaMemcpy(void *dst, const void *src, size_t count,
				enum sdaaMemcpyKind kind)
{
	return sdaa_error(copy(dst, src, count, kind, NULL, 1));
}

SDAA_API sdaaError_t sdaaMemcpyAsync(void *dst, const void *src, size_t count,
				     enum sdaaMemcpyKind kind, sdaaStream_t stream)
{
	return sdaa_error(copy(dst, src, count, kind, stream, 0));
}

/* Is @p (of @n bytes) memory of logical device @dev's card? */
static sdaaError_t on_device_of(const void *p, size_t n, int dev)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct place pl;
	sdaaError_t err = sdaa_device_valid(dev);

	if (!err)
		err = locate(p, n, &pl);
	if (err)
		return err;
	if (!on_device(&pl) || rt->devices[dev].card != &rt->cards[pl.card])
		return sdaaErrorInvalidValue;
	return sdaaSuccess;
}

static sdaaError_t copy_peer(void *dst, int dst_dev, const void *src, int src_dev,
			     size_t n, sdaaStream_t stream, int sync)
{
	sdaaError_t err;

	if (!n)
		return sdaaSuccess;
	err = on_device_of(dst, n, dst_dev);
	if (!err)
		err = on_device_of(src, n, src_dev);
	return err ? err : copy(dst, src, n, sdaaMemcpyDeviceToDevice, stream, sync);
}

SDAA_API sdaaError_t sdaaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
				    size_t count)
{
	return sdaa_error(copy_peer(dst, dstDevice, src, srcDevice, count, NULL, 1));
}

SDAA_API sdaaError_t sdaaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
					 int srcDevice, size_t count, sdaaStream_t stream)
{
	return sdaa_error(copy_peer(dst, dstDevice, src, srcDevice, count, stream, 0));
}
