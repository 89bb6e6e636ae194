/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sim.h - a schedule (tools/cluster/swai-sched.h) replayed on SimGrid
 * over a topology file (tools/cluster/swai-topo.h): every rank an actor on
 * its card's host, the links SimGrid's, their sharing SimGrid's flow-level
 * model (Documentation/cluster.md §8).
 *
 * A rank's actor runs its steps in the schedule's issue order
 * (swai_sched_issue_order, as libswccl's programs do), with the costs of
 * the schedule cost model (swai-sched-cost.h), from the card timing
 * model's parameters:
 *   SEND         starts one DMA command (t-dma-ns) after it is issued, or
 *                once the message before it to the same peer has left
 *                (one queue pair a peer, first come, first served, as the
 *                fabric's calendars and the cost model book a link), and
 *                moves its bytes over the route; the actor goes on (the
 *                receiver's mailbox takes the bytes as they come);
 *   RECV         waits for the bytes, then a DMA command and a wake-up
 *                (t-barrier-ns);
 *   RECV_REDUCE  the same, then 3 x bytes through Local-HBM at
 *                local-mbps x the card's core groups;
 *   COPY/REDUCE  a DMA command, then 2 x / 3 x bytes likewise.
 * A step that depends on a send waits until that send's bytes arrived.
 *
 * So where no link carries messages to two peers at once, a schedule's
 * time here is the cost model's; where one does, SimGrid shares the link
 * max-min fairly while the cost model books it first come, first served,
 * and the two differ (both are estimates of the fabric's calendars there).
 *
 * With as_card, a rank is instead one core group of the emulated card
 * running libswccl's lowering (swai-sched-card.h, card_act in swai-sim.c):
 * its sends block until their last byte has left, a message is at the
 * receiver the route's latency later, every WAIT costs its wake-up, and a
 * rank's first message to a peer waits for the peer to have started --
 * the emulator's time, to the nanosecond on the validation suite's rows.
 */
#ifndef SWAI_SIM_H
#define SWAI_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "swai-sched.h"
#include "swai-timing.h"
#include "swai-topo.h"

struct swai_sim_in {
    const struct swai_sched *s;
    const struct swai_topo *t;
    const struct swai_timing_props *card;   /* NULL: the card's defaults */
    uint64_t bytes;             /* the data the schedule's chunks cut */
    const int *rank_card;       /* rank -> card; NULL: rank r on card r */
    bool as_card;               /* each rank as a card's core group runs it (swai-sched-card.h) */
    bool bare;                  /* the baseline: the same transfers as plainly as SimGrid's
                                 * C API allows, for its wall time alone (out->us is not
                                 * the schedule's: a rank waits for its sends) */
};

struct swai_sim_out {
    double us;                  /* from the start to the last rank's end */
    double wall_s;              /* what simulating it took here */
    uint64_t transfers;         /* sends replayed */
};

/*
 * Simulate @in in a child process (SimGrid's engine is once per process).
 * 0, or -errno with the reason in @why.
 */
int swai_sim_run(const struct swai_sim_in *in, struct swai_sim_out *out,
                 char *why, size_t n);

#endif /* SWAI_SIM_H */
