/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-links.h - the links of a topology as the timing model books them:
 * one calendar (swai-timing.h: struct swai_cal) per link direction, or
 * per link when its capacity is shared, and the one rule for putting a
 * transfer on a route.
 *
 * The rule (Documentation/cluster.md §4.2): a transfer of d = bytes / the
 * route's narrowest bandwidth takes every hop for the same d from the
 * first time all of them are free (cut-through), and its last byte is at
 * the far end the route's latency after it left.  A hop k times as wide
 * as that rate carries k such transfers at once: it has k calendars
 * (lanes, at most SWAI_LINKS_LANES), and a transfer takes the first lane
 * free for it -- a Clos's 200 GB/s uplink carries eight 25 GB/s ports'
 * transfers side by side instead of one after another.  The cost model
 * (swai-sched-cost.c) and the emulated fabric (swai-fabric.c)
 * both book through swai_links_book(), so a transfer costs the same in
 * both.
 */
#ifndef SWAI_LINKS_H
#define SWAI_LINKS_H

#include <stdint.h>

#include "swai-timing.h"
#include "swai-topo.h"

#define SWAI_LINKS_LANES 16

struct swai_links {
    const struct swai_topo *t;
    int n;                      /* swai_topo_nresources(t) */
    /* [n * SWAI_LINKS_LANES]: resource r's lane k at r * LANES + k, each
     * allocated when first booked (a lane never booked is free) */
    struct swai_cal **cal;
    uint64_t *bytes;            /* [n]: booked so far */
    int *lane, nlane;           /* scratch: the lane each hop of a route books */
};

/* 0 or -ENOMEM; every link free at time 0. */
int swai_links_init(struct swai_links *l, const struct swai_topo *t);
void swai_links_free(struct swai_links *l);
/* Every link free at time 0 again (a reset). */
void swai_links_reset(struct swai_links *l);

/*
 * Book @bytes over route @rt, ready at @ready_ps: 0 with *start (when the
 * first byte leaves) and *end (when the last byte has left; it arrives
 * rt->latency_ns later), or -ENOMEM (nothing booked).
 */
int swai_links_book(struct swai_links *l, const struct swai_topo_route *rt,
                    uint64_t ready_ps, uint64_t bytes, uint64_t *start,
                    uint64_t *end);
/* The most bytes booked on one resource so far. */
uint64_t swai_links_busiest(const struct swai_links *l);

#endif /* SWAI_LINKS_H */
