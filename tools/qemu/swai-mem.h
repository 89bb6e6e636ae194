/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mem.h - how a core-group program reaches memory (QEMU-independent).
 *
 * A program names memory by device VA of its job's context.  Every 4 KiB
 * page is translated by the device MMU (swai-mmu.h); a page on the card is
 * read or written through the host pointer to HBM, a host page with
 * ops->dma_read/dma_write.  The checks, in this order, give the job's error:
 * an injected MMU fault (SWAI_DESC_INJECT_MMU_FAULT, the job's first data
 * access), a translation fault (SWAI_JOB_ERR_MMU; recorded in the job and
 * latched in MMU_FAULT_* when the job ends), another CG's Local segment
 * without SWAI_DESC_PEER (SWAI_JOB_ERR_FOREIGN, not an MMU fault), a failed
 * host DMA (SWAI_JOB_ERR_DMA).  The failing VA goes to job->fault_va.
 * These functions change nothing but *j, so they may run without the lock
 * on a copy of the job (swai-cp.h).
 */
#ifndef SWAI_MEM_H
#define SWAI_MEM_H

#include <stdbool.h>
#include <stdint.h>

#include "swai-timing.h"

struct swai_core;
struct swai_job;

/* Which tier a page is on, for the timing model. */
#define SWAI_TIER_LOCAL     0   /* the CG's own Local-HBM */
#define SWAI_TIER_GLOBAL    1   /* a Cross segment (Global-HBM) */
#define SWAI_TIER_HOST      2   /* host memory over PCIe */
#define SWAI_TIER_PEER      3   /* another CG's Local-HBM (SWAI_DESC_PEER) */

struct swai_memloc {
    unsigned tier;
    bool host;
    uint64_t addr;              /* HBM-physical or host DMA address */
    uint64_t run;               /* bytes served alike from addr on */
};

/*
 * Translate and check an access of up to 'len' bytes at 'va'; returns
 * SWAI_JOB_OK or an error.  m->run is how many bytes from va are served
 * the same way (at least to the end of va's page).
 */
int swai_mem_locate(struct swai_core *s, unsigned cg, struct swai_job *j,
                    uint64_t va, uint64_t len, bool write,
                    struct swai_memloc *m);
/*
 * Move 'len' bytes between VA 'va' and 'buf' (write: buf -> va), page by
 * page.  Adds the bytes to acct[] per path used (if acct is not NULL).
 * Returns SWAI_JOB_OK or an error; '*moved' says how far it got.
 */
int swai_mem_rw(struct swai_core *s, unsigned cg, struct swai_job *j,
                uint64_t va, uint8_t *buf, uint64_t len, bool write,
                uint64_t acct[SWAI_RES_N], uint64_t *moved);

#endif /* SWAI_MEM_H */
