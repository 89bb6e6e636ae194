/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake-glue.h - the stand-in for the QEMU glue that the device model's unit
 * tests drive the card through: it records interrupts, bottom-half kicks and
 * MPE wake-ups, serves DMA from a fake host memory and runs a fake wall
 * clock.  Test-only, header-only.
 */
#ifndef SWAI_FAKE_GLUE_H
#define SWAI_FAKE_GLUE_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-card.h"
#include "tap.h"

#define MIB (1024ull * 1024)

/* --- a fake glue that records the callbacks --- */

static struct {
    unsigned notified[SWAI_MSIX_VECTORS];
    unsigned bad_vector;
    unsigned kicks;
    unsigned wakes;
    unsigned dma_reads;
    unsigned dma_writes;
    unsigned unlocks, locks;
    unsigned guest_errors;
} cb;
/*
 * Runs while the core has "dropped the lock" (ops->unlock .. ops->lock), as
 * another thread would; a test sets it to reset the card in that window.
 */
static void (*fake_in_window)(void);

/*
 * Fake host memory behind dma_read/dma_write: HOST_SIZE bytes at DMA
 * address HOST_BASE; anything outside it, and the page at dma_fail_page (if
 * set), fails like a master abort.
 */
#define HOST_BASE   0x100000000ull
#define HOST_SIZE   (8 * 1024 * 1024)
static uint8_t host_mem[HOST_SIZE];
static uint64_t dma_fail_page;
/* The fake wall clock: advances 1 us every time the core reads it. */
static uint64_t fake_wall;

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

static inline void fake_wake(void *opaque)
{
    (void)opaque;
    cb.wakes++;
}

static inline int fake_dma_ok(uint64_t addr, size_t len)
{
    if (addr < HOST_BASE || addr - HOST_BASE > HOST_SIZE ||
        len > HOST_SIZE - (addr - HOST_BASE)) {
        return 0;
    }
    /* Any page of the access may be the failing one. */
    if (dma_fail_page && len && (addr & ~0xfffull) <= dma_fail_page &&
        ((addr + len - 1) & ~0xfffull) >= dma_fail_page) {
        return 0;
    }
    return 1;
}

static inline int fake_dma_read(void *opaque, uint64_t addr, void *buf,
                                size_t len)
{
    (void)opaque;
    cb.dma_reads++;
    if (!fake_dma_ok(addr, len)) {
        return -1;
    }
    memcpy(buf, host_mem + (addr - HOST_BASE), len);
    return 0;
}

static inline int fake_dma_write(void *opaque, uint64_t addr, const void *buf,
                                 size_t len)
{
    (void)opaque;
    cb.dma_writes++;
    if (!fake_dma_ok(addr, len)) {
        return -1;
    }
    memcpy(host_mem + (addr - HOST_BASE), buf, len);
    return 0;
}

static inline uint64_t fake_wall_ns(void *opaque)
{
    (void)opaque;
    fake_wall += 1000;
    return fake_wall;
}

static inline void fake_unlock(void *opaque)
{
    void (*fn)(void) = fake_in_window;

    (void)opaque;
    if (cb.unlocks != cb.locks) {
        printf("Bail out! ops->unlock without ops->lock\n");
        exit(1);
    }
    cb.unlocks++;
    if (fn) {
        fake_in_window = NULL;      /* once */
        fn();
    }
}

static inline void fake_lock(void *opaque)
{
    (void)opaque;
    cb.locks++;
    if (cb.locks != cb.unlocks) {
        printf("Bail out! ops->lock without ops->unlock\n");
        exit(1);
    }
}

/* Misuse the card reports (QEMU: LOG_GUEST_ERROR); V=1 prints them. */
static inline void fake_guest_error(void *opaque, const char *msg)
{
    (void)opaque;
    cb.guest_errors++;
    if (getenv("V")) {
        printf("# guest error: %s\n", msg);
    }
}

static const struct swai_glue_ops fake_ops = {
    .notify = fake_notify,
    .kick = fake_kick,
    .wake = fake_wake,
    .dma_read = fake_dma_read,
    .dma_write = fake_dma_write,
    .wall_ns = fake_wall_ns,
    .unlock = fake_unlock,
    .lock = fake_lock,
    .guest_error = fake_guest_error,
};

static inline unsigned total_notifies(void)
{
    unsigned i, n = cb.bad_vector;

    for (i = 0; i < SWAI_MSIX_VECTORS; i++) {
        n += cb.notified[i];
    }
    return n;
}

static inline void make(struct swai_card *s, uint32_t hbm, uint32_t local,
                 uint32_t cpes, uint32_t ldm)
{
    struct swai_props p;
    const char *why;

    swai_card_props_init(&p);    /* the timing model's defaults */
    p.hbm_mb = hbm;
    p.local_mb = local;
    p.cpes = cpes;
    p.ldm_kb = ldm;
    why = swai_card_props_validate(&p);

    if (why) {
        printf("Bail out! valid props rejected: %s\n", why);
        exit(1);
    }
    memset(&cb, 0, sizeof(cb));
    swai_card_init(s, &p, &fake_ops, NULL);
}

static inline void make_default(struct swai_card *s)
{
    struct swai_props p;

    swai_card_props_init(&p);
    make(s, p.hbm_mb, p.local_mb, p.cpes, p.ldm_kb);
}

static inline uint32_t rd(struct swai_card *s, uint64_t off)
{
    return swai_card_mmio_read(s, off, 4);
}

static inline void wr(struct swai_card *s, uint64_t off, uint32_t v)
{
    swai_card_mmio_write(s, off, v, 4);
}

/* Clear ERROR and IRQ_STATUS so a test sees only its own effects. */
static inline void quiesce(struct swai_card *s)
{
    wr(s, SWAI_REG_ERROR, ~0u);
    wr(s, SWAI_REG_IRQ_STATUS, ~0u);
    memset(&cb, 0, sizeof(cb));
}

static inline void check_reset_state(struct swai_card *s, uint32_t hbm,
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
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_COMPLETED_LO)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_COMPLETED_HI)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_CLOCK_LO)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_CLOCK_HI)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_JOBS)), 0);
        CHECK_EQ(rd(s, SWAI_QUEUE_REG(cg, SWAI_Q_FENCES)), 0);
    }
    CHECK_EQ(rd(s, SWAI_REG_CLOCK_LO), 0);
    CHECK_EQ(rd(s, SWAI_REG_CLOCK_HI), 0);
    CHECK_EQ(swai_layout_global_bytes(&s->layout), SWAI_NUM_CG * (hbm - local) * MIB);
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
