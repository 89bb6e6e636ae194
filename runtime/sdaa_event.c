// SPDX-License-Identifier: MIT
/*
 * sdaa_event.c - events: a marker in a stream, completed when the work
 * submitted to the stream before it is done.
 *
 * Recording copies the stream's front (the newest job per queue: syncobj
 * timeline points and job ids, sdaa_front.h) and the modeled host time H.
 * The event's modeled time is the later of H at record and the modeled end
 * of its jobs (JOB_WAIT reports it); its wall time is when the host first saw
 * it complete.  sdaaEventElapsedTime behaves as cudaEventElapsedTime:
 * sdaaErrorInvalidValue for a NULL result, sdaaErrorInvalidResourceHandle
 * for a bad or destroyed handle, an event never recorded, one created with
 * sdaaEventDisableTiming or events of two cards, sdaaErrorNotReady while
 * either has not completed.
 */
#include <stdlib.h>

#include "sdaa_exec.h"
#include "sdaa_handle.h"

struct sdaa_event {
	unsigned int flags;
	int card;			/* the card it belongs to */
	pthread_mutex_t lock;
	int recorded;
	uint64_t gen;			/* records so far */
	struct sdaa_front front;	/* the work it waits for */
	uint64_t h_rec;			/* modeled host time at record */
	int done;			/* completion observed */
	uint64_t end;			/* latest modeled end of its jobs */
	uint64_t t_model;		/* modeled time, once done */
	int64_t t_wall;			/* CLOCK_MONOTONIC ns, once done */
};

static sdaaError_t get(sdaaEvent_t h, struct sdaa_event **e)
{
	*e = h ? sdaa_handle_get(SDAA_HANDLE_EVENT, (uintptr_t)h) : NULL;
	return *e ? sdaaSuccess : sdaaErrorInvalidResourceHandle;
}

SDAA_API sdaaError_t sdaaEventCreateWithFlags(sdaaEvent_t *event, unsigned int flags)
{
	struct sdaa_event *e;
	struct sdaa_queue *q;
	sdaaError_t err;
	uintptr_t h;

	if (!event || flags & ~(sdaaEventBlockingSync | sdaaEventDisableTiming))
		return sdaa_error(sdaaErrorInvalidValue);
	*event = NULL;
	err = sdaa_device_queue(-1, &q);
	if (!err)
		err = sdaa_xcard_check(q->xc);
	if (err)
		return sdaa_error(err);
	e = calloc(1, sizeof(*e));
	if (!e)
		return sdaa_error(sdaaErrorHostMemoryAllocation);
	e->flags = flags;
	e->card = q->xc->index;
	pthread_mutex_init(&e->lock, NULL);
	sdaa_front_init(&e->front);
	h = sdaa_handle_new(SDAA_HANDLE_EVENT, e);
	if (!h) {
		free(e);
		return sdaa_error(sdaaErrorHostMemoryAllocation);
	}
	*event = (sdaaEvent_t)h;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaEventCreate(sdaaEvent_t *event)
{
	return sdaaEventCreateWithFlags(event, sdaaEventDefault);
}

SDAA_API sdaaError_t sdaaEventDestroy(sdaaEvent_t event)
{
	struct sdaa_event *e = event ? sdaa_handle_del(SDAA_HANDLE_EVENT, (uintptr_t)event) :
				       NULL;

	if (!e)
		return sdaa_error(sdaaErrorInvalidResourceHandle);
	pthread_mutex_lock(&e->lock);
	pthread_mutex_unlock(&e->lock);
	pthread_mutex_destroy(&e->lock);
	free(e);
	return sdaaSuccess;
}

/* What waiting for event @h means: its front, and whether it was recorded. */
static sdaaError_t sdaa_event_front(sdaaEvent_t h, struct sdaa_front *f, int *recorded)
{
	struct sdaa_event *e;
	sdaaError_t err = get(h, &e);

	if (err)
		return err;
	pthread_mutex_lock(&e->lock);
	*f = e->front;
	*recorded = e->recorded;
	pthread_mutex_unlock(&e->lock);
	return sdaaSuccess;
}

/*
 * Wait for (or, with @deadline 0, look at) the event's jobs.  A host wait
 * goes to the driver even when completion was already seen, so that it moves
 * the modeled host clock the same way whether or not a query came first.
 */
static sdaaError_t observe(struct sdaa_event *e, int64_t deadline, unsigned int flags)
{
	struct sdaa_front f;
	uint64_t gen, h, end;
	sdaaError_t err;

	pthread_mutex_lock(&e->lock);
	if (!e->recorded || (e->done && !(flags & SDAA_WAIT_HOST))) {
		pthread_mutex_unlock(&e->lock);
		return sdaaSuccess;
	}
	f = e->front;
	gen = e->gen;
	h = e->h_rec;
	pthread_mutex_unlock(&e->lock);
	err = sdaa_wait_front(&f, deadline, flags, &end);
	if (err)
		return err;
	pthread_mutex_lock(&e->lock);
	if (e->gen == gen && !e->done) {
		e->done = 1;
		e->end = end;
		e->t_model = sdaa_model_event_time(h, end);
		e->t_wall = sdaa_now_ns();
	}
	pthread_mutex_unlock(&e->lock);
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaEventRecord(sdaaEvent_t event, sdaaStream_t stream)
{
	struct sdaa_stream *s;
	struct sdaa_event *e;
	sdaaError_t err = get(event, &e);

	if (err)
		return sdaa_error(err);
	err = sdaa_stream_begin(stream, &s);
	if (err)
		return sdaa_error(err);
	if (s->q->xc->index != e->card) {
		sdaa_stream_end(s);
		return sdaa_error(sdaaErrorInvalidResourceHandle);
	}
	pthread_mutex_lock(&e->lock);
	e->front = s->front;
	e->h_rec = __atomic_load_n(sdaa_hclock(), __ATOMIC_RELAXED);
	e->recorded = 1;
	e->done = 0;
	e->gen++;
	pthread_mutex_unlock(&e->lock);
	sdaa_stream_end(s);
	/* Already complete (an idle stream): its wall time is now. */
	err = observe(e, 0, 0);
	return err == sdaaErrorNotReady ? sdaaSuccess : sdaa_error(err);
}

static sdaaError_t event_op(sdaaEvent_t event, int64_t deadline, unsigned int flags)
{
	struct sdaa_xcard *xc;
	struct sdaa_event *e;
	sdaaError_t err = get(event, &e);

	if (!err)
		err = sdaa_xcard_get(e->card, &xc);
	if (!err)
		err = sdaa_xcard_check(xc);
	return err ? err : observe(e, deadline, flags);
}

SDAA_API sdaaError_t sdaaEventQuery(sdaaEvent_t event)
{
	return sdaa_error(event_op(event, 0, 0));
}

SDAA_API sdaaError_t sdaaEventSynchronize(sdaaEvent_t event)
{
	return sdaa_error(event_op(event, SDAA_FOREVER, SDAA_WAIT_HOST));
}

SDAA_API sdaaError_t sdaaEventSynchronizeTimeout(sdaaEvent_t event, unsigned int timeout_ms)
{
	sdaaError_t err = event_op(event, sdaa_deadline(timeout_ms), SDAA_WAIT_HOST);

	return sdaa_error(err == sdaaErrorNotReady ? sdaaErrorTimeout : err);
}

/* Both events' times once complete: modeled (@wall 0) or wall. */
static sdaaError_t elapsed(float *ms, sdaaEvent_t start, sdaaEvent_t end, int wall)
{
	struct sdaa_event *a, *b;
	struct sdaa_xcard *xc;
	uint64_t t0, t1;
	sdaaError_t err;

	if (!ms)
		return sdaaErrorInvalidValue;
	err = get(start, &a);
	if (!err)
		err = get(end, &b);
	if (err)
		return err;
	if ((a->flags | b->flags) & sdaaEventDisableTiming || a->card != b->card)
		return sdaaErrorInvalidResourceHandle;
	pthread_mutex_lock(&a->lock);
	err = a->recorded ? sdaaSuccess : sdaaErrorInvalidResourceHandle;
	pthread_mutex_unlock(&a->lock);
	pthread_mutex_lock(&b->lock);
	err = !err && !b->recorded ? sdaaErrorInvalidResourceHandle : err;
	pthread_mutex_unlock(&b->lock);
	if (!err)
		err = sdaa_xcard_get(a->card, &xc);
	if (!err)
		err = sdaa_xcard_check(xc);
	if (!err)
		err = observe(a, 0, 0);
	if (!err)
		err = observe(b, 0, 0);
	if (err)
		return err;
	pthread_mutex_lock(&a->lock);
	t0 = wall ? (uint64_t)a->t_wall : a->t_model;
	pthread_mutex_unlock(&a->lock);
	pthread_mutex_lock(&b->lock);
	t1 = wall ? (uint64_t)b->t_wall : b->t_model;
	pthread_mutex_unlock(&b->lock);
	*ms = sdaa_model_elapsed_ms(t0, t1);
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaEventElapsedTime(float *ms, sdaaEvent_t start, sdaaEvent_t end)
{
	return sdaa_error(elapsed(ms, start, end, 0));
}

SDAA_API sdaaError_t sdaaEventElapsedTimeWall(float *ms, sdaaEvent_t start, sdaaEvent_t end)
{
	return sdaa_error(elapsed(ms, start, end, 1));
}

/* Work queued on @stream from now on waits for @event's work. */
SDAA_API sdaaError_t sdaaStreamWaitEvent(sdaaStream_t stream, sdaaEvent_t event,
					 unsigned int flags)
{
	struct sdaa_stream *s;
	struct sdaa_front f;
	sdaaError_t err;
	int recorded;

	if (flags)
		return sdaa_error(sdaaErrorInvalidValue);
	err = sdaa_event_front(event, &f, &recorded);
	if (err)
		return sdaa_error(err);
	err = sdaa_stream_begin(stream, &s);
	if (err)
		return sdaa_error(err);
	/* An event never recorded is complete: nothing to wait for (CUDA). */
	if (recorded && f.card == s->q->xc->index)
		sdaa_front_merge(&s->front, &f);
	else if (recorded)
		err = sdaa_wait_front(&f, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
	sdaa_stream_end(s);
	return sdaa_error(err);
}
