/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-reduce.c - the arithmetic of REDUCE (swai-reduce.h).
 */
#include <math.h>
#include <stdbool.h>

#include "swai-float.h"
#include "swai-isa.h"
#include "swai-le.h"
#include "swai-reduce.h"

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
    float fa = bf ? swai_float_bf16_to_f32(a) : swai_float_f16_to_f32(a);
    float fb = bf ? swai_float_bf16_to_f32(b) : swai_float_f16_to_f32(b);
    float r;

    if (rop == SWAI_ROP_MAX || rop == SWAI_ROP_MIN) {
        if (isnan(fa) && isnan(fb)) {
            return a | (bf ? 0x40 : 0x200);
        }
        return pick_a(fa, fb, rop == SWAI_ROP_MAX) ? a : b;
    }
    r = op_f32(fa, fb, rop);
    return bf ? swai_float_f32_to_bf16(r) : swai_float_f32_to_f16(r);
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
    unsigned es = swai_isa_esize(dtype);
    uint64_t i;

    for (i = 0; i < n; i++) {
        reduce_one(dst + i * es, src + i * es, dtype, rop);
    }
}
