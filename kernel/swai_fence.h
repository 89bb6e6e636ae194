/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_fence.h - hardware fences of swai.ko: one per job, signalled when the
 * card completes (or the driver ends) the job.
 */
#ifndef SWAI_FENCE_H
#define SWAI_FENCE_H

#include <linux/dma-fence.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct swai_device;

/**
 * struct swai_fence - the hardware fence of one job
 * @base: the fence; &drm_sched_fence.parent of the job's scheduler fences
 * @lock: its own lock, so the fence does not depend on the card's lifetime
 * @end_ns: the job's modeled end on the card's clock, valid if @has_time
 * @has_time: the card reported modeled times for the job
 *
 * @end_ns and @has_time are written before the fence signals and never
 * after.
 */
struct swai_fence {
	struct dma_fence base;
	spinlock_t lock; /* the dma_fence lock of @base */
	u64 end_ns;
	bool has_time;
};

struct swai_fence *swai_fence_alloc(void);
void swai_fence_init(struct swai_fence *f);
void swai_fence_free(struct swai_fence *f);
bool swai_fence_modeled_end(struct swai_device *sdev, struct dma_fence *f,
			    u64 *end_ns);

#endif /* SWAI_FENCE_H */
