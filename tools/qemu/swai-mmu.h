/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mmu.h - the device MMU of the SW-AI card (QEMU-independent).
 *
 * Every device access is made on behalf of a context (ASID) and translated
 * through that context's three-level page tables in host memory, which the
 * card reads with ops->dma_read().  The register contract is the
 * "Device MMU" block of kernel/swai_regs.h; Documentation/datasheet.md §11
 * describes it in full.
 *
 * The model keeps no TLB: every translation walks the tables, so a change
 * to the tables is visible to the next access (drivers must still write
 * MMU_INVALIDATE, as real hardware caches).
 *
 * Use from the command processor (swai-mem.c), per page or run touched:
 *
 *     r = swai_mmu_translate(s, asid, va, is_write, &x);
 *     if (r) {
 *         swai_mmu_fault(s, asid, va, is_write, r);
 *         ... do not serve the access ...
 *     }
 *     ... access x.run bytes at x.addr (HBM-physical or host DMA) ...
 */
#ifndef SWAI_MMU_H
#define SWAI_MMU_H

#include <stdbool.h>
#include <stdint.h>

#include "swai_regs.h"

struct swai_core;

#define SWAI_MMU_PAGE_SIZE  (1ull << SWAI_MMU_PAGE_SHIFT)
#define SWAI_MMU_CTX_ENTRY  16      /* bytes per context-table entry */

/* MMU register state, part of struct swai_core; all zero after reset. */
struct swai_mmu {
    uint64_t ctx_table;         /* CTX_TABLE_HI:LO, 4 KiB aligned */
    uint32_t fault_status;      /* SWAI_MMU_FAULT_* */
    uint64_t fault_va;          /* FAULT_VA_HI:LO */
    uint32_t probe_asid;        /* PROBE_ASID */
    uint64_t probe_va;          /* PROBE_VA_HI:LO */
    uint64_t probe_result;      /* PROBE_RESULT_HI:LO, 0 while running */
    /* The probe in flight (SWAI_WORK_MMU_PROBE), latched by PROBE_GO. */
    uint32_t go_asid;
    uint64_t go_va;
    bool go_write;
};

/* A successful translation. */
struct swai_mmu_xlat {
    uint64_t addr;  /* where 'va' lands: HBM-physical offset or DMA address */
    uint64_t run;   /* bytes from addr to the end of the 4 KiB page */
    bool host;      /* addr is a host DMA address (SWAI_PTE_HOST) */
};

/*
 * Translate 'va' of context 'asid' for a read or a write.  Returns 0 and
 * fills 'out', or returns a fault reason (SWAI_MMU_R_*) and leaves 'out'
 * untouched.  Reads the tables with ops->dma_read(); changes no state,
 * latches no fault and allocates nothing.
 */
int swai_mmu_translate(const struct swai_core *s, uint32_t asid, uint64_t va,
                       bool is_write, struct swai_mmu_xlat *out);
/*
 * Like swai_mmu_translate() for an access of 'len' bytes, but out->run may
 * span several pages: as many consecutive pages (at most
 * SWAI_MMU_RUN_PAGES, within one level-2 table) as translate the same way
 * to consecutive addresses.  One walk and one read of level-2 entries
 * instead of a walk per page; a fault is reported only for va's page (the
 * next call, at the end of the run, finds the next one).
 */
#define SWAI_MMU_RUN_PAGES  64
int swai_mmu_translate_run(const struct swai_core *s, uint32_t asid,
                           uint64_t va, uint64_t len, bool is_write,
                           struct swai_mmu_xlat *out);
/*
 * Report a failed access: latch it in MMU_FAULT_* (or set OVERFLOW if a
 * fault is already latched) and raise SWAI_IRQ_MMU_FAULT when the status
 * changed.  'reason' is a nonzero return of swai_mmu_translate().
 */
void swai_mmu_fault(struct swai_core *s, uint32_t asid, uint64_t va,
                    bool is_write, int reason);

/* For swai-core.c only. */
void swai_mmu_reset(struct swai_mmu *m);
/* Register access; false when 'off' is not a readable/writable MMU reg. */
bool swai_mmu_mmio_read(const struct swai_core *s, uint64_t off,
                        uint32_t *val);
bool swai_mmu_mmio_write(struct swai_core *s, uint64_t off, uint32_t v);
/* Bottom half: finish the probe started by PROBE_GO. */
void swai_mmu_bh(struct swai_core *s);

#endif /* SWAI_MMU_H */
