// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_sched.c - one drm_gpu_scheduler per core-group queue, the files'
 * entities, and recovery: the job timeout, the card-wide reset, unplug.
 *
 * Recovery (all on the card's ordered recovery workqueue, which is also
 * the schedulers' timeout workqueue, so that two never overlap) follows the
 * drm_sched recipe of this kernel: drm_sched_stop() parks the scheduler and
 * detaches the hardware fences of the jobs still on the card; the queue is
 * reset (swai_queue_reset()), which ends the job in flight and leaves the
 * jobs behind it DROPPED; drm_sched_resubmit_jobs() runs every job the
 * scheduler still holds again, and run_job writes the dropped ones to the
 * ring once more while a job that ended or is still in the ring only hands
 * back its fence; drm_sched_start() re-attaches the fences.  So a timeout
 * costs only the hung job (TIMEOUT, its context failed, its context's later
 * jobs canceled); every job of other files completes.
 *
 * drm_sched_resubmit_jobs() is deprecated, but in 6.12 it is the only way
 * to give the jobs drm_sched_stop() detached their fences back: without it
 * drm_sched_start() would cancel every one of them.  run_job being
 * idempotent (swai_queue_run()) is what makes it safe here.
 */

#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_managed.h>
#include <drm/gpu_scheduler.h>

#include "swai_ctx.h"
#include "swai_drv.h"
#include "swai_job.h"
#include "swai_queue.h"
#include "swai_sched.h"
#include "swai_trace.h"

static unsigned int job_timeout_ms = 10000;
module_param(job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms,
		 "A job running longer is stopped by a reset of its queue, in ms (0: never; per card in sysfs job_timeout_ms)");

static long swai_sched_timeout(u32 ms)
{
	return ms ? msecs_to_jiffies(ms) : MAX_SCHEDULE_TIMEOUT;
}

static struct dma_fence *swai_sched_run_job(struct drm_sched_job *sjob)
{
	struct swai_job *job = to_swai_job(sjob);

	return swai_queue_run(job->q, job);
}

static enum drm_gpu_sched_stat swai_sched_timedout_job(struct drm_sched_job *sjob)
{
	struct swai_job *job = to_swai_job(sjob);
	struct swai_queue *q = job->q;
	struct swai_device *sdev = q->sdev;

	drm_sched_stop(&q->sched, sjob);
	if (swai_queue_reset(q, job)) {
		atomic64_inc(&sdev->resets);
		dev_warn(&sdev->pdev->dev, "ctx %u q %u job %llu timed out after %u ms, queue reset\n",
			 job->ctx->asid, q->cg, job->id, READ_ONCE(sdev->job_timeout_ms));
	}
	drm_sched_resubmit_jobs(&q->sched);
	drm_sched_start(&q->sched);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void swai_sched_free_job(struct drm_sched_job *sjob)
{
	struct swai_job *job = to_swai_job(sjob);

	drm_sched_job_cleanup(sjob);
	swai_job_free(job);
}

static const struct drm_sched_backend_ops swai_sched_ops = {
	.run_job = swai_sched_run_job,
	.timedout_job = swai_sched_timedout_job,
	.free_job = swai_sched_free_job,
};

/**
 * swai_sched_entity() - the entity of a file for a core group's queue
 * @ctx: the file's context, submit_lock held
 * @cg: core group, < num_cg
 *
 * Return: the entity, made on first use, or ERR_PTR(-ENOMEM).
 */
struct drm_sched_entity *swai_sched_entity(struct swai_ctx *ctx, u32 cg)
{
	struct drm_gpu_scheduler *sched = &ctx->sdev->queues[cg].sched;
	struct drm_sched_entity *entity = ctx->entity[cg];
	int ret;

	lockdep_assert_held(&ctx->submit_lock);
	if (entity)
		return entity;

	entity = kzalloc(sizeof(*entity), SWAI_GFP_USER);
	if (!entity)
		return ERR_PTR(-ENOMEM);
	ret = drm_sched_entity_init(entity, DRM_SCHED_PRIORITY_NORMAL, &sched, 1,
				    NULL);
	if (ret) {
		kfree(entity);
		return ERR_PTR(ret);
	}
	ctx->entity[cg] = entity;
	return entity;
}

/**
 * swai_sched_file_close() - destroy the entities of a closing file
 * @ctx: the file's context
 *
 * The file's buffer objects are gone, so its jobs that have not reached
 * the card yet are canceled rather than run: the context is marked failed.
 * Then the entities are flushed (their jobs pass run_job, killable) and
 * destroyed; jobs already on the card run to their end.  The context lives
 * on until the last of its jobs is freed.
 */
void swai_sched_file_close(struct swai_ctx *ctx)
{
	u32 cg;

	WRITE_ONCE(ctx->failed, true);
	for (cg = 0; cg < SWAI_NUM_CG; cg++) {
		if (!ctx->entity[cg])
			continue;
		drm_sched_entity_destroy(ctx->entity[cg]);
		kfree(ctx->entity[cg]);
		ctx->entity[cg] = NULL;
	}
}

/**
 * swai_sched_set_timeout() - change the job timeout of a card
 * @sdev: the card
 * @ms: new timeout in ms, 0 for none
 *
 * Applies to the job each queue is running now as well.
 */
void swai_sched_set_timeout(struct swai_device *sdev, u32 ms)
{
	long t = swai_sched_timeout(ms);
	u32 cg;

	WRITE_ONCE(sdev->job_timeout_ms, ms);
	for (cg = 0; cg < sdev->num_cg; cg++) {
		struct drm_gpu_scheduler *sched = &sdev->queues[cg].sched;

		WRITE_ONCE(sched->timeout, t);
		drm_sched_resume_timeout(sched, t);
	}
}

/* Run @fn(@sdev) on the recovery workqueue and wait for it. */
struct swai_sched_work {
	struct work_struct work;
	struct swai_device *sdev;
	void (*fn)(struct swai_device *sdev);
};

static void swai_sched_work_fn(struct work_struct *work)
{
	struct swai_sched_work *w = container_of(work, struct swai_sched_work, work);

	w->fn(w->sdev);
}

static void swai_sched_recovery_sync(struct swai_device *sdev,
				     void (*fn)(struct swai_device *sdev))
{
	struct swai_sched_work w = { .sdev = sdev, .fn = fn };

	INIT_WORK_ONSTACK(&w.work, swai_sched_work_fn);
	queue_work(sdev->recovery_wq, &w.work);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
}

static void swai_sched_do_reset_card(struct swai_device *sdev)
{
	u32 cg;

	for (cg = 0; cg < sdev->num_cg; cg++)
		drm_sched_stop(&sdev->queues[cg].sched, NULL);
	for (cg = 0; cg < sdev->num_cg; cg++)
		swai_queue_reset(&sdev->queues[cg], NULL);
	atomic64_inc(&sdev->resets);
	trace_swai_card_reset(sdev->num_cg);
	for (cg = 0; cg < sdev->num_cg; cg++) {
		drm_sched_resubmit_jobs(&sdev->queues[cg].sched);
		drm_sched_start(&sdev->queues[cg].sched);
	}
	dev_warn(&sdev->pdev->dev, "card reset: every queue reset\n");
}

/**
 * swai_sched_reset_card() - reset every queue of a card (sysfs, debugfs)
 * @sdev: the card, with queues
 *
 * The job each queue is running ends with RESET and fails its context; the
 * jobs queued behind it run afterwards.  Counted in @sdev->resets.
 *
 * Context: process, may sleep.
 */
void swai_sched_reset_card(struct swai_device *sdev)
{
	swai_sched_recovery_sync(sdev, swai_sched_do_reset_card);
}

static void swai_sched_do_unplug(struct swai_device *sdev)
{
	u32 cg;

	for (cg = 0; cg < sdev->num_cg; cg++)
		swai_queue_unplug(&sdev->queues[cg]);
}

/**
 * swai_sched_unplug() - end every job on the card, which is going away
 * @sdev: the card, after drm_dev_unplug()
 *
 * Jobs on the card end with RESET, jobs that reach a queue later end at
 * once; the schedulers keep running so that every job is freed.
 */
void swai_sched_unplug(struct swai_device *sdev)
{
	if (sdev->has_queues)
		swai_sched_recovery_sync(sdev, swai_sched_do_unplug);
}

/*
 * drmm action: every file is closed and the card was unplugged, so every
 * job has ended; wait for the last ones to be freed, then stop the
 * schedulers.
 */
static void swai_sched_fini(struct drm_device *drm, void *arg)
{
	struct swai_device *sdev = to_swai_device(drm);
	u32 cg;

	wait_event(sdev->jobs_idle, !atomic_read(&sdev->live_jobs));
	for (cg = 0; cg < sdev->num_cg; cg++)
		if (sdev->queues[cg].sched_ready)
			drm_sched_fini(&sdev->queues[cg].sched);
}

static void swai_sched_destroy_wq(struct drm_device *drm, void *arg)
{
	destroy_workqueue(arg);
}

/**
 * swai_sched_init() - set up the queues and their schedulers, if the card
 * has queues and device memory (programs are fetched through the MMU)
 * @sdev: the card, interrupts and device memory set up
 *
 * Return: 0 (also without queues: then no DRM_SWAI_CAP_SUBMIT) or a
 * negative errno.
 */
int swai_sched_init(struct swai_device *sdev)
{
	struct drm_sched_init_args args = {
		.ops = &swai_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = SWAI_RING_ENTRIES - 1,
		.dev = &sdev->pdev->dev,
	};
	u32 cg;
	int ret, k;

	init_waitqueue_head(&sdev->jobs_idle);
	for (k = 0; k < SWAI_INJECT_KINDS; k++)
		atomic_set(&sdev->inject[k], SWAI_INJECT_OFF);
	sdev->job_timeout_ms = job_timeout_ms;
	if (!(sdev->hw_caps & SWAI_CAP_QUEUES) || !sdev->has_memory)
		return 0;

	sdev->recovery_wq = alloc_ordered_workqueue("swai-%s-recovery", 0,
						    pci_name(sdev->pdev));
	if (!sdev->recovery_wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&sdev->drm, swai_sched_destroy_wq,
				       sdev->recovery_wq);
	if (ret)
		return ret;

	sdev->queues = drmm_kcalloc(&sdev->drm, sdev->num_cg,
				    sizeof(*sdev->queues), GFP_KERNEL);
	if (!sdev->queues)
		return -ENOMEM;
	ret = swai_queue_hw_init(sdev);
	if (ret)
		return ret;

	ret = drmm_add_action(&sdev->drm, swai_sched_fini, NULL);
	if (ret)
		return ret;
	args.timeout_wq = sdev->recovery_wq;
	args.timeout = swai_sched_timeout(sdev->job_timeout_ms);
	for (cg = 0; cg < sdev->num_cg; cg++) {
		struct swai_queue *q = &sdev->queues[cg];

		args.name = q->name;
		ret = drm_sched_init(&q->sched, &args);
		if (ret)
			return ret;
		q->sched_ready = true;
	}

	sdev->has_queues = true;
	return 0;
}
