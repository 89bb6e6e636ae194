/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_mmu.h - device MMU of the SW-AI card: context table, page tables,
 * invalidation, translation probe and faults.
 */
#ifndef SWAI_MMU_H
#define SWAI_MMU_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct swai_ctx;
struct swai_device;

int swai_mmu_init(struct swai_device *sdev);
void swai_mmu_hw_init(struct swai_device *sdev);
int swai_mmu_ctx_init(struct swai_ctx *ctx);
void swai_mmu_ctx_fini(struct swai_ctx *ctx);
int swai_mmu_map(struct swai_ctx *ctx, u64 va, u64 hbm_phys);
int swai_mmu_map_host(struct swai_ctx *ctx, u64 va, dma_addr_t dma);
int swai_mmu_map_shared(struct swai_ctx *ctx, u64 va, u64 hbm_phys,
			int fabric_card, bool writable);
void swai_mmu_unmap(struct swai_ctx *ctx, u64 va, u64 size);
void swai_mmu_fault_irq(struct swai_device *sdev);

int swai_ioctl_va_probe(struct drm_device *drm, void *data,
			struct drm_file *file);

#endif /* SWAI_MMU_H */
