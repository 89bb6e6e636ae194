/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-arith.h - what the card computes (datasheet §13.5-§13.7): the data
 * plane of the engine.  Hosts that move data (the QEMU device, the
 * functional simulator and the emitters' tests) give the engine
 * &swai_arith; the cost model gives it nothing and never links this file
 * (nor the BLAS its GEMM runs on).
 *
 * Every f32 operation is written out in the order the datasheet gives, so
 * the project's independent host reference (runtime/kernels/swk_ref.c) can
 * match LAYERNORM, DROPOUT and CVT bit for bit; GEMM is the host's BLAS
 * (cblas_sgemm) on operands widened to f32, within the stated tolerance.
 */
#ifndef SWAI_ARITH_H
#define SWAI_ARITH_H

#include <stdint.h>

#include "swai-engine.h"
#include "swai-isa.h"

/* Do a checked compute instruction on a CG's LDM (ldm: its first byte). */
void swai_arith_compute(const struct swai_cop *c, uint8_t *ldm);
/* GELU, tanh form, in f32 (the GEMM epilogue). */
float swai_arith_gelu(float x);

extern const struct swai_engine_arith swai_arith;

#endif /* SWAI_ARITH_H */
