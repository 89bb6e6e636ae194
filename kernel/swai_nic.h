/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_nic.h - the card's NIC port as swai.ko exposes it (datasheet §16).
 */
#ifndef SWAI_NIC_H
#define SWAI_NIC_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct swai_ctx;
struct swai_device;

void swai_nic_init(struct swai_device *sdev);
void swai_nic_ctx_close(struct swai_ctx *ctx);
int swai_ioctl_nic_open(struct drm_device *drm, void *data,
			struct drm_file *file);
int swai_ioctl_nic_close(struct drm_device *drm, void *data,
			 struct drm_file *file);
int swai_ioctl_nic_post(struct drm_device *drm, void *data,
			struct drm_file *file);
int swai_ioctl_nic_wait(struct drm_device *drm, void *data,
			struct drm_file *file);

#endif /* SWAI_NIC_H */
