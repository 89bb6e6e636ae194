/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-float.c - the card's conversions between binary16, bfloat16, binary32
 * and binary64 (swai-float.h).
 */
#include <stdbool.h>

#include "swai-float.h"
#include "swai-le.h"

float swai_float_f16_to_f32(uint16_t h)
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

uint16_t swai_float_f32_to_f16(float f)
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

float swai_float_bf16_to_f32(uint16_t h)
{
    return bits_f32((uint32_t)h << 16);
}

uint16_t swai_float_f32_to_bf16(float f)
{
    uint32_t b = f32_bits(f);

    if ((b & 0x7fffffff) > 0x7f800000) {
        return (uint16_t)(b >> 16) | 0x40;  /* quiet NaN */
    }
    b += 0x7fff + ((b >> 16) & 1);
    return (uint16_t)(b >> 16);
}

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

uint16_t swai_float_f64_to_f16(double x)
{
    return narrow(x, 10, 5);
}

uint16_t swai_float_f64_to_bf16(double x)
{
    return narrow(x, 7, 8);
}
