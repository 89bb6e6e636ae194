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
 * SWAI_DESC_PEER (SWAI_JOB_ERR_FOREIGN, not an MMU fault).  Nothing but the
 * fault record changes, so it runs without the lock.
 */
#ifndef SWAI_MEM_H
#define SWAI_MEM_H

#include "swai-engine.h"
#include "swai-layout.h"
#include "swai-mmu.h"

struct swai_mem {
    const struct swai_mmu *mmu;
    const struct swai_layout *layout;
    uint8_t *hbm;               /* HBM-physical space, as BAR2 shows it */
};

int swai_mem_locate(const struct swai_mem *m, unsigned cg,
                    const struct swai_engine_job *j, uint64_t va,
                    uint64_t len, bool write, struct swai_place *p,
                    struct swai_fault *f);

#endif /* SWAI_MEM_H */
