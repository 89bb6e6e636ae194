/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mem.c - device addresses of jobs through the MMU and the Local-HBM
 * privacy rule (swai-mem.h).
 */
#include "swai-atomic.h"
#include "swai-mem.h"

#define PAGE_MASK   (SWAI_MMU_PAGE_SIZE - 1)

/* Does t hold va's page's entry for asid, read under the MMU's gen? */
static bool tlb_hit(const struct swai_mem_tlb *t, uint32_t gen, uint32_t asid,
                    uint64_t page)
{
    return t->n && t->gen == gen && t->asid == asid && page >= t->va0 &&
           page - t->va0 < (uint64_t)t->n * SWAI_MMU_PAGE_SIZE;
}

/* Read the window of va's page into t. */
static int fill(struct swai_mem *m, struct swai_mem_tlb *t, uint32_t gen,
                uint32_t asid, uint64_t va)
{
    int r = swai_mmu_read_window(m->mmu, asid, va, t->e, &t->n);

    if (r) {
        t->n = 0;               /* a fault is never kept */
        return r;
    }
    t->gen = gen;
    t->asid = asid;
    t->va0 = va & ~PAGE_MASK;
    return 0;
}

/*
 * swai_mmu_run() on CG cg's TLB, refilling a way on a miss.  An entry that
 * fails its checks is read again before it faults: the driver makes
 * entries valid without invalidating (datasheet §11.6).
 */
static int translate(struct swai_mem *m, unsigned cg, uint32_t asid,
                     uint64_t va, uint64_t len, bool write,
                     struct swai_mmu_xlat *x)
{
    uint32_t gen = qatomic_read_u32(&m->mmu->tlb_gen);
    uint64_t page = va & ~PAGE_MASK, i;
    struct swai_mem_tlb *t = NULL;
    unsigned w;
    int r;

    for (w = 0; w < SWAI_MEM_TLB_WAYS && !t; w++) {
        if (tlb_hit(&m->tlb[cg][w], gen, asid, page)) {
            t = &m->tlb[cg][w];
        }
    }
    if (t) {
        i = (page - t->va0) / SWAI_MMU_PAGE_SIZE;
        r = swai_mmu_run(m->mmu, t->e + i, t->n - (unsigned)i, va, len, write,
                         x);
        if (!r) {
            return 0;
        }
    } else {
        w = m->tlb_next[cg];
        m->tlb_next[cg] = (w + 1) % SWAI_MEM_TLB_WAYS;
        t = &m->tlb[cg][w];
    }
    r = fill(m, t, gen, asid, va);
    return r ? r : swai_mmu_run(m->mmu, t->e, t->n, va, len, write, x);
}

int swai_mem_locate(struct swai_mem *m, unsigned cg,
                    const struct swai_engine_job *j, uint64_t va,
                    uint64_t len, bool write, struct swai_place *p,
                    struct swai_fault *f)
{
    uint64_t hbm = swai_layout_hbm_bytes(m->layout);
    uint64_t local = swai_layout_local_bytes(m->layout), boundary, ctl, off;
    struct swai_mmu_xlat x;
    int r;

    r = translate(m, cg, j->asid, va, len, write, &x);
    if (!r && x.fabric) {
        r = m->fabric ? swai_fabric_locate(m->fabric, m->fabric_card, x.card,
                                           x.addr, x.run, p) :
                        SWAI_MMU_R_BAD_TARGET;
        if (!r) {
            return SWAI_JOB_OK;
        }
    }
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
    ctl = x.addr / hbm;
    off = x.addr - ctl * hbm;
    if (off < local) {
        if (ctl != cg && !j->peer) {
            f->va = va;
            return SWAI_JOB_ERR_FOREIGN;
        }
        p->tier = ctl == cg ? SWAI_TIER_LOCAL : SWAI_TIER_PEER;
        boundary = x.addr - off + local;
    } else {
        p->tier = SWAI_TIER_GLOBAL;
        boundary = x.addr - off + hbm;
    }
    /* A run stays on one tier of one controller (it may cross pages). */
    if (x.addr + p->run > boundary) {
        p->run = boundary - x.addr;
    }
    return SWAI_JOB_OK;
}
