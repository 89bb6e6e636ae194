/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-div.h - the arithmetic of the DIV instruction.
 *
 * dst[i] = dst[i] / d over little-endian elements in LDM, for an integer
 * divisor d >= 1: what an average needs after a SUM (Documentation/
 * datasheet.md §13.6).  Rules:
 * - floats (f32, f64, f16, bf16): the element's value divided by (double)d
 *   in IEEE double arithmetic, then rounded to nearest even straight to the
 *   type (one rounding; 53 >= 2p + 2 for f32, f16 and bf16, so the result is
 *   the correctly rounded quotient by (double)d).  NaN stays NaN (quiet),
 *   infinities and signed zeros keep their sign, overflow cannot happen.
 * - i32, i64: signed, truncated toward zero (INT_MIN / 1 stays INT_MIN).
 * - u8: unsigned, truncated.
 */
#ifndef SWAI_DIV_H
#define SWAI_DIV_H

#include <stdint.h>

/* dst[i] = dst[i] / d, i < n; dtype must be a valid SWAI_DT_*, d >= 1. */
void swai_div(uint8_t *dst, uint64_t n, unsigned dtype, uint64_t d);

#endif /* SWAI_DIV_H */
