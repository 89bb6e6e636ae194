/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-cost.h - what each instruction and each job costs on the card's
 * clock (datasheet §14.2, §14.3): the fixed costs and the LDM and FLOP
 * terms.  Bytes over HBM, the ring bus and PCIe are charged chunk by chunk
 * on their paths (swai-timing.h); when each cost is paid, and what waits
 * for what, is the engine's (swai-engine.h).
 */
#ifndef SWAI_COST_H
#define SWAI_COST_H

#include <stdint.h>

#include "swai-isa.h"
#include "swai-timing.h"

/* A job's launch, from the time the host may start it. */
uint64_t swai_cost_launch_ps(const struct swai_timing_props *tp);
/* Issuing a transfer on the sequencer: t_step for COPY, t_dma for DMA_*. */
uint64_t swai_cost_issue_ps(const struct swai_timing_props *tp, uint8_t op);
/*
 * REDUCE and DIV in LDM: every byte of the operands at ldm-mbps, REDUCE
 * reading two and writing one, DIV reading and writing one.
 */
uint64_t swai_cost_ldm_op_ps(const struct swai_timing_props *tp, uint8_t op,
                             uint64_t bytes);
/*
 * A compute instruction: the longer of its FLOPs at the CG's peak rate
 * (bf16 operands at bf16-gflops) and the LDM bytes it reads and writes at
 * ldm-mbps.
 */
uint64_t swai_cost_compute_ps(const struct swai_timing_props *tp,
                              const struct swai_cop *c);
/*
 * Leaving a BARRIER or WAIT once its semaphore allows: t_sync for a
 * host-mediated BARRIER, t_barrier otherwise.
 */
uint64_t swai_cost_wake_ps(const struct swai_timing_props *tp,
                           const struct swai_insn *in);

#endif /* SWAI_COST_H */
