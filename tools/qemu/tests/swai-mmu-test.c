/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mmu-test.c - host unit test of the SW-AI device MMU (no QEMU):
 * table walks in a fake host memory, fault reasons and latching, the
 * translation probe, context isolation (datasheet section "Device MMU").
 */
#include "fake-glue.h"
#include "tap.h"

/* Fake host memory: page 0 is the context table, the rest a page pool. */
#define CTX_TABLE   HOST_BASE
#define VA_TOP      (1ull << SWAI_MMU_VA_BITS)
#define PG          4096ull

static uint64_t host_next;

static void host_reset(void)
{
    memset(host_mem, 0, sizeof(host_mem));
    host_next = HOST_BASE + PG;
    dma_fail_page = 0;
}

static uint64_t host_page(void)
{
    uint64_t a = host_next;

    if (a + PG > HOST_BASE + HOST_SIZE) {
        printf("Bail out! fake host memory exhausted\n");
        exit(1);
    }
    host_next += PG;
    return a;
}

static void put64(uint64_t addr, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        host_mem[addr - HOST_BASE + i] = (uint8_t)(v >> (8 * i));
    }
}

static uint64_t get64(uint64_t addr)
{
    uint64_t v = 0;
    int i;

    for (i = 7; i >= 0; i--) {
        v = v << 8 | host_mem[addr - HOST_BASE + i];
    }
    return v;
}

/* Make context 'asid' valid, with an empty level-0 table. */
static void ctx_set(unsigned asid)
{
    put64(CTX_TABLE + asid * 16, host_page() | SWAI_PTE_VALID);
}

/* Address of the level-'level' entry for 'va' (tables must exist). */
static uint64_t slot_of(unsigned asid, uint64_t va, int level)
{
    uint64_t e = get64(CTX_TABLE + asid * 16);
    int l;

    for (l = 0; l < level; l++) {
        e = get64((e & SWAI_PTE_ADDR_MASK) + ((va >> (30 - 9 * l)) & 511) * 8);
    }
    return (e & SWAI_PTE_ADDR_MASK) + ((va >> (30 - 9 * level)) & 511) * 8;
}

/* Map 'va' of 'asid' to the level-2 entry 'pte', creating tables. */
static void map(unsigned asid, uint64_t va, uint64_t pte)
{
    int level;

    for (level = 0; level < 2; level++) {
        uint64_t slot = slot_of(asid, va, level);

        if (!(get64(slot) & SWAI_PTE_VALID)) {
            put64(slot, host_page() | SWAI_PTE_VALID);
        }
    }
    put64(slot_of(asid, va, 2), pte);
}

static void make_mmu(struct swai_card *s, uint32_t hbm)
{
    make(s, hbm, 0, 8, 64);
    host_reset();
    wr(s, SWAI_REG_MMU_CTX_TABLE_LO, (uint32_t)CTX_TABLE);
    wr(s, SWAI_REG_MMU_CTX_TABLE_HI, CTX_TABLE >> 32);
    quiesce(s);
}

/* Translate; on success check nothing else, return the reason. */
static int xl(struct swai_card *s, uint32_t asid, uint64_t va, bool w,
              struct swai_mmu_xlat *x)
{
    struct swai_mmu_xlat dummy;

    return swai_mmu_translate(&s->mmu, asid, va, w, x ? x : &dummy);
}

static uint64_t result(struct swai_card *s)
{
    return (uint64_t)rd(s, SWAI_REG_MMU_PROBE_RESULT_HI) << 32 |
           rd(s, SWAI_REG_MMU_PROBE_RESULT_LO);
}

static void test_mmu_regs(void)
{
    static const uint32_t ro[] = {
        SWAI_REG_MMU_CONTEXTS, SWAI_REG_MMU_FAULT_VA_LO,
        SWAI_REG_MMU_FAULT_VA_HI, SWAI_REG_MMU_PROBE_RESULT_LO,
        SWAI_REG_MMU_PROBE_RESULT_HI,
    };
    struct swai_card s;
    unsigned i;

    make_default(&s);
    quiesce(&s);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_CONTEXTS), 64);
    wr(&s, SWAI_REG_MMU_CTX_TABLE_LO, 0x12345fff);
    wr(&s, SWAI_REG_MMU_CTX_TABLE_HI, 0xabcd);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_CTX_TABLE_LO), 0x12345000);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_CTX_TABLE_HI), 0xabcd);
    wr(&s, SWAI_REG_MMU_CTX_TABLE_LO, 0xfff);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_CTX_TABLE_LO), 0);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_CTX_TABLE_HI), 0xabcd);
    wr(&s, SWAI_REG_MMU_PROBE_ASID, 0xffffffff);
    wr(&s, SWAI_REG_MMU_PROBE_VA_LO, 0x89abcdef);
    wr(&s, SWAI_REG_MMU_PROBE_VA_HI, 0x01234567);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_PROBE_ASID), 0xffffffff);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_PROBE_VA_LO), 0x89abcdef);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_PROBE_VA_HI), 0x01234567);
    /* INVALIDATE: write-only, accepted and ignored. */
    wr(&s, SWAI_REG_MMU_INVALIDATE, 5);
    wr(&s, SWAI_REG_MMU_INVALIDATE, SWAI_MMU_INV_ALL);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_INVALIDATE), 0);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_PROBE_GO), 0);
    /* FAULT_STATUS with nothing latched: writes change nothing. */
    wr(&s, SWAI_REG_MMU_FAULT_STATUS, ~0u);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);
    for (i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
        uint32_t before = rd(&s, ro[i]);

        quiesce(&s);
        wr(&s, ro[i], ~before);
        CHECK_EQ(rd(&s, ro[i]), before);
        CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    }
    /* Holes in the MMU block are undefined. */
    quiesce(&s);
    wr(&s, 0x011c, 1);
    CHECK_EQ(rd(&s, 0x011c), 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    quiesce(&s);
    wr(&s, 0x0138, 1);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    /* Register accesses never walk and never start work (except GO). */
    CHECK_EQ(cb.kicks, 0);
    CHECK_EQ(cb.dma_reads, 0);
}

static void test_mmu_translate(void)
{
    const uint64_t va1 = 0x12345000, va2 = VA_TOP - PG;
    struct swai_card s;
    struct swai_mmu_xlat x;
    uint64_t hp, hp2;

    make_mmu(&s, 128);
    ctx_set(1);
    hp = host_page();
    hp2 = host_page();
    map(1, va1, 0x200000 | SWAI_PTE_VALID | SWAI_PTE_WRITE);
    map(1, va2, hp | SWAI_PTE_VALID | SWAI_PTE_HOST);
    map(1, 0x1000, hp2 | SWAI_PTE_VALID | SWAI_PTE_HOST | SWAI_PTE_WRITE);
    /* Bits outside 51:12 and the flags are ignored. */
    map(1, 0x2000, 0x300000 | SWAI_PTE_VALID | (1ull << 63) | (1ull << 52) |
        (1ull << 3));

    cb.dma_reads = 0;
    CHECK_EQ(xl(&s, 1, va1 + 0x123, false, &x), 0);
    CHECK_EQ(cb.dma_reads, 4);      /* context + three levels, no TLB */
    CHECK_EQ(x.addr, 0x200123);
    CHECK_EQ(x.run, PG - 0x123);
    CHECK(!x.host);
    CHECK_EQ(xl(&s, 1, va1 + 0xfff, true, &x), 0);
    CHECK_EQ(x.addr, 0x200fff);
    CHECK_EQ(x.run, 1);

    CHECK_EQ(xl(&s, 1, VA_TOP - 1, false, &x), 0);   /* last byte of VA */
    CHECK_EQ(x.addr, hp + 0xfff);
    CHECK(x.host);
    CHECK_EQ(xl(&s, 1, va2, true, &x), SWAI_MMU_R_READ_ONLY);
    CHECK_EQ(xl(&s, 1, 0x1008, true, &x), 0);
    CHECK_EQ(x.addr, hp2 + 8);
    CHECK(x.host);
    CHECK_EQ(xl(&s, 1, 0x2010, false, &x), 0);
    CHECK_EQ(x.addr, 0x300010);
    CHECK(!x.host);
    CHECK_EQ(xl(&s, 1, 0x2010, true, &x), SWAI_MMU_R_READ_ONLY);

    /* Table entries need only VALID: their WRITE and HOST are ignored. */
    put64(slot_of(1, 0x2000, 0), get64(slot_of(1, 0x2000, 0)) |
          SWAI_PTE_WRITE | SWAI_PTE_HOST);
    put64(slot_of(1, 0x2000, 1), get64(slot_of(1, 0x2000, 1)) |
          SWAI_PTE_WRITE | SWAI_PTE_HOST);
    CHECK_EQ(xl(&s, 1, 0x2010, false, &x), 0);
    CHECK(!x.host);
    CHECK_EQ(x.addr, 0x300010);
    CHECK_EQ(xl(&s, 1, 0x2010, true, &x), SWAI_MMU_R_READ_ONLY);
    /* ...and neither do context entries. */
    put64(CTX_TABLE + 16, get64(CTX_TABLE + 16) | SWAI_PTE_HOST);
    CHECK_EQ(xl(&s, 1, 0x2010, false, &x), 0);

    /* A failing translation leaves 'out' untouched. */
    x.addr = 0x5a5a;
    CHECK_EQ(xl(&s, 1, 0x3000, false, &x), SWAI_MMU_R_NOT_PRESENT);
    CHECK_EQ(x.addr, 0x5a5a);

    /* Translation is side-effect free: nothing latched or signalled. */
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), 0);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);
    CHECK_EQ(total_notifies(), 0);
    CHECK_EQ(cb.kicks, 0);
}

static void test_mmu_fault_reasons(void)
{
    struct swai_card s;
    struct swai_mmu_xlat x;
    uint64_t va = 0x40201000;   /* indices 1, 1, 1 */

    make_mmu(&s, 128);
    ctx_set(1);
    map(1, va, 0x1000 | SWAI_PTE_VALID);
    CHECK_EQ(xl(&s, 1, va, false, &x), 0);

    /* R_CTX: ASID out of range (no DMA), context invalid. */
    cb.dma_reads = 0;
    CHECK_EQ(xl(&s, SWAI_MMU_CONTEXTS, va, false, &x), SWAI_MMU_R_CTX);
    CHECK_EQ(xl(&s, UINT32_MAX, va, false, &x), SWAI_MMU_R_CTX);
    CHECK_EQ(cb.dma_reads, 0);
    CHECK_EQ(xl(&s, 0, va, false, &x), SWAI_MMU_R_CTX);
    CHECK_EQ(xl(&s, SWAI_MMU_CONTEXTS - 1, va, false, &x), SWAI_MMU_R_CTX);
    /* The context is checked before the VA. */
    CHECK_EQ(xl(&s, 0, VA_TOP, false, &x), SWAI_MMU_R_CTX);

    /* R_RANGE: the 39-bit edge. */
    CHECK_EQ(xl(&s, 1, VA_TOP, false, &x), SWAI_MMU_R_RANGE);
    CHECK_EQ(xl(&s, 1, VA_TOP + va, true, &x), SWAI_MMU_R_RANGE);
    CHECK_EQ(xl(&s, 1, UINT64_MAX, false, &x), SWAI_MMU_R_RANGE);
    CHECK_EQ(xl(&s, 1, VA_TOP - 1, false, &x), SWAI_MMU_R_NOT_PRESENT);

    /* R_NOT_PRESENT at each level. */
    CHECK_EQ(xl(&s, 1, va + (1ull << 30), false, &x),
             SWAI_MMU_R_NOT_PRESENT);          /* level 0 */
    CHECK_EQ(xl(&s, 1, va + (1ull << 21), false, &x),
             SWAI_MMU_R_NOT_PRESENT);          /* level 1 */
    CHECK_EQ(xl(&s, 1, va + PG, false, &x),
             SWAI_MMU_R_NOT_PRESENT);          /* level 2 */
    put64(slot_of(1, va, 1), get64(slot_of(1, va, 1)) & ~SWAI_PTE_VALID);
    CHECK_EQ(xl(&s, 1, va, false, &x), SWAI_MMU_R_NOT_PRESENT);
    put64(slot_of(1, va, 1), get64(slot_of(1, va, 1)) | SWAI_PTE_VALID);
    CHECK_EQ(xl(&s, 1, va, false, &x), 0);

    /* R_READ_ONLY: only writes. */
    CHECK_EQ(xl(&s, 1, va, true, &x), SWAI_MMU_R_READ_ONLY);

    /* R_BAD_TARGET comes before R_READ_ONLY. */
    map(1, va + PG, (4 * 128 * MIB) | SWAI_PTE_VALID);
    CHECK_EQ(xl(&s, 1, va + PG, false, &x), SWAI_MMU_R_BAD_TARGET);
    CHECK_EQ(xl(&s, 1, va + PG, true, &x), SWAI_MMU_R_BAD_TARGET);
    map(1, va + PG, SWAI_PTE_ADDR_MASK | SWAI_PTE_VALID | SWAI_PTE_WRITE);
    CHECK_EQ(xl(&s, 1, va + PG, true, &x), SWAI_MMU_R_BAD_TARGET);

    /* R_WALK: each table read can fail. */
    dma_fail_page = CTX_TABLE;
    CHECK_EQ(xl(&s, 1, va, false, &x), SWAI_MMU_R_WALK);
    CHECK_EQ(xl(&s, 1, VA_TOP, false, &x), SWAI_MMU_R_WALK);
    dma_fail_page = get64(CTX_TABLE + 16) & SWAI_PTE_ADDR_MASK;
    CHECK_EQ(xl(&s, 1, va, false, &x), SWAI_MMU_R_WALK);
    dma_fail_page = slot_of(1, va, 1) & ~(PG - 1);
    CHECK_EQ(xl(&s, 1, va, false, &x), SWAI_MMU_R_WALK);
    dma_fail_page = slot_of(1, va, 2) & ~(PG - 1);
    CHECK_EQ(xl(&s, 1, va, false, &x), SWAI_MMU_R_WALK);
    CHECK_EQ(xl(&s, 1, va, true, &x), SWAI_MMU_R_WALK);
    dma_fail_page = 0;
    CHECK_EQ(xl(&s, 1, va, false, &x), 0);
    /* A table pointer outside host memory. */
    put64(slot_of(1, va, 0), 0x7000 | SWAI_PTE_VALID);
    CHECK_EQ(xl(&s, 1, va, false, &x), SWAI_MMU_R_WALK);
    /* A context table outside host memory. */
    wr(&s, SWAI_REG_MMU_CTX_TABLE_HI, 0x7fff);
    CHECK_EQ(xl(&s, 1, va, false, &x), SWAI_MMU_R_WALK);
    /* No context table at all (its reset value). */
    wr(&s, SWAI_REG_MMU_CTX_TABLE_LO, 0);
    wr(&s, SWAI_REG_MMU_CTX_TABLE_HI, 0);
    cb.dma_reads = 0;
    CHECK_EQ(xl(&s, 1, va, false, &x), SWAI_MMU_R_CTX);
    CHECK_EQ(cb.dma_reads, 0);

    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), 0);
    CHECK_EQ(total_notifies(), 0);
}

/* HBM pages must lie inside 4 x hbm-mb, whatever hbm-mb is. */
static void test_mmu_hbm_edge(void)
{
    static const uint32_t sizes[] = { 128, 100, 3, 1, 16384 };
    struct swai_card s;
    struct swai_mmu_xlat x;
    unsigned i;

    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        uint64_t top = 4ull * sizes[i] * MIB;

        make_mmu(&s, sizes[i]);
        ctx_set(2);
        map(2, 0x0000, (top - PG) | SWAI_PTE_VALID | SWAI_PTE_WRITE);
        map(2, 0x1000, top | SWAI_PTE_VALID | SWAI_PTE_WRITE);
        map(2, 0x2000, top | SWAI_PTE_VALID | SWAI_PTE_HOST);
        map(2, 0x3000, 0 | SWAI_PTE_VALID);
        CHECK_EQ(xl(&s, 2, 0xfff, true, &x), 0);
        CHECK_EQ(x.addr, top - 1);
        CHECK_EQ(x.run, 1);
        CHECK_EQ(xl(&s, 2, 0x1000, false, &x), SWAI_MMU_R_BAD_TARGET);
        CHECK_EQ(xl(&s, 2, 0x1000, true, &x), SWAI_MMU_R_BAD_TARGET);
        /* A host page is a DMA address: no HBM limit. */
        CHECK_EQ(xl(&s, 2, 0x2000, false, &x), 0);
        CHECK_EQ(x.addr, top);
        CHECK(x.host);
        CHECK_EQ(xl(&s, 2, 0x3000, false, &x), 0);
        CHECK_EQ(x.addr, 0);
    }
}

static void test_mmu_fault_latch(void)
{
    const uint64_t va = 0x5555000123ull;
    struct swai_card s;
    uint32_t first;

    make_default(&s);
    quiesce(&s);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_MMU_FAULT);

    swai_mmu_fault(&s.mmu, 3, va, true, SWAI_MMU_R_NOT_PRESENT);
    first = SWAI_MMU_FAULT_VALID | SWAI_MMU_FAULT_WRITE |
            SWAI_MMU_R_NOT_PRESENT << 4 | 3 << 8;
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), first);
    CHECK_EQ(SWAI_MMU_FAULT_REASON(first), SWAI_MMU_R_NOT_PRESENT);
    CHECK_EQ(SWAI_MMU_FAULT_ASID(first), 3);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_LO), 0x55000123);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_HI), 0x55);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_MMU_FAULT);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    CHECK_EQ(total_notifies(), 1);

    /* A second fault only sets OVERFLOW; IRQ already pending: no edge. */
    swai_mmu_fault(&s.mmu, 7, 0x1000, false, SWAI_MMU_R_CTX);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS),
             first | SWAI_MMU_FAULT_OVERFLOW);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_LO), 0x55000123);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_HI), 0x55);
    CHECK_EQ(total_notifies(), 1);
    /* A third changes nothing, so it does not interrupt either. */
    wr(&s, SWAI_REG_IRQ_STATUS, SWAI_IRQ_MMU_FAULT);
    swai_mmu_fault(&s.mmu, 8, 0x2000, true, SWAI_MMU_R_WALK);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS),
             first | SWAI_MMU_FAULT_OVERFLOW);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);
    CHECK_EQ(total_notifies(), 1);

    /* RW1C: 0 does nothing, OVERFLOW clears OVERFLOW only. */
    wr(&s, SWAI_REG_MMU_FAULT_STATUS, 0);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS),
             first | SWAI_MMU_FAULT_OVERFLOW);
    wr(&s, SWAI_REG_MMU_FAULT_STATUS, SWAI_MMU_FAULT_OVERFLOW);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), first);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_LO), 0x55000123);
    /* OVERFLOW newly set: a new edge. */
    swai_mmu_fault(&s.mmu, 8, 0x2000, true, SWAI_MMU_R_WALK);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS),
             first | SWAI_MMU_FAULT_OVERFLOW);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 2);

    /* Writing VALID clears everything, VA included. */
    wr(&s, SWAI_REG_MMU_FAULT_STATUS, SWAI_MMU_FAULT_VALID);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), 0);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_LO), 0);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_HI), 0);

    /* The next fault latches afresh and, once IRQ_STATUS is clear, edges. */
    wr(&s, SWAI_REG_IRQ_STATUS, ~0u);
    swai_mmu_fault(&s.mmu, 63, VA_TOP - 1, false, SWAI_MMU_R_BAD_TARGET);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), SWAI_MMU_FAULT_VALID |
             SWAI_MMU_R_BAD_TARGET << 4 | 63 << 8);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_LO), 0xffffffff);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_HI), 0x7f);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 3);
    CHECK_EQ(total_notifies(), 3);

    /* Disabled: status latches, nothing signals until enabled. */
    wr(&s, SWAI_REG_MMU_FAULT_STATUS, SWAI_MMU_FAULT_VALID);
    wr(&s, SWAI_REG_IRQ_STATUS, ~0u);
    wr(&s, SWAI_REG_IRQ_ENABLE, 0);
    swai_mmu_fault(&s.mmu, 1, 0, false, SWAI_MMU_R_RANGE);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), SWAI_IRQ_MMU_FAULT);
    CHECK_EQ(total_notifies(), 3);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_MMU_FAULT);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 4);
    CHECK_EQ(cb.bad_vector, 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);
    CHECK_EQ(cb.kicks, 0);
}

/* The caller's pattern: translate, and report what does not translate. */
static void test_mmu_translate_then_fault(void)
{
    struct swai_card s;
    struct swai_mmu_xlat x;
    int r;

    make_mmu(&s, 64);
    ctx_set(4);
    map(4, 0x8000, 0x8000 | SWAI_PTE_VALID);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_ALL);
    r = xl(&s, 4, 0x8010, true, &x);
    CHECK_EQ(r, SWAI_MMU_R_READ_ONLY);
    swai_mmu_fault(&s.mmu, 4, 0x8010, true, r);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), SWAI_MMU_FAULT_VALID |
             SWAI_MMU_FAULT_WRITE | SWAI_MMU_R_READ_ONLY << 4 | 4 << 8);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_LO), 0x8010);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    CHECK_EQ(total_notifies(), 1);
}

static void probe_go(struct swai_card *s, uint32_t asid, uint64_t va,
                     uint32_t go)
{
    wr(s, SWAI_REG_MMU_PROBE_ASID, asid);
    wr(s, SWAI_REG_MMU_PROBE_VA_LO, (uint32_t)va);
    wr(s, SWAI_REG_MMU_PROBE_VA_HI, va >> 32);
    wr(s, SWAI_REG_MMU_PROBE_GO, go);
}

static uint64_t probe(struct swai_card *s, uint32_t asid, uint64_t va,
                      uint32_t go)
{
    probe_go(s, asid, va, go);
    CHECK_EQ(result(s), 0);
    swai_card_bh(s);
    return result(s);
}

static void test_mmu_probe(void)
{
    const uint64_t va = 0x3fe00000;
    struct swai_card s;
    uint64_t hp, ro;

    make_mmu(&s, 128);
    wr(&s, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_ALL);
    ctx_set(9);
    hp = host_page();
    map(9, va, 0x1fff000 | SWAI_PTE_VALID | SWAI_PTE_WRITE);
    map(9, va + PG, hp | SWAI_PTE_VALID | SWAI_PTE_HOST);
    cb.dma_reads = 0;

    /* RESULT reads 0 until the bottom half has walked. */
    probe_go(&s, 9, va + 0x345, 0);
    CHECK_EQ(cb.kicks, 1);
    CHECK_EQ(cb.dma_reads, 0);
    CHECK_EQ(result(&s), 0);
    swai_card_bh(&s);
    CHECK_EQ(cb.dma_reads, 4);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_PROBE_RESULT_LO),
             0x1fff000 | SWAI_MMU_PROBE_OK | SWAI_MMU_PROBE_DONE);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_PROBE_RESULT_HI), 0);
    /* A spurious bottom half changes nothing. */
    swai_card_bh(&s);
    CHECK_EQ(result(&s), 0x1fff000 | SWAI_MMU_PROBE_OK |
             SWAI_MMU_PROBE_DONE);

    CHECK_EQ(probe(&s, 9, va, SWAI_MMU_PROBE_WRITE),
             0x1fff000 | SWAI_MMU_PROBE_OK | SWAI_MMU_PROBE_DONE);
    CHECK_EQ(probe(&s, 9, va + PG + 8, 0), hp | SWAI_MMU_PROBE_OK |
             SWAI_MMU_PROBE_HOST | SWAI_MMU_PROBE_DONE);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_PROBE_RESULT_HI), hp >> 32);

    /* Faults: DONE | reason << 4, OK clear, address 0. */
    ro = probe(&s, 9, va + PG, SWAI_MMU_PROBE_WRITE);
    CHECK_EQ(ro, SWAI_MMU_PROBE_DONE | SWAI_MMU_R_READ_ONLY << 4);
    CHECK_EQ(SWAI_MMU_PROBE_REASON(ro), SWAI_MMU_R_READ_ONLY);
    CHECK_EQ(probe(&s, 9, va + 2 * PG, 0),
             SWAI_MMU_PROBE_DONE | SWAI_MMU_R_NOT_PRESENT << 4);
    CHECK_EQ(probe(&s, 9, VA_TOP, 0),
             SWAI_MMU_PROBE_DONE | SWAI_MMU_R_RANGE << 4);
    CHECK_EQ(probe(&s, 64, va, 0),
             SWAI_MMU_PROBE_DONE | SWAI_MMU_R_CTX << 4);
    CHECK_EQ(probe(&s, 8, va, 0),
             SWAI_MMU_PROBE_DONE | SWAI_MMU_R_CTX << 4);
    dma_fail_page = CTX_TABLE;
    CHECK_EQ(probe(&s, 9, va, 0),
             SWAI_MMU_PROBE_DONE | SWAI_MMU_R_WALK << 4);
    dma_fail_page = 0;

    /* GO latches ASID and VA: later register writes do not disturb it. */
    probe_go(&s, 9, va, 0);
    wr(&s, SWAI_REG_MMU_PROBE_ASID, 1);
    wr(&s, SWAI_REG_MMU_PROBE_VA_LO, 0);
    swai_card_bh(&s);
    CHECK_EQ(result(&s), 0x1fff000 | SWAI_MMU_PROBE_OK |
             SWAI_MMU_PROBE_DONE);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_PROBE_ASID), 1);
    /* A second GO before the bottom half: the last one wins. */
    probe_go(&s, 9, va, 0);
    probe_go(&s, 9, va + 2 * PG, 0);
    CHECK_EQ(result(&s), 0);
    swai_card_bh(&s);
    CHECK_EQ(result(&s), SWAI_MMU_PROBE_DONE | SWAI_MMU_R_NOT_PRESENT << 4);

    /* Probes never latch a fault and never interrupt. */
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), 0);
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_VA_LO), 0);
    CHECK_EQ(rd(&s, SWAI_REG_IRQ_STATUS), 0);
    CHECK_EQ(rd(&s, SWAI_REG_ERROR), 0);
    CHECK_EQ(total_notifies(), 0);
}

/* The same VA in two contexts reaches different pages, or none. */
static void test_mmu_isolation(void)
{
    const uint64_t va = 0x40000000, only2 = 0x80000;
    struct swai_card s;
    struct swai_mmu_xlat x1, x2;

    make_mmu(&s, 128);
    ctx_set(1);
    ctx_set(2);
    ctx_set(3);
    map(1, va, 0x100000 | SWAI_PTE_VALID | SWAI_PTE_WRITE);
    map(2, va, 0x200000 | SWAI_PTE_VALID | SWAI_PTE_WRITE);
    map(2, only2, 0x300000 | SWAI_PTE_VALID | SWAI_PTE_WRITE);

    CHECK_EQ(xl(&s, 1, va + 4, true, &x1), 0);
    CHECK_EQ(xl(&s, 2, va + 4, true, &x2), 0);
    CHECK_EQ(x1.addr, 0x100004);
    CHECK_EQ(x2.addr, 0x200004);
    CHECK(x1.addr != x2.addr);
    CHECK_EQ(xl(&s, 2, only2, false, &x2), 0);
    CHECK_EQ(x2.addr, 0x300000);
    CHECK_EQ(xl(&s, 1, only2, false, &x1), SWAI_MMU_R_NOT_PRESENT);
    CHECK_EQ(xl(&s, 3, va, false, &x1), SWAI_MMU_R_NOT_PRESENT);
    CHECK_EQ(xl(&s, 3, only2, false, &x1), SWAI_MMU_R_NOT_PRESENT);
    CHECK_EQ(xl(&s, 4, va, false, &x1), SWAI_MMU_R_CTX);
    /* Same through the probe. */
    CHECK_EQ(probe(&s, 1, only2, 0),
             SWAI_MMU_PROBE_DONE | SWAI_MMU_R_NOT_PRESENT << 4);
    CHECK_EQ(probe(&s, 2, only2, 0),
             0x300000 | SWAI_MMU_PROBE_OK | SWAI_MMU_PROBE_DONE);
    /* Invalidating context 1 leaves context 2 working. */
    put64(CTX_TABLE + 16, 0);
    wr(&s, SWAI_REG_MMU_INVALIDATE, 1);
    CHECK_EQ(xl(&s, 1, va, false, &x1), SWAI_MMU_R_CTX);
    CHECK_EQ(xl(&s, 2, va, false, &x2), 0);
    CHECK_EQ(x2.addr, 0x200000);
}

static void mmu_dirty(struct swai_card *s)
{
    ctx_set(1);
    map(1, 0, 0x5000 | SWAI_PTE_VALID);
    wr(s, SWAI_REG_MMU_CTX_TABLE_LO, (uint32_t)CTX_TABLE);
    wr(s, SWAI_REG_MMU_CTX_TABLE_HI, CTX_TABLE >> 32);
    swai_mmu_fault(&s->mmu, 1, 0x1234, true, SWAI_MMU_R_WALK);
    swai_mmu_fault(&s->mmu, 1, 0x1234, true, SWAI_MMU_R_WALK);
    CHECK_EQ(probe(s, 1, 0, 0),
             0x5000 | SWAI_MMU_PROBE_OK | SWAI_MMU_PROBE_DONE);
    probe_go(s, 1, 0, 0);                   /* and one in flight */
}

static void test_mmu_reset(void)
{
    struct swai_card s;
    struct swai_mmu_xlat x;

    make_mmu(&s, 64);
    /* Soft reset. */
    mmu_dirty(&s);
    wr(&s, SWAI_REG_RESET, SWAI_RESET_MAGIC);
    swai_card_bh(&s);
    check_reset_state(&s, 64, 0, 8, 64);
    CHECK_EQ(xl(&s, 1, 0, false, &x), SWAI_MMU_R_CTX);
    /* Hard reset, then the stale bottom half: no probe result appears. */
    quiesce(&s);
    mmu_dirty(&s);
    swai_card_reset(&s);
    check_reset_state(&s, 64, 0, 8, 64);
    swai_card_bh(&s);
    CHECK_EQ(result(&s), 0);
    /* MMU writes are dropped while a soft reset is in flight. */
    wr(&s, SWAI_REG_RESET, SWAI_RESET_MAGIC);
    cb.kicks = 0;
    probe_go(&s, 1, 0, 0);
    wr(&s, SWAI_REG_MMU_CTX_TABLE_LO, 0x1000);
    CHECK_EQ(cb.kicks, 0);
    swai_card_bh(&s);
    check_reset_state(&s, 64, 0, 8, 64);
}

/* One walk and one read of the window, then its run, as swai-mem does. */
static int translate_run(struct swai_card *s, uint32_t asid, uint64_t va,
                         uint64_t len, bool w, struct swai_mmu_xlat *x)
{
    uint64_t e[SWAI_MMU_WINDOW_PAGES];
    unsigned n;
    int r;

    r = swai_mmu_read_window(&s->mmu, asid, va, e, &n);
    return r ? r : swai_mmu_run(&s->mmu, e, n, va, len, w, x);
}

/* Runs: one walk, then consecutive level-2 entries that follow on. */
static void test_mmu_translate_run(void)
{
    struct swai_card s;
    struct swai_mmu_xlat x;
    uint64_t va = 5ull << 21, i, reads;

    make_mmu(&s, 64);
    ctx_set(1);
    /* Pages 0..9 contiguous HBM, 10 read-only, 11 host, 12 a gap, 13.. */
    for (i = 0; i < 10; i++) {
        map(1, va + i * PG, (0x100000 + i * PG) | SWAI_PTE_WRITE |
            SWAI_PTE_VALID);
    }
    map(1, va + 10 * PG, (0x100000 + 10 * PG) | SWAI_PTE_VALID);
    map(1, va + 11 * PG, (HOST_BASE + 0x80000) | SWAI_PTE_HOST |
        SWAI_PTE_WRITE | SWAI_PTE_VALID);
    map(1, va + 13 * PG, 0x200000 | SWAI_PTE_WRITE | SWAI_PTE_VALID);

    reads = cb.dma_reads;
    CHECK_EQ(translate_run(&s, 1, va + 0x10, 20 * PG, true, &x), 0);
    CHECK_EQ(cb.dma_reads - reads, 4);      /* ctx, L0, L1, entries at once */
    CHECK_EQ(x.addr, 0x100010);
    CHECK_EQ(x.run, 10 * PG - 0x10);        /* stops at the read-only page */
    CHECK(!x.host);
    /* For a read the read-only page continues the run. */
    CHECK_EQ(translate_run(&s, 1, va, 20 * PG, false, &x), 0);
    CHECK_EQ(x.run, 11 * PG);
    /* Only as far as the access goes. */
    CHECK_EQ(translate_run(&s, 1, va + 0xff0, 0x20, false, &x), 0);
    CHECK_EQ(x.run, 2 * PG - 0xff0);
    CHECK_EQ(translate_run(&s, 1, va + 0xff0, 0x10, false, &x), 0);
    CHECK_EQ(x.run, 0x10);
    CHECK_EQ(translate_run(&s, 1, va + 5, 0, false, &x), 0);
    CHECK_EQ(x.run, PG - 5);
    /* A host page is a run of its own; the gap stops it. */
    CHECK_EQ(translate_run(&s, 1, va + 11 * PG, 3 * PG, true, &x),
             0);
    CHECK(x.host);
    CHECK_EQ(x.addr, HOST_BASE + 0x80000);
    CHECK_EQ(x.run, PG);
    /* Faults are those of va's own page, like swai_mmu_translate(). */
    CHECK_EQ(translate_run(&s, 1, va + 10 * PG, PG, true, &x),
             SWAI_MMU_R_READ_ONLY);
    CHECK_EQ(translate_run(&s, 1, va + 12 * PG, PG, false, &x),
             SWAI_MMU_R_NOT_PRESENT);
    CHECK_EQ(translate_run(&s, 2, va, PG, false, &x),
             SWAI_MMU_R_CTX);
    CHECK_EQ(translate_run(&s, 1, 1ull << 39, PG, false, &x),
             SWAI_MMU_R_RANGE);
    /* The run ends with the level-2 table or the mapping. */
    for (i = 0; i < 600; i++) {
        map(1, (7ull << 21) - 100 * PG + i * PG,
            (0x400000 + i * PG) | SWAI_PTE_VALID);
    }
    CHECK_EQ(translate_run(&s, 1, (7ull << 21) - 10 * PG, 50 * PG,
                                    false, &x), 0);
    CHECK_EQ(x.run, 10 * PG);
    CHECK_EQ(translate_run(&s, 1, 7ull << 21, 500 * PG, false, &x),
             0);
    CHECK_EQ(x.run, 500 * PG);
    CHECK_EQ(x.addr, 0x400000 + 100 * PG);
    /* The entries cannot be read in one go: one page, as translate does. */
    dma_fail_page = (slot_of(1, va, 2) & ~(PG - 1));
    CHECK_EQ(translate_run(&s, 1, va, 4 * PG, false, &x),
             SWAI_MMU_R_WALK);
    dma_fail_page = 0;
    CHECK_EQ(rd(&s, SWAI_REG_MMU_FAULT_STATUS), 0);     /* latches nothing */
}

static const struct tap_test tests[] = {
    { "MMU registers: access types and values", test_mmu_regs },
    { "MMU translates HBM and host pages", test_mmu_translate },
    { "MMU fault reasons, in order", test_mmu_fault_reasons },
    { "MMU: HBM pages must fit 4 x hbm-mb", test_mmu_hbm_edge },
    { "MMU fault latch, OVERFLOW, RW1C, IRQ edge", test_mmu_fault_latch },
    { "MMU translate then fault, as an engine does",
      test_mmu_translate_then_fault },
    { "MMU probe runs in the bottom half, latches nothing",
      test_mmu_probe },
    { "MMU contexts are isolated", test_mmu_isolation },
    { "reset clears the MMU state", test_mmu_reset },
    { "MMU translates runs of pages", test_mmu_translate_run },
};

TAP_MAIN(tests)
