/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-isa.c - decoding and checking core-group instructions (swai-isa.h;
 * datasheet §13).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "swai_regs.h"
#include "swai-isa.h"
#include "swai-le.h"

void swai_isa_decode(const uint8_t *p, struct swai_insn *in)
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

void swai_isa_encode(uint8_t *p, const struct swai_insn *in)
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

unsigned swai_isa_esize(unsigned dtype)
{
    static const uint8_t size[SWAI_DT_MAX + 1] = {
        [SWAI_DT_F32] = 4, [SWAI_DT_F16] = 2, [SWAI_DT_BF16] = 2,
        [SWAI_DT_F64] = 8, [SWAI_DT_I32] = 4, [SWAI_DT_I64] = 8,
        [SWAI_DT_U8] = 1,
    };

    return dtype <= SWAI_DT_MAX ? size[dtype] : 0;
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
    /* GEMM, LAYERNORM, DROPOUT, CVT: swai_isa_compute_validate(). */
    [SWAI_OP_DRAIN] = { 0, 0 },
};

int swai_isa_validate(const struct swai_insn *in)
{
    unsigned f;

    if (in->op > SWAI_OP_MAX) {
        return SWAI_JOB_ERR_ILLEGAL;
    }
    if (swai_isa_is_compute(in->op)) {
        uint8_t raw[SWAI_INSN_SIZE];

        swai_isa_encode(raw, in);
        return swai_isa_compute_validate(raw);
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

/* --- compute instructions --- */

/* Field f of overlay struct s, little endian in raw. */
#define FLD(raw, s, f) \
    swai_ld_le((raw) + offsetof(struct s, f), sizeof(((struct s *)0)->f))
#define GET(dst, raw, s, f) ((dst).f = FLD(raw, s, f))

const char *swai_isa_name(uint8_t op)
{
    static const char *const names[SWAI_OP_MAX + 1] = {
        [SWAI_OP_NOP] = "NOP",           [SWAI_OP_END] = "END",
        [SWAI_OP_DMA_GET] = "DMA_GET",   [SWAI_OP_DMA_PUT] = "DMA_PUT",
        [SWAI_OP_COPY] = "COPY",         [SWAI_OP_REDUCE] = "REDUCE",
        [SWAI_OP_BARRIER] = "BARRIER",   [SWAI_OP_SIGNAL] = "SIGNAL",
        [SWAI_OP_WAIT] = "WAIT",         [SWAI_OP_FENCE] = "FENCE",
        [SWAI_OP_TIMESTAMP] = "TIMESTAMP", [SWAI_OP_DIV] = "DIV",
        [SWAI_OP_GEMM] = "GEMM",         [SWAI_OP_LAYERNORM] = "LAYERNORM",
        [SWAI_OP_DROPOUT] = "DROPOUT",   [SWAI_OP_CVT] = "CVT",
        [SWAI_OP_DRAIN] = "DRAIN",
    };

    return op <= SWAI_OP_MAX && names[op] ? names[op] : "?";
}

bool swai_isa_is_compute(uint8_t op)
{
    return op == SWAI_OP_GEMM || op == SWAI_OP_LAYERNORM ||
           op == SWAI_OP_DROPOUT || op == SWAI_OP_CVT;
}

unsigned swai_isa_compute_esize(unsigned dtype)
{
    return dtype == SWAI_DT_F32 ? 4 : dtype == SWAI_DT_BF16 ? 2 : 0;
}

static void decode_compute(const uint8_t *raw, struct swai_cop *c)
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
        swai_isa_decode(raw, &c->u.cvt);
        break;
    }
}

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
              !swai_isa_compute_esize(g->dtype) ||
              g->epilogue > SWAI_EPI_MAX || !g->m || !g->n || !g->k ||
              /* each stored row fits its pitch */
              g->lda < (g->flags & SWAI_GEMM_TRANS_A ? g->m : g->k) ||
              g->ldb < (g->flags & SWAI_GEMM_TRANS_B ? g->k : g->n) ||
              g->ldc < g->n;
        break;
    case SWAI_OP_LAYERNORM:
        f = bits_f32(l->eps);
        bad = l->flags || l->rsvd0 || l->rsvd1 ||
              !swai_isa_compute_esize(l->dtype) ||
              !l->rows || !l->cols || l->ldx < l->cols ||
              l->ldy < l->cols || isnan(f) || f < 0.0f;
        break;
    case SWAI_OP_DROPOUT:
        f = bits_f32(d->keep);
        bad = d->flags || d->rsvd0 || d->rsvd1 || d->rsvd2 ||
              !swai_isa_compute_esize(d->dtype) || !d->n ||
              !(f > 0.0f && f <= 1.0f);
        break;
    default:    /* CVT */
        bad = v->flags || v->rows || v->dst_stride || v->src_stride ||
              !swai_isa_compute_esize(v->dtype) ||
              !swai_isa_compute_esize(v->rop) || !v->len;
        break;
    }
    return bad ? SWAI_JOB_ERR_ILLEGAL : SWAI_JOB_OK;
}

int swai_isa_compute_validate(const uint8_t raw[SWAI_INSN_SIZE])
{
    struct swai_cop c;

    decode_compute(raw, &c);
    return check_encoding(&c);
}

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
        es = swai_isa_compute_esize(g->dtype);
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
        es = swai_isa_compute_esize(l->dtype);
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
        es = swai_isa_compute_esize(d->dtype);
        if (d->x % es || d->y % es) {
            return SWAI_JOB_ERR_ALIGN;
        }
        c->nin = 1;
        ok = mat_range(d->x, 1, d->n, d->n, es, &c->in[0]) &&
             mat_range(d->y, 1, d->n, d->n, es, &c->out);
        break;
    default:    /* CVT */
        es = swai_isa_compute_esize(v->dtype);
        eo = swai_isa_compute_esize(v->rop);
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
               swai_isa_compute_esize(c->u.cvt.dtype) ==
               swai_isa_compute_esize(c->u.cvt.rop);
    default:
        return false;
    }
}

int swai_isa_compute_prepare(const uint8_t raw[SWAI_INSN_SIZE],
                             uint64_t ldm_bytes, struct swai_cop *c)
{
    unsigned i;
    int r;

    decode_compute(raw, c);
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
    return SWAI_JOB_OK;
}
