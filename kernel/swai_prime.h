/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_prime.h - buffer objects shared as dma-bufs: export, and import
 * into a context (DRM_IOCTL_SWAI_BO_IMPORT).
 */
#ifndef SWAI_PRIME_H
#define SWAI_PRIME_H

struct dma_buf;
struct drm_device;
struct drm_file;
struct drm_gem_object;

struct dma_buf *swai_prime_export(struct drm_gem_object *obj, int flags);
int swai_ioctl_bo_import(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* SWAI_PRIME_H */
