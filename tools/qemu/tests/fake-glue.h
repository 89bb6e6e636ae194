/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake-glue.h - the stand-in for the QEMU glue that the device-core unit
 * tests drive the core through: it records interrupts and bottom-half kicks
 * and serves DMA reads from a fake host memory.  Test-only, header-only.
 */
#ifndef SWAI_FAKE_GLUE_H
#define SWAI_FAKE_GLUE_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-core.h"
#include "tap.h"

#define MIB (1024ull * 1024)

/* --- a fake glue that records the callbacks --- */

static struct {
    unsigned notified[SWAI_MSIX_VECTORS];
    unsigned bad_vector;
    unsigned kicks;
    unsigned dma_reads;
} cb;

/*
 * Fake host memory behind dma_read: HOST_SIZE bytes at DMA address
 * HOST_BASE; anything outside it, and the page at dma_fail_page (if set),
 * fails like a master abort.
 */
#define HOST_BASE   0x100000000ull
#define HOST_SIZE   (1024 * 1024)
static uint8_t host_mem[HOST_SIZE];
static uint64_t dma_fail_page;

static inline void fake_notify(void *opaque, unsigned vector)
{
    (void)opaque;
    if (vector < SWAI_MSIX_VECTORS) {
        cb.notified[vector]++;
    } else {
        cb.bad_vector++;
    }
}

static inline void fake_kick(void *opaque)
{
    (void)opaque;
    cb.kicks++;
}

static inline int fake_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    (void)opaque;
    cb.dma_reads++;
    if (addr < HOST_BASE || addr - HOST_BASE > HOST_SIZE ||
        len > HOST_SIZE - (addr - HOST_BASE)) {
        return -1;
    }
    if (dma_fail_page && (addr & ~0xfffull) == dma_fail_page) {
        return -1;
    }
    memcpy(buf, host_mem + (addr - HOST_BASE), len);
    return 0;
}

static const struct swai_core_ops fake_ops = {
    .notify = fake_notify,
    .kick = fake_kick,
    .dma_read = fake_dma_read,
};

static inline unsigned total_notifies(void)
{
    unsigned i, n = cb.bad_vector;

    for (i = 0; i < SWAI_MSIX_VECTORS; i++) {
        n += cb.notified[i];
    }
    return n;
}

static inline void make(struct swai_core *s, uint32_t hbm, uint32_t local,
                 uint32_t cpes, uint32_t ldm)
{
    struct swai_props p = {
        .hbm_mb = hbm, .local_mb = local, .cpes = cpes, .ldm_kb = ldm,
    };
    const char *why = swai_props_validate(&p);

    if (why) {
        printf("Bail out! valid props rejected: %s\n", why);
        exit(1);
    }
    memset(&cb, 0, sizeof(cb));
    swai_core_init(s, &p, &fake_ops, NULL);
}

static inline void make_default(struct swai_core *s)
{
    struct swai_props p;

    swai_props_init(&p);
    make(s, p.hbm_mb, p.local_mb, p.cpes, p.ldm_kb);
}

static inline uint32_t rd(struct swai_core *s, uint64_t off)
{
    return swai_core_mmio_read(s, off, 4);
}

static inline void wr(struct swai_core *s, uint64_t off, uint32_t v)
{
    swai_core_mmio_write(s, off, v, 4);
}

/* Clear ERROR and IRQ_STATUS so a test sees only its own effects. */
static inline void quiesce(struct swai_core *s)
{
    wr(s, SWAI_REG_ERROR, ~0u);
    wr(s, SWAI_REG_IRQ_STATUS, ~0u);
    memset(&cb, 0, sizeof(cb));
}

static inline void check_reset_state(struct swai_core *s, uint32_t hbm,
                              uint32_t local, uint32_t cpes, uint32_t ldm)
{
    unsigned cg;

    CHECK_EQ(rd(s, SWAI_REG_ID), SWAI_ID_MAGIC);
    CHECK_EQ(rd(s, SWAI_REG_STATUS), SWAI_STATUS_READY);
    CHECK_EQ(rd(s, SWAI_REG_SCRATCH), 0);
    CHECK_EQ(rd(s, SWAI_REG_ERROR), 0);
    CHECK_EQ(rd(s, SWAI_REG_NUM_CG), SWAI_NUM_CG);
    CHECK_EQ(rd(s, SWAI_REG_CPES_PER_CG), cpes);
    CHECK_EQ(rd(s, SWAI_REG_LDM_SIZE), ldm * 1024);
    CHECK_EQ(rd(s, SWAI_REG_GLOBAL_GRANULE), SWAI_GLOBAL_GRANULE);
    CHECK_EQ(rd(s, SWAI_REG_HBM_PER_CG_MB), hbm);
    CHECK_EQ(rd(s, SWAI_REG_LOCAL_PER_CG_MB), local);
    CHECK_EQ(rd(s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_RESET_DONE);
    CHECK_EQ(rd(s, SWAI_REG_IRQ_ENABLE), 0);
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_LO)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_HI)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_SIZE)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_CTRL)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_HEAD)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_TAIL)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_STATUS)),
                 SWAI_Q_STATUS_IDLE);
    }
    CHECK_EQ(swai_core_global_bytes(s), SWAI_NUM_CG * (hbm - local) * MIB);
    CHECK_EQ(rd(s, SWAI_REG_MMU_CTX_TABLE_LO), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_CTX_TABLE_HI), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_CONTEXTS), SWAI_MMU_CONTEXTS);
    CHECK_EQ(rd(s, SWAI_REG_MMU_FAULT_STATUS), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_FAULT_VA_LO), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_FAULT_VA_HI), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_PROBE_ASID), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_PROBE_VA_LO), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_PROBE_VA_HI), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_PROBE_RESULT_LO), 0);
    CHECK_EQ(rd(s, SWAI_REG_MMU_PROBE_RESULT_HI), 0);
}

#endif /* SWAI_FAKE_GLUE_H */
