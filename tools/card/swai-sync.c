/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sync.c - semaphore instructions and semaphore-write times
 * (swai-sync.h).
 */
#include <string.h>

#include "swai-access.h"
#include "swai-cg.h"
#include "swai-cost.h"
#include "swai-le.h"
#include "swai-sync.h"

/* --- when the card last wrote each semaphore --- */

static void remember(struct swai_engine_sem *r, uint64_t val, uint64_t ps)
{
    r->ps = ps > r->ps ? ps : r->ps;
    r->w[r->head].val = val;
    r->w[r->head].ps = r->ps;
    r->head = (r->head + 1) % SWAI_SEM_WRITES;
    r->n += r->n < SWAI_SEM_WRITES;
}

void swai_sync_record(struct swai_engine *e, bool host, uint64_t addr,
                      uint64_t val, uint64_t ps)
{
    struct swai_engine_sem *r, *victim = &e->sem[0];

    for (r = e->sem; r < e->sem + SWAI_ENGINE_SEMS; r++) {
        if (r->used && r->host == host && r->addr == addr) {
            remember(r, val, ps);
            return;
        }
        /* Forget an unused slot first, else the oldest update. */
        if (victim->used && (!r->used || r->ps < victim->ps)) {
            victim = r;
        }
    }
    memset(victim, 0, sizeof(*victim));
    victim->used = true;
    victim->host = host;
    victim->addr = addr;
    remember(victim, val, ps);
}

static bool satisfies(uint64_t v, const struct swai_sem_want *want)
{
    return want->eq ? v == want->target : v >= want->target;
}

uint64_t swai_sync_written_at(const struct swai_engine *e, bool host,
                              uint64_t addr, const struct swai_sem_want *want)
{
    const struct swai_engine_sem *r;
    uint64_t t;
    unsigned k, i;

    for (r = e->sem; r < e->sem + SWAI_ENGINE_SEMS; r++) {
        if (!r->used || r->host != host || r->addr != addr) {
            continue;
        }
        /* Newest to oldest while each write satisfies the wait. */
        t = r->ps;
        for (k = 1; k <= r->n; k++) {
            i = (r->head + SWAI_SEM_WRITES - k) % SWAI_SEM_WRITES;
            if (!satisfies(r->w[i].val, want)) {
                break;
            }
            t = r->w[i].ps;
        }
        return t;
    }
    return 0;   /* written by the host, or forgotten: no constraint */
}

/* --- access --- */

/* Read or write the semaphore at va; 'where' says where it lives. */
static int sem_rw(struct swai_engine *e, unsigned cg, uint64_t va,
                  bool write, uint64_t *val, struct swai_place *where)
{
    struct swai_engine_job *j = &e->cg[cg].job;
    uint8_t b[8];
    int r;

    if (va & 7) {
        j->fault.va = va;
        return SWAI_JOB_ERR_ALIGN;
    }
    r = swai_access_locate(e, cg, j, va, 8, write, where);
    if (r) {
        return r;
    }
    if (write) {
        swai_st_le(b, 8, *val);
    }
    if (where->ptr) {
        if (write) {
            memcpy(where->ptr, b, 8);
        } else {
            memcpy(b, where->ptr, 8);
        }
    } else if (!where->dma) {
        memset(b, 0, sizeof(b));    /* a semaphore the host only times */
    } else if (write ? e->ops->dma_write(e->opaque, where->addr, b, 8)
                     : e->ops->dma_read(e->opaque, where->addr, b, 8)) {
        j->fault.va = va;
        return SWAI_JOB_ERR_DMA;
    }
    if (!write) {
        *val = swai_ld_le(b, 8);
    }
    return SWAI_JOB_OK;
}

/* Store v at va and remember when, for the CGs it may release. */
static int sem_store(struct swai_engine *e, unsigned cg, uint64_t va,
                     uint64_t v)
{
    struct swai_place m;
    int r = sem_rw(e, cg, va, true, &v, &m);

    if (r) {
        return r;
    }
    if (m.tier != SWAI_TIER_FABRIC) {
        swai_sync_record(e, m.host, m.addr, v, e->cg[cg].clock_ps);
    } else if (e->ops->fabric_sem_store) {
        /* The owner card remembers it, for its own waiters and others'. */
        e->ops->fabric_sem_store(e->opaque, m.card, m.addr, v,
                                 e->cg[cg].clock_ps);
    }
    return SWAI_JOB_OK;
}

int swai_sync_check(struct swai_engine *e, unsigned cg)
{
    struct swai_engine_cg *c = &e->cg[cg];
    struct swai_engine_job *j = &c->job;
    struct swai_sem_want want = { j->wait_target, j->wait_eq };
    struct swai_place m;
    uint64_t v, t;
    int r;

    r = sem_rw(e, cg, j->wait_va, false, &v, &m);
    if (r) {
        return r;
    }
    /* A peer's HBM may go with the peer (swai-fabric.h): not kept. */
    j->wait_ptr = m.tier != SWAI_TIER_FABRIC ? m.ptr : NULL;
    if (!satisfies(v, &want)) {
        return SWAI_JOB_OK;
    }
    if (m.tier != SWAI_TIER_FABRIC) {
        t = swai_sync_written_at(e, m.host, m.addr, &want);
    } else {
        t = e->ops->fabric_sem_time ?
            e->ops->fabric_sem_time(e->opaque, m.card, m.addr, &want) : 0;
    }
    c->clock_ps = (t > c->clock_ps ? t : c->clock_ps) + j->wait_cost_ps;
    j->wait = SWAI_ENGINE_RUN;
    swai_cg_next(j);
    return SWAI_JOB_OK;
}

bool swai_sync_allows(const struct swai_engine_job *j)
{
    struct swai_sem_want want = { j->wait_target, j->wait_eq };

    return j->wait_ptr && satisfies(swai_ld_le(j->wait_ptr, 8), &want);
}

/* Block on va until it reaches target (== target with eq), then check. */
static int block(struct swai_engine *e, unsigned cg, uint64_t va,
                 uint64_t target, bool eq, uint64_t cost_ps)
{
    struct swai_engine_job *j = &e->cg[cg].job;

    j->wait = SWAI_ENGINE_SEM;
    j->wait_va = va;
    j->wait_target = target;
    j->wait_eq = eq;
    j->wait_cost_ps = cost_ps;
    return swai_sync_check(e, cg);
}

static int barrier(struct swai_engine *e, unsigned cg,
                   const struct swai_insn *in)
{
    struct swai_place m;
    uint64_t old;
    int r;

    r = sem_rw(e, cg, in->dst, false, &old, &m);
    if (!r) {
        r = sem_store(e, cg, in->dst, old + 1);
    }
    if (r) {
        return r;
    }
    /* A monotone counter: round k of N arrivals ends at (k + 1) * N. */
    return block(e, cg, in->dst, (old / in->len + 1) * in->len, false,
                 swai_cost_wake_ps(&e->tp, in));
}

int swai_sync_step(struct swai_engine *e, unsigned cg,
                   const struct swai_insn *in)
{
    struct swai_engine_cg *c = &e->cg[cg];
    struct swai_place m;
    uint64_t v;
    int r;

    switch (in->op) {
    case SWAI_OP_BARRIER:
        return barrier(e, cg, in);
    case SWAI_OP_WAIT:
        return block(e, cg, in->dst, in->src, in->flags & SWAI_WAIT_EQ,
                     swai_cost_wake_ps(&e->tp, in));
    case SWAI_OP_SIGNAL:
        v = 0;
        r = sem_rw(e, cg, in->dst, false, &v, &m);
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
            v = e->ops->wall_ns(e->opaque) - e->wall0;
        } else {
            v = c->clock_ps / SWAI_PS_PER_NS;
        }
        r = SWAI_JOB_OK;
        break;
    }
    if (!r) {
        r = sem_store(e, cg, in->dst, v);
    }
    if (r) {
        return r;
    }
    if (in->op == SWAI_OP_FENCE && e->ops->fence) {
        e->ops->fence(e->opaque, cg);
    }
    swai_cg_next(&c->job);
    return SWAI_JOB_OK;
}
