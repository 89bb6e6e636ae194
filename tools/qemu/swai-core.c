/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-core.c - register semantics and memory layout of the SW-AI card.
 *
 * Documentation/datasheet.md is the contract this file implements; the
 * register numbers come from kernel/swai_regs.h, shared with the driver.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "swai-core.h"

#define SWAI_MIB (1024ull * 1024)

/* Global-HBM chunks must tile every possible Cross segment exactly. */
_Static_assert((SWAI_PART_ALIGN_MB * SWAI_MIB) % SWAI_GLOBAL_GRANULE == 0,
               "partition granule must be a multiple of the Global granule");
_Static_assert(SWAI_IRQ_QUEUE_MASK == (((1u << SWAI_NUM_CG) - 1) << 8),
               "one queue IRQ bit per core group");

void swai_props_init(struct swai_props *p)
{
    p->hbm_mb = 256;
    p->local_mb = SWAI_LOCAL_MB_AUTO;
    p->cpes = 32;
    p->ldm_kb = 256;
    swai_timing_props_init(&p->t);
}

const char *swai_props_validate(struct swai_props *p)
{
    if (p->hbm_mb < SWAI_HBM_MB_MIN || p->hbm_mb > SWAI_HBM_MB_MAX) {
        return "hbm-mb must be in 1..16384";
    }
    if (p->cpes < SWAI_CPES_MIN || p->cpes > SWAI_CPES_MAX) {
        return "cpes must be in 1..64";
    }
    if (p->ldm_kb < SWAI_LDM_KB_MIN || p->ldm_kb > SWAI_LDM_KB_MAX ||
        (p->ldm_kb & (p->ldm_kb - 1))) {
        return "ldm-kb must be a power of two in 16..1024";
    }
    if (p->local_mb == SWAI_LOCAL_MB_AUTO) {
        p->local_mb = p->hbm_mb / 2 / SWAI_PART_ALIGN_MB * SWAI_PART_ALIGN_MB;
    }
    if (p->local_mb > p->hbm_mb) {
        return "local-mb must not exceed hbm-mb";
    }
    if (p->local_mb % SWAI_PART_ALIGN_MB) {
        return "local-mb must be a multiple of the partition granule";
    }
    return swai_timing_props_validate(&p->t);
}

/* --- interrupts --- */

/*
 * MSI-X is edge-triggered: signal a vector only for bits that have just
 * become pending-and-enabled.  'was' is status & enable before the change.
 */
static void irq_update(struct swai_core *s, uint32_t was)
{
    uint32_t edge = s->irq_status & s->irq_enable & ~was;
    unsigned cg;

    if (edge & SWAI_IRQ_MGMT_MASK) {
        s->ops->notify(s->opaque, SWAI_MSIX_MGMT);
    }
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        if (edge & SWAI_IRQ_QUEUE(cg)) {
            s->ops->notify(s->opaque, SWAI_MSIX_QUEUE(cg));
        }
    }
}

void swai_core_irq_raise(struct swai_core *s, uint32_t bits)
{
    uint32_t was = s->irq_status & s->irq_enable;

    s->irq_status |= bits & SWAI_IRQ_ALL;
    irq_update(s, was);
}

/* ERROR bits are sticky; only a newly set bit interrupts. */
static void set_error(struct swai_core *s, uint32_t bits)
{
    uint32_t fresh = bits & ~s->error;

    s->error |= bits;
    if (fresh) {
        swai_core_irq_raise(s, SWAI_IRQ_ERROR);
    }
}

/* --- reset --- */

/* The state both reset paths end in; IRQ_ENABLE = 0, so nothing fires. */
static void load_defaults(struct swai_core *s)
{
    s->status = SWAI_STATUS_READY;
    s->scratch = 0;
    s->error = 0;
    s->local_mb = s->props.local_mb;
    s->irq_status = SWAI_IRQ_RESET_DONE;
    s->irq_enable = 0;
    s->work = 0;
    swai_cp_reset(s);     /* every job dropped, no completions */
    swai_mmu_reset(&s->mmu);
}

void swai_core_init(struct swai_core *s, const struct swai_props *p,
                    const struct swai_core_ops *ops, void *opaque)
{
    memset(s, 0, sizeof(*s));
    s->props = *p;
    s->ops = ops;
    s->opaque = opaque;
    load_defaults(s);
}

bool swai_core_attach(struct swai_core *s, uint8_t *hbm, uint8_t *ldm)
{
    uint64_t g = (swai_core_ldm_bytes(s) + SWAI_SB_GRANULE - 1) /
                 SWAI_SB_GRANULE;
    unsigned cg;

    free(s->sb_mem);
    s->sb_mem = NULL;
    s->hbm = s->ldm = NULL;
    if (!ldm) {
        return true;
    }
    /* Zero: a granule nothing touched is ready at time 0. */
    s->sb_mem = calloc(2 * SWAI_NUM_CG * g, sizeof(uint64_t));
    if (!s->sb_mem) {
        return false;
    }
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        s->q[cg].sb.w_end = s->sb_mem + 2 * cg * g;
        s->q[cg].sb.r_end = s->sb_mem + (2 * cg + 1) * g;
        s->q[cg].sb.lo = s->q[cg].sb.hi = 0;
    }
    s->hbm = hbm;
    s->ldm = ldm;
    return true;
}

uint64_t swai_core_ldm_bytes(const struct swai_core *s)
{
    return (uint64_t)s->props.cpes * s->props.ldm_kb * 1024;
}

void swai_core_reset(struct swai_core *s)
{
    load_defaults(s);   /* also forgets a soft reset in flight */
}

void swai_core_bh(struct swai_core *s)
{
    if (s->work & SWAI_WORK_RESET) {
        load_defaults(s);   /* clears all work: a reset supersedes it */
        return;
    }
    if (s->work & SWAI_WORK_MMU_PROBE) {
        s->work &= ~SWAI_WORK_MMU_PROBE;
        swai_mmu_bh(s);
    }
}

/* --- memory layout --- */

uint64_t swai_core_hbm_bytes(const struct swai_core *s)
{
    return (uint64_t)s->props.hbm_mb * SWAI_MIB;
}

uint64_t swai_core_local_bytes(const struct swai_core *s)
{
    return (uint64_t)s->local_mb * SWAI_MIB;
}

uint64_t swai_core_global_bytes(const struct swai_core *s)
{
    return SWAI_NUM_CG * (swai_core_hbm_bytes(s) - swai_core_local_bytes(s));
}

bool swai_core_translate(const struct swai_core *s, unsigned cg,
                         uint64_t addr, struct swai_loc *loc)
{
    uint64_t local = swai_core_local_bytes(s);
    struct swai_loc l;

    if (cg >= SWAI_NUM_CG) {
        return false;
    }
    if (addr < SWAI_GLOBAL_BASE) {
        /* Local-HBM: the bottom of the issuing CG's own controller. */
        if (addr >= local) {
            return false;
        }
        l.ctrl = cg;
        l.off = addr;
        l.run = local - addr;
    } else {
        /* Global-HBM: granule k lives on controller k % NUM_CG. */
        uint64_t g = addr - SWAI_GLOBAL_BASE;
        uint64_t k = g / SWAI_GLOBAL_GRANULE;
        uint64_t in = g % SWAI_GLOBAL_GRANULE;

        if (g >= swai_core_global_bytes(s)) {
            return false;
        }
        l.ctrl = k % SWAI_NUM_CG;
        l.off = local + k / SWAI_NUM_CG * SWAI_GLOBAL_GRANULE + in;
        l.run = SWAI_GLOBAL_GRANULE - in;
    }
    l.phys = l.ctrl * swai_core_hbm_bytes(s) + l.off;
    *loc = l;
    return true;
}

/* --- registers --- */

static bool access_ok(uint64_t off, unsigned size)
{
    return size == 4 && !(off & 3) && off < SWAI_MMIO_SIZE;
}

/* Reads never have side effects; undefined offsets read as 0. */
uint32_t swai_core_mmio_read(struct swai_core *s, uint64_t off, unsigned size)
{
    uint32_t v;

    if (!access_ok(off, size)) {
        return 0;
    }
    if (swai_cp_mmio_read(s, off, &v) || swai_mmu_mmio_read(s, off, &v)) {
        return v;
    }

    switch (off) {
    case SWAI_REG_ID:
        return SWAI_ID_MAGIC;
    case SWAI_REG_VERSION:
        return SWAI_HW_VERSION;
    case SWAI_REG_CAPS:
        return SWAI_CAP_MSIX | SWAI_CAP_APERTURE | SWAI_CAP_PARTITION |
               SWAI_CAP_SWI | SWAI_CAP_MMU | SWAI_CAP_QUEUES |
               SWAI_CAP_TIMING | SWAI_CAP_PEER | SWAI_CAP_COMPUTE;
    case SWAI_REG_STATUS:
        return s->status;
    case SWAI_REG_SCRATCH:
        return s->scratch;
    case SWAI_REG_ERROR:
        return s->error;
    case SWAI_REG_NUM_CG:
        return SWAI_NUM_CG;
    case SWAI_REG_CPES_PER_CG:
        return s->props.cpes;
    case SWAI_REG_LDM_SIZE:
        return s->props.ldm_kb * 1024;
    case SWAI_REG_GLOBAL_GRANULE:
        return SWAI_GLOBAL_GRANULE;
    case SWAI_REG_HBM_PER_CG_MB:
        return s->props.hbm_mb;
    case SWAI_REG_LOCAL_PER_CG_MB:
        return s->local_mb;
    case SWAI_REG_GLOBAL_BASE_LO:
        return (uint32_t)SWAI_GLOBAL_BASE;
    case SWAI_REG_GLOBAL_BASE_HI:
        return (uint32_t)(SWAI_GLOBAL_BASE >> 32);
    case SWAI_REG_IRQ_STATUS:
        return s->irq_status;
    case SWAI_REG_IRQ_ENABLE:
        return s->irq_enable;
    default:
        return 0;   /* RESET, IRQ_RAISE (write-only) and holes */
    }
}

static void write_reset(struct swai_core *s, uint32_t v)
{
    if (v != SWAI_RESET_MAGIC) {
        set_error(s, SWAI_ERR_BAD_RESET);
        return;
    }
    /* Slow in real hardware: READY drops now, the bottom half restores it. */
    s->status &= ~SWAI_STATUS_READY;
    s->work |= SWAI_WORK_RESET;
    s->ops->kick(s->opaque);
}

static void write_partition(struct swai_core *s, uint32_t v)
{
    if (v % SWAI_PART_ALIGN_MB || v > s->props.hbm_mb) {
        set_error(s, SWAI_ERR_BAD_PARTITION);
        return;
    }
    s->local_mb = v;
}

void swai_core_mmio_write(struct swai_core *s, uint64_t off, uint64_t val,
                          unsigned size)
{
    uint32_t v = (uint32_t)val;
    uint32_t was;

    /* A reset in flight owns the device: drop writes until READY. */
    if (s->work & SWAI_WORK_RESET) {
        return;
    }
    if (!access_ok(off, size)) {
        set_error(s, SWAI_ERR_BAD_ACCESS);
        return;
    }
    if (swai_cp_mmio_write(s, off, v) || swai_mmu_mmio_write(s, off, v)) {
        return;
    }

    switch (off) {
    case SWAI_REG_RESET:
        write_reset(s, v);
        break;
    case SWAI_REG_SCRATCH:
        s->scratch = v;
        break;
    case SWAI_REG_ERROR:
        s->error &= ~v;
        break;
    case SWAI_REG_LOCAL_PER_CG_MB:
        write_partition(s, v);
        break;
    case SWAI_REG_IRQ_STATUS:
        s->irq_status &= ~v;
        break;
    case SWAI_REG_IRQ_ENABLE:
        was = s->irq_status & s->irq_enable;
        s->irq_enable = v & SWAI_IRQ_ALL;
        irq_update(s, was);
        break;
    case SWAI_REG_IRQ_RAISE:
        swai_core_irq_raise(s, v);
        break;
    default:
        /* Read-only identity, geometry, STATUS and MMU regs, and holes. */
        set_error(s, SWAI_ERR_BAD_ACCESS);
        break;
    }
}
