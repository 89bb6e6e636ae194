// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_job.c - jobs of the SW-AI card: DRM_IOCTL_SWAI_SUBMIT, the per-file
 * job records and DRM_IOCTL_SWAI_JOB_WAIT.
 *
 * A job runs one core-group program on one queue once its in-fences have
 * signalled.  It is a drm_sched job of the queue's scheduler, pushed through
 * the file's entity for that queue, so that one file's jobs on one queue
 * run in submission order.  Its finished fence is what userspace sees (the
 * out-syncobj); its hardware fence (swai_fence.c) is signalled by the
 * completion interrupt.  Every finished fence carries
 * DRM_SCHED_FENCE_DONT_PIPELINE: a job that waits for another job of the
 * card is only written to its ring once that job has ended, so the driver
 * knows the other job's modeled end and can delay the new job past it plus
 * the host's synchronisation cost, as the card's timing model wants.
 *
 * The file keeps a record of each of its newest SWAI_JOB_RECORDS jobs: how
 * it ended and its modeled times.  Any job that fails marks the file's
 * context failed, and later submits are refused with -ECANCELED.
 */

#include <linux/dma-fence-chain.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>
#include <drm/drm_utils.h>
#include <drm/swai_accel.h>
#include <drm/swai_program.h>

#include "swai_ctx.h"
#include "swai_debug.h"
#include "swai_drv.h"
#include "swai_fence.h"
#include "swai_trace.h"
#include "swai_job.h"
#include "swai_queue.h"
#include "swai_sched.h"

static void swai_job_rec_release(struct kref *ref)
{
	struct swai_job_rec *rec = container_of(ref, struct swai_job_rec, ref);

	dma_fence_put(rec->done);
	kfree(rec);
}

static void swai_job_rec_put(struct swai_job_rec *rec)
{
	kref_put(&rec->ref, swai_job_rec_release);
}

/* The fence error of a job that ended with uAPI error code @error. */
static int swai_job_errno(u32 error)
{
	switch (error) {
	case DRM_SWAI_JOB_ERR_MMU:
	case DRM_SWAI_JOB_ERR_FOREIGN:
		return -EFAULT;
	case DRM_SWAI_JOB_ERR_TIMEOUT:
		return -ETIMEDOUT;
	case DRM_SWAI_JOB_ERR_CANCELED:
		return -ECANCELED;
	default:
		return -EIO;
	}
}

/**
 * swai_job_end() - record how a job ended and prepare its hardware fence
 * @job: a job whose hardware fence is initialised and not signalled
 * @res: the outcome
 *
 * Fills the job's record, sets the fence error of a failed job and marks
 * its context failed.  The caller signals the fence afterwards, in queue
 * order (swai_job_signal_list()).
 *
 * Context: any; the job's queue lock held.
 */
void swai_job_end(struct swai_job *job, const struct swai_job_result *res)
{
	struct swai_ctx *ctx = job->ctx;
	struct swai_job_rec *rec = job->rec;
	unsigned long flags;

	xa_lock_irqsave(&ctx->jobs, flags);
	rec->ended = true;
	rec->error = res->error;
	rec->error_pc = res->error_pc;
	rec->fault_va = res->fault_va;
	rec->start_ns = res->start_ns;
	rec->end_ns = res->end_ns;
	rec->wall_ns = res->wall_ns;
	rec->bytes = res->bytes;
	xa_unlock_irqrestore(&ctx->jobs, flags);

	if (res->has_time)
		atomic64_add(res->wall_ns, &ctx->busy_ns[job->q->cg]);
	if (res->error) {
		WRITE_ONCE(ctx->failed, true);
		dma_fence_set_error(&job->hw->base, swai_job_errno(res->error));
	}
	job->hw->end_ns = res->end_ns;
	job->hw->has_time = res->has_time;
	job->state = SWAI_JOB_ENDED;
	trace_swai_job_done(ctx->asid, job->q->cg, job->id, res->error,
			    res->start_ns, res->end_ns);
	swai_dbg(job->q->sdev->drm.dev, JOB,
		 "ctx %u q %u job %llu: done, error %u, modeled %llu..%llu ns\n",
		 ctx->asid, job->q->cg, job->id, res->error, res->start_ns, res->end_ns);
}

/**
 * swai_job_end_error() - end a job the card did not finish
 * @job: as for swai_job_end()
 * @error: DRM_SWAI_JOB_ERR_*
 *
 * Context: any; the job's queue lock held.
 */
void swai_job_end_error(struct swai_job *job, u32 error)
{
	struct swai_job_result res = { .error = error };

	swai_job_end(job, &res);
}

/**
 * swai_job_signal_list() - signal the hardware fences of ended jobs
 * @done: jobs linked by &swai_job.done_link, oldest first; emptied
 *
 * A job may be freed as soon as its fence signals, so nothing of it is
 * touched afterwards.
 *
 * Context: any, without the queue lock.
 */
void swai_job_signal_list(struct list_head *done)
{
	struct swai_job *job, *next;

	list_for_each_entry_safe(job, next, done, done_link) {
		list_del(&job->done_link);
		/* end_ns and has_time are read by jobs that waited for it. */
		smp_wmb();
		dma_fence_signal(&job->hw->base);
	}
}

/**
 * swai_job_not_before() - the modeled time a job may start at the earliest
 * @job: a job whose in-fences have all signalled
 *
 * Return: the submit's not_before_ns, raised to the modeled end plus the
 * host synchronisation cost of every in-fence that is a job of this card.
 * 0 (the card's clock) only if the submit said 0 and there is no such fence.
 */
u64 swai_job_not_before(struct swai_job *job)
{
	struct swai_device *sdev = job->q->sdev;
	u64 nb = job->not_before_ns, end;
	u32 i;

	for (i = 0; i < job->num_deps; i++)
		if (swai_fence_modeled_end(sdev, job->deps[i], &end))
			nb = max(nb, end + sdev->timing.sync_ns);
	return nb;
}

/**
 * swai_job_free() - free a job and drop what it holds
 * @job: a job whose scheduler part is cleaned up (or was never set up)
 *
 * A job that never ended (killed with its entity when the file closed)
 * leaves its record CANCELED.  Takes the last reference of the context
 * perhaps, so it may sleep.
 *
 * Context: process.
 */
void swai_job_free(struct swai_job *job)
{
	struct swai_device *sdev = job->q->sdev;
	struct swai_job_rec *rec = job->rec;
	struct dma_fence *done = NULL;
	unsigned long flags;
	u32 i;

	if (rec) {
		xa_lock_irqsave(&job->ctx->jobs, flags);
		if (!rec->ended) {
			rec->ended = true;
			rec->error = DRM_SWAI_JOB_ERR_CANCELED;
		}
		done = rec->done;
		rec->done = NULL;
		xa_unlock_irqrestore(&job->ctx->jobs, flags);
		dma_fence_put(done);
		swai_job_rec_put(rec);
	}

	for (i = 0; i < job->num_deps; i++)
		dma_fence_put(job->deps[i]);
	kfree(job->deps);
	swai_fence_free(job->hw);
	atomic_dec(&job->ctx->live_jobs);
	swai_ctx_put(job->ctx);
	kfree(job);

	if (atomic_dec_and_test(&sdev->live_jobs))
		wake_up_all(&sdev->jobs_idle);
}

/**
 * swai_job_ctx_init() - set up the job state of a new context
 * @ctx: the context
 */
void swai_job_ctx_init(struct swai_ctx *ctx)
{
	mutex_init(&ctx->submit_lock);
	xa_init_flags(&ctx->jobs, XA_FLAGS_LOCK_IRQ);
}

/**
 * swai_job_ctx_fini() - drop the records of a context going away
 * @ctx: the context, its entities destroyed and its jobs freed
 */
void swai_job_ctx_fini(struct swai_ctx *ctx)
{
	struct swai_job_rec *rec;
	unsigned long id;

	xa_for_each(&ctx->jobs, id, rec)
		swai_job_rec_put(rec);
	xa_destroy(&ctx->jobs);
	mutex_destroy(&ctx->submit_lock);
}

/* A syncobj reference of a submit: -EINVAL unless well formed. */
static int swai_job_check_sync(const struct drm_swai_sync *s, bool out)
{
	if (s->flags & ~DRM_SWAI_SYNC_TIMELINE)
		return -EINVAL;
	if (out && !s->handle)
		return s->flags || s->point ? -EINVAL : 0;
	if (!(s->flags & DRM_SWAI_SYNC_TIMELINE) && s->point)
		return -EINVAL;
	/* A timeline is signalled at a point after 0. */
	if (out && (s->flags & DRM_SWAI_SYNC_TIMELINE) && !s->point)
		return -EINVAL;
	return 0;
}

/* Every field of @args that needs no lookup. */
static int swai_job_check_args(struct swai_device *sdev,
			       const struct drm_swai_submit *args)
{
	if ((args->flags & ~DRM_SWAI_SUBMIT_FLAGS_ALL) || args->reserved[0] ||
	    args->reserved[1])
		return -EINVAL;
	if (args->queue >= sdev->num_cg)
		return -EINVAL;
	if (!args->program_size || args->program_size > SWAI_PROGRAM_MAX_BYTES ||
	    args->program_size % sizeof(struct swai_insn))
		return -EINVAL;
	if (!IS_ALIGNED(args->program_va, 8) || args->program_va >= SWAI_VA_END ||
	    args->program_size > SWAI_VA_END - args->program_va)
		return -EINVAL;
	if (args->in_sync_count > DRM_SWAI_MAX_IN_SYNCS)
		return -EINVAL;
	return swai_job_check_sync(&args->out_sync, true);
}

/* Copy in and check the in-syncs of a submit; *@out is freed by the caller. */
static int swai_job_copy_syncs(const struct drm_swai_submit *args,
			       struct drm_swai_sync **out)
{
	struct drm_swai_sync *s;
	u32 i;
	int ret;

	*out = NULL;
	if (!args->in_sync_count)
		return 0;
	s = memdup_array_user(u64_to_user_ptr(args->in_syncs),
			      args->in_sync_count, sizeof(*s));
	if (IS_ERR(s))
		return PTR_ERR(s);
	*out = s;
	for (i = 0; i < args->in_sync_count; i++) {
		ret = swai_job_check_sync(&s[i], false);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A job of @ctx for queue @q with everything a submit may fail to get, or
 * ERR_PTR(-EAGAIN) when the file already has DRM_SWAI_MAX_LIVE_JOBS jobs
 * that are not finished (jobs blocked on a syncobj nobody signals would
 * otherwise pile up in the scheduler without bound), or ERR_PTR(-ENOMEM).
 * Everything is charged to the caller's memory cgroup.
 */
static struct swai_job *swai_job_alloc(struct swai_ctx *ctx, struct swai_queue *q,
				       u32 num_syncs)
{
	struct swai_device *sdev = q->sdev;
	struct swai_job *job = kzalloc(sizeof(*job), SWAI_GFP_USER);

	if (!job)
		return ERR_PTR(-ENOMEM);
	job->q = q;
	swai_ctx_get(ctx);
	job->ctx = ctx;
	atomic_inc(&sdev->live_jobs);
	INIT_LIST_HEAD(&job->done_link);
	if (atomic_inc_return(&ctx->live_jobs) > DRM_SWAI_MAX_LIVE_JOBS) {
		swai_job_free(job);
		return ERR_PTR(-EAGAIN);
	}

	job->hw = swai_fence_alloc();
	job->rec = kzalloc(sizeof(*job->rec), SWAI_GFP_USER);
	if (num_syncs)
		job->deps = kcalloc(num_syncs, sizeof(*job->deps), SWAI_GFP_USER);
	if (!job->hw || !job->rec || (num_syncs && !job->deps)) {
		swai_job_free(job);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&job->rec->ref);
	job->rec->queue = q->cg;
	return job;
}

/*
 * Make the in-syncs dependencies of @job.  Fences of the job's own entity
 * (this file, this queue) are skipped for timing: the scheduler ignores
 * them too, the queue already runs them in order.
 */
static int swai_job_add_deps(struct swai_job *job, struct drm_file *file,
			     const struct drm_swai_sync *syncs, u32 count)
{
	struct drm_sched_entity *entity = job->base.entity;
	struct dma_fence *f;
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = drm_syncobj_find_fence(file, syncs[i].handle, syncs[i].point,
					     0, &f);
		if (ret)
			return ret;
		if (f->context != entity->fence_context &&
		    f->context != entity->fence_context + 1)
			job->deps[job->num_deps++] = dma_fence_get(f);
		ret = drm_sched_job_add_dependency(&job->base, f);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Give @job the next id of @ctx, record it, hand it to the scheduler and
 * signal the out-syncobj with its finished fence.  Nothing can fail after
 * drm_sched_job_arm().
 */
static int swai_job_push(struct swai_ctx *ctx, struct swai_job *job,
			 struct drm_syncobj *out, struct dma_fence_chain *chain,
			 u64 point, u64 *id)
{
	struct swai_job_rec *old;
	struct dma_fence *finished;
	int ret;

	lockdep_assert_held(&ctx->submit_lock);

	*id = ctx->last_job_id + 1;
	/* The record table is indexed by unsigned long. */
	if (*id != (unsigned long)*id)
		return -ENOSPC;
	ret = xa_insert_irq(&ctx->jobs, *id, job->rec, SWAI_GFP_USER);
	if (ret)
		return ret == -EBUSY ? -EINVAL : ret;
	kref_get(&job->rec->ref);
	ctx->last_job_id = *id;
	job->id = *id;
	/* Before the scheduler can run it: submit is traced before run. */
	trace_swai_job_submit(ctx->asid, job->q->cg, job->id, job->prog_va);
	swai_dbg(job->q->sdev->drm.dev, JOB, "ctx %u q %u job %llu: submitted, program 0x%llx (%u B)\n",
		 ctx->asid, job->q->cg, job->id, job->prog_va, job->prog_size);
	if (*id > SWAI_JOB_RECORDS) {
		old = xa_erase_irq(&ctx->jobs, *id - SWAI_JOB_RECORDS);
		if (old)
			swai_job_rec_put(old);
	}

	drm_sched_job_arm(&job->base);
	finished = &job->base.s_fence->finished;
	/* Jobs waiting for this one are run only after it ended. */
	set_bit(DRM_SCHED_FENCE_DONT_PIPELINE, &finished->flags);
	job->rec->done = dma_fence_get(finished);
	if (out && chain)
		drm_syncobj_add_point(out, chain, finished, point);
	else if (out)
		drm_syncobj_replace_fence(out, finished);
	drm_sched_entity_push_job(&job->base);
	return 0;
}

/**
 * swai_ioctl_submit() - DRM_IOCTL_SWAI_SUBMIT
 * @drm: the DRM device
 * @data: struct drm_swai_submit
 * @file: the caller
 *
 * Return: 0 and the job id; -EINVAL for a malformed argument or an in-sync
 * without a fence (a binary syncobj never signalled, a timeline point not
 * yet submitted), -EFAULT if @in_syncs is unreadable, -ENOENT for a syncobj
 * handle that does not exist, -ECANCELED if a job of the file failed,
 * -ENOMEM, -EOPNOTSUPP without DRM_SWAI_CAP_SUBMIT (or DRM_SWAI_CAP_PEER for
 * DRM_SWAI_SUBMIT_PEER), -ENODEV after unplug.
 */
int swai_ioctl_submit(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_submit *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	struct dma_fence_chain *chain = NULL;
	struct drm_syncobj *out = NULL;
	struct drm_swai_sync *syncs;
	struct drm_sched_entity *entity;
	struct swai_job *job;
	int idx, ret;
	u64 id;

	ret = swai_job_check_args(sdev, args);
	if (ret)
		return ret;
	if (!sdev->has_queues || !ctx)
		return -EOPNOTSUPP;
	if ((args->flags & DRM_SWAI_SUBMIT_PEER) && !(sdev->hw_caps & SWAI_CAP_PEER))
		return -EOPNOTSUPP;
	ret = swai_job_copy_syncs(args, &syncs);
	if (ret)
		goto out_syncs;
	if (READ_ONCE(ctx->failed)) {
		ret = -ECANCELED;
		goto out_syncs;
	}
	if (args->out_sync.handle) {
		out = drm_syncobj_find(file, args->out_sync.handle);
		if (!out) {
			ret = -ENOENT;
			goto out_syncs;
		}
		if (args->out_sync.flags & DRM_SWAI_SYNC_TIMELINE) {
			chain = dma_fence_chain_alloc();
			if (!chain) {
				ret = -ENOMEM;
				goto out_syncobj;
			}
		}
	}

	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_chain;
	}
	job = swai_job_alloc(ctx, &sdev->queues[array_index_nospec(args->queue, sdev->num_cg)],
			     args->in_sync_count);
	if (IS_ERR(job)) {
		ret = PTR_ERR(job);
		goto out_exit;
	}
	job->prog_va = args->program_va;
	job->prog_size = args->program_size;
	job->not_before_ns = args->not_before_ns;
	job->desc_flags = args->flags & DRM_SWAI_SUBMIT_PEER ? SWAI_DESC_PEER : 0;

	mutex_lock(&ctx->submit_lock);
	entity = swai_sched_entity(ctx, args->queue);
	if (IS_ERR(entity)) {
		ret = PTR_ERR(entity);
		goto out_free;
	}
	ret = drm_sched_job_init(&job->base, entity, 1, ctx, file->client_id);
	if (ret)
		goto out_free;
	ret = swai_job_add_deps(job, file, syncs, args->in_sync_count);
	if (!ret)
		ret = swai_job_push(ctx, job, out, chain, args->out_sync.point, &id);
	if (ret) {
		drm_sched_job_cleanup(&job->base);
		goto out_free;
	}
	mutex_unlock(&ctx->submit_lock);

	args->job_id = id;
	chain = NULL;	/* consumed by the syncobj */
	goto out_exit;

out_free:
	mutex_unlock(&ctx->submit_lock);
	swai_job_free(job);
out_exit:
	drm_dev_exit(idx);
out_chain:
	dma_fence_chain_free(chain);
out_syncobj:
	if (out)
		drm_syncobj_put(out);
out_syncs:
	kfree(syncs);
	return ret;
}

/**
 * swai_ioctl_job_wait() - DRM_IOCTL_SWAI_JOB_WAIT
 * @drm: the DRM device
 * @data: struct drm_swai_job_wait
 * @file: the caller
 *
 * Waits, interruptibly, for the job's finished fence until the absolute
 * CLOCK_MONOTONIC @timeout_abs_ns (0: not at all), then reports the record.
 *
 * Return: 0 (DONE), -ETIME (PENDING), -ERESTARTSYS on a signal, -ENOENT
 * for an unknown or forgotten job id, -EINVAL for non-zero flags or
 * reserved fields, -EOPNOTSUPP without DRM_SWAI_CAP_SUBMIT.
 */
int swai_ioctl_job_wait(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_job_wait *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	struct dma_fence *done = NULL;
	struct swai_job_rec *rec;
	bool finished = true;
	long ret;

	if (args->flags || args->reserved[0] || args->reserved[1])
		return -EINVAL;
	if (!sdev->has_queues || !ctx)
		return -EOPNOTSUPP;
	if (!args->job_id || args->job_id != (unsigned long)args->job_id)
		return -ENOENT;

	xa_lock_irq(&ctx->jobs);
	rec = xa_load(&ctx->jobs, args->job_id);
	if (rec) {
		kref_get(&rec->ref);
		done = dma_fence_get(rec->done);
	}
	xa_unlock_irq(&ctx->jobs);
	if (!rec)
		return -ENOENT;

	if (done) {
		/*
		 * The deadline is CLOCK_MONOTONIC's: jiffies can run ahead of it
		 * (a virtual machine catching up lost ticks), so wait again
		 * until the clock itself has reached it.
		 */
		do {
			long left = drm_timeout_abs_to_jiffies(args->timeout_abs_ns);

			ret = dma_fence_wait_timeout(done, true, left);
		} while (!ret && args->timeout_abs_ns > 0 &&
			 ktime_get_ns() < (u64)args->timeout_abs_ns);
		finished = dma_fence_is_signaled(done);
		dma_fence_put(done);
		if (ret < 0 && !finished) {
			swai_job_rec_put(rec);
			return ret;
		}
	}

	args->state = finished ? DRM_SWAI_JOB_DONE : DRM_SWAI_JOB_PENDING;
	args->error = 0;
	args->error_pc = 0;
	args->fault_va = 0;
	args->start_ns = 0;
	args->end_ns = 0;
	args->wall_ns = 0;
	args->bytes = 0;
	args->queue = rec->queue;
	if (finished) {
		xa_lock_irq(&ctx->jobs);
		/* Not ended by now: the job was never run. */
		args->error = rec->ended ? rec->error : DRM_SWAI_JOB_ERR_CANCELED;
		args->error_pc = rec->error_pc;
		args->fault_va = rec->fault_va;
		args->start_ns = rec->start_ns;
		args->end_ns = rec->end_ns;
		args->wall_ns = rec->wall_ns;
		args->bytes = rec->bytes;
		xa_unlock_irq(&ctx->jobs);
	}
	args->ctx_flags = READ_ONCE(ctx->failed) ? DRM_SWAI_CTX_FAILED : 0;
	swai_job_rec_put(rec);
	return finished ? 0 : -ETIME;
}
