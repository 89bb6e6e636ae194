/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-float.h - the card's conversions between its floating-point formats
 * (datasheet §13.5): binary16 (f16) and bfloat16 (bf16) widen to binary32
 * exactly; narrowing rounds to nearest, ties to even, once; NaN stays NaN
 * (quieted, top payload bits kept), overflow goes to infinity.
 */
#ifndef SWAI_FLOAT_H
#define SWAI_FLOAT_H

#include <stdint.h>

float swai_float_f16_to_f32(uint16_t h);
uint16_t swai_float_f32_to_f16(float f);
float swai_float_bf16_to_f32(uint16_t h);
uint16_t swai_float_f32_to_bf16(float f);
/* Straight from the 53-bit significand: no double rounding through f32. */
uint16_t swai_float_f64_to_f16(double x);
uint16_t swai_float_f64_to_bf16(double x);

#endif /* SWAI_FLOAT_H */
