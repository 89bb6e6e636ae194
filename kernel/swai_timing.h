/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_timing.h - the card's timing model as the driver reports it.
 */
#ifndef SWAI_TIMING_H
#define SWAI_TIMING_H

struct drm_device;
struct drm_file;
struct swai_device;

void swai_timing_init(struct swai_device *sdev);
int swai_ioctl_query_timing(struct drm_device *drm, void *data,
			    struct drm_file *file);

#endif /* SWAI_TIMING_H */
