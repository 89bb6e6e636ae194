/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-compute.h - the compute instructions of core-group programs: GEMM,
 * LAYERNORM, DROPOUT and CVT on the CG's LDM (QEMU-independent).
 *
 * Operands are laid out by the overlay structures of uapi/drm/swai_program.h
 * (CVT: struct swai_insn).  This file decodes and checks an instruction,
 * says what LDM it reads and writes (for the scoreboard, swai-sched.h) and
 * what it costs, and does the arithmetic exactly as datasheet §13.7 defines
 * it, so the host reference of libsdaa (kernels/swk_ref.c) can match it bit
 * for bit (GEMM: within the stated tolerance; it is the host's BLAS).
 */
#ifndef SWAI_COMPUTE_H
#define SWAI_COMPUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "swai-isa.h"
#include "swai-timing.h"

#define SWAI_COP_MAX_IN 3

/* An LDM byte range [off, off + len). */
struct swai_ldm_range {
    uint64_t off, len;
};

/* A checked compute instruction, fields in host byte order. */
struct swai_cop {
    union {
        uint8_t op;
        struct swai_insn_gemm gemm;
        struct swai_insn_layernorm ln;
        struct swai_insn_dropout drop;
        struct swai_insn cvt;
    } u;
    unsigned nin;
    struct swai_ldm_range in[SWAI_COP_MAX_IN];  /* read */
    struct swai_ldm_range out;                  /* written */
    uint64_t flops;             /* at the peak rate below */
    bool bf16_rate;             /* GEMM with bf16 operands */
    uint64_t bytes;             /* LDM bytes read and written */
};

/* True for GEMM, LAYERNORM, DROPOUT and CVT. */
bool swai_compute_op(uint8_t op);
/* The encoding alone (fields, flags, types, shapes): OK or ERR_ILLEGAL. */
int swai_compute_validate(const uint8_t raw[48]);
/*
 * Everything: the encoding, then alignment (SWAI_JOB_ERR_ALIGN), then every
 * operand inside the LDM of ldm_bytes (SWAI_JOB_ERR_LDM), then output and
 * inputs not overlapping where the instruction does not allow it
 * (SWAI_JOB_ERR_ILLEGAL).  Fills *c on success.
 */
int swai_compute_prepare(const uint8_t raw[48], uint64_t ldm_bytes,
                         struct swai_cop *c);
/* Modeled duration: max(FLOPs at the peak, bytes at ldm-mbps), ps. */
uint64_t swai_compute_cost_ps(const struct swai_cop *c,
                              const struct swai_timing_props *tp);
/* Do it on the CG's LDM (ldm: its first byte). */
void swai_compute_run(const struct swai_cop *c, uint8_t *ldm);

/* The scalar definitions, exposed for the tests. */
float swai_gelu(float x);

#endif /* SWAI_COMPUTE_H */
