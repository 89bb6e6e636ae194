/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-fabric.h - the card-to-card fabric of one node (QEMU-independent;
 * the device model's, tools/qemu/, and libswccl's model of cards joined by
 * it, collectives/swccl_xcost.c):
 * the cards of a QEMU instance joined by the links of a topology file
 * (tools/cluster/swai-topo.h), over which a card's programs reach a peer
 * card's HBM without host memory (datasheet §15).
 *
 * A card joins as one card of the topology (its fabric index).  Its MMU
 * maps a page of a peer's HBM with a SWAI_PTE_FABRIC entry naming the
 * peer; the command processor asks the fabric where such a page is
 * (swai_fabric_locate) and what moving a chunk over it costs
 * (swai_fabric_book: the route's links, booked on the same calendars and
 * by the same rule as the cost model, tools/cluster/swai-links.h).  A
 * semaphore written over the fabric is recorded with its owner at the
 * modeled time it arrives, the writer's clock plus the route's latency, so
 * a wait on a peer's signal ends no earlier than that.  And the cards step
 * in one modeled-time order (swai_fabric_may_step), so where two senders
 * share a link the order of their bookings does not depend on which
 * card's thread ran first (datasheet §15.4).
 *
 * Locking: every function is called under the BQL (the host unit tests
 * have one thread).  swai_fabric_locate() also runs without it, inside
 * the caller's unlocked window, which the glue makes an RCU read-side
 * section: a card leaves the fabric under the BQL, and QEMU frees its HBM
 * (a RAM block) only after a grace period, so a peer that located a page
 * of it before it left finishes its copy on memory that is still there.
 * Routes are computed when a card joins and only read afterwards.
 * swai_fabric_may_step() and swai_fabric_stepped() read the other cards'
 * engines (swai_engine_next_ps): under the BQL their state is whole, as
 * a step in its unlocked window works on a copy of its job.
 */
#ifndef SWAI_FABRIC_H
#define SWAI_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swai-engine.h"
#include "swai-links.h"
#include "swai-topo.h"

/* What a card brings to the fabric. */
struct swai_fabric_port {
    uint8_t *hbm;               /* its HBM-physical space, as BAR2 shows it */
    uint64_t hbm_bytes;
    struct swai_engine *engine; /* where its semaphore times are kept */
    /* Optional: wake the card's thread, whose turn it may be (below). */
    void (*wake)(void *opaque);
    void *wake_opaque;
};

/* A route between two cards as the card's registers report it. */
struct swai_fabric_path {
    uint32_t hops;
    uint32_t mbps;              /* the narrowest link */
    uint32_t latency_ns;        /* links and switches, saturated */
};

struct swai_fabric {
    struct swai_topo topo;
    struct swai_links links;
    uint32_t tag;               /* the same on every card of this fabric */
    unsigned ncards;
    struct swai_fabric_port *port;  /* [ncards]; hbm NULL: not joined */
    /* Routes to and from joined cards: [from * ncards + to]. */
    struct swai_topo_route *route;
    signed char *route_state;   /* 0 unknown, 1 ok, -1 none */
};

/*
 * A fabric on topology @t, which it takes over (freed with the fabric,
 * also on failure).  NULL with the reason in @why.
 */
struct swai_fabric *swai_fabric_new(struct swai_topo *t, char *why, size_t n);
void swai_fabric_free(struct swai_fabric *f);

/* Card @card of the topology joins (0), or -EINVAL/-EBUSY with @why. */
int swai_fabric_join(struct swai_fabric *f, unsigned card,
                     const struct swai_fabric_port *port, char *why,
                     size_t n);
/* It leaves: its pages fault from now on (see the locking rule above). */
void swai_fabric_leave(struct swai_fabric *f, unsigned card);

/*
 * The route from card @from to card @to: true and *p, or false (the same
 * card, not a card of the topology, or no route).
 */
bool swai_fabric_path(struct swai_fabric *f, unsigned from, unsigned to,
                      struct swai_fabric_path *p);

/*
 * Where HBM-physical @addr of card @to is for card @from, @len bytes
 * translated alike by the MMU: 0 with *p (tier SWAI_TIER_FABRIC, ptr, run:
 * @len clipped to the peer's HBM),
 * or SWAI_MMU_R_BAD_TARGET: @to is this card, is not joined, cannot be
 * reached, or @addr is beyond its HBM.
 */
int swai_fabric_locate(struct swai_fabric *f, unsigned from, unsigned to,
                       uint64_t addr, uint64_t len, struct swai_place *p);

/* struct swai_engine_ops.fabric_book, for card @from. */
uint64_t swai_fabric_book(struct swai_fabric *f, unsigned from, unsigned to,
                          bool write, uint64_t ready_ps, uint64_t bytes,
                          bool first);
/* struct swai_engine_ops.fabric_sem_store / fabric_sem_time, for @from. */
void swai_fabric_sem_store(struct swai_fabric *f, unsigned from, unsigned to,
                           uint64_t addr, uint64_t val, uint64_t ps);
uint64_t swai_fabric_sem_time(struct swai_fabric *f, unsigned from,
                              unsigned to, uint64_t addr,
                              const struct swai_sem_want *want);

/*
 * The order of the cards' steps (struct swai_engine_ops.may_step, for
 * @card): true when no other joined card could step at a modeled time
 * before @at_ps (swai_engine_next_ps), or at it with a lower index.  The
 * card whose step is first always may, so the cards never all wait.
 */
bool swai_fabric_may_step(const struct swai_fabric *f, unsigned card,
                          uint64_t at_ps);
/*
 * After @card stepped (and may have released a peer's wait or moved past
 * it): wake the card whose step is now first, if it is another.  Hosts
 * that step the cards from one thread need not call it.
 */
void swai_fabric_stepped(const struct swai_fabric *f, unsigned card);

#endif /* SWAI_FABRIC_H */
