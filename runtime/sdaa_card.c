// SPDX-License-Identifier: MIT
/*
 * sdaa_card.c - the execution state of each card, made when a process first
 * runs work on it: the card's timing parameters, the process's modeled host
 * clock on it (starting at the card's clock), one timeline syncobj per queue
 * (core group; its legacy default stream is sdaa_stream.c's); the card's
 * sticky error;
 * sdaaDeviceGetTimingParams.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xf86drm.h>

#include "sdaa_exec.h"

static struct {
	pthread_mutex_t lock;			/* making execution states */
	struct sdaa_xcard *xc[SDAA_MAX_CARDS];	/* published with release */
	sdaaError_t err[SDAA_MAX_CARDS];		/* why a card cannot run work */
} ex = { .lock = PTHREAD_MUTEX_INITIALIZER };

int64_t sdaa_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t sdaa_deadline(unsigned int ms)
{
	return sdaa_now_ns() + (int64_t)ms * 1000000LL;
}

static void bufpair_init(struct sdaa_bufpair *bp)
{
	memset(bp, 0, sizeof(*bp));
	pthread_mutex_init(&bp->lock, NULL);
}

static sdaaError_t xcard_init(int index, struct sdaa_xcard *xc)
{
	struct sdaa_card *card = &sdaa_runtime()->cards[index];
	struct drm_swai_mem_info mi = { 0 };

	xc->card = card;
	xc->index = index;
	if (!(card->q.capabilities & DRM_SWAI_CAP_SUBMIT)) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_INIT, "card %d cannot run jobs (no DRM_SWAI_CAP_SUBMIT)",
			 card->minor);
		return sdaaErrorNotSupported;
	}
	xc->nq = card->q.num_core_groups < SDAA_MAX_CG ? (int)card->q.num_core_groups :
							 SDAA_MAX_CG;
	if (card->q.capabilities & DRM_SWAI_CAP_TIMING &&
	    drmIoctl(card->fd, DRM_IOCTL_SWAI_QUERY_TIMING, &xc->timing))
		sdaa_log(SDAA_LOG_WARN, SDAA_SUB_INIT, "card %d: timing query failed: %s", card->minor,
			 strerror(errno));
	/* The process's context on the card: logs name jobs by it. */
	if (!drmIoctl(card->fd, DRM_IOCTL_SWAI_MEM_INFO, &mi))
		xc->asid = mi.asid;
	/* The process's host clock is no earlier than where the card is now. */
	sdaa_model_advance(sdaa_hclock(), xc->timing.clock_ns, 0);
	bufpair_init(&xc->bounce);
	for (int i = 0; i < xc->nq; i++) {
		struct sdaa_queue *q = &xc->q[i];

		if (drmSyncobjCreate(card->fd, 0, &xc->syncobj[i])) {
			sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_INIT, "card %d: no syncobj: %s", card->minor,
				 strerror(errno));
			return sdaaErrorNotSupported;
		}
		q->xc = xc;
		q->cg = i;
		pthread_mutex_init(&q->lock, NULL);
		pthread_mutex_init(&q->sync_lock, NULL);
		sdaa_front_init(&q->legacy_front);
		sdaa_front_init(&q->blocking_front);
		sdaa_front_init(&q->all_front);
		bufpair_init(&q->stage);
		if (sdaa_progbuf_init(&q->progbuf, SDAA_POOL_BYTES - SDAA_POOL_SCRATCH,
				   (unsigned int)(SDAA_POOL_BYTES / 64)))
			return sdaaErrorHostMemoryAllocation;
	}
	sdaa_log(SDAA_LOG_DEBUG, SDAA_SUB_INIT, "card %d: %d queues, host clock starts at %llu ns",
		 card->minor, xc->nq,
		 (unsigned long long)__atomic_load_n(sdaa_hclock(), __ATOMIC_RELAXED));
	return sdaaSuccess;
}

uint64_t *sdaa_hclock(void)
{
	static uint64_t h;

	return &h;
}

struct sdaa_xcard *sdaa_xcard_peek(int index)
{
	if (index < 0 || index >= SDAA_MAX_CARDS)
		return NULL;
	return __atomic_load_n(&ex.xc[index], __ATOMIC_ACQUIRE);
}

sdaaError_t sdaa_xcard_get(int index, struct sdaa_xcard **out)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct sdaa_xcard *xc;
	sdaaError_t err;

	if (rt->init_error)
		return rt->init_error;
	if (index < 0 || index >= rt->ncards || index >= SDAA_MAX_CARDS)
		return sdaaErrorInvalidDevice;
	xc = __atomic_load_n(&ex.xc[index], __ATOMIC_ACQUIRE);
	if (xc) {
		*out = xc;
		return sdaaSuccess;
	}
	pthread_mutex_lock(&ex.lock);
	if (!ex.xc[index] && !ex.err[index]) {
		xc = calloc(1, sizeof(*xc));
		ex.err[index] = xc ? xcard_init(index, xc) : sdaaErrorHostMemoryAllocation;
		/* A card that cannot run work keeps its (never used) state. */
		if (!ex.err[index])
			__atomic_store_n(&ex.xc[index], xc, __ATOMIC_RELEASE);
	}
	err = ex.err[index];
	*out = ex.xc[index];
	pthread_mutex_unlock(&ex.lock);
	return err;
}

sdaaError_t sdaa_device_queue(int dev, struct sdaa_queue **q)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	const struct sdaa_device *d;
	struct sdaa_xcard *xc;
	sdaaError_t err;

	if (rt->init_error)
		return rt->init_error;
	if (dev < 0)
		sdaaGetDevice(&dev);
	if (dev >= rt->ndevices)
		return sdaaErrorInvalidDevice;
	d = &rt->devices[dev];
	err = sdaa_xcard_get((int)(d->card - rt->cards), &xc);
	if (err)
		return err;
	if (d->cg >= xc->nq)
		return sdaaErrorNotSupported;
	*q = &xc->q[d->cg];
	return sdaaSuccess;
}

sdaaError_t sdaa_xcard_check(struct sdaa_xcard *xc)
{
	return (sdaaError_t)__atomic_load_n(&xc->sticky, __ATOMIC_ACQUIRE);
}

sdaaError_t sdaa_card_sticky(int index)
{
	struct sdaa_xcard *xc;

	if (index < 0 || index >= SDAA_MAX_CARDS)
		return sdaaSuccess;
	xc = __atomic_load_n(&ex.xc[index], __ATOMIC_ACQUIRE);
	return xc ? sdaa_xcard_check(xc) : sdaaSuccess;
}

sdaaError_t sdaa_errno_error(int e)
{
	switch (e) {
	case ENODEV:
		return sdaaErrorDeviceUnavailable;
	case ENOMEM:
		return sdaaErrorHostMemoryAllocation;
	default:
		return sdaaErrorUnknown;
	}
}

static sdaaError_t timing_params(struct sdaaTimingParams *p, int device)
{
	struct drm_swai_query_timing t = { 0 };
	struct sdaa_queue *q;
	sdaaError_t err;

	if (!p)
		return sdaaErrorInvalidValue;
	err = sdaa_device_valid(device);
	if (err)
		return err;
	err = sdaa_device_queue(device, &q);
	if (err)
		return err;
	if (!(q->xc->card->q.capabilities & DRM_SWAI_CAP_TIMING))
		return sdaaErrorNotSupported;
	if (drmIoctl(q->xc->card->fd, DRM_IOCTL_SWAI_QUERY_TIMING, &t))
		return sdaa_errno_error(errno);
	*p = (struct sdaaTimingParams){
		.ringMBps = t.ring_mbps, .ringTotalMBps = t.ring_total_mbps,
		.localMBps = t.local_mbps, .pcieMBps = t.pcie_mbps, .ldmMBps = t.ldm_mbps,
		.launchNs = t.launch_ns, .syncNs = t.sync_ns, .stepNs = t.step_ns,
		.barrierNs = t.barrier_ns, .dmaNs = t.dma_ns, .cardClockNs = t.clock_ns,
		.hostClockNs = __atomic_load_n(sdaa_hclock(), __ATOMIC_RELAXED),
		.resets = t.resets, .f32Gflops = t.f32_gflops, .bf16Gflops = t.bf16_gflops,
	};
	return sdaaSuccess;
}

/*
 * Two versions of one symbol: programs linked against SDAA_0.2/0.3 pass the
 * struct without the GFLOP/s fields (64 bytes) and get
 * sdaaDeviceGetTimingParams@SDAA_0.2; new ones get @@SDAA_0.4.  The unit
 * test compiles these sources into an executable, where the plain name is
 * the new version.
 */
#ifdef SDAA_SHARED
#define SDAA_SYMVER(v) __attribute__((symver("sdaaDeviceGetTimingParams" v)))
#define TIMING_V2 sdaa_timing_params_v2
#define TIMING_V4 sdaa_timing_params_v4
#else
#define SDAA_SYMVER(v)
#define TIMING_V2 sdaa_timing_params_v2
#define TIMING_V4 sdaaDeviceGetTimingParams
#endif

sdaaError_t TIMING_V2(void *p, int device);
SDAA_API SDAA_SYMVER("@SDAA_0.2") sdaaError_t TIMING_V2(void *p, int device)
{
	struct sdaaTimingParams t;
	sdaaError_t err;

	if (!p)
		return sdaa_error(sdaaErrorInvalidValue);
	err = timing_params(&t, device);
	if (!err)
		memcpy(p, &t, offsetof(struct sdaaTimingParams, f32Gflops));
	return sdaa_error(err);
}

SDAA_API sdaaError_t sdaaHostWaitUntil(unsigned long long modeledNs)
{
	sdaa_model_advance(sdaa_hclock(), modeledNs, 0);
	return sdaaSuccess;
}

sdaaError_t TIMING_V4(struct sdaaTimingParams *p, int device);
SDAA_API SDAA_SYMVER("@@SDAA_0.4") sdaaError_t TIMING_V4(struct sdaaTimingParams *p, int device)
{
	return sdaa_error(timing_params(p, device));
}
