/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mem.c - device addresses of jobs through the MMU and the Local-HBM
 * privacy rule (swai-mem.h).
 */
#include "swai-mem.h"

int swai_mem_locate(const struct swai_mem *m, unsigned cg,
                    const struct swai_engine_job *j, uint64_t va,
                    uint64_t len, bool write, struct swai_place *p,
                    struct swai_fault *f)
{
    uint64_t hbm = swai_layout_hbm_bytes(m->layout);
    uint64_t local = swai_layout_local_bytes(m->layout), boundary;
    struct swai_mmu_xlat x;
    int r;

    r = swai_mmu_translate_run(m->mmu, j->asid, va, len, write, &x);
    if (r) {
        /* Latched when the job ends, with the lock held. */
        f->mmu_reason = r;
        f->mmu_write = write;
        f->va = va;
        return SWAI_JOB_ERR_MMU;
    }
    p->host = x.host;
    p->addr = x.addr;
    p->run = x.run;
    p->dma = x.host;
    p->ptr = x.host ? NULL : m->hbm + x.addr;
    if (x.host) {
        p->tier = SWAI_TIER_HOST;
        return SWAI_JOB_OK;
    }
    /* A page never straddles controllers nor the Local/Cross boundary. */
    if (x.addr % hbm < local) {
        if (x.addr / hbm != cg && !j->peer) {
            f->va = va;
            return SWAI_JOB_ERR_FOREIGN;
        }
        p->tier = x.addr / hbm == cg ? SWAI_TIER_LOCAL : SWAI_TIER_PEER;
        boundary = x.addr - x.addr % hbm + local;
    } else {
        p->tier = SWAI_TIER_GLOBAL;
        boundary = x.addr - x.addr % hbm + hbm;
    }
    /* A run stays on one tier of one controller (it may cross pages). */
    if (x.addr + p->run > boundary) {
        p->run = boundary - x.addr;
    }
    return SWAI_JOB_OK;
}
