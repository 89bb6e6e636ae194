// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_region.c - allocators of the memory regions of the SW-AI card.
 *
 * Each region (Local-HBM of a core group, Global-HBM) has its own gen_pool
 * of region offsets in 8 KiB units.  A gen_pool cannot hand out address 0,
 * so every pool is biased by SWAI_POOL_BIAS.  The pools describe one
 * Local/Global split; they are rebuilt when the split changes, which is only
 * allowed while no buffer object exists.  sdev->partition_lock guards the
 * pools, the split, the object count and the per-context byte counters.
 */

#include <linux/bitmap.h>
#include <linux/genalloc.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/swai_accel.h>

#include "swai_ctx.h"
#include "swai_drv.h"
#include "swai_hw.h"
#include "swai_region.h"

#define SWAI_POOL_ORDER		13		/* 8 KiB allocation units */
#define SWAI_POOL_BIAS		SZ_1G		/* keeps 0 out of the pools */

static void swai_region_destroy_pools(struct gen_pool **pools)
{
	unsigned int r;

	for (r = 0; r < DRM_SWAI_MEM_REGIONS; r++) {
		if (pools[r])
			gen_pool_destroy(pools[r]);
		pools[r] = NULL;
	}
}

/* Capacity of @region in bytes with @local_mb MiB of Local-HBM per CG. */
static u64 swai_region_capacity(const struct swai_device *sdev, u32 region,
				u32 local_mb)
{
	if (region == DRM_SWAI_MEM_GLOBAL)
		return swai_hw_global_size(sdev, local_mb);
	if (region < sdev->num_cg)
		return (u64)local_mb * SZ_1M;
	return 0;
}

static int swai_region_build_pools(struct swai_device *sdev, u32 local_mb,
				   struct gen_pool **pools, u64 *sizes)
{
	unsigned int r;
	int ret;

	for (r = 0; r < DRM_SWAI_MEM_REGIONS; r++) {
		sizes[r] = swai_region_capacity(sdev, r, local_mb);
		pools[r] = NULL;
	}

	for (r = 0; r < DRM_SWAI_MEM_REGIONS; r++) {
		if (!sizes[r])
			continue;
		pools[r] = gen_pool_create(SWAI_POOL_ORDER, NUMA_NO_NODE);
		if (!pools[r]) {
			ret = -ENOMEM;
			goto err;
		}
		ret = gen_pool_add(pools[r], SWAI_POOL_BIAS, sizes[r], NUMA_NO_NODE);
		if (ret)
			goto err;
	}
	return 0;

err:
	swai_region_destroy_pools(pools);
	return ret;
}

/* drmm action: every buffer object is gone by the time the device is freed. */
static void swai_region_fini(struct drm_device *drm, void *arg)
{
	struct swai_device *sdev = to_swai_device(drm);

	WARN_ON(sdev->num_objects);
	swai_region_destroy_pools(sdev->pool);
}

/**
 * swai_region_init() - build the region allocators for the current split
 * @sdev: the card, geometry read and the split set
 *
 * Does nothing if the card has no device memory support.
 *
 * Return: 0 or a negative errno.
 */
int swai_region_init(struct swai_device *sdev)
{
	u32 local_mb;
	int ret;

	if (!sdev->has_memory)
		return 0;

	mutex_lock(&sdev->partition_lock);
	local_mb = swai_hw_local_per_cg_mb(sdev);
	ret = swai_region_build_pools(sdev, local_mb, sdev->pool,
				      sdev->region_size);
	if (!ret)
		sdev->pool_local_mb = local_mb;
	mutex_unlock(&sdev->partition_lock);
	if (ret)
		return ret;

	return drmm_add_action_or_reset(&sdev->drm, swai_region_fini, NULL);
}

/**
 * swai_region_set_partition() - change the Local/Global split
 * @sdev: the card
 * @local_mb: MiB of each controller for Local-HBM, at most hbm_per_cg_mb
 *
 * Refused while any buffer object exists on the card.  The pools of the new
 * split are built first, so a failure leaves the card and the pools as they
 * were.
 *
 * Context: process; takes sdev->partition_lock.
 * Return: 0, -EINVAL for more than the controller size, -EBUSY if device
 * memory is allocated, -ENOMEM, or what
 * swai_hw_set_partition_locked() returns.
 */
int swai_region_set_partition(struct swai_device *sdev, u32 local_mb)
{
	struct gen_pool *pools[DRM_SWAI_MEM_REGIONS] = {};
	u64 sizes[DRM_SWAI_MEM_REGIONS];
	int ret;

	/* The card refuses it too; the pools must not be sized for it. */
	if (local_mb > sdev->hbm_per_cg_mb)
		return -EINVAL;

	mutex_lock(&sdev->partition_lock);
	if (sdev->num_objects) {
		ret = -EBUSY;
		goto out;
	}

	if (sdev->has_memory) {
		ret = swai_region_build_pools(sdev, local_mb, pools, sizes);
		if (ret)
			goto out;
	}

	ret = swai_hw_set_partition_locked(sdev, local_mb);
	if (ret) {
		swai_region_destroy_pools(pools);
		goto out;
	}

	if (sdev->has_memory) {
		swai_region_destroy_pools(sdev->pool);
		memcpy(sdev->pool, pools, sizeof(pools));
		memcpy(sdev->region_size, sizes, sizeof(sizes));
		sdev->pool_local_mb = local_mb;
	}
out:
	mutex_unlock(&sdev->partition_lock);
	return ret;
}

/**
 * swai_region_alloc() - allocate a range of a region
 * @sdev: the card
 * @region: DRM_SWAI_MEM_*, valid for this card
 * @size: bytes, a multiple of 8 KiB (of 1 MiB with @segment)
 * @segment: align the range to 1 MiB
 * @offset: out, offset of the range in the region
 *
 * Context: sdev->partition_lock held.
 * Return: 0, or -ENOSPC if the region has no free range that large.
 */
int swai_region_alloc(struct swai_device *sdev, u32 region, u64 size,
		      bool segment, u64 *offset)
{
	struct genpool_data_align align = { .align = SZ_1M };
	struct gen_pool *pool = sdev->pool[region];
	unsigned long addr;

	lockdep_assert_held(&sdev->partition_lock);

	if (!pool)
		return -ENOSPC;
	if (segment)
		addr = gen_pool_alloc_algo(pool, size, gen_pool_first_fit_align,
					   &align);
	else
		addr = gen_pool_alloc(pool, size);
	if (!addr)
		return -ENOSPC;

	*offset = addr - SWAI_POOL_BIAS;
	return 0;
}

/**
 * swai_region_free() - give back a range from swai_region_alloc()
 * @sdev: the card
 * @region: the region of the range
 * @offset: its offset
 * @size: its size
 *
 * Context: sdev->partition_lock held.
 */
void swai_region_free(struct swai_device *sdev, u32 region, u64 offset,
		      u64 size)
{
	lockdep_assert_held(&sdev->partition_lock);

	gen_pool_free(sdev->pool[region], offset + SWAI_POOL_BIAS, size);
}

/**
 * swai_region_phys() - HBM-physical address (BAR2 offset) of a region byte
 * @sdev: the card
 * @region: DRM_SWAI_MEM_*
 * @offset: offset in the region
 *
 * Local-HBM of CG cg is cg * H + offset.  Global-HBM is interleaved over the
 * controllers every SWAI_GLOBAL_GRANULE bytes above their Local segments
 * (datasheet §5.2).  Uses the split the pools were built for, which cannot
 * change while a buffer object exists.
 *
 * Return: the BAR2 offset of the byte.
 */
u64 swai_region_phys(const struct swai_device *sdev, u32 region, u64 offset)
{
	u64 hbm = (u64)sdev->hbm_per_cg_mb * SZ_1M;
	u64 local = (u64)sdev->pool_local_mb * SZ_1M;
	u32 in_granule, controller;
	u64 chunk, row;

	if (region != DRM_SWAI_MEM_GLOBAL)
		return region * hbm + offset;

	chunk = div_u64_rem(offset, SWAI_GLOBAL_GRANULE, &in_granule);
	row = div_u64_rem(chunk, sdev->num_cg, &controller);
	return controller * hbm + local + row * SWAI_GLOBAL_GRANULE + in_granule;
}

static void swai_region_chunk_largest(struct gen_pool *pool,
				      struct gen_pool_chunk *chunk, void *data)
{
	unsigned long nbits, start, end;
	u64 *largest = data;

	nbits = (chunk->end_addr - chunk->start_addr + 1) >> pool->min_alloc_order;
	start = find_first_zero_bit(chunk->bits, nbits);
	while (start < nbits) {
		end = find_next_bit(chunk->bits, nbits, start);
		*largest = max_t(u64, *largest,
				 (u64)(end - start) << pool->min_alloc_order);
		start = find_next_zero_bit(chunk->bits, nbits, end);
	}
}

/**
 * swai_region_largest_free() - the largest free range of a region
 * @sdev: the card
 * @region: DRM_SWAI_MEM_*
 *
 * Context: sdev->partition_lock held.
 * Return: bytes of the largest run of free 8 KiB units, 0 if none.
 */
u64 swai_region_largest_free(struct swai_device *sdev, u32 region)
{
	u64 largest = 0;

	lockdep_assert_held(&sdev->partition_lock);

	if (sdev->pool[region])
		gen_pool_for_each_chunk(sdev->pool[region],
					swai_region_chunk_largest, &largest);
	return largest;
}

/*
 * Fill @out with the card's regions, contexts and objects; the per-caller
 * fields from @ctx when it is not NULL.
 */
static void swai_region_usage(struct swai_device *sdev, const struct swai_ctx *ctx,
			      struct drm_swai_mem_info *out)
{
	unsigned int r;

	memset(out, 0, sizeof(*out));
	mutex_lock(&sdev->partition_lock);
	out->contexts = atomic_read(&sdev->num_contexts);
	out->objects = sdev->num_objects + sdev->host_objects;
	out->asid = ctx ? ctx->asid : 0;
	for (r = 0; r < DRM_SWAI_MEM_REGIONS; r++) {
		struct drm_swai_mem_region_info *ri = &out->region[r];
		struct gen_pool *pool = sdev->pool[r];

		if (!pool)
			continue;
		ri->capacity = sdev->region_size[r];
		ri->used = gen_pool_size(pool) - gen_pool_avail(pool);
		ri->used_by_caller = ctx ? ctx->used[r] : 0;
		ri->largest_free = swai_region_largest_free(sdev, r);
	}
	/* Pinned host memory: bounded by the host and RLIMIT_MEMLOCK only. */
	out->region[DRM_SWAI_MEM_HOST].used = sdev->host_used;
	out->region[DRM_SWAI_MEM_HOST].used_by_caller =
		ctx ? ctx->used[DRM_SWAI_MEM_HOST] : 0;
	mutex_unlock(&sdev->partition_lock);
}

/**
 * swai_ioctl_mem_info() - DRM_IOCTL_SWAI_MEM_INFO
 * @drm: the DRM device
 * @data: struct drm_swai_mem_info
 * @file: the caller
 *
 * Return: 0, -EINVAL for non-zero flags or reserved fields, -EOPNOTSUPP
 * without DRM_SWAI_CAP_MEMORY.
 */
int swai_ioctl_mem_info(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct drm_swai_mem_info *args = data;
	struct swai_ctx *ctx = file->driver_priv;

	if (args->flags || args->reserved[0] || args->reserved[1])
		return -EINVAL;
	if (!ctx)
		return -EOPNOTSUPP;

	swai_region_usage(to_swai_device(drm), ctx, args);
	return 0;
}

static int swai_region_debugfs_show(struct seq_file *m, void *unused)
{
	static const char *const names[DRM_SWAI_MEM_REGIONS] = {
		"local0", "local1", "local2", "local3", "global", "host",
	};
	struct drm_debugfs_entry *entry = m->private;
	struct swai_device *sdev = to_swai_device(entry->dev);
	struct drm_swai_mem_info mi;
	unsigned int r;

	swai_region_usage(sdev, NULL, &mi);
	seq_printf(m, "%-8s %14s %14s %14s\n", "region", "capacity", "used",
		   "largest_free");
	for (r = 0; r < DRM_SWAI_MEM_REGIONS; r++) {
		if (r < DRM_SWAI_MEM_GLOBAL && r >= sdev->num_cg)
			continue;
		seq_printf(m, "%-8s %14llu %14llu %14llu\n", names[r],
			   mi.region[r].capacity, mi.region[r].used,
			   mi.region[r].largest_free);
	}
	seq_printf(m, "contexts %u\nobjects %u\n", mi.contexts, mi.objects);
	return 0;
}

/**
 * swai_region_debugfs_init() - add "memory" to the card's debugfs directory
 * @sdev: the card, before drm_dev_register()
 *
 * /sys/kernel/debug/accel/<PCI address>/memory shows each region's capacity, use
 * and largest free range, and the live contexts and objects.
 */
void swai_region_debugfs_init(struct swai_device *sdev)
{
	if (sdev->has_memory)
		drm_debugfs_add_file(&sdev->drm, "memory",
				     swai_region_debugfs_show, NULL);
}
