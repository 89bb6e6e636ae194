// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_gem.c - GEM buffer objects in the device memory of the SW-AI card.
 *
 * A buffer object is a range of one region (Local-HBM of a core group or
 * Global-HBM), zeroed through the BAR2 aperture when it is created and mapped
 * read-write into the device address space of the creating file.  No other
 * file holds a handle of it (flink names are refused) and drm_gem_mmap()
 * lets only files with a handle map it.  The CPU maps it from BAR2,
 * write-combined.  The file can give it away only as a dma-buf
 * (swai_prime.c); whoever imports that gets an object of its own, a
 * DRM_SWAI_MEM_IMPORT object mapping the same memory into its context --
 * on this card, or on another over the fabric.
 *
 * A DRM_SWAI_MEM_HOST object (BO_USERPTR) is instead a range of the
 * creating process's memory, pinned long-term, charged to its
 * RLIMIT_MEMLOCK (mm->pinned_vm, as RDMA's ib_umem does), DMA-mapped for
 * the card and mapped into the context with SWAI_PTE_HOST entries.  It has
 * no mmap offset: the process already has the memory.
 */

#include <linux/capability.h>
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_vma_manager.h>
#include <drm/swai_accel.h>

#include "swai_ctx.h"
#include "swai_drv.h"
#include "swai_gem.h"
#include "swai_mmu.h"
#include "swai_prime.h"
#include "swai_region.h"

#define SWAI_BO_PAGE		SZ_8K	/* allocation unit of the regions */
#define SWAI_BO_SEGMENT		SZ_1M	/* ... with DRM_SWAI_BO_SEGMENT */
#define SWAI_BO_VA_ALIGN	SZ_64K
#define SWAI_ZERO_BATCH		64	/* pages between cond_resched() */
#define SWAI_PIN_BATCH		(PAGE_SIZE / sizeof(struct page *))

static struct device *swai_dma_dev(struct swai_device *sdev)
{
	return &sdev->pdev->dev;
}

/*
 * Release what swai_ioctl_bo_userptr() set up for a host object, in reverse
 * order; the device mapping is already gone.
 */
static void swai_bo_put_host(struct swai_device *sdev, struct swai_bo *bo)
{
	u64 size = bo->base.size;

	if (bo->allocated) {
		mutex_lock(&sdev->partition_lock);
		bo->ctx->used[DRM_SWAI_MEM_HOST] -= size;
		sdev->host_used -= size;
		sdev->host_objects--;
		mutex_unlock(&sdev->partition_lock);
	}

	if (bo->sgt_mapped)
		dma_unmap_sgtable(swai_dma_dev(sdev), &bo->sgt,
				  DMA_BIDIRECTIONAL, 0);
	sg_free_table(&bo->sgt);
	/* The card may have written to any of them. */
	if (bo->npinned)
		unpin_user_pages_dirty_lock(bo->pages, bo->npinned, true);
	kvfree(bo->pages);

	if (bo->mm) {
		atomic64_sub(size >> PAGE_SHIFT, &bo->mm->pinned_vm);
		mmdrop(bo->mm);
	}
}

static void swai_bo_free(struct drm_gem_object *obj)
{
	struct swai_device *sdev = to_swai_device(obj->dev);
	struct swai_bo *bo = to_swai_bo(obj);
	struct swai_ctx *ctx = bo->ctx;

	/* Unmapped and invalidated before the memory can be reused. */
	if (drm_mm_node_allocated(&bo->va)) {
		mutex_lock(&ctx->lock);
		swai_mmu_unmap(ctx, bo->va.start, bo->mapped);
		drm_mm_remove_node(&bo->va);
		mutex_unlock(&ctx->lock);
	}

	if (bo->region == DRM_SWAI_MEM_HOST) {
		swai_bo_put_host(sdev, bo);
	} else if (bo->region == DRM_SWAI_MEM_IMPORT) {
		/* Last: it may hold the final reference to @src and its card. */
		if (bo->import)
			dma_buf_put(bo->import);
	} else if (bo->allocated) {
		mutex_lock(&sdev->partition_lock);
		swai_region_free(sdev, bo->region, bo->offset, obj->size);
		ctx->used[bo->region] -= obj->size;
		sdev->num_objects--;
		mutex_unlock(&sdev->partition_lock);
	}

	drm_gem_object_release(obj);
	kfree(bo);
	swai_ctx_put(ctx);
}

static int swai_bo_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	struct swai_device *sdev = to_swai_device(obj->dev);
	unsigned long first = vma->vm_pgoff - drm_vma_node_start(&obj->vma_node);
	unsigned long pages = obj->size >> PAGE_SHIFT;
	unsigned long count = vma_pages(vma);
	struct swai_bo *bo = to_swai_bo(obj);
	unsigned long i;
	int idx, ret = 0;
	u64 phys;

	/* Private (COW) mappings of I/O memory cannot be built page by page. */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (first > pages || count > pages - first)
		return -EINVAL;

	/* After unplug the aperture belongs to nobody; see swai_remove(). */
	if (!drm_dev_enter(obj->dev, &idx))
		return -ENODEV;

	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = pgprot_writecombine(vm_get_page_prot(vma->vm_flags));

	if (bo->region != DRM_SWAI_MEM_GLOBAL) {
		/* Local-HBM is contiguous in BAR2. */
		phys = swai_region_phys(sdev, bo->region,
					bo->offset + ((u64)first << PAGE_SHIFT));
		ret = io_remap_pfn_range(vma, vma->vm_start,
					 (sdev->aperture_start + phys) >> PAGE_SHIFT,
					 count << PAGE_SHIFT, vma->vm_page_prot);
	} else {
		/* Global-HBM pages are interleaved over the controllers. */
		for (i = 0; i < count && !ret; i++) {
			phys = swai_region_phys(sdev, bo->region, bo->offset +
						((u64)(first + i) << PAGE_SHIFT));
			ret = io_remap_pfn_range(vma, vma->vm_start + (i << PAGE_SHIFT),
						 (sdev->aperture_start + phys) >> PAGE_SHIFT,
						 PAGE_SIZE, vma->vm_page_prot);
		}
	}

	drm_dev_exit(idx);
	return ret;
}

/* Host and imported objects stay with their file. */
static struct dma_buf *swai_bo_no_export(struct drm_gem_object *obj, int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct vm_operations_struct swai_bo_vm_ops = {
	.open	= drm_gem_vm_open,
	.close	= drm_gem_vm_close,
};

static const struct drm_gem_object_funcs swai_bo_funcs = {
	.free	= swai_bo_free,
	.export	= swai_prime_export,
	.mmap	= swai_bo_mmap,
	.vm_ops	= &swai_bo_vm_ops,
};

/*
 * Host and imported objects have no mmap offset and no .mmap:
 * drm_gem_mmap() refuses.
 */
static const struct drm_gem_object_funcs swai_bo_host_funcs = {
	.free	= swai_bo_free,
	.export	= swai_bo_no_export,
};

/**
 * swai_bo_is_swai() - is @obj a buffer object of swai.ko?
 * @obj: a GEM object of any driver
 *
 * Return: true for every kind of swai object.
 */
bool swai_bo_is_swai(const struct drm_gem_object *obj)
{
	return obj->funcs == &swai_bo_funcs || obj->funcs == &swai_bo_host_funcs;
}

/**
 * swai_gem_prime_import() - &drm_driver.gem_prime_import: refused
 * @drm: the DRM device
 * @dma_buf: the buffer to import
 *
 * DRM_IOCTL_PRIME_FD_TO_HANDLE cannot say which context to map the buffer
 * into; DRM_IOCTL_SWAI_BO_IMPORT does.
 *
 * Return: ERR_PTR(-EOPNOTSUPP).
 */
struct drm_gem_object *swai_gem_prime_import(struct drm_device *drm,
					     struct dma_buf *dma_buf)
{
	return ERR_PTR(-EOPNOTSUPP);
}

/* Zero the memory of @bo through the aperture, page by page. */
static void swai_bo_zero(struct swai_device *sdev, struct swai_bo *bo)
{
	u64 off;

	for (off = 0; off < bo->base.size; off += PAGE_SIZE) {
		memset_io(sdev->aperture +
			  swai_region_phys(sdev, bo->region, bo->offset + off),
			  0, PAGE_SIZE);
		if (!((off >> PAGE_SHIFT) % SWAI_ZERO_BATCH))
			cond_resched();
	}
}

/* Map the DMA-mapped pages of host object @bo at its device VA. */
static int swai_bo_map_host_pages(struct swai_bo *bo)
{
	struct scatterlist *sg;
	unsigned int i;
	u64 off;
	int ret;

	for_each_sgtable_dma_sg(&bo->sgt, sg, i) {
		for (off = 0; off < sg_dma_len(sg); off += PAGE_SIZE) {
			ret = swai_mmu_map_host(bo->ctx, bo->va.start + bo->mapped,
						sg_dma_address(sg) + off);
			if (ret)
				return ret;
			bo->mapped += PAGE_SIZE;
		}
	}
	return 0;
}

/* Map the memory of the exported object @bo->src at @bo's device VA. */
static int swai_bo_map_import_pages(struct swai_bo *bo)
{
	struct swai_device *owner = to_swai_device(bo->src->base.dev);
	u64 off, phys;
	int ret;

	for (off = 0; off < bo->base.size; off += PAGE_SIZE) {
		phys = swai_region_phys(owner, bo->src->region, bo->src->offset + off);
		ret = swai_mmu_map_shared(bo->ctx, bo->va.start + off, phys,
					  bo->fabric_card, !bo->read_only);
		if (ret)
			return ret;
		bo->mapped = off + PAGE_SIZE;
	}
	return 0;
}

/*
 * Give @bo a device VA in its context, the one in @fixed_va if that is not
 * 0, and map every page there.
 */
static int swai_bo_map(struct swai_device *sdev, struct swai_bo *bo, u64 fixed_va)
{
	struct swai_ctx *ctx = bo->ctx;
	u64 off;
	int ret;

	mutex_lock(&ctx->lock);
	if (fixed_va) {
		bo->va.start = fixed_va;
		bo->va.size = bo->base.size;
		ret = drm_mm_reserve_node(&ctx->va, &bo->va);
		if (ret == -ENOSPC)
			ret = -EEXIST;	/* overlaps a mapping of the caller's */
	} else {
		ret = drm_mm_insert_node_generic(&ctx->va, &bo->va, bo->base.size,
						 SWAI_BO_VA_ALIGN, 0,
						 DRM_MM_INSERT_BEST);
	}
	if (!ret && bo->region == DRM_SWAI_MEM_HOST) {
		ret = swai_bo_map_host_pages(bo);
		goto out;
	}
	if (!ret && bo->region == DRM_SWAI_MEM_IMPORT) {
		ret = swai_bo_map_import_pages(bo);
		goto out;
	}
	for (off = 0; !ret && off < bo->base.size; off += PAGE_SIZE) {
		ret = swai_mmu_map(ctx, bo->va.start + off,
				   swai_region_phys(sdev, bo->region,
						    bo->offset + off));
		if (!ret)
			bo->mapped = off + PAGE_SIZE;
	}
out:
	mutex_unlock(&ctx->lock);
	return ret;
}

/**
 * swai_fixed_va_ok() - may an object of @size bytes be mapped at @va?
 * @va: a device VA the caller asked for
 * @size: bytes
 *
 * Return: true if @va is 64 KiB aligned and the object fits in the device
 * VA space above it.
 */
bool swai_fixed_va_ok(u64 va, u64 size)
{
	return IS_ALIGNED(va, SWAI_BO_VA_ALIGN) && va >= SWAI_VA_START &&
	       va < SWAI_VA_END && size <= SWAI_VA_END - va;
}

/*
 * A new object of @ctx in @region, holding a reference on the context; the
 * caller's reference to it is dropped with drm_gem_object_put().
 */
static struct swai_bo *swai_bo_new(struct drm_device *drm, struct swai_ctx *ctx,
				   u32 region, const struct drm_gem_object_funcs *funcs,
				   u64 size)
{
	struct swai_bo *bo = kzalloc(sizeof(*bo), SWAI_GFP_USER);

	if (!bo)
		return NULL;
	swai_ctx_get(ctx);
	bo->ctx = ctx;
	bo->region = region;
	bo->base.funcs = funcs;
	drm_gem_private_object_init(drm, &bo->base, size);
	return bo;
}

/**
 * swai_bo_new_import() - a new DRM_SWAI_MEM_IMPORT object of @ctx
 * @drm: the importing card
 * @ctx: the importing file's context (the object takes a reference)
 * @size: bytes, those of the exported object
 *
 * The caller fills in @import, @src, @fabric_card and @read_only, then
 * calls swai_bo_publish(); its reference is dropped with
 * drm_gem_object_put(), which undoes whatever was done.
 *
 * Return: the object, or NULL without memory.
 */
struct swai_bo *swai_bo_new_import(struct drm_device *drm,
				   struct swai_ctx *ctx, u64 size)
{
	return swai_bo_new(drm, ctx, DRM_SWAI_MEM_IMPORT, &swai_bo_host_funcs,
			   size);
}

/**
 * swai_bo_publish() - the last steps of every create or import ioctl
 * @bo: the new object
 * @fixed_va: the device VA to map it at, or 0 for one the driver picks
 * @file: the caller, who gets a handle
 * @handle: out
 *
 * Return: 0, -EEXIST (@fixed_va overlaps a mapping), -ENOSPC, -ENOMEM.
 */
int swai_bo_publish(struct swai_bo *bo, u64 fixed_va, struct drm_file *file,
		    u32 *handle)
{
	int ret = swai_bo_map(to_swai_device(bo->base.dev), bo, fixed_va);

	return ret ? ret : drm_gem_handle_create(file, &bo->base, handle);
}

/**
 * swai_ioctl_bo_create() - DRM_IOCTL_SWAI_BO_CREATE
 * @drm: the DRM device
 * @data: struct drm_swai_bo_create
 * @file: the caller, owner of the new object
 *
 * Return: 0, -EINVAL for a bad argument, -ENOSPC if the region or the
 * device address space has no room, -ENOMEM, -EOPNOTSUPP without
 * DRM_SWAI_CAP_MEMORY, -ENODEV after unplug.
 */
int swai_ioctl_bo_create(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_bo_create *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	u32 region = args->placement;
	struct swai_bo *bo;
	u64 align, size, fixed_va;
	u32 handle;
	int idx, ret;

	if (args->flags & ~(DRM_SWAI_BO_SEGMENT | DRM_SWAI_BO_FIXED_VA) ||
	    args->pad || args->reserved[0] || args->reserved[1])
		return -EINVAL;
	if (!ctx)
		return -EOPNOTSUPP;
	if (region != DRM_SWAI_MEM_GLOBAL && region >= sdev->num_cg)
		return -EINVAL;
	align = args->flags & DRM_SWAI_BO_SEGMENT ? SWAI_BO_SEGMENT : SWAI_BO_PAGE;
	if (!args->size || args->size > U64_MAX - align)
		return -EINVAL;
	size = round_up(args->size, align);
	fixed_va = args->flags & DRM_SWAI_BO_FIXED_VA ? args->device_va : 0;
	if ((args->flags & DRM_SWAI_BO_FIXED_VA) && !swai_fixed_va_ok(fixed_va, size))
		return -EINVAL;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	bo = swai_bo_new(drm, ctx, region, &swai_bo_funcs, size);
	if (!bo) {
		ret = -ENOMEM;
		goto out;
	}
	/* From here on swai_bo_free() undoes whatever was done. */

	mutex_lock(&sdev->partition_lock);
	if (size > sdev->region_size[region]) {
		ret = -EINVAL;
	} else {
		ret = swai_region_alloc(sdev, region, size,
					args->flags & DRM_SWAI_BO_SEGMENT,
					&bo->offset);
	}
	if (!ret) {
		bo->allocated = true;
		ctx->used[region] += size;
		sdev->num_objects++;
	}
	mutex_unlock(&sdev->partition_lock);
	if (ret)
		goto put;

	swai_bo_zero(sdev, bo);

	ret = drm_gem_create_mmap_offset(&bo->base);
	if (ret)
		goto put;

	ret = swai_bo_publish(bo, fixed_va, file, &handle);
	if (ret)
		goto put;

	args->size = size;
	args->handle = handle;
	args->device_va = bo->va.start;
put:
	drm_gem_object_put(&bo->base);
out:
	drm_dev_exit(idx);
	return ret;
}

/**
 * swai_ioctl_bo_info() - DRM_IOCTL_SWAI_BO_INFO
 * @drm: the DRM device
 * @data: struct drm_swai_bo_info
 * @file: the caller
 *
 * Return: 0, -EINVAL for non-zero reserved fields, -ENOENT if @handle is
 * not one of the caller's, -EOPNOTSUPP without DRM_SWAI_CAP_MEMORY.
 */
int swai_ioctl_bo_info(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_swai_bo_info *args = data;
	struct drm_gem_object *obj;
	struct swai_bo *bo;

	if (args->reserved[0] || args->reserved[1])
		return -EINVAL;
	if (!file->driver_priv)
		return -EOPNOTSUPP;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	bo = to_swai_bo(obj);

	args->placement = bo->region;
	args->size = obj->size;
	args->device_va = bo->va.start;
	args->mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);

	drm_gem_object_put(obj);
	return 0;
}

/*
 * Charge @npages long-term pinned pages to the caller's mm, against its
 * RLIMIT_MEMLOCK unless it has CAP_IPC_LOCK, and keep the mm for the
 * uncharge.
 */
static int swai_bo_charge(struct swai_bo *bo, unsigned long npages)
{
	struct mm_struct *mm = current->mm;
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	u64 pinned;

	pinned = atomic64_add_return(npages, &mm->pinned_vm);
	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	mmgrab(mm);
	bo->mm = mm;
	return 0;
}

/* Pin the @npages user pages from @addr for writing by the card. */
static int swai_bo_pin(struct swai_bo *bo, unsigned long addr,
		       unsigned long npages)
{
	unsigned long n;
	int ret;

	while (bo->npinned < npages) {
		n = min_t(unsigned long, npages - bo->npinned, SWAI_PIN_BATCH);
		ret = pin_user_pages_fast(addr + (bo->npinned << PAGE_SHIFT), n,
					  FOLL_WRITE | FOLL_LONGTERM,
					  bo->pages + bo->npinned);
		if (ret <= 0)
			return ret ?: -EFAULT;
		bo->npinned += ret;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/**
 * swai_ioctl_bo_userptr() - DRM_IOCTL_SWAI_BO_USERPTR
 * @drm: the DRM device
 * @data: struct drm_swai_bo_userptr
 * @file: the caller, owner of the new object
 *
 * Return: 0, -EINVAL for a bad argument, -EFAULT if a page is not mapped
 * writable, -ENOMEM (RLIMIT_MEMLOCK or host memory), -EEXIST if a fixed VA
 * overlaps a mapping, -ENOSPC if the device address space has no room,
 * -EOPNOTSUPP without DRM_SWAI_CAP_USERPTR, -ENODEV after unplug.
 */
int swai_ioctl_bo_userptr(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_bo_userptr *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	struct device *dev = swai_dma_dev(sdev);
	u64 size = args->size, fixed_va, end;
	unsigned long npages;
	struct swai_bo *bo;
	u32 handle;
	int idx, ret;

	if (args->flags & ~DRM_SWAI_BO_FIXED_VA ||
	    args->reserved[0] || args->reserved[1])
		return -EINVAL;
	if (!ctx)
		return -EOPNOTSUPP;
	if (!size || !PAGE_ALIGNED(size) || !PAGE_ALIGNED(args->addr) ||
	    check_add_overflow(args->addr, size, &end) ||
	    size > SWAI_VA_END - SWAI_VA_START)
		return -EINVAL;
	fixed_va = args->flags & DRM_SWAI_BO_FIXED_VA ? args->device_va : 0;
	if ((args->flags & DRM_SWAI_BO_FIXED_VA) && !swai_fixed_va_ok(fixed_va, size))
		return -EINVAL;
	npages = size >> PAGE_SHIFT;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	bo = swai_bo_new(drm, ctx, DRM_SWAI_MEM_HOST, &swai_bo_host_funcs, size);
	if (!bo) {
		ret = -ENOMEM;
		goto out;
	}
	/* From here on swai_bo_free() undoes whatever was done. */

	ret = swai_bo_charge(bo, npages);
	if (ret)
		goto put;

	bo->pages = kvmalloc_array(npages, sizeof(*bo->pages), SWAI_GFP_USER);
	if (!bo->pages) {
		ret = -ENOMEM;
		goto put;
	}
	ret = swai_bo_pin(bo, args->addr, npages);
	if (ret)
		goto put;

	mutex_lock(&sdev->partition_lock);
	bo->allocated = true;
	ctx->used[DRM_SWAI_MEM_HOST] += size;
	sdev->host_used += size;
	sdev->host_objects++;
	mutex_unlock(&sdev->partition_lock);

	ret = sg_alloc_table_from_pages_segment(&bo->sgt, bo->pages, npages, 0,
						size, dma_get_max_seg_size(dev),
						GFP_KERNEL);
	if (ret)
		goto put;
	ret = dma_map_sgtable(dev, &bo->sgt, DMA_BIDIRECTIONAL, 0);
	if (ret)
		goto put;
	bo->sgt_mapped = true;

	ret = swai_bo_publish(bo, fixed_va, file, &handle);
	if (ret)
		goto put;

	args->handle = handle;
	args->device_va = bo->va.start;
put:
	drm_gem_object_put(&bo->base);
out:
	drm_dev_exit(idx);
	return ret;
}
