/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-compute-test.c - host unit test of the compute instructions (no
 * QEMU): GEMM (transposes, pitches, alpha, beta, GELU, bf16) against a
 * double-precision reference within the stated tolerance; LAYERNORM,
 * DROPOUT and CVT bit for bit against straightforward references written
 * from datasheet §13.7; the Philox known answers; every validation error;
 * the modeled cost of each instruction (§14).
 */
#pragma GCC optimize("fp-contract=off")

#include <math.h>

#include "swai-arith.h"
#include "swai-philox.h"

#include "compute-harness.h"
#include "splitmix64.h"
#include "tap.h"

#define H_A     (VA_HOST + 0x000000)    /* staging areas in host memory */
#define H_B     (VA_HOST + 0x080000)
#define H_C     (VA_HOST + 0x100000)
#define H_OUT   (VA_HOST + 0x180000)

static uint64_t rng = 42;

/* Uniform in [-1, 1). */
static float rnd(void)
{
    return (float)((double)(splitmix64(&rng) >> 11) * 0x1p-52 - 1.0);
}

static float b2f(uint16_t h)
{
    uint32_t b = (uint32_t)h << 16;
    float f;

    memcpy(&f, &b, 4);
    return f;
}

static uint32_t fbits(float f)
{
    uint32_t b;

    memcpy(&b, &f, 4);
    return b;
}

static float bitsf(uint32_t b)
{
    float f;

    memcpy(&f, &b, 4);
    return f;
}

/*
 * f32 -> bf16 by comparing the two neighbours in double (not the bit
 * trick the card uses): nearest, ties to the even one; NaN quiet.
 */
static uint16_t ref_bf16(float f)
{
    uint32_t b = fbits(f), lo = b & 0xffff0000u, hi = lo + 0x10000u;
    double dl, dh;

    if (isnan(f)) {
        return (uint16_t)(b >> 16) | 0x40;
    }
    if (isinf(f)) {
        return (uint16_t)(b >> 16);
    }
    /* hi: the next bf16 away from zero, infinity past the largest. */
    dl = fabs((double)f - (double)bitsf(lo));
    if ((hi & 0x7fffffffu) >= 0x7f800000u) {
        /* Rounds to infinity from half an ulp (2^120) past the largest. */
        dh = ldexp(1.0, 120) - dl;
    } else {
        dh = fabs((double)f - (double)bitsf(hi));
    }
    if (dl < dh || (dl == dh && !((lo >> 16) & 1))) {
        return (uint16_t)(lo >> 16);
    }
    return (uint16_t)(hi >> 16);
}

/* Elements of type dt (F32, BF16) stored at va from floats. */
static void put_elems(uint64_t va, const float *v, uint64_t n, unsigned dt)
{
    uint64_t i;

    for (i = 0; i < n; i++) {
        if (dt == SWAI_DT_BF16) {
            uint16_t h = ref_bf16(v[i]);

            poke(va + 2 * i, &h, 2);
        } else {
            poke(va + 4 * i, &v[i], 4);
        }
    }
}

static float get_elem(uint64_t va, uint64_t i, unsigned dt)
{
    uint16_t h;
    float f;

    if (dt == SWAI_DT_BF16) {
        peek(va + 2 * i, &h, 2);
        return b2f(h);
    }
    peek(va + 4 * i, &f, 4);
    return f;
}

static unsigned es_of(unsigned dt)
{
    return dt == SWAI_DT_BF16 ? 2 : 4;
}

/* --- Philox --- */

static void test_philox_kat(void)
{
    /* Random123 known answers for philox4x32_10. */
    static const struct {
        uint32_t ctr[4], key[2], out[4];
    } kat[] = {
        { { 0, 0, 0, 0 }, { 0, 0 },
          { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } },
        { { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff },
          { 0xffffffff, 0xffffffff },
          { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd } },
        { { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 },
          { 0xa4093822, 0x299f31d0 },
          { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } },
    };
    uint32_t out[4], w[4];
    unsigned i, k;

    for (i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
        swai_philox4x32_10(kat[i].ctr, kat[i].key, out);
        for (k = 0; k < 4; k++) {
            CHECK_EQ(out[k], kat[i].out[k]);
        }
    }
    /* u(c): word c % 4 of counter c / 4, top 24 bits. */
    {
        uint32_t ctr[4] = { 0, 0, 0, 0 };
        uint32_t key[2] = { 0x89abcdefu, 0x01234567u };
        uint64_t c = ((uint64_t)5 << 34) + 0x12345679u;

        ctr[0] = (uint32_t)(c / 4);
        ctr[1] = (uint32_t)((c / 4) >> 32);
        swai_philox4x32_10(ctr, key, w);
        CHECK(swai_philox_uniform(0x0123456789abcdefull, c) ==
              (float)(w[c % 4] >> 8) / 16777216.0f);
    }
}

/* --- GEMM --- */

struct gcase {
    uint32_t m, n, k;
    int ta, tb;
    float alpha, beta;
    unsigned epi, dt;
    uint32_t pad;               /* extra elements in each pitch */
};

static double gelu_d(double x)
{
    return 0.5 * x * (1.0 + tanh(0.7978845608028654 *
                                 (x + 0.044715 * x * x * x)));
}

static int gemm_case(const struct gcase *g)
{
    uint32_t ar = g->ta ? g->k : g->m, ac = g->ta ? g->m : g->k;
    uint32_t br = g->tb ? g->n : g->k, bc = g->tb ? g->k : g->n;
    uint32_t lda = ac + g->pad, ldb = bc + g->pad, ldc = g->n + g->pad;
    unsigned es = es_of(g->dt);
    uint64_t la = 0, lb = 0x20000, lc = 0x40000;
    uint64_t na = (uint64_t)ar * lda, nb = (uint64_t)br * ldb;
    uint64_t nc = (uint64_t)g->m * ldc, i, j, kk;
    float *a = malloc(na * 4), *b = malloc(nb * 4), *c = malloc(nc * 4);
    struct swai_insn_gemm in = {
        .op = SWAI_OP_GEMM, .dtype = g->dt, .epilogue = g->epi,
        .flags = (g->ta ? SWAI_GEMM_TRANS_A : 0) |
                 (g->tb ? SWAI_GEMM_TRANS_B : 0),
        .m = g->m, .n = g->n, .k = g->k, .a = la, .lda = lda, .b = lb,
        .ldb = ldb, .c = lc, .ldc = ldc, .alpha = fbits(g->alpha),
        .beta = fbits(g->beta),
    };
    struct compl r;
    int bad = 0;

    for (i = 0; i < na; i++) {
        a[i] = rnd();
    }
    for (i = 0; i < nb; i++) {
        b[i] = rnd() * 2.0f;
    }
    for (i = 0; i < nc; i++) {
        /* beta 0: C's old contents, NaN included, are ignored. */
        c[i] = g->beta == 0.0f ? NAN : rnd();
    }
    put_elems(H_A, a, na, g->dt);
    put_elems(H_B, b, nb, g->dt);
    put_elems(H_C, c, nc, SWAI_DT_F32);
    r = GO(GET(la, H_A, na * es), GET(lb, H_B, nb * es),
           GET(lc, H_C, nc * 4), OV(in), PUT(H_OUT, lc, nc * 4), END);
    if (r.status) {
        printf("# GEMM status %u\n", r.status);
        return 1;
    }
    for (i = 0; i < g->m; i++) {
        for (j = 0; j < ldc; j++) {
            float got = get_elem(H_OUT, i * ldc + j, SWAI_DT_F32);
            double s = 0, mag = 0, ref, tol;

            if (j >= g->n) {
                /* Outside the matrix, the pitch's padding is untouched. */
                bad |= fbits(got) != fbits(c[i * ldc + j]);
                continue;
            }
            for (kk = 0; kk < g->k; kk++) {
                double x = get_elem(H_A, g->ta ? kk * lda + i : i * lda + kk,
                                    g->dt);
                double y = get_elem(H_B, g->tb ? j * ldb + kk : kk * ldb + j,
                                    g->dt);

                s += x * y;
                mag += fabs(x * y);
            }
            ref = (double)g->alpha * s;
            mag *= fabs(g->alpha);
            if (g->beta != 0.0f) {
                ref += (double)g->beta * c[i * ldc + j];
                mag += fabs((double)g->beta * c[i * ldc + j]);
            }
            /* The stated tolerance (datasheet §13.7). */
            tol = 1e-5 * mag * sqrt((double)g->k) + 1e-6;
            if (g->epi == SWAI_EPI_GELU) {
                ref = gelu_d(ref);
                tol = tol * 1.2 + 1e-6 * fabs(ref);
            }
            if (!(fabs(got - ref) <= tol)) {
                if (!bad) {
                    printf("# GEMM %ux%ux%u [%" PRIu64 "][%" PRIu64
                           "] got %.9g want %.9g\n", g->m, g->n, g->k, i, j,
                           got, ref);
                }
                bad = 1;
            }
        }
    }
    free(a);
    free(b);
    free(c);
    return bad;
}

static void test_gemm(void)
{
    static const struct gcase cases[] = {
        { 1, 1, 1, 0, 0, 1.0f, 0.0f, SWAI_EPI_NONE, SWAI_DT_F32, 0 },
        { 17, 23, 31, 0, 0, 1.0f, 0.0f, SWAI_EPI_NONE, SWAI_DT_F32, 0 },
        { 17, 23, 31, 1, 0, 0.5f, 0.0f, SWAI_EPI_NONE, SWAI_DT_F32, 3 },
        { 17, 23, 31, 0, 1, -2.0f, 1.0f, SWAI_EPI_NONE, SWAI_DT_F32, 1 },
        { 17, 23, 31, 1, 1, 1.0f, -0.5f, SWAI_EPI_GELU, SWAI_DT_F32, 5 },
        { 64, 48, 96, 0, 0, 1.0f, 0.0f, SWAI_EPI_GELU, SWAI_DT_F32, 0 },
        { 33, 40, 65, 0, 0, 1.0f, 0.0f, SWAI_EPI_NONE, SWAI_DT_BF16, 0 },
        { 33, 40, 65, 1, 1, 1.5f, 2.0f, SWAI_EPI_GELU, SWAI_DT_BF16, 7 },
        { 8, 100, 3, 0, 1, 1.0f, 1.0f, SWAI_EPI_NONE, SWAI_DT_BF16, 2 },
    };
    unsigned i;

    card();
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (gemm_case(&cases[i])) {
            printf("# GEMM case %u failed\n", i);
            tap_failed = 1;
        }
    }
    CHECK(ldm_is_clear());
    card_free();
}

/* --- LAYERNORM --- */

static float ref_ln_elem(const float *x, uint32_t cols, float eps, uint32_t j,
                         const float *gamma, const float *beta)
{
    float sum = 0.0f, sq = 0.0f, mean, var, rstd;
    uint32_t t;

    for (t = 0; t < cols; t++) {
        sum += x[t];
    }
    mean = sum / (float)cols;
    for (t = 0; t < cols; t++) {
        sq += (x[t] - mean) * (x[t] - mean);
    }
    var = sq / (float)cols;
    rstd = 1.0f / sqrtf(var + eps);
    return ((x[j] - mean) * rstd) * gamma[j] + beta[j];
}

static int ln_case(uint32_t rows, uint32_t cols, unsigned dt, int inplace,
                   uint32_t padx, uint32_t pady, float eps)
{
    unsigned es = es_of(dt);
    uint32_t ldx = cols + padx, ldy = inplace ? ldx : cols + pady;
    uint64_t nx = (uint64_t)rows * ldx, ny = (uint64_t)rows * ldy, i, r, j;
    uint64_t lx = 0, lg = 0x30000, lb = 0x38000, ly = inplace ? 0 : 0x40000;
    float *x = malloc(nx * 4), *g = malloc(cols * 4), *b = malloc(cols * 4);
    float *row = malloc(cols * 4);
    struct swai_insn_layernorm in = {
        .op = SWAI_OP_LAYERNORM, .dtype = dt, .rows = rows, .cols = cols,
        .eps = fbits(eps), .x = lx, .ldx = ldx, .y = ly, .ldy = ldy,
        .gamma = lg, .beta = lb,
    };
    struct compl c;
    int bad = 0;

    for (i = 0; i < nx; i++) {
        x[i] = rnd() * 3.0f + 0.25f;
    }
    for (i = 0; i < cols; i++) {
        g[i] = 1.0f + rnd() * 0.5f;
        b[i] = rnd() * 0.1f;
    }
    put_elems(H_A, x, nx, dt);
    put_elems(H_B, g, cols, SWAI_DT_F32);
    put_elems(H_C, b, cols, SWAI_DT_F32);
    c = GO(GET(lx, H_A, nx * es), GET(lg, H_B, cols * 4),
           GET(lb, H_C, cols * 4), OV(in), PUT(H_OUT, ly, ny * es), END);
    if (c.status) {
        printf("# LN status %u\n", c.status);
        return 1;
    }
    for (r = 0; r < rows; r++) {
        for (j = 0; j < cols; j++) {
            row[j] = get_elem(H_A, r * ldx + j, dt);
        }
        for (j = 0; j < cols; j++) {
            float want = ref_ln_elem(row, cols, eps, j, g, b);
            float got = get_elem(H_OUT, r * ldy + j, dt);

            if (dt == SWAI_DT_BF16) {
                want = b2f(ref_bf16(want));
            }
            if (fbits(got) != fbits(want)) {
                if (!bad) {
                    printf("# LN %ux%u row %" PRIu64 " col %" PRIu64
                           ": %a != %a\n", rows, cols, r, j, got, want);
                }
                bad = 1;
            }
        }
    }
    free(x);
    free(g);
    free(b);
    free(row);
    return bad;
}

static void test_layernorm(void)
{
    card();
    CHECK(!ln_case(1, 1, SWAI_DT_F32, 0, 0, 0, 1e-5f));
    CHECK(!ln_case(7, 129, SWAI_DT_F32, 0, 3, 5, 1e-5f));
    CHECK(!ln_case(7, 129, SWAI_DT_F32, 1, 3, 0, 0.0f));
    CHECK(!ln_case(16, 256, SWAI_DT_BF16, 0, 0, 8, 1e-6f));
    CHECK(!ln_case(5, 333, SWAI_DT_BF16, 1, 1, 0, 1e-3f));
    CHECK(ldm_is_clear());
    card_free();
}

/* --- DROPOUT --- */

static float ref_drop(float x, float keep, uint64_t seed, uint64_t c)
{
    uint64_t q = c / 4;
    uint32_t ctr[4] = { (uint32_t)q, (uint32_t)(q >> 32), 0, 0 };
    uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };
    uint32_t w[4];
    float u;

    swai_philox4x32_10(ctr, key, w);
    u = (float)(w[c % 4] >> 8) * 0x1p-24f;
    return u < keep ? x * (1.0f / keep) : 0.0f;
}

static void test_dropout(void)
{
    static const struct {
        uint32_t n;
        unsigned dt;
        float keep;
        uint64_t seed, offset;
        int split;
    } cases[] = {
        { 1, SWAI_DT_F32, 0.5f, 1, 0, 0 },
        { 1001, SWAI_DT_F32, 0.9f, 0x0123456789abcdefull, 7, 0 },
        { 1001, SWAI_DT_F32, 0.9f, 0x0123456789abcdefull, 7, 1 },
        { 2000, SWAI_DT_BF16, 0.3f, 99, (1ull << 40) + 3, 1 },
        { 500, SWAI_DT_F32, 1.0f, 5, UINT64_MAX - 100, 0 },  /* wraps */
    };
    float *x = malloc(4 * 2000);
    unsigned t;
    uint64_t i;

    card();
    for (t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
        unsigned es = es_of(cases[t].dt);
        uint32_t n = cases[t].n, h = cases[t].split ? n / 3 : n;
        struct swai_insn_dropout d1 = {
            .op = SWAI_OP_DROPOUT, .dtype = cases[t].dt, .n = h, .x = 0,
            .y = 0x10000, .keep = fbits(cases[t].keep),
            .seed = cases[t].seed, .offset = cases[t].offset,
        }, d2 = d1;
        struct compl c;
        int bad = 0;

        /* The second half in place, from its own offset. */
        d2.n = n - h;
        d2.x = d2.y = h * es;
        d2.offset = cases[t].offset + h;
        for (i = 0; i < n; i++) {
            x[i] = rnd() * 10.0f;
        }
        put_elems(H_A, x, n, cases[t].dt);
        if (cases[t].split) {
            c = GO(GET(0, H_A, n * es), OV(d1), OV(d2),
                   PUT(H_OUT, 0x10000, h * es),
                   PUT(H_OUT + h * es, h * es, (n - h) * es), END);
        } else {
            c = GO(GET(0, H_A, n * es), OV(d1), PUT(H_OUT, 0x10000, n * es),
                   END);
        }
        CHECK_EQ(c.status, 0);
        for (i = 0; i < n; i++) {
            float want = ref_drop(get_elem(H_A, i, cases[t].dt),
                                  cases[t].keep, cases[t].seed,
                                  cases[t].offset + i);

            if (cases[t].dt == SWAI_DT_BF16) {
                want = b2f(ref_bf16(want));
            }
            bad |= fbits(get_elem(H_OUT, i, cases[t].dt)) != fbits(want);
        }
        if (bad) {
            printf("# DROPOUT case %u differs from the reference\n", t);
            tap_failed = 1;
        }
    }
    /* About keep of 20000 elements survive (0.5: 5 sigma is 354). */
    {
        struct swai_insn_dropout d = {
            .op = SWAI_OP_DROPOUT, .dtype = SWAI_DT_F32, .n = 20000,
            .x = 0, .y = 0, .keep = fbits(0.5f), .seed = 7,
        };
        unsigned kept = 0;

        for (i = 0; i < 20000; i++) {
            float one = 1.0f;

            poke(H_A + 4 * i, &one, 4);
        }
        CHECK_EQ(GO(GET(0, H_A, 80000), OV(d), PUT(H_OUT, 0, 80000),
                    END).status, 0);
        for (i = 0; i < 20000; i++) {
            float v = get_elem(H_OUT, i, SWAI_DT_F32);

            CHECK(v == 0.0f || v == 2.0f);
            kept += v == 2.0f;
        }
        CHECK(kept > 10000 - 354 && kept < 10000 + 354);
    }
    free(x);
    CHECK(ldm_is_clear());
    card_free();
}

/* --- CVT --- */

static void test_cvt(void)
{
    static const uint32_t special[] = {
        0x00000000, 0x80000000, 0x3f800000, 0x3f808000 /* tie, even */,
        0x3f818000 /* tie, odd: up */, 0x3f808001, 0x3f807fff, 0x7f7fffff,
        0xff7fffff, 0x7f7f7fff, 0x7f7f8000, 0x7f800000, 0xff800000,
        0x7f800001 /* sNaN */, 0xffc00001, 0x00000001, 0x807fffff,
        0x00008000, 0x00018000,
    };
    uint32_t n = 4000, i;
    uint32_t *v = malloc(4 * n);
    uint16_t *h = malloc(2 * n), hb;
    struct compl c;

    card();
    for (i = 0; i < n; i++) {
        v[i] = i < sizeof(special) / 4 ? special[i]
                                       : (uint32_t)splitmix64(&rng);
    }
    poke(H_A, v, 4 * n);
    /* f32 -> bf16, then back to f32 in place of nothing: exact widening. */
    c = GO(GET(0, H_A, 4 * n),
           INSN(.op = SWAI_OP_CVT, .dtype = SWAI_DT_F32, .rop = SWAI_DT_BF16,
                .len = n, .dst = 0x10000, .src = 0),
           INSN(.op = SWAI_OP_CVT, .dtype = SWAI_DT_BF16, .rop = SWAI_DT_F32,
                .len = n, .dst = 0x20000, .src = 0x10000),
           PUT(H_OUT, 0x10000, 2 * n), PUT(H_B, 0x20000, 4 * n), END);
    CHECK_EQ(c.status, 0);
    peek(H_OUT, h, 2 * n);
    for (i = 0; i < n; i++) {
        uint32_t w;

        if (h[i] != ref_bf16(bitsf(v[i]))) {
            printf("# CVT %08x -> %04x, want %04x\n", v[i], h[i],
                   ref_bf16(bitsf(v[i])));
            tap_failed = 1;
            break;
        }
        peek(H_B + 4 * i, &w, 4);
        CHECK_EQ(w, (uint32_t)h[i] << 16);
    }
    /* Same type: the bits move untouched (a signaling NaN too). */
    hb = 0x7f81;
    poke(H_A, &hb, 2);
    c = GO(GET(0, H_A, 2),
           INSN(.op = SWAI_OP_CVT, .dtype = SWAI_DT_BF16, .rop = SWAI_DT_BF16,
                .len = 1, .dst = 2, .src = 0),
           INSN(.op = SWAI_OP_CVT, .dtype = SWAI_DT_BF16, .rop = SWAI_DT_BF16,
                .len = 1, .dst = 2, .src = 2),
           PUT(H_OUT, 2, 2), END);
    CHECK_EQ(c.status, 0);
    peek(H_OUT, &hb, 2);
    CHECK_EQ(hb, 0x7f81);
    free(v);
    free(h);
    CHECK(ldm_is_clear());
    card_free();
}

/* --- validation --- */

static void expect(struct swai_insn in, uint32_t status)
{
    struct compl c = GO(in, END);

    if (c.status != status || (status && c.error_pc != 0)) {
        printf("# op 0x%02x: status %u pc %u, expected %u\n", in.op,
               c.status, c.error_pc, status);
        tap_failed = 1;
    }
    /* The encoding check agrees with the card (beyond it: operands). */
    if (status == SWAI_JOB_ERR_ILLEGAL && swai_isa_validate(&in) == 0) {
        uint8_t raw[SWAI_INSN_SIZE];
        struct swai_cop cop;

        memcpy(raw, &in, sizeof(raw));
        CHECK_EQ(swai_isa_compute_prepare(raw, swai_card_ldm_bytes(&S), &cop),
                 SWAI_JOB_ERR_ILLEGAL);
    }
}

static void test_validation(void)
{
    const uint32_t ldm = 512 * 1024;   /* card(): 8 CPEs x 64 KiB */
    struct swai_insn_gemm g0 = {
        .op = SWAI_OP_GEMM, .m = 4, .n = 4, .k = 4, .a = 0, .lda = 4,
        .b = 64, .ldb = 4, .c = 128, .ldc = 4, .alpha = fbits(1.0f),
    }, g;
    struct swai_insn_layernorm l0 = {
        .op = SWAI_OP_LAYERNORM, .rows = 2, .cols = 8, .x = 0, .ldx = 8,
        .y = 256, .ldy = 8, .gamma = 512, .beta = 544, .eps = 0,
    }, l;
    struct swai_insn_dropout d0 = {
        .op = SWAI_OP_DROPOUT, .n = 16, .x = 0, .y = 64,
        .keep = fbits(0.5f),
    }, d;
    struct swai_insn v0 = {
        .op = SWAI_OP_CVT, .dtype = SWAI_DT_F32, .rop = SWAI_DT_BF16,
        .len = 8, .src = 0, .dst = 64,
    }, v;

    card();
    /* Start from a valid instruction, change one thing, expect st. */
#define T(var, init, mod, st) \
    do { var = init; mod; expect(OV(var), st); } while (0)
    T(g, g0, (void)0, SWAI_JOB_OK);
    T(g, g0, g.dtype = SWAI_DT_F16, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.dtype = SWAI_DT_I32, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.flags = 4, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.epilogue = SWAI_EPI_MAX + 1, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.m = 0, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.n = 0, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.k = 0, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.lda = 3, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, (g.flags = SWAI_GEMM_TRANS_A, g.m = 5, g.lda = 4),
      SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.ldb = 3, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, (g.flags = SWAI_GEMM_TRANS_B, g.k = 5, g.ldb = 4, g.lda = 5),
      SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.ldc = 3, SWAI_JOB_ERR_ILLEGAL);
    T(g, g0, g.a = 2, SWAI_JOB_ERR_ALIGN);
    T(g, g0, (g.dtype = SWAI_DT_BF16, g.b = 65), SWAI_JOB_ERR_ALIGN);
    T(g, g0, (g.dtype = SWAI_DT_BF16, g.b = 66), SWAI_JOB_OK);
    T(g, g0, g.c = 130, SWAI_JOB_ERR_ALIGN);
    T(g, g0, g.c = ldm - 60, SWAI_JOB_ERR_LDM);
    T(g, g0, g.c = ldm - 64, SWAI_JOB_OK);
    T(g, g0, g.lda = 0x40000000, SWAI_JOB_ERR_LDM);
    T(g, g0, g.c = 48, SWAI_JOB_ERR_ILLEGAL);          /* C over A */
    T(g, g0, g.c = 64, SWAI_JOB_ERR_ILLEGAL);          /* C is B */
    T(g, g0, (g.b = 0), SWAI_JOB_OK);                  /* A is B: fine */

    T(l, l0, (void)0, SWAI_JOB_OK);
    T(l, l0, l.flags = 1, SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.rsvd0 = 1, SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.rsvd1 = 1ull << 63, SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.dtype = SWAI_DT_F64, SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.eps = fbits(-1e-5f), SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.eps = fbits(NAN), SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.rows = 0, SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.cols = 0, SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.ldx = 7, SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.ldy = 7, SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.gamma = 514, SWAI_JOB_ERR_ALIGN);
    T(l, l0, l.y = 258, SWAI_JOB_ERR_ALIGN);
    T(l, l0, l.beta = ldm - 16, SWAI_JOB_ERR_LDM);
    T(l, l0, l.y = 32, SWAI_JOB_ERR_ILLEGAL);          /* y over x */
    T(l, l0, l.y = 0, SWAI_JOB_OK);                    /* in place */
    T(l, l0, (l.y = 0, l.ldy = 9), SWAI_JOB_ERR_ILLEGAL);
    T(l, l0, l.y = 512, SWAI_JOB_ERR_ILLEGAL);         /* y over gamma */

    T(d, d0, (void)0, SWAI_JOB_OK);
    T(d, d0, d.keep = fbits(0.0f), SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.keep = fbits(1.5f), SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.keep = fbits(NAN), SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.keep = fbits(1.0f), SWAI_JOB_OK);
    T(d, d0, d.n = 0, SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.rsvd0 = 1, SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.rsvd1 = 1, SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.rsvd2 = 1, SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.flags = 1, SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.dtype = SWAI_DT_U8, SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.x = 1, SWAI_JOB_ERR_ALIGN);
    T(d, d0, d.y = ldm - 32, SWAI_JOB_ERR_LDM);
    T(d, d0, d.y = 4, SWAI_JOB_ERR_ILLEGAL);
    T(d, d0, d.y = 0, SWAI_JOB_OK);

    T(v, v0, (void)0, SWAI_JOB_OK);
    T(v, v0, v.dtype = SWAI_DT_F16, SWAI_JOB_ERR_ILLEGAL);
    T(v, v0, v.rop = SWAI_DT_F64, SWAI_JOB_ERR_ILLEGAL);
    T(v, v0, v.len = 0, SWAI_JOB_ERR_ILLEGAL);
    T(v, v0, v.rows = 1, SWAI_JOB_ERR_ILLEGAL);
    T(v, v0, v.flags = 1, SWAI_JOB_ERR_ILLEGAL);
    T(v, v0, v.src_stride = 4, SWAI_JOB_ERR_ILLEGAL);
    T(v, v0, v.dst = 65, SWAI_JOB_ERR_ALIGN);
    T(v, v0, v.src = 2, SWAI_JOB_ERR_ALIGN);
    T(v, v0, v.dst = ldm - 8, SWAI_JOB_ERR_LDM);
    T(v, v0, v.dst = 1ull << 62, SWAI_JOB_ERR_LDM);
    T(v, v0, v.dst = 16, SWAI_JOB_ERR_ILLEGAL);        /* overlap */
    T(v, v0, v.dst = 0, SWAI_JOB_ERR_ILLEGAL);         /* 4 -> 2 bytes */
    T(v, v0, (v.rop = SWAI_DT_F32, v.dst = 0), SWAI_JOB_OK);
#undef T
    expect(INSN(.op = SWAI_OP_DRAIN), SWAI_JOB_OK);
    expect(INSN(.op = SWAI_OP_DRAIN, .flags = 1), SWAI_JOB_ERR_ILLEGAL);
    expect(INSN(.op = SWAI_OP_DRAIN, .len = 1), SWAI_JOB_ERR_ILLEGAL);
    expect(INSN(.op = SWAI_OP_DMA_PUT, .flags = 2, .len = 8, .dst = H_A),
           SWAI_JOB_ERR_ILLEGAL);
    expect(INSN(.op = SWAI_OP_MAX + 1), SWAI_JOB_ERR_ILLEGAL);
    CHECK(ldm_is_clear());
    card_free();
}

/* --- cost (datasheet §14): max(FLOPs at the peak, LDM bytes) --- */

static void test_costs(void)
{
    struct swai_insn_gemm g = {
        .op = SWAI_OP_GEMM, .m = 64, .n = 64, .k = 64, .a = 0, .lda = 64,
        .b = 0x10000, .ldb = 64, .c = 0x20000, .ldc = 64,
        .alpha = fbits(1.0f),
    };
    struct swai_insn_layernorm l = {
        .op = SWAI_OP_LAYERNORM, .rows = 16, .cols = 256, .x = 0,
        .ldx = 256, .y = 0x10000, .ldy = 256, .gamma = 0x20000,
        .beta = 0x21000, .eps = fbits(1e-5f),
    };
    struct swai_insn_dropout d = {
        .op = SWAI_OP_DROPOUT, .n = 1000, .x = 0, .y = 0,
        .keep = fbits(0.5f),
    };
    struct swai_timing_props t;

    card();
    /* 2 * 64^3 FLOPs at 2048 GFLOP/s: 256 ns (LDM: 49152 B, 49 ns). */
    CHECK_EQ(dur(GO(OV(g), END)), 256);
    g.epilogue = SWAI_EPI_GELU;     /* + 8 FLOPs per element of C */
    CHECK_EQ(dur(GO(OV(g), END)), 272);
    g.epilogue = SWAI_EPI_NONE;
    g.dtype = SWAI_DT_BF16;         /* twice the rate */
    CHECK_EQ(dur(GO(OV(g), END)), 128);
    /* LN: 8 FLOPs/element is 16 ns; 34816 LDM bytes at 1 TB/s win. */
    CHECK_EQ(dur(GO(OV(l), END)), 35);
    /* DROPOUT: 4000 FLOPs (2 ns) against 8000 bytes (8 ns). */
    CHECK_EQ(dur(GO(OV(d), END)), 8);
    /* CVT: source and destination bytes. */
    CHECK_EQ(dur(GO(INSN(.op = SWAI_OP_CVT, .dtype = SWAI_DT_F32,
                         .rop = SWAI_DT_BF16, .len = 10000, .dst = 0x10000),
                    END)), 60);
    /* The rates are the card's properties. */
    swai_timing_props_init(&t);
    t.f32_gflops = 1024;
    t.bf16_gflops = 1000;
    card_t(32, 16, 8, 64, &t);
    g.dtype = SWAI_DT_F32;
    CHECK_EQ(dur(GO(OV(g), END)), 512);
    g.dtype = SWAI_DT_BF16;
    CHECK_EQ(dur(GO(OV(g), END)), 525);   /* 524288 FLOPs, rounded up */
    card_free();
}

static const struct tap_test tests[] = {
    { "Philox4x32-10 known answers, dropout uniforms", test_philox_kat },
    { "GEMM: shapes, transposes, pitches, alpha/beta, GELU, bf16", test_gemm },
    { "LAYERNORM bit-exact, f32/bf16, in place, pitches", test_layernorm },
    { "DROPOUT bit-exact, split invariance, keep rate", test_dropout },
    { "CVT f32 <-> bf16 round to nearest even, NaN, copies", test_cvt },
    { "compute/DRAIN/async validation: ILLEGAL, ALIGN, LDM", test_validation },
    { "compute costs from FLOPs and LDM bytes", test_costs },
};

TAP_MAIN(tests)
