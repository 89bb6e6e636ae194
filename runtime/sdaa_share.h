/* SPDX-License-Identifier: MIT */
/*
 * sdaa_share.h - buffer objects shared through dma-bufs (swai.ko 1.4,
 * DRM_SWAI_CAP_PRIME): the ioctls, and nothing of the runtime's state.
 */
#ifndef SDAA_SHARE_H
#define SDAA_SHARE_H

#include <stdint.h>

#include "drm/swai_accel.h"

/* Export object @handle of card file @fd read-write: a dma-buf fd or -errno. */
int sdaa_share_export(int fd, uint32_t handle);
/* Import @dmabuf into card file @fd at device address @va: 0 or -errno. */
int sdaa_share_import(int fd, int dmabuf, uint64_t va, struct drm_swai_bo_import *out);
/*
 * Map object @handle of card file @owner_fd at @va in card file @into_fd
 * (export, import, close): 0 with the new handle in @out, or -errno.
 */
int sdaa_share_map(int owner_fd, uint32_t handle, int into_fd, uint64_t va, uint32_t *out);
/* Close handle @handle of card file @fd. */
void sdaa_share_close(int fd, uint32_t handle);

#endif /* SDAA_SHARE_H */
