// SPDX-License-Identifier: MIT
/*
 * sdaa_share.c - dma-buf export and import of buffer objects (sdaa_share.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <xf86drm.h>

#include "sdaa_share.h"

int sdaa_share_export(int fd, uint32_t handle)
{
	struct drm_prime_handle p = { .handle = handle, .flags = DRM_CLOEXEC | DRM_RDWR };

	return drmIoctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) ? -errno : p.fd;
}

int sdaa_share_import(int fd, int dmabuf, uint64_t va, struct drm_swai_bo_import *out)
{
	struct drm_swai_bo_import i = {
		.fd = dmabuf, .flags = DRM_SWAI_IMPORT_FIXED_VA, .device_va = va,
	};

	if (drmIoctl(fd, DRM_IOCTL_SWAI_BO_IMPORT, &i))
		return -errno;
	*out = i;
	return 0;
}

int sdaa_share_map(int owner_fd, uint32_t handle, int into_fd, uint64_t va, uint32_t *out)
{
	struct drm_swai_bo_import i;
	int dmabuf = sdaa_share_export(owner_fd, handle), ret;

	if (dmabuf < 0)
		return dmabuf;
	/* The import holds the dma-buf: our fd is not needed past it. */
	ret = sdaa_share_import(into_fd, dmabuf, va, &i);
	close(dmabuf);
	if (!ret)
		*out = i.handle;
	return ret;
}

void sdaa_share_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}
