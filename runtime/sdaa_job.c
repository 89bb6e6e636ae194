// SPDX-License-Identifier: MIT
/*
 * sdaa_job.c - the submission layer: per queue (core group) the program
 * memory, and the two ioctls every piece of work goes through,
 * DRM_IOCTL_SWAI_SUBMIT and DRM_IOCTL_SWAI_JOB_WAIT, with what they say about
 * failed jobs (the card's sticky error).
 *
 * Programs are copied into a FIFO of pinned host memory per queue, mapped on
 * the queue's card only (sdaa_progbuf.h): the card fetches a program when its
 * job starts, so its bytes are reused only once that job has ended.  Each
 * queue has a timeline syncobj whose point n signals when the queue's n-th
 * job of this process ends; other queues' jobs wait on those points
 * (sdaa_front.h).  Every job is launched at the modeled host time H
 * (sdaa_model.c).
 */
#include <errno.h>
#include <string.h>

#include <xf86drm.h>

#include "sdaa_exec.h"

/* How far back a failed context is searched for the job that failed it. */
#define CAUSE_SCAN	1024

/* Record the first sticky error of a card; return the card's. */
static sdaaError_t set_sticky(struct sdaa_xcard *xc, sdaaError_t err)
{
	int none = 0;

	if (__atomic_compare_exchange_n(&xc->sticky, &none, (int)err, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_JOB, "card %d: %s: %s", xc->card->minor,
			 sdaaGetErrorName(err), sdaaGetErrorString(err));
		return err;
	}
	return (sdaaError_t)none;
}

/*
 * The card says the context failed; find the job that failed it among the
 * newest ones (every later job reports CANCELED).
 */
static sdaaError_t find_cause(struct sdaa_xcard *xc)
{
	uint64_t newest = __atomic_load_n(&xc->newest_job, __ATOMIC_ACQUIRE);

	for (uint64_t id = newest; id && newest - id < CAUSE_SCAN; id--) {
		struct drm_swai_job_wait w = { .job_id = id };

		if (drmIoctl(xc->card->fd, DRM_IOCTL_SWAI_JOB_WAIT, &w) ||
		    w.state != DRM_SWAI_JOB_DONE)
			continue;
		if (w.error != DRM_SWAI_JOB_OK && w.error != DRM_SWAI_JOB_ERR_CANCELED &&
		    sdaa_error_is_sticky(sdaa_job_error(w.error))) {
			sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_JOB, "card %d: ctx %u q %u job %llu failed at "
				 "instruction %u (address 0x%llx)", xc->card->minor, xc->asid,
				 w.queue, (unsigned long long)id, w.error_pc,
				 (unsigned long long)w.fault_va);
			return set_sticky(xc, sdaa_job_error(w.error));
		}
	}
	return set_sticky(xc, sdaaErrorLaunchFailure);
}

sdaaError_t sdaa_wait(struct sdaa_xcard *xc, int cg, struct sdaa_fence f, int64_t deadline,
		      unsigned int flags, struct sdaa_done *res)
{
	struct drm_swai_job_wait w;
	sdaaError_t err;
	int ret;

	if (res)
		*res = (struct sdaa_done){ 0, 0 };
	if (!f.job)
		return sdaaSuccess;
	for (;;) {
		int64_t now = deadline ? sdaa_now_ns() : 0;

		memset(&w, 0, sizeof(w));
		w.job_id = f.job;
		/* Long waits go in slices of a second: robust to any clamping. */
		w.timeout_abs_ns = !deadline ? 0 :
				   deadline - now > 1000000000LL ? now + 1000000000LL : deadline;
		ret = drmIoctl(xc->card->fd, DRM_IOCTL_SWAI_JOB_WAIT, &w) ? errno : 0;
		if (!ret && w.state == DRM_SWAI_JOB_DONE)
			break;
		if (ret == ENOENT) {
			/* The driver dropped the record of a job that long ended. */
			memset(&w, 0, sizeof(w));
			break;
		}
		if (ret && ret != ETIME && ret != EINTR && ret != EAGAIN) {
			sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_JOB, "card %d: waiting for job %llu: %s",
				 xc->card->minor, (unsigned long long)f.job, strerror(ret));
			return sdaa_errno_error(ret);
		}
		if (!deadline || (deadline != SDAA_FOREVER && sdaa_now_ns() >= deadline))
			return sdaaErrorNotReady;
	}
	sdaa_log(SDAA_LOG_DEBUG, SDAA_SUB_JOB, "card %d: ctx %u q %d job %llu: modeled %llu..%llu ns, "
		 "wall %llu ns, %llu bytes%s", xc->card->minor, xc->asid, cg,
		 (unsigned long long)f.job,
		 (unsigned long long)w.start_ns, (unsigned long long)w.end_ns,
		 (unsigned long long)w.wall_ns, (unsigned long long)w.bytes,
		 flags & SDAA_WAIT_HOST ? " (host wait)" : "");
	if (flags & SDAA_WAIT_HOST && w.end_ns)
		sdaa_model_advance(sdaa_hclock(), w.end_ns, xc->timing.sync_ns);
	if (flags & SDAA_WAIT_HOST) {
		uint64_t old = __atomic_load_n(&xc->waited[cg], __ATOMIC_RELAXED);

		while (f.point > old &&
		       !__atomic_compare_exchange_n(&xc->waited[cg], &old, f.point, 0,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
	}
	if (res)
		*res = (struct sdaa_done){ w.end_ns, w.wall_ns };
	if (w.error == DRM_SWAI_JOB_OK)
		return sdaaSuccess;
	if (w.error == DRM_SWAI_JOB_ERR_CANCELED) {
		err = sdaa_xcard_check(xc);
		return err ? err : find_cause(xc);
	}
	err = sdaa_job_error(w.error);
	sdaa_log(SDAA_LOG_INFO, SDAA_SUB_JOB, "card %d: ctx %u q %d job %llu: %s at instruction %u "
		 "(address 0x%llx)", xc->card->minor, xc->asid, cg,
		 (unsigned long long)f.job, sdaaGetErrorName(err),
		 w.error_pc, (unsigned long long)w.fault_va);
	return sdaa_error_is_sticky(err) ? set_sticky(xc, err) : err;
}

sdaaError_t sdaa_wait_front(const struct sdaa_front *f, int64_t deadline,
			    unsigned int flags, uint64_t *max_end)
{
	struct sdaa_xcard *xc;
	sdaaError_t err;

	if (max_end)
		*max_end = 0;
	if (f->card < 0 || sdaa_front_empty(f))
		return sdaaSuccess;
	err = sdaa_xcard_get(f->card, &xc);
	if (err)
		return err;
	for (int i = 0; i < SDAA_MAX_CG; i++) {
		struct sdaa_done d;

		err = sdaa_wait(xc, i, f->q[i], deadline, flags, &d);
		if (err)
			return err;
		if (max_end && d.end_ns > *max_end)
			*max_end = d.end_ns;
	}
	return sdaaSuccess;
}

/* Pinned program memory for @q, on first use (queue lock held). */
static sdaaError_t pool_ready(struct sdaa_queue *q)
{
	void *host;
	sdaaError_t err;

	if (q->pool)
		return sdaaSuccess;
	err = sdaa_host_pin(SDAA_POOL_BYTES, q->xc->index, q->xc->index, &host, &q->pool_va);
	if (!err)
		q->pool = host;
	return err;
}

sdaaError_t sdaa_queue_scratch(struct sdaa_queue *q, uint64_t *va)
{
	sdaaError_t err;

	pthread_mutex_lock(&q->lock);
	err = pool_ready(q);
	*va = q->pool_va;
	pthread_mutex_unlock(&q->lock);
	return err;
}

/* Room for @len bytes of program; waits for old jobs if the buffer is full. */
static sdaaError_t pool_alloc(struct sdaa_queue *q, size_t len, size_t *off)
{
	int ret;

	while ((ret = sdaa_progbuf_alloc(&q->progbuf, len, off)) == -EAGAIN) {
		struct sdaa_fence f = { 0, sdaa_progbuf_oldest(&q->progbuf) };
		/* Not a host wait of the program's: the modeled clock stays. */
		sdaaError_t err = sdaa_wait(q->xc, q->cg, f, SDAA_FOREVER, 0, NULL);

		if (err == sdaaErrorDeviceUnavailable || err == sdaaErrorUnknown)
			return err;
		sdaa_progbuf_pop(&q->progbuf);
	}
	return ret ? sdaaErrorInvalidValue : sdaaSuccess;
}

static sdaaError_t submit_error(struct sdaa_xcard *xc, int e)
{
	if (e == ECANCELED)
		return find_cause(xc);
	sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_JOB, "card %d: submit failed: %s", xc->card->minor, strerror(e));
	return e == EINVAL ? sdaaErrorInvalidValue : sdaa_errno_error(e);
}

/*
 * Dependencies of a job on queue @cg that already ended need no in-fence:
 * their modeled end plus the host sync cost goes straight into
 * not_before_ns, which is what the driver does for an in-fence.  (It also
 * avoids a driver problem: a timeline point that has signalled before
 * SUBMIT comes back from the syncobj as a stub fence without the job's
 * modeled end.)  Drops them from @f; returns the not_before_ns they need.
 */
static sdaaError_t fold_done(struct sdaa_xcard *xc, int cg, struct sdaa_front *f,
			     uint64_t *nb)
{
	*nb = 0;
	for (int i = 0; i < SDAA_MAX_CG; i++) {
		struct sdaa_done d;
		sdaaError_t err;

		if (i == cg || !f->q[i].point ||
		    f->q[i].point <= __atomic_load_n(&xc->waited[i], __ATOMIC_RELAXED))
			continue;
		err = sdaa_wait(xc, i, f->q[i], 0, 0, &d);
		if (err == sdaaErrorNotReady)
			continue;
		if (err)
			return err;
		if (d.end_ns && d.end_ns + xc->timing.sync_ns > *nb)
			*nb = d.end_ns + xc->timing.sync_ns;
		f->q[i] = (struct sdaa_fence){ 0, 0 };
	}
	return sdaaSuccess;
}

sdaaError_t sdaa_submit(struct sdaa_queue *q, const struct swai_insn *insns, size_t n,
			const struct sdaa_front *deps, struct sdaa_fence *out)
{
	struct sdaa_xcard *xc = q->xc;
	size_t bytes = n * sizeof(*insns), len = (bytes + 63) & ~(size_t)63, off;
	struct drm_swai_sync syncs[SDAA_MAX_CG];
	uint64_t waited[SDAA_MAX_CG], dep_nb = 0, h;
	struct drm_swai_submit s;
	struct sdaa_front live;
	sdaaError_t err;
	int nsync = 0;

	if (!n || bytes > SWAI_PROGRAM_MAX_BYTES)
		return sdaaErrorInvalidValue;
	err = sdaa_xcard_check(xc);
	if (err)
		return err;
	if (deps && deps->card >= 0 && deps->card != xc->index) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_JOB, "internal: dependency on another card");
		return sdaaErrorUnknown;
	}
	if (deps) {
		live = *deps;
		err = fold_done(xc, q->cg, &live, &dep_nb);
		if (err)
			return err;
		deps = &live;
	}
	pthread_mutex_lock(&q->lock);
	err = pool_ready(q);
	if (!err)
		err = pool_alloc(q, len, &off);
	if (err)
		goto out;
	memcpy(q->pool + SDAA_POOL_SCRATCH + off, insns, bytes);
	if (deps) {
		for (int i = 0; i < SDAA_MAX_CG; i++)
			waited[i] = __atomic_load_n(&xc->waited[i], __ATOMIC_RELAXED);
		nsync = sdaa_front_syncs(deps, q->cg, waited, xc->syncobj, syncs);
	}
	memset(&s, 0, sizeof(s));
	s.program_va = q->pool_va + SDAA_POOL_SCRATCH + off;
	s.program_size = (uint32_t)bytes;
	s.queue = (uint32_t)q->cg;
	s.in_syncs = (uintptr_t)syncs;
	s.in_sync_count = (uint32_t)nsync;
	/* Peer access is per job on the card: any enabled peer turns it on. */
	if (__atomic_load_n(&q->peers, __ATOMIC_ACQUIRE))
		s.flags = DRM_SWAI_SUBMIT_PEER;
	s.out_sync = (struct drm_swai_sync){
		.handle = xc->syncobj[q->cg],
		.flags = DRM_SWAI_SYNC_TIMELINE,
		.point = q->point + 1,
	};
	h = __atomic_load_n(sdaa_hclock(), __ATOMIC_RELAXED);
	s.not_before_ns = dep_nb > h ? dep_nb : h;
	if (drmIoctl(xc->card->fd, DRM_IOCTL_SWAI_SUBMIT, &s)) {
		err = submit_error(xc, errno);
		goto out;
	}
	sdaa_log(SDAA_LOG_DEBUG, SDAA_SUB_JOB, "card %d: ctx %u q %d job %llu: submitted, %zu insns, "
		 "%d in-fences, at %llu ns", xc->card->minor, xc->asid, q->cg,
		 (unsigned long long)s.job_id, n, nsync, (unsigned long long)s.not_before_ns);
	q->point++;
	sdaa_progbuf_commit(&q->progbuf, off, len, s.job_id);
	__atomic_store_n(&q->last_job, s.job_id, __ATOMIC_RELEASE);
	{
		uint64_t old = __atomic_load_n(&xc->newest_job, __ATOMIC_RELAXED);

		while (s.job_id > old &&
		       !__atomic_compare_exchange_n(&xc->newest_job, &old, s.job_id, 0,
						    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			;
	}
	*out = (struct sdaa_fence){ q->point, s.job_id };
out:
	pthread_mutex_unlock(&q->lock);
	return err;
}

void sdaa_job_fini(void)
{
	int64_t deadline = sdaa_deadline(10000);
	struct sdaa_xcard *xc;

	/* Bounded: a hung job is the driver's timeout's business. */
	for (int c = 0; c < SDAA_MAX_CARDS; c++) {
		xc = sdaa_xcard_peek(c);
		for (int i = 0; xc && i < xc->nq; i++) {
			struct sdaa_fence f = { 0, xc->q[i].last_job };

			sdaa_wait(xc, i, f, deadline, 0, NULL);
		}
	}
}
