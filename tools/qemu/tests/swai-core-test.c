/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-core-test.c - host unit test of the SW-AI device core (no QEMU):
 * properties, registers, interrupts, reset and the HBM address map.
 *
 * Drives swai-core.c through its public API exactly as the QEMU glue does and
 * prints TAP.  Every expectation is a sentence of Documentation/datasheet.md.
 */
#include "fake-glue.h"
#include "tap.h"

/* --- tests --- */

static void test_props_defaults(void)
{
    struct swai_props p;

    swai_card_props_init(&p);
    CHECK_EQ(p.hbm_mb, 256);
    CHECK_EQ(p.local_mb, SWAI_LOCAL_MB_AUTO);
    CHECK_EQ(p.cpes, 32);
    CHECK_EQ(p.ldm_kb, 256);
    CHECK(swai_card_props_validate(&p) == NULL);
    CHECK_EQ(p.local_mb, 128);     /* auto = half of hbm-mb */
    p.hbm_mb = 1;
    p.local_mb = SWAI_LOCAL_MB_AUTO;
    CHECK(swai_card_props_validate(&p) == NULL);
    CHECK_EQ(p.local_mb, 0);       /* half of 1 MiB, rounded down */
}

static const char *validate(uint32_t hbm, uint32_t local, uint32_t cpes,
                            uint32_t ldm)
{
    struct swai_props p;

    swai_card_props_init(&p);
    p.hbm_mb = hbm;
    p.local_mb = local;
    p.cpes = cpes;
    p.ldm_kb = ldm;
    return swai_card_props_validate(&p);
}

static void test_props_validation(void)
{
    const char *why;

    CHECK(validate(1, 0, 1, 16) == NULL);
    CHECK(validate(16384, 16384, 64, 1024) == NULL);
    CHECK(validate(256, 256, 32, 256) == NULL);
    CHECK(validate(256, 0, 32, 256) == NULL);

    why = validate(0, 0, 32, 256);
    CHECK(why && strstr(why, "hbm-mb"));
    CHECK(validate(16385, 0, 32, 256) != NULL);
    why = validate(256, 0, 0, 256);
    CHECK(why && strstr(why, "cpes"));
    CHECK(validate(256, 0, 65, 256) != NULL);
    why = validate(256, 0, 32, 8);
    CHECK(why && strstr(why, "ldm-kb"));
    CHECK(validate(256, 0, 32, 2048) != NULL);
    CHECK(validate(256, 0, 32, 48) != NULL);        /* not a power of 2 */
    why = validate(256, 257, 32, 256);
    CHECK(why && strstr(why, "local-mb"));
    CHECK(validate(256, 999, 32, 256) != NULL);
}


static void test_reset_values(void)
{
    static const uint32_t sets[][4] = {
        { 256, 128, 32, 256 },
        { 128, 32, 16, 64 },
        { 1, 0, 1, 16 },
        { 16384, 16384, 64, 1024 },
        { 300, 300, 7, 512 },
    };
    struct swai_card s;
    unsigned i;

    for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        make(&s, sets[i][0], sets[i][1], sets[i][2], sets[i][3]);
        check_reset_state(&s, sets[i][0], sets[i][1], sets[i][2],
                          sets[i][3]);
        CHECK_EQ(total_notifies(), 0);
        CHECK_EQ(cb.kicks, 0);
    }
    make_default(&s);
    check_reset_state(&s, 256, 128, 32, 256);
}

static void test_identity(void)
{
    struct swai_card s;

    make_default(&s);
    CHECK_EQ(rd(&s, SWAI_REG_ID), 0x53574149);
    CHECK_EQ(rd(&s, SWAI_REG_VERSION), 0x00010000);
    CHECK_EQ(rd(&s, SWAI_REG_CAPS), SWAI_CAP_MSIX | SWAI_CAP_APERTURE |
             SWAI_CAP_PARTITION | SWAI_CAP_SWI | SWAI_CAP_MMU |
             SWAI_CAP_QUEUES | SWAI_CAP_TIMING | SWAI_CAP_PEER |
             SWAI_CAP_COMPUTE | SWAI_CAP_FABRIC | SWAI_CAP_NIC);
    CHECK_EQ(rd(&s, SWAI_REG_CAPS), 0x7ff);
    CHECK_EQ(rd(&s, SWAI_REG_GLOBAL_BASE_LO), (uint32_t)SWAI_GLOBAL_BASE);
    CHECK_EQ(rd(&s, SWAI_REG_GLOBAL_BASE_HI), SWAI_GLOBAL_BASE >> 32);
    CHECK_EQ(((uint64_t)rd(&s, SWAI_REG_GLOBAL_BASE_HI) << 32) |
             rd(&s, SWAI_REG_GLOBAL_BASE_LO), SWAI_GLOBAL_BASE);
}

static void test_scratch(void)
{
    struct swai_card s;

    make_default(&s);
    quiesce(&s);
    wr(&s, SWAI_REG_SCRATCH, 0xdeadbeef);
    CHECK_EQ(rd(&s, SWAI_REG_SCRATCH), 0xdeadbeef);
    wr(&s, SWAI_REG_SCRATCH, 0);
    CHECK_EQ(rd(&s, SWAI_REG_SCRATCH), 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);
    CHECK_EQ(total_notifies(), 0);
}

static void test_readonly(void)
{
    static const uint32_t ro[] = {
        SWAI_REG_ID, SWAI_REG_VERSION, SWAI_REG_CAPS, SWAI_REG_STATUS,
        SWAI_REG_NUM_CG, SWAI_REG_CPES_PER_CG, SWAI_REG_LDM_SIZE,
        SWAI_REG_GLOBAL_GRANULE, SWAI_REG_HBM_PER_CG_MB,
        SWAI_REG_GLOBAL_BASE_LO, SWAI_REG_GLOBAL_BASE_HI,
    };
    struct swai_card s;
    uint32_t before;
    unsigned i;

    make(&s, 128, 32, 16, 64);
    for (i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
        quiesce(&s);
        before = rd(&s, ro[i]);
        wr(&s, ro[i], ~before);
        CHECK_EQ(rd(&s, ro[i]), before);
        CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
        CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_ERROR);
    }
    CHECK_EQ(cb.kicks, 0);
}

static void test_error_rw1c(void)
{
    struct swai_card s;

    make_default(&s);
    quiesce(&s);
    wr(&s, SWAI_REG_RESET, 0);                  /* BAD_RESET */
    wr(&s, SWAI_REG_LOCAL_PER_CG_MB, 100000);   /* BAD_PARTITION */
    CHECK_EQ(rd(&s, SWAI_REG_ERROR),
             SWAI_ERR_BAD_RESET | SWAI_ERR_BAD_PARTITION);
    wr(&s, SWAI_REG_ERROR, 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR),
             SWAI_ERR_BAD_RESET | SWAI_ERR_BAD_PARTITION);
    wr(&s, SWAI_REG_ERROR, SWAI_ERR_BAD_RESET);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_PARTITION);
    wr(&s, SWAI_REG_ERROR, ~0u);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);
}

static void test_partition_valid(void)
{
    static const uint32_t ok[] = { 0, 1, 100, 127, 128, 32 };
    struct swai_card s;
    unsigned i;

    make(&s, 128, 32, 32, 256);
    quiesce(&s);
    for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        if (ok[i] % SWAI_PART_ALIGN_MB) {
            continue;
        }
        wr(&s, SWAI_REG_LOCAL_PER_CG_MB, ok[i]);
        CHECK_EQ(rd(&s, SWAI_REG_LOCAL_PER_CG_MB), ok[i]);
        CHECK_EQ(swai_layout_local_bytes(&s.layout), ok[i] * MIB);
        CHECK_EQ(swai_layout_global_bytes(&s.layout), 4 * (128 - ok[i]) * MIB);
    }
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);
}

static void test_partition_too_big(void)
{
    struct swai_card s;

    make(&s, 128, 32, 32, 256);
    quiesce(&s);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_ERROR);
    wr(&s, SWAI_REG_LOCAL_PER_CG_MB, 129);
    CHECK_EQ(rd(&s, SWAI_REG_LOCAL_PER_CG_MB), 32);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_PARTITION);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_ERROR);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    CHECK_EQ(total_notifies(), 1);
    wr(&s, SWAI_REG_LOCAL_PER_CG_MB, 0xffffffff);
    CHECK_EQ(rd(&s, SWAI_REG_LOCAL_PER_CG_MB), 32);
    CHECK_EQ(total_notifies(), 1);  /* ERROR bit already set: no new edge */
}

static void test_irq_status_rw1c(void)
{
    struct swai_card s;

    make_default(&s);
    quiesce(&s);
    wr(&s, SWAI_REG_IRQ_RAISE, SWAI_IRQ_SWI | SWAI_IRQ_QUEUE(1));
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_SWI | SWAI_IRQ_QUEUE(1));
    wr(&s, SWAI_REG_IRQ_STATUS, 0);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_SWI | SWAI_IRQ_QUEUE(1));
    wr(&s, SWAI_REG_IRQ_STATUS, SWAI_IRQ_SWI);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_QUEUE(1));
    wr(&s, SWAI_REG_IRQ_STATUS, ~0u);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);
    CHECK_EQ(total_notifies(), 0);  /* IRQ_ENABLE is 0 */
}

static void test_irq_enable(void)
{
    struct swai_card s;

    make_default(&s);
    quiesce(&s);
    wr(&s, SWAI_REG_IRQ_ENABLE, ~0u);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_ENABLE), SWAI_IRQ_ALL);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_SWI);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_ENABLE), SWAI_IRQ_SWI);
    CHECK_EQ(total_notifies(), 0);  /* nothing pending */
    wr(&s, SWAI_REG_IRQ_RAISE, 0x80000000u);    /* not an IRQ bit */
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_RAISE), 0);    /* write-only */
}

static void test_irq_notify(void)
{
    struct swai_card s;
    unsigned cg;

    make_default(&s);
    quiesce(&s);

    /* Pending but not enabled: no message. */
    wr(&s, SWAI_REG_IRQ_RAISE, SWAI_IRQ_SWI);
    CHECK_EQ(total_notifies(), 0);
    /* Enabled while pending: one message. */
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_SWI);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    /* Already pending and enabled: no new edge. */
    wr(&s, SWAI_REG_IRQ_RAISE, SWAI_IRQ_SWI);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_SWI);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    /* Handler clears, the next event is a new edge. */
    wr(&s, SWAI_REG_IRQ_STATUS, SWAI_IRQ_SWI);
    wr(&s, SWAI_REG_IRQ_RAISE, SWAI_IRQ_SWI);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 2);
    /* A queue bit pending while only SWI is enabled stays silent. */
    wr(&s, SWAI_REG_IRQ_RAISE, SWAI_IRQ_QUEUE(0));
    CHECK_EQ(total_notifies(), 2);
    quiesce(&s);

    /* Each queue bit goes to its own vector, exactly once. */
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_ALL);
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        wr(&s, SWAI_REG_IRQ_RAISE, SWAI_IRQ_QUEUE(cg));
        CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(cg)], 1);
        CHECK_EQ(total_notifies(), cg + 1);
    }
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 0);
    quiesce(&s);

    /* Several bits at once: one message per vector that has a new bit. */
    wr(&s, SWAI_REG_IRQ_RAISE, SWAI_IRQ_SWI | SWAI_IRQ_RESET_DONE |
       SWAI_IRQ_QUEUE(2) | SWAI_IRQ_QUEUE(3));
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(2)], 1);
    CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(3)], 1);
    CHECK_EQ(total_notifies(), 3);
    /* A second MGMT bit while the vector already has one pending: edge. */
    wr(&s, SWAI_REG_IRQ_STATUS, SWAI_IRQ_SWI);
    wr(&s, SWAI_REG_IRQ_RAISE, SWAI_IRQ_SWI);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 2);
    CHECK_EQ(cb.bad_vector, 0);
}

static void test_irq_error(void)
{
    struct swai_card s;

    make_default(&s);
    quiesce(&s);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_ERROR);
    wr(&s, SWAI_REG_RESET, 1);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_RESET);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_ERROR);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    /* Same bit again while sticky: not "becoming set", no interrupt. */
    wr(&s, SWAI_REG_IRQ_STATUS, SWAI_IRQ_ERROR);
    wr(&s, SWAI_REG_RESET, 2);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    /* A different bit is new. */
    wr(&s, SWAI_REG_SCRATCH + 2, 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_RESET | SWAI_ERR_BAD_ACCESS);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 2);
}

static void test_reset_magic(void)
{
    struct swai_card s;

    make(&s, 128, 32, 16, 64);
    wr(&s, SWAI_REG_SCRATCH, 0x1234);
    wr(&s, SWAI_REG_LOCAL_PER_CG_MB, 100);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_ALL);
    wr(&s, SWAI_REG_ERROR, ~0u);
    wr(&s, SWAI_REG_RESET, 0);              /* leave an ERROR bit behind */
    wr(&s, SWAI_QUEUE_REG(1, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE);
    wr(&s, SWAI_QUEUE_REG(1, SWAI_Q_TAIL), 5);
    memset(&cb, 0, sizeof(cb));

    wr(&s, SWAI_REG_RESET, SWAI_RESET_MAGIC);
    CHECK_EQ(rd(&s, SWAI_REG_STATUS) & SWAI_STATUS_READY, 0);
    CHECK_EQ(cb.kicks, 1);
    /* Writes are dropped while the reset is in flight. */
    wr(&s, SWAI_REG_SCRATCH, 0x5678);
    CHECK_EQ(rd(&s, SWAI_REG_SCRATCH), 0x1234);
    wr(&s, SWAI_REG_RESET, SWAI_RESET_MAGIC);
    CHECK_EQ(cb.kicks, 1);

    swai_card_bh(&s);
    check_reset_state(&s, 128, 32, 16, 64);
    CHECK_EQ(total_notifies(), 0);          /* IRQ_ENABLE is 0 again */
    /* A spurious bottom half changes nothing. */
    wr(&s, SWAI_REG_SCRATCH, 0x9);
    swai_card_bh(&s);
    CHECK_EQ(rd(&s, SWAI_REG_SCRATCH), 0x9);
    CHECK_EQ(rd(&s, SWAI_REG_STATUS), SWAI_STATUS_READY);
}

static void test_bad_reset(void)
{
    struct swai_card s;

    make_default(&s);
    quiesce(&s);
    wr(&s, SWAI_REG_SCRATCH, 0x77);
    wr(&s, SWAI_REG_RESET, SWAI_RESET_MAGIC ^ 1);
    CHECK_EQ(rd(&s, SWAI_REG_STATUS), SWAI_STATUS_READY);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_RESET);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_ERROR);
    CHECK_EQ(rd(&s, SWAI_REG_SCRATCH), 0x77);
    CHECK_EQ(rd(&s, SWAI_REG_RESET), 0);    /* write-only */
    CHECK_EQ(cb.kicks, 0);
}

static void test_hard_reset(void)
{
    struct swai_card s;

    make(&s, 64, 16, 8, 32);
    wr(&s, SWAI_REG_SCRATCH, 0xaa);
    wr(&s, SWAI_REG_LOCAL_PER_CG_MB, 64);
    wr(&s, SWAI_REG_RESET, SWAI_RESET_MAGIC);
    swai_card_reset(&s);                    /* system reset overtakes it */
    check_reset_state(&s, 64, 16, 8, 32);
    wr(&s, SWAI_REG_SCRATCH, 0xbb);
    swai_card_bh(&s);                       /* the stale bottom half runs */
    CHECK_EQ(rd(&s, SWAI_REG_SCRATCH), 0xbb);
    CHECK_EQ(rd(&s, SWAI_REG_STATUS), SWAI_STATUS_READY);
}

static void test_bad_access(void)
{
    struct swai_card s;

    make_default(&s);
    wr(&s, SWAI_REG_SCRATCH, 0x11223344);
    quiesce(&s);

    /* Reads: 0, and never a side effect. */
    CHECK_EQ(swai_card_mmio_read(&s, SWAI_REG_SCRATCH + 1, 4), 0);
    CHECK_EQ(swai_card_mmio_read(&s, SWAI_REG_SCRATCH, 2), 0);
    CHECK_EQ(swai_card_mmio_read(&s, SWAI_REG_SCRATCH, 1), 0);
    CHECK_EQ(swai_card_mmio_read(&s, SWAI_REG_SCRATCH, 8), 0);
    CHECK_EQ(rd(&s, 0x001c), 0);
    CHECK_EQ(rd(&s, 0x0040), 0);
    CHECK_EQ(rd(&s, 0x0ffc), 0);
    CHECK_EQ(rd(&s, SWAI_QUEUE_REG(0, 0x1c)), 0);
    CHECK_EQ(rd(&s, SWAI_QUEUE_REG(SWAI_NUM_CG, 0)), 0);
    CHECK_EQ(rd(&s, SWAI_MMIO_SIZE - 4), 0);
    CHECK_EQ(rd(&s, SWAI_MMIO_SIZE), 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);

    /* Writes: ignored, flagged. */
    swai_card_mmio_write(&s, SWAI_REG_SCRATCH + 1, 0, 4);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_ERROR);
    quiesce(&s);
    swai_card_mmio_write(&s, SWAI_REG_SCRATCH, 0, 2);
    swai_card_mmio_write(&s, SWAI_REG_SCRATCH, 0, 1);
    swai_card_mmio_write(&s, SWAI_REG_SCRATCH, 0, 8);
    CHECK_EQ(rd(&s, SWAI_REG_SCRATCH), 0x11223344);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    quiesce(&s);
    wr(&s, 0x0040, 1);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    quiesce(&s);
    wr(&s, SWAI_QUEUE_REG(2, 0x1c), 1);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    quiesce(&s);
    wr(&s, SWAI_QUEUE_REG(SWAI_NUM_CG, 0), 1);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    quiesce(&s);
    wr(&s, SWAI_MMIO_SIZE, 1);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    CHECK_EQ(cb.kicks, 0);
}

static void test_translate_local(void)
{
    struct swai_card s;
    struct swai_loc l;
    unsigned cg;

    make(&s, 128, 32, 32, 256);
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        CHECK(swai_layout_translate(&s.layout, cg, 0, &l));
        CHECK_EQ(l.ctrl, cg);
        CHECK_EQ(l.off, 0);
        CHECK_EQ(l.phys, cg * 128 * MIB);
        CHECK_EQ(l.run, 32 * MIB);

        CHECK(swai_layout_translate(&s.layout, cg, 0x12345, &l));
        CHECK_EQ(l.ctrl, cg);
        CHECK_EQ(l.off, 0x12345);
        CHECK_EQ(l.phys, cg * 128 * MIB + 0x12345);
        CHECK_EQ(l.run, 32 * MIB - 0x12345);

        CHECK(swai_layout_translate(&s.layout, cg, 32 * MIB - 1, &l));
        CHECK_EQ(l.run, 1);
        CHECK(!swai_layout_translate(&s.layout, cg, 32 * MIB, &l));
        CHECK(!swai_layout_translate(&s.layout, cg, SWAI_GLOBAL_BASE - 1, &l));
    }
    CHECK(!swai_layout_translate(&s.layout, SWAI_NUM_CG, 0, &l));

    /* Everything Global: no Local address is backed. */
    wr(&s, SWAI_REG_LOCAL_PER_CG_MB, 0);
    CHECK(!swai_layout_translate(&s.layout, 0, 0, &l));
    /* Switch moved the other way: Local grows. */
    wr(&s, SWAI_REG_LOCAL_PER_CG_MB, 128);
    CHECK(swai_layout_translate(&s.layout, 3, 128 * MIB - 1, &l));
    CHECK_EQ(l.phys, 4 * 128 * MIB - 1);
}

static void test_translate_global(void)
{
    const uint64_t G = SWAI_GLOBAL_GRANULE, B = SWAI_GLOBAL_BASE;
    const uint64_t L = 32 * MIB, H = 128 * MIB;
    struct swai_card s;
    struct swai_loc l;
    unsigned cg;

    make(&s, 128, 32, 32, 256);
    CHECK_EQ(swai_layout_global_bytes(&s.layout), 4 * (H - L));

    CHECK(swai_layout_translate(&s.layout, 0, B, &l));
    CHECK_EQ(l.ctrl, 0);
    CHECK_EQ(l.off, L);
    CHECK_EQ(l.phys, L);
    CHECK_EQ(l.run, G);

    CHECK(swai_layout_translate(&s.layout, 0, B + G, &l));
    CHECK_EQ(l.ctrl, 1);
    CHECK_EQ(l.off, L);
    CHECK_EQ(l.phys, H + L);

    CHECK(swai_layout_translate(&s.layout, 0, B + 3 * G + G - 1, &l));
    CHECK_EQ(l.ctrl, 3);
    CHECK_EQ(l.off, L + G - 1);
    CHECK_EQ(l.run, 1);

    CHECK(swai_layout_translate(&s.layout, 0, B + 4 * G, &l));
    CHECK_EQ(l.ctrl, 0);
    CHECK_EQ(l.off, L + G);

    CHECK(swai_layout_translate(&s.layout, 0, B + 5 * G + 17, &l));
    CHECK_EQ(l.ctrl, 1);
    CHECK_EQ(l.off, L + G + 17);
    CHECK_EQ(l.phys, H + L + G + 17);
    CHECK_EQ(l.run, G - 17);

    /* The same Global address means the same byte to every CG. */
    for (cg = 1; cg < SWAI_NUM_CG; cg++) {
        struct swai_loc m;

        CHECK(swai_layout_translate(&s.layout, cg, B + 5 * G + 17, &m));
        CHECK_EQ(m.phys, l.phys);
    }

    /* Last byte is the top of controller 3; one more is out of range. */
    CHECK(swai_layout_translate(&s.layout, 0, B + 4 * (H - L) - 1, &l));
    CHECK_EQ(l.ctrl, 3);
    CHECK_EQ(l.off, H - 1);
    CHECK_EQ(l.phys, 4 * H - 1);
    CHECK(!swai_layout_translate(&s.layout, 0, B + 4 * (H - L), &l));
    CHECK(!swai_layout_translate(&s.layout, 0, UINT64_MAX, &l));

    /* All Local: Global-HBM is empty. */
    wr(&s, SWAI_REG_LOCAL_PER_CG_MB, 128);
    CHECK(!swai_layout_translate(&s.layout, 0, B, &l));
}

/* Global-HBM is a bijection onto the Cross segments of the 4 controllers. */
static void test_translate_global_tiles(void)
{
    const uint64_t G = SWAI_GLOBAL_GRANULE;
    struct swai_card s;
    struct swai_loc l;
    uint64_t chunks, k, hbm_chunks;
    unsigned char *seen;
    int dup = 0, outside = 0;

    make(&s, 3, 1, 1, 16);
    hbm_chunks = 4 * 3 * MIB / G;
    chunks = swai_layout_global_bytes(&s.layout) / G;
    CHECK_EQ(chunks, 4 * 2 * MIB / G);
    seen = calloc(hbm_chunks, 1);
    if (!seen) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    for (k = 0; k < chunks; k++) {
        if (!swai_layout_translate(&s.layout, 0, SWAI_GLOBAL_BASE + k * G, &l)) {
            outside++;
            continue;
        }
        if (l.off < 1 * MIB || l.off >= 3 * MIB || l.phys % G) {
            outside++;
        }
        if (seen[l.phys / G]++) {
            dup++;
        }
    }
    CHECK_EQ(dup, 0);
    CHECK_EQ(outside, 0);
    /* Local segments (first MiB of each controller) are untouched. */
    for (k = 0; k < hbm_chunks; k++) {
        int in_local = (k * G) % (3 * MIB) < 1 * MIB;

        CHECK_EQ(seen[k], !in_local);
    }
    free(seen);
}

/*
 * Queue registers as the driver sees them before any job runs: the core
 * here has no memory attached, so the MPE does nothing (swai-cp-test.c
 * covers execution).
 */
static void test_queue_latch(void)
{
    struct swai_card s;
    unsigned cg;

    make_default(&s);
    quiesce(&s);
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        wr(&s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_LO), 0x1000 * (cg + 1));
        wr(&s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_HI), 0x100 + cg);
        wr(&s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_SIZE), 64 << cg);
        wr(&s, SWAI_QUEUE_REG(cg, SWAI_Q_TAIL), 3 + cg);
    }
    CHECK_EQ(cb.wakes, 4);                          /* doorbells */
    wr(&s, SWAI_QUEUE_REG(1, SWAI_Q_CTRL), ~0u);    /* undefined bits drop */
    wr(&s, SWAI_QUEUE_REG(2, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE);
    CHECK_EQ(cb.wakes, 6);
    CHECK(!swai_card_step(&s));                       /* nothing attached */
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        int on = cg == 1 || cg == 2;

        CHECK_EQ(rd(&s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_LO)),
                 0x1000 * (cg + 1));
        CHECK_EQ(rd(&s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_HI)), 0x100 + cg);
        CHECK_EQ(rd(&s, SWAI_QUEUE_REG(cg, SWAI_Q_RING_SIZE)), 64 << cg);
        CHECK_EQ(rd(&s, SWAI_QUEUE_REG(cg, SWAI_Q_TAIL)), 3 + cg);
        CHECK_EQ(rd(&s, SWAI_QUEUE_REG(cg, SWAI_Q_HEAD)), 0);
        /* RESET reads 1 until the MPE has done it. */
        CHECK_EQ(rd(&s, SWAI_QUEUE_REG(cg, SWAI_Q_CTRL)),
                 (on ? SWAI_Q_CTRL_ENABLE : 0) |
                 (cg == 1 ? SWAI_Q_CTRL_RESET : 0));
        /* Entries pending: not idle. */
        CHECK_EQ(rd(&s, SWAI_QUEUE_REG(cg, SWAI_Q_STATUS)),
                 on ? SWAI_Q_STATUS_ENABLED : 0);
    }
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);

    /* HEAD, STATUS, COMPLETED, CLOCK, JOBS, FENCES are read-only. */
    wr(&s, SWAI_QUEUE_REG(0, SWAI_Q_HEAD), 7);
    CHECK_EQ(rd(&s, SWAI_QUEUE_REG(0, SWAI_Q_HEAD)), 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    quiesce(&s);
    wr(&s, SWAI_QUEUE_REG(3, SWAI_Q_TAIL), 0);
    wr(&s, SWAI_QUEUE_REG(3, SWAI_Q_STATUS), 0);
    CHECK_EQ(rd(&s, SWAI_QUEUE_REG(3, SWAI_Q_STATUS)), SWAI_Q_STATUS_IDLE);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        static const uint32_t ro[] = {
            SWAI_Q_COMPLETED_LO, SWAI_Q_COMPLETED_HI, SWAI_Q_CLOCK_LO,
            SWAI_Q_CLOCK_HI, SWAI_Q_JOBS, SWAI_Q_FENCES,
        };
        unsigned i;

        for (i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
            quiesce(&s);
            wr(&s, SWAI_QUEUE_REG(cg, ro[i]), 5);
            CHECK_EQ(rd(&s, SWAI_QUEUE_REG(cg, ro[i])), 0);
            CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
        }
    }

    /* Disable latches too. */
    wr(&s, SWAI_QUEUE_REG(2, SWAI_Q_CTRL), 0);
    CHECK_EQ(rd(&s, SWAI_QUEUE_REG(2, SWAI_Q_STATUS)), 0);
    CHECK_EQ(cb.kicks, 0);
}

static const struct tap_test tests[] = {
    { "props defaults and auto local-mb", test_props_defaults },
    { "props validation", test_props_validation },
    { "reset values for several property sets", test_reset_values },
    { "ID, VERSION, CAPS, GLOBAL_BASE", test_identity },
    { "SCRATCH is read/write", test_scratch },
    { "read-only registers ignore writes, flag BAD_ACCESS", test_readonly },
    { "ERROR is RW1C", test_error_rw1c },
    { "partition: valid values latch", test_partition_valid },
    { "partition: > hbm rejected, ERROR + IRQ_ERROR", test_partition_too_big },
    { "IRQ_STATUS is RW1C", test_irq_status_rw1c },
    { "IRQ_ENABLE keeps SWAI_IRQ_ALL bits only", test_irq_enable },
    { "MSI-X vector notified on pending&enabled edges", test_irq_notify },
    { "new ERROR bits raise IRQ_ERROR", test_irq_error },
    { "reset via magic: READY drops, bh restores defaults",
      test_reset_magic },
    { "bad reset value flags BAD_RESET", test_bad_reset },
    { "hard reset overtakes a soft reset", test_hard_reset },
    { "unaligned, sized and undefined accesses", test_bad_access },
    { "Local address translation", test_translate_local },
    { "Global address translation and interleave", test_translate_global },
    { "Global-HBM tiles the Cross segments exactly",
      test_translate_global_tiles },
    { "queue registers latch", test_queue_latch },
};

TAP_MAIN(tests)
