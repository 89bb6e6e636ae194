/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-exec.h - the core-group instruction interpreter (QEMU-independent).
 *
 * Executes the program of the job in flight on a CG (uapi/drm/swai_program.h,
 * Documentation/datasheet.md §13), one bounded step at a time, and charges
 * its modeled cost to the CG's clock (swai-timing.h).  The command processor
 * (swai-cp.c) owns the job's lifecycle; this file only moves it forward.
 */
#ifndef SWAI_EXEC_H
#define SWAI_EXEC_H

#include <stdint.h>

#include "swai-isa.h"

struct swai_core;
struct swai_job;

/* swai_exec_step() result besides SWAI_JOB_OK and the SWAI_JOB_ERR_*. */
#define SWAI_EXEC_DONE  (-1)    /* the program ended (END or its last insn) */
#define SWAI_EXEC_GONE  (-2)    /* a device reset dropped the job meanwhile */

/*
 * One step of CG cg's job: one instruction, or one 64 KiB chunk of a
 * transfer, REDUCE or DIV (moved with the lock dropped, swai-cp.h); a
 * compute instruction (GEMM, LAYERNORM, DROPOUT, CVT) is one step, its
 * arithmetic also done with the lock dropped.  Returns
 * SWAI_JOB_OK (more to do; the job may now be blocked, see job.wait),
 * SWAI_EXEC_DONE, SWAI_EXEC_GONE, or a SWAI_JOB_ERR_* that ends the job at
 * job.pc.
 */
int swai_exec_step(struct swai_core *s, unsigned cg);
/*
 * Re-check the semaphore a blocked (SWAI_WAIT_SEM) job waits on; when it is
 * satisfied the job leaves the barrier and becomes runnable.  Returns
 * SWAI_JOB_OK or an error reading the semaphore.
 */
int swai_exec_sem_check(struct swai_core *s, unsigned cg);
/* Check an instruction's encoding: SWAI_JOB_OK or SWAI_JOB_ERR_ILLEGAL. */
int swai_exec_validate(const struct swai_insn *in);
/* Decode the little-endian instruction at p (48 bytes). */
void swai_exec_decode(const uint8_t *p, struct swai_insn *in);

/* For swai-sync.c: semaphore instructions, and moving on to pc + 1. */
int swai_exec_sync(struct swai_core *s, unsigned cg,
                   const struct swai_insn *in);
void swai_exec_next(struct swai_job *j);

#endif /* SWAI_EXEC_H */
