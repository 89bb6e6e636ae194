/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-mmu.c - device MMU of the SW-AI card: table walk, fault latch,
 * translation probe and the MMU_* registers.
 *
 * Documentation/datasheet.md §11 is the contract; the numbers are in the
 * "Device MMU" block of kernel/swai_regs.h.
 */
#include "swai-trace.h"

#include <stddef.h>
#include <string.h>

#include "swai-mmu.h"
#include "swai-atomic.h"

#define LEVEL_BITS      9
#define LEVEL_MASK      ((1u << LEVEL_BITS) - 1)
_Static_assert(SWAI_MMU_WINDOW_PAGES == 1u << LEVEL_BITS,
               "a window is at most one level-2 table");
#define LEVELS          3
#define PAGE_MASK       (SWAI_MMU_PAGE_SIZE - 1)
#define REASON_SHIFT    4
#define ASID_SHIFT      8
#define LO(x)           ((uint32_t)(x))
#define HI(x)           ((uint32_t)((x) >> 32))

_Static_assert(SWAI_MMU_PAGE_SHIFT + LEVELS * LEVEL_BITS == SWAI_MMU_VA_BITS,
               "three levels of 512 entries cover the VA");
_Static_assert(SWAI_MMU_CONTEXTS <= 256, "ASID must fit FAULT_STATUS 15:8");

void swai_mmu_init(struct swai_mmu *m, const struct swai_glue *glue,
                   const struct swai_layout *layout, struct swai_irq *irq)
{
    m->glue = glue;
    m->layout = layout;
    m->irq = irq;
    swai_mmu_reset(m);
}

void swai_mmu_reset(struct swai_mmu *m)
{
    m->ctx_table = 0;
    m->fault_status = 0;
    m->fault_va = 0;
    m->probe_asid = 0;
    m->probe_va = 0;
    m->probe_result = 0;
    m->probe_pending = false;
    m->go_asid = 0;
    m->go_va = 0;
    m->go_write = false;
    qatomic_set_u32(&m->tlb_gen, m->tlb_gen + 1);
}

static uint64_t ld_entry(const uint8_t *b)
{
    uint64_t v = 0;
    int i;

    for (i = 7; i >= 0; i--) {
        v = v << 8 | b[i];
    }
    return v;
}

/* Read one little-endian 64-bit entry; false if the DMA failed. */
static bool read_entry(const struct swai_mmu *m, uint64_t addr, uint64_t *e)
{
    uint8_t b[8];

    if (m->glue->ops->dma_read(m->glue->opaque, addr, b, sizeof(b))) {
        return false;
    }
    *e = ld_entry(b);
    return true;
}

/*
 * Checks run in this order, the first failing one gives the reason:
 * context (ASID, CTX_TABLE, entry valid), VA range, the three table
 * levels, HBM target, write permission.  walk() does all but the last
 * level: it returns the address of va's level-2 entry in *slot.
 */
static int walk(const struct swai_mmu *m, uint32_t asid, uint64_t va,
                uint64_t *slot)
{
    uint64_t e;
    int level;

    /* CTX_TABLE = 0 (its reset value) means no context is set up. */
    if (asid >= SWAI_MMU_CONTEXTS || !m->ctx_table) {
        return SWAI_MMU_R_CTX;
    }
    if (!read_entry(m, m->ctx_table + (uint64_t)asid * SWAI_MMU_CTX_ENTRY,
                    &e)) {
        return SWAI_MMU_R_WALK;
    }
    if (!(e & SWAI_PTE_VALID)) {
        return SWAI_MMU_R_CTX;
    }
    if (va >> SWAI_MMU_VA_BITS) {
        return SWAI_MMU_R_RANGE;
    }
    /* e points at the level-0 table; table entries need only VALID. */
    for (level = 0; level < LEVELS; level++) {
        unsigned shift = SWAI_MMU_VA_BITS - LEVEL_BITS * (level + 1);
        uint64_t idx = (va >> shift) & LEVEL_MASK;

        *slot = (e & SWAI_PTE_ADDR_MASK) + idx * 8;
        if (level == LEVELS - 1) {
            return 0;
        }
        if (!read_entry(m, *slot, &e)) {
            return SWAI_MMU_R_WALK;
        }
        if (!(e & SWAI_PTE_VALID)) {
            return SWAI_MMU_R_NOT_PRESENT;
        }
    }
    return 0;
}

int swai_mmu_leaf(const struct swai_mmu *m, uint64_t e, bool is_write)
{
    if (!(e & SWAI_PTE_VALID)) {
        return SWAI_MMU_R_NOT_PRESENT;
    }
    if ((e & SWAI_PTE_HOST) && (e & SWAI_PTE_FABRIC)) {
        return SWAI_MMU_R_BAD_TARGET;
    }
    /* A fabric page is checked against its card when it is reached. */
    if (!(e & (SWAI_PTE_HOST | SWAI_PTE_FABRIC)) &&
        (e & SWAI_PTE_ADDR_MASK) + SWAI_MMU_PAGE_SIZE >
        SWAI_NUM_CG * swai_layout_hbm_bytes(m->layout)) {
        return SWAI_MMU_R_BAD_TARGET;
    }
    if (is_write && !(e & SWAI_PTE_WRITE)) {
        return SWAI_MMU_R_READ_ONLY;
    }
    return 0;
}

int swai_mmu_translate(const struct swai_mmu *m, uint32_t asid, uint64_t va,
                       bool is_write, struct swai_mmu_xlat *out)
{
    uint64_t e, slot;
    int r;

    r = walk(m, asid, va, &slot);
    if (r) {
        return r;
    }
    if (!read_entry(m, slot, &e)) {
        return SWAI_MMU_R_WALK;
    }
    r = swai_mmu_leaf(m, e, is_write);
    if (r) {
        return r;
    }
    out->addr = (e & SWAI_PTE_ADDR_MASK) | (va & PAGE_MASK);
    out->run = SWAI_MMU_PAGE_SIZE - (va & PAGE_MASK);
    out->host = e & SWAI_PTE_HOST;
    out->fabric = e & SWAI_PTE_FABRIC;
    out->card = SWAI_PTE_CARD_OF(e);
    return 0;
}

int swai_mmu_run(const struct swai_mmu *m, const uint64_t *e, unsigned n,
                 uint64_t va, uint64_t len, bool is_write,
                 struct swai_mmu_xlat *out)
{
    uint64_t pages, i;
    int r;

    r = swai_mmu_leaf(m, e[0], is_write);
    if (r) {
        return r;
    }
    /* The pages len touches, as far as the entries go ... */
    pages = ((va & PAGE_MASK) + (len ? len : 1) + PAGE_MASK) >>
            SWAI_MMU_PAGE_SHIFT;
    pages = pages < n ? pages : n;
    /* ... that follow on in the same space and pass too. */
    for (i = 1; i < pages; i++) {
        if (swai_mmu_leaf(m, e[i], is_write) ||
            ((e[i] ^ e[0]) & (SWAI_PTE_HOST | SWAI_PTE_FABRIC |
                              SWAI_PTE_CARD_MASK)) ||
            (e[i] & SWAI_PTE_ADDR_MASK) !=
            (e[0] & SWAI_PTE_ADDR_MASK) + i * SWAI_MMU_PAGE_SIZE) {
            break;
        }
    }
    out->addr = (e[0] & SWAI_PTE_ADDR_MASK) | (va & PAGE_MASK);
    out->run = i * SWAI_MMU_PAGE_SIZE - (va & PAGE_MASK);
    out->host = e[0] & SWAI_PTE_HOST;
    out->fabric = e[0] & SWAI_PTE_FABRIC;
    out->card = SWAI_PTE_CARD_OF(e[0]);
    return 0;
}

int swai_mmu_read_window(const struct swai_mmu *m, uint32_t asid, uint64_t va,
                         uint64_t e[SWAI_MMU_WINDOW_PAGES], unsigned *n)
{
    uint8_t b[SWAI_MMU_WINDOW_PAGES * 8];
    uint64_t slot, i, pages;
    int r;

    r = walk(m, asid, va, &slot);
    if (r) {
        return r;
    }
    i = (slot & (SWAI_MMU_PAGE_SIZE - 1)) / 8;
    pages = (1u << LEVEL_BITS) - i;
    if (m->glue->ops->dma_read(m->glue->opaque, slot, b, pages * 8)) {
        /* As translate: the table itself is not readable at once. */
        if (!read_entry(m, slot, &e[0])) {
            return SWAI_MMU_R_WALK;
        }
        *n = 1;
        return 0;
    }
    for (i = 0; i < pages; i++) {
        e[i] = ld_entry(b + 8 * i);
    }
    *n = (unsigned)pages;
    return 0;
}

void swai_mmu_fault(struct swai_mmu *m, uint32_t asid, uint64_t va,
                    bool is_write, int reason)
{
    uint32_t was = m->fault_status;

    trace_swai_mmu_fault(asid, va, reason, is_write);

    if (m->fault_status & SWAI_MMU_FAULT_VALID) {
        m->fault_status |= SWAI_MMU_FAULT_OVERFLOW;
    } else {
        m->fault_status = SWAI_MMU_FAULT_VALID |
                          (is_write ? SWAI_MMU_FAULT_WRITE : 0) |
                          ((uint32_t)reason & 0xf) << REASON_SHIFT |
                          (asid & 0xff) << ASID_SHIFT;
        m->fault_va = va;
    }
    /* Like ERROR: only a change of the status interrupts. */
    if (m->fault_status != was) {
        swai_irq_raise(m->irq, SWAI_IRQ_MMU_FAULT);
    }
}

void swai_mmu_probe(struct swai_mmu *m)
{
    struct swai_mmu_xlat x;
    int r;

    /* A probe is a debug path: no fault is latched, nothing interrupts. */
    m->probe_pending = false;
    r = swai_mmu_translate(m, m->go_asid, m->go_va, m->go_write, &x);
    if (r) {
        m->probe_result = SWAI_MMU_PROBE_DONE |
                          ((uint64_t)r & 0xf) << REASON_SHIFT;
    } else {
        m->probe_result = (x.addr & ~PAGE_MASK) | SWAI_MMU_PROBE_OK |
                          (x.host ? SWAI_MMU_PROBE_HOST : 0) |
                          (x.fabric ? SWAI_MMU_PROBE_FABRIC : 0) |
                          SWAI_MMU_PROBE_DONE;
    }
}

bool swai_mmu_mmio_read(const struct swai_mmu *m, uint64_t off,
                        uint32_t *val)
{
    switch (off) {
    case SWAI_REG_MMU_CTX_TABLE_LO:
        *val = LO(m->ctx_table);
        return true;
    case SWAI_REG_MMU_CTX_TABLE_HI:
        *val = HI(m->ctx_table);
        return true;
    case SWAI_REG_MMU_CONTEXTS:
        *val = SWAI_MMU_CONTEXTS;
        return true;
    case SWAI_REG_MMU_FAULT_STATUS:
        *val = m->fault_status;
        return true;
    case SWAI_REG_MMU_FAULT_VA_LO:
        *val = LO(m->fault_va);
        return true;
    case SWAI_REG_MMU_FAULT_VA_HI:
        *val = HI(m->fault_va);
        return true;
    case SWAI_REG_MMU_PROBE_ASID:
        *val = m->probe_asid;
        return true;
    case SWAI_REG_MMU_PROBE_VA_LO:
        *val = LO(m->probe_va);
        return true;
    case SWAI_REG_MMU_PROBE_VA_HI:
        *val = HI(m->probe_va);
        return true;
    case SWAI_REG_MMU_PROBE_RESULT_LO:
        *val = LO(m->probe_result);
        return true;
    case SWAI_REG_MMU_PROBE_RESULT_HI:
        *val = HI(m->probe_result);
        return true;
    default:
        return false;   /* INVALIDATE and PROBE_GO are write-only */
    }
}

static void write_fault_status(struct swai_mmu *m, uint32_t v)
{
    if (v & SWAI_MMU_FAULT_VALID) {
        m->fault_status = 0;
        m->fault_va = 0;
    } else if (v & SWAI_MMU_FAULT_OVERFLOW) {
        m->fault_status &= ~SWAI_MMU_FAULT_OVERFLOW;
    }
}

static void write_probe_go(struct swai_mmu *m, uint32_t v)
{
    /* The walk reads host memory: the card runs it later. */
    m->go_asid = m->probe_asid;
    m->go_va = m->probe_va;
    m->go_write = v & SWAI_MMU_PROBE_WRITE;
    m->probe_result = 0;
    m->probe_pending = true;
}

bool swai_mmu_mmio_write(struct swai_mmu *m, uint64_t off, uint32_t v)
{
    switch (off) {
    case SWAI_REG_MMU_CTX_TABLE_LO:
        m->ctx_table = (m->ctx_table & ~0xffffffffull) | (v & ~PAGE_MASK);
        qatomic_set_u32(&m->tlb_gen, m->tlb_gen + 1);
        return true;
    case SWAI_REG_MMU_CTX_TABLE_HI:
        m->ctx_table = (uint64_t)v << 32 | LO(m->ctx_table);
        qatomic_set_u32(&m->tlb_gen, m->tlb_gen + 1);
        return true;
    case SWAI_REG_MMU_INVALIDATE:
        /* Every context's, whatever the ASID: the card keeps few. */
        qatomic_set_u32(&m->tlb_gen, m->tlb_gen + 1);
        return true;
    case SWAI_REG_MMU_FAULT_STATUS:
        write_fault_status(m, v);
        return true;
    case SWAI_REG_MMU_PROBE_ASID:
        m->probe_asid = v;
        return true;
    case SWAI_REG_MMU_PROBE_VA_LO:
        m->probe_va = (m->probe_va & ~0xffffffffull) | v;
        return true;
    case SWAI_REG_MMU_PROBE_VA_HI:
        m->probe_va = (uint64_t)v << 32 | LO(m->probe_va);
        return true;
    case SWAI_REG_MMU_PROBE_GO:
        write_probe_go(m, v);
        return true;
    default:
        return false;   /* CONTEXTS, FAULT_VA, PROBE_RESULT are RO */
    }
}
