/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_ioctl.h - driver-private ioctls of swai.ko.
 */
#ifndef SWAI_IOCTL_H
#define SWAI_IOCTL_H

#include <drm/drm_ioctl.h>
#include <drm/swai_accel.h>

struct file;

/* Entries of the driver ioctl table, indexed by nr - DRM_COMMAND_BASE. */
#define SWAI_NUM_IOCTLS		(DRM_SWAI_NIC_WAIT + 1)

extern const struct drm_ioctl_desc swai_drm_ioctls[SWAI_NUM_IOCTLS];

long swai_unlocked_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
#ifdef CONFIG_COMPAT
long swai_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
#else
#define swai_compat_ioctl NULL
#endif

#endif /* SWAI_IOCTL_H */
