/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_hw.h - register access and hardware helpers of swai.ko.
 */
#ifndef SWAI_HW_H
#define SWAI_HW_H

#include <linux/io.h>
#include <linux/types.h>

#include "swai_drv.h"

static inline u32 swai_rd(const struct swai_device *sdev, u32 reg)
{
	return readl(sdev->mmio + reg);
}

static inline void swai_wr(const struct swai_device *sdev, u32 reg, u32 val)
{
	writel(val, sdev->mmio + reg);
}

int swai_hw_check_identity(struct swai_device *sdev);
int swai_hw_reset(struct swai_device *sdev);
int swai_hw_read_geometry(struct swai_device *sdev);
u32 swai_hw_local_per_cg_mb(const struct swai_device *sdev);
int swai_hw_set_partition_locked(struct swai_device *sdev, u32 local_mb);
u64 swai_hw_global_size(const struct swai_device *sdev, u32 local_mb);
u64 swai_hw_capabilities(const struct swai_device *sdev);

#endif /* SWAI_HW_H */
