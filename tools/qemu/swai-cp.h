/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-cp.h - the MPE command processor of the SW-AI card (QEMU-independent).
 *
 * One queue per core group (CG): a ring of struct swai_hw_desc in host
 * memory, drained in order.  Each job runs a core-group program
 * (swai-exec.c) on its CG and ends with a completion record, COMPLETED and
 * a queue interrupt.  The glue calls swai_cp_step() from its own thread,
 * under the BQL like every other core function, so there are no locks:
 * one call does one bounded piece of work (fetch a descriptor, one
 * instruction, or one 64 KiB chunk of a transfer) on the runnable CG with
 * the smallest modeled clock (tie: lowest CG).  That order, not the wall
 * clock, decides how CGs share the card's paths, so modeled time is the
 * same on every run for the same submissions.
 *
 * The bulk of a step -- the bytes of a transfer chunk, the arithmetic of a
 * REDUCE chunk -- runs between ops->unlock() and ops->lock() so the guest
 * is not held up meanwhile.  It works on a copy of the job; a device reset
 * in that window bumps swai_cp.gen and the step then drops what it did.
 *
 * Register contract: "Per core-group command queues" in kernel/swai_regs.h;
 * Documentation/datasheet.md §12 describes it in full.
 */
#ifndef SWAI_CP_H
#define SWAI_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "swai_regs.h"
#include "swai-isa.h"
#include "swai-sched.h"
#include "swai-timing.h"

struct swai_core;

/* Why a job is not runnable (struct swai_job.wait). */
#define SWAI_WAIT_NONE      0
#define SWAI_WAIT_SEM       1   /* BARRIER/WAIT: until the semaphore says so */
#define SWAI_WAIT_HANG      2   /* SWAI_DESC_INJECT_HANG: until queue reset */

/* The job in flight on a CG. */
struct swai_job {
    bool active;
    uint64_t seqno;
    uint32_t asid;
    uint64_t prog_va;
    uint64_t completion;        /* host DMA address, 0 = none */
    uint32_t n;                 /* instructions fetched */
    uint32_t pc;
    uint32_t insns;             /* completed instructions */
    uint64_t bytes;             /* moved by transfers */
    uint64_t start_ps;
    uint64_t wall_start;        /* ops->wall_ns() at start */
    bool inject_mmu, inject_dma;    /* pending injected failures */
    bool peer;                  /* SWAI_DESC_PEER: other CGs' Local too */
    uint64_t fault_va;          /* reported with an MMU/FOREIGN/DMA error */
    /* An MMU fault to latch (MMU_FAULT_*) when the job ends, 0 = none. */
    int mmu_reason;
    bool mmu_write;
    /* Progress of the instruction at pc. */
    bool started;               /* its fixed cost is charged */
    uint64_t done;              /* bytes (transfer) or elements (REDUCE) */
    /* Blocked state. */
    unsigned wait;              /* SWAI_WAIT_* */
    bool wait_eq;
    uint64_t wait_va, wait_target, wait_cost_ps;
    /* LDM bytes written by the job: cleared when it ends. */
    uint64_t ldm_lo, ldm_hi;
    struct swai_seq seq;        /* asynchronous work in flight */
};

struct swai_queue {
    uint32_t ring_lo, ring_hi, ring_size, ctrl;
    uint32_t head, tail;
    bool bad_ring;
    bool reset_pending;         /* CTRL.RESET written, not yet done */
    uint64_t completed;         /* seqno of the last completion */
    uint32_t jobs, fences;
    uint64_t clock_ps;          /* the CG's modeled clock */
    struct swai_job job;
    struct swai_sb sb;          /* LDM scoreboard of the job */
    uint8_t prog[SWAI_PROGRAM_MAX_BYTES];
};

/* The modeled time of the last card update of a semaphore (BARRIER/WAIT). */
struct swai_sem_rec {
    bool used, host;
    uint64_t addr;              /* HBM-physical or host DMA address */
    uint64_t ps;
};
#define SWAI_SEM_RECS   64

/* Card-wide command-processor state, part of struct swai_core. */
struct swai_cp {
    uint32_t gen;               /* bumped by every device reset */
    struct swai_timing timing;
    uint64_t clock_ps;          /* CLOCK: latest end of any job */
    uint64_t wall0;             /* ops->wall_ns() at reset */
    struct swai_sem_rec sem[SWAI_SEM_RECS];
    uint8_t bounce[SWAI_CHUNK]; /* COPY streams through here */
};

/* Device reset: drop every job (no completions), clocks back to 0. */
void swai_cp_reset(struct swai_core *s);
/* BAR0 accesses to queue blocks and timing registers; false: not ours. */
bool swai_cp_mmio_read(const struct swai_core *s, uint64_t off,
                       uint32_t *val);
/* Returns false when off is not a writable CP register. */
bool swai_cp_mmio_write(struct swai_core *s, uint64_t off, uint32_t v);
/* Does one bounded piece of work; false when nothing could be done. */
bool swai_cp_step(struct swai_core *s);
/* True while a CG waits on a semaphore the host may write (poll it). */
bool swai_cp_polling(const struct swai_core *s);

/* For swai-exec.c: the modeled time of the last update of a semaphore. */
void swai_cp_sem_record(struct swai_core *s, bool host, uint64_t addr,
                        uint64_t ps);
uint64_t swai_cp_sem_time(const struct swai_core *s, bool host,
                          uint64_t addr);

#endif /* SWAI_CP_H */
