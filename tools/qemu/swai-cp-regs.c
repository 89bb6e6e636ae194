/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-cp-regs.c - the command processor's registers: the per-CG queue
 * blocks and the timing registers (kernel/swai_regs.h; datasheet §4.5,
 * §4.6).  Writes only latch and wake the MPE thread; the work is done by
 * swai_cp_step() (swai-cp.c).
 */
#include "swai-trace.h"

#include "swai-cp.h"

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

static uint32_t queue_status(const struct swai_cp *cp, unsigned cg)
{
    const struct swai_cp_queue *q = &cp->q[cg];
    uint32_t v = 0;

    if (q->ctrl & SWAI_Q_CTRL_ENABLE) {
        v |= SWAI_Q_STATUS_ENABLED;
    }
    if (!swai_engine_busy(&cp->engine, cg) && q->head == q->tail) {
        v |= SWAI_Q_STATUS_IDLE;
    }
    if (q->bad_ring) {
        v |= SWAI_Q_STATUS_BAD_RING;
    }
    return v;
}

static uint32_t queue_read(const struct swai_cp *cp, unsigned cg, unsigned r)
{
    const struct swai_cp_queue *q = &cp->q[cg];

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
        return queue_status(cp, cg);
    case SWAI_Q_COMPLETED_LO:
        return LO(q->completed);
    case SWAI_Q_COMPLETED_HI:
        return HI(q->completed);
    case SWAI_Q_CLOCK_LO:
        return LO(swai_engine_cg_clock_ns(&cp->engine, cg));
    case SWAI_Q_CLOCK_HI:
        return HI(swai_engine_cg_clock_ns(&cp->engine, cg));
    case SWAI_Q_JOBS:
        return q->jobs;
    case SWAI_Q_FENCES:
        return q->fences;
    default:
        return 0;
    }
}

static bool timing_read(const struct swai_cp *cp, uint64_t off,
                        uint32_t *val)
{
    const struct swai_timing_props *t = &cp->engine.tp;

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
        *val = LO(swai_engine_clock_ns(&cp->engine));
        return true;
    case SWAI_REG_CLOCK_HI:
        *val = HI(swai_engine_clock_ns(&cp->engine));
        return true;
    default:
        return false;
    }
}

bool swai_cp_regs_read(const struct swai_cp *cp, uint64_t off,
                       uint32_t *val)
{
    unsigned cg, r;

    if (queue_decode(off, &cg, &r)) {
        *val = queue_read(cp, cg, r);
        return true;
    }
    return timing_read(cp, off, val);
}

bool swai_cp_regs_write(struct swai_cp *cp, uint64_t off, uint32_t v)
{
    struct swai_cp_queue *q;
    unsigned cg, r;

    if (!queue_decode(off, &cg, &r)) {
        return false;
    }
    q = &cp->q[cg];
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
        cp->glue->ops->wake(cp->glue->opaque);
        return true;
    case SWAI_Q_TAIL:
        q->tail = v;        /* the doorbell */
        trace_swai_doorbell(cg, q->head, v);
        cp->glue->ops->wake(cp->glue->opaque);
        return true;
    default:
        return false;
    }
}
