/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-cp.c - the MPE command processor: descriptor fetch, job start and
 * completion, queue reset, and which CG goes next (see swai-cp.h;
 * datasheet §12).  Its registers are in swai-cp-regs.c.
 */
#include <string.h>

#include "swai-core.h"
#include "swai-exec.h"
#include "swai-le.h"
#include "swai-mem.h"

#define DESC_SIZE   64
#define COMPL_SIZE  64

_Static_assert(sizeof(struct swai_hw_desc) == DESC_SIZE, "descriptor size");
_Static_assert(sizeof(struct swai_hw_completion) == COMPL_SIZE,
               "completion size");

static uint64_t ldm_bytes(const struct swai_core *s)
{
    return (uint64_t)s->props.cpes * s->props.ldm_kb * 1024;
}

/* --- semaphore update times --- */

void swai_cp_sem_record(struct swai_core *s, bool host, uint64_t addr,
                        uint64_t ps)
{
    struct swai_sem_rec *r, *victim = &s->cp.sem[0];

    for (r = s->cp.sem; r < s->cp.sem + SWAI_SEM_RECS; r++) {
        if (r->used && r->host == host && r->addr == addr) {
            r->ps = ps > r->ps ? ps : r->ps;
            return;
        }
        /* Forget an unused slot first, else the oldest update. */
        if (victim->used && (!r->used || r->ps < victim->ps)) {
            victim = r;
        }
    }
    victim->used = true;
    victim->host = host;
    victim->addr = addr;
    victim->ps = ps;
}

uint64_t swai_cp_sem_time(const struct swai_core *s, bool host,
                          uint64_t addr)
{
    const struct swai_sem_rec *r;

    for (r = s->cp.sem; r < s->cp.sem + SWAI_SEM_RECS; r++) {
        if (r->used && r->host == host && r->addr == addr) {
            return r->ps;
        }
    }
    return 0;   /* written by the host, or forgotten: no constraint */
}

/* --- job end --- */

static void ldm_clear(struct swai_core *s, unsigned cg, struct swai_job *j)
{
    /* Only what the job wrote: a context never sees another's data. */
    if (s->ldm && j->ldm_lo < j->ldm_hi) {
        memset(s->ldm + cg * ldm_bytes(s) + j->ldm_lo, 0,
               j->ldm_hi - j->ldm_lo);
    }
    j->ldm_lo = j->ldm_hi = 0;
}

/*
 * Completion record, then COMPLETED, then the interrupt: a driver that
 * sees the interrupt or COMPLETED finds the record written.
 */
static void finish_job(struct swai_core *s, unsigned cg, int status)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job;
    uint8_t c[COMPL_SIZE] = { 0 };

    if (j->mmu_reason) {
        swai_mmu_fault(s, j->asid, j->fault_va, j->mmu_write, j->mmu_reason);
        j->mmu_reason = 0;
    }
    ldm_clear(s, cg, j);
    /* The job ends when everything it issued has (datasheet §14.7). */
    if (j->seq.horizon_ps > q->clock_ps) {
        q->clock_ps = j->seq.horizon_ps;
    }
    /*
     * Jobs end on a whole ns, so jobs start on one too and the same
     * program always reports the same duration.
     */
    q->clock_ps = (q->clock_ps + SWAI_PS_PER_NS - 1) / SWAI_PS_PER_NS *
                  SWAI_PS_PER_NS;
    if (q->clock_ps > s->cp.clock_ps) {
        s->cp.clock_ps = q->clock_ps;
    }
    swai_st_le(c + 0, 8, j->seqno);
    swai_st_le(c + 8, 4, (uint32_t)status);
    swai_st_le(c + 12, 4, status ? j->pc : 0);
    swai_st_le(c + 16, 8, status ? j->fault_va : 0);
    swai_st_le(c + 24, 8, j->start_ps / SWAI_PS_PER_NS);
    swai_st_le(c + 32, 8, q->clock_ps / SWAI_PS_PER_NS);
    swai_st_le(c + 40, 8, s->ops->wall_ns(s->opaque) - j->wall_start);
    swai_st_le(c + 48, 8, j->bytes);
    swai_st_le(c + 56, 4, j->insns);
    if (j->completion) {
        /* A lost record cannot be reported anywhere; COMPLETED still is. */
        (void)s->ops->dma_write(s->opaque, j->completion, c, sizeof(c));
    }
    q->completed = j->seqno;
    q->jobs++;
    j->active = false;
    swai_core_irq_raise(s, SWAI_IRQ_QUEUE(cg));
}

/* --- job start --- */

static bool ring_ok(const struct swai_queue *q)
{
    return q->ring_size >= SWAI_Q_RING_MIN &&
           q->ring_size <= SWAI_Q_RING_MAX &&
           !(q->ring_size & (q->ring_size - 1)) &&
           q->head < q->ring_size && q->tail < q->ring_size;
}

/* Fetch the program; a failure of any kind is SWAI_JOB_ERR_PROGRAM. */
static int fetch_program(struct swai_core *s, unsigned cg, uint32_t size)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job;
    bool inject = j->inject_mmu;
    int r;

    if (!size || size % SWAI_INSN_SIZE || size > SWAI_PROGRAM_MAX_BYTES) {
        return SWAI_JOB_ERR_PROGRAM;
    }
    /* The injected fault is for the program's own first access. */
    j->inject_mmu = false;
    r = swai_mem_rw(s, cg, j, j->prog_va, q->prog, size, false, NULL, NULL);
    j->inject_mmu = inject;
    if (r) {
        return SWAI_JOB_ERR_PROGRAM;
    }
    j->n = size / SWAI_INSN_SIZE;
    return SWAI_JOB_OK;
}

static void start_job(struct swai_core *s, unsigned cg)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job;
    const struct swai_timing_props *tp = &s->props.t;
    uint64_t ring = (uint64_t)q->ring_hi << 32 | q->ring_lo;
    uint8_t d[DESC_SIZE];
    uint64_t nb, start;
    uint32_t flags;
    int r;

    if (!ring_ok(q) ||
        s->ops->dma_read(s->opaque, ring + (uint64_t)q->head * DESC_SIZE,
                         d, sizeof(d))) {
        q->bad_ring = true;
        return;
    }
    q->head = (q->head + 1) & (q->ring_size - 1);

    memset(j, 0, sizeof(*j));
    swai_sb_reset(&q->sb);      /* LDM does not survive a job */
    j->active = true;
    j->seqno = swai_ld_le(d + 0, 8);
    j->asid = (uint32_t)swai_ld_le(d + 8, 4);
    flags = (uint32_t)swai_ld_le(d + 12, 4);
    j->prog_va = swai_ld_le(d + 16, 8);
    j->completion = swai_ld_le(d + 40, 8);
    j->wall_start = s->ops->wall_ns(s->opaque);
    j->inject_mmu = flags & SWAI_DESC_INJECT_MMU_FAULT;
    j->inject_dma = flags & SWAI_DESC_INJECT_DMA_FAIL;
    j->peer = flags & SWAI_DESC_PEER;

    /* Launch overlaps the previous job; not_before 0 means "now". */
    nb = swai_ld_le(d + 32, 8);
    nb = nb ? swai_timing_ns_to_ps(nb) : s->cp.clock_ps;
    start = nb + swai_timing_ns_to_ps(tp->t_launch_ns);
    q->clock_ps = start > q->clock_ps ? start : q->clock_ps;
    j->start_ps = q->clock_ps;

    r = SWAI_JOB_ERR_PROGRAM;
    if (!(flags & ~SWAI_DESC_FLAGS_ALL)) {
        r = fetch_program(s, cg, (uint32_t)swai_ld_le(d + 24, 4));
    }
    if (r) {
        finish_job(s, cg, r);
        return;
    }
    if (flags & SWAI_DESC_INJECT_HANG) {
        j->wait = SWAI_WAIT_HANG;
    }
}

/* The program ended: an injected failure nothing triggered fires now. */
static void end_program(struct swai_core *s, unsigned cg)
{
    struct swai_job *j = &s->q[cg].job;

    if (j->inject_mmu) {
        j->inject_mmu = false;
        j->mmu_reason = SWAI_MMU_R_NOT_PRESENT;
        j->mmu_write = false;
        j->fault_va = j->prog_va;
        finish_job(s, cg, SWAI_JOB_ERR_MMU);
    } else if (j->inject_dma) {
        j->fault_va = j->prog_va;
        finish_job(s, cg, SWAI_JOB_ERR_DMA);
    } else {
        finish_job(s, cg, SWAI_JOB_OK);
    }
}

/* --- scheduling --- */

static void queue_reset(struct swai_core *s, unsigned cg)
{
    struct swai_queue *q = &s->q[cg];

    if (q->job.active) {
        finish_job(s, cg, SWAI_JOB_ERR_RESET);
    }
    q->head = q->tail;
    q->bad_ring = false;
    q->reset_pending = false;
}

static bool fetchable(const struct swai_queue *q)
{
    return !q->job.active && (q->ctrl & SWAI_Q_CTRL_ENABLE) &&
           !q->bad_ring && q->head != q->tail;
}

static bool runnable(const struct swai_queue *q)
{
    return (q->job.active && q->job.wait == SWAI_WAIT_NONE) || fetchable(q);
}

/* The runnable CG with the smallest modeled clock, lowest on a tie. */
static int pick(const struct swai_core *s)
{
    int cg, best = -1;

    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        if (runnable(&s->q[cg]) &&
            (best < 0 || s->q[cg].clock_ps < s->q[best].clock_ps)) {
            best = cg;
        }
    }
    return best;
}

bool swai_cp_step(struct swai_core *s)
{
    bool did = false;
    unsigned i;
    int cg, r;

    if (!s->hbm || !s->ldm) {
        return false;
    }
    for (i = 0; i < SWAI_NUM_CG; i++) {
        struct swai_job *j = &s->q[i].job;

        if (s->q[i].reset_pending) {
            queue_reset(s, i);
            did = true;
        } else if (j->active && j->wait == SWAI_WAIT_SEM) {
            /* The host (BAR2, host memory) or another CG may release it. */
            r = swai_exec_sem_check(s, i);
            if (r) {
                finish_job(s, i, r);
            }
            did |= r || j->wait == SWAI_WAIT_NONE;
        }
    }
    cg = pick(s);
    if (cg < 0) {
        return did;
    }
    if (!s->q[cg].job.active) {
        start_job(s, cg);
        return true;
    }
    r = swai_exec_step(s, cg);
    if (r == SWAI_EXEC_GONE) {
        return true;        /* a device reset dropped the job meanwhile */
    }
    if (r == SWAI_EXEC_DONE) {
        end_program(s, cg);
    } else if (r) {
        finish_job(s, cg, r);
    }
    return true;
}

bool swai_cp_polling(const struct swai_core *s)
{
    unsigned cg;

    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        if (s->q[cg].job.active && s->q[cg].job.wait == SWAI_WAIT_SEM) {
            return true;
        }
    }
    return false;
}

void swai_cp_reset(struct swai_core *s)
{
    unsigned cg;

    s->cp.gen++;    /* a step moving data right now drops its result */
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        struct swai_queue *q = &s->q[cg];

        ldm_clear(s, cg, &q->job);
        q->ring_lo = q->ring_hi = q->ring_size = q->ctrl = 0;
        q->head = q->tail = 0;
        q->bad_ring = q->reset_pending = false;
        q->completed = 0;
        q->jobs = q->fences = 0;
        q->clock_ps = 0;
        memset(&q->job, 0, sizeof(q->job));
    }
    swai_timing_init(&s->cp.timing, &s->props.t);
    s->cp.clock_ps = 0;
    s->cp.wall0 = s->ops->wall_ns(s->opaque);
    memset(s->cp.sem, 0, sizeof(s->cp.sem));
}
