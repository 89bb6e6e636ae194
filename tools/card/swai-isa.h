/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-isa.h - the core-group instruction set of the SW-AI card
 * (uapi/drm/swai_program.h; datasheet §13): decoding the little-endian
 * bytes, the encoding rules every instruction is checked against, and the
 * operands of the compute instructions (GEMM, LAYERNORM, DROPOUT, CVT).
 *
 * What an instruction does is the engine's (swai-engine.h), what it costs
 * swai-cost.h's; this file only says what the 48 bytes mean and whether
 * they are a legal instruction.
 */
#ifndef SWAI_ISA_H
#define SWAI_ISA_H

#include <stdbool.h>
#include <stdint.h>

#if __has_include(<drm/swai_program.h>)
#include <drm/swai_program.h>
#else
#include "swai_program.h"   /* the copy build-qemu.sh puts beside it */
#endif

#define SWAI_INSN_SIZE      48
#define SWAI_PROGRAM_MAX    (SWAI_PROGRAM_MAX_BYTES / SWAI_INSN_SIZE)

_Static_assert(sizeof(struct swai_insn) == SWAI_INSN_SIZE,
               "struct swai_insn is 48 bytes");

/* Decode the little-endian instruction at p, and the inverse. */
void swai_isa_decode(const uint8_t *p, struct swai_insn *in);
void swai_isa_encode(uint8_t *p, const struct swai_insn *in);
/*
 * The encoding rules: op defined, flags defined for the op, every field
 * the op does not use zero, types and operators in range.  Returns
 * SWAI_JOB_OK or SWAI_JOB_ERR_ILLEGAL (kernel/swai_regs.h).
 */
int swai_isa_validate(const struct swai_insn *in);

/* Bytes per element of a SWAI_DT_* (REDUCE, DIV), 0 if undefined. */
unsigned swai_isa_esize(unsigned dtype);

/* --- compute instructions --- */

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
};

/* The opcode's name as swai_program.h spells it (COPY, WAIT, ...), or "?". */
const char *swai_isa_name(uint8_t op);
/* True for GEMM, LAYERNORM, DROPOUT and CVT (their own operand layouts). */
bool swai_isa_is_compute(uint8_t op);
/* Element size of a compute type (F32, BF16), 0 if it is not one. */
unsigned swai_isa_compute_esize(unsigned dtype);
/* The encoding alone (fields, flags, types, shapes): OK or ERR_ILLEGAL. */
int swai_isa_compute_validate(const uint8_t raw[SWAI_INSN_SIZE]);
/*
 * Everything: the encoding, then alignment (SWAI_JOB_ERR_ALIGN), then every
 * operand inside an LDM of ldm_bytes (SWAI_JOB_ERR_LDM), then output and
 * inputs not overlapping where the instruction does not allow it
 * (SWAI_JOB_ERR_ILLEGAL).  Fills *c on success.
 */
int swai_isa_compute_prepare(const uint8_t raw[SWAI_INSN_SIZE],
                             uint64_t ldm_bytes, struct swai_cop *c);

#endif /* SWAI_ISA_H */
