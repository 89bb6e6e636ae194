/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-compute.h - the instructions the CPEs compute on LDM: REDUCE and
 * DIV (elementwise, datasheet §13.5), GEMM, LAYERNORM, DROPOUT and CVT
 * (§13.7).  The CPEs compute, the sequencer waits: each starts when its
 * inputs are written and its output is no longer read or written by
 * anything in flight (the LDM scoreboard, §14.7), and the CG's clock moves
 * to its end.  The arithmetic itself is the host's (swai-arith.h), done
 * with the lock dropped.
 */
#ifndef SWAI_COMPUTE_H
#define SWAI_COMPUTE_H

#include "swai-engine.h"

/* REDUCE or DIV at CG cg's pc, 64 KiB of elements per step. */
int swai_compute_elementwise(struct swai_engine *e, unsigned cg,
                             const struct swai_insn *in);
/* GEMM, LAYERNORM, DROPOUT or CVT at CG cg's pc (raw: its 48 bytes). */
int swai_compute_kernel(struct swai_engine *e, unsigned cg,
                        const uint8_t *raw);

#endif /* SWAI_COMPUTE_H */
