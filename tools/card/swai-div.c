/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-div.c - the arithmetic of DIV (swai-div.h).
 */
#include <stdbool.h>
#include <string.h>

#include "swai-div.h"
#include "swai-float.h"
#include "swai-isa.h"
#include "swai-le.h"

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
        q = (double)swai_float_f16_to_f32((uint16_t)swai_ld_le(p, 2)) /
            (double)d;
        swai_st_le(p, 2, swai_float_f64_to_f16(q));
        break;
    case SWAI_DT_BF16:
        q = (double)swai_float_bf16_to_f32((uint16_t)swai_ld_le(p, 2)) /
            (double)d;
        swai_st_le(p, 2, swai_float_f64_to_bf16(q));
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
    unsigned es = swai_isa_esize(dtype);
    uint64_t i;

    for (i = 0; i < n; i++) {
        div_one(dst + i * es, dtype, d);
    }
}
