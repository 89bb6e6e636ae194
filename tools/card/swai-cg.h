/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-cg.h - what the engine's instruction units share about one core
 * group: moving on to the next instruction, drain points, the LDM bytes a
 * job wrote, and dropping the lock around bulk work (swai-engine.h).
 */
#ifndef SWAI_CG_H
#define SWAI_CG_H

#include "swai-engine.h"

/* Results of an instruction unit besides SWAI_JOB_OK and SWAI_JOB_ERR_*. */
#define SWAI_CG_DONE        (-1)    /* the program ended (END or last insn) */
#define SWAI_CG_GONE        (-2)    /* a reset dropped the job meanwhile */

static inline uint64_t swai_cg_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The instruction at pc is complete: on to pc + 1. */
void swai_cg_next(struct swai_engine_job *j);
/* A drain point: the sequencer waits for everything issued before. */
void swai_cg_drain(struct swai_engine_cg *c);
/* The job wrote LDM bytes [lo, hi): they are cleared when it ends. */
void swai_cg_ldm_dirty(struct swai_engine_job *j, uint64_t lo, uint64_t hi);
/* CG cg's LDM, or NULL when the engine only times programs. */
uint8_t *swai_cg_ldm(const struct swai_engine *e, unsigned cg);
/* Is [off, off + len) inside the LDM (no wrap)? */
bool swai_cg_in_ldm(const struct swai_engine *e, uint64_t off, uint64_t len);
/*
 * Would CG cg be the one stepped until its transfer ends?  True when no
 * other CG has a job or a job pending: nothing can run between its chunks.
 */
bool swai_cg_alone(const struct swai_engine *e, unsigned cg);
/* Drop the host's lock for bulk work ... */
void swai_cg_unlock(struct swai_engine *e);
/*
 * ... and take it back: false if a reset came in between; the job is then
 * gone and what was written to CG cg's LDM goes too.
 */
bool swai_cg_relock(struct swai_engine *e, unsigned cg, uint32_t gen);

#endif /* SWAI_CG_H */
