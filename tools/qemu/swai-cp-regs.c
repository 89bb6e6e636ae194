/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-cp-regs.c - the command processor's registers: the per-CG queue
 * blocks and the timing registers (kernel/swai_regs.h; datasheet §4.5,
 * §4.6).  Writes only latch and wake the MPE thread; the work is done by
 * swai_cp_step() (swai-cp.c).
 */
#include "swai-core.h"

#define LO(x)       ((uint32_t)(x))
#define HI(x)       ((uint32_t)((uint64_t)(x) >> 32))

static bool queue_decode(uint64_t off, unsigned *cg, unsigned *r)
{
    if (off < SWAI_QUEUE_BASE || off >= SWAI_QUEUE_REG(SWAI_NUM_CG, 0)) {
        return false;
    }
    *cg = (off - SWAI_QUEUE_BASE) / SWAI_QUEUE_STRIDE;
    *r = (off - SWAI_QUEUE_BASE) % SWAI_QUEUE_STRIDE;
    return true;
}

static uint32_t queue_status(const struct swai_queue *q)
{
    uint32_t v = 0;

    if (q->ctrl & SWAI_Q_CTRL_ENABLE) {
        v |= SWAI_Q_STATUS_ENABLED;
    }
    if (!q->job.active && q->head == q->tail) {
        v |= SWAI_Q_STATUS_IDLE;
    }
    if (q->bad_ring) {
        v |= SWAI_Q_STATUS_BAD_RING;
    }
    return v;
}

static uint32_t queue_read(const struct swai_queue *q, unsigned r)
{
    switch (r) {
    case SWAI_Q_RING_LO:
        return q->ring_lo;
    case SWAI_Q_RING_HI:
        return q->ring_hi;
    case SWAI_Q_RING_SIZE:
        return q->ring_size;
    case SWAI_Q_CTRL:
        return q->ctrl | (q->reset_pending ? SWAI_Q_CTRL_RESET : 0);
    case SWAI_Q_HEAD:
        return q->head;
    case SWAI_Q_TAIL:
        return q->tail;
    case SWAI_Q_STATUS:
        return queue_status(q);
    case SWAI_Q_COMPLETED_LO:
        return LO(q->completed);
    case SWAI_Q_COMPLETED_HI:
        return HI(q->completed);
    case SWAI_Q_CLOCK_LO:
        return LO(q->clock_ps / SWAI_PS_PER_NS);
    case SWAI_Q_CLOCK_HI:
        return HI(q->clock_ps / SWAI_PS_PER_NS);
    case SWAI_Q_JOBS:
        return q->jobs;
    case SWAI_Q_FENCES:
        return q->fences;
    default:
        return 0;
    }
}

static bool timing_read(const struct swai_core *s, uint64_t off,
                        uint32_t *val)
{
    const struct swai_timing_props *t = &s->props.t;

    switch (off) {
    case SWAI_REG_T_RING_MBPS:
        *val = t->ring_mbps;
        return true;
    case SWAI_REG_T_LOCAL_MBPS:
        *val = t->local_mbps;
        return true;
    case SWAI_REG_T_PCIE_MBPS:
        *val = t->pcie_mbps;
        return true;
    case SWAI_REG_T_LDM_MBPS:
        *val = t->ldm_mbps;
        return true;
    case SWAI_REG_T_LAUNCH_NS:
        *val = t->t_launch_ns;
        return true;
    case SWAI_REG_T_SYNC_NS:
        *val = t->t_sync_ns;
        return true;
    case SWAI_REG_T_STEP_NS:
        *val = t->t_step_ns;
        return true;
    case SWAI_REG_T_BARRIER_NS:
        *val = t->t_barrier_ns;
        return true;
    case SWAI_REG_T_DMA_NS:
        *val = t->t_dma_ns;
        return true;
    case SWAI_REG_T_RING_TOTAL_MBPS:
        *val = t->ring_total_mbps;
        return true;
    case SWAI_REG_T_F32_GFLOPS:
        *val = t->f32_gflops;
        return true;
    case SWAI_REG_T_BF16_GFLOPS:
        *val = t->bf16_gflops;
        return true;
    case SWAI_REG_CLOCK_LO:
        *val = LO(s->cp.clock_ps / SWAI_PS_PER_NS);
        return true;
    case SWAI_REG_CLOCK_HI:
        *val = HI(s->cp.clock_ps / SWAI_PS_PER_NS);
        return true;
    default:
        return false;
    }
}

bool swai_cp_mmio_read(const struct swai_core *s, uint64_t off,
                       uint32_t *val)
{
    unsigned cg, r;

    if (queue_decode(off, &cg, &r)) {
        *val = queue_read(&s->q[cg], r);
        return true;
    }
    return timing_read(s, off, val);
}

bool swai_cp_mmio_write(struct swai_core *s, uint64_t off, uint32_t v)
{
    struct swai_queue *q;
    unsigned cg, r;

    if (!queue_decode(off, &cg, &r)) {
        return false;
    }
    q = &s->q[cg];
    switch (r) {
    case SWAI_Q_RING_LO:
        q->ring_lo = v;
        return true;
    case SWAI_Q_RING_HI:
        q->ring_hi = v;
        return true;
    case SWAI_Q_RING_SIZE:
        q->ring_size = v;   /* checked when a descriptor is fetched */
        return true;
    case SWAI_Q_CTRL:
        q->ctrl = v & SWAI_Q_CTRL_ENABLE;
        if (v & SWAI_Q_CTRL_RESET) {
            q->reset_pending = true;    /* done by the MPE thread */
        }
        s->ops->wake(s->opaque);
        return true;
    case SWAI_Q_TAIL:
        q->tail = v;        /* the doorbell */
        s->ops->wake(s->opaque);
        return true;
    default:
        return false;
    }
}
