/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-cost.h - what a schedule costs on a topology: every step
 * timed with the card timing model's parameters and arithmetic
 * (tools/card/swai-timing.h) and every transfer booked on the calendars
 * of the links its route crosses.
 *
 * A rank issues its steps in order, one DMA command (t-dma-ns) each; a
 * step starts when its dependencies are done and it is issued.  A send
 * takes its route's narrowest bandwidth on every hop at once (cut-through)
 * from the first time all of them are free, and its data arrives the
 * route's latency later.  A receive ends when its data has arrived and its
 * rank is woken (t-barrier-ns); reductions and copies move their bytes
 * through the card's Local-HBM (local-mbps per core group, all core groups
 * of the card).  Sends are booked in the order of their start times, so
 * the result depends on the schedule and the topology only.
 *
 * This is the α-β model of seed 000 with contention: α is the DMA command,
 * the wake-up and the route's latency, β the link.  The emulated fabric
 * (datasheet §15) books a card's transfers on the same link calendars by
 * the same rule (swai-links.h); what a schedule costs as the card programs
 * libswccl lowers it to (launches, steps, 64 KiB chunks) is libswccl's
 * cost model's, which runs those programs on the card's engine.
 */
#ifndef SWAI_SCHED_COST_H
#define SWAI_SCHED_COST_H

#include <stddef.h>
#include <stdint.h>

#include "swai-sched.h"
#include "swai-timing.h"
#include "swai-topo.h"

struct swai_sched_cost_in {
    uint64_t bytes;             /* the data the schedule's chunks cut */
    const int *rank_card;       /* rank -> card of the topology (ranks may share
                                   one: its core groups); NULL: r */
    const struct swai_timing_props *card;   /* NULL: the card's defaults */
};

struct swai_sched_cost_out {
    uint64_t ps;                /* from the start to the last step's end */
    uint64_t link_bytes;        /* over every hop of every link */
    uint64_t busiest_bytes;     /* over the busiest link direction */
};

/*
 * 0, or -EINVAL (a rank without a card, two ranks on one card, a pair
 * without a route) / -ENOMEM, with the reason in @why.
 */
int swai_sched_cost(const struct swai_sched *s, const struct swai_topo *t,
                    const struct swai_sched_cost_in *in,
                    struct swai_sched_cost_out *out, char *why, size_t n);

/* Bytes of chunks [off, off + count) when each block of chunks is @bytes. */
uint64_t swai_sched_range_bytes(const struct swai_sched *s, uint64_t bytes,
                                uint32_t off, uint32_t count);

/*
 * A local step's time from when it is ready, or a receive's from when its
 * bytes are there (the rule above: a DMA command, a wake-up for receives,
 * the bytes moved through Local-HBM of @cgs core groups); the simulator
 * charges the same.
 */
uint64_t swai_sched_local_ps(const struct swai_sched *s, const struct swai_step *st,
                             uint64_t bytes, int cgs,
                             const struct swai_timing_props *p);

#endif /* SWAI_SCHED_COST_H */
