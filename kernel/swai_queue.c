// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_queue.c - the hardware queues of the SW-AI card (datasheet §4.5, §12).
 *
 * Each core group has a ring of SWAI_RING_ENTRIES descriptors and as many
 * completion records, both in DMA-coherent host memory that lives as long
 * as the drm_device.  Descriptor i names completion record i, and the
 * scheduler never has more than SWAI_RING_ENTRIES - 1 jobs in a ring, so a
 * record is reused only after the driver consumed it.  The ring, its job
 * table and the state of its jobs are guarded by a spinlock that the
 * completion interrupt (MSI-X vector 1 + cg) takes too.  The card completes
 * a queue's jobs in order: it writes the record, then COMPLETED, then
 * raises the interrupt, so the handler ends every job up to COMPLETED.
 *
 * Fences are signalled after the lock is dropped, oldest first.
 */

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/iopoll.h>
#include <linux/pci.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/swai_accel.h>

#include "swai_ctx.h"
#include "swai_debug.h"
#include "swai_drv.h"
#include "swai_fence.h"
#include "swai_hw.h"
#include "swai_irq.h"
#include "swai_job.h"
#include "swai_queue.h"
#include "swai_trace.h"

#define SWAI_RING_MASK		(SWAI_RING_ENTRIES - 1)
#define SWAI_Q_RESET_POLL_US	50
#define SWAI_Q_RESET_TIMEOUT_US	(1000 * USEC_PER_MSEC)

static_assert(!(SWAI_RING_ENTRIES & (SWAI_RING_ENTRIES - 1)));
static_assert(sizeof(struct swai_hw_desc) == 64);
static_assert(sizeof(struct swai_hw_completion) == 64);

/* The descriptor and completion layouts are little endian. */
static __u64 swai_le64(u64 v)
{
	return (__force __u64)cpu_to_le64(v);
}

static __u32 swai_le32(u32 v)
{
	return (__force __u32)cpu_to_le32(v);
}

static u64 swai_cpu64(__u64 v)
{
	return le64_to_cpu((__force __le64)v);
}

static u32 swai_cpu32(__u32 v)
{
	return le32_to_cpu((__force __le32)v);
}

static u32 swai_qreg(const struct swai_queue *q, u32 reg)
{
	return SWAI_QUEUE_REG(q->cg, reg);
}

/**
 * swai_queue_read_u64() - read a 64-bit counter kept in two registers
 * @sdev: the card
 * @lo: register of bits 31:0
 * @hi: register of bits 63:32
 *
 * The card may carry into the high half between the two reads; reading it
 * twice catches that.
 *
 * Return: the value, U64_MAX if the card is gone.
 */
u64 swai_queue_read_u64(struct swai_device *sdev, u32 lo, u32 hi)
{
	u32 h1, l, h2;

	h1 = swai_rd(sdev, hi);
	l = swai_rd(sdev, lo);
	h2 = swai_rd(sdev, hi);
	if (h1 != h2)
		l = swai_rd(sdev, lo);
	return (u64)h2 << 32 | l;
}

/**
 * swai_queue_owns_sched() - is @sched one of this card's schedulers?
 * @sdev: the card
 * @sched: any scheduler
 *
 * Return: true if @sched feeds a queue of @sdev.
 */
bool swai_queue_owns_sched(struct swai_device *sdev,
			   struct drm_gpu_scheduler *sched)
{
	u32 cg;

	if (!sdev->has_queues)
		return false;
	for (cg = 0; cg < sdev->num_cg; cg++)
		if (sched == &sdev->queues[cg].sched)
			return true;
	return false;
}

/* Consume the armed fault-injection knobs that apply to queue @cg. */
static u32 swai_queue_inject_flags(struct swai_device *sdev, u32 cg)
{
	static const u32 flag[SWAI_INJECT_KINDS] = {
		[SWAI_INJECT_HANG] = SWAI_DESC_INJECT_HANG,
		[SWAI_INJECT_MMU_FAULT] = SWAI_DESC_INJECT_MMU_FAULT,
		[SWAI_INJECT_DMA_FAIL] = SWAI_DESC_INJECT_DMA_FAIL,
	};
	u32 flags = 0;
	int k, armed;

	for (k = 0; k < SWAI_INJECT_KINDS; k++) {
		armed = atomic_read(&sdev->inject[k]);
		if ((armed == (int)cg || armed == SWAI_INJECT_ANY) &&
		    atomic_cmpxchg(&sdev->inject[k], armed, SWAI_INJECT_OFF) == armed)
			flags |= flag[k];
	}
	return flags;
}

/* Write @job to the next ring entry and ring the doorbell. */
static void swai_queue_write_locked(struct swai_queue *q, struct swai_job *job,
				    u64 not_before_ns)
{
	struct swai_device *sdev = q->sdev;
	u32 i = q->tail & SWAI_RING_MASK;
	struct swai_hw_desc *d = &q->ring[i];

	lockdep_assert_held(&q->lock);

	job->seqno = ++q->seqno;
	/* A stale record must never pass for this job's. */
	memset(&q->cpl[i], 0, sizeof(q->cpl[i]));
	d->seqno = swai_le64(job->seqno);
	d->asid = swai_le32(job->ctx->asid);
	d->flags = swai_le32(job->desc_flags);
	d->prog_va = swai_le64(job->prog_va);
	d->prog_size = swai_le32(job->prog_size);
	d->pad = 0;
	d->not_before_ns = swai_le64(not_before_ns);
	d->completion = swai_le64(q->cpl_dma + (u64)i * sizeof(q->cpl[i]));
	d->job_id = swai_le64(job->id);
	d->rsvd = 0;

	q->slot[i] = job;
	q->tail++;
	job->state = SWAI_JOB_QUEUED;
	trace_swai_job_run(job->ctx->asid, q->cg, job->id, job->seqno);
	swai_dbg(sdev->drm.dev, QUEUE, "ctx %u q %u job %llu: on the ring, seqno %llu\n",
		 job->ctx->asid, q->cg, job->id, job->seqno);

	/* The card must see the descriptor before the doorbell. */
	dma_wmb();
	swai_wr(sdev, swai_qreg(q, SWAI_Q_TAIL), q->tail & SWAI_RING_MASK);
}

/* End @job with a driver-made @error and put it on @done. */
static void swai_queue_end_locked(struct swai_job *job, u32 error,
				  struct list_head *done)
{
	swai_job_end_error(job, error);
	list_add_tail(&job->done_link, done);
}

/**
 * swai_queue_run() - &drm_sched_backend_ops.run_job of a queue
 * @q: the queue
 * @job: a job of @q's scheduler
 *
 * The first run initialises the job's hardware fence and writes the job to
 * the ring, unless its context has failed (the job ends CANCELED) or the
 * queue is gone (RESET).  After a recovery the scheduler runs every job it
 * still holds again: a job the reset dropped is written again, one still
 * in the ring or already ended only hands back its fence.
 *
 * Return: a reference to the job's hardware fence.
 */
struct dma_fence *swai_queue_run(struct swai_queue *q, struct swai_job *job)
{
	struct swai_device *sdev = q->sdev;
	unsigned long flags;
	struct dma_fence *fence;
	LIST_HEAD(done);
	u64 not_before;
	int idx;

	/* Reads the in-fences, which have all signalled by now. */
	not_before = swai_job_not_before(job);

	spin_lock_irqsave(&q->lock, flags);
	if (job->state == SWAI_JOB_NEW)
		swai_fence_init(job->hw);

	if (job->state == SWAI_JOB_NEW || job->state == SWAI_JOB_DROPPED) {
		if (READ_ONCE(job->ctx->failed)) {
			swai_queue_end_locked(job, DRM_SWAI_JOB_ERR_CANCELED, &done);
		} else if (q->gone || !drm_dev_enter(&sdev->drm, &idx)) {
			swai_queue_end_locked(job, DRM_SWAI_JOB_ERR_RESET, &done);
		} else {
			/* Cannot happen: the scheduler's credit limit is lower. */
			if (q->tail - q->head >= SWAI_RING_ENTRIES - 1) {
				dev_err_ratelimited(&sdev->pdev->dev,
						    "%s: ring full\n", q->name);
				swai_queue_end_locked(job, DRM_SWAI_JOB_ERR_RESET,
						      &done);
			} else {
				/* Injection is for the job's first write only. */
				if (job->state == SWAI_JOB_NEW)
					job->desc_flags |= swai_queue_inject_flags(sdev, q->cg);
				swai_queue_write_locked(q, job, not_before);
			}
			drm_dev_exit(idx);
		}
	}

	fence = dma_fence_get(&job->hw->base);
	spin_unlock_irqrestore(&q->lock, flags);

	swai_job_signal_list(&done);
	return fence;
}

/* How the card says a job ended, from its completion record. */
static void swai_queue_result(struct swai_queue *q,
			      const struct swai_hw_completion *c, u64 seqno,
			      struct swai_job_result *res)
{
	/* The uAPI code of each card status (the same numbers). */
	static const u32 uapi_error[SWAI_JOB_ERR_MAX + 1] = {
		[SWAI_JOB_OK] = DRM_SWAI_JOB_OK,
		[SWAI_JOB_ERR_ILLEGAL] = DRM_SWAI_JOB_ERR_ILLEGAL,
		[SWAI_JOB_ERR_LDM] = DRM_SWAI_JOB_ERR_LDM,
		[SWAI_JOB_ERR_MMU] = DRM_SWAI_JOB_ERR_MMU,
		[SWAI_JOB_ERR_RESET] = DRM_SWAI_JOB_ERR_RESET,
		[SWAI_JOB_ERR_PROGRAM] = DRM_SWAI_JOB_ERR_PROGRAM,
		[SWAI_JOB_ERR_DMA] = DRM_SWAI_JOB_ERR_DMA,
		[SWAI_JOB_ERR_ALIGN] = DRM_SWAI_JOB_ERR_ALIGN,
		[SWAI_JOB_ERR_FOREIGN] = DRM_SWAI_JOB_ERR_FOREIGN,
	};
	u32 status = swai_cpu32(c->status);

	memset(res, 0, sizeof(*res));
	if (swai_cpu64(c->seqno) != seqno || status >= ARRAY_SIZE(uapi_error)) {
		dev_err_ratelimited(&q->sdev->pdev->dev,
				    "%s: bad completion for seqno %llu: seqno %llu status %u\n",
				    q->name, seqno, swai_cpu64(c->seqno), status);
		res->error = DRM_SWAI_JOB_ERR_RESET;
		return;
	}

	res->error = uapi_error[status];
	res->error_pc = swai_cpu32(c->error_pc);
	res->fault_va = swai_cpu64(c->fault_va);
	res->start_ns = swai_cpu64(c->start_ns);
	res->end_ns = swai_cpu64(c->end_ns);
	res->wall_ns = swai_cpu64(c->wall_ns);
	res->bytes = swai_cpu64(c->bytes);
	res->has_time = true;
}

/*
 * End every job the card has completed, oldest first, onto @done.  With
 * @requeue (after a timeout's reset), a job the reset stopped that is not
 * the one that timed out -- the card had just fetched it -- is not failed
 * but left DROPPED, to run again.
 */
static void swai_queue_reap_locked(struct swai_queue *q, struct list_head *done,
				   bool requeue)
{
	struct swai_job_result res;
	struct swai_job *job;
	u64 completed;
	u32 i;

	lockdep_assert_held(&q->lock);

	completed = swai_queue_read_u64(q->sdev, swai_qreg(q, SWAI_Q_COMPLETED_LO),
					swai_qreg(q, SWAI_Q_COMPLETED_HI));
	if (completed == U64_MAX)
		return;
	/* COMPLETED is written after the records it covers. */
	dma_rmb();

	while (q->head != q->tail) {
		i = q->head & SWAI_RING_MASK;
		job = q->slot[i];
		if (job->seqno > completed)
			break;
		swai_queue_result(q, &q->cpl[i], job->seqno, &res);
		q->slot[i] = NULL;
		q->head++;
		if (res.error == DRM_SWAI_JOB_ERR_RESET && job->timed_out) {
			res.error = DRM_SWAI_JOB_ERR_TIMEOUT;
		} else if (res.error == DRM_SWAI_JOB_ERR_RESET && requeue) {
			job->state = SWAI_JOB_DROPPED;
			continue;
		}
		swai_job_end(job, &res);
		list_add_tail(&job->done_link, done);
	}
}

/**
 * swai_queue_irq() - completion interrupt of a queue
 * @q: the queue
 *
 * Context: hard interrupt, SWAI_IRQ_QUEUE(cg) acknowledged.
 */
void swai_queue_irq(struct swai_queue *q)
{
	LIST_HEAD(done);

	spin_lock(&q->lock);
	if (!q->gone && !q->resetting)
		swai_queue_reap_locked(q, &done, false);
	spin_unlock(&q->lock);

	swai_job_signal_list(&done);
}

/* Take every job off the ring: dropped, or ended when @end is set. */
static void swai_queue_drain_locked(struct swai_queue *q, bool end,
				    struct list_head *done)
{
	struct swai_job *job;
	u32 i;

	while (q->head != q->tail) {
		i = q->head & SWAI_RING_MASK;
		job = q->slot[i];
		q->slot[i] = NULL;
		q->head++;
		if (job->timed_out)
			swai_queue_end_locked(job, DRM_SWAI_JOB_ERR_TIMEOUT, done);
		else if (end)
			swai_queue_end_locked(job, DRM_SWAI_JOB_ERR_RESET, done);
		else
			job->state = SWAI_JOB_DROPPED;
	}
}

/**
 * swai_queue_reset() - reset a queue, ending the job it was running
 * @q: the queue, its scheduler stopped (no run_job in progress)
 * @bad: the job that timed out, or NULL to reset whatever is running
 *
 * SWAI_Q_CTRL_RESET makes the card complete the job in flight with
 * SWAI_JOB_ERR_RESET and drop every other entry.  @bad ends with
 * DRM_SWAI_JOB_ERR_TIMEOUT (unless the card finished it on its own first);
 * with a NULL @bad the job in flight ends with RESET.  Every other job is
 * left DROPPED, for the scheduler to run again.  A queue that does not come
 * out of reset is declared gone and every job on it ends.
 *
 * Context: process, may sleep.
 * Return: true if the queue was reset, false if @bad had already ended (a
 * timeout that raced with its completion) or the card is gone.
 */
bool swai_queue_reset(struct swai_queue *q, struct swai_job *bad)
{
	struct swai_device *sdev = q->sdev;
	unsigned long flags;
	LIST_HEAD(done);
	bool reset = false, dead;
	int idx, ret;
	u32 ctrl;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return false;

	spin_lock_irqsave(&q->lock, flags);
	if (!q->gone) {
		/* @bad may have just completed: then nothing is hung. */
		swai_queue_reap_locked(q, &done, false);
		reset = !bad || bad->state == SWAI_JOB_QUEUED;
	}
	if (reset) {
		if (bad)
			bad->timed_out = true;
		/* The reset's completion is ours, not the interrupt's. */
		q->resetting = true;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	swai_job_signal_list(&done);
	if (!reset)
		goto out;

	swai_wr(sdev, swai_qreg(q, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE | SWAI_Q_CTRL_RESET);
	ret = readl_poll_timeout(sdev->mmio + swai_qreg(q, SWAI_Q_CTRL), ctrl,
				 ctrl == U32_MAX || !(ctrl & SWAI_Q_CTRL_RESET),
				 SWAI_Q_RESET_POLL_US, SWAI_Q_RESET_TIMEOUT_US);
	dead = ret || ctrl == U32_MAX;
	trace_swai_queue_reset(q->cg, bad ? bad->ctx->asid : 0, bad ? bad->id : 0, !dead);
	swai_dbg(sdev->drm.dev, RESET, "q %u: reset%s; timed out: ctx %u job %llu (0: none)\n",
		 q->cg, dead ? " failed" : "", bad ? bad->ctx->asid : 0, bad ? bad->id : 0);
	if (dead)
		dev_err(&sdev->pdev->dev, "%s: queue reset failed (CTRL 0x%08x), queue disabled\n",
			q->name, ctrl);

	spin_lock_irqsave(&q->lock, flags);
	q->resetting = false;
	/* The card completed the job in flight before RESET read back 0. */
	if (!dead)
		swai_queue_reap_locked(q, &done, !!bad);
	else
		q->gone = true;
	swai_queue_drain_locked(q, dead, &done);
	spin_unlock_irqrestore(&q->lock, flags);
	swai_job_signal_list(&done);
out:
	drm_dev_exit(idx);
	return reset;
}

/**
 * swai_queue_unplug() - the card is gone: end every job of the queue
 * @q: the queue
 *
 * Jobs in the ring end with RESET, later runs end at once.  The registers
 * are not touched (drm_dev_unplug() has run).
 */
void swai_queue_unplug(struct swai_queue *q)
{
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&q->lock, flags);
	q->gone = true;
	swai_queue_drain_locked(q, true, &done);
	spin_unlock_irqrestore(&q->lock, flags);

	swai_job_signal_list(&done);
}

/* drmm action: free the rings with the drm_device, after the schedulers. */
static void swai_queue_free_rings(struct drm_device *drm, void *arg)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct device *dev = &sdev->pdev->dev;
	u32 cg;

	for (cg = 0; cg < sdev->num_cg; cg++) {
		struct swai_queue *q = &sdev->queues[cg];

		if (q->ring)
			dma_free_coherent(dev, SWAI_RING_ENTRIES * sizeof(*q->ring),
					  q->ring, q->ring_dma);
		if (q->cpl)
			dma_free_coherent(dev, SWAI_RING_ENTRIES * sizeof(*q->cpl),
					  q->cpl, q->cpl_dma);
	}
}

/*
 * devm action, at unbind before the interrupts are torn down: stop every
 * queue so that the card writes nothing more into the rings.  A job in
 * flight completes with RESET into memory that is still allocated.
 */
static void swai_queue_hw_fini(void *arg)
{
	struct swai_device *sdev = arg;
	u32 cg, ctrl;

	swai_irq_disable(sdev, SWAI_IRQ_QUEUE_MASK);
	for (cg = 0; cg < sdev->num_cg; cg++)
		swai_wr(sdev, SWAI_QUEUE_REG(cg, SWAI_Q_CTRL), SWAI_Q_CTRL_RESET);
	for (cg = 0; cg < sdev->num_cg; cg++) {
		readl_poll_timeout(sdev->mmio + SWAI_QUEUE_REG(cg, SWAI_Q_CTRL),
				   ctrl, ctrl == U32_MAX || !(ctrl & SWAI_Q_CTRL_RESET),
				   SWAI_Q_RESET_POLL_US, SWAI_Q_RESET_TIMEOUT_US);
		synchronize_irq(sdev->vec[SWAI_MSIX_QUEUE(cg)].irq);
	}
}

/* Point the card at queue @q's ring and enable it. */
static void swai_queue_hw_start(struct swai_queue *q)
{
	struct swai_device *sdev = q->sdev;

	swai_wr(sdev, swai_qreg(q, SWAI_Q_RING_LO), lower_32_bits(q->ring_dma));
	swai_wr(sdev, swai_qreg(q, SWAI_Q_RING_HI), upper_32_bits(q->ring_dma));
	swai_wr(sdev, swai_qreg(q, SWAI_Q_RING_SIZE), SWAI_RING_ENTRIES);
	swai_wr(sdev, swai_qreg(q, SWAI_Q_TAIL), 0);
	swai_wr(sdev, swai_qreg(q, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE);
}

/**
 * swai_queue_hw_init() - allocate and start the queue of every core group
 * @sdev: the card, out of reset (queues disabled, HEAD = TAIL = 0), with
 *	interrupts set up and @sdev->queues allocated
 *
 * Return: 0 or -ENOMEM.
 */
int swai_queue_hw_init(struct swai_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;
	u32 cg, irqs = 0;
	int ret;

	ret = drmm_add_action(&sdev->drm, swai_queue_free_rings, NULL);
	if (ret)
		return ret;

	for (cg = 0; cg < sdev->num_cg; cg++) {
		struct swai_queue *q = &sdev->queues[cg];

		q->sdev = sdev;
		q->cg = cg;
		spin_lock_init(&q->lock);
		snprintf(q->name, sizeof(q->name), "swai-%s-cg%u",
			 pci_name(sdev->pdev), cg);
		/* Zeroed: every descriptor's reserved fields are 0. */
		q->ring = dma_alloc_coherent(dev, SWAI_RING_ENTRIES * sizeof(*q->ring),
					     &q->ring_dma, GFP_KERNEL);
		q->cpl = dma_alloc_coherent(dev, SWAI_RING_ENTRIES * sizeof(*q->cpl),
					    &q->cpl_dma, GFP_KERNEL);
		if (!q->ring || !q->cpl)
			return -ENOMEM;
	}

	for (cg = 0; cg < sdev->num_cg; cg++) {
		swai_queue_hw_start(&sdev->queues[cg]);
		irqs |= SWAI_IRQ_QUEUE(cg);
	}
	ret = devm_add_action_or_reset(dev, swai_queue_hw_fini, sdev);
	if (ret)
		return ret;

	swai_wr(sdev, SWAI_REG_IRQ_STATUS, irqs);
	swai_irq_enable(sdev, irqs);
	return 0;
}
