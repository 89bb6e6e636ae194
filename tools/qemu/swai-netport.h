/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-netport.h - the card's network port (datasheet §16), QEMU-
 * independent: the NIC registers, seed 001's collective engine
 * (tools/card/swai-nic.h) behind them, the reliable delivery of its
 * packets (swai-rel.h) and its reach into memory through the MMU.
 *
 * Each of the engine's 16 virtual ports belongs to one context
 * (PORT_ASID, written by the driver; 0: closed): the port's descriptors
 * and the packets that arrive for it reach memory only through that
 * context's page tables, and only packets carrying the port's key get in.
 * A packet's modeled time is fixed by its sender (tools/card/swai-nic.h:
 * the port's wire at nic-mbps, then nic-lat-ns) and travels in the frame,
 * so a resend never changes modeled time.
 *
 * Locking: every function is called with the card's lock held (QEMU: the
 * BQL), like the rest of swai-card.
 */
#ifndef SWAI_NETPORT_H
#define SWAI_NETPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "swai_regs.h"
#if __has_include(<drm/swai_nic.h>)
#include <drm/swai_nic.h>
#else
#include "swai_nic.h"       /* the copy build-qemu.sh puts beside it */
#endif
#include "swai-glue.h"
#include "swai-irq.h"
#include "swai-mmu.h"
#include "swai-nic.h"
#include "swai-rel.h"
#include "swai-timing.h"

/* What the glue gives a port on a network. */
struct swai_netport_net {
    void (*tx)(void *opaque, const uint8_t *frame, size_t len);
    /* Call swai_netport_tick() at wall time @ns (0: no need). */
    void (*timer)(void *opaque, uint64_t ns);
};

struct swai_netport_cqe {
    uint32_t entry, index;      /* SWAI_REG_NIC_CQ_ENTRY, _INDEX */
    uint64_t time_ns;
};

struct swai_netport_vport {
    uint32_t asid;              /* 0: closed */
    uint16_t key;
    struct swai_netport_cqe cq[SWAI_NIC_CQ_DEPTH];
    unsigned cq_head, cq_n;
};

struct swai_netport {
    unsigned node;              /* SWAI_NIC_NODE_NONE: no network */
    struct swai_nic *nic;
    struct swai_rel *rel;
    const struct swai_netport_net *net;
    void *net_opaque;
    const struct swai_glue *glue;
    struct swai_mmu *mmu;
    struct swai_irq *irq;
    uint8_t *hbm;               /* HBM-physical space */
    uint64_t hbm_bytes;
    /* Fault injection (nic-drop-pm, nic-reorder-pm): per mille of frames. */
    uint32_t drop_pm, reorder_pm;
    uint64_t rng;
    uint8_t held[SWAI_REL_FRAME];       /* a frame kept back to reorder */
    size_t held_len;
    /* Registers. */
    uint32_t sel;               /* NIC_VPORT */
    uint64_t time_ns;           /* NIC_TIME */
    uint32_t post_status;
    uint8_t desc[SWAI_NIC_DESC_SIZE];
    struct swai_netport_cqe taken;      /* CQ_* after a CQ_POP */
    struct swai_netport_vport vport[SWAI_NIC_VPORTS];
};

void swai_netport_init(struct swai_netport *np, const struct swai_glue *glue,
                       struct swai_mmu *mmu, struct swai_irq *irq);
/* The card's HBM, once QEMU has it. */
void swai_netport_attach_hbm(struct swai_netport *np, uint8_t *hbm,
                             uint64_t bytes);
/* Put the port on a network as @node: 0, or -ENOMEM / -EINVAL. */
int swai_netport_connect(struct swai_netport *np, unsigned node,
                         const struct swai_netport_net *net, void *opaque,
                         const struct swai_timing_props *tp);
void swai_netport_free(struct swai_netport *np);
/*
 * Test the link: drop @drop_pm and reorder @reorder_pm per mille of the
 * frames this port sends (a kept-back frame goes out after the next one),
 * pseudo-randomly from @seed, so a run replays.
 */
void swai_netport_faults(struct swai_netport *np, uint32_t drop_pm,
                         uint32_t reorder_pm, uint64_t seed);
/* Device reset: every port closed and emptied (the link keeps its state). */
void swai_netport_reset(struct swai_netport *np);

/* Registers; false when @off is not the NIC's. */
bool swai_netport_read(const struct swai_netport *np, uint64_t off,
                       uint32_t *val);
bool swai_netport_write(struct swai_netport *np, uint64_t off, uint32_t v);

/* A frame from the network, and the glue's timer. */
void swai_netport_rx(struct swai_netport *np, const uint8_t *frame, size_t len);
void swai_netport_tick(struct swai_netport *np);

#endif /* SWAI_NETPORT_H */
