// SPDX-License-Identifier: MIT
/*
 * sdaa_stage.c - copies the card cannot do in one job: from and to pageable
 * host memory (through pinned staging buffers), between the Local-HBM of
 * two core groups (through a Global-HBM bounce buffer: a core group may not
 * touch another's Local-HBM) and between cards (through pinned memory both
 * cards map).
 *
 * Each goes in chunks through a pair of buffers used in turn, so that the
 * card moves one chunk while the host (or the other core group) works on
 * the other.  A buffer's last user is remembered; the next user waits for
 * it: the host with a JOB_WAIT (a host wait, which moves the modeled host
 * clock), a job of another queue with an in-fence, a job of the same queue
 * not at all.
 */
#include <string.h>

#include "sdaa_exec.h"

/* Global-HBM bounce buffers of a card, each. */
#define BOUNCE_BYTES	(8ULL << 20)

size_t sdaa_chunk(size_t total, size_t chunk, size_t i, size_t *off)
{
	if (!chunk || i >= total / chunk + (total % chunk != 0))
		return 0;
	*off = i * chunk;
	return total - *off < chunk ? total - *off : chunk;
}

sdaaError_t sdaa_stage_ready(struct sdaa_queue *q)
{
	struct sdaa_bufpair *bp = &q->stage;
	sdaaError_t err = sdaaSuccess;
	void *h;
	uint64_t va;

	pthread_mutex_lock(&bp->lock);
	if (!bp->size) {
		/* Mapped on every card: cross-card copies go through it too. */
		err = sdaa_host_pin(2 * SDAA_STAGE_BYTES, q->xc->index, -1, &h, &va);
		if (!err) {
			bp->host[0] = h;
			bp->host[1] = (char *)h + SDAA_STAGE_BYTES;
			bp->va[0] = va;
			bp->va[1] = va + SDAA_STAGE_BYTES;
			bp->size = SDAA_STAGE_BYTES;
		}
	}
	pthread_mutex_unlock(&bp->lock);
	return err;
}

int sdaa_bounce_ready(struct sdaa_xcard *xc)
{
	struct sdaa_bufpair *bp = &xc->bounce;
	uint64_t va;

	pthread_mutex_lock(&bp->lock);
	if (!bp->size && !bp->broken) {
		if (sdaa_mem_alloc(xc->index, DRM_SWAI_MEM_GLOBAL, 2 * BOUNCE_BYTES, &va)) {
			/* No Global-HBM (all-Local split, or full): stage via the host. */
			sdaa_log(SDAA_LOG_INFO, SDAA_SUB_MEM, "card %d: no Global-HBM bounce buffer, "
				 "Local-to-Local copies go through host memory", xc->card->minor);
			bp->broken = 1;
		} else {
			bp->va[0] = va;
			bp->va[1] = va + BOUNCE_BYTES;
			bp->size = BOUNCE_BYTES;
		}
	}
	pthread_mutex_unlock(&bp->lock);
	return bp->size != 0;
}

/* The host is about to touch buffer @k: wait for its last job (lock held). */
static sdaaError_t host_claim(struct sdaa_bufpair *bp, struct sdaa_xcard *xc, int k)
{
	sdaaError_t err = sdaaSuccess;

	if (bp->use[k].point)
		err = sdaa_wait(xc, bp->cg[k], bp->use[k], SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
	if (!err)
		bp->use[k] = (struct sdaa_fence){ 0, 0 };
	return err;
}

/* A job is about to use buffer @k: add its last user to @d (lock held). */
static void job_claim(const struct sdaa_bufpair *bp, int card, int k, struct sdaa_front *d)
{
	struct sdaa_front u;

	if (!bp->use[k].point)
		return;
	sdaa_front_set(&u, card, bp->cg[k], bp->use[k]);
	sdaa_front_merge(d, &u);
}

sdaaError_t sdaa_stage_in(struct sdaa_queue *q, uint64_t dst, const void *src, size_t n,
			  const struct sdaa_front *deps, struct sdaa_front *done)
{
	struct sdaa_bufpair *bp = &q->stage;
	struct sdaa_fence f = { 0, 0 };
	sdaaError_t err = sdaa_stage_ready(q);
	struct sdaa_front d = *deps;
	size_t off = 0, len;

	sdaa_front_init(done);
	if (err)
		return err;
	pthread_mutex_lock(&bp->lock);
	for (size_t i = 0; (len = sdaa_chunk(n, bp->size, i, &off)); i++) {
		int k = (int)(i & 1);
		struct swai_insn in;

		err = host_claim(bp, q->xc, k);
		if (err)
			break;
		memcpy(bp->host[k], (const char *)src + off, len);
		in = swai_insn_copy(dst + off, bp->va[k], len);
		err = sdaa_submit(q, &in, 1, &d, &f);
		if (err)
			break;
		/* Later chunks follow the first on the same queue. */
		sdaa_front_init(&d);
		bp->use[k] = f;
		bp->cg[k] = q->cg;
	}
	pthread_mutex_unlock(&bp->lock);
	if (f.point)
		sdaa_front_set(done, q->xc->index, q->cg, f);
	return err;
}

sdaaError_t sdaa_stage_out(struct sdaa_queue *q, void *dst, uint64_t src, size_t n,
			   const struct sdaa_front *deps, struct sdaa_front *done)
{
	struct sdaa_bufpair *bp = &q->stage;
	struct sdaa_fence f[2] = { { 0, 0 }, { 0, 0 } };
	sdaaError_t err = sdaa_stage_ready(q);
	struct sdaa_front d = *deps;
	size_t nch = 0, off = 0, len;

	sdaa_front_init(done);
	if (err)
		return err;
	pthread_mutex_lock(&bp->lock);
	while (sdaa_chunk(n, bp->size, nch, &off))
		nch++;
	/* Keep two chunks in flight: the card fills one while the host empties the other. */
	for (size_t i = 0; i < nch && i < 2 && !err; i++) {
		struct swai_insn in;

		len = sdaa_chunk(n, bp->size, i, &off);
		job_claim(bp, q->xc->index, (int)i, &d);
		in = swai_insn_copy(bp->va[i], src + off, len);
		err = sdaa_submit(q, &in, 1, &d, &f[i]);
		bp->use[i] = f[i];
		bp->cg[i] = q->cg;
		sdaa_front_init(&d);
	}
	for (size_t i = 0; i < nch && !err; i++) {
		int k = (int)(i & 1);

		len = sdaa_chunk(n, bp->size, i, &off);
		err = host_claim(bp, q->xc, k);
		if (err)
			break;
		memcpy((char *)dst + off, bp->host[k], len);
		if (i + 2 < nch) {
			struct swai_insn in;

			len = sdaa_chunk(n, bp->size, i + 2, &off);
			in = swai_insn_copy(bp->va[k], src + off, len);
			err = sdaa_submit(q, &in, 1, NULL, &f[k]);
			bp->use[k] = err ? (struct sdaa_fence){ 0, 0 } : f[k];
			bp->cg[k] = q->cg;
		}
	}
	pthread_mutex_unlock(&bp->lock);
	/* All waited for: later work need not wait again. */
	return err;
}

sdaaError_t sdaa_bounce(struct sdaa_bufpair *bp, struct sdaa_queue *a, struct sdaa_queue *b,
			uint64_t dst, uint64_t src, size_t n,
			const struct sdaa_front *deps, struct sdaa_front *done)
{
	int card = a->xc->index;
	struct sdaa_fence f2 = { 0, 0 };
	sdaaError_t err = sdaaSuccess;
	size_t off = 0, len;

	sdaa_front_init(done);
	pthread_mutex_lock(&bp->lock);
	for (size_t i = 0; (len = sdaa_chunk(n, bp->size, i, &off)); i++) {
		int k = (int)(i & 1);
		struct sdaa_front d1, d2;
		struct sdaa_fence f1;
		struct swai_insn in;

		sdaa_front_init(&d1);
		if (!i)
			d1 = *deps;
		job_claim(bp, card, k, &d1);
		in = swai_insn_copy(bp->va[k], src + off, len);
		err = sdaa_submit(a, &in, 1, &d1, &f1);
		if (err)
			break;
		sdaa_front_set(&d2, card, a->cg, f1);
		in = swai_insn_copy(dst + off, bp->va[k], len);
		err = sdaa_submit(b, &in, 1, &d2, &f2);
		if (err)
			break;
		bp->use[k] = f2;
		bp->cg[k] = b->cg;
	}
	pthread_mutex_unlock(&bp->lock);
	if (f2.point)
		sdaa_front_set(done, card, b->cg, f2);
	return err;
}

sdaaError_t sdaa_cross_card(struct sdaa_queue *a, struct sdaa_queue *b, uint64_t dst,
			    uint64_t src, size_t n)
{
	struct sdaa_bufpair *bp = &a->stage;
	sdaaError_t err = sdaa_stage_ready(a);
	size_t off = 0, len;

	if (err)
		return err;
	pthread_mutex_lock(&bp->lock);
	for (size_t i = 0; (len = sdaa_chunk(n, bp->size, i, &off)); i++) {
		int k = (int)(i & 1);
		struct swai_insn in;
		struct sdaa_fence f;

		err = host_claim(bp, a->xc, k);
		if (err)
			break;
		in = swai_insn_copy(bp->va[k], src + off, len);
		err = sdaa_submit(a, &in, 1, NULL, &f);
		if (!err)
			err = sdaa_wait(a->xc, a->cg, f, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
		in = swai_insn_copy(dst + off, bp->va[k], len);
		if (!err)
			err = sdaa_submit(b, &in, 1, NULL, &f);
		if (!err)
			err = sdaa_wait(b->xc, b->cg, f, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
		if (err)
			break;
	}
	pthread_mutex_unlock(&bp->lock);
	return err;
}
