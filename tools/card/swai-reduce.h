/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-reduce.h - the arithmetic of the REDUCE instruction.
 *
 * dst[i] = dst[i] op src[i] over little-endian elements in LDM.  Rules
 * (Documentation/datasheet.md §13.5):
 * - f32, f64: IEEE arithmetic of the host (round to nearest even).
 * - f16, bf16: both operands are widened to f32 (exact), the operation is
 *   done in f32 and the result rounded to nearest even back.  f32 has more
 *   than 2p+2 bits for both formats, so this equals the correctly rounded
 *   result of the operation in the narrow format.
 * - i32, i64: two's complement; SUM and PROD wrap around.
 * - u8: unsigned; SUM and PROD wrap modulo 256, MAX/MIN compare unsigned.
 * - MAX, MIN on floats: IEEE 754-2019 maximumNumber / minimumNumber: a NaN
 *   operand is ignored (the other is the result), NaN only if both are NaN
 *   (then dst, quieted); -0 < +0.  The chosen operand's bits are kept.
 */
#ifndef SWAI_REDUCE_H
#define SWAI_REDUCE_H

#include <stdint.h>

/* dst[i] = dst[i] rop src[i], i < n; dtype and rop must be valid. */
void swai_reduce(uint8_t *dst, const uint8_t *src, uint64_t n,
                 unsigned dtype, unsigned rop);

#endif /* SWAI_REDUCE_H */
