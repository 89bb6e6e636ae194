/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_ctx.h - per-file device contexts (address spaces) of swai.ko.
 */
#ifndef SWAI_CTX_H
#define SWAI_CTX_H

#include <linux/bits.h>
#include <linux/sizes.h>

#include "swai_regs.h"

/* The device VA space of a context: nothing is mapped below 1 MiB. */
#define SWAI_VA_START		SZ_1M
#define SWAI_VA_END		BIT_ULL(SWAI_MMU_VA_BITS)

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include <drm/drm_mm.h>
#include <drm/swai_accel.h>

struct drm_device;
struct drm_file;
struct drm_printer;
struct drm_sched_entity;
struct swai_device;
struct swai_pt;

/**
 * struct swai_ctx - the device address space of one open file
 * @ref: held by the file and by each of its buffer objects
 * @sdev: the card
 * @asid: hardware context number, 1..sdev->mmu_contexts - 1
 * @lock: guards @va and the page tables
 * @va: device-VA allocator, [SZ_1M, 2^SWAI_MMU_VA_BITS)
 * @root: level-0 page table
 * @used: bytes allocated per region by this file (sdev->partition_lock)
 * @faults: MMU faults the card reported for @asid
 * @submit_lock: guards @entity and @last_job_id, and keeps job ids in the
 *	order jobs reach the scheduler
 * @entity: scheduler entity of each core group's queue, made on first use,
 *	destroyed when the file is closed
 * @jobs: records of the newest SWAI_JOB_RECORDS jobs by id; its xa_lock
 *	(interrupts off) also guards the records' fields
 * @last_job_id: id of the newest job, 0 before the first
 * @failed: a job of this file failed; later submits are refused
 * @busy_ns: per core group, host time the card spent on this file's jobs
 */
struct swai_ctx {
	struct kref ref;
	struct swai_device *sdev;
	u32 asid;
	struct mutex lock; /* guards va and the page tables */
	struct drm_mm va;
	struct swai_pt *root;
	u64 used[DRM_SWAI_MEM_REGIONS];
	atomic_t faults;

	struct mutex submit_lock; /* entities, job ids and submission order */
	struct drm_sched_entity *entity[SWAI_NUM_CG];
	struct xarray jobs;
	atomic_t live_jobs; /* submitted and not yet freed, for the cap */
	u64 last_job_id;
	bool failed;
	atomic64_t busy_ns[SWAI_NUM_CG];
};

int swai_ctx_open(struct drm_device *drm, struct drm_file *file);
void swai_ctx_postclose(struct drm_device *drm, struct drm_file *file);
void swai_ctx_get(struct swai_ctx *ctx);
void swai_ctx_put(struct swai_ctx *ctx);
void swai_ctx_show_fdinfo(struct drm_printer *p, struct drm_file *file);

#endif /* SWAI_CTX_H */
