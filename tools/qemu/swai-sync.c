/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-sync.c - the semaphore instructions of core-group programs:
 * BARRIER, SIGNAL, WAIT, FENCE, TIMESTAMP (datasheet §13.6).
 *
 * A semaphore is an 8-byte aligned little-endian u64 at a device VA.  The
 * MPE runs all CGs under one lock, so a read-modify-write by one CG is
 * atomic with respect to the others (not to the host CPU).  For the timing
 * model the card remembers when (in modeled time) it last wrote each
 * semaphore: a CG that a write releases leaves its BARRIER or WAIT no
 * earlier than that.
 */
#include <string.h>

#include "swai-core.h"
#include "swai-exec.h"
#include "swai-mem.h"

/* Read or write the semaphore at va; 'where' says where it lives. */
static int sem_rw(struct swai_core *s, unsigned cg, uint64_t va, bool write,
                  uint64_t *val, struct swai_memloc *where)
{
    struct swai_job *j = &s->q[cg].job;
    uint8_t b[8];
    int r, i;

    if (va & 7) {
        j->fault_va = va;
        return SWAI_JOB_ERR_ALIGN;
    }
    r = swai_mem_locate(s, cg, j, va, 8, write, where);
    if (r) {
        return r;
    }
    if (write) {
        for (i = 0; i < 8; i++) {
            b[i] = (uint8_t)(*val >> (8 * i));
        }
    }
    if (!where->host) {
        if (write) {
            memcpy(s->hbm + where->addr, b, 8);
        } else {
            memcpy(b, s->hbm + where->addr, 8);
        }
    } else if (write ? s->ops->dma_write(s->opaque, where->addr, b, 8)
                     : s->ops->dma_read(s->opaque, where->addr, b, 8)) {
        j->fault_va = va;
        return SWAI_JOB_ERR_DMA;
    }
    if (!write) {
        *val = 0;
        for (i = 7; i >= 0; i--) {
            *val = *val << 8 | b[i];
        }
    }
    return SWAI_JOB_OK;
}

/* Store v at va and remember when, for the CGs it may release. */
static int sem_store(struct swai_core *s, unsigned cg, uint64_t va,
                     uint64_t v)
{
    struct swai_memloc m;
    int r = sem_rw(s, cg, va, true, &v, &m);

    if (!r) {
        swai_cp_sem_record(s, m.host, m.addr, s->q[cg].clock_ps);
    }
    return r;
}

int swai_exec_sem_check(struct swai_core *s, unsigned cg)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job;
    struct swai_memloc m;
    uint64_t v, t;
    int r;

    r = sem_rw(s, cg, j->wait_va, false, &v, &m);
    if (r) {
        return r;
    }
    if (j->wait_eq ? v != j->wait_target : v < j->wait_target) {
        return SWAI_JOB_OK;
    }
    t = swai_cp_sem_time(s, m.host, m.addr);
    q->clock_ps = (t > q->clock_ps ? t : q->clock_ps) + j->wait_cost_ps;
    j->wait = SWAI_WAIT_NONE;
    swai_exec_next(j);
    return SWAI_JOB_OK;
}

/* Block on va until it reaches target (== target with eq), then check. */
static int sem_block(struct swai_core *s, unsigned cg, uint64_t va,
                     uint64_t target, bool eq, uint32_t cost_ns)
{
    struct swai_job *j = &s->q[cg].job;

    j->wait = SWAI_WAIT_SEM;
    j->wait_va = va;
    j->wait_target = target;
    j->wait_eq = eq;
    j->wait_cost_ps = swai_timing_ns_to_ps(cost_ns);
    return swai_exec_sem_check(s, cg);
}

static int exec_barrier(struct swai_core *s, unsigned cg,
                        const struct swai_insn *in)
{
    const struct swai_timing_props *tp = &s->props.t;
    struct swai_memloc m;
    uint64_t old;
    int r;

    r = sem_rw(s, cg, in->dst, false, &old, &m);
    if (!r) {
        r = sem_store(s, cg, in->dst, old + 1);
    }
    if (r) {
        return r;
    }
    /* A monotone counter: round k of N arrivals ends at (k + 1) * N. */
    return sem_block(s, cg, in->dst, (old / in->len + 1) * in->len, false,
                     in->flags & SWAI_BARRIER_HOST ? tp->t_sync_ns
                                                   : tp->t_barrier_ns);
}

int swai_exec_sync(struct swai_core *s, unsigned cg,
                   const struct swai_insn *in)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job;
    struct swai_memloc m;
    uint64_t v;
    int r;

    switch (in->op) {
    case SWAI_OP_BARRIER:
        return exec_barrier(s, cg, in);
    case SWAI_OP_WAIT:
        return sem_block(s, cg, in->dst, in->src, in->flags & SWAI_WAIT_EQ,
                         s->props.t.t_barrier_ns);
    case SWAI_OP_SIGNAL:
        v = 0;
        r = sem_rw(s, cg, in->dst, false, &v, &m);
        if (!r && (in->flags & SWAI_SIGNAL_SET)) {
            v = in->src;
        } else if (!r) {
            v += in->src;
        }
        break;
    case SWAI_OP_FENCE:
        v = in->src;
        r = SWAI_JOB_OK;
        break;
    default:    /* SWAI_OP_TIMESTAMP */
        if (in->flags & SWAI_TIMESTAMP_WALL) {
            v = s->ops->wall_ns(s->opaque) - s->cp.wall0;
        } else {
            v = q->clock_ps / SWAI_PS_PER_NS;
        }
        r = SWAI_JOB_OK;
        break;
    }
    if (!r) {
        r = sem_store(s, cg, in->dst, v);
    }
    if (r) {
        return r;
    }
    if (in->op == SWAI_OP_FENCE) {
        q->fences++;
        swai_core_irq_raise(s, SWAI_IRQ_QUEUE(cg));
    }
    swai_exec_next(j);
    return SWAI_JOB_OK;
}
