/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_job.h - jobs (a core-group program on a queue) and their records.
 */
#ifndef SWAI_JOB_H
#define SWAI_JOB_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>

#include <drm/gpu_scheduler.h>

struct dma_fence;
struct drm_device;
struct drm_file;
struct swai_ctx;
struct swai_fence;
struct swai_queue;

/* Newest job records kept per file for DRM_IOCTL_SWAI_JOB_WAIT. */
#define SWAI_JOB_RECORDS	16384

/**
 * struct swai_job_rec - what DRM_IOCTL_SWAI_JOB_WAIT reports about a job
 * @ref: held by the file's record table and by the job while it lives
 * @done: the job's finished fence until the job is freed, then NULL
 * @queue: core group
 * @ended: the job ended; the fields below are final
 * @error: DRM_SWAI_JOB_OK or DRM_SWAI_JOB_ERR_*
 * @error_pc: index of the failing instruction
 * @fault_va: failing device VA
 * @start_ns: modeled start
 * @end_ns: modeled end
 * @wall_ns: host time the card spent on it
 * @bytes: bytes its transfers moved
 *
 * Fields are written and read under the xa_lock of the file's
 * &swai_ctx.jobs (interrupts off: the completion interrupt writes them).
 */
struct swai_job_rec {
	struct kref ref;
	struct dma_fence *done;
	u32 queue;
	bool ended;
	u32 error;
	u32 error_pc;
	u64 fault_va;
	u64 start_ns;
	u64 end_ns;
	u64 wall_ns;
	u64 bytes;
};

/**
 * enum swai_job_state - where a job is, guarded by its queue's lock
 * @SWAI_JOB_NEW: not run yet
 * @SWAI_JOB_QUEUED: in the hardware ring
 * @SWAI_JOB_DROPPED: was in the ring, dropped by a reset it did not cause;
 *	to be written again
 * @SWAI_JOB_ENDED: ended (by the card or the driver), hardware fence set
 */
enum swai_job_state {
	SWAI_JOB_NEW,
	SWAI_JOB_QUEUED,
	SWAI_JOB_DROPPED,
	SWAI_JOB_ENDED,
};

/**
 * struct swai_job_result - how a job ended
 * @error: DRM_SWAI_JOB_OK or DRM_SWAI_JOB_ERR_*
 * @error_pc: index of the failing instruction
 * @fault_va: failing device VA
 * @start_ns: modeled start, valid if @has_time
 * @end_ns: modeled end, valid if @has_time
 * @wall_ns: host time the card spent on the job
 * @bytes: bytes moved
 * @has_time: the card ran the job and reported its times
 */
struct swai_job_result {
	u32 error;
	u32 error_pc;
	u64 fault_va;
	u64 start_ns;
	u64 end_ns;
	u64 wall_ns;
	u64 bytes;
	bool has_time;
};

/**
 * struct swai_job - one core-group program to run on one queue
 * @base: the scheduler job
 * @q: the queue (core group)
 * @ctx: the submitting file's context (a reference): its ASID, its records
 * @rec: the job's record (a reference)
 * @hw: the hardware fence, allocated at submit, initialised at first run
 * @deps: in-fences (references) whose modeled ends delay the job
 * @num_deps: entries of @deps
 * @prog_va: device VA of the program
 * @prog_size: bytes of the program
 * @not_before_ns: the not_before_ns of the submit
 * @desc_flags: SWAI_DESC_*: PEER from the submit, the injection flags added
 * when first written to the ring
 * @state: enum swai_job_state (queue lock)
 * @timed_out: the scheduler gave up on it; a reset ends it with TIMEOUT
 * @seqno: ring sequence number of its descriptor (queue lock)
 * @id: the context's job id (DRM_IOCTL_SWAI_SUBMIT's job_id), set at push
 * @done_link: on a list of jobs to signal, after the queue lock is dropped
 */
struct swai_job {
	struct drm_sched_job base;
	struct swai_queue *q;
	struct swai_ctx *ctx;
	struct swai_job_rec *rec;
	struct swai_fence *hw;
	struct dma_fence **deps;
	u32 num_deps;
	u64 prog_va;
	u32 prog_size;
	u64 not_before_ns;
	u32 desc_flags;
	enum swai_job_state state;
	bool timed_out;
	u64 seqno;
	u64 id;
	struct list_head done_link;
};

static inline struct swai_job *to_swai_job(struct drm_sched_job *sjob)
{
	return container_of(sjob, struct swai_job, base);
}

void swai_job_end(struct swai_job *job, const struct swai_job_result *res);
void swai_job_end_error(struct swai_job *job, u32 error);
void swai_job_signal_list(struct list_head *done);
void swai_job_free(struct swai_job *job);
u64 swai_job_not_before(struct swai_job *job);

void swai_job_ctx_init(struct swai_ctx *ctx);
void swai_job_ctx_fini(struct swai_ctx *ctx);

int swai_ioctl_submit(struct drm_device *drm, void *data, struct drm_file *file);
int swai_ioctl_job_wait(struct drm_device *drm, void *data,
			struct drm_file *file);

#endif /* SWAI_JOB_H */
