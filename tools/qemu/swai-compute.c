/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-compute.c - decoding, checking and costing the compute instructions
 * (swai-compute.h; datasheet §13.7, §14).  The arithmetic is in
 * swai-arith.c.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "swai_regs.h"
#include "swai-compute.h"
#include "swai-le.h"

/* Field f of overlay struct s, little endian in raw. */
#define FLD(raw, s, f) \
    swai_ld_le((raw) + offsetof(struct s, f), sizeof(((struct s *)0)->f))
#define GET(dst, raw, s, f) ((dst).f = FLD(raw, s, f))

bool swai_compute_op(uint8_t op)
{
    return op == SWAI_OP_GEMM || op == SWAI_OP_LAYERNORM ||
           op == SWAI_OP_DROPOUT || op == SWAI_OP_CVT;
}

static void decode(const uint8_t *raw, struct swai_cop *c)
{
    memset(c, 0, sizeof(*c));
    switch (raw[0]) {
    case SWAI_OP_GEMM:
        GET(c->u.gemm, raw, swai_insn_gemm, op);
        GET(c->u.gemm, raw, swai_insn_gemm, flags);
        GET(c->u.gemm, raw, swai_insn_gemm, dtype);
        GET(c->u.gemm, raw, swai_insn_gemm, epilogue);
        GET(c->u.gemm, raw, swai_insn_gemm, m);
        GET(c->u.gemm, raw, swai_insn_gemm, n);
        GET(c->u.gemm, raw, swai_insn_gemm, k);
        GET(c->u.gemm, raw, swai_insn_gemm, c);
        GET(c->u.gemm, raw, swai_insn_gemm, ldc);
        GET(c->u.gemm, raw, swai_insn_gemm, a);
        GET(c->u.gemm, raw, swai_insn_gemm, lda);
        GET(c->u.gemm, raw, swai_insn_gemm, b);
        GET(c->u.gemm, raw, swai_insn_gemm, ldb);
        GET(c->u.gemm, raw, swai_insn_gemm, alpha);
        GET(c->u.gemm, raw, swai_insn_gemm, beta);
        break;
    case SWAI_OP_LAYERNORM:
        GET(c->u.ln, raw, swai_insn_layernorm, op);
        GET(c->u.ln, raw, swai_insn_layernorm, flags);
        GET(c->u.ln, raw, swai_insn_layernorm, dtype);
        GET(c->u.ln, raw, swai_insn_layernorm, rsvd0);
        GET(c->u.ln, raw, swai_insn_layernorm, rows);
        GET(c->u.ln, raw, swai_insn_layernorm, cols);
        GET(c->u.ln, raw, swai_insn_layernorm, eps);
        GET(c->u.ln, raw, swai_insn_layernorm, y);
        GET(c->u.ln, raw, swai_insn_layernorm, ldy);
        GET(c->u.ln, raw, swai_insn_layernorm, x);
        GET(c->u.ln, raw, swai_insn_layernorm, ldx);
        GET(c->u.ln, raw, swai_insn_layernorm, gamma);
        GET(c->u.ln, raw, swai_insn_layernorm, beta);
        GET(c->u.ln, raw, swai_insn_layernorm, rsvd1);
        break;
    case SWAI_OP_DROPOUT:
        GET(c->u.drop, raw, swai_insn_dropout, op);
        GET(c->u.drop, raw, swai_insn_dropout, flags);
        GET(c->u.drop, raw, swai_insn_dropout, dtype);
        GET(c->u.drop, raw, swai_insn_dropout, rsvd0);
        GET(c->u.drop, raw, swai_insn_dropout, n);
        GET(c->u.drop, raw, swai_insn_dropout, y);
        GET(c->u.drop, raw, swai_insn_dropout, x);
        GET(c->u.drop, raw, swai_insn_dropout, keep);
        GET(c->u.drop, raw, swai_insn_dropout, rsvd1);
        GET(c->u.drop, raw, swai_insn_dropout, seed);
        GET(c->u.drop, raw, swai_insn_dropout, offset);
        GET(c->u.drop, raw, swai_insn_dropout, rsvd2);
        break;
    default:    /* SWAI_OP_CVT */
        GET(c->u.cvt, raw, swai_insn, op);
        GET(c->u.cvt, raw, swai_insn, flags);
        GET(c->u.cvt, raw, swai_insn, dtype);
        GET(c->u.cvt, raw, swai_insn, rop);
        GET(c->u.cvt, raw, swai_insn, rows);
        GET(c->u.cvt, raw, swai_insn, len);
        GET(c->u.cvt, raw, swai_insn, dst);
        GET(c->u.cvt, raw, swai_insn, src);
        GET(c->u.cvt, raw, swai_insn, dst_stride);
        GET(c->u.cvt, raw, swai_insn, src_stride);
        break;
    }
}

/* Element size of a compute type, 0 if it is not one. */
static unsigned esize(unsigned dtype)
{
    return dtype == SWAI_DT_F32 ? 4 : dtype == SWAI_DT_BF16 ? 2 : 0;
}

/* --- the encoding --- */

static int check_encoding(const struct swai_cop *c)
{
    const struct swai_insn_gemm *g = &c->u.gemm;
    const struct swai_insn_layernorm *l = &c->u.ln;
    const struct swai_insn_dropout *d = &c->u.drop;
    const struct swai_insn *v = &c->u.cvt;
    float f;
    bool bad;

    switch (c->u.op) {
    case SWAI_OP_GEMM:
        bad = (g->flags & ~(SWAI_GEMM_TRANS_A | SWAI_GEMM_TRANS_B)) ||
              !esize(g->dtype) || g->epilogue > SWAI_EPI_MAX ||
              !g->m || !g->n || !g->k ||
              /* each stored row fits its pitch */
              g->lda < (g->flags & SWAI_GEMM_TRANS_A ? g->m : g->k) ||
              g->ldb < (g->flags & SWAI_GEMM_TRANS_B ? g->k : g->n) ||
              g->ldc < g->n;
        break;
    case SWAI_OP_LAYERNORM:
        f = bits_f32(l->eps);
        bad = l->flags || l->rsvd0 || l->rsvd1 || !esize(l->dtype) ||
              !l->rows || !l->cols || l->ldx < l->cols ||
              l->ldy < l->cols || isnan(f) || f < 0.0f;
        break;
    case SWAI_OP_DROPOUT:
        f = bits_f32(d->keep);
        bad = d->flags || d->rsvd0 || d->rsvd1 || d->rsvd2 ||
              !esize(d->dtype) || !d->n || !(f > 0.0f && f <= 1.0f);
        break;
    default:    /* CVT */
        bad = v->flags || v->rows || v->dst_stride || v->src_stride ||
              !esize(v->dtype) || !esize(v->rop) || !v->len;
        break;
    }
    return bad ? SWAI_JOB_ERR_ILLEGAL : SWAI_JOB_OK;
}

int swai_compute_validate(const uint8_t raw[48])
{
    struct swai_cop c;

    decode(raw, &c);
    return check_encoding(&c);
}

/* --- operands --- */

/*
 * The bytes of a rows x cols matrix of es-byte elements at off, row r at
 * off + r * ld * es: from its first byte to its last row's end.  False if
 * that does not even fit 64 bits.
 */
static bool mat_range(uint64_t off, uint64_t rows, uint64_t cols,
                      uint64_t ld, unsigned es, struct swai_ldm_range *r)
{
    uint64_t e;

    if (__builtin_mul_overflow(rows - 1, ld, &e) ||
        __builtin_add_overflow(e, cols, &e) ||
        __builtin_mul_overflow(e, (uint64_t)es, &e)) {
        return false;
    }
    r->off = off;
    r->len = e;
    return true;
}

static bool inside(const struct swai_ldm_range *r, uint64_t ldm_bytes)
{
    return r->off <= ldm_bytes && r->len <= ldm_bytes - r->off;
}

static bool overlap(const struct swai_ldm_range *a,
                    const struct swai_ldm_range *b)
{
    return a->off < b->off + b->len && b->off < a->off + a->len;
}

/* Operand ranges, alignment (ALIGN) and sizes (LDM if they cannot be). */
static int operands(struct swai_cop *c)
{
    const struct swai_insn_gemm *g = &c->u.gemm;
    const struct swai_insn_layernorm *l = &c->u.ln;
    const struct swai_insn_dropout *d = &c->u.drop;
    const struct swai_insn *v = &c->u.cvt;
    bool ta = g->flags & SWAI_GEMM_TRANS_A, tb = g->flags & SWAI_GEMM_TRANS_B;
    unsigned es, eo;
    bool ok;

    switch (c->u.op) {
    case SWAI_OP_GEMM:
        es = esize(g->dtype);
        if (g->a % es || g->b % es || g->c % 4) {
            return SWAI_JOB_ERR_ALIGN;
        }
        c->nin = 2;
        ok = mat_range(g->a, ta ? g->k : g->m, ta ? g->m : g->k, g->lda, es,
                       &c->in[0]) &&
             mat_range(g->b, tb ? g->n : g->k, tb ? g->k : g->n, g->ldb, es,
                       &c->in[1]) &&
             mat_range(g->c, g->m, g->n, g->ldc, 4, &c->out);
        break;
    case SWAI_OP_LAYERNORM:
        es = esize(l->dtype);
        if (l->x % es || l->y % es || l->gamma % 4 || l->beta % 4) {
            return SWAI_JOB_ERR_ALIGN;
        }
        c->nin = 3;
        ok = mat_range(l->x, l->rows, l->cols, l->ldx, es, &c->in[0]) &&
             mat_range(l->gamma, 1, l->cols, l->cols, 4, &c->in[1]) &&
             mat_range(l->beta, 1, l->cols, l->cols, 4, &c->in[2]) &&
             mat_range(l->y, l->rows, l->cols, l->ldy, es, &c->out);
        break;
    case SWAI_OP_DROPOUT:
        es = esize(d->dtype);
        if (d->x % es || d->y % es) {
            return SWAI_JOB_ERR_ALIGN;
        }
        c->nin = 1;
        ok = mat_range(d->x, 1, d->n, d->n, es, &c->in[0]) &&
             mat_range(d->y, 1, d->n, d->n, es, &c->out);
        break;
    default:    /* CVT */
        es = esize(v->dtype);
        eo = esize(v->rop);
        if (v->src % es || v->dst % eo) {
            return SWAI_JOB_ERR_ALIGN;
        }
        c->nin = 1;
        ok = mat_range(v->src, 1, v->len, v->len, es, &c->in[0]) &&
             mat_range(v->dst, 1, v->len, v->len, eo, &c->out);
        break;
    }
    return ok ? SWAI_JOB_OK : SWAI_JOB_ERR_LDM;
}

/* May the output overlap input i?  Only where the header allows it. */
static bool overlap_allowed(const struct swai_cop *c, unsigned i)
{
    switch (c->u.op) {
    case SWAI_OP_LAYERNORM:
        /* Row by row, each row read in full before it is written. */
        return i == 0 && c->u.ln.y == c->u.ln.x && c->u.ln.ldy == c->u.ln.ldx;
    case SWAI_OP_DROPOUT:
        return c->u.drop.y == c->u.drop.x;
    case SWAI_OP_CVT:
        return c->u.cvt.dst == c->u.cvt.src &&
               esize(c->u.cvt.dtype) == esize(c->u.cvt.rop);
    default:
        return false;
    }
}

/* FLOPs, the rate they run at, and LDM bytes touched (datasheet §14). */
static void work(struct swai_cop *c)
{
    const struct swai_insn_gemm *g = &c->u.gemm;
    uint64_t mn, es;

    switch (c->u.op) {
    case SWAI_OP_GEMM:
        es = esize(g->dtype);
        mn = (uint64_t)g->m * g->n;
        c->flops = 2 * mn * g->k + (g->epilogue == SWAI_EPI_GELU ? 8 * mn : 0);
        c->bf16_rate = g->dtype == SWAI_DT_BF16;
        c->bytes = ((uint64_t)g->m * g->k + (uint64_t)g->k * g->n) * es +
                   mn * 4 * (bits_f32(g->beta) != 0.0f ? 2 : 1);
        break;
    case SWAI_OP_LAYERNORM:
        mn = (uint64_t)c->u.ln.rows * c->u.ln.cols;
        c->flops = 8 * mn;
        c->bytes = 2 * mn * esize(c->u.ln.dtype) + 8ull * c->u.ln.cols;
        break;
    case SWAI_OP_DROPOUT:
        c->flops = 4ull * c->u.drop.n;
        c->bytes = 2ull * c->u.drop.n * esize(c->u.drop.dtype);
        break;
    default:
        c->flops = 0;
        c->bytes = c->u.cvt.len * (esize(c->u.cvt.dtype) +
                                   esize(c->u.cvt.rop));
        break;
    }
}

int swai_compute_prepare(const uint8_t raw[48], uint64_t ldm_bytes,
                         struct swai_cop *c)
{
    unsigned i;
    int r;

    decode(raw, c);
    r = check_encoding(c);
    if (!r) {
        r = operands(c);
    }
    if (r) {
        return r;
    }
    for (i = 0; i < c->nin; i++) {
        if (!inside(&c->in[i], ldm_bytes)) {
            return SWAI_JOB_ERR_LDM;
        }
    }
    if (!inside(&c->out, ldm_bytes)) {
        return SWAI_JOB_ERR_LDM;
    }
    for (i = 0; i < c->nin; i++) {
        if (overlap(&c->out, &c->in[i]) && !overlap_allowed(c, i)) {
            return SWAI_JOB_ERR_ILLEGAL;
        }
    }
    /* Inside an LDM of at most 64 MiB, none of this can overflow. */
    work(c);
    return SWAI_JOB_OK;
}

uint64_t swai_compute_cost_ps(const struct swai_cop *c,
                              const struct swai_timing_props *tp)
{
    uint64_t f = swai_timing_flops_ps(c->flops, c->bf16_rate ?
                                      tp->bf16_gflops : tp->f32_gflops);
    uint64_t b = swai_timing_ps(c->bytes, tp->ldm_mbps);

    return f > b ? f : b;
}
