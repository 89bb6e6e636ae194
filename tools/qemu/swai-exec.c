/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-exec.c - decoding, checking and running core-group instructions:
 * dispatch, transfers (DMA_GET, DMA_PUT, COPY, synchronous or not), REDUCE,
 * DIV, the compute instructions and DRAIN.  The semaphore instructions are
 * in swai-sync.c, the compute arithmetic in swai-compute.c/swai-arith.c,
 * the sequencer's bookkeeping of asynchronous work in swai-sched.c.
 */
#include <string.h>

#include "swai-compute.h"
#include "swai-core.h"
#include "swai-div.h"
#include "swai-exec.h"
#include "swai-le.h"
#include "swai-mem.h"
#include "swai-reduce.h"

void swai_exec_decode(const uint8_t *p, struct swai_insn *in)
{
    in->op = p[0];
    in->flags = p[1];
    in->dtype = p[2];
    in->rop = p[3];
    in->rows = (uint32_t)swai_ld_le(p + 4, 4);
    in->len = swai_ld_le(p + 8, 8);
    in->dst = swai_ld_le(p + 16, 8);
    in->src = swai_ld_le(p + 24, 8);
    in->dst_stride = swai_ld_le(p + 32, 8);
    in->src_stride = swai_ld_le(p + 40, 8);
}

/* The inverse of swai_exec_decode(). */
static void encode(uint8_t *p, const struct swai_insn *in)
{
    p[0] = in->op;
    p[1] = in->flags;
    p[2] = in->dtype;
    p[3] = in->rop;
    swai_st_le(p + 4, 4, in->rows);
    swai_st_le(p + 8, 8, in->len);
    swai_st_le(p + 16, 8, in->dst);
    swai_st_le(p + 24, 8, in->src);
    swai_st_le(p + 32, 8, in->dst_stride);
    swai_st_le(p + 40, 8, in->src_stride);
}

/* Fields each op uses; every other field must be zero. */
#define F_FLAGS     (1u << 0)
#define F_DTYPE     (1u << 1)   /* dtype and rop */
#define F_ROWS      (1u << 2)
#define F_LEN       (1u << 3)
#define F_DST       (1u << 4)
#define F_SRC       (1u << 5)
#define F_STRIDES   (1u << 6)
#define F_XFER      (F_ROWS | F_LEN | F_DST | F_SRC | F_STRIDES)

static const struct {
    unsigned fields;
    uint8_t flags;              /* defined flag bits */
} op_info[SWAI_OP_MAX + 1] = {
    [SWAI_OP_NOP] = { 0, 0 },
    [SWAI_OP_END] = { 0, 0 },
    [SWAI_OP_DMA_GET] = { F_XFER, SWAI_XFER_ASYNC },
    [SWAI_OP_DMA_PUT] = { F_XFER, SWAI_XFER_ASYNC },
    [SWAI_OP_COPY] = { F_XFER, SWAI_XFER_ASYNC },
    [SWAI_OP_REDUCE] = { F_DTYPE | F_LEN | F_DST | F_SRC, 0 },
    [SWAI_OP_BARRIER] = { F_FLAGS | F_LEN | F_DST, SWAI_BARRIER_HOST },
    [SWAI_OP_SIGNAL] = { F_FLAGS | F_DST | F_SRC, SWAI_SIGNAL_SET },
    [SWAI_OP_WAIT] = { F_FLAGS | F_DST | F_SRC, SWAI_WAIT_EQ },
    [SWAI_OP_FENCE] = { F_DST | F_SRC, 0 },
    [SWAI_OP_TIMESTAMP] = { F_FLAGS | F_DST, SWAI_TIMESTAMP_WALL },
    [SWAI_OP_DIV] = { F_DTYPE | F_LEN | F_DST | F_SRC, 0 },
    /* GEMM, LAYERNORM, DROPOUT, CVT: swai_compute_validate(). */
    [SWAI_OP_DRAIN] = { 0, 0 },
};

int swai_exec_validate(const struct swai_insn *in)
{
    unsigned f;

    if (in->op > SWAI_OP_MAX) {
        return SWAI_JOB_ERR_ILLEGAL;
    }
    if (swai_compute_op(in->op)) {
        uint8_t raw[SWAI_INSN_SIZE];

        encode(raw, in);
        return swai_compute_validate(raw);
    }
    f = op_info[in->op].fields;
    if ((in->flags & ~op_info[in->op].flags) ||
        (!(f & F_DTYPE) && (in->dtype || in->rop)) ||
        (!(f & F_ROWS) && in->rows) ||
        (!(f & F_LEN) && in->len) ||
        (!(f & F_DST) && in->dst) ||
        (!(f & F_SRC) && in->src) ||
        (!(f & F_STRIDES) && (in->dst_stride || in->src_stride))) {
        return SWAI_JOB_ERR_ILLEGAL;
    }
    if (in->op == SWAI_OP_REDUCE &&
        (in->dtype > SWAI_DT_MAX || in->rop > SWAI_ROP_MAXOP)) {
        return SWAI_JOB_ERR_ILLEGAL;
    }
    /* DIV has no rop, and dividing by 0 has no defined result. */
    if (in->op == SWAI_OP_DIV &&
        (in->dtype > SWAI_DT_MAX || in->rop || !in->src)) {
        return SWAI_JOB_ERR_ILLEGAL;
    }
    if (in->op == SWAI_OP_BARRIER && !in->len) {
        return SWAI_JOB_ERR_ILLEGAL;
    }
    return SWAI_JOB_OK;
}

void swai_exec_next(struct swai_job *j)
{
    j->pc++;
    j->insns++;
    j->started = false;
    j->done = 0;
}

static uint64_t ldm_bytes(const struct swai_core *s)
{
    return (uint64_t)s->props.cpes * s->props.ldm_kb * 1024;
}

static void ldm_dirty(struct swai_job *j, uint64_t lo, uint64_t hi)
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

/* --- transfers --- */

/* Geometry of a transfer with defaults applied. */
struct xfer {
    uint64_t rows, len, dst_stride, src_stride;
    uint64_t total;             /* rows * len */
    uint64_t ldm_off, ldm_ext;  /* the LDM side, first to last byte */
};

/* Bytes from the first row's start to the last row's end, or false. */
static bool extent(const struct xfer *x, uint64_t stride, uint64_t *ext)
{
    uint64_t e;

    if (__builtin_mul_overflow(x->rows - 1, stride, &e) ||
        __builtin_add_overflow(e, x->len, &e)) {
        return false;
    }
    *ext = e;
    return true;
}

/* Range of 'ext' bytes at 'base': in LDM, or a VA that does not wrap. */
static int check_side(const struct swai_core *s, bool ldm, uint64_t base,
                      uint64_t ext)
{
    uint64_t end;

    if (__builtin_add_overflow(base, ext, &end)) {
        return ldm ? SWAI_JOB_ERR_LDM : SWAI_JOB_ERR_ILLEGAL;
    }
    if (ldm && end > ldm_bytes(s)) {
        return SWAI_JOB_ERR_LDM;
    }
    return SWAI_JOB_OK;
}

static int xfer_setup(struct swai_core *s, const struct swai_insn *in,
                      struct xfer *x)
{
    uint64_t dext, sext;
    int r;

    x->rows = in->rows ? in->rows : 1;
    x->len = in->len;
    x->dst_stride = in->dst_stride ? in->dst_stride : in->len;
    x->src_stride = in->src_stride ? in->src_stride : in->len;
    if (__builtin_mul_overflow(x->rows, x->len, &x->total) ||
        !extent(x, x->dst_stride, &dext) || !extent(x, x->src_stride, &sext)) {
        return SWAI_JOB_ERR_ILLEGAL;
    }
    x->ldm_off = in->op == SWAI_OP_DMA_GET ? in->dst : in->src;
    x->ldm_ext = in->op == SWAI_OP_DMA_GET ? dext :
                 in->op == SWAI_OP_DMA_PUT ? sext : 0;
    if (!x->total) {
        x->ldm_ext = 0;
        return SWAI_JOB_OK;
    }
    r = check_side(s, in->op == SWAI_OP_DMA_GET, in->dst, dext);
    if (!r) {
        r = check_side(s, in->op == SWAI_OP_DMA_PUT, in->src, sext);
    }
    return r;
}

/* Move bytes [from, from + n) of the transfer's byte stream. */
static int xfer_piece(struct swai_core *s, unsigned cg, struct swai_job *j,
                      const struct swai_insn *in, const struct xfer *x,
                      uint64_t from, uint64_t n, uint64_t acct[SWAI_RES_N],
                      uint64_t *moved)
{
    uint8_t *ldm = s->ldm + (uint64_t)cg * ldm_bytes(s);
    uint64_t row = from / x->len, off = from % x->len;
    uint64_t dst = in->dst + row * x->dst_stride + off;
    uint64_t src = in->src + row * x->src_stride + off;
    uint64_t got;
    int r;

    switch (in->op) {
    case SWAI_OP_DMA_GET:
        return swai_mem_rw(s, cg, j, src, ldm + dst, n, false, acct, moved);
    case SWAI_OP_DMA_PUT:
        return swai_mem_rw(s, cg, j, dst, ldm + src, n, true, acct, moved);
    default:
        /* COPY: in through the CG's LDM (here a bounce buffer), then out. */
        *moved = 0;
        r = swai_mem_rw(s, cg, j, src, s->cp.bounce, n, false, acct, &got);
        if (r) {
            return r;
        }
        return swai_mem_rw(s, cg, j, dst, s->cp.bounce, n, true, acct,
                           moved);
    }
}

/*
 * Bring the step's work back under the lock: false if a device reset came
 * in between, the job is gone and what was written to LDM must go too.
 */
static bool relock(struct swai_core *s, unsigned cg, uint32_t gen)
{
    s->ops->lock(s->opaque);
    if (s->cp.gen == gen) {
        return true;
    }
    memset(s->ldm + (uint64_t)cg * ldm_bytes(s), 0, ldm_bytes(s));
    memset(&s->q[cg].job, 0, sizeof(s->q[cg].job));
    return false;
}

static bool is_async(const struct swai_insn *in)
{
    return in->flags & SWAI_XFER_ASYNC;
}

/* A drain point: the sequencer waits for everything issued before. */
static void drain(struct swai_queue *q)
{
    if (q->job.seq.horizon_ps > q->clock_ps) {
        q->clock_ps = q->job.seq.horizon_ps;
    }
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/*
 * Fixed cost and checks of a transfer, once, when it starts.  A
 * synchronous one first drains and then runs on the sequencer's clock; an
 * asynchronous one only pays its issue cost there and runs from when its
 * LDM bytes are free (GET: no earlier read or write pending; PUT: no
 * earlier write pending) -- its ports are checked chunk by chunk.
 */
static int xfer_start(struct swai_core *s, unsigned cg,
                      const struct swai_insn *in, const struct xfer *x)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job;
    const struct swai_timing_props *tp = &s->props.t;
    uint64_t t0;

    if (j->inject_dma) {
        j->inject_dma = false;
        j->fault_va = in->op == SWAI_OP_DMA_PUT ? in->dst : in->src;
        return SWAI_JOB_ERR_DMA;
    }
    if (!is_async(in)) {
        drain(q);
    }
    q->clock_ps += swai_timing_ns_to_ps(in->op == SWAI_OP_COPY ?
                                        tp->t_step_ns : tp->t_dma_ns);
    if (is_async(in)) {
        t0 = q->clock_ps;
        if (in->op == SWAI_OP_DMA_GET) {
            t0 = max64(t0, swai_sb_write_ready(&q->sb, x->ldm_off,
                                               x->ldm_ext));
        } else if (in->op == SWAI_OP_DMA_PUT) {
            t0 = max64(t0, swai_sb_read_ready(&q->sb, x->ldm_off,
                                              x->ldm_ext));
        }
        j->seq.xfer_ps = t0;
    }
    if (in->op == SWAI_OP_DMA_GET && x->total) {
        ldm_dirty(j, in->dst, in->dst + (x->rows - 1) * x->dst_stride +
                  x->len);
    }
    j->started = true;
    return SWAI_JOB_OK;
}

/* After a chunk: when the last is done, the scoreboard learns its end. */
static int xfer_done(struct swai_queue *q, const struct swai_insn *in,
                     const struct xfer *x)
{
    struct swai_job *j = &q->job;

    if (j->done != x->total) {
        return SWAI_JOB_OK;
    }
    if (is_async(in) && in->op == SWAI_OP_DMA_GET) {
        swai_sb_write(&q->sb, x->ldm_off, x->ldm_ext, j->seq.xfer_ps);
    } else if (is_async(in) && in->op == SWAI_OP_DMA_PUT) {
        swai_sb_read(&q->sb, x->ldm_off, x->ldm_ext, j->seq.xfer_ps);
    }
    swai_exec_next(j);
    return SWAI_JOB_OK;
}

static int exec_xfer(struct swai_core *s, unsigned cg,
                     const struct swai_insn *in)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job, copy;
    uint64_t acct[SWAI_RES_N] = { 0 };
    uint64_t chunk, k = 0, moved = 0;
    uint32_t gen = s->cp.gen;
    struct xfer x;
    int r;

    r = xfer_setup(s, in, &x);
    if (!r && !j->started) {
        r = xfer_start(s, cg, in, &x);
    }
    if (r) {
        return r;
    }
    chunk = x.total - j->done < SWAI_CHUNK ? x.total - j->done : SWAI_CHUNK;
    copy = *j;
    s->ops->unlock(s->opaque);
    while (k < chunk) {
        uint64_t from = copy.done + k;
        uint64_t n = x.len - from % x.len;

        n = n < chunk - k ? n : chunk - k;
        r = xfer_piece(s, cg, &copy, in, &x, from, n, acct, &moved);
        k += moved;
        if (r) {
            break;
        }
    }
    if (!relock(s, cg, gen)) {
        return SWAI_EXEC_GONE;
    }
    copy.bytes += k;
    copy.done += k;
    *j = copy;
    if (!is_async(in)) {
        q->clock_ps = swai_timing_chunk(&s->cp.timing, q->clock_ps, acct);
        return r ? r : xfer_done(q, in, &x);
    }
    /* Each chunk starts when the last ended and its ports are free. */
    if (k) {
        uint64_t t = swai_seq_ports_ready(&j->seq, j->seq.xfer_ps, acct);

        swai_seq_ports_busy(&j->seq, swai_timing_chunk(&s->cp.timing, t,
                                                       acct), acct);
    }
    return r ? r : xfer_done(q, in, &x);
}

/* --- compute: REDUCE, DIV, GEMM, LAYERNORM, DROPOUT, CVT --- */

/*
 * The CPEs compute, the sequencer waits: the instruction starts when its
 * inputs are written (RAW) and its output is no longer read or written by
 * anything in flight (WAR, WAW), and the clock moves to its end.  out is
 * also an input (REDUCE, DIV read it; GEMM may).
 */
static void compute_charge(struct swai_queue *q,
                           const struct swai_ldm_range *out,
                           const struct swai_ldm_range *in, unsigned nin,
                           uint64_t cost)
{
    uint64_t t = q->clock_ps, end;
    unsigned i;

    for (i = 0; i < nin; i++) {
        t = max64(t, swai_sb_read_ready(&q->sb, in[i].off, in[i].len));
    }
    t = max64(t, swai_sb_write_ready(&q->sb, out->off, out->len));
    end = t + cost;
    for (i = 0; i < nin; i++) {
        swai_sb_read(&q->sb, in[i].off, in[i].len, end);
    }
    swai_sb_write(&q->sb, out->off, out->len, end);
    q->clock_ps = end;
    q->job.seq.horizon_ps = max64(q->job.seq.horizon_ps, end);
}

/*
 * GEMM, LAYERNORM, DROPOUT, CVT: one step, the arithmetic with the lock
 * dropped (a large GEMM takes a while on the host).
 */
static int exec_compute(struct swai_core *s, unsigned cg, const uint8_t *raw)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job;
    uint32_t gen = s->cp.gen;
    struct swai_cop c;
    int r;

    r = swai_compute_prepare(raw, ldm_bytes(s), &c);
    if (r) {
        return r;
    }
    compute_charge(q, &c.out, c.in, c.nin,
                   swai_compute_cost_ps(&c, &s->props.t));
    ldm_dirty(j, c.out.off, c.out.off + c.out.len);
    s->ops->unlock(s->opaque);
    swai_compute_run(&c, s->ldm + (uint64_t)cg * ldm_bytes(s));
    if (!relock(s, cg, gen)) {
        return SWAI_EXEC_GONE;
    }
    swai_exec_next(j);
    return SWAI_JOB_OK;
}

/* REDUCE and DIV: elementwise in LDM, 64 KiB per step. */

/*
 * REDUCE reads two operands and writes one, DIV reads and writes one: each
 * byte costs one pass at LDM bandwidth, charged when the instruction starts.
 * DIV's src is the divisor, not an LDM offset.
 */
static int exec_ldm_op(struct swai_core *s, unsigned cg,
                       const struct swai_insn *in)
{
    struct swai_queue *q = &s->q[cg];
    struct swai_job *j = &q->job;
    uint8_t *ldm = s->ldm + (uint64_t)cg * ldm_bytes(s);
    unsigned es = swai_reduce_esize(in->dtype);
    bool div = in->op == SWAI_OP_DIV;
    uint32_t gen = s->cp.gen;
    uint64_t bytes, n, done;

    if (in->dst % es || (!div && in->src % es)) {
        return SWAI_JOB_ERR_ALIGN;
    }
    if (__builtin_mul_overflow(in->len, (uint64_t)es, &bytes) ||
        check_side(s, true, in->dst, bytes) ||
        (!div && check_side(s, true, in->src, bytes))) {
        return SWAI_JOB_ERR_LDM;
    }
    if (!j->started) {
        struct swai_ldm_range out = { in->dst, bytes };
        struct swai_ldm_range src = { div ? 0 : in->src, div ? 0 : bytes };

        compute_charge(q, &out, &src, 1,
                       swai_timing_ps((div ? 2 : 3) * bytes,
                                      s->props.t.ldm_mbps));
        ldm_dirty(j, in->dst, in->dst + bytes);
        j->started = true;
    }
    done = j->done;
    n = in->len - done;
    n = n < SWAI_CHUNK / es ? n : SWAI_CHUNK / es;
    s->ops->unlock(s->opaque);
    if (div) {
        swai_div(ldm + in->dst + done * es, n, in->dtype, in->src);
    } else {
        swai_reduce(ldm + in->dst + done * es, ldm + in->src + done * es, n,
                    in->dtype, in->rop);
    }
    if (!relock(s, cg, gen)) {
        return SWAI_EXEC_GONE;
    }
    j->done = done + n;
    if (j->done == in->len) {
        swai_exec_next(j);
    }
    return SWAI_JOB_OK;
}

int swai_exec_step(struct swai_core *s, unsigned cg)
{
    struct swai_job *j = &s->q[cg].job;
    const uint8_t *raw;
    struct swai_insn in;
    int r;

    if (j->pc >= j->n) {
        return SWAI_EXEC_DONE;
    }
    raw = s->q[cg].prog + (uint64_t)j->pc * SWAI_INSN_SIZE;
    if (swai_compute_op(raw[0])) {
        /* Their own layout: decoded and checked once, by prepare. */
        return exec_compute(s, cg, raw);
    }
    swai_exec_decode(raw, &in);
    r = swai_exec_validate(&in);
    if (r) {
        return r;
    }
    switch (in.op) {
    case SWAI_OP_NOP:
        swai_exec_next(j);
        return SWAI_JOB_OK;
    case SWAI_OP_END:
        j->insns++;
        return SWAI_EXEC_DONE;
    case SWAI_OP_DMA_GET:
    case SWAI_OP_DMA_PUT:
    case SWAI_OP_COPY:
        return exec_xfer(s, cg, &in);
    case SWAI_OP_REDUCE:
    case SWAI_OP_DIV:
        return exec_ldm_op(s, cg, &in);
    case SWAI_OP_DRAIN:
        drain(&s->q[cg]);
        swai_exec_next(j);
        return SWAI_JOB_OK;
    default:
        /* Semaphores order memory: everything issued is done first. */
        drain(&s->q[cg]);
        return swai_exec_sync(s, cg, &in);
    }
}
