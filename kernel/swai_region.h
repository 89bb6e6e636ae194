/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_region.h - allocators of the memory regions (Local-HBM of each core
 * group, Global-HBM) of swai.ko.
 */
#ifndef SWAI_REGION_H
#define SWAI_REGION_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct swai_device;

int swai_region_init(struct swai_device *sdev);
int swai_region_set_partition(struct swai_device *sdev, u32 local_mb);
int swai_region_alloc(struct swai_device *sdev, u32 region, u64 size,
		      bool segment, u64 *offset);
void swai_region_free(struct swai_device *sdev, u32 region, u64 offset,
		      u64 size);
u64 swai_region_phys(const struct swai_device *sdev, u32 region, u64 offset);
u64 swai_region_largest_free(struct swai_device *sdev, u32 region);

int swai_ioctl_mem_info(struct drm_device *drm, void *data,
			struct drm_file *file);

void swai_region_debugfs_init(struct swai_device *sdev);

#endif /* SWAI_REGION_H */
