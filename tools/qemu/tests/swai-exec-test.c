/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-exec-test.c - host unit test of the core-group instructions (no
 * QEMU): DMA_GET, DMA_PUT and COPY on every tier (Local, Global, host) with
 * odd sizes, alignments and strided rows against a host reference; REDUCE
 * for every dtype and op and DIV for every dtype against an independent
 * reference, including the f16/bf16 conversions; SIGNAL, FENCE and
 * TIMESTAMP (datasheet §13).
 */
#include <math.h>

#include "swai-float.h"

#include "cp-harness.h"
#include "tap.h"

#define CG      1               /* not 0: Local VAs must use the right CG */
#define SRC_OFF 0x10000ull
#define DST_OFF 0x100000ull

static const char *const tier_name[] = { "Local", "Global", "host" };

static uint64_t tier_va(unsigned tier)
{
    return tier == 0 ? VA_LOC(CG) : tier == 1 ? VA_GLOB : VA_HOST;
}

/* rows, len, dst_stride, src_stride (0: len), dst and src misalignment. */
static const struct geo {
    uint32_t rows;
    uint64_t len, ds, ss, doff, soff;
} geos[] = {
    { 1, 1, 0, 0, 0, 0 },
    { 1, 4097, 0, 0, 3, 5 },            /* crosses pages, odd */
    { 1, 200001, 0, 0, 4095, 1 },       /* several 64 KiB chunks */
    { 7, 333, 1000, 517, 11, 7 },       /* strided both sides */
    { 5, 100, 0, 0, 1, 2 },             /* rows, contiguous */
    { 3, 70000, 70001, 70003, 1, 2 },   /* rows longer than a chunk */
    { 0, 13, 0, 0, 8, 9 },              /* rows 0 means 1 */
    { 4, 48, 0, 96, 0, 0 },             /* gather */
    { 9, 0, 0, 0, 0, 0 },               /* nothing to move */
};
#define NGEOS (sizeof(geos) / sizeof(geos[0]))

static uint64_t stride(uint64_t s, uint64_t len)
{
    return s ? s : len;
}

static uint64_t ext(const struct geo *g, uint64_t s)
{
    uint64_t rows = g->rows ? g->rows : 1;

    return g->len ? (rows - 1) * stride(s, g->len) + g->len : 0;
}

/*
 * The reference: dst image after moving the rows of g from src image
 * 'src' (laid out with src stride) into 'dst' (dst stride).
 */
static void ref_rows(const struct geo *g, uint8_t *dst, const uint8_t *src)
{
    uint64_t r, rows = g->rows ? g->rows : 1;

    for (r = 0; r < rows; r++) {
        memmove(dst + r * stride(g->ds, g->len),
                src + r * stride(g->ss, g->len), g->len);
    }
}

static void test_copy_tiers(void)
{
    unsigned st, dt, gi;

    card();
    for (st = 0; st < 3; st++) {
        for (dt = 0; dt < 3; dt++) {
            for (gi = 0; gi < NGEOS; gi++) {
                const struct geo *g = &geos[gi];
                uint64_t src = tier_va(st) + SRC_OFF + g->soff;
                uint64_t dst = tier_va(dt) + DST_OFF + g->doff;
                uint64_t se = ext(g, g->ss), de = ext(g, g->ds);
                uint8_t *sb = malloc(se + 1), *want = malloc(de + 1);
                uint8_t *got = malloc(de + 1);
                struct swai_insn p[2] = {
                    INSN(.op = SWAI_OP_COPY, .rows = g->rows, .len = g->len,
                         .dst = dst, .src = src, .dst_stride = g->ds,
                         .src_stride = g->ss),
                    END,
                };
                unsigned j;
                struct compl c;

                fill(src, se, gi + 3 * st);
                fill(dst, de, 100 + gi);
                peek(src, sb, se);
                peek(dst, want, de);
                ref_rows(g, want, sb);
                j = submit_nb(CG, p, 2, 0, 0);
                run();
                c = compl(CG, j);
                peek(dst, got, de);
                if (c.status || memcmp(got, want, de) ||
                    c.bytes != (g->rows ? g->rows : 1) * g->len ||
                    c.insns != 2) {
                    printf("# COPY %s -> %s geometry %u: status %u bytes %"
                           PRIu64 "\n", tier_name[st], tier_name[dt], gi,
                           c.status, c.bytes);
                    tap_failed = 1;
                }
                free(sb);
                free(want);
                free(got);
            }
        }
    }
    CHECK(ldm_is_clear());      /* COPY streams, but leaves no trace */
    card_free();
}

/* DMA_GET with geometry g into LDM, then the LDM back out contiguously. */
static void test_dma_get_tiers(void)
{
    unsigned t, gi;

    card();
    for (t = 0; t < 3; t++) {
        for (gi = 0; gi < NGEOS; gi++) {
            const struct geo *g = &geos[gi];
            uint64_t src = tier_va(t) + SRC_OFF + g->soff;
            uint64_t out = VA_HOST + DST_OFF;
            uint64_t se = ext(g, g->ss), de = ext(g, g->ds);
            uint64_t lo = 64 + g->doff;     /* LDM offset */
            uint8_t *sb = malloc(se + 1), *want = calloc(1, de + 1);
            uint8_t *got = malloc(de + 1);
            struct swai_insn p[3] = {
                INSN(.op = SWAI_OP_DMA_GET, .rows = g->rows, .len = g->len,
                     .dst = lo, .src = src, .dst_stride = g->ds,
                     .src_stride = g->ss),
                INSN(.op = SWAI_OP_DMA_PUT, .len = de, .dst = out, .src = lo),
                END,
            };
            unsigned j;

            fill(src, se, 7 * gi + t);
            peek(src, sb, se);
            ref_rows(g, want, sb);      /* LDM starts out zero */
            j = submit_nb(CG, p, 3, 0, 0);
            run();
            peek(out, got, de);
            if (compl(CG, j).status || memcmp(got, want, de)) {
                printf("# DMA_GET from %s, geometry %u\n", tier_name[t], gi);
                tap_failed = 1;
            }
            free(sb);
            free(want);
            free(got);
        }
    }
    CHECK(ldm_is_clear());
    card_free();
}

/* A contiguous DMA_GET into LDM, then DMA_PUT with geometry g. */
static void test_dma_put_tiers(void)
{
    unsigned t, gi;

    card();
    for (t = 0; t < 3; t++) {
        for (gi = 0; gi < NGEOS; gi++) {
            const struct geo *g = &geos[gi];
            uint64_t in = VA_HOST + SRC_OFF;
            uint64_t dst = tier_va(t) + DST_OFF + g->doff;
            uint64_t se = ext(g, g->ss), de = ext(g, g->ds);
            uint64_t lo = 128 + g->soff;
            uint8_t *sb = malloc(se + 1), *want = malloc(de + 1);
            uint8_t *got = malloc(de + 1);
            struct swai_insn p[3] = {
                INSN(.op = SWAI_OP_DMA_GET, .len = se, .dst = lo, .src = in),
                INSN(.op = SWAI_OP_DMA_PUT, .rows = g->rows, .len = g->len,
                     .dst = dst, .src = lo, .dst_stride = g->ds,
                     .src_stride = g->ss),
                END,
            };
            unsigned j;

            fill(in, se, 5 * gi + t);
            fill(dst, de, 50 + gi);
            peek(in, sb, se);
            peek(dst, want, de);
            ref_rows(g, want, sb);
            j = submit_nb(CG, p, 3, 0, 0);
            run();
            peek(dst, got, de);
            if (compl(CG, j).status || memcmp(got, want, de)) {
                printf("# DMA_PUT to %s, geometry %u\n", tier_name[t], gi);
                tap_failed = 1;
            }
            free(sb);
            free(want);
            free(got);
        }
    }
    CHECK(ldm_is_clear());
    card_free();
}

/* LDM does not survive a job: the next job reads zeros. */
static void test_ldm_cleared(void)
{
    uint8_t got[256], zero[256] = { 0 };
    unsigned j;

    card();
    fill(VA_HOST, 256, 1);
    SUBMIT(0, INSN(.op = SWAI_OP_DMA_GET, .len = 256, .dst = 1000,
                   .src = VA_HOST), END);
    run();
    CHECK(ldm_is_clear());
    fill(VA_HOST + 4096, 256, 2);
    j = SUBMIT(0, INSN(.op = SWAI_OP_DMA_PUT, .len = 256,
                       .dst = VA_HOST + 4096, .src = 1000), END);
    run();
    CHECK_JOB(0, j, SWAI_JOB_OK);
    peek(VA_HOST + 4096, got, 256);
    CHECK(!memcmp(got, zero, 256));
    card_free();
}

/* --- REDUCE --- */

static int is_nan_bits(unsigned dt, uint64_t v)
{
    switch (dt) {
    case SWAI_DT_F16:
        return (v & 0x7c00) == 0x7c00 && (v & 0x3ff);
    case SWAI_DT_BF16:
        return (v & 0x7f80) == 0x7f80 && (v & 0x7f);
    case SWAI_DT_F32:
        return (v & 0x7f800000) == 0x7f800000 && (v & 0x7fffff);
    case SWAI_DT_F64:
        return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
               (v & 0xfffffffffffffull);
    default:
        return 0;
    }
}

/* Round a double to bf16 (nearest even) another way: by the value. */
static uint16_t ref_bf16(double x)
{
    float f;
    uint32_t b;
    int e;

    if (isnan(x)) {
        return 0x7fc0;
    }
    if (isinf(x) || x == 0) {
        f = (float)x;
        memcpy(&b, &f, 4);
        return b >> 16;
    }
    frexp(x, &e);
    e = e < -125 ? -125 : e;                /* subnormal quantum 2^-133 */
    x = ldexp(rint(ldexp(x, 8 - e)), e - 8);
    if (fabs(x) >= 0x1p128) {
        x = copysign(INFINITY, x);
    }
    f = (float)x;
    memcpy(&b, &f, 4);
    return b >> 16;
}

static double bf16_val(uint16_t h)
{
    uint32_t b = (uint32_t)h << 16;
    float f;

    memcpy(&f, &b, 4);
    return f;
}

/* maximumNumber/minimumNumber on doubles, written out directly. */
static double ref_maxmin(double a, double b, int max)
{
    if (isnan(a)) {
        return b;
    }
    if (isnan(b)) {
        return a;
    }
    if (a == 0 && b == 0) {
        return max ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
    }
    return max ? (a > b ? a : b) : (a < b ? a : b);
}

static double ref_op(double a, double b, unsigned rop)
{
    switch (rop) {
    case SWAI_ROP_SUM:
        return a + b;
    case SWAI_ROP_PROD:
        return a * b;
    default:
        return ref_maxmin(a, b, rop == SWAI_ROP_MAX);
    }
}

static uint64_t ref_reduce(unsigned dt, unsigned rop, uint64_t a, uint64_t b)
{
    _Float16 ha, hb, hr;
    float fa, fb, fr;
    double da, db, dr;
    int64_t ia, ib, ir;
    int32_t wa, wb, wr;
    uint16_t u16;
    uint32_t u32;

    switch (dt) {
    case SWAI_DT_F16:
        u16 = (uint16_t)a;
        memcpy(&ha, &u16, 2);
        u16 = (uint16_t)b;
        memcpy(&hb, &u16, 2);
        if (rop == SWAI_ROP_SUM) {
            hr = ha + hb;
        } else if (rop == SWAI_ROP_PROD) {
            hr = ha * hb;
        } else {
            hr = (_Float16)ref_maxmin(ha, hb, rop == SWAI_ROP_MAX);
        }
        memcpy(&u16, &hr, 2);
        return u16;
    case SWAI_DT_BF16:
        return ref_bf16(ref_op(bf16_val(a), bf16_val(b), rop));
    case SWAI_DT_F32:
        u32 = (uint32_t)a;
        memcpy(&fa, &u32, 4);
        u32 = (uint32_t)b;
        memcpy(&fb, &u32, 4);
        fr = rop == SWAI_ROP_SUM ? fa + fb : rop == SWAI_ROP_PROD ? fa * fb :
             (float)ref_maxmin(fa, fb, rop == SWAI_ROP_MAX);
        memcpy(&u32, &fr, 4);
        return u32;
    case SWAI_DT_F64:
        memcpy(&da, &a, 8);
        memcpy(&db, &b, 8);
        dr = ref_op(da, db, rop);
        memcpy(&a, &dr, 8);
        return a;
    case SWAI_DT_I32:
        wa = (int32_t)a;
        wb = (int32_t)b;
        if (rop == SWAI_ROP_SUM) {
            __builtin_add_overflow(wa, wb, &wr);
        } else if (rop == SWAI_ROP_PROD) {
            __builtin_mul_overflow(wa, wb, &wr);
        } else {
            wr = (rop == SWAI_ROP_MAX) == (wa > wb) ? wa : wb;
        }
        return (uint32_t)wr;
    case SWAI_DT_U8:
        if (rop == SWAI_ROP_SUM) {
            return (a + b) % 256;
        }
        if (rop == SWAI_ROP_PROD) {
            return (a * b) % 256;
        }
        return (rop == SWAI_ROP_MAX) == (a > b) ? a : b;
    default:
        ia = (int64_t)a;
        ib = (int64_t)b;
        if (rop == SWAI_ROP_SUM) {
            __builtin_add_overflow(ia, ib, &ir);
        } else if (rop == SWAI_ROP_PROD) {
            __builtin_mul_overflow(ia, ib, &ir);
        } else {
            ir = (rop == SWAI_ROP_MAX) == (ia > ib) ? ia : ib;
        }
        return (uint64_t)ir;
    }
}

/* Specials per dtype, then pseudo-random bit patterns. */
static const uint64_t specials[][14] = {
    [SWAI_DT_F32] = { 0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f7fffff,
                      0x00000001, 0x7f800000, 0xff800000, 0x7fc00000,
                      0x40490fdb, 0x3fc00000, 0x00800000, 0xc2f60000,
                      0x7f800001 },
    [SWAI_DT_F16] = { 0, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0x0001, 0x7c00,
                      0xfc00, 0x7e00, 0x4248, 0x3e00, 0x0400, 0x03ff,
                      0x7d00 },
    [SWAI_DT_BF16] = { 0, 0x8000, 0x3f80, 0xbf80, 0x7f7f, 0x0001, 0x7f80,
                       0xff80, 0x7fc0, 0x4049, 0x3fc0, 0x0080, 0x007f,
                       0x7f81 },
    [SWAI_DT_F64] = { 0, 0x8000000000000000ull, 0x3ff0000000000000ull,
                      0xbff0000000000000ull, 0x7fefffffffffffffull, 1,
                      0x7ff0000000000000ull, 0xfff0000000000000ull,
                      0x7ff8000000000000ull, 0x400921fb54442d18ull,
                      0x3ff8000000000000ull, 0x0010000000000000ull,
                      0xc05ec00000000000ull, 0x7ff0000000000001ull },
    [SWAI_DT_I32] = { 0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 2, 3,
                      0x10000, 0xfffffffe, 12345, 0x40000000, 7, 0x55555555,
                      0xaaaaaaaa },
    [SWAI_DT_I64] = { 0, 1, ~0ull, 0x7fffffffffffffffull,
                      0x8000000000000000ull, 2, 3, 0x100000000ull,
                      ~1ull, 12345, 0x4000000000000000ull, 7,
                      0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull },
    [SWAI_DT_U8] = { 0, 1, 2, 3, 7, 15, 16, 127, 128, 129, 200, 254, 255,
                     0x55 },
};
#define NSPEC 14
#define NRAND 3000

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Build operand arrays: every special pair, then random values. */
static uint64_t operands(unsigned dt, uint64_t *a, uint64_t *b)
{
    unsigned es = swai_isa_esize(dt);
    uint64_t mask = es == 8 ? ~0ull : (1ull << (8 * es)) - 1;
    uint64_t n = 0, i, j;

    for (i = 0; i < NSPEC; i++) {
        for (j = 0; j < NSPEC; j++) {
            a[n] = specials[dt][i];
            b[n++] = specials[dt][j];
        }
    }
    for (i = 0; i < NRAND; i++) {
        uint64_t r = next_rand();

        /* Keep random floats mostly in a sane range so sums are tested. */
        if (dt == SWAI_DT_F16 && i % 2) {
            r = (r & 0x83ff) | (0x3000 + (r >> 20) % 0x1800);
        }
        a[n] = r & mask;
        b[n++] = next_rand() & mask;
    }
    return n;
}

static void put_elems(uint64_t va, const uint64_t *v, uint64_t n, unsigned es)
{
    uint64_t i;
    unsigned k;

    for (i = 0; i < n; i++) {
        for (k = 0; k < es; k++) {
            *byte_at(va + i * es + k) = (uint8_t)(v[i] >> (8 * k));
        }
    }
}

static uint64_t get_elem(uint64_t va, uint64_t i, unsigned es)
{
    uint64_t v = 0;
    int k;

    for (k = es - 1; k >= 0; k--) {
        v = v << 8 | *byte_at(va + i * es + k);
    }
    return v;
}

static void test_reduce_all(void)
{
    static uint64_t a[NSPEC * NSPEC + NRAND], b[NSPEC * NSPEC + NRAND];
    unsigned dt, rop;

    card();
    for (dt = 0; dt <= SWAI_DT_MAX; dt++) {
        unsigned es = swai_isa_esize(dt);
        uint64_t n = operands(dt, a, b), bytes = n * es;

        for (rop = 0; rop <= SWAI_ROP_MAXOP; rop++) {
            uint64_t va = VA_HOST, vb = VA_HOST + 0x40000;
            uint64_t out = VA_HOST + 0x80000;
            struct swai_insn p[5] = {
                INSN(.op = SWAI_OP_DMA_GET, .len = bytes, .dst = 0, .src = va),
                INSN(.op = SWAI_OP_DMA_GET, .len = bytes, .dst = 0x40000,
                     .src = vb),
                INSN(.op = SWAI_OP_REDUCE, .dtype = dt, .rop = rop, .len = n,
                     .dst = 0, .src = 0x40000),
                INSN(.op = SWAI_OP_DMA_PUT, .len = bytes, .dst = out, .src = 0),
                END,
            };
            uint64_t i, bad = 0;
            unsigned j;

            put_elems(va, a, n, es);
            put_elems(vb, b, n, es);
            j = submit_nb(CG, p, 5, 0, 0);
            run();
            CHECK_JOB(CG, j, SWAI_JOB_OK);
            for (i = 0; i < n; i++) {
                uint64_t got = get_elem(out, i, es);
                uint64_t want = ref_reduce(dt, rop, a[i], b[i]);

                if (is_nan_bits(dt, want) ? !is_nan_bits(dt, got)
                                          : got != want) {
                    if (bad++ < 3) {
                        printf("# dtype %u rop %u: %#" PRIx64 " op %#" PRIx64
                               " = %#" PRIx64 ", expected %#" PRIx64 "\n",
                               dt, rop, a[i], b[i], got, want);
                    }
                }
            }
            CHECK_EQ(bad, 0);
        }
    }
    card_free();
}

/* The conversions against the compiler's _Float16 and a value rounding. */
static void test_half_conversions(void)
{
    uint64_t i, bad = 0;

    for (i = 0; i < 65536; i++) {
        uint16_t h = (uint16_t)i;
        _Float16 x;
        float f = swai_float_f16_to_f32(h);

        memcpy(&x, &h, 2);
        if (isnan((float)x) ? !isnan(f) : f != (float)x ||
            signbit(f) != signbit((float)x)) {
            bad++;
        }
        /* Widening then narrowing gives the same value back. */
        if (!isnan(f) && swai_float_f32_to_f16(f) != h) {
            bad++;
        }
        if (swai_float_f32_to_bf16(swai_float_bf16_to_f32(h)) != h &&
            !isnan(swai_float_bf16_to_f32(h))) {
            bad++;
        }
    }
    CHECK_EQ(bad, 0);
    for (i = 0; i < 2000000; i++) {
        uint32_t u = (uint32_t)next_rand();
        float f;
        _Float16 x;
        uint16_t hx;

        memcpy(&f, &u, 4);
        if (isnan(f)) {
            continue;
        }
        x = (_Float16)f;
        memcpy(&hx, &x, 2);
        bad += swai_float_f32_to_f16(f) != hx;
        bad += swai_float_f32_to_bf16(f) != ref_bf16(f);
    }
    CHECK_EQ(bad, 0);
    /* Ties go to even, overflow to infinity, NaN stays NaN. */
    CHECK_EQ(swai_float_f32_to_f16(1.0f + 0x1p-11f), 0x3c00);
    CHECK_EQ(swai_float_f32_to_f16(1.0f + 0x1p-11f + 0x1p-10f), 0x3c02);
    CHECK_EQ(swai_float_f32_to_f16(65520.0f), 0x7c00);
    CHECK_EQ(swai_float_f32_to_f16(0x1p-25f), 0);
    CHECK_EQ(swai_float_f32_to_f16(0x1.8p-25f), 1);
    CHECK_EQ(swai_float_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);
    CHECK_EQ(swai_float_f32_to_bf16(1.0f + 0x3p-8f), 0x3f82);
    CHECK(isnan(swai_float_f16_to_f32(swai_float_f32_to_f16(NAN))));
    CHECK(isnan(swai_float_bf16_to_f32(swai_float_f32_to_bf16(NAN))));
}

/* A long REDUCE spans several steps; elements at the end are right too. */
static void test_reduce_long(void)
{
    uint64_t n = 100000, i, bad = 0;
    unsigned j;

    card();
    for (i = 0; i < n; i++) {
        poke64(VA_HOST + 8 * i, i);
        poke64(VA_HOST + 0x100000 + 8 * i, 3 * i + 1);
    }
    j = SUBMIT(2, INSN(.op = SWAI_OP_DMA_GET, .len = 800000, .dst = 0,
                       .src = VA_HOST),
               INSN(.op = SWAI_OP_COPY, .len = 800000, .dst = VA_GLOB,
                    .src = VA_HOST + 0x100000),
               INSN(.op = SWAI_OP_NOP),
               END);
    run();
    CHECK_JOB(2, j, SWAI_JOB_ERR_LDM);      /* 800000 > 512 KiB of LDM */
    CHECK_EQ(compl(2, j).error_pc, 0);
    j = SUBMIT(2, INSN(.op = SWAI_OP_DMA_GET, .len = 240000, .dst = 0,
                       .src = VA_HOST),
               INSN(.op = SWAI_OP_DMA_GET, .len = 240000, .dst = 240000,
                    .src = VA_HOST + 0x100000),
               INSN(.op = SWAI_OP_REDUCE, .dtype = SWAI_DT_I64,
                    .rop = SWAI_ROP_SUM, .len = 30000, .dst = 0,
                    .src = 240000),
               INSN(.op = SWAI_OP_DMA_PUT, .len = 240000,
                    .dst = VA_LOC(2), .src = 0),
               END);
    run();
    CHECK_JOB(2, j, SWAI_JOB_OK);
    for (i = 0; i < 30000; i++) {
        bad += peek64(VA_LOC(2) + 8 * i) != 4 * i + 1;
    }
    CHECK_EQ(bad, 0);
    card_free();
}

/* --- DIV --- */

/* The quotient by another route: long double, the compiler's _Float16. */
static uint64_t ref_div(unsigned dt, uint64_t a, uint64_t d)
{
    _Float16 h;
    float f;
    double x;
    uint16_t u16;
    uint32_t u32;
    int64_t i;

    switch (dt) {
    case SWAI_DT_F16:
        u16 = (uint16_t)a;
        memcpy(&h, &u16, 2);
        h = (_Float16)((double)h / (double)d);
        memcpy(&u16, &h, 2);
        return u16;
    case SWAI_DT_BF16:
        return ref_bf16(bf16_val((uint16_t)a) / (double)d);
    case SWAI_DT_F32:
        u32 = (uint32_t)a;
        memcpy(&f, &u32, 4);
        /* 64 bits >= 2 * 24 + 2: rounding twice is still correct. */
        f = (float)((long double)f / (long double)(double)d);
        memcpy(&u32, &f, 4);
        return u32;
    case SWAI_DT_F64:
        memcpy(&x, &a, 8);
        x /= (double)d;
        memcpy(&a, &x, 8);
        return a;
    case SWAI_DT_I32:
        i = (int32_t)a;
        /* |i| < 2^31 < d: truncation gives 0 (C division needs d signed). */
        i = d > INT32_MAX ? (d == 1ull << 31 && i == INT32_MIN ? -1 : 0)
                          : i / (int64_t)d;
        return (uint32_t)i;
    case SWAI_DT_I64:
        if (d > INT64_MAX) {
            return (int64_t)a == INT64_MIN && d == 1ull << 63 ? ~0ull : 0;
        }
        if ((int64_t)a == INT64_MIN && d == 1) {
            return a;
        }
        return (uint64_t)((int64_t)a / (int64_t)d);
    default:
        return a / d;
    }
}

static const uint64_t divisors[] = {
    1, 2, 3, 4, 7, 10, 255, 256, 1000003, 0x80000000ull, 0x80000001ull,
    (1ull << 53) + 1, 1ull << 63, UINT64_MAX,
};
#define NDIV (sizeof(divisors) / sizeof(divisors[0]))

static void test_div_all(void)
{
    static uint64_t a[NSPEC * NSPEC + NRAND], b[NSPEC * NSPEC + NRAND];
    unsigned dt, k;

    card();
    for (dt = 0; dt <= SWAI_DT_MAX; dt++) {
        unsigned es = swai_isa_esize(dt);
        uint64_t n = operands(dt, a, b), bytes = n * es;

        for (k = 0; k < NDIV; k++) {
            uint64_t in = VA_HOST, out = VA_HOST + 0x80000;
            struct swai_insn p[4] = {
                INSN(.op = SWAI_OP_DMA_GET, .len = bytes, .dst = 64,
                     .src = in),
                INSN(.op = SWAI_OP_DIV, .dtype = dt, .len = n, .dst = 64,
                     .src = divisors[k]),
                INSN(.op = SWAI_OP_DMA_PUT, .len = bytes, .dst = out,
                     .src = 64),
                END,
            };
            uint64_t i, bad = 0;
            unsigned j;

            put_elems(in, a, n, es);
            j = submit_nb(CG, p, 4, 0, 0);
            run();
            CHECK_JOB(CG, j, SWAI_JOB_OK);
            for (i = 0; i < n; i++) {
                uint64_t got = get_elem(out, i, es);
                uint64_t want = ref_div(dt, a[i], divisors[k]);

                if (is_nan_bits(dt, want) ? !is_nan_bits(dt, got)
                                          : got != want) {
                    if (bad++ < 3) {
                        printf("# dtype %u: %#" PRIx64 " / %" PRIu64
                               " = %#" PRIx64 ", expected %#" PRIx64 "\n",
                               dt, a[i], divisors[k], got, want);
                    }
                }
            }
            CHECK_EQ(bad, 0);
        }
    }
    card_free();
}

/* Hand-picked quotients; double -> f16/bf16 rounds once, ties to even. */
static void test_div_values(void)
{
    uint64_t i, bad = 0;

    CHECK_EQ(ref_div(SWAI_DT_I32, (uint32_t)-7, 2), (uint32_t)-3);
    CHECK_EQ(ref_div(SWAI_DT_I64, (uint64_t)-9, 4), (uint64_t)-2);
    CHECK_EQ(ref_div(SWAI_DT_U8, 255, 4), 63);
    CHECK_EQ(swai_float_f64_to_f16(1.0 + 0x1p-11), 0x3c00);
    CHECK_EQ(swai_float_f64_to_f16(1.0 + 0x1p-11 + 0x1p-40), 0x3c01);
    CHECK_EQ(swai_float_f64_to_f16(65520.0), 0x7c00);
    CHECK_EQ(swai_float_f64_to_f16(65519.99), 0x7bff);
    CHECK_EQ(swai_float_f64_to_f16(0x1p-25), 0);
    CHECK_EQ(swai_float_f64_to_f16(-0x1p-25 - 0x1p-60), 0x8001);
    CHECK_EQ(swai_float_f64_to_bf16(1.0 + 0x1p-8), 0x3f80);
    CHECK_EQ(swai_float_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-50), 0x3f81);
    CHECK_EQ(swai_float_f64_to_bf16(0x1p-134), 0);
    CHECK_EQ(swai_float_f64_to_bf16(0x1p-1074), 0);
    CHECK(is_nan_bits(SWAI_DT_F16, swai_float_f64_to_f16(NAN)));
    CHECK(is_nan_bits(SWAI_DT_BF16, swai_float_f64_to_bf16(-NAN)));
    CHECK_EQ(swai_float_f64_to_bf16(-INFINITY), 0xff80);
    /* Every f16 and bf16 value divided by 3 against the references. */
    for (i = 0; i < 65536; i++) {
        uint64_t h = ref_div(SWAI_DT_F16, i, 3), g = ref_div(SWAI_DT_BF16, i, 3);
        double hv, bv = bf16_val((uint16_t)i) / 3.0;
        _Float16 x;
        uint16_t u = (uint16_t)i;

        memcpy(&x, &u, 2);
        hv = (double)x / 3.0;
        bad += is_nan_bits(SWAI_DT_F16, h) ? !is_nan_bits(SWAI_DT_F16, swai_float_f64_to_f16(hv))
                                           : swai_float_f64_to_f16(hv) != h;
        bad += is_nan_bits(SWAI_DT_BF16, g) ? !is_nan_bits(SWAI_DT_BF16, swai_float_f64_to_bf16(bv))
                                            : swai_float_f64_to_bf16(bv) != g;
    }
    CHECK_EQ(bad, 0);
}

/* --- SIGNAL, FENCE, TIMESTAMP on one CG --- */

static void test_signal_fence_timestamp(void)
{
    uint64_t sem = VA_GLOB + 0x2000, hs = VA_HOST + 0x3000;
    unsigned j;

    card();
    poke64(sem, 5);
    poke64(hs, 100);
    wr(&S, SWAI_REG_IRQ_STATUS, ~0u);
    memset(&cb, 0, sizeof(cb));
    j = SUBMIT(3,
               INSN(.op = SWAI_OP_SIGNAL, .dst = sem, .src = 3),
               INSN(.op = SWAI_OP_SIGNAL, .dst = hs, .src = ~0ull),
               INSN(.op = SWAI_OP_SIGNAL, .flags = SWAI_SIGNAL_SET,
                    .dst = VA_LOC(3) + 8, .src = 77),
               INSN(.op = SWAI_OP_FENCE, .dst = VA_HOST + 0x3008, .src = 9),
               INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST + 0x3010),
               INSN(.op = SWAI_OP_COPY, .len = 1000, .dst = VA_GLOB,
                    .src = VA_LOC(3)),
               INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST + 0x3018),
               INSN(.op = SWAI_OP_TIMESTAMP, .flags = SWAI_TIMESTAMP_WALL,
                    .dst = VA_HOST + 0x3020),
               INSN(.op = SWAI_OP_FENCE, .dst = VA_HOST + 0x3008, .src = 10),
               END);
    run();
    CHECK_JOB(3, j, SWAI_JOB_OK);
    CHECK_EQ(peek64(sem), 8);
    CHECK_EQ(peek64(hs), 99);                   /* adds wrap */
    CHECK_EQ(peek64(VA_LOC(3) + 8), 77);
    CHECK_EQ(peek64(VA_HOST + 0x3008), 10);
    CHECK_EQ(qreg(3, SWAI_Q_FENCES), 2);
    /* FENCE and completion share the queue's cause: one edge, one MSI. */
    CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(3)], 1);
    CHECK_EQ(rd(&S, SWAI_REG_IRQ_STATUS), SWAI_IRQ_QUEUE(3));
    /* Modeled: launch, then the COPY (step + 1000 B at 100 GB/s). */
    CHECK_EQ(peek64(VA_HOST + 0x3010), 25000);
    CHECK_EQ(peek64(VA_HOST + 0x3018), 25000 + 5000 + 10);
    CHECK_EQ(compl(3, j).end_ns, 25000 + 5000 + 10);
    /* Wall: the fake clock ticks 1 us per read, from the reset on. */
    CHECK(peek64(VA_HOST + 0x3020) > 0);
    CHECK(peek64(VA_HOST + 0x3020) < fake_wall);
    CHECK_EQ(compl(3, j).insns, 10);
    CHECK_EQ(compl(3, j).bytes, 1000);
    card_free();
}

/* --- the opcodes' names (the swai_insn trace event's) --- */

static void test_isa_names(void)
{
    CHECK(!strcmp(swai_isa_name(SWAI_OP_NOP), "NOP"));
    CHECK(!strcmp(swai_isa_name(SWAI_OP_COPY), "COPY"));
    CHECK(!strcmp(swai_isa_name(SWAI_OP_WAIT), "WAIT"));
    CHECK(!strcmp(swai_isa_name(SWAI_OP_DRAIN), "DRAIN"));
    for (unsigned op = 0; op <= SWAI_OP_MAX; op++) {
        CHECK(strcmp(swai_isa_name((uint8_t)op), "?"));
    }
    CHECK(!strcmp(swai_isa_name(SWAI_OP_MAX + 1), "?"));
    CHECK(!strcmp(swai_isa_name(0xff), "?"));
}

static const struct tap_test tests[] = {
    { "COPY on every tier pair, odd sizes, strides", test_copy_tiers },
    { "DMA_GET from every tier, odd sizes, strides", test_dma_get_tiers },
    { "DMA_PUT to every tier, odd sizes, strides", test_dma_put_tiers },
    { "LDM is cleared between jobs", test_ldm_cleared },
    { "f16/bf16 conversions round to nearest even", test_half_conversions },
    { "REDUCE: every dtype x op against a reference", test_reduce_all },
    { "REDUCE: long vectors, LDM overrun", test_reduce_long },
    { "DIV: every dtype x divisor against a reference", test_div_all },
    { "DIV: hand-picked quotients, double -> f16/bf16", test_div_values },
    { "SIGNAL, FENCE, TIMESTAMP", test_signal_fence_timestamp },
    { "every opcode has its name, others \"?\"", test_isa_names },
};

TAP_MAIN(tests)
