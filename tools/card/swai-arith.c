/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-arith.c - the arithmetic of GEMM, LAYERNORM, DROPOUT and CVT
 * (datasheet §13.7), and the engine's data plane (swai-arith.h).  Every
 * f32 operation is written out in the order the datasheet gives, and
 * nothing may fuse a multiply with an add, so the host
 * reference computes the same bits (LAYERNORM, DROPOUT, CVT).  GEMM is the
 * host's BLAS (cblas_sgemm) on operands widened to f32.
 */
#pragma GCC optimize("fp-contract=off")

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swai-arith.h"
#include "swai-div.h"
#include "swai-float.h"
#include "swai-le.h"
#include "swai-philox.h"
#include "swai-reduce.h"

/* Scratch the size of an LDM operand; like g_malloc, no way back. */
static float *scratch(uint64_t elems)
{
    float *p = malloc(elems * sizeof(float));

    if (!p) {
        abort();
    }
    return p;
}

static float ld_elem(const uint8_t *p, unsigned dtype)
{
    if (dtype == SWAI_DT_BF16) {
        return swai_float_bf16_to_f32((uint16_t)swai_ld_le(p, 2));
    }
    return bits_f32((uint32_t)swai_ld_le(p, 4));
}

static void st_elem(uint8_t *p, unsigned dtype, float f)
{
    if (dtype == SWAI_DT_BF16) {
        swai_st_le(p, 2, swai_float_f32_to_bf16(f));
    } else {
        swai_st_le(p, 4, f32_bits(f));
    }
}

/* rows x cols at p (pitch ld elements) into dense f32. */
static void load_mat(float *dst, const uint8_t *p, uint64_t rows,
                     uint64_t cols, uint64_t ld, unsigned dtype)
{
    unsigned es = swai_isa_compute_esize(dtype);
    uint64_t r, j;

    for (r = 0; r < rows; r++) {
        for (j = 0; j < cols; j++) {
            dst[r * cols + j] = ld_elem(p + (r * ld + j) * es, dtype);
        }
    }
}

float swai_arith_gelu(float x)
{
    return 0.5f * x * (1.0f + tanhf(0.7978845608028654f *
                                    (x + 0.044715f * x * x * x)));
}

static void gemm(const struct swai_insn_gemm *g, uint8_t *ldm)
{
    bool ta = g->flags & SWAI_GEMM_TRANS_A, tb = g->flags & SWAI_GEMM_TRANS_B;
    uint64_t ar = ta ? g->k : g->m, ac = ta ? g->m : g->k;
    uint64_t br = tb ? g->n : g->k, bc = tb ? g->k : g->n;
    uint64_t mn = (uint64_t)g->m * g->n, i, r, j;
    float alpha = bits_f32(g->alpha), beta = bits_f32(g->beta);
    float *a = scratch(ar * ac), *b = scratch(br * bc), *c = scratch(mn);

    load_mat(a, ldm + g->a, ar, ac, g->lda, g->dtype);
    load_mat(b, ldm + g->b, br, bc, g->ldb, g->dtype);
    if (beta != 0.0f) {
        load_mat(c, ldm + g->c, g->m, g->n, g->ldc, SWAI_DT_F32);
    } else {
        memset(c, 0, mn * sizeof(float));   /* old C, NaN too, ignored */
    }
    /* Every dimension fits an int: each operand fits the LDM. */
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                tb ? CblasTrans : CblasNoTrans, (int)g->m, (int)g->n,
                (int)g->k, alpha, a, (int)ac, b, (int)bc, beta, c,
                (int)g->n);
    if (g->epilogue == SWAI_EPI_GELU) {
        for (i = 0; i < mn; i++) {
            c[i] = swai_arith_gelu(c[i]);
        }
    }
    for (r = 0; r < g->m; r++) {
        for (j = 0; j < g->n; j++) {
            st_elem(ldm + g->c + (r * g->ldc + j) * 4, SWAI_DT_F32,
                    c[r * g->n + j]);
        }
    }
    free(a);
    free(b);
    free(c);
}

/*
 * One row: sequential f32 sums, mean, biased variance, then
 * y = ((x - mean) * rstd) * gamma + beta.  x is read in full first, so y
 * may be x.
 */
static void layernorm(const struct swai_insn_layernorm *l, uint8_t *ldm)
{
    unsigned es = swai_isa_compute_esize(l->dtype);
    float eps = bits_f32(l->eps), n = (float)l->cols;
    float *x = scratch(l->cols), *gb = scratch(2ull * l->cols);
    uint64_t r, j;

    load_mat(gb, ldm + l->gamma, 1, l->cols, l->cols, SWAI_DT_F32);
    load_mat(gb + l->cols, ldm + l->beta, 1, l->cols, l->cols, SWAI_DT_F32);
    for (r = 0; r < l->rows; r++) {
        float sum = 0.0f, sq = 0.0f, mean, var, rstd;

        load_mat(x, ldm + l->x + r * l->ldx * es, 1, l->cols, l->cols,
                 l->dtype);
        for (j = 0; j < l->cols; j++) {
            sum += x[j];
        }
        mean = sum / n;
        for (j = 0; j < l->cols; j++) {
            float d = x[j] - mean;

            sq += d * d;
        }
        var = sq / n;
        rstd = 1.0f / sqrtf(var + eps);
        for (j = 0; j < l->cols; j++) {
            float y = ((x[j] - mean) * rstd) * gb[j] + gb[l->cols + j];

            st_elem(ldm + l->y + (r * l->ldy + j) * es, l->dtype, y);
        }
    }
    free(x);
    free(gb);
}

static void dropout(const struct swai_insn_dropout *d, uint8_t *ldm)
{
    unsigned es = swai_isa_compute_esize(d->dtype);
    float keep = bits_f32(d->keep), scale = 1.0f / keep;
    uint32_t key[2] = { (uint32_t)d->seed, (uint32_t)(d->seed >> 32) };
    uint32_t w[4];
    uint64_t i;

    for (i = 0; i < d->n; i++) {
        uint64_t c = d->offset + i;     /* wraps modulo 2^64 */
        float u, x;

        /* One Philox block serves four consecutive counters. */
        if (i == 0 || c % 4 == 0) {
            uint32_t ctr[4] = { (uint32_t)(c / 4), (uint32_t)(c / 4 >> 32),
                                0, 0 };

            swai_philox4x32_10(ctr, key, w);
        }
        u = (float)(w[c % 4] >> 8) * 0x1p-24f;
        x = ld_elem(ldm + d->x + i * es, d->dtype);

        st_elem(ldm + d->y + i * es, d->dtype, u < keep ? x * scale : 0.0f);
    }
}

static void cvt(const struct swai_insn *v, uint8_t *ldm)
{
    unsigned si = swai_isa_compute_esize(v->dtype);
    unsigned so = swai_isa_compute_esize(v->rop);
    uint64_t i;

    if (v->dtype == v->rop) {
        memmove(ldm + v->dst, ldm + v->src, v->len * si);  /* bits kept */
        return;
    }
    for (i = 0; i < v->len; i++) {
        st_elem(ldm + v->dst + i * so, v->rop,
                ld_elem(ldm + v->src + i * si, v->dtype));
    }
}

void swai_arith_compute(const struct swai_cop *c, uint8_t *ldm)
{
    switch (c->u.op) {
    case SWAI_OP_GEMM:
        gemm(&c->u.gemm, ldm);
        break;
    case SWAI_OP_LAYERNORM:
        layernorm(&c->u.ln, ldm);
        break;
    case SWAI_OP_DROPOUT:
        dropout(&c->u.drop, ldm);
        break;
    default:
        cvt(&c->u.cvt, ldm);
        break;
    }
}

const struct swai_engine_arith swai_arith = {
    .reduce = swai_reduce,
    .div = swai_div,
    .compute = swai_arith_compute,
};
