/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-core.h - QEMU-independent model of the SW-AI card.
 *
 * The core owns everything a driver can observe through BAR0: register
 * semantics, reset values, interrupt status, and the device memory layout
 * (Local and Global HBM).  It knows nothing about QEMU, so it is unit-tested
 * on the host (tools/qemu/tests/); tools/qemu/swai.c is the thin glue that
 * turns its callbacks into MSI-X messages and bottom halves.
 *
 * Threading: the glue calls every function under the BQL, so the core keeps
 * no locks.  MMIO handlers only update registers; anything slow is recorded
 * in 'work' and done by swai_core_bh() after ops->kick(), or is queue work
 * done by swai_cp_step() on the glue's MPE thread after ops->wake().  The
 * one exception: swai_cp_step() moves a chunk of data with the lock
 * dropped (ops->unlock/lock), touching only memory (HBM, LDM, host) and
 * a copy of the job, and checks for a reset when it has the lock again.
 */
#ifndef SWAI_CORE_H
#define SWAI_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swai_regs.h"
#include "swai-cp.h"
#include "swai-mmu.h"
#include "swai-timing.h"

/* Property limits; realize reports a violation with the message below. */
#define SWAI_HBM_MB_MIN     1
#define SWAI_HBM_MB_MAX     16384
#define SWAI_CPES_MIN       1
#define SWAI_CPES_MAX       64
#define SWAI_LDM_KB_MIN     16
#define SWAI_LDM_KB_MAX     1024
#define SWAI_LOCAL_MB_AUTO  UINT32_MAX  /* local-mb = hbm-mb / 2 */

/* Board configuration, fixed for the life of the device (QEMU properties). */
struct swai_props {
    uint32_t hbm_mb;    /* HBM per controller (== per CG), MiB */
    uint32_t local_mb;  /* Local segment per CG at reset, MiB */
    uint32_t cpes;      /* compute cores per CG */
    uint32_t ldm_kb;    /* LDM per CPE, KiB */
    struct swai_timing_props t; /* timing model, swai-timing.h */
};

/*
 * Callbacks into the glue.  notify, kick and wake are cheap and may be
 * called from MMIO; dma_read/dma_write are bus-master accesses to host
 * memory (0 on success) used from the bottom half and swai_cp_step() only.
 * unlock/lock bracket the bulk data movement of a step (see swai-cp.h):
 * the glue drops and retakes the lock the core otherwise runs under.
 */
struct swai_core_ops {
    void (*notify)(void *opaque, unsigned vector);  /* fire MSI-X vector */
    void (*kick)(void *opaque);         /* run swai_core_bh() soon */
    void (*wake)(void *opaque);         /* run swai_cp_step() soon */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
                     size_t len);
    uint64_t (*wall_ns)(void *opaque);  /* host monotonic time, ns */
    void (*unlock)(void *opaque);
    void (*lock)(void *opaque);
};

/* Background work, bits of swai_core.work; later issues add queue work. */
#define SWAI_WORK_RESET     (1u << 0)
#define SWAI_WORK_MMU_PROBE (1u << 1)   /* PROBE_GO written, see swai-mmu.h */

struct swai_core {
    struct swai_props props;    /* validated, local_mb resolved */
    const struct swai_core_ops *ops;
    void *opaque;

    uint32_t status;            /* SWAI_STATUS_* */
    uint32_t scratch;
    uint32_t error;             /* SWAI_ERR_* */
    uint32_t local_mb;          /* current Local/Global switch */
    uint32_t irq_status;
    uint32_t irq_enable;
    uint32_t work;              /* SWAI_WORK_*, pending for swai_core_bh() */
    struct swai_queue q[SWAI_NUM_CG];
    struct swai_mmu mmu;
    struct swai_cp cp;
    /* Memory the glue owns (swai_core_attach); NULL: nothing executes. */
    uint8_t *hbm;               /* HBM-physical space, 4 * hbm-mb MiB */
    uint8_t *ldm;               /* NUM_CG * cpes * ldm-kb KiB */
    uint64_t *sb_mem;           /* the CGs' LDM scoreboards (swai-sched.h) */
};

/* Where a device address lands: HBM controller and offset within it. */
struct swai_loc {
    unsigned ctrl;      /* HBM controller == core group */
    uint64_t off;       /* byte offset inside that controller */
    uint64_t phys;      /* HBM-physical = ctrl * hbm + off (BAR2 offset) */
    uint64_t run;       /* bytes contiguous from here in both spaces */
};

/* Fill in the defaults the QEMU properties also use. */
void swai_props_init(struct swai_props *p);
/*
 * Check a property set and resolve SWAI_LOCAL_MB_AUTO.  Returns NULL when it
 * is usable, else a static message naming the offending property.
 */
const char *swai_props_validate(struct swai_props *p);

/* Bind to validated props and callbacks, then hard-reset (READY is set). */
void swai_core_init(struct swai_core *s, const struct swai_props *p,
                    const struct swai_core_ops *ops, void *opaque);
/*
 * Give the core the memory it executes programs in: hbm (HBM-physical, as
 * BAR2 shows it) and ldm (swai_core_ldm_bytes() per CG, zeroed).  Until
 * then queues accept registers but run nothing.  The core allocates its
 * LDM scoreboards here (false: out of memory, nothing attached) and frees
 * them when ldm is NULL (detach).
 */
bool swai_core_attach(struct swai_core *s, uint8_t *hbm, uint8_t *ldm);
uint64_t swai_core_ldm_bytes(const struct swai_core *s);  /* per CG */
/* Hard reset (Resettable hold phase): defaults now, pending work dropped. */
void swai_core_reset(struct swai_core *s);
/* Bottom half: perform the work recorded in s->work. */
void swai_core_bh(struct swai_core *s);

/* Set IRQ_STATUS bits (SWAI_IRQ_ALL), signalling new pending&enabled ones. */
void swai_core_irq_raise(struct swai_core *s, uint32_t bits);

/* BAR0 accesses.  Only aligned 32-bit accesses are meaningful. */
uint32_t swai_core_mmio_read(struct swai_core *s, uint64_t off, unsigned size);
void swai_core_mmio_write(struct swai_core *s, uint64_t off, uint64_t val,
                          unsigned size);

/* Memory layout under the current Local/Global switch. */
uint64_t swai_core_hbm_bytes(const struct swai_core *s);    /* per ctrl */
uint64_t swai_core_local_bytes(const struct swai_core *s);  /* per CG */
uint64_t swai_core_global_bytes(const struct swai_core *s); /* total */
/*
 * Translate device address 'addr' as issued by core group 'cg': addresses
 * below SWAI_GLOBAL_BASE are that CG's private Local-HBM, addresses from
 * SWAI_GLOBAL_BASE on are Global-HBM.  Returns false when the address is not
 * backed (or cg is out of range); 'loc' is then untouched.
 */
bool swai_core_translate(const struct swai_core *s, unsigned cg,
                         uint64_t addr, struct swai_loc *loc);

#endif /* SWAI_CORE_H */
