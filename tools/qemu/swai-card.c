/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-card.c - register semantics and reset of the SW-AI card
 * (swai-card.h).
 *
 * Documentation/datasheet.md is the contract this file implements; the
 * register numbers come from kernel/swai_regs.h, shared with the driver.
 */
#include "swai-trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-card.h"

void swai_card_props_init(struct swai_props *p)
{
    p->hbm_mb = SWAI_HBM_MB_DEFAULT;
    p->local_mb = SWAI_LOCAL_MB_AUTO;
    p->cpes = SWAI_CPES_DEFAULT;
    p->ldm_kb = SWAI_LDM_KB_DEFAULT;
    swai_timing_props_init(&p->t);
}

const char *swai_card_props_validate(struct swai_props *p)
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

/* ERROR bits are sticky; only a newly set bit interrupts. */
static void set_error(struct swai_card *s, uint32_t bits)
{
    uint32_t fresh = bits & ~s->error;

    s->error |= bits;
    if (fresh) {
        swai_irq_raise(&s->irq, SWAI_IRQ_ERROR);
    }
}

/* --- reset --- */

/* The state both reset paths end in; IRQ_ENABLE = 0, so nothing fires. */
static void load_defaults(struct swai_card *s)
{
    s->status = SWAI_STATUS_READY;
    s->scratch = 0;
    s->error = 0;
    s->fabric_peer = 0;
    s->layout.local_mb = s->props.local_mb;
    swai_irq_reset(&s->irq);
    s->work = 0;
    swai_cp_reset(&s->cp);      /* every job dropped, no completions */
    swai_netport_reset(&s->nic);    /* every NIC port closed */
    swai_mmu_reset(&s->mmu);
}

void swai_card_init(struct swai_card *s, const struct swai_props *p,
                    const struct swai_glue_ops *ops, void *opaque)
{
    memset(s, 0, sizeof(*s));
    s->props = *p;
    s->glue.ops = ops;
    s->glue.opaque = opaque;
    s->layout.hbm_mb = p->hbm_mb;
    s->layout.local_mb = p->local_mb;
    swai_irq_init(&s->irq, &s->glue);
    swai_mmu_init(&s->mmu, &s->glue, &s->layout, &s->irq);
    swai_cp_init(&s->cp, &p->t, swai_card_ldm_bytes(s), &s->glue, &s->irq,
                 &s->mmu, &s->layout);
    swai_netport_init(&s->nic, &s->glue, &s->mmu, &s->irq);
    load_defaults(s);
}

bool swai_card_attach(struct swai_card *s, uint8_t *hbm, uint8_t *ldm)
{
    swai_netport_attach_hbm(&s->nic, hbm,
                            SWAI_NUM_CG * swai_layout_hbm_bytes(&s->layout));
    return swai_cp_attach(&s->cp, hbm, ldm);
}

int swai_card_join_fabric(struct swai_card *s, struct swai_fabric *f,
                          unsigned card, char *why, size_t n)
{
    struct swai_fabric_port port = {
        .hbm = s->cp.mem.hbm,
        .hbm_bytes = SWAI_NUM_CG * swai_layout_hbm_bytes(&s->layout),
        .engine = &s->cp.engine,
        .wake = s->glue.ops->wake,
        .wake_opaque = s->glue.opaque,
    };
    int r;

    if (s->cp.mem.fabric) {
        snprintf(why, n, "the card is already on a fabric");
        return -EBUSY;
    }
    r = swai_fabric_join(f, card, &port, why, n);
    if (!r) {
        s->cp.mem.fabric = f;
        s->cp.mem.fabric_card = card;
    }
    return r;
}

void swai_card_leave_fabric(struct swai_card *s)
{
    if (s->cp.mem.fabric) {
        swai_fabric_leave(s->cp.mem.fabric, s->cp.mem.fabric_card);
        s->cp.mem.fabric = NULL;
    }
}

/* FABRIC_PEER_*: the route to the card FABRIC_PEER names. */
static uint32_t fabric_peer_reg(struct swai_card *s, uint64_t off)
{
    struct swai_fabric *f = s->cp.mem.fabric;
    struct swai_fabric_path p;

    if (!f || !swai_fabric_path(f, s->cp.mem.fabric_card, s->fabric_peer,
                                &p)) {
        return 0;
    }
    switch (off) {
    case SWAI_REG_FABRIC_PEER_PATH:
        return SWAI_FABRIC_PATH_ROUTE | (p.hops & 0xff) << 8 |
               (f->port[s->fabric_peer].hbm ? SWAI_FABRIC_PATH_JOINED : 0);
    case SWAI_REG_FABRIC_PEER_MBPS:
        return p.mbps;
    default:
        return p.latency_ns;
    }
}

uint64_t swai_card_ldm_bytes(const struct swai_card *s)
{
    return (uint64_t)s->props.cpes * s->props.ldm_kb * 1024;
}

void swai_card_reset(struct swai_card *s)
{
    trace_swai_reset("hard");
    load_defaults(s);   /* also forgets a soft reset in flight */
}

void swai_card_bh(struct swai_card *s)
{
    if (s->work & SWAI_WORK_RESET) {
        trace_swai_reset("soft");
        load_defaults(s);   /* clears all work: a reset supersedes it */
        return;
    }
    if (s->work & SWAI_WORK_MMU_PROBE) {
        s->work &= ~SWAI_WORK_MMU_PROBE;
        swai_mmu_probe(&s->mmu);
    }
}

bool swai_card_step(struct swai_card *s)
{
    return swai_cp_step(&s->cp);
}

bool swai_card_polling(const struct swai_card *s)
{
    return swai_cp_polling(&s->cp);
}

/* --- registers --- */

static bool access_ok(uint64_t off, unsigned size)
{
    return size == 4 && !(off & 3) && off < SWAI_MMIO_SIZE;
}

static uint32_t reg_read(struct swai_card *s, uint64_t off)
{
    uint32_t v;

    if (swai_cp_regs_read(&s->cp, off, &v) ||
        swai_mmu_mmio_read(&s->mmu, off, &v) ||
        swai_netport_read(&s->nic, off, &v)) {
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
               SWAI_CAP_TIMING | SWAI_CAP_PEER | SWAI_CAP_COMPUTE |
               SWAI_CAP_FABRIC | SWAI_CAP_NIC;
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
        return s->layout.local_mb;
    case SWAI_REG_GLOBAL_BASE_LO:
        return (uint32_t)SWAI_GLOBAL_BASE;
    case SWAI_REG_GLOBAL_BASE_HI:
        return (uint32_t)(SWAI_GLOBAL_BASE >> 32);
    case SWAI_REG_FABRIC_ID:
        return s->cp.mem.fabric ? s->cp.mem.fabric_card : 0;
    case SWAI_REG_FABRIC_CARDS:
        return s->cp.mem.fabric ? s->cp.mem.fabric->ncards : 0;
    case SWAI_REG_FABRIC_TAG:
        return s->cp.mem.fabric ? s->cp.mem.fabric->tag : 0;
    case SWAI_REG_FABRIC_PEER:
        return s->fabric_peer;
    case SWAI_REG_FABRIC_PEER_PATH:
    case SWAI_REG_FABRIC_PEER_MBPS:
    case SWAI_REG_FABRIC_PEER_LAT_NS:
        return fabric_peer_reg(s, off);
    case SWAI_REG_IRQ_STATUS:
        return s->irq.status;
    case SWAI_REG_IRQ_ENABLE:
        return s->irq.enable;
    default:
        return 0;   /* RESET, IRQ_RAISE (write-only) and holes */
    }
}

/* Reads never have side effects; undefined offsets read as 0. */
uint32_t swai_card_mmio_read(struct swai_card *s, uint64_t off, unsigned size)
{
    uint32_t v;

    if (!access_ok(off, size)) {
        swai_glue_guest_error(&s->glue, "swai: BAR0 read of %u bytes at "
                              "0x%" PRIx64 ": only aligned 32-bit accesses",
                              size, off);
        return 0;
    }
    v = reg_read(s, off);
    trace_swai_mmio_read(off, v);
    return v;
}

static void write_reset(struct swai_card *s, uint32_t v)
{
    if (v != SWAI_RESET_MAGIC) {
        swai_glue_guest_error(&s->glue, "swai: RESET written with 0x%x, not "
                              "the magic 0x%x", v, SWAI_RESET_MAGIC);
        set_error(s, SWAI_ERR_BAD_RESET);
        return;
    }
    /* Slow in real hardware: READY drops now, the bottom half restores it. */
    s->status &= ~SWAI_STATUS_READY;
    s->work |= SWAI_WORK_RESET;
    s->glue.ops->kick(s->glue.opaque);
}

static void write_partition(struct swai_card *s, uint32_t v)
{
    if (v % SWAI_PART_ALIGN_MB || v > s->props.hbm_mb) {
        swai_glue_guest_error(&s->glue, "swai: LOCAL_PER_CG_MB %u beyond "
                              "hbm-mb %u", v, s->props.hbm_mb);
        set_error(s, SWAI_ERR_BAD_PARTITION);
        return;
    }
    s->layout.local_mb = v;
}

void swai_card_mmio_write(struct swai_card *s, uint64_t off, uint64_t val,
                          unsigned size)
{
    uint32_t v = (uint32_t)val;

    /* A reset in flight owns the device: drop writes until READY. */
    if (s->work & SWAI_WORK_RESET) {
        return;
    }
    trace_swai_mmio_write(off, v);
    if (!access_ok(off, size)) {
        swai_glue_guest_error(&s->glue, "swai: BAR0 write of %u bytes at "
                              "0x%" PRIx64 ": only aligned 32-bit accesses",
                              size, off);
        set_error(s, SWAI_ERR_BAD_ACCESS);
        return;
    }
    if (swai_cp_regs_write(&s->cp, off, v) ||
        swai_netport_write(&s->nic, off, v)) {
        return;
    }
    if (swai_mmu_mmio_write(&s->mmu, off, v)) {
        if (off == SWAI_REG_MMU_PROBE_GO) {
            /* The walk reads host memory: leave it to the bottom half. */
            s->work |= SWAI_WORK_MMU_PROBE;
            s->glue.ops->kick(s->glue.opaque);
        }
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
        swai_irq_ack(&s->irq, v);
        break;
    case SWAI_REG_IRQ_ENABLE:
        swai_irq_set_enable(&s->irq, v);
        break;
    case SWAI_REG_IRQ_RAISE:
        swai_irq_raise(&s->irq, v);
        break;
    case SWAI_REG_FABRIC_PEER:
        s->fabric_peer = v;
        break;
    default:
        /* Read-only identity, geometry, STATUS and MMU regs, and holes. */
        swai_glue_guest_error(&s->glue, "swai: write 0x%x to read-only or "
                              "undefined register 0x%" PRIx64, v, off);
        set_error(s, SWAI_ERR_BAD_ACCESS);
        break;
    }
}
