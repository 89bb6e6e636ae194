/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_queue.h - the per-core-group hardware queues of the SW-AI card.
 */
#ifndef SWAI_QUEUE_H
#define SWAI_QUEUE_H

#include <linux/spinlock.h>
#include <linux/types.h>

#include <drm/gpu_scheduler.h>

#include "swai_regs.h"

struct swai_device;
struct swai_job;

/* Ring entries per queue; the scheduler keeps at most one less in flight. */
#define SWAI_RING_ENTRIES	256

/**
 * struct swai_queue - the command queue of one core group
 * @sdev: the card
 * @cg: core group
 * @name: "swai-<bdf>-cg<N>", the scheduler's name
 * @sched: the scheduler feeding the ring
 * @ring: SWAI_RING_ENTRIES descriptors, DMA-coherent
 * @ring_dma: their DMA address (SWAI_Q_RING_LO/HI)
 * @cpl: one completion record per ring entry, DMA-coherent
 * @cpl_dma: their DMA address
 * @lock: guards everything below and the state of the queue's jobs
 * @slot: the job of each ring entry between @head and @tail
 * @head: oldest entry not completed (free running, masked on use)
 * @tail: next entry to fill (free running)
 * @seqno: sequence number of the last descriptor written
 * @gone: the card was unplugged or the queue is dead: jobs end at once
 * @resetting: a queue reset is in progress; its completions are left to it
 * @sched_ready: @sched is initialised
 */
struct swai_queue {
	struct swai_device *sdev;
	u32 cg;
	char name[32];
	struct drm_gpu_scheduler sched;
	struct swai_hw_desc *ring;
	dma_addr_t ring_dma;
	struct swai_hw_completion *cpl;
	dma_addr_t cpl_dma;

	spinlock_t lock; /* the ring and the state of its jobs */
	struct swai_job *slot[SWAI_RING_ENTRIES];
	u32 head;
	u32 tail;
	u64 seqno;
	bool gone;
	bool resetting;
	bool sched_ready;
};

int swai_queue_hw_init(struct swai_device *sdev);
bool swai_queue_owns_sched(struct swai_device *sdev,
			   struct drm_gpu_scheduler *sched);
struct dma_fence *swai_queue_run(struct swai_queue *q, struct swai_job *job);
void swai_queue_irq(struct swai_queue *q);
bool swai_queue_reset(struct swai_queue *q, struct swai_job *bad);
void swai_queue_unplug(struct swai_queue *q);
u64 swai_queue_read_u64(struct swai_device *sdev, u32 lo, u32 hi);

#endif /* SWAI_QUEUE_H */
