/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-cp.c - the command processor: descriptor fetch, job start and
 * completion, queue reset (swai-cp.h; datasheet §12).  Its registers are
 * in swai-cp-regs.c.
 */
#include "swai-trace.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "swai-arith.h"
#include "swai-cp.h"
#include "swai-le.h"

#define DESC_SIZE   64
#define COMPL_SIZE  64
/* Both are little-endian in guest memory: fields move by their offsets. */
#define DESC(f)     offsetof(struct swai_hw_desc, f)
#define CPL(f)      offsetof(struct swai_hw_completion, f)

_Static_assert(sizeof(struct swai_hw_desc) == DESC_SIZE, "descriptor size");
_Static_assert(sizeof(struct swai_hw_completion) == COMPL_SIZE,
               "completion size");

static const char *const job_status[SWAI_JOB_ERR_MAX + 1] = {
    [SWAI_JOB_OK] = "ok", [SWAI_JOB_ERR_ILLEGAL] = "illegal instruction",
    [SWAI_JOB_ERR_LDM] = "LDM range", [SWAI_JOB_ERR_MMU] = "MMU fault",
    [SWAI_JOB_ERR_RESET] = "queue reset",
    [SWAI_JOB_ERR_PROGRAM] = "bad program",
    [SWAI_JOB_ERR_DMA] = "bus error", [SWAI_JOB_ERR_ALIGN] = "misaligned",
    [SWAI_JOB_ERR_FOREIGN] = "another CG's Local-HBM",
};

/* --- the engine's host --- */

static bool ring_ok(const struct swai_cp_queue *q)
{
    return q->ring_size >= SWAI_Q_RING_MIN &&
           q->ring_size <= SWAI_Q_RING_MAX &&
           !(q->ring_size & (q->ring_size - 1)) &&
           q->head < q->ring_size && q->tail < q->ring_size;
}

static bool pending(void *opaque, unsigned cg)
{
    const struct swai_cp_queue *q = &((struct swai_cp *)opaque)->q[cg];

    return (q->ctrl & SWAI_Q_CTRL_ENABLE) && !q->bad_ring &&
           q->head != q->tail;
}

/* Fetch the program; a failure of any kind is SWAI_JOB_ERR_PROGRAM. */
static int fetch_program(struct swai_cp *cp, unsigned cg, uint64_t va,
                         uint32_t size)
{
    if (!size || size % SWAI_INSN_SIZE || size > SWAI_PROGRAM_MAX_BYTES) {
        return SWAI_JOB_ERR_PROGRAM;
    }
    if (swai_engine_fetch(&cp->engine, cg, va, cp->q[cg].prog, size)) {
        return SWAI_JOB_ERR_PROGRAM;
    }
    return SWAI_JOB_OK;
}

static void start(void *opaque, unsigned cg)
{
    struct swai_cp *cp = opaque;
    struct swai_cp_queue *q = &cp->q[cg];
    uint64_t ring = (uint64_t)q->ring_hi << 32 | q->ring_lo;
    struct swai_engine_start st;
    uint8_t d[DESC_SIZE];
    uint32_t flags, size;
    uint64_t nb;
    int r;

    if (!ring_ok(q) ||
        cp->glue->ops->dma_read(cp->glue->opaque,
                                ring + (uint64_t)q->head * DESC_SIZE, d,
                                sizeof(d))) {
        q->bad_ring = true;
        swai_glue_guest_error(cp->glue, "swai: queue %u: bad ring (base "
                              "0x%" PRIx64 ", size %u, head %u, tail %u)",
                              cg, ring, q->ring_size, q->head, q->tail);
        return;
    }
    q->head = (q->head + 1) & (q->ring_size - 1);

    flags = (uint32_t)swai_ld_le(d + DESC(flags), 4);
    size = (uint32_t)swai_ld_le(d + DESC(prog_size), 4);
    nb = swai_ld_le(d + DESC(not_before_ns), 8);
    q->completion = swai_ld_le(d + DESC(completion), 8);
    q->job_id = swai_ld_le(d + DESC(job_id), 8);
    st = (struct swai_engine_start){
        .tag = swai_ld_le(d + DESC(seqno), 8),
        .asid = (uint32_t)swai_ld_le(d + DESC(asid), 4),
        .prog_va = swai_ld_le(d + DESC(prog_va), 8),
        /* not_before 0 means "now": the end of the latest job. */
        .not_before_ps = nb ? swai_timing_ns_to_ps(nb)
                            : cp->engine.clock_ps,
        .peer = flags & SWAI_DESC_PEER,
        .inject_mmu = flags & SWAI_DESC_INJECT_MMU_FAULT,
        .inject_dma = flags & SWAI_DESC_INJECT_DMA_FAIL,
        .inject_hang = flags & SWAI_DESC_INJECT_HANG,
    };
    swai_engine_begin(&cp->engine, cg, &st);
    trace_swai_job_start(st.asid, cg, q->job_id, st.tag, st.prog_va, size,
                         cp->engine.cg[cg].job.start_ps / SWAI_PS_PER_NS);

    r = SWAI_JOB_ERR_PROGRAM;
    if (!(flags & ~SWAI_DESC_FLAGS_ALL)) {
        r = fetch_program(cp, cg, st.prog_va, size);
    } else {
        swai_glue_guest_error(cp->glue, "swai: queue %u: descriptor flags "
                              "0x%x undefined", cg, flags);
    }
    if (r) {
        swai_engine_end(&cp->engine, cg, r);
        return;
    }
    swai_engine_load(&cp->engine, cg, q->prog, size / SWAI_INSN_SIZE);
}

/*
 * Completion record, then COMPLETED, then the interrupt: a driver that
 * sees the interrupt or COMPLETED finds the record written.
 */
static void finish(void *opaque, unsigned cg, const struct swai_engine_end *e)
{
    struct swai_cp *cp = opaque;
    struct swai_cp_queue *q = &cp->q[cg];
    uint8_t c[COMPL_SIZE] = { 0 };

    if (e->fault.mmu_reason) {
        swai_mmu_fault(cp->mmu, e->asid, e->fault.va, e->fault.mmu_write,
                       e->fault.mmu_reason);
    }
    trace_swai_job_end(e->asid, cg, q->job_id, e->tag, e->status, e->pc,
                       e->start_ns, e->end_ns, e->insns, e->bytes);
    if (e->status && e->status != SWAI_JOB_ERR_RESET) {
        swai_glue_guest_error(cp->glue, "swai: ctx %u q %u job %" PRIu64
                              ": %s at instruction %u (va 0x%" PRIx64 ")",
                              e->asid, cg, q->job_id,
                              e->status <= SWAI_JOB_ERR_MAX ?
                              job_status[e->status] : "?", e->pc,
                              e->fault.va);
    }
    swai_st_le(c + CPL(seqno), 8, e->tag);
    swai_st_le(c + CPL(status), 4, (uint32_t)e->status);
    swai_st_le(c + CPL(error_pc), 4, e->pc);
    swai_st_le(c + CPL(fault_va), 8, e->fault.va);
    swai_st_le(c + CPL(start_ns), 8, e->start_ns);
    swai_st_le(c + CPL(end_ns), 8, e->end_ns);
    swai_st_le(c + CPL(wall_ns), 8, e->wall_ns);
    swai_st_le(c + CPL(bytes), 8, e->bytes);
    swai_st_le(c + CPL(insns), 4, e->insns);
    if (q->completion) {
        /* A lost record cannot be reported anywhere; COMPLETED still is. */
        (void)cp->glue->ops->dma_write(cp->glue->opaque, q->completion, c,
                                       sizeof(c));
    }
    q->completed = e->tag;
    q->jobs++;
    swai_irq_raise(cp->irq, SWAI_IRQ_QUEUE(cg));
}

static void fence(void *opaque, unsigned cg)
{
    struct swai_cp *cp = opaque;

    cp->q[cg].fences++;
    swai_irq_raise(cp->irq, SWAI_IRQ_QUEUE(cg));
}

static int locate(void *opaque, unsigned cg, const struct swai_engine_job *j,
                  uint64_t va, uint64_t len, bool write, struct swai_place *p,
                  struct swai_fault *f)
{
    return swai_mem_locate(&((struct swai_cp *)opaque)->mem, cg, j, va, len,
                           write, p, f);
}

static int dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    const struct swai_glue *g = ((struct swai_cp *)opaque)->glue;

    return g->ops->dma_read(g->opaque, addr, buf, len);
}

static int dma_write(void *opaque, uint64_t addr, const void *buf, size_t len)
{
    const struct swai_glue *g = ((struct swai_cp *)opaque)->glue;

    return g->ops->dma_write(g->opaque, addr, buf, len);
}

static uint64_t wall_ns(void *opaque)
{
    const struct swai_glue *g = ((struct swai_cp *)opaque)->glue;

    return g->ops->wall_ns(g->opaque);
}

/*
 * An instruction starts, on its core group's modeled clock: with
 * swai_job_start/end, where a job's time went (-trace swai_insn).
 */
static void insn(void *opaque, unsigned cg, const struct swai_engine_job *j,
                 const uint8_t *raw)
{
    const struct swai_cp *cp = opaque;

    trace_swai_insn(cg, j->pc, swai_isa_name(raw[0]), cp->engine.cg[cg].clock_ps);
}

/* The fabric's half of the timing model and semaphore times. */
static uint64_t fabric_book(void *opaque, unsigned card, bool write,
                            uint64_t ready_ps, uint64_t bytes, bool first)
{
    struct swai_mem *m = &((struct swai_cp *)opaque)->mem;

    return m->fabric ? swai_fabric_book(m->fabric, m->fabric_card, card, write,
                                        ready_ps, bytes, first) : ready_ps;
}

static void fabric_sem_store(void *opaque, unsigned card, uint64_t addr,
                             uint64_t val, uint64_t ps)
{
    struct swai_mem *m = &((struct swai_cp *)opaque)->mem;

    if (m->fabric) {
        swai_fabric_sem_store(m->fabric, m->fabric_card, card, addr, val, ps);
    }
}

static uint64_t fabric_sem_time(void *opaque, unsigned card, uint64_t addr,
                                const struct swai_sem_want *want)
{
    struct swai_mem *m = &((struct swai_cp *)opaque)->mem;

    return m->fabric ? swai_fabric_sem_time(m->fabric, m->fabric_card, card,
                                            addr, want) : 0;
}

static bool may_step(void *opaque, uint64_t at_ps)
{
    const struct swai_mem *m = &((struct swai_cp *)opaque)->mem;

    return !m->fabric || swai_fabric_may_step(m->fabric, m->fabric_card,
                                              at_ps);
}

static void unlock(void *opaque)
{
    const struct swai_glue *g = ((struct swai_cp *)opaque)->glue;

    g->ops->unlock(g->opaque);
}

static void lock(void *opaque)
{
    const struct swai_glue *g = ((struct swai_cp *)opaque)->glue;

    g->ops->lock(g->opaque);
}

static const struct swai_engine_ops engine_ops = {
    .pending = pending,
    .start = start,
    .finish = finish,
    .fence = fence,
    .insn = insn,
    .locate = locate,
    .dma_read = dma_read,
    .dma_write = dma_write,
    .wall_ns = wall_ns,
    .fabric_book = fabric_book,
    .fabric_sem_store = fabric_sem_store,
    .fabric_sem_time = fabric_sem_time,
    .unlock = unlock,
    .lock = lock,
    .may_step = may_step,
};

/* --- the command processor --- */

void swai_cp_init(struct swai_cp *cp, const struct swai_timing_props *tp,
                  uint64_t ldm_bytes, const struct swai_glue *glue,
                  struct swai_irq *irq, struct swai_mmu *mmu,
                  const struct swai_layout *layout)
{
    memset(cp, 0, sizeof(*cp));
    cp->glue = glue;
    cp->irq = irq;
    cp->mmu = mmu;
    cp->mem.mmu = mmu;
    cp->mem.layout = layout;
    swai_engine_init(&cp->engine, tp, ldm_bytes, &engine_ops, cp);
}

bool swai_cp_attach(struct swai_cp *cp, uint8_t *hbm, uint8_t *ldm)
{
    cp->attached = false;
    cp->mem.hbm = NULL;
    swai_engine_detach(&cp->engine);
    if (!hbm || !ldm) {
        return true;
    }
    if (!swai_engine_attach(&cp->engine, ldm, &swai_arith)) {
        return false;
    }
    cp->mem.hbm = hbm;
    cp->attached = true;
    return true;
}

static void queue_reset(struct swai_cp *cp, unsigned cg)
{
    struct swai_cp_queue *q = &cp->q[cg];

    trace_swai_queue_reset(cg, swai_engine_busy(&cp->engine, cg));
    if (swai_engine_busy(&cp->engine, cg)) {
        swai_engine_end(&cp->engine, cg, SWAI_JOB_ERR_RESET);
    }
    q->head = q->tail;
    q->bad_ring = false;
    q->reset_pending = false;
}

bool swai_cp_step(struct swai_cp *cp)
{
    bool did = false;
    unsigned cg;

    if (!cp->attached) {
        return false;
    }
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        if (cp->q[cg].reset_pending) {
            queue_reset(cp, cg);
            did = true;
        }
    }
    if (!swai_engine_step(&cp->engine)) {
        return did;
    }
    if (cp->mem.fabric) {
        /* Its turn may have passed to another card, or a wait it ended. */
        swai_fabric_stepped(cp->mem.fabric, cp->mem.fabric_card);
    }
    return true;
}

bool swai_cp_polling(const struct swai_cp *cp)
{
    return swai_engine_polling(&cp->engine);
}

void swai_cp_reset(struct swai_cp *cp)
{
    unsigned cg;

    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        struct swai_cp_queue *q = &cp->q[cg];

        q->ring_lo = q->ring_hi = q->ring_size = q->ctrl = 0;
        q->head = q->tail = 0;
        q->bad_ring = q->reset_pending = false;
        q->completed = 0;
        q->jobs = q->fences = 0;
        q->completion = 0;
    }
    swai_engine_reset(&cp->engine);   /* a step in flight drops its work */
}
