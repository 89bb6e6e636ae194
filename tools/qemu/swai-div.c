/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-div.c - elementwise DIV by an integer and the double -> f16/bf16
 * conversions it needs; the rules are in swai-div.h.
 */
#include <stdbool.h>
#include <string.h>

#include "swai-div.h"
#include "swai-isa.h"
#include "swai-le.h"
#include "swai-reduce.h"

/*
 * Round a double to a binary format with 'mb' fraction bits and 'eb'
 * exponent bits (f16: 10, 5; bf16: 7, 8), nearest even, straight from the
 * 53-bit significand so no intermediate rounding can move a tie.
 */
static uint16_t narrow(double x, unsigned mb, unsigned eb)
{
    uint64_t b = f64_bits(x), abs = b & ~(1ull << 63);
    uint16_t sign = (uint16_t)(b >> 63 << (mb + eb));
    uint64_t einf = (1ull << eb) - 1, man, half, rest;
    int64_t e;
    unsigned shift;

    if (abs > 0x7ff0000000000000ull) {      /* NaN: quiet, top payload */
        return sign | (uint16_t)(einf << mb | 1ull << (mb - 1) |
                                 ((abs >> (52 - mb)) & ((1ull << mb) - 1)));
    }
    if (abs == 0x7ff0000000000000ull) {
        return sign | (uint16_t)(einf << mb);
    }
    if (!(abs >> 52)) {
        return sign;            /* zero, or a double subnormal: far too small */
    }
    e = (int64_t)(abs >> 52) - 1023 + (int64_t)(einf >> 1);
    if (e >= (int64_t)einf) {
        return sign | (uint16_t)(einf << mb);  /* overflow to Inf */
    }
    man = (abs & ((1ull << 52) - 1)) | 1ull << 52;
    if (e <= 0) {               /* subnormal in the narrow format, or zero */
        if (1 - e > (int64_t)mb + 1) {
            return sign;        /* below half the smallest subnormal */
        }
        shift = 52 - mb + (unsigned)(1 - e);
    } else {
        shift = 52 - mb;
        man = (man & ((1ull << 52) - 1)) | (uint64_t)e << 52;
    }
    half = 1ull << (shift - 1);
    rest = man & ((1ull << shift) - 1);
    man >>= shift;
    if (rest > half || (rest == half && (man & 1))) {
        man++;                  /* a carry into the exponent is right */
    }
    return sign | (uint16_t)man;
}

uint16_t swai_f64_to_f16(double x)
{
    return narrow(x, 10, 5);
}

uint16_t swai_f64_to_bf16(double x)
{
    return narrow(x, 7, 8);
}

/* Signed truncating division of a 'bits'-wide two's complement value. */
static uint64_t div_signed(uint64_t v, uint64_t d, unsigned bits)
{
    uint64_t m = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    bool neg = (v >> (bits - 1)) & 1;
    uint64_t mag = neg ? (0 - v) & m : v;   /* |INT_MIN| fits unsigned */
    uint64_t q = mag / d;

    return (neg ? 0 - q : q) & m;
}

static void div_one(uint8_t *p, unsigned dtype, uint64_t d)
{
    double q;
    float f;
    uint32_t u;

    switch (dtype) {
    case SWAI_DT_F32:
        u = (uint32_t)swai_ld_le(p, 4);
        memcpy(&f, &u, 4);
        f = (float)((double)f / (double)d);
        memcpy(&u, &f, 4);
        swai_st_le(p, 4, u);
        break;
    case SWAI_DT_F64:
        q = bits_f64(swai_ld_le(p, 8)) / (double)d;
        swai_st_le(p, 8, f64_bits(q));
        break;
    case SWAI_DT_F16:
        q = (double)swai_f16_to_f32((uint16_t)swai_ld_le(p, 2)) / (double)d;
        swai_st_le(p, 2, swai_f64_to_f16(q));
        break;
    case SWAI_DT_BF16:
        q = (double)swai_bf16_to_f32((uint16_t)swai_ld_le(p, 2)) / (double)d;
        swai_st_le(p, 2, swai_f64_to_bf16(q));
        break;
    case SWAI_DT_I32:
        swai_st_le(p, 4, div_signed(swai_ld_le(p, 4), d, 32));
        break;
    case SWAI_DT_I64:
        swai_st_le(p, 8, div_signed(swai_ld_le(p, 8), d, 64));
        break;
    case SWAI_DT_U8:
        *p = (uint8_t)(*p / d);
        break;
    }
}

void swai_div(uint8_t *dst, uint64_t n, unsigned dtype, uint64_t d)
{
    unsigned es = swai_reduce_esize(dtype);
    uint64_t i;

    for (i = 0; i < n; i++) {
        div_one(dst + i * es, dtype, d);
    }
}
