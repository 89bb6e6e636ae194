/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mem.c - device-VA accesses of core-group programs: MMU, the
 * Local-HBM privacy rule, HBM and host memory (see swai-mem.h).
 */
#include <string.h>

#include "swai-core.h"
#include "swai-mem.h"

int swai_mem_locate(struct swai_core *s, unsigned cg, struct swai_job *j,
                    uint64_t va, uint64_t len, bool write,
                    struct swai_memloc *m)
{
    struct swai_mmu_xlat x;
    uint64_t hbm = swai_core_hbm_bytes(s), boundary;
    int r;

    /* Injected: looks to the driver exactly like a missing page. */
    r = j->inject_mmu ? SWAI_MMU_R_NOT_PRESENT
                      : swai_mmu_translate_run(s, j->asid, va, len, write, &x);
    if (r) {
        /* Latched when the job ends, with the lock held. */
        j->inject_mmu = false;
        j->mmu_reason = r;
        j->mmu_write = write;
        j->fault_va = va;
        return SWAI_JOB_ERR_MMU;
    }
    m->host = x.host;
    m->addr = x.addr;
    m->run = x.run;
    if (x.host) {
        m->tier = SWAI_TIER_HOST;
        return SWAI_JOB_OK;
    }
    /* A page never straddles controllers nor the Local/Cross boundary. */
    if (x.addr % hbm < swai_core_local_bytes(s)) {
        if (x.addr / hbm != cg && !j->peer) {
            j->fault_va = va;
            return SWAI_JOB_ERR_FOREIGN;
        }
        m->tier = x.addr / hbm == cg ? SWAI_TIER_LOCAL : SWAI_TIER_PEER;
        boundary = x.addr - x.addr % hbm + swai_core_local_bytes(s);
    } else {
        m->tier = SWAI_TIER_GLOBAL;
        boundary = x.addr - x.addr % hbm + hbm;
    }
    /* A run stays on one tier of one controller (it may cross pages). */
    if (x.addr + m->run > boundary) {
        m->run = boundary - x.addr;
    }
    return SWAI_JOB_OK;
}

static void account(uint64_t acct[SWAI_RES_N], unsigned tier, bool write,
                    uint64_t n)
{
    if (!acct) {
        return;
    }
    switch (tier) {
    case SWAI_TIER_LOCAL:
        acct[write ? SWAI_RES_LOCAL_WR : SWAI_RES_LOCAL_RD] += n;
        break;
    case SWAI_TIER_GLOBAL:
        acct[write ? SWAI_RES_RING_WR : SWAI_RES_RING_RD] += n;
        acct[SWAI_RES_RING_TOTAL] += n;
        break;
    case SWAI_TIER_PEER:
        /*
         * Over the ring like Global-HBM, and through the peer's Local port.
         * One transfer reads one side and writes the other, so the peer's
         * port can stand in the CG's own LOCAL_RD/LOCAL_WR slot: the chunk
         * then also lasts at least bytes / local_mbps.  Contention at the
         * peer's port with the peer's own traffic is not modeled.
         */
        acct[write ? SWAI_RES_RING_WR : SWAI_RES_RING_RD] += n;
        acct[SWAI_RES_RING_TOTAL] += n;
        acct[write ? SWAI_RES_LOCAL_WR : SWAI_RES_LOCAL_RD] += n;
        break;
    default:
        acct[write ? SWAI_RES_PCIE_WR : SWAI_RES_PCIE_RD] += n;
        break;
    }
}

int swai_mem_rw(struct swai_core *s, unsigned cg, struct swai_job *j,
                uint64_t va, uint8_t *buf, uint64_t len, bool write,
                uint64_t acct[SWAI_RES_N], uint64_t *moved)
{
    struct swai_memloc m;
    uint64_t done = 0;
    bool by_page = false;   /* after a failed run: find the failing page */
    int r = SWAI_JOB_OK;

    while (done < len) {
        uint64_t page_rest = SWAI_MMU_PAGE_SIZE - ((va + done) &
                                                   (SWAI_MMU_PAGE_SIZE - 1));
        uint64_t n;

        r = swai_mem_locate(s, cg, j, va + done, len - done, write, &m);
        if (r) {
            break;
        }
        n = len - done < m.run ? len - done : m.run;
        if (by_page && n > page_rest) {
            n = page_rest;
        }
        if (!m.host) {
            if (write) {
                memcpy(s->hbm + m.addr, buf + done, n);
            } else {
                memcpy(buf + done, s->hbm + m.addr, n);
            }
        } else if (write ? s->ops->dma_write(s->opaque, m.addr, buf + done, n)
                         : s->ops->dma_read(s->opaque, m.addr, buf + done, n)) {
            if (n > page_rest) {
                by_page = true;
                continue;
            }
            j->fault_va = va + done;
            r = SWAI_JOB_ERR_DMA;
            break;
        }
        account(acct, m.tier, write, n);
        done += n;
    }
    if (moved) {
        *moved = done;
    }
    return r;
}
