/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-engine.h - the core groups of the SW-AI card running their programs:
 * the one definition of what an instruction does and when it ends
 * (datasheet §12.7, §13, §14).  Linked by the QEMU device (tools/qemu/),
 * libswccl's cost model and functional simulator, and the emitters' tests.
 *
 * The engine keeps, per core group (CG), the modeled clock and the job in
 * flight (program counter, asynchronous transfers, LDM scoreboard), and
 * card-wide the shared paths' calendars and when each semaphore was last
 * written.  One call of swai_engine_step() does one bounded piece of work
 * (start a job, one instruction, or one 64 KiB chunk of a transfer or
 * REDUCE) on the runnable CG with the smallest modeled clock (tie: lowest
 * CG), so the CGs share the card's paths in modeled-time order, whatever
 * order the work arrived in -- and, for cards joined by a fabric, only
 * when no other card's step comes first (ops->may_step).
 *
 * Everything around the engine belongs to its host, reached through
 * struct swai_engine_ops: where jobs come from and where their results go
 * (the device: descriptor rings, completion records, interrupts; the cost
 * model: lists of programs), what a device address is (the device: its
 * MMU; the cost model: the call's buffers), whether bytes are really
 * moved (not by the cost model, which only times them), and the lock the
 * engine runs under (the device drops QEMU's lock while bytes move).
 *
 * Locking: every function is called with the host's lock held.  A step
 * moves the bulk of its bytes (and does the arithmetic of REDUCE, DIV and
 * the compute instructions) between ops->unlock() and ops->lock(), on a
 * copy of the job; swai_engine_reset() in that window makes the step drop
 * what it did.
 */
#ifndef SWAI_ENGINE_H
#define SWAI_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swai_regs.h"
#include "swai-isa.h"
#include "swai-seq.h"
#include "swai-timing.h"

#define SWAI_ENGINE_CGS     SWAI_NUM_CG

/* Which tier an access is on, for the timing model (datasheet §14.4). */
#define SWAI_TIER_LOCAL     0   /* the CG's own Local-HBM */
#define SWAI_TIER_GLOBAL    1   /* Global-HBM, over the ring bus */
#define SWAI_TIER_HOST      2   /* host memory over PCIe */
#define SWAI_TIER_PEER      3   /* another CG's Local-HBM (SWAI_DESC_PEER) */
#define SWAI_TIER_FABRIC    4   /* another card's HBM, over the fabric */

/* Where a run of device addresses is (struct swai_engine_ops.locate). */
struct swai_place {
    unsigned tier;          /* SWAI_TIER_* */
    uint8_t *ptr;           /* the bytes in this process; NULL: see dma */
    bool dma;               /* no ptr: reach addr with ops->dma_read/write */
    bool host;              /* addr is a host address, not HBM-physical */
    uint64_t addr;          /* the bytes' identity (semaphore times) */
    unsigned card;          /* SWAI_TIER_FABRIC: the peer card's index */
    uint64_t run;           /* bytes from va served alike, at least 1 */
};
/* No ptr and no dma: the host only times the access (the cost model). */

/* Why an access failed, kept with the job and reported when it ends. */
struct swai_fault {
    uint64_t va;            /* the failing address (MMU, FOREIGN, DMA, ...) */
    int mmu_reason;         /* an MMU fault to latch (SWAI_MMU_R_*), 0: none */
    bool mmu_write;
};

/* A job as its host starts it (swai_engine_begin()). */
struct swai_engine_start {
    uint64_t tag;           /* the host's name for it, given back at the end */
    uint32_t asid;          /* the context its device addresses are in */
    uint64_t prog_va;       /* where its program is (injected faults) */
    uint64_t not_before_ps; /* the modeled time the host launches it at */
    bool peer;              /* may reach other CGs' Local-HBM */
    bool inject_mmu;        /* its first data access faults (not present) */
    bool inject_dma;        /* its first transfer fails on the bus */
    bool inject_hang;       /* it never runs, until reset */
};

/* How a job ended (struct swai_engine_ops.finish). */
struct swai_engine_end {
    uint64_t tag;
    uint32_t asid;
    int status;             /* SWAI_JOB_OK or SWAI_JOB_ERR_* */
    uint32_t pc;            /* failing instruction (status != OK) */
    struct swai_fault fault;
    uint64_t start_ns, end_ns;  /* modeled */
    uint64_t wall_ns;       /* host time it took */
    uint64_t bytes;         /* moved by transfers */
    uint64_t transfer_ps;   /* ... at their paths' full speed */
    uint32_t insns;         /* completed instructions */
};

/* Why a job is not runnable. */
#define SWAI_ENGINE_RUN     0
#define SWAI_ENGINE_SEM     1   /* BARRIER/WAIT: until the semaphore allows */
#define SWAI_ENGINE_HANG    2   /* injected: until the job is aborted */

/* The job in flight on a CG. */
struct swai_engine_job {
    bool active;
    uint64_t tag;
    uint32_t asid;
    uint64_t prog_va;
    const uint8_t *prog;        /* n instructions, little endian */
    uint32_t n;
    uint32_t pc;
    uint32_t insns;             /* completed instructions */
    uint64_t bytes;             /* moved by transfers */
    uint64_t transfer_ps;       /* time they took at full speed */
    uint64_t start_ps;
    uint64_t wall_start;        /* ops->wall_ns() at its start */
    bool inject_mmu, inject_dma, inject_hang;
    bool peer;
    struct swai_fault fault;
    /* Progress of the instruction at pc. */
    bool started;               /* its fixed cost is charged */
    uint64_t done;              /* bytes (transfer) or elements (REDUCE) */
    /* Blocked state. */
    unsigned wait;              /* SWAI_ENGINE_RUN/SEM/HANG */
    bool wait_eq;
    uint64_t wait_va, wait_target, wait_cost_ps;
    /*
     * The semaphore's bytes, when they are this card's own memory in this
     * process (NULL: the host's, or a peer card's): what
     * swai_engine_next_ps() reads, without a step, to see the wait over.
     */
    const uint8_t *wait_ptr;
    /* LDM bytes written by the job: cleared when it ends. */
    uint64_t ldm_lo, ldm_hi;
    struct swai_seq seq;        /* asynchronous work in flight */
};

struct swai_engine_cg {
    uint64_t clock_ps;          /* the CG's modeled clock */
    struct swai_engine_job job;
    struct swai_seq_sb sb;      /* LDM scoreboard of the job */
};

/*
 * When the card wrote a semaphore (BARRIER/WAIT release times): its last
 * writes with their values, so that a wait released by an early value ends
 * at that value's time however late it looks -- which a wait that polls
 * while a peer card runs ahead would otherwise not (datasheet §15.4).
 */
#define SWAI_SEM_WRITES     8
struct swai_engine_sem {
    bool used, host;
    uint64_t addr;
    uint64_t ps;                /* the latest write's time */
    unsigned n, head;           /* writes remembered; the next slot */
    struct {
        uint64_t val, ps;
    } w[SWAI_SEM_WRITES];
};
#define SWAI_ENGINE_SEMS    64

/* What a BARRIER or WAIT waits for: the value reaches (or equals) target. */
struct swai_sem_want {
    uint64_t target;
    bool eq;
};

struct swai_engine;

struct swai_engine_ops {
    /* Jobs: is one queued on CG cg, and start it (swai_engine_begin()). */
    bool (*pending)(void *opaque, unsigned cg);
    void (*start)(void *opaque, unsigned cg);
    /* A job ended; the CG is idle again when this returns. */
    void (*finish)(void *opaque, unsigned cg,
                   const struct swai_engine_end *end);
    /* A FENCE instruction wrote its semaphore. */
    void (*fence)(void *opaque, unsigned cg);
    /* Optional: an instruction starts (traces; the emitters' tests check). */
    void (*insn)(void *opaque, unsigned cg, const struct swai_engine_job *j,
                 const uint8_t *raw);
    /*
     * Where [va, va + len) of the job's context is for CG cg: SWAI_JOB_OK
     * and *p, or SWAI_JOB_ERR_MMU / SWAI_JOB_ERR_FOREIGN with *f filled
     * (va; for MMU the reason).  May run without the lock.
     */
    int (*locate)(void *opaque, unsigned cg, const struct swai_engine_job *j,
                  uint64_t va, uint64_t len, bool write,
                  struct swai_place *p, struct swai_fault *f);
    /* Places with dma: bus-master accesses, 0 on success. */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
                     size_t len);
    uint64_t (*wall_ns)(void *opaque);      /* host monotonic time */
    /*
     * Optional, for places on SWAI_TIER_FABRIC (datasheet §15): book a
     * chunk's @bytes to (@write) or from peer card @card on the links of
     * the route, ready at @ready_ps; returns when the chunk is done: a
     * write's last byte has left the card, a read's has arrived (@first:
     * the instruction's first chunk, which waits for the route's latency;
     * later chunks follow it as a pipeline).
     */
    uint64_t (*fabric_book)(void *opaque, unsigned card, bool write,
                            uint64_t ready_ps, uint64_t bytes, bool first);
    /*
     * Optional: the semaphore at HBM address @addr of peer card @card was
     * set to @val at @ps (it is there the route's latency later), and when
     * it came to hold what @want asks, as seen from here (0: no
     * constraint).
     */
    void (*fabric_sem_store)(void *opaque, unsigned card, uint64_t addr,
                             uint64_t val, uint64_t ps);
    uint64_t (*fabric_sem_time)(void *opaque, unsigned card, uint64_t addr,
                                const struct swai_sem_want *want);
    /* Around the bulk of a step; NULL: nothing to drop. */
    void (*unlock)(void *opaque);
    void (*lock)(void *opaque);
    /*
     * Optional, for cards joined by a fabric: may this card take its next
     * step, of a CG whose clock is @at_ps, now -- could no other card of
     * the fabric step at an earlier modeled time (swai_engine_next_ps; on
     * a tie the lower card goes first)?  With it the cards of a node take
     * their steps in one modeled-time order whatever order their threads
     * run in, so two CGs that share a link are served in the same order
     * on every run and by the cost model (datasheet §14.6).
     */
    bool (*may_step)(void *opaque, uint64_t at_ps);
};

/* The arithmetic, for hosts that move data (swai-arith.h: swai_arith). */
struct swai_engine_arith {
    void (*reduce)(uint8_t *dst, const uint8_t *src, uint64_t n,
                   unsigned dtype, unsigned rop);
    void (*div)(uint8_t *dst, uint64_t n, unsigned dtype, uint64_t d);
    void (*compute)(const struct swai_cop *c, uint8_t *ldm);
};

struct swai_engine {
    struct swai_timing_props tp;
    uint64_t ldm_bytes;         /* per CG */
    const struct swai_engine_ops *ops;
    void *opaque;
    /* Data: NULL ldm (and arith) times programs without computing them. */
    uint8_t *ldm;               /* SWAI_ENGINE_CGS * ldm_bytes */
    const struct swai_engine_arith *arith;
    uint64_t *sb_mem;           /* the CGs' LDM scoreboards */
    uint32_t gen;               /* bumped by every reset */
    struct swai_timing timing;  /* the shared paths */
    uint64_t clock_ps;          /* latest end of any job */
    bool held;                  /* the last step waited for another card */
    uint64_t wall0;             /* ops->wall_ns() at reset */
    struct swai_engine_sem sem[SWAI_ENGINE_SEMS];
    struct swai_engine_cg cg[SWAI_ENGINE_CGS];
    uint8_t bounce[SWAI_CHUNK]; /* host-to-host COPY streams through here */
};

/*
 * Set up an engine for a CG of ldm_bytes of LDM under tp; nothing runs
 * until swai_engine_attach().
 */
void swai_engine_init(struct swai_engine *e, const struct swai_timing_props *tp,
                      uint64_t ldm_bytes, const struct swai_engine_ops *ops,
                      void *opaque);
/*
 * Give the engine its LDM (SWAI_ENGINE_CGS * ldm_bytes, zeroed) and the
 * arithmetic to run on it, or NULL and NULL to only time programs.
 * Allocates the scoreboards: false without memory (nothing attached).
 */
bool swai_engine_attach(struct swai_engine *e, uint8_t *ldm,
                        const struct swai_engine_arith *arith);
void swai_engine_detach(struct swai_engine *e);
/* Device reset: every job dropped without a finish, clocks back to 0. */
void swai_engine_reset(struct swai_engine *e);

/*
 * One bounded piece of work; false when nothing could be done (nothing to
 * run, or ops->may_step said another card goes first).
 */
bool swai_engine_step(struct swai_engine *e);
/*
 * True while a CG waits on a semaphore someone else may write, or the
 * card waits for another card to step first (poll).
 */
bool swai_engine_polling(const struct swai_engine *e);
/*
 * The earliest modeled time (ps) at which this card's next step can be:
 * the smallest clock of a CG that is runnable, has a job queued, or waits
 * on a semaphore of its own card that already allows it; UINT64_MAX when
 * none.  Reads only (the fabric asks it of every card: swai-fabric.h).
 */
uint64_t swai_engine_next_ps(const struct swai_engine *e);

/* From ops->start: the job begins (clock, launch cost) ... */
void swai_engine_begin(struct swai_engine *e, unsigned cg,
                       const struct swai_engine_start *st);
/* ... its program is read through its context (SWAI_JOB_OK or an error) ... */
int swai_engine_fetch(struct swai_engine *e, unsigned cg, uint64_t va,
                      uint8_t *buf, uint64_t len);
/* ... and it runs n instructions at prog (kept until the job ends). */
void swai_engine_load(struct swai_engine *e, unsigned cg, const uint8_t *prog,
                      uint32_t n);
/* End CG cg's job now with status (a failed start, a queue reset). */
void swai_engine_end(struct swai_engine *e, unsigned cg, int status);

bool swai_engine_busy(const struct swai_engine *e, unsigned cg);
/* The latest end of any job, and a CG's clock: ns. */
uint64_t swai_engine_clock_ns(const struct swai_engine *e);
uint64_t swai_engine_cg_clock_ns(const struct swai_engine *e, unsigned cg);

#endif /* SWAI_ENGINE_H */
