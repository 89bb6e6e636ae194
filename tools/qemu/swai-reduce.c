/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-reduce.c - elementwise REDUCE arithmetic and the f16/bf16
 * conversions it needs; the rules are in swai-reduce.h.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "swai-isa.h"
#include "swai-le.h"
#include "swai-reduce.h"

/* --- f16 / bf16 --- */

float swai_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;

    if (exp == 0x1f) {          /* Inf / NaN: keep the payload */
        return bits_f32(sign | 0x7f800000 | man << 13);
    }
    if (exp == 0) {             /* zero / subnormal: man * 2^-24, exact */
        float f = (float)man / 16777216.0f;     /* 2^24 */

        return sign ? -f : f;
    }
    return bits_f32(sign | (exp + 112) << 23 | man << 13);
}

uint16_t swai_f32_to_f16(float f)
{
    uint32_t b = f32_bits(f);
    uint16_t sign = (b >> 16) & 0x8000;
    uint32_t abs = b & 0x7fffffff;
    int32_t exp;
    uint32_t man, shift, half, rest;

    if (abs > 0x7f800000) {     /* NaN: quieted, top payload bits kept */
        return sign | 0x7e00 | ((abs >> 13) & 0x3ff);
    }
    if (abs == 0x7f800000) {
        return sign | 0x7c00;
    }
    exp = (int32_t)(abs >> 23) - 127 + 15;
    man = (abs & 0x7fffff) | 0x800000;      /* 24 bits with implicit 1 */
    if (exp >= 31) {
        return sign | 0x7c00;               /* overflow to Inf */
    }
    if (exp <= 0) {                         /* subnormal or zero */
        if (exp < -10) {
            return sign;                    /* below half the min subnormal */
        }
        shift = 14 - exp;                   /* 13 + (1 - exp) */
    } else {
        shift = 13;
        man &= 0x7fffff;
        man |= (uint32_t)exp << 23;         /* carry may bump the exponent */
    }
    half = 1u << (shift - 1);
    rest = man & ((1u << shift) - 1);
    man >>= shift;
    if (rest > half || (rest == half && (man & 1))) {
        man++;                              /* may carry into exp: right */
    }
    return sign | (uint16_t)man;
}

float swai_bf16_to_f32(uint16_t h)
{
    return bits_f32((uint32_t)h << 16);
}

uint16_t swai_f32_to_bf16(float f)
{
    uint32_t b = f32_bits(f);

    if ((b & 0x7fffffff) > 0x7f800000) {
        return (uint16_t)(b >> 16) | 0x40;  /* quiet NaN */
    }
    b += 0x7fff + ((b >> 16) & 1);
    return (uint16_t)(b >> 16);
}

/* --- operations --- */

/* maximumNumber / minimumNumber: 1 if the result is a, 0 if b. */
static bool pick_a(double a, double b, bool max)
{
    if (isnan(a)) {
        return isnan(b);
    }
    if (isnan(b)) {
        return true;
    }
    if (a == b) {               /* equal, or +0 vs -0 */
        return max ? !signbit(a) : !!signbit(a);
    }
    return max ? a > b : a < b;
}

static float op_f32(float a, float b, unsigned rop)
{
    switch (rop) {
    case SWAI_ROP_SUM:
        return a + b;
    case SWAI_ROP_PROD:
        return a * b;
    default:
        return pick_a(a, b, rop == SWAI_ROP_MAX) ? a : b;
    }
}

static double op_f64(double a, double b, unsigned rop)
{
    switch (rop) {
    case SWAI_ROP_SUM:
        return a + b;
    case SWAI_ROP_PROD:
        return a * b;
    default:
        return pick_a(a, b, rop == SWAI_ROP_MAX) ? a : b;
    }
}

/* Integers in unsigned arithmetic (wraps, no UB); 'bits' is 32 or 64. */
static uint64_t op_int(uint64_t a, uint64_t b, unsigned rop, unsigned bits)
{
    uint64_t m = bits == 64 ? UINT64_MAX : UINT32_MAX;
    uint64_t sign = 1ull << (bits - 1);
    bool lt;

    switch (rop) {
    case SWAI_ROP_SUM:
        return (a + b) & m;
    case SWAI_ROP_PROD:
        return (a * b) & m;
    default:
        lt = (a ^ sign) < (b ^ sign);       /* signed compare via bias */
        return (rop == SWAI_ROP_MAX) == lt ? b : a;
    }
}

/* Unsigned bytes: SUM and PROD wrap modulo 256, MAX/MIN unsigned. */
static uint8_t op_u8(uint8_t a, uint8_t b, unsigned rop)
{
    switch (rop) {
    case SWAI_ROP_SUM:
        return (uint8_t)(a + b);
    case SWAI_ROP_PROD:
        return (uint8_t)(a * b);
    case SWAI_ROP_MAX:
        return a > b ? a : b;
    default:
        return a < b ? a : b;
    }
}

/* A half-width element: keep the chosen operand's bits for MAX/MIN. */
static uint16_t op_half(uint16_t a, uint16_t b, unsigned rop, bool bf)
{
    float fa = bf ? swai_bf16_to_f32(a) : swai_f16_to_f32(a);
    float fb = bf ? swai_bf16_to_f32(b) : swai_f16_to_f32(b);
    float r;

    if (rop == SWAI_ROP_MAX || rop == SWAI_ROP_MIN) {
        if (isnan(fa) && isnan(fb)) {
            return a | (bf ? 0x40 : 0x200);
        }
        return pick_a(fa, fb, rop == SWAI_ROP_MAX) ? a : b;
    }
    r = op_f32(fa, fb, rop);
    return bf ? swai_f32_to_bf16(r) : swai_f32_to_f16(r);
}

unsigned swai_reduce_esize(unsigned dtype)
{
    switch (dtype) {
    case SWAI_DT_U8:
        return 1;
    case SWAI_DT_F16:
    case SWAI_DT_BF16:
        return 2;
    case SWAI_DT_F32:
    case SWAI_DT_I32:
        return 4;
    case SWAI_DT_F64:
    case SWAI_DT_I64:
        return 8;
    default:
        return 0;
    }
}

static void reduce_one(uint8_t *d, const uint8_t *s, unsigned dtype,
                       unsigned rop)
{
    uint64_t a, b;

    switch (dtype) {
    case SWAI_DT_F16:
    case SWAI_DT_BF16:
        swai_st_le(d, 2, op_half(swai_ld_le(d, 2), swai_ld_le(s, 2), rop,
                            dtype == SWAI_DT_BF16));
        break;
    case SWAI_DT_F32:
        a = swai_ld_le(d, 4);
        b = swai_ld_le(s, 4);
        if ((rop == SWAI_ROP_MAX || rop == SWAI_ROP_MIN) &&
            isnan(bits_f32(a)) && isnan(bits_f32(b))) {
            swai_st_le(d, 4, a | 0x400000);
            break;
        }
        swai_st_le(d, 4, f32_bits(op_f32(bits_f32(a), bits_f32(b), rop)));
        break;
    case SWAI_DT_F64:
        a = swai_ld_le(d, 8);
        b = swai_ld_le(s, 8);
        if ((rop == SWAI_ROP_MAX || rop == SWAI_ROP_MIN) &&
            isnan(bits_f64(a)) && isnan(bits_f64(b))) {
            swai_st_le(d, 8, a | 0x8000000000000ull);
            break;
        }
        swai_st_le(d, 8, f64_bits(op_f64(bits_f64(a), bits_f64(b), rop)));
        break;
    case SWAI_DT_I32:
        swai_st_le(d, 4, op_int(swai_ld_le(d, 4), swai_ld_le(s, 4), rop, 32));
        break;
    case SWAI_DT_I64:
        swai_st_le(d, 8, op_int(swai_ld_le(d, 8), swai_ld_le(s, 8), rop, 64));
        break;
    case SWAI_DT_U8:
        *d = op_u8(*d, *s, rop);
        break;
    }
}

void swai_reduce(uint8_t *dst, const uint8_t *src, uint64_t n,
                 unsigned dtype, unsigned rop)
{
    unsigned es = swai_reduce_esize(dtype);
    uint64_t i;

    for (i = 0; i < n; i++) {
        reduce_one(dst + i * es, src + i * es, dtype, rop);
    }
}
