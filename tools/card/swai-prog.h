/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-prog.h - building core-group programs (uapi/drm/swai_program.h,
 * datasheet §13): the one program builder of the project.
 *
 * The instruction constructors (swai_insn_*) return one encoded
 * instruction by value, for code that builds a program on the stack; a
 * struct swai_prog is a growable program for everything longer (the
 * compute-kernel emitters, the collectives' algorithms), and a struct
 * swai_progs a list of them, one per job, in launch order.  Running out
 * of memory only sets nomem: a builder checks it once at the end.
 *
 * The constructors emit exactly what they are asked for (an empty
 * transfer is still an instruction, and costs its fixed cost on the card).
 */
#ifndef SWAI_PROG_H
#define SWAI_PROG_H

#include <stdbool.h>
#include <stdint.h>

#if __has_include(<drm/swai_program.h>)
#include <drm/swai_program.h>
#else
#include "swai_program.h"
#endif

/* --- single instructions --------------------------------------------- */

/*
 * DMA_GET, DMA_PUT or COPY of rows rows (0 or 1: one row) of len bytes;
 * a stride is only encoded for more than one row (0 means len).
 */
struct swai_insn swai_insn_xfer(uint8_t op, uint8_t flags, uint64_t dst,
                                uint64_t src, uint32_t rows, uint64_t len,
                                uint64_t dst_stride, uint64_t src_stride);
/* COPY of len contiguous bytes, VA to VA, synchronous. */
struct swai_insn swai_insn_copy(uint64_t dst, uint64_t src, uint64_t len);
/* LDM[dst][i] = LDM[dst][i] rop LDM[src][i], n elements of dtype. */
struct swai_insn swai_insn_reduce(uint8_t dtype, uint8_t rop, uint64_t dst,
                                  uint64_t src, uint64_t n);
/* LDM[dst][i] /= divisor, n elements of dtype. */
struct swai_insn swai_insn_div(uint8_t dtype, uint64_t dst, uint64_t divisor,
                               uint64_t n);
/* All ncg core groups meet at the semaphore sem; host: host-mediated cost. */
struct swai_insn swai_insn_barrier(uint64_t sem, uint64_t ncg, bool host);
/* u64 sem = value (set) or += value. */
struct swai_insn swai_insn_signal(uint64_t sem, uint64_t value, bool set);
/* Until u64 sem == value (eq) or >= value. */
struct swai_insn swai_insn_wait(uint64_t sem, uint64_t value, bool eq);
/* u64 sem = value, then the queue's interrupt. */
struct swai_insn swai_insn_fence(uint64_t sem, uint64_t value);
/* An instruction without operands: NOP, END, DRAIN. */
struct swai_insn swai_insn_op(uint8_t op);

/* --- programs ---------------------------------------------------------- */

struct swai_prog {
    struct swai_insn *in;
    int n, cap;
    bool nomem;                 /* an append failed: the program is short */
};

void swai_prog_init(struct swai_prog *p);
void swai_prog_free(struct swai_prog *p);
/*
 * Append a zeroed instruction (to fill in, e.g. through a compute
 * overlay); NULL without memory.
 */
struct swai_insn *swai_prog_add(struct swai_prog *p);
/* Append in. */
void swai_prog_push(struct swai_prog *p, struct swai_insn in);
/* Append n instructions. */
void swai_prog_append(struct swai_prog *p, const struct swai_insn *in, int n);

/* A list of programs, one per job, in launch order. */
struct swai_progs {
    struct swai_prog *p;
    int n, cap;
    bool nomem;
};

void swai_progs_init(struct swai_progs *ps);
void swai_progs_free(struct swai_progs *ps);
/* Append an empty program (a new job); NULL (and ps->nomem) without memory. */
struct swai_prog *swai_progs_add(struct swai_progs *ps);
/* Drop the programs from first on. */
void swai_progs_truncate(struct swai_progs *ps, int first);
/* Did anything of ps from program first on run out of memory? */
bool swai_progs_nomem(const struct swai_progs *ps, int first);
/* Total number of instructions. */
long swai_progs_insns(const struct swai_progs *ps);

#endif /* SWAI_PROG_H */
