/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_sched.h - the job schedulers of swai.ko, one per core-group queue,
 * and queue and card recovery.
 */
#ifndef SWAI_SCHED_H
#define SWAI_SCHED_H

#include <linux/types.h>

struct drm_sched_entity;
struct swai_ctx;
struct swai_device;

int swai_sched_init(struct swai_device *sdev);
void swai_sched_unplug(struct swai_device *sdev);
struct drm_sched_entity *swai_sched_entity(struct swai_ctx *ctx, u32 cg);
void swai_sched_file_close(struct swai_ctx *ctx);
void swai_sched_set_timeout(struct swai_device *sdev, u32 ms);
void swai_sched_reset_card(struct swai_device *sdev);

#endif /* SWAI_SCHED_H */
