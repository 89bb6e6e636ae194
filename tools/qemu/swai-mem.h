/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mem.h - what a device address of a job is, on the card: the
 * engine's locate() (tools/card/swai-engine.h) for the QEMU device.
 *
 * Every 4 KiB page is translated by the device MMU of the job's context
 * (swai-mmu.h); a page on the card is reached through the host pointer to
 * HBM, a host page over the bus.  The checks, in this order, give the
 * job's error: a translation fault (SWAI_JOB_ERR_MMU; the fault is latched
 * in MMU_FAULT_* when the job ends), another CG's Local segment without
 * SWAI_DESC_PEER (SWAI_JOB_ERR_FOREIGN, not an MMU fault).  A
 * SWAI_PTE_FABRIC page is reached on its card through the fabric
 * (swai-fabric.h); a card that is absent, unreachable or smaller faults
 * as SWAI_MMU_R_BAD_TARGET.
 *
 * The card keeps, per core group, the level-2 entries of the last two
 * windows it walked to (its TLB, datasheet §11.6: a copy's source and its
 * destination), each up to the end of a level-2 table, until the driver
 * writes MMU_INVALIDATE or CTX_TABLE: a run of pages costs one walk per
 * 2 MiB, not one per page.  Only the MPE thread translates.
 */
#ifndef SWAI_MEM_H
#define SWAI_MEM_H

#include "swai-engine.h"
#include "swai-fabric.h"
#include "swai-layout.h"
#include "swai-mmu.h"

#define SWAI_MEM_TLB_WAYS   2

struct swai_mem {
    const struct swai_mmu *mmu;
    const struct swai_layout *layout;
    uint8_t *hbm;               /* HBM-physical space, as BAR2 shows it */
    struct swai_fabric *fabric; /* NULL: on no fabric */
    unsigned fabric_card;       /* this card's index on it */
    struct swai_mem_tlb {
        uint32_t gen;           /* the MMU's tlb_gen it was read under */
        uint32_t asid;
        uint64_t va0;           /* the page of e[0] */
        unsigned n;             /* 0: empty */
        uint64_t e[SWAI_MMU_WINDOW_PAGES];
    } tlb[SWAI_NUM_CG][SWAI_MEM_TLB_WAYS];
    uint8_t tlb_next[SWAI_NUM_CG];  /* the way to refill next */
};

int swai_mem_locate(struct swai_mem *m, unsigned cg,
                    const struct swai_engine_job *j, uint64_t va,
                    uint64_t len, bool write, struct swai_place *p,
                    struct swai_fault *f);

#endif /* SWAI_MEM_H */
