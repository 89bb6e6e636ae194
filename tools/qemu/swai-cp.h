/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-cp.h - the MPE command processor of the SW-AI card: one queue per
 * core group (CG), a ring of struct swai_hw_desc in host memory drained in
 * order, a completion record and an interrupt per job (datasheet §12).
 *
 * The jobs themselves run on the card's engine (tools/card/swai-engine.h),
 * of which the command processor is the host: it tells the engine when a
 * queue has work, starts a job from its descriptor, resolves device
 * addresses through the MMU (swai-mem.h), and reports how each job ended.
 * The glue calls swai_cp_step() from its own thread, under the BQL like
 * every other card function; one call does one bounded piece of work,
 * and moves the bulk of its bytes with the lock dropped.
 *
 * Register contract: "Per core-group command queues" in kernel/swai_regs.h.
 */
#ifndef SWAI_CP_H
#define SWAI_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "swai_regs.h"
#include "swai-engine.h"
#include "swai-glue.h"
#include "swai-irq.h"
#include "swai-layout.h"
#include "swai-mem.h"
#include "swai-mmu.h"

/* One CG's queue: its registers and the job in flight's host side. */
struct swai_cp_queue {
    uint32_t ring_lo, ring_hi, ring_size, ctrl;
    uint32_t head, tail;
    bool bad_ring;
    bool reset_pending;         /* CTRL.RESET written, not yet done */
    uint64_t completed;         /* seqno of the last completion */
    uint32_t jobs, fences;
    uint64_t completion;        /* the job in flight's record, 0 = none */
    uint64_t job_id;            /* its submitter's id (traces only) */
    uint8_t prog[SWAI_PROGRAM_MAX_BYTES];
};

struct swai_cp {
    struct swai_cp_queue q[SWAI_NUM_CG];
    struct swai_engine engine;
    struct swai_mem mem;
    bool attached;              /* HBM and LDM given: jobs run */
    const struct swai_glue *glue;
    struct swai_irq *irq;
    struct swai_mmu *mmu;
};

void swai_cp_init(struct swai_cp *cp, const struct swai_timing_props *tp,
                  uint64_t ldm_bytes, const struct swai_glue *glue,
                  struct swai_irq *irq, struct swai_mmu *mmu,
                  const struct swai_layout *layout);
/*
 * The memory jobs run in (NULL, NULL: none; nothing executes).  False:
 * out of memory for the LDM scoreboards, nothing attached.
 */
bool swai_cp_attach(struct swai_cp *cp, uint8_t *hbm, uint8_t *ldm);
/* Device reset: drop every job (no completions), clocks back to 0. */
void swai_cp_reset(struct swai_cp *cp);
/* Does one bounded piece of work; false when nothing could be done. */
bool swai_cp_step(struct swai_cp *cp);
/* True while a CG waits on a semaphore the host may write (poll it). */
bool swai_cp_polling(const struct swai_cp *cp);

/* swai-cp-regs.c: queue blocks and timing registers; false: not ours. */
bool swai_cp_regs_read(const struct swai_cp *cp, uint64_t off,
                       uint32_t *val);
bool swai_cp_regs_write(struct swai_cp *cp, uint64_t off, uint32_t v);

#endif /* SWAI_CP_H */
