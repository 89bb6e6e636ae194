/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-cg.c - per core group helpers of the engine (swai-cg.h).
 */
#include <string.h>

#include "swai-cg.h"

void swai_cg_next(struct swai_engine_job *j)
{
    j->pc++;
    j->insns++;
    j->started = false;
    j->done = 0;
}

void swai_cg_drain(struct swai_engine_cg *c)
{
    if (c->job.seq.horizon_ps > c->clock_ps) {
        c->clock_ps = c->job.seq.horizon_ps;
    }
}

void swai_cg_ldm_dirty(struct swai_engine_job *j, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) {
        return;
    }
    if (j->ldm_lo >= j->ldm_hi) {
        j->ldm_lo = lo;
        j->ldm_hi = hi;
        return;
    }
    j->ldm_lo = lo < j->ldm_lo ? lo : j->ldm_lo;
    j->ldm_hi = hi > j->ldm_hi ? hi : j->ldm_hi;
}

uint8_t *swai_cg_ldm(const struct swai_engine *e, unsigned cg)
{
    return e->ldm ? e->ldm + (uint64_t)cg * e->ldm_bytes : NULL;
}

bool swai_cg_in_ldm(const struct swai_engine *e, uint64_t off, uint64_t len)
{
    uint64_t end;

    return !__builtin_add_overflow(off, len, &end) && end <= e->ldm_bytes;
}

bool swai_cg_alone(const struct swai_engine *e, unsigned cg)
{
    unsigned i;

    for (i = 0; i < SWAI_ENGINE_CGS; i++) {
        if (i != cg && (e->cg[i].job.active ||
                        e->ops->pending(e->opaque, i))) {
            return false;
        }
    }
    return true;
}

void swai_cg_unlock(struct swai_engine *e)
{
    if (e->ops->unlock) {
        e->ops->unlock(e->opaque);
    }
}

bool swai_cg_relock(struct swai_engine *e, unsigned cg, uint32_t gen)
{
    if (e->ops->lock) {
        e->ops->lock(e->opaque);
    }
    if (e->gen == gen) {
        return true;
    }
    if (e->ldm) {
        memset(swai_cg_ldm(e, cg), 0, e->ldm_bytes);
    }
    memset(&e->cg[cg].job, 0, sizeof(e->cg[cg].job));
    return false;
}
