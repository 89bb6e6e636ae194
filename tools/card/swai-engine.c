/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-engine.c - jobs on the core groups: which CG goes next, a job's
 * start and end on the modeled clock, and dispatching its instructions to
 * the units that run them (swai-engine.h; datasheet §12.7, §14.2).
 */
#include <stdlib.h>
#include <string.h>

#include "swai-access.h"
#include "swai-cg.h"
#include "swai-compute.h"
#include "swai-cost.h"
#include "swai-engine.h"
#include "swai-sync.h"
#include "swai-xfer.h"

void swai_engine_init(struct swai_engine *e, const struct swai_timing_props *tp,
                      uint64_t ldm_bytes, const struct swai_engine_ops *ops,
                      void *opaque)
{
    memset(e, 0, sizeof(*e));
    e->tp = *tp;
    e->ldm_bytes = ldm_bytes;
    e->ops = ops;
    e->opaque = opaque;
    swai_engine_reset(e);
}

bool swai_engine_attach(struct swai_engine *e, uint8_t *ldm,
                        const struct swai_engine_arith *arith)
{
    uint64_t g = (e->ldm_bytes + SWAI_SEQ_GRANULE - 1) / SWAI_SEQ_GRANULE;
    unsigned cg;

    swai_engine_detach(e);
    /* Zero: a granule nothing touched is ready at time 0. */
    e->sb_mem = calloc(2 * SWAI_ENGINE_CGS * g, sizeof(uint64_t));
    if (!e->sb_mem) {
        return false;
    }
    for (cg = 0; cg < SWAI_ENGINE_CGS; cg++) {
        e->cg[cg].sb.w_end = e->sb_mem + 2 * cg * g;
        e->cg[cg].sb.r_end = e->sb_mem + (2 * cg + 1) * g;
        e->cg[cg].sb.lo = e->cg[cg].sb.hi = 0;
    }
    e->ldm = ldm;
    e->arith = ldm ? arith : NULL;
    return true;
}

void swai_engine_detach(struct swai_engine *e)
{
    unsigned cg;

    free(e->sb_mem);
    e->sb_mem = NULL;
    for (cg = 0; cg < SWAI_ENGINE_CGS; cg++) {
        memset(&e->cg[cg].sb, 0, sizeof(e->cg[cg].sb));
    }
    e->ldm = NULL;
    e->arith = NULL;
}

/* Only what the job wrote: a context never sees another's data. */
static void ldm_clear(struct swai_engine *e, unsigned cg,
                      struct swai_engine_job *j)
{
    if (e->ldm && j->ldm_lo < j->ldm_hi) {
        memset(swai_cg_ldm(e, cg) + j->ldm_lo, 0, j->ldm_hi - j->ldm_lo);
    }
    j->ldm_lo = j->ldm_hi = 0;
}

void swai_engine_reset(struct swai_engine *e)
{
    unsigned cg;

    e->gen++;   /* a step moving data right now drops its result */
    for (cg = 0; cg < SWAI_ENGINE_CGS; cg++) {
        struct swai_engine_cg *c = &e->cg[cg];

        ldm_clear(e, cg, &c->job);
        c->clock_ps = 0;
        memset(&c->job, 0, sizeof(c->job));
    }
    swai_timing_init(&e->timing, &e->tp);
    e->clock_ps = 0;
    e->held = false;
    e->wall0 = e->ops->wall_ns ? e->ops->wall_ns(e->opaque) : 0;
    memset(e->sem, 0, sizeof(e->sem));
}

static uint64_t wall_ns(const struct swai_engine *e)
{
    return e->ops->wall_ns ? e->ops->wall_ns(e->opaque) : 0;
}

/* --- a job's start and end --- */

void swai_engine_begin(struct swai_engine *e, unsigned cg,
                       const struct swai_engine_start *st)
{
    struct swai_engine_cg *c = &e->cg[cg];
    struct swai_engine_job *j = &c->job;
    uint64_t start;

    memset(j, 0, sizeof(*j));
    swai_seq_sb_reset(&c->sb);  /* LDM does not survive a job */
    j->active = true;
    j->tag = st->tag;
    j->asid = st->asid;
    j->prog_va = st->prog_va;
    j->wall_start = wall_ns(e);
    j->inject_mmu = st->inject_mmu;
    j->inject_dma = st->inject_dma;
    j->inject_hang = st->inject_hang;
    j->peer = st->peer;
    /* Launch overlaps the previous job. */
    start = st->not_before_ps + swai_cost_launch_ps(&e->tp);
    c->clock_ps = start > c->clock_ps ? start : c->clock_ps;
    j->start_ps = c->clock_ps;
}

int swai_engine_fetch(struct swai_engine *e, unsigned cg, uint64_t va,
                      uint8_t *buf, uint64_t len)
{
    struct swai_engine_job *j = &e->cg[cg].job;
    bool inject = j->inject_mmu;
    int r;

    /* The injected fault is for the program's own first data access. */
    j->inject_mmu = false;
    r = swai_access_rw(e, cg, j, va, buf, len, false, NULL, NULL);
    j->inject_mmu = inject;
    return r;
}

void swai_engine_load(struct swai_engine *e, unsigned cg, const uint8_t *prog,
                      uint32_t n)
{
    struct swai_engine_job *j = &e->cg[cg].job;

    j->prog = prog;
    j->n = n;
    if (j->inject_hang) {
        j->wait = SWAI_ENGINE_HANG;
    }
}

/*
 * The job ends: its LDM is cleared, it ends when everything it issued has
 * (datasheet §14.7), on a whole ns, and its host learns how it went.
 */
void swai_engine_end(struct swai_engine *e, unsigned cg, int status)
{
    struct swai_engine_cg *c = &e->cg[cg];
    struct swai_engine_job *j = &c->job;
    struct swai_engine_end end;

    ldm_clear(e, cg, j);
    if (j->seq.horizon_ps > c->clock_ps) {
        c->clock_ps = j->seq.horizon_ps;
    }
    /*
     * Jobs end on a whole ns, so jobs start on one too and the same
     * program always reports the same duration.
     */
    c->clock_ps = (c->clock_ps + SWAI_PS_PER_NS - 1) / SWAI_PS_PER_NS *
                  SWAI_PS_PER_NS;
    if (c->clock_ps > e->clock_ps) {
        e->clock_ps = c->clock_ps;
    }
    end = (struct swai_engine_end){
        .tag = j->tag,
        .asid = j->asid,
        .status = status,
        .pc = status ? j->pc : 0,
        .fault = j->fault,
        .start_ns = j->start_ps / SWAI_PS_PER_NS,
        .end_ns = c->clock_ps / SWAI_PS_PER_NS,
        .wall_ns = wall_ns(e) - j->wall_start,
        .bytes = j->bytes,
        .transfer_ps = j->transfer_ps,
        .insns = j->insns,
    };
    if (!status) {
        end.fault.va = 0;
    }
    j->fault.mmu_reason = 0;
    j->active = false;
    e->ops->finish(e->opaque, cg, &end);
}

/* The program ended: an injected failure nothing triggered fires now. */
static void end_program(struct swai_engine *e, unsigned cg)
{
    struct swai_engine_job *j = &e->cg[cg].job;

    if (j->inject_mmu) {
        j->inject_mmu = false;
        j->fault.mmu_reason = SWAI_MMU_R_NOT_PRESENT;
        j->fault.mmu_write = false;
        j->fault.va = j->prog_va;
        swai_engine_end(e, cg, SWAI_JOB_ERR_MMU);
    } else if (j->inject_dma) {
        j->fault.va = j->prog_va;
        swai_engine_end(e, cg, SWAI_JOB_ERR_DMA);
    } else {
        swai_engine_end(e, cg, SWAI_JOB_OK);
    }
}

/* --- one step --- */

/* The instruction at pc: one step of it. */
static int exec_step(struct swai_engine *e, unsigned cg)
{
    struct swai_engine_cg *c = &e->cg[cg];
    struct swai_engine_job *j = &c->job;
    const uint8_t *raw;
    struct swai_insn in;
    int r;

    if (j->pc >= j->n) {
        return SWAI_CG_DONE;
    }
    raw = j->prog + (uint64_t)j->pc * SWAI_INSN_SIZE;
    if (e->ops->insn && !j->started && !j->done) {
        e->ops->insn(e->opaque, cg, j, raw);
    }
    if (swai_isa_is_compute(raw[0])) {
        /* Their own layout: decoded and checked once, by prepare. */
        return swai_compute_kernel(e, cg, raw);
    }
    swai_isa_decode(raw, &in);
    r = swai_isa_validate(&in);
    if (r) {
        return r;
    }
    switch (in.op) {
    case SWAI_OP_NOP:
        swai_cg_next(j);
        return SWAI_JOB_OK;
    case SWAI_OP_END:
        j->insns++;
        return SWAI_CG_DONE;
    case SWAI_OP_DMA_GET:
    case SWAI_OP_DMA_PUT:
    case SWAI_OP_COPY:
        return swai_xfer_step(e, cg, &in);
    case SWAI_OP_REDUCE:
    case SWAI_OP_DIV:
        return swai_compute_elementwise(e, cg, &in);
    case SWAI_OP_DRAIN:
        swai_cg_drain(c);
        swai_cg_next(j);
        return SWAI_JOB_OK;
    default:
        /* Semaphores order memory: everything issued is done first. */
        swai_cg_drain(c);
        return swai_sync_step(e, cg, &in);
    }
}

static bool runnable(const struct swai_engine *e, unsigned cg)
{
    const struct swai_engine_job *j = &e->cg[cg].job;

    if (j->active) {
        return j->wait == SWAI_ENGINE_RUN;
    }
    return e->ops->pending(e->opaque, cg);
}

/* The runnable CG with the smallest modeled clock, lowest on a tie. */
static int pick(const struct swai_engine *e)
{
    int cg, best = -1;

    for (cg = 0; cg < SWAI_ENGINE_CGS; cg++) {
        if (runnable(e, cg) &&
            (best < 0 || e->cg[cg].clock_ps < e->cg[best].clock_ps)) {
            best = cg;
        }
    }
    return best;
}

bool swai_engine_step(struct swai_engine *e)
{
    bool did = false;
    unsigned i;
    int cg, r;

    for (i = 0; i < SWAI_ENGINE_CGS; i++) {
        struct swai_engine_job *j = &e->cg[i].job;

        if (j->active && j->wait == SWAI_ENGINE_SEM) {
            /* The host or another CG may have released it. */
            r = swai_sync_check(e, i);
            if (r) {
                swai_engine_end(e, i, r);
            }
            did |= r || j->wait == SWAI_ENGINE_RUN;
        }
    }
    cg = pick(e);
    if (cg < 0) {
        return did;
    }
    /* Another card's step comes first in modeled time: wait for it. */
    e->held = e->ops->may_step &&
              !e->ops->may_step(e->opaque, e->cg[cg].clock_ps);
    if (e->held) {
        return did;
    }
    if (!e->cg[cg].job.active) {
        e->ops->start(e->opaque, cg);
        return true;
    }
    r = exec_step(e, cg);
    if (r == SWAI_CG_GONE) {
        return true;        /* a reset dropped the job meanwhile */
    }
    if (r == SWAI_CG_DONE) {
        end_program(e, cg);
    } else if (r) {
        swai_engine_end(e, cg, r);
    }
    return true;
}

bool swai_engine_polling(const struct swai_engine *e)
{
    unsigned cg;

    if (e->held) {
        return true;
    }
    for (cg = 0; cg < SWAI_ENGINE_CGS; cg++) {
        if (e->cg[cg].job.active && e->cg[cg].job.wait == SWAI_ENGINE_SEM) {
            return true;
        }
    }
    return false;
}

uint64_t swai_engine_next_ps(const struct swai_engine *e)
{
    uint64_t t = UINT64_MAX;
    unsigned cg;

    for (cg = 0; cg < SWAI_ENGINE_CGS; cg++) {
        const struct swai_engine_job *j = &e->cg[cg].job;
        bool can;

        if (j->active) {
            can = j->wait == SWAI_ENGINE_RUN ||
                  (j->wait == SWAI_ENGINE_SEM && swai_sync_allows(j));
        } else {
            can = e->ops->pending(e->opaque, cg);
        }
        if (can && e->cg[cg].clock_ps < t) {
            t = e->cg[cg].clock_ps;
        }
    }
    return t;
}

bool swai_engine_busy(const struct swai_engine *e, unsigned cg)
{
    return e->cg[cg].job.active;
}

uint64_t swai_engine_clock_ns(const struct swai_engine *e)
{
    return e->clock_ps / SWAI_PS_PER_NS;
}

uint64_t swai_engine_cg_clock_ns(const struct swai_engine *e, unsigned cg)
{
    return e->cg[cg].clock_ps / SWAI_PS_PER_NS;
}
