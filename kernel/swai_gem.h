/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_gem.h - buffer objects in device memory of swai.ko.
 */
#ifndef SWAI_GEM_H
#define SWAI_GEM_H

#include <linux/scatterlist.h>
#include <linux/types.h>

#include <drm/drm_gem.h>
#include <drm/drm_mm.h>

struct dma_buf;
struct mm_struct;
struct page;
struct swai_ctx;

/**
 * struct swai_bo - a buffer object in one region of the card
 * @base: the GEM object; base.size is the allocated size
 * @ctx: the context of the creating file (a reference), mapped at @va
 * @region: DRM_SWAI_MEM_*
 * @offset: offset of the memory in @region (not DRM_SWAI_MEM_HOST)
 * @allocated: @offset is allocated from the region, or for
 *	DRM_SWAI_MEM_HOST the object is counted in the card's host totals
 * @va: the device-VA range in @ctx
 * @mapped: bytes of @va mapped so far
 * @mm: DRM_SWAI_MEM_HOST: the mm whose pinned_vm the pages are charged to
 *	(mmgrab()ed), NULL until charged
 * @pages: DRM_SWAI_MEM_HOST: the pinned user pages
 * @npinned: DRM_SWAI_MEM_HOST: entries of @pages pinned
 * @sgt: DRM_SWAI_MEM_HOST: @pages, DMA-mapped if @sgt_mapped
 * @sgt_mapped: @sgt is DMA-mapped for the card
 * @import: DRM_SWAI_MEM_IMPORT: the dma-buf it maps (a reference), which
 *	keeps @src and its card alive
 * @src: DRM_SWAI_MEM_IMPORT: the exported object whose memory it maps
 * @fabric_card: DRM_SWAI_MEM_IMPORT: @src's card's fabric index, or -1 if
 *	@src is on this card
 * @read_only: DRM_SWAI_MEM_IMPORT: mapped without SWAI_PTE_WRITE
 */
struct swai_bo {
	struct drm_gem_object base;
	struct swai_ctx *ctx;
	u32 region;
	u64 offset;
	bool allocated;
	struct drm_mm_node va;
	u64 mapped;
	struct mm_struct *mm;
	struct page **pages;
	unsigned long npinned;
	struct sg_table sgt;
	bool sgt_mapped;
	struct dma_buf *import;
	struct swai_bo *src;
	int fabric_card;
	bool read_only;
};

static inline struct swai_bo *to_swai_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct swai_bo, base);
}

bool swai_bo_is_swai(const struct drm_gem_object *obj);
bool swai_fixed_va_ok(u64 va, u64 size);
struct swai_bo *swai_bo_new_import(struct drm_device *drm,
				   struct swai_ctx *ctx, u64 size);
int swai_bo_publish(struct swai_bo *bo, u64 fixed_va, struct drm_file *file,
		    u32 *handle);
struct drm_gem_object *swai_gem_prime_import(struct drm_device *drm,
					     struct dma_buf *dma_buf);
int swai_ioctl_bo_create(struct drm_device *drm, void *data,
			 struct drm_file *file);
int swai_ioctl_bo_info(struct drm_device *drm, void *data,
		       struct drm_file *file);
int swai_ioctl_bo_userptr(struct drm_device *drm, void *data,
			  struct drm_file *file);

#endif /* SWAI_GEM_H */
