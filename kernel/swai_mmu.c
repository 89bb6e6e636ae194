// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_mmu.c - device MMU of the SW-AI card (datasheet §11).
 *
 * The context table (SWAI_MMU_CONTEXTS entries of 16 bytes) and the page
 * tables live in DMA-coherent host memory.  Each context has a three-level
 * tree of 4 KiB tables; level-2 entries map 4 KiB pages read-write, of HBM
 * or (SWAI_PTE_HOST) of pinned host memory by DMA address.
 * Entries only ever go from invalid to valid without an invalidation; after
 * any entry is cleared the driver writes SWAI_REG_MMU_INVALIDATE before it
 * frees the table or reuses the page.
 *
 * The context table lives as long as the drm_device (an open file keeps it
 * after an unbind), page tables as long as their context; registers are only
 * touched inside drm_dev_enter().
 */

#include <linux/dma-mapping.h>
#include <linux/iopoll.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/swai_accel.h>

#include "swai_ctx.h"
#include "swai_drv.h"
#include "swai_hw.h"
#include "swai_irq.h"
#include "swai_mmu.h"
#include "swai_trace.h"

#define SWAI_PT_ENTRIES		512
#define SWAI_PT_SIZE		SZ_4K
#define SWAI_PT_LEVELS		3
#define SWAI_CTX_ENTRY_QWORDS	2	/* 16-byte context-table entries */
#define SWAI_PROBE_POLL_US	10
#define SWAI_PROBE_TIMEOUT_US	(100 * USEC_PER_MSEC)

/**
 * struct swai_pt - one 4 KiB table of a context's page-table tree
 * @entries: CPU address of the 512 entries
 * @dma: DMA address, what the parent entry points at
 * @valid: number of valid entries
 * @child: next-level tables by index (levels 0 and 1 only)
 * @free_link: on the list of tables to free after an invalidation
 */
struct swai_pt {
	__le64 *entries;
	dma_addr_t dma;
	unsigned int valid;
	struct swai_pt **child;
	struct list_head free_link;
};

static unsigned int swai_pt_index(u64 va, unsigned int level)
{
	unsigned int shift = SWAI_MMU_PAGE_SHIFT + 9 * (SWAI_PT_LEVELS - 1 - level);

	return (va >> shift) & (SWAI_PT_ENTRIES - 1);
}

static struct device *swai_dma_dev(struct swai_device *sdev)
{
	return &sdev->pdev->dev;
}

static void swai_pt_free(struct swai_device *sdev, struct swai_pt *pt)
{
	dma_free_coherent(swai_dma_dev(sdev), SWAI_PT_SIZE, pt->entries, pt->dma);
	kfree(pt->child);
	kfree(pt);
}

static struct swai_pt *swai_pt_alloc(struct swai_device *sdev,
				     unsigned int level)
{
	struct swai_pt *pt;

	pt = kzalloc(sizeof(*pt), SWAI_GFP_USER);
	if (!pt)
		return NULL;

	if (level < SWAI_PT_LEVELS - 1) {
		pt->child = kcalloc(SWAI_PT_ENTRIES, sizeof(*pt->child),
				    SWAI_GFP_USER);
		if (!pt->child)
			goto err;
	}

	/* dma_alloc_coherent() returns zeroed memory: every entry invalid. */
	pt->entries = dma_alloc_coherent(swai_dma_dev(sdev), SWAI_PT_SIZE,
					 &pt->dma, GFP_KERNEL);
	if (!pt->entries)
		goto err;
	return pt;

err:
	kfree(pt->child);
	kfree(pt);
	return NULL;
}

static void swai_pt_free_tree(struct swai_device *sdev, struct swai_pt *pt)
{
	unsigned int i;

	if (pt->child)
		for (i = 0; i < SWAI_PT_ENTRIES; i++)
			if (pt->child[i])
				swai_pt_free_tree(sdev, pt->child[i]);
	swai_pt_free(sdev, pt);
}

static void swai_pt_set(struct swai_pt *pt, unsigned int i, u64 val)
{
	WRITE_ONCE(pt->entries[i], cpu_to_le64(val));
}

static void swai_mmu_invalidate(struct swai_device *sdev, u32 asid)
{
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return;
	swai_wr(sdev, SWAI_REG_MMU_INVALIDATE, asid);
	drm_dev_exit(idx);
}

static void swai_ctx_table_set(struct swai_device *sdev, u32 asid, u64 val)
{
	__le64 *entry = &sdev->ctx_table[asid * SWAI_CTX_ENTRY_QWORDS];

	WRITE_ONCE(entry[1], 0);
	/* The reserved half is written before the entry becomes valid. */
	dma_wmb();
	WRITE_ONCE(entry[0], cpu_to_le64(val));
}

/*
 * Make the level-2 entry of @va @pte, allocating and linking in missing
 * level-1 and level-2 tables.  No invalidation is needed since only invalid
 * entries become valid.
 */
static int swai_mmu_map_pte(struct swai_ctx *ctx, u64 va, u64 pte)
{
	struct swai_device *sdev = ctx->sdev;
	struct swai_pt *pt = ctx->root;
	unsigned int level, i;

	lockdep_assert_held(&ctx->lock);

	for (level = 0; level < SWAI_PT_LEVELS - 1; level++) {
		i = swai_pt_index(va, level);
		if (!pt->child[i]) {
			struct swai_pt *next = swai_pt_alloc(sdev, level + 1);

			if (!next)
				return -ENOMEM;
			pt->child[i] = next;
			pt->valid++;
			swai_pt_set(pt, i, next->dma | SWAI_PTE_VALID);
		}
		pt = pt->child[i];
	}

	i = swai_pt_index(va, level);
	if (WARN_ON(le64_to_cpu(pt->entries[i]) & SWAI_PTE_VALID))
		return -EINVAL;
	pt->valid++;
	swai_pt_set(pt, i, pte);
	return 0;
}

/**
 * swai_mmu_map() - map one HBM page read-write
 * @ctx: the context, ctx->lock held
 * @va: page-aligned device VA, not mapped
 * @hbm_phys: page-aligned HBM-physical address
 *
 * Return: 0 or -ENOMEM.
 */
int swai_mmu_map(struct swai_ctx *ctx, u64 va, u64 hbm_phys)
{
	return swai_mmu_map_pte(ctx, va, (hbm_phys & SWAI_PTE_ADDR_MASK) |
				SWAI_PTE_WRITE | SWAI_PTE_VALID);
}

/**
 * swai_mmu_map_host() - map one page of host memory read-write
 * @ctx: the context, ctx->lock held
 * @va: page-aligned device VA, not mapped
 * @dma: page-aligned DMA address of the host page, as the card sees it
 *
 * Return: 0, -EIO if the page table entry cannot hold @dma, or -ENOMEM.
 */
int swai_mmu_map_host(struct swai_ctx *ctx, u64 va, dma_addr_t dma)
{
	if ((u64)dma & ~SWAI_PTE_ADDR_MASK)
		return -EIO;
	return swai_mmu_map_pte(ctx, va, (u64)dma | SWAI_PTE_HOST |
				SWAI_PTE_WRITE | SWAI_PTE_VALID);
}

/**
 * swai_mmu_map_shared() - map one page of another object's HBM
 * @ctx: the context, ctx->lock held
 * @va: page-aligned device VA, not mapped
 * @hbm_phys: page-aligned HBM-physical address on the card that has it
 * @fabric_card: that card's fabric index, or -1 for this card
 * @writable: map read-write, else read-only
 *
 * Return: 0 or -ENOMEM.
 */
int swai_mmu_map_shared(struct swai_ctx *ctx, u64 va, u64 hbm_phys,
			int fabric_card, bool writable)
{
	u64 pte = (hbm_phys & SWAI_PTE_ADDR_MASK) | SWAI_PTE_VALID;

	if (writable)
		pte |= SWAI_PTE_WRITE;
	if (fabric_card >= 0)
		pte |= SWAI_PTE_FABRIC | SWAI_PTE_CARD(fabric_card);
	return swai_mmu_map_pte(ctx, va, pte);
}

/**
 * swai_mmu_unmap() - unmap a range and free the tables that became empty
 * @ctx: the context, ctx->lock held
 * @va: page-aligned device VA
 * @size: bytes, a multiple of the page size; unmapped pages are skipped
 *
 * The card is told to forget the context's translations before the empty
 * tables are freed.
 */
void swai_mmu_unmap(struct swai_ctx *ctx, u64 va, u64 size)
{
	struct swai_device *sdev = ctx->sdev;
	struct swai_pt *path[SWAI_PT_LEVELS], *pt, *tmp;
	unsigned int idx[SWAI_PT_LEVELS];
	unsigned int level;
	LIST_HEAD(empty);
	u64 end = va + size;

	lockdep_assert_held(&ctx->lock);

	for (; va < end; va += BIT_ULL(SWAI_MMU_PAGE_SHIFT)) {
		pt = ctx->root;
		for (level = 0; level < SWAI_PT_LEVELS; level++) {
			path[level] = pt;
			idx[level] = swai_pt_index(va, level);
			if (level == SWAI_PT_LEVELS - 1)
				break;
			pt = pt->child[idx[level]];
			if (!pt)
				break;
		}
		if (level < SWAI_PT_LEVELS - 1 ||
		    !(le64_to_cpu(pt->entries[idx[level]]) & SWAI_PTE_VALID))
			continue;

		/* Clear the page, then every table that became empty. */
		for (;;) {
			pt = path[level];
			swai_pt_set(pt, idx[level], 0);
			if (pt->child)
				pt->child[idx[level]] = NULL;
			if (--pt->valid || !level)
				break;
			list_add_tail(&pt->free_link, &empty);
			level--;
		}
	}

	swai_mmu_invalidate(sdev, ctx->asid);

	list_for_each_entry_safe(pt, tmp, &empty, free_link)
		swai_pt_free(sdev, pt);
}

/**
 * swai_mmu_ctx_init() - give a context its page tables and make it valid
 * @ctx: the context, ASID allocated
 *
 * Return: 0 or -ENOMEM.
 */
int swai_mmu_ctx_init(struct swai_ctx *ctx)
{
	struct swai_device *sdev = ctx->sdev;

	ctx->root = swai_pt_alloc(sdev, 0);
	if (!ctx->root)
		return -ENOMEM;

	swai_ctx_table_set(sdev, ctx->asid, ctx->root->dma | SWAI_PTE_VALID);
	return 0;
}

/**
 * swai_mmu_ctx_fini() - make a context invalid and free its page tables
 * @ctx: the context, nothing mapped any more
 */
void swai_mmu_ctx_fini(struct swai_ctx *ctx)
{
	struct swai_device *sdev = ctx->sdev;

	swai_ctx_table_set(sdev, ctx->asid, 0);
	swai_mmu_invalidate(sdev, ctx->asid);
	swai_pt_free_tree(sdev, ctx->root);
	ctx->root = NULL;
}

/**
 * swai_mmu_hw_init() - point the card at the context table
 * @sdev: the card, out of reset; to be called again after any reset
 *
 * Also clears a stale fault and enables the MMU fault interrupt.
 */
void swai_mmu_hw_init(struct swai_device *sdev)
{
	swai_wr(sdev, SWAI_REG_MMU_CTX_TABLE_LO, lower_32_bits(sdev->ctx_table_dma));
	swai_wr(sdev, SWAI_REG_MMU_CTX_TABLE_HI, upper_32_bits(sdev->ctx_table_dma));
	swai_wr(sdev, SWAI_REG_MMU_INVALIDATE, SWAI_MMU_INV_ALL);
	swai_wr(sdev, SWAI_REG_MMU_FAULT_STATUS,
		SWAI_MMU_FAULT_VALID | SWAI_MMU_FAULT_OVERFLOW);
	swai_wr(sdev, SWAI_REG_IRQ_STATUS, SWAI_IRQ_MMU_FAULT);
	swai_irq_enable(sdev, SWAI_IRQ_MMU_FAULT);
}

static void swai_mmu_fini(struct drm_device *drm, void *arg)
{
	struct swai_device *sdev = to_swai_device(drm);

	WARN_ON(!xa_empty(&sdev->ctx_xa));
	xa_destroy(&sdev->ctx_xa);
	dma_free_coherent(swai_dma_dev(sdev), SWAI_PT_SIZE, sdev->ctx_table,
			  sdev->ctx_table_dma);
}

/**
 * swai_mmu_init() - set up device memory support, if the card has it
 * @sdev: the card, DMA mask set and interrupts initialised
 *
 * Device memory needs the MMU, an aperture covering all HBM (buffers are
 * zeroed and mapped through it) and a 4 KiB Global-HBM granule.  Without
 * them @sdev->has_memory stays false and the card works as before.
 *
 * Return: 0 (also when memory is not supported) or a negative errno.
 */
int swai_mmu_init(struct swai_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;
	u64 hbm = (u64)sdev->num_cg * sdev->hbm_per_cg_mb * SZ_1M;
	int ret;

	if (!(sdev->hw_caps & SWAI_CAP_MMU))
		return 0;

	sdev->mmu_contexts = min(swai_rd(sdev, SWAI_REG_MMU_CONTEXTS),
				 SWAI_MMU_CONTEXTS);
	/* A Global-HBM granule, a device page and a CPU page are the same. */
	BUILD_BUG_ON(BIT(SWAI_MMU_PAGE_SHIFT) != SWAI_GLOBAL_GRANULE);
	BUILD_BUG_ON(BIT(SWAI_MMU_PAGE_SHIFT) != PAGE_SIZE);
	if (sdev->mmu_contexts < 2 || sdev->global_granule != SWAI_GLOBAL_GRANULE ||
	    !hbm || sdev->aperture_size < hbm) {
		dev_warn(dev, "device memory unsupported (%u contexts, granule %u, aperture %llu of %llu bytes)\n",
			 sdev->mmu_contexts, sdev->global_granule,
			 (u64)sdev->aperture_size, hbm);
		return 0;
	}

	sdev->aperture = devm_ioremap_wc(dev, sdev->aperture_start, hbm);
	if (!sdev->aperture)
		return -ENOMEM;

	ret = drmm_mutex_init(&sdev->drm, &sdev->mmu_probe_lock);
	if (ret)
		return ret;

	sdev->ctx_table = dma_alloc_coherent(dev, SWAI_PT_SIZE,
					     &sdev->ctx_table_dma, GFP_KERNEL);
	if (!sdev->ctx_table)
		return -ENOMEM;
	xa_init_flags(&sdev->ctx_xa, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	ret = drmm_add_action_or_reset(&sdev->drm, swai_mmu_fini, NULL);
	if (ret)
		return ret;

	swai_mmu_hw_init(sdev);
	sdev->has_memory = true;
	return 0;
}

/**
 * swai_mmu_fault_irq() - handle SWAI_IRQ_MMU_FAULT
 * @sdev: the card
 *
 * Logs the latched fault, counts it on its context and clears the latch.
 *
 * Context: hard interrupt (management vector).
 */
void swai_mmu_fault_irq(struct swai_device *sdev)
{
	struct swai_ctx *ctx;
	u32 status, asid;
	u64 va;

	va = (u64)swai_rd(sdev, SWAI_REG_MMU_FAULT_VA_HI) << 32 |
	     swai_rd(sdev, SWAI_REG_MMU_FAULT_VA_LO);
	status = swai_rd(sdev, SWAI_REG_MMU_FAULT_STATUS);
	if (status == U32_MAX)
		return;

	if (status & SWAI_MMU_FAULT_VALID) {
		asid = SWAI_MMU_FAULT_ASID(status);
		xa_lock(&sdev->ctx_xa);
		ctx = xa_load(&sdev->ctx_xa, asid);
		if (ctx)
			atomic_inc(&ctx->faults);
		xa_unlock(&sdev->ctx_xa);

		trace_swai_mmu_fault(asid, va, SWAI_MMU_FAULT_REASON(status),
				     status & SWAI_MMU_FAULT_WRITE);
		dev_warn_ratelimited(&sdev->pdev->dev,
				     "MMU fault: asid %u %s va 0x%llx reason %u%s\n",
				     asid,
				     status & SWAI_MMU_FAULT_WRITE ? "write" : "read",
				     va, SWAI_MMU_FAULT_REASON(status),
				     status & SWAI_MMU_FAULT_OVERFLOW ? " (more lost)" : "");
	}

	swai_wr(sdev, SWAI_REG_MMU_FAULT_STATUS,
		status & (SWAI_MMU_FAULT_VALID | SWAI_MMU_FAULT_OVERFLOW));
}

/**
 * swai_ioctl_va_probe() - DRM_IOCTL_SWAI_VA_PROBE
 * @drm: the DRM device
 * @data: struct drm_swai_va_probe
 * @file: the caller, whose context is probed
 *
 * Return: 0, -EINVAL for unknown flags or non-zero pad/reserved,
 * -EOPNOTSUPP without DRM_SWAI_CAP_MEMORY, -ENODEV after unplug, -EIO or
 * -ETIMEDOUT if the card does not answer.
 */
int swai_ioctl_va_probe(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_va_probe *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	u32 result;
	int idx, ret;

	if (args->flags & ~DRM_SWAI_PROBE_WRITE || args->pad ||
	    args->reserved[0] || args->reserved[1])
		return -EINVAL;
	if (!ctx)
		return -EOPNOTSUPP;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	mutex_lock(&sdev->mmu_probe_lock);
	swai_wr(sdev, SWAI_REG_MMU_PROBE_ASID, ctx->asid);
	swai_wr(sdev, SWAI_REG_MMU_PROBE_VA_LO, lower_32_bits(args->va));
	swai_wr(sdev, SWAI_REG_MMU_PROBE_VA_HI, upper_32_bits(args->va));
	swai_wr(sdev, SWAI_REG_MMU_PROBE_GO,
		args->flags & DRM_SWAI_PROBE_WRITE ? SWAI_MMU_PROBE_WRITE : 0);
	ret = readl_poll_timeout(sdev->mmio + SWAI_REG_MMU_PROBE_RESULT_LO,
				 result,
				 result == U32_MAX || (result & SWAI_MMU_PROBE_DONE),
				 SWAI_PROBE_POLL_US, SWAI_PROBE_TIMEOUT_US);
	mutex_unlock(&sdev->mmu_probe_lock);
	drm_dev_exit(idx);
	if (ret)
		return ret;
	if (result == U32_MAX)
		return -EIO;

	args->result = 0;
	args->reason = 0;
	if (result & SWAI_MMU_PROBE_OK) {
		args->result = DRM_SWAI_PROBE_MAPPED;
		if (result & SWAI_MMU_PROBE_HOST)
			args->result |= DRM_SWAI_PROBE_HOST;
		if (result & SWAI_MMU_PROBE_FABRIC)
			args->result |= DRM_SWAI_PROBE_FABRIC;
	} else {
		args->reason = SWAI_MMU_PROBE_REASON(result);
	}
	return 0;
}
