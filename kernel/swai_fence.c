// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_fence.c - hardware fences of the SW-AI card's jobs.
 *
 * A job's hardware fence is allocated at SUBMIT (run_job must not allocate:
 * it is on the path that signals fences) and initialised the first time the
 * scheduler runs the job.  The queue's completion interrupt, or the driver
 * when it ends a job without the card (reset, cancel, unplug), signals it;
 * the scheduler then signals the job's finished fence, which is what
 * userspace sees through syncobjs.
 */

#include <linux/dma-fence-unwrap.h>
#include <linux/slab.h>

#include <drm/gpu_scheduler.h>

#include "swai_drv.h"
#include "swai_fence.h"
#include "swai_queue.h"

/*
 * Static names: a fence may outlive the card (a syncobj of another file
 * keeps it), so nothing here may point into the device.
 */
static const char *swai_fence_driver_name(struct dma_fence *f)
{
	return DRM_SWAI_DRIVER_NAME;
}

static const char *swai_fence_timeline_name(struct dma_fence *f)
{
	return "swai-queue";
}

static const struct dma_fence_ops swai_fence_ops = {
	.get_driver_name = swai_fence_driver_name,
	.get_timeline_name = swai_fence_timeline_name,
};

/**
 * swai_fence_alloc() - allocate a hardware fence, not yet initialised
 *
 * Return: the fence, or NULL without memory.
 */
struct swai_fence *swai_fence_alloc(void)
{
	struct swai_fence *f = kzalloc(sizeof(*f), SWAI_GFP_USER);

	if (f)
		spin_lock_init(&f->lock);
	return f;
}

/**
 * swai_fence_init() - make an allocated fence live, holding one reference
 * @f: from swai_fence_alloc()
 *
 * Each fence is alone on its context: after a reset, a job run again may
 * signal after a later job of its queue that was canceled, so the fences of
 * a queue do not signal in any fixed order.
 */
void swai_fence_init(struct swai_fence *f)
{
	dma_fence_init(&f->base, &swai_fence_ops, &f->lock,
		       dma_fence_context_alloc(1), 1);
}

/**
 * swai_fence_free() - release a fence: put it if live, else free it
 * @f: the fence, or NULL
 */
void swai_fence_free(struct swai_fence *f)
{
	if (!f)
		return;
	if (f->base.ops)
		dma_fence_put(&f->base);
	else
		kfree(f);
}

/* The job end of @f, if it is the finished fence of a job of @sdev. */
static bool swai_fence_end_of(struct swai_device *sdev, struct dma_fence *f,
			      u64 *end_ns)
{
	struct drm_sched_fence *s_fence = to_drm_sched_fence(f);
	struct dma_fence *parent;
	struct swai_fence *hw;

	if (!s_fence || !swai_queue_owns_sched(sdev, s_fence->sched))
		return false;
	/* Stable: the job has finished, its parent is no longer changed. */
	parent = READ_ONCE(s_fence->parent);
	if (!parent || parent->ops != &swai_fence_ops)
		return false;
	hw = container_of(parent, struct swai_fence, base);
	if (!dma_fence_is_signaled(parent))
		return false;
	/* Written before the fence signalled. */
	smp_rmb();
	if (!hw->has_time)
		return false;
	*end_ns = hw->end_ns;
	return true;
}

/**
 * swai_fence_modeled_end() - latest modeled end of the card's jobs in a fence
 * @sdev: the card
 * @f: a signalled fence, possibly a container (timeline point, array)
 * @end_ns: out, the latest modeled end of a job of @sdev found in @f
 *
 * Looks through dma_fence_chain and dma_fence_array containers for the
 * finished fences of this card's jobs that ran on the card.
 *
 * Return: true if there was at least one.
 */
bool swai_fence_modeled_end(struct swai_device *sdev, struct dma_fence *f,
			    u64 *end_ns)
{
	struct dma_fence_unwrap iter;
	struct dma_fence *g;
	bool found = false;
	u64 end;

	*end_ns = 0;
	dma_fence_unwrap_for_each(g, &iter, f) {
		if (swai_fence_end_of(sdev, g, &end)) {
			*end_ns = max(*end_ns, end);
			found = true;
		}
	}
	return found;
}
