/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mmu.h - the device MMU of the SW-AI card (QEMU-independent).
 *
 * Every device access is made on behalf of a context (ASID) and translated
 * through that context's three-level page tables in host memory, which the
 * card reads over the bus (the glue's dma_read).  The register contract is the
 * "Device MMU" block of kernel/swai_regs.h; Documentation/datasheet.md §11
 * describes it in full.
 *
 * The model keeps no TLB: every translation walks the tables, so a change
 * to the tables is visible to the next access (drivers must still write
 * MMU_INVALIDATE, as real hardware caches).
 *
 * Use from the command processor (swai-mem.c), per page or run touched:
 *
 *     r = swai_mmu_translate(m, asid, va, is_write, &x);
 *     if (r) {
 *         swai_mmu_fault(m, asid, va, is_write, r);
 *         ... do not serve the access ...
 *     }
 *     ... access x.run bytes at x.addr (HBM-physical or host DMA) ...
 */
#ifndef SWAI_MMU_H
#define SWAI_MMU_H

#include <stdbool.h>
#include <stdint.h>

#include "swai_regs.h"
#include "swai-glue.h"
#include "swai-irq.h"
#include "swai-layout.h"

#define SWAI_MMU_PAGE_SIZE  (1ull << SWAI_MMU_PAGE_SHIFT)
#define SWAI_MMU_CTX_ENTRY  16      /* bytes per context-table entry */

/* The MMU: its registers (all zero after reset) and what it reaches. */
struct swai_mmu {
    uint64_t ctx_table;         /* CTX_TABLE_HI:LO, 4 KiB aligned */
    uint32_t fault_status;      /* SWAI_MMU_FAULT_* */
    uint64_t fault_va;          /* FAULT_VA_HI:LO */
    uint32_t probe_asid;        /* PROBE_ASID */
    uint64_t probe_va;          /* PROBE_VA_HI:LO */
    uint64_t probe_result;      /* PROBE_RESULT_HI:LO, 0 while running */
    /*
     * Bumped by MMU_INVALIDATE, a CTX_TABLE write and reset: translations
     * the card keeps (swai-mem.h) are valid while it stays the same.
     */
    uint32_t tlb_gen;
    /* The probe in flight, latched by PROBE_GO: swai_mmu_probe() runs it. */
    bool probe_pending;
    uint32_t go_asid;
    uint64_t go_va;
    bool go_write;
    /* Not registers: the bus, the memory layout, the interrupt lines. */
    const struct swai_glue *glue;
    const struct swai_layout *layout;
    struct swai_irq *irq;
};

/* A successful translation. */
struct swai_mmu_xlat {
    uint64_t addr;  /* where 'va' lands: HBM-physical offset or DMA address */
    uint64_t run;   /* bytes from addr to the end of the 4 KiB page */
    bool host;      /* addr is a host DMA address (SWAI_PTE_HOST) */
    bool fabric;    /* addr is HBM-physical on fabric card 'card' */
    unsigned card;
};

/*
 * Translate 'va' of context 'asid' for a read or a write.  Returns 0 and
 * fills 'out', or returns a fault reason (SWAI_MMU_R_*) and leaves 'out'
 * untouched.  Reads the tables over the bus; changes no state,
 * latches no fault and allocates nothing.
 */
int swai_mmu_translate(const struct swai_mmu *m, uint32_t asid, uint64_t va,
                       bool is_write, struct swai_mmu_xlat *out);
/* The level-2 entries of one table: what one window read may return. */
#define SWAI_MMU_WINDOW_PAGES 512
/*
 * The level-2 entries from va's page on to the end of its level-2 table,
 * read at once after one walk: e[0] is va's page's, *n how many (1 if the
 * table cannot be read in one go).  0, or the fault reason of the walk
 * (SWAI_MMU_R_CTX, _RANGE, _WALK, _NOT_PRESENT of a table).  Nothing is
 * checked of the entries themselves: swai_mmu_run() does, as they are used.
 */
int swai_mmu_read_window(const struct swai_mmu *m, uint32_t asid, uint64_t va,
                         uint64_t e[SWAI_MMU_WINDOW_PAGES], unsigned *n);
/*
 * Like swai_mmu_translate() for an access of 'len' bytes at va, from the
 * n level-2 entries e[] of va's page and those after it: out->run spans
 * as many consecutive pages as translate the same way to consecutive
 * addresses.  A fault is reported only for va's page (the next call, at
 * the end of the run, finds the next one).
 */
int swai_mmu_run(const struct swai_mmu *m, const uint64_t *e, unsigned n,
                 uint64_t va, uint64_t len, bool is_write,
                 struct swai_mmu_xlat *out);
/* The checks on a level-2 entry for an access: 0 or the fault reason. */
int swai_mmu_leaf(const struct swai_mmu *m, uint64_t e, bool is_write);

/*
 * Report a failed access: latch it in MMU_FAULT_* (or set OVERFLOW if a
 * fault is already latched) and raise SWAI_IRQ_MMU_FAULT when the status
 * changed.  'reason' is a nonzero return of swai_mmu_translate().
 */
void swai_mmu_fault(struct swai_mmu *m, uint32_t asid, uint64_t va,
                    bool is_write, int reason);

void swai_mmu_init(struct swai_mmu *m, const struct swai_glue *glue,
                   const struct swai_layout *layout, struct swai_irq *irq);
/* Device reset: every register back to 0, no probe pending. */
void swai_mmu_reset(struct swai_mmu *m);
/*
 * Register access; false when 'off' is not a readable/writable MMU reg.
 * A write to PROBE_GO sets probe_pending: the walk reads host memory, so
 * the card runs it later (in QEMU, from a bottom half).
 */
bool swai_mmu_mmio_read(const struct swai_mmu *m, uint64_t off,
                        uint32_t *val);
bool swai_mmu_mmio_write(struct swai_mmu *m, uint64_t off, uint32_t v);
/* Run the probe PROBE_GO started. */
void swai_mmu_probe(struct swai_mmu *m);

#endif /* SWAI_MMU_H */
