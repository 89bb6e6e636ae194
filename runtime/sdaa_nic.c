// SPDX-License-Identifier: MIT
/*
 * sdaa_nic.c - the card's NIC port for the process (swai.ko 1.5:
 * DRM_SWAI_CAP_NIC, DRM_IOCTL_SWAI_NIC_*; Documentation/datasheet.md §16).
 *
 * A port is the card file's, so a port opened through any core group of a
 * card is the process's on that card.  Posts carry the process's modeled
 * host time (sdaa_model.c), and a wait moves it to the latest completion's
 * end plus the host sync cost: the host learns of a completion as it learns
 * of a job's end.
 */
#include <errno.h>
#include <string.h>

#include <xf86drm.h>

#include "sdaa_exec.h"

static sdaaError_t card_of(int device, struct sdaa_xcard **xc)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	sdaaError_t err = sdaa_device_valid(device);

	if (err)
		return err;
	err = sdaa_xcard_get((int)(rt->devices[device].card - rt->cards), xc);
	if (err)
		return err;
	if (!((*xc)->card->q.capabilities & DRM_SWAI_CAP_NIC))
		return sdaaErrorNotSupported;
	return sdaa_xcard_check(*xc);
}

static sdaaError_t nic_errno(int e)
{
	switch (e) {
	case EINVAL:
	case EFAULT:
		return sdaaErrorInvalidValue;
	case EBUSY:
	case ENOSPC:
		return sdaaErrorNotReady;
	case ETIME:
		return sdaaErrorTimeout;
	case EOPNOTSUPP:
		return sdaaErrorNotSupported;
	default:
		return sdaa_errno_error(e);
	}
}

SDAA_API sdaaError_t sdaaNicOpen(int device, sdaaNicPort_t *port)
{
	struct drm_swai_nic_open o = { 0 };
	struct sdaa_xcard *xc;
	sdaaError_t err;

	if (!port)
		return sdaa_error(sdaaErrorInvalidValue);
	err = card_of(device, &xc);
	if (err)
		return sdaa_error(err);
	if (drmIoctl(xc->card->fd, DRM_IOCTL_SWAI_NIC_OPEN, &o))
		return sdaa_error(nic_errno(errno));
	*port = (sdaaNicPort_t){ .device = device, .vport = o.vport, .node = o.node,
				 .key = o.key };
	sdaa_log(SDAA_LOG_INFO, SDAA_SUB_INIT, "card %d: NIC port %u of node %u",
		 xc->card->minor, o.vport, o.node);
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaNicClose(const sdaaNicPort_t *port)
{
	struct drm_swai_nic_close c = { 0 };
	struct sdaa_xcard *xc;
	sdaaError_t err;

	if (!port)
		return sdaa_error(sdaaErrorInvalidValue);
	err = card_of(port->device, &xc);
	if (err)
		return sdaa_error(err);
	c.vport = port->vport;
	if (drmIoctl(xc->card->fd, DRM_IOCTL_SWAI_NIC_CLOSE, &c))
		return sdaa_error(nic_errno(errno));
	return sdaaSuccess;
}

static sdaaError_t post(const sdaaNicPort_t *port, const void *descs, unsigned int count,
			uint64_t not_before_ns, unsigned int *posted)
{
	struct drm_swai_nic_post p = { 0 };
	struct sdaa_xcard *xc;
	sdaaError_t err;
	int r;

	if (posted)
		*posted = 0;
	if (!port || !descs || !count || count > DRM_SWAI_NIC_POST_MAX)
		return sdaa_error(sdaaErrorInvalidValue);
	err = card_of(port->device, &xc);
	if (err)
		return sdaa_error(err);
	p.descs = (uint64_t)(uintptr_t)descs;
	p.vport = port->vport;
	p.count = count;
	p.not_before_ns = not_before_ns;
	r = drmIoctl(xc->card->fd, DRM_IOCTL_SWAI_NIC_POST, &p);
	if (posted)
		*posted = p.posted;
	return r ? sdaa_error(nic_errno(errno)) : sdaaSuccess;
}

SDAA_API sdaaError_t sdaaNicPost(const sdaaNicPort_t *port, const void *descs,
				 unsigned int count, unsigned int *posted)
{
	return post(port, descs, count, __atomic_load_n(sdaa_hclock(), __ATOMIC_RELAXED),
		    posted);
}

SDAA_API sdaaError_t sdaaNicPostAt(const sdaaNicPort_t *port, const void *descs,
				   unsigned int count, unsigned long long notBeforeNs,
				   unsigned int *posted)
{
	return post(port, descs, count, notBeforeNs, posted);
}

SDAA_API sdaaError_t sdaaNicWait(const sdaaNicPort_t *port, sdaaNicCompletion_t *completions,
				 unsigned int max, unsigned int min, unsigned int timeoutMs,
				 unsigned int *count)
{
	struct drm_swai_nic_cqe cqe[64];
	struct drm_swai_nic_wait w = { 0 };
	int64_t deadline = sdaa_deadline(timeoutMs);
	struct sdaa_xcard *xc;
	unsigned int n = 0, i;
	uint64_t end = 0;
	sdaaError_t err;
	int r = 0;

	if (count)
		*count = 0;
	if (!port || !completions || !max || min > max)
		return sdaa_error(sdaaErrorInvalidValue);
	err = card_of(port->device, &xc);
	if (err)
		return sdaa_error(err);
	/* In rounds of 64: the driver fills a bounded array each time. */
	while (n < max) {
		int64_t left = deadline - sdaa_now_ns();
		unsigned int want = min > n ? min - n : 0;

		w = (struct drm_swai_nic_wait){
			.cqes = (uint64_t)(uintptr_t)cqe, .vport = port->vport,
			.max = max - n < 64 ? max - n : 64,
			.timeout_ns = left > 0 ? (uint64_t)left : 0,
		};
		w.min = want < w.max ? want : w.max;
		if (w.timeout_ns > 60000000000ULL)
			w.timeout_ns = 60000000000ULL;
		r = drmIoctl(xc->card->fd, DRM_IOCTL_SWAI_NIC_WAIT, &w) ? errno : 0;
		for (i = 0; i < w.count; i++, n++) {
			completions[n] = (sdaaNicCompletion_t){
				.status = cqe[i].status, .kind = cqe[i].kind,
				.errvec = cqe[i].errvec, .index = cqe[i].index,
				.timeNs = cqe[i].time_ns,
			};
			if (cqe[i].time_ns > end)
				end = cqe[i].time_ns;
		}
		if (r || n >= min || !w.count)
			break;
	}
	if (count)
		*count = n;
	if (n)
		sdaa_model_advance(sdaa_hclock(), end, xc->timing.sync_ns);
	if (r == ETIME || (!r && n < min))
		return sdaaErrorTimeout;	/* never the last error, as the syncs */
	return r ? sdaa_error(nic_errno(r)) : sdaaSuccess;
}
