// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_prime.c - buffer objects shared as dma-bufs.
 *
 * A file exports one of its buffer objects in device memory with
 * DRM_IOCTL_PRIME_HANDLE_TO_FD.  The dma-buf is a capability: whoever it is
 * given to -- another process on this card, or a process on another card
 * of the same fabric -- imports it with DRM_IOCTL_SWAI_BO_IMPORT and gets an
 * object of its own that maps the same memory into its context, with
 * SWAI_PTE_FABRIC entries when the memory is on the other card.  Nothing
 * else reaches it: there are no global names, and a context maps only the
 * objects it created or imported.
 *
 * Only swai imports these dma-bufs, and it does not attach: it maps the
 * exporter's HBM by address, which the dma-buf keeps alive (it holds the
 * object, which holds its memory and its card).  Other drivers' attachments
 * are refused, as is an sg_table: HBM has no struct pages and this card's
 * BAR is not a peer-to-peer DMA target.  The CPU may mmap the dma-buf (the
 * exporter's BAR2, as the object's own mmap).
 */

#include <linux/dma-buf.h>
#include <linux/file.h>
#include <linux/fs.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/swai_accel.h>

#include "swai_ctx.h"
#include "swai_debug.h"
#include "swai_drv.h"
#include "swai_fabric.h"
#include "swai_gem.h"
#include "swai_prime.h"

static int swai_dmabuf_attach(struct dma_buf *dmabuf,
			      struct dma_buf_attachment *attach)
{
	return -EOPNOTSUPP;
}

static struct sg_table *swai_dmabuf_map(struct dma_buf_attachment *attach,
					enum dma_data_direction dir)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static void swai_dmabuf_unmap(struct dma_buf_attachment *attach,
			      struct sg_table *sgt, enum dma_data_direction dir)
{
}

static const struct dma_buf_ops swai_dmabuf_ops = {
	.attach		= swai_dmabuf_attach,
	.map_dma_buf	= swai_dmabuf_map,
	.unmap_dma_buf	= swai_dmabuf_unmap,
	.release	= drm_gem_dmabuf_release,
	.mmap		= drm_gem_dmabuf_mmap,
};

static const char *swai_region_name(u32 region)
{
	return region == DRM_SWAI_MEM_GLOBAL ? "Global" : "Local";
}

/**
 * swai_prime_export() - &drm_gem_object_funcs.export of device-memory objects
 * @obj: the object, a Local- or Global-HBM one
 * @flags: DRM_CLOEXEC and DRM_RDWR of the export
 *
 * The DRM core keeps the dma-buf with the object: later exports of the same
 * object share it, and its mode is the first export's.
 *
 * Return: the dma-buf, or an ERR_PTR.
 */
struct dma_buf *swai_prime_export(struct drm_gem_object *obj, int flags)
{
	struct swai_bo *bo = to_swai_bo(obj);
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);

	exp_info.ops = &swai_dmabuf_ops;
	exp_info.size = obj->size;
	exp_info.flags = flags;
	exp_info.priv = obj;
	exp_info.resv = obj->resv;
	swai_dbg(obj->dev->dev, PRIME, "pid %d: exported bo va 0x%llx (%s, %zu bytes)%s\n",
		 task_pid_nr(current), bo->va.start, swai_region_name(bo->region),
		 obj->size, flags & O_RDWR ? "" : " read-only");
	return drm_gem_dmabuf_export(obj->dev, &exp_info);
}

/* The swai object behind a dma-buf fd, holding the dma-buf, or an ERR_PTR. */
static struct dma_buf *swai_prime_get(int fd)
{
	struct dma_buf *dmabuf = dma_buf_get(fd);

	if (IS_ERR(dmabuf))
		return PTR_ERR(dmabuf) == -EBADF ? dmabuf : ERR_PTR(-EOPNOTSUPP);
	if (dmabuf->ops != &swai_dmabuf_ops) {
		dma_buf_put(dmabuf);
		return ERR_PTR(-EOPNOTSUPP);
	}
	return dmabuf;
}

/**
 * swai_ioctl_bo_import() - DRM_IOCTL_SWAI_BO_IMPORT
 * @drm: the importing card
 * @data: struct drm_swai_bo_import
 * @file: the caller, owner of the new object
 *
 * Return: 0, -EINVAL for a bad argument, -EBADF, -EOPNOTSUPP (not a swai
 * dma-buf, or no DRM_SWAI_CAP_PRIME), -EXDEV (on a card this one does not
 * reach), -ENODEV (either card unplugged), -EEXIST, -ENOSPC, -ENOMEM.
 */
int swai_ioctl_bo_import(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm), *owner;
	struct drm_swai_bo_import *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	struct dma_buf *dmabuf;
	struct drm_gem_object *src;
	int idx, oidx, ret;
	struct swai_bo *bo;
	u64 fixed_va = 0;
	u32 handle;

	if (args->flags & ~DRM_SWAI_IMPORT_FLAGS_ALL ||
	    args->reserved[0] || args->reserved[1])
		return -EINVAL;
	if (!ctx)
		return -EOPNOTSUPP;

	dmabuf = swai_prime_get(args->fd);
	if (IS_ERR(dmabuf))
		return PTR_ERR(dmabuf);
	src = dmabuf->priv;
	owner = to_swai_device(src->dev);
	if (args->flags & DRM_SWAI_IMPORT_FIXED_VA) {
		fixed_va = args->device_va;
		if (!swai_fixed_va_ok(fixed_va, src->size)) {
			ret = -EINVAL;
			goto put_dmabuf;
		}
	}
	if (owner != sdev && !swai_fabric_reaches(sdev, owner)) {
		swai_dbg(drm->dev, PRIME, "pid %d: import from card %u refused: not reachable\n",
			 task_pid_nr(current), owner->fabric_id);
		ret = -EXDEV;
		goto put_dmabuf;
	}

	ret = -ENODEV;
	if (!drm_dev_enter(drm, &idx))
		goto put_dmabuf;
	if (!drm_dev_enter(&owner->drm, &oidx))
		goto exit;

	bo = swai_bo_new_import(drm, ctx, src->size);
	if (!bo) {
		ret = -ENOMEM;
		goto exit_owner;
	}
	/* The object holds the dma-buf now; swai_bo_free() puts it. */
	bo->import = dmabuf;
	dmabuf = NULL;
	bo->src = to_swai_bo(src);
	bo->fabric_card = owner == sdev ? -1 : (int)owner->fabric_id;
	bo->read_only = !(bo->import->file->f_mode & FMODE_WRITE);

	ret = swai_bo_publish(bo, fixed_va, file, &handle);
	if (!ret) {
		args->handle = handle;
		args->size = src->size;
		args->device_va = bo->va.start;
		args->result = (bo->fabric_card >= 0 ? DRM_SWAI_IMPORT_FABRIC : 0) |
			       (bo->read_only ? DRM_SWAI_IMPORT_READ_ONLY : 0) |
			       bo->src->region << 8;
		swai_dbg(drm->dev, PRIME, "pid %d: imported %s bo (%zu bytes) of card %d at va 0x%llx%s\n",
			 task_pid_nr(current), swai_region_name(bo->src->region),
			 src->size, bo->fabric_card, bo->va.start,
			 bo->read_only ? " read-only" : "");
	}
	drm_gem_object_put(&bo->base);
exit_owner:
	drm_dev_exit(oidx);
exit:
	drm_dev_exit(idx);
put_dmabuf:
	if (dmabuf)
		dma_buf_put(dmabuf);
	return ret;
}
