/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-card.h - the SW-AI card as its driver sees it through BAR0, without
 * QEMU: register semantics, reset, interrupts and the device memory layout,
 * built from units that each reach only what they need (the interrupt lines
 * swai-irq.h, the layout swai-layout.h, the MMU swai-mmu.h, the command
 * processor swai-cp.h with the engine that runs jobs,
 * tools/card/swai-engine.h).  tools/qemu/swai-pci.c is the thin glue that
 * turns its callbacks (swai-glue.h) into MSI-X messages, bottom halves and
 * the MPE thread; the host unit tests (tools/qemu/tests/) drive it
 * directly under ASan/UBSan.
 *
 * Threading: the glue calls every function under the BQL, so the card
 * keeps no locks.  MMIO handlers only update registers; anything slow is
 * recorded in 'work' and done by swai_card_bh() after ops->kick(), or is
 * queue work done by swai_card_step() on the glue's MPE thread after
 * ops->wake().  The one exception: a step moves a chunk of data with the
 * lock dropped (ops->unlock/lock), touching only memory (HBM, LDM, host)
 * and a copy of the job, and checks for a reset when it has the lock again.
 */
#ifndef SWAI_CARD_H
#define SWAI_CARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swai_regs.h"
#include "swai-board.h"
#include "swai-cp.h"
#include "swai-glue.h"
#include "swai-irq.h"
#include "swai-layout.h"
#include "swai-mmu.h"
#include "swai-netport.h"
#include "swai-timing.h"

/* Board configuration, fixed for the life of the device (QEMU properties). */
struct swai_props {
    uint32_t hbm_mb;    /* HBM per controller (== per CG), MiB */
    uint32_t local_mb;  /* Local segment per CG at reset, MiB */
    uint32_t cpes;      /* compute cores per CG */
    uint32_t ldm_kb;    /* LDM per CPE, KiB */
    struct swai_timing_props t; /* timing model, tools/card/swai-timing.h */
};

/* Background work, bits of swai_card.work. */
#define SWAI_WORK_RESET     (1u << 0)
#define SWAI_WORK_MMU_PROBE (1u << 1)   /* PROBE_GO written, see swai-mmu.h */

struct swai_card {
    struct swai_props props;    /* validated, local_mb resolved */
    struct swai_glue glue;

    uint32_t status;            /* SWAI_STATUS_* */
    uint32_t scratch;
    uint32_t error;             /* SWAI_ERR_* */
    uint32_t work;              /* SWAI_WORK_*, pending for swai_card_bh() */
    struct swai_layout layout;  /* layout.local_mb: the Local/Global switch */
    struct swai_irq irq;
    struct swai_mmu mmu;
    struct swai_cp cp;
    uint32_t fabric_peer;       /* FABRIC_PEER */
    struct swai_netport nic;    /* the network port, datasheet §16 */
};

/* Fill in the defaults the QEMU properties also use. */
void swai_card_props_init(struct swai_props *p);
/*
 * Check a property set and resolve SWAI_LOCAL_MB_AUTO.  Returns NULL when it
 * is usable, else a static message naming the offending property.
 */
const char *swai_card_props_validate(struct swai_props *p);

/* Bind to validated props and callbacks, then hard-reset (READY is set). */
void swai_card_init(struct swai_card *s, const struct swai_props *p,
                    const struct swai_glue_ops *ops, void *opaque);
/*
 * Give the card the memory it executes programs in: hbm (HBM-physical, as
 * BAR2 shows it) and ldm (swai_card_ldm_bytes() per CG, zeroed).  Until
 * then queues accept registers but run nothing.  The card allocates its
 * LDM scoreboards here (false: out of memory, nothing attached) and frees
 * them when ldm is NULL (detach).
 */
bool swai_card_attach(struct swai_card *s, uint8_t *hbm, uint8_t *ldm);
uint64_t swai_card_ldm_bytes(const struct swai_card *s);  /* per CG */
/*
 * After attach: join fabric @f as its card @card (0, or -errno with @why),
 * and leave it (before detach; see swai-fabric.h for the grace period).
 */
int swai_card_join_fabric(struct swai_card *s, struct swai_fabric *f,
                          unsigned card, char *why, size_t n);
void swai_card_leave_fabric(struct swai_card *s);
/* Hard reset (Resettable hold phase): defaults now, pending work dropped. */
void swai_card_reset(struct swai_card *s);
/* Bottom half: perform the work recorded in s->work. */
void swai_card_bh(struct swai_card *s);
/* The MPE thread: one bounded piece of queue work; false when idle. */
bool swai_card_step(struct swai_card *s);
/* True while a CG waits on a semaphore the host may write (poll it). */
bool swai_card_polling(const struct swai_card *s);

/* BAR0 accesses.  Only aligned 32-bit accesses are meaningful. */
uint32_t swai_card_mmio_read(struct swai_card *s, uint64_t off, unsigned size);
void swai_card_mmio_write(struct swai_card *s, uint64_t off, uint64_t val,
                          unsigned size);

#endif /* SWAI_CARD_H */
