/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-xfer.c - transfers between LDM and device addresses, and between
 * device addresses (swai-xfer.h).
 */
#include "swai-access.h"
#include "swai-cg.h"
#include "swai-cost.h"
#include "swai-xfer.h"

/* Geometry of a transfer with defaults applied. */
struct xfer {
    uint64_t rows, len, dst_stride, src_stride;
    uint64_t total;             /* rows * len */
    uint64_t ldm_off, ldm_ext;  /* the LDM side, first to last byte */
};

static bool is_async(const struct swai_insn *in)
{
    return in->flags & SWAI_XFER_ASYNC;
}

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
static int check_side(const struct swai_engine *e, bool ldm, uint64_t base,
                      uint64_t ext)
{
    uint64_t end;

    if (__builtin_add_overflow(base, ext, &end)) {
        return ldm ? SWAI_JOB_ERR_LDM : SWAI_JOB_ERR_ILLEGAL;
    }
    if (ldm && end > e->ldm_bytes) {
        return SWAI_JOB_ERR_LDM;
    }
    return SWAI_JOB_OK;
}

static int setup(const struct swai_engine *e, const struct swai_insn *in,
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
    r = check_side(e, in->op == SWAI_OP_DMA_GET, in->dst, dext);
    if (!r) {
        r = check_side(e, in->op == SWAI_OP_DMA_PUT, in->src, sext);
    }
    return r;
}

/* Move bytes [from, from + n) of the transfer's byte stream (one row). */
static int piece(struct swai_engine *e, unsigned cg,
                 struct swai_engine_job *j, const struct swai_insn *in,
                 const struct xfer *x, uint64_t from, uint64_t n,
                 uint64_t acct[SWAI_ACCT_N], uint64_t *moved)
{
    uint8_t *ldm = swai_cg_ldm(e, cg);
    uint64_t row = from / x->len, off = from % x->len;
    uint64_t dst = in->dst + row * x->dst_stride + off;
    uint64_t src = in->src + row * x->src_stride + off;

    switch (in->op) {
    case SWAI_OP_DMA_GET:
        return swai_access_rw(e, cg, j, src, ldm ? ldm + dst : NULL, n, false,
                              acct, moved);
    case SWAI_OP_DMA_PUT:
        return swai_access_rw(e, cg, j, dst, ldm ? ldm + src : NULL, n, true,
                              acct, moved);
    default:
        return swai_access_copy(e, cg, j, dst, src, n, acct, moved);
    }
}

/*
 * Fixed cost and checks of a transfer, once, when it starts.  A
 * synchronous one first drains and then runs on the sequencer's clock; an
 * asynchronous one only pays its issue cost there and runs from when its
 * LDM bytes are free (GET: no earlier read or write pending; PUT: no
 * earlier write pending) -- its ports are checked chunk by chunk.
 */
static int start(struct swai_engine *e, unsigned cg,
                 const struct swai_insn *in, const struct xfer *x)
{
    struct swai_engine_cg *c = &e->cg[cg];
    struct swai_engine_job *j = &c->job;
    uint64_t t0;

    if (j->inject_dma) {
        j->inject_dma = false;
        j->fault.va = in->op == SWAI_OP_DMA_PUT ? in->dst : in->src;
        return SWAI_JOB_ERR_DMA;
    }
    if (!is_async(in)) {
        swai_cg_drain(c);
    }
    c->clock_ps += swai_cost_issue_ps(&e->tp, in->op);
    if (is_async(in)) {
        t0 = c->clock_ps;
        if (in->op == SWAI_OP_DMA_GET) {
            t0 = swai_cg_max(t0, swai_seq_sb_write_ready(&c->sb, x->ldm_off,
                                                         x->ldm_ext));
        } else if (in->op == SWAI_OP_DMA_PUT) {
            t0 = swai_cg_max(t0, swai_seq_sb_read_ready(&c->sb, x->ldm_off,
                                                        x->ldm_ext));
        }
        j->seq.xfer_end_ps = t0;
    }
    if (in->op == SWAI_OP_DMA_GET && x->total) {
        swai_cg_ldm_dirty(j, in->dst, in->dst + (x->rows - 1) * x->dst_stride +
                          x->len);
    }
    j->started = true;
    return SWAI_JOB_OK;
}

/* After a chunk: when the last is done, the scoreboard learns its end. */
static int done(struct swai_engine_cg *c, const struct swai_insn *in,
                const struct xfer *x)
{
    struct swai_engine_job *j = &c->job;

    if (j->done != x->total) {
        return SWAI_JOB_OK;
    }
    if (is_async(in) && in->op == SWAI_OP_DMA_GET) {
        swai_seq_sb_write(&c->sb, x->ldm_off, x->ldm_ext, j->seq.xfer_end_ps);
    } else if (is_async(in) && in->op == SWAI_OP_DMA_PUT) {
        swai_seq_sb_read(&c->sb, x->ldm_off, x->ldm_ext, j->seq.xfer_end_ps);
    }
    swai_cg_next(j);
    return SWAI_JOB_OK;
}

/*
 * Chunks one step may move.  The chunk stays the unit of timing (each is
 * booked on its own, in order); a step takes several only when no other
 * CG could have run in between (swai_cg_alone), so modeled time is the
 * same, and the host's lock is dropped and taken once per 1 MiB instead of
 * per 64 KiB -- on a quiet card that is what bounds a large copy's speed.
 */
#define XFER_BATCH  16

/*
 * A chunk started at 'at' on the card's paths and, when it reached another
 * card, on the fabric's links: when it ends.
 */
static uint64_t chunk_end(struct swai_engine *e, uint64_t at,
                          const uint64_t acct[SWAI_ACCT_N], bool first)
{
    uint64_t end = swai_timing_chunk(&e->timing, at, acct);
    unsigned w;

    for (w = 0; w < 2 && e->ops->fabric_book; w++) {
        uint64_t n = acct[w ? SWAI_ACCT_FABRIC_WR : SWAI_ACCT_FABRIC_RD];
        uint64_t card = acct[w ? SWAI_ACCT_FABRIC_WR_CARD :
                             SWAI_ACCT_FABRIC_RD_CARD];

        if (n && card) {
            end = swai_cg_max(end, e->ops->fabric_book(e->opaque,
                                                       (unsigned)card - 1, w,
                                                       at, n, first));
        }
    }
    return end;
}

/* Book a chunk that moved 'got' bytes using 'acct', as its kind does. */
static void book(struct swai_engine *e, struct swai_engine_cg *c,
                 const struct swai_insn *in, uint64_t got,
                 uint64_t acct[SWAI_ACCT_N], bool first)
{
    struct swai_engine_job *j = &c->job;
    uint64_t t;

    if (got) {
        j->transfer_ps += swai_timing_ideal_ps(&e->timing, acct);
    }
    if (!is_async(in)) {
        c->clock_ps = chunk_end(e, c->clock_ps, acct, first);
        return;
    }
    if (!got) {
        return;
    }
    /* Each chunk starts when the last ended and its ports are free. */
    t = swai_seq_ports_ready(&j->seq, j->seq.xfer_end_ps, acct);
    swai_seq_ports_busy(&j->seq, chunk_end(e, t, acct, first), acct);
}

int swai_xfer_step(struct swai_engine *e, unsigned cg,
                   const struct swai_insn *in)
{
    struct swai_engine_cg *c = &e->cg[cg];
    struct swai_engine_job *j = &c->job, copy;
    uint64_t acct[XFER_BATCH][SWAI_ACCT_N] = { { 0 } };
    uint64_t got[XFER_BATCH], at, at0, moved = 0;
    unsigned nb, b, batch;
    uint32_t gen = e->gen;
    struct xfer x;
    int r;

    r = setup(e, in, &x);
    if (!r && !j->started) {
        r = start(e, cg, in, &x);
    }
    if (r) {
        return r;
    }
    batch = swai_cg_alone(e, cg) ? XFER_BATCH : 1;
    copy = *j;
    at = at0 = copy.done;
    swai_cg_unlock(e);
    for (nb = 0; nb < batch && (at < x.total || !nb) && !r; nb++) {
        uint64_t chunk = x.total - at < SWAI_CHUNK ? x.total - at : SWAI_CHUNK;
        uint64_t k = 0;

        while (k < chunk) {
            uint64_t from = at + k;
            uint64_t n = x.len - from % x.len;

            n = n < chunk - k ? n : chunk - k;
            r = piece(e, cg, &copy, in, &x, from, n, acct[nb], &moved);
            k += moved;
            if (r) {
                break;
            }
        }
        got[nb] = k;
        at += k;
    }
    if (!swai_cg_relock(e, cg, gen)) {
        return SWAI_CG_GONE;
    }
    copy.bytes += at - copy.done;
    copy.done = at;
    *j = copy;
    for (b = 0; b < nb; b++) {
        book(e, c, in, got[b], acct[b], !b && !at0);
    }
    return r ? r : done(c, in, &x);
}
