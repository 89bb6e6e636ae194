// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_ctx.c - per-file device contexts of the SW-AI card.
 *
 * Every open file of a card with device memory gets a context: an ASID,
 * a page-table tree, a device-VA allocator and per-region byte counters.
 * The file holds one reference and each of its buffer objects another, so
 * the context goes away with the last of them; since the objects are private
 * to the file that is normally at close.  Contexts survive an unbind: their
 * host memory is freed normally, the card is no longer told.
 */

#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/xarray.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "swai_ctx.h"
#include "swai_drv.h"
#include "swai_job.h"
#include "swai_mmu.h"
#include "swai_nic.h"
#include "swai_sched.h"

static void swai_ctx_release(struct kref *ref)
{
	struct swai_ctx *ctx = container_of(ref, struct swai_ctx, ref);
	struct swai_device *sdev = ctx->sdev;

	swai_mmu_ctx_fini(ctx);
	/* The ASID is reused only once the context entry is invalid. */
	xa_erase_irq(&sdev->ctx_xa, ctx->asid);
	atomic_dec(&sdev->num_contexts);
	swai_job_ctx_fini(ctx);
	drm_mm_takedown(&ctx->va);
	mutex_destroy(&ctx->lock);
	kfree(ctx);
}

/**
 * swai_ctx_get() - take a reference on a context
 * @ctx: the context
 */
void swai_ctx_get(struct swai_ctx *ctx)
{
	kref_get(&ctx->ref);
}

/**
 * swai_ctx_put() - drop a reference on a context, freeing it with the last
 * @ctx: the context
 *
 * Context: process, may sleep.
 */
void swai_ctx_put(struct swai_ctx *ctx)
{
	kref_put(&ctx->ref, swai_ctx_release);
}

/**
 * swai_ctx_open() - &drm_driver.open: create the file's context
 * @drm: the DRM device
 * @file: the new file
 *
 * Return: 0 (also without device memory support, then without a context),
 * -ENOSPC when every ASID is taken, -ENOMEM.
 */
int swai_ctx_open(struct drm_device *drm, struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct swai_ctx *ctx;
	u32 asid;
	int ret;

	if (!sdev->has_memory)
		return 0;

	ctx = kzalloc(sizeof(*ctx), SWAI_GFP_USER);
	if (!ctx)
		return -ENOMEM;
	kref_init(&ctx->ref);
	ctx->sdev = sdev;
	mutex_init(&ctx->lock);
	drm_mm_init(&ctx->va, SWAI_VA_START, SWAI_VA_END - SWAI_VA_START);
	swai_job_ctx_init(ctx);

	/* ASID 0 is the driver's. */
	ret = xa_alloc_irq(&sdev->ctx_xa, &asid, ctx,
			   XA_LIMIT(1, sdev->mmu_contexts - 1), SWAI_GFP_USER);
	if (ret) {
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto err_free;
	}
	ctx->asid = asid;

	ret = swai_mmu_ctx_init(ctx);
	if (ret)
		goto err_asid;

	atomic_inc(&sdev->num_contexts);
	file->driver_priv = ctx;
	return 0;

err_asid:
	xa_erase_irq(&sdev->ctx_xa, asid);
err_free:
	swai_job_ctx_fini(ctx);
	drm_mm_takedown(&ctx->va);
	mutex_destroy(&ctx->lock);
	kfree(ctx);
	return ret;
}

/**
 * swai_ctx_postclose() - &drm_driver.postclose: drop the file's context
 * @drm: the DRM device
 * @file: the closing file, its GEM handles already released
 */
void swai_ctx_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct swai_ctx *ctx = file->driver_priv;

	if (!ctx)
		return;
	file->driver_priv = NULL;
	/* Its NIC ports close first: nothing may reach its memory through them. */
	swai_nic_ctx_close(ctx);
	/* Jobs still running keep the context (and its ASID) until they end. */
	swai_sched_file_close(ctx);
	swai_ctx_put(ctx);
}

static const char *const swai_region_names[DRM_SWAI_MEM_REGIONS] = {
	[DRM_SWAI_MEM_LOCAL(0)] = "local0",
	[DRM_SWAI_MEM_LOCAL(1)] = "local1",
	[DRM_SWAI_MEM_LOCAL(2)] = "local2",
	[DRM_SWAI_MEM_LOCAL(3)] = "local3",
	[DRM_SWAI_MEM_GLOBAL] = "global",
	[DRM_SWAI_MEM_HOST] = "host",
};

/**
 * swai_ctx_show_fdinfo() - &drm_driver.show_fdinfo
 * @p: printer into /proc/PID/fdinfo/FD
 * @file: the file
 *
 * Prints drm-total-<region> and drm-resident-<region> for every region the
 * card has and for "host" (pinned host memory); both are always resident
 * and never shared.  On a card with queues, drm-engine-cg<N> is the time
 * the card spent running the file's jobs on core group N (the card's wall
 * time per job, summed).
 */
void swai_ctx_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct swai_ctx *ctx = file->driver_priv;
	struct swai_device *sdev;
	unsigned int r;

	if (!ctx)
		return;
	sdev = ctx->sdev;

	mutex_lock(&sdev->partition_lock);
	for (r = 0; r < DRM_SWAI_MEM_REGIONS; r++) {
		struct drm_memory_stats stats = {
			.private = ctx->used[r],
			.resident = ctx->used[r],
		};

		if (r >= sdev->num_cg && r != DRM_SWAI_MEM_GLOBAL &&
		    r != DRM_SWAI_MEM_HOST)
			continue;
		drm_print_memory_stats(p, &stats, DRM_GEM_OBJECT_RESIDENT,
				       swai_region_names[r]);
	}
	mutex_unlock(&sdev->partition_lock);

	if (!sdev->has_queues)
		return;
	for (r = 0; r < sdev->num_cg; r++)
		drm_printf(p, "drm-engine-cg%u:\t%lld ns\n", r,
			   (long long)atomic64_read(&ctx->busy_ns[r]));
}
