/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sim-platform.h - the SimGrid platform of a topology file
 * (tools/cluster/swai-topo.h), written as SimGrid's XML, so that the
 * simulator reads no second topology language: one host per card; each
 * way of a full-duplex topology link its own SimGrid link (a "shared" link
 * one, both ways); and, for every pair of cards a schedule sends between,
 * the route swai_topo_route() chooses -- the same hops the cost model and
 * the emulated fabric book.
 *
 * Latencies are the cost model's: a way's SimGrid latency is the link's,
 * plus one DMA command (t-dma-ns, the delay between a step being ready and
 * its bytes moving) if it leaves a card, plus the switch's if it enters
 * one.  Two core groups of one card send over its ring bus (ring-mbps).
 * For the emulated card (@card, swccl-sim --card) the links have none: its
 * fabric moves a write's bytes at once and a message is at the receiver
 * the route's latency after its last byte left (tools/cluster/swai-fabric.c),
 * which the receiving actor adds (lat_ns).
 */
#ifndef SWAI_SIM_PLATFORM_H
#define SWAI_SIM_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "swai-timing.h"
#include "swai-topo.h"

/*
 * Write the platform of @t to @f: hosts "c<k>" for the cards, and routes
 * for the pairs (a, b) of cards with want[a * t->ncards + b] set, whose
 * narrowest link's MB/s go to mbps[a * t->ncards + b] (0 within a card),
 * whose latency (the links' and switches') to lat_ns[a * t->ncards + b]
 * and whose first hop, the card's way out, to out[a * t->ncards + b]
 * (swai_topo_resource(); -1 within a card).  0, or -ENOENT (a wanted pair
 * the topology does not join) / -ENOMEM with @why.
 */
int swai_sim_platform_write(FILE *f, const struct swai_topo *t,
                            const struct swai_timing_props *p, bool card,
                            const bool *want, uint32_t *mbps, uint32_t *lat_ns,
                            int32_t *out, char *why, size_t n);

#endif /* SWAI_SIM_PLATFORM_H */
