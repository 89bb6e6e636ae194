// SPDX-License-Identifier: MIT
/*
 * sdaa_stream.c - streams and the legacy default stream's rules,
 * sdaaDeviceSynchronize.
 *
 * A stream is its front (sdaa_front.h): the newest job per queue of the work
 * submitted to it so far.  Work on a stream depends on the front; afterwards
 * the front is the work's last job.  A stream lives on its device's queue,
 * where jobs run in order anyway, so most work needs no fence at all; fences
 * appear when work of a stream runs on another core group (copies touching
 * another CG's Local-HBM) or waits for an event of another device.
 *
 * CUDA's legacy default stream, per device: work on stream 0 waits for all
 * earlier work of the device's blocking streams, and work on a blocking
 * stream waits for all earlier work of stream 0.  Each device keeps the
 * union of its blocking streams' fronts and stream 0's front, and an
 * operation merges the one it must wait for into its stream's front before
 * it starts (sdaa_stream_begin) and publishes its result after
 * (sdaa_stream_end).  Streams created with sdaaStreamNonBlocking skip both.
 */
#include <stdlib.h>

#include "sdaa_exec.h"
#include "sdaa_handle.h"

struct sdaa_stream *sdaa_stream_new(struct sdaa_queue *q, unsigned int flags, int legacy)
{
	struct sdaa_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->q = q;
	s->flags = flags;
	s->legacy = legacy;
	pthread_mutex_init(&s->lock, NULL);
	sdaa_front_init(&s->front);
	return s;
}

/*
 * The legacy default stream of queue @q, made when first used: streams
 * build on the card's execution state (sdaa_card.c), not the other way.
 */
static sdaaError_t legacy(struct sdaa_queue *q, struct sdaa_stream **s)
{
	*s = __atomic_load_n(&q->legacy, __ATOMIC_ACQUIRE);
	if (*s)
		return sdaaSuccess;
	pthread_mutex_lock(&q->lock);
	if (!q->legacy)
		__atomic_store_n(&q->legacy, sdaa_stream_new(q, sdaaStreamDefault, 1),
				 __ATOMIC_RELEASE);
	*s = q->legacy;
	pthread_mutex_unlock(&q->lock);
	return *s ? sdaaSuccess : sdaaErrorHostMemoryAllocation;
}

/* The stream behind a handle; NULL is the current device's stream 0. */
static sdaaError_t resolve(sdaaStream_t h, struct sdaa_stream **s)
{
	struct sdaa_queue *q;
	sdaaError_t err;

	if (!h) {
		err = sdaa_device_queue(-1, &q);
		return err ? err : legacy(q, s);
	}
	*s = sdaa_handle_get(SDAA_HANDLE_STREAM, (uintptr_t)h);
	return *s ? sdaaSuccess : sdaaErrorInvalidResourceHandle;
}

sdaaError_t sdaa_stream_begin(sdaaStream_t h, struct sdaa_stream **out)
{
	struct sdaa_stream *s;
	struct sdaa_queue *q;
	sdaaError_t err = resolve(h, &s);

	if (err)
		return err;
	q = s->q;
	pthread_mutex_lock(&s->lock);
	err = sdaa_xcard_check(q->xc);
	if (err) {
		pthread_mutex_unlock(&s->lock);
		return err;
	}
	if (!(s->flags & sdaaStreamNonBlocking)) {
		pthread_mutex_lock(&q->sync_lock);
		sdaa_front_merge(&s->front, s->legacy ? &q->blocking_front : &q->legacy_front);
		pthread_mutex_unlock(&q->sync_lock);
	}
	*out = s;
	return sdaaSuccess;
}

void sdaa_stream_end(struct sdaa_stream *s)
{
	struct sdaa_queue *q = s->q;

	pthread_mutex_lock(&q->sync_lock);
	if (s->legacy)
		sdaa_front_merge(&q->legacy_front, &s->front);
	if (!(s->flags & sdaaStreamNonBlocking))
		sdaa_front_merge(&q->blocking_front, &s->front);
	sdaa_front_merge(&q->all_front, &s->front);
	pthread_mutex_unlock(&q->sync_lock);
	pthread_mutex_unlock(&s->lock);
}

sdaaError_t sdaa_stream_deps(struct sdaa_stream *s, int card, struct sdaa_front *deps)
{
	if (card == s->q->xc->index) {
		*deps = s->front;
		return sdaaSuccess;
	}
	/* Fences do not cross cards: the host waits, then the work is free. */
	sdaa_front_init(deps);
	return sdaa_wait_front(&s->front, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
}

sdaaError_t sdaa_stream_done(struct sdaa_stream *s, const struct sdaa_front *done)
{
	if (done->card < 0 || sdaa_front_empty(done))
		return sdaaSuccess;
	if (done->card == s->q->xc->index) {
		s->front = *done;
		return sdaaSuccess;
	}
	return sdaa_wait_front(done, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
}

SDAA_API sdaaError_t sdaaStreamCreateWithFlags(sdaaStream_t *pStream, unsigned int flags)
{
	struct sdaa_stream *s;
	struct sdaa_queue *q;
	sdaaError_t err;
	uintptr_t h;

	if (!pStream || flags & ~sdaaStreamNonBlocking)
		return sdaa_error(sdaaErrorInvalidValue);
	*pStream = NULL;
	err = sdaa_device_queue(-1, &q);
	if (!err)
		err = sdaa_xcard_check(q->xc);
	if (err)
		return sdaa_error(err);
	s = sdaa_stream_new(q, flags, 0);
	h = s ? sdaa_handle_new(SDAA_HANDLE_STREAM, s) : 0;
	if (!h) {
		free(s);
		return sdaa_error(sdaaErrorHostMemoryAllocation);
	}
	*pStream = (sdaaStream_t)h;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaStreamCreate(sdaaStream_t *pStream)
{
	return sdaaStreamCreateWithFlags(pStream, sdaaStreamDefault);
}

/*
 * As in CUDA, destroying a stream with work in flight returns at once; the
 * work completes, and stream 0 still waits for it (its front is in the
 * device's blocking front).
 */
SDAA_API sdaaError_t sdaaStreamDestroy(sdaaStream_t stream)
{
	struct sdaa_stream *s = stream ? sdaa_handle_del(SDAA_HANDLE_STREAM,
							 (uintptr_t)stream) : NULL;

	if (!s)
		return sdaa_error(sdaaErrorInvalidResourceHandle);
	/* Let an operation of another thread finish with it. */
	pthread_mutex_lock(&s->lock);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return sdaaSuccess;
}

/* What synchronizing with @h means: its front (stream 0: also the blocking streams'). */
static sdaaError_t stream_front(sdaaStream_t h, struct sdaa_front *f)
{
	struct sdaa_stream *s;
	sdaaError_t err = resolve(h, &s);

	if (err)
		return err;
	pthread_mutex_lock(&s->lock);
	err = sdaa_xcard_check(s->q->xc);
	*f = s->front;
	if (s->legacy) {
		pthread_mutex_lock(&s->q->sync_lock);
		sdaa_front_merge(f, &s->q->blocking_front);
		pthread_mutex_unlock(&s->q->sync_lock);
	}
	pthread_mutex_unlock(&s->lock);
	return err;
}

static sdaaError_t stream_wait(sdaaStream_t h, int64_t deadline, unsigned int flags)
{
	struct sdaa_front f;
	sdaaError_t err = stream_front(h, &f);

	if (!err)
		err = sdaa_wait_front(&f, deadline, flags, NULL);
	return err;
}

SDAA_API sdaaError_t sdaaStreamSynchronize(sdaaStream_t stream)
{
	return sdaa_error(stream_wait(stream, SDAA_FOREVER, SDAA_WAIT_HOST));
}

SDAA_API sdaaError_t sdaaStreamSynchronizeTimeout(sdaaStream_t stream, unsigned int timeout_ms)
{
	sdaaError_t err = stream_wait(stream, sdaa_deadline(timeout_ms), SDAA_WAIT_HOST);

	return sdaa_error(err == sdaaErrorNotReady ? sdaaErrorTimeout : err);
}

/* A query is no host wait: it never moves the modeled host clock. */
SDAA_API sdaaError_t sdaaStreamQuery(sdaaStream_t stream)
{
	return sdaa_error(stream_wait(stream, 0, 0));
}

SDAA_API sdaaError_t sdaaStreamGetDevice(sdaaStream_t stream, int *device)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct sdaa_stream *s;
	sdaaError_t err;

	if (!device)
		return sdaa_error(sdaaErrorInvalidValue);
	err = resolve(stream, &s);
	if (err)
		return sdaa_error(err);
	for (int i = 0; i < rt->ndevices; i++) {
		if (rt->devices[i].card == s->q->xc->card && rt->devices[i].cg == s->q->cg) {
			*device = i;
			return sdaaSuccess;
		}
	}
	return sdaa_error(sdaaErrorInvalidDevice);
}

static sdaaError_t device_wait(int64_t deadline)
{
	struct sdaa_queue *q;
	struct sdaa_front f;
	sdaaError_t err = sdaa_device_queue(-1, &q);

	if (!err)
		err = sdaa_xcard_check(q->xc);
	if (err)
		return err;
	pthread_mutex_lock(&q->sync_lock);
	f = q->all_front;
	pthread_mutex_unlock(&q->sync_lock);
	return sdaa_wait_front(&f, deadline, SDAA_WAIT_HOST, NULL);
}

SDAA_API sdaaError_t sdaaDeviceSynchronize(void)
{
	return sdaa_error(device_wait(SDAA_FOREVER));
}

SDAA_API sdaaError_t sdaaDeviceSynchronizeTimeout(unsigned int timeout_ms)
{
	sdaaError_t err = device_wait(sdaa_deadline(timeout_ms));

	return sdaa_error(err == sdaaErrorNotReady ? sdaaErrorTimeout : err);
}
