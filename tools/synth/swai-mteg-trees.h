/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-trees.h - the planner's trees while it plans them, shared by
 * its three steps: placing them in an order (swai-mteg-place.c), ours
 * improving a plan above its bound (swai-mteg-improve.c), and the plan
 * as a whole (swai-mtegcca.c, swai_mteg_plan).  Internal to tools/synth.
 */
#ifndef SWAI_MTEG_TREES_H
#define SWAI_MTEG_TREES_H

#include <stddef.h>

#include "swai-mteg.h"

/* One collective's trees (AllToAll: its demands' paths) and how they are planned. */
struct swai_mteg_trees {
    enum swai_coll coll;
    int root, nsrc;
    uint32_t chunks;
    unsigned flags;
    struct swai_mteg_hop *hops;
    int *nhops;
    int *ends;      /* [tree]: its last arrival */
    const int *quota;   /* [src * nedges + e]: swai_mteg_pack's chunks, or NULL */
};

/*
 * Past this many trees x edges the tries below are left out: a plan takes
 * seconds and the tries about twice that.  AMD x 10 at one chunk has 4
 * million (64 MiB: 566.2 -> 411.0 us, 3.0 -> 8.4 s) and at two 8 million
 * (510.7 -> 360.7 us, 5.7 -> 16.5 s); at four, 16 million, its first plan
 * alone takes 15 s.  DGX-2 x 2 and AMD x 2 at 16 chunks have half a
 * million, AMD x 4 at 16 chunks 4 million (591.1 -> 300.2 us in 8.4 s).
 */
#define SWAI_MTEG_IMPROVE_MAX_WORK 1e7

/* Are @ntrees trees on @m past it (the tries left out)? */
static inline bool swai_mteg_too_big(const struct swai_mteg *m, size_t ntrees)
{
    return (double)ntrees * m->nedges > SWAI_MTEG_IMPROVE_MAX_WORK;
}

/* swai-mteg-place.c */
int swai_mteg_place(struct swai_mteg *m, const struct swai_mteg_trees *p, const size_t *order,
                    int *slots);
int swai_mteg_promote(struct swai_mteg *m, const struct swai_mteg_trees *p, size_t *order,
                      int *slots);
void swai_mteg_first_order(const struct swai_mteg_trees *p, size_t *order);
int swai_mteg_retime_capped(struct swai_mteg *m, const struct swai_mteg_trees *p, int *slots);

/*
 * swai-mteg-mwu.c: every tree (AllGather's, Broadcast's) a spanning tree
 * grown from its source by the cheapest edge out of it, an edge costing
 * its links' busy slots weighted by exp(@eps x the link's load from the
 * trees before / @norm) plus @lam x the slots from the source to its far
 * end; the first chunk of every source, then the second, ...  With
 * @by_place, a tree enters another node only from its source, at the card
 * in the source's place there (swai_mteg_places).  Into p->hops and
 * p->nhops, every hop at slot 0: nothing is taken on @m, the caller times
 * them (swai_mteg_retime).  0, -ENOSPC (a card no edge reaches), -ENOTSUP
 * (@by_place on one node or nodes of different sizes), -ENOMEM.
 */
int swai_mteg_mwu_trees(const struct swai_mteg *m, struct swai_mteg_trees *p, double eps,
                        double lam, double norm, bool by_place);

/*
 * swai-mteg-replicate.c: AllGather on K nodes alike as node 0 alone
 * planned for K x chunks chunks, its trees on every node.  First, how many
 * cards a node has where that applies (AllGather in GPUs' slots, nodes of
 * one size whose cards direct links join), else -ENOTSUP or -ENOMEM; the
 * caller then plans node 0 alone (swai_topo_scale to one node, K x chunks
 * chunks of the same bytes, SWAI_MTEG_DIRECT) into @sub, and
 * swai_mteg_replicate makes its trees the whole topology's, with the edges
 * to each source's place in the other nodes between them: into *@hops and
 * *@nhops (allocated; every hop at slot 0, the caller times them).  0,
 * -ENOTSUP (an edge @m lacks), -ENOMEM.
 */
int swai_mteg_replicate_nodes(const struct swai_mteg *m, const struct swai_mteg_trees *p);
int swai_mteg_replicate(const struct swai_mteg *m, const struct swai_mteg_trees *p,
                        const struct swai_mteg_plan *sub, struct swai_mteg_hop **hops,
                        int **nhops);

/* swai-mteg-improve.c */
int swai_mteg_polish(struct swai_mteg *m, struct swai_mteg_trees *p, int *slots);
int swai_mteg_improve(struct swai_mteg *m, struct swai_mteg_trees *p, int *slots);
/* Within SWAI_MTEG_NEAR_PCT of its bound (the cuts, the packing once known): near enough. */
int swai_mteg_near_bound(const struct swai_mteg *m, const struct swai_mteg_trees *p);
/*
 * One more pass of swai_mteg_improve's from the trees @hops, @nhops (as
 * p->hops): timed by list timing, polished, searched, kept on @m if the
 * plan then ends before *slots (then *slots is its end).  0 or -ENOMEM.
 */
int swai_mteg_improve_from(struct swai_mteg *m, struct swai_mteg_trees *p,
                           const struct swai_mteg_hop *hops, const int *nhops, int *slots);

#endif /* SWAI_MTEG_TREES_H */
