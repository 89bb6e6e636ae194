/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen.h - the algorithms that generate schedules (swai-sched.h):
 * Ring, Mesh one-shot and two-shot, recursive halving-doubling, NHR
 * (seed 000), Reduce+Broadcast, and AllToAll's pairwise DIRECT and
 * plane-hierarchical PLANE (seed 002), one file each (swai-gen-*.c).
 *
 * A generator builds a complete schedule, dependencies included, for one
 * collective on any number of ranks it supports, or says why not.  libswccl
 * runs what they build, its cost model and the simulator time it, and the
 * step tables print it; nothing else knows how an algorithm goes.
 */
#ifndef SWAI_GEN_H
#define SWAI_GEN_H

#include <stddef.h>

#include "swai-sched.h"

/* NHR's slice order (seed 000 §4.3, Documentation/cluster.md §4). */
enum swai_nhr_order {
    SWAI_NHR_BEST,          /* the fewest pieces this project finds */
    SWAI_NHR_IDENTITY,      /* the talk's standard order */
    SWAI_NHR_BITREV,        /* bit-reversal (the talk's N = 4 table) */
};

struct swai_gen_opts {
    int root;                       /* Broadcast, Reduce */
    enum swai_nhr_order nhr_order;  /* AllReduce only */
    /*
     * NHR AllReduce: cut each ReduceScatter message into this many parts
     * that go one after another, so that the receiver reduces one while
     * the next lands; 0 or 1: whole messages, seed 000's table as printed,
     * and what libswccl and the simulator run: parts help where NHR's
     * rounds do not meet on a port and lose where they do
     * (Documentation/cluster.md §8).  Seed 000 splits NHR's slices except
     * for small messages, whose neighbouring slices it merges instead.
     */
    int nhr_split;
    /*
     * MESH1, MESH2: a rank that sends to every peer starts with its
     * shift-th peer (mod N - 1) in rank order, instead of the first.
     * Several planes of one card's core groups, each its own
     * communicator, then send over different links at the same time
     * (libswccl's levels shift plane j by j (N - 1) / G).  Others ignore it.
     */
    int shift;
    /*
     * RING: the rank at ring position p is p * stride mod N (stride coprime
     * with N; 0 or 1: rank order), a block following its rank, so that
     * planes of one card's core groups, each with its own stride, send over
     * different links at once (stride N - 1: the same links the other way;
     * libswccl's levels give plane j the j-th stride whose links the fabric
     * has).  HD, NHR and RB: their AllReduce relabelled so (swai_gen.relabels).
     * Others ignore it.
     */
    int stride;
    /*
     * PLANE: the node of each rank ([nranks], any numbers; NULL: every
     * rank a node of its own) -- the topology's grouping, from
     * swai_topo_card_node() of the ranks' cards.  Others ignore it.
     */
    const int *node_of;
    /*
     * PLANE: land every message inside a plane in scratch and copy its
     * blocks out one by one, even when a node's ranks are consecutive
     * (whose output could take the message whole) -- an AllToAllv's
     * blocks are the caller's, each anywhere.  Others ignore it.
     */
    bool via_scratch;
};

struct swai_gen {
    const char *name;               /* "RING" (SWCCL_ALGO's names) */
    const char *what;               /* one line for --help and the docs */
    unsigned colls;                 /* 1 << enum swai_coll it supports */
    /* 0, or -EINVAL with @why when it cannot serve @nranks */
    int (*build)(struct swai_sched *s, enum swai_coll coll, int nranks,
                 const struct swai_gen_opts *o, char *why, size_t n);
    /*
     * Its AllReduce takes swai_gen_opts.stride by relabelling: rank r's
     * part done by rank r * stride mod N (an AllReduce's result is every
     * rank's whatever rank does which part), so planes of one card's
     * core groups exchange over different links.  RING has the stride in
     * every collective, MESH its shift instead.
     */
    bool relabels;
};

extern const struct swai_gen swai_gen_ring, swai_gen_mesh1, swai_gen_mesh2,
       swai_gen_hd, swai_gen_nhr, swai_gen_rb, swai_gen_direct, swai_gen_plane;

/* Is @stride a ring order of @nranks ranks: 1 .. N - 1 (1 for one rank), coprime with N? */
bool swai_gen_stride_ok(int nranks, int stride);

/* Every generator, NULL-terminated, in the order -a all lists them. */
extern const struct swai_gen *const swai_gens[];
const struct swai_gen *swai_gen_find(const char *name);

/*
 * Build @algo's schedule of @coll on @nranks ranks, with its
 * dependencies, into *s (free with swai_sched_free).  0, or -EINVAL /
 * -ENOMEM with the reason in @why.
 */
int swai_gen_build(struct swai_sched *s, const char *algo,
                   enum swai_coll coll, int nranks,
                   const struct swai_gen_opts *o, char *why, size_t n);

/*
 * swai-gen-nodes.c: the ranks grouped by node_of (NULL: a rank a node)
 * into n nodes in the order of their first rank, each node's in rank
 * order: the j-th of every node is plane j.  With @who, the nodes must
 * have as many ranks each.  0, or -EINVAL (two that differ named, @who
 * saying whose need) / -ENOMEM with @why.
 */
struct swai_gen_nodes {
    int n, m;           /* nodes; the most ranks a node has */
    int *node;          /* [N]: node index (0..n-1, in order of first rank) */
    int *plane;         /* [N]: rank's index within its node */
    int *size;          /* [n]: ranks of each node */
    int *member;        /* [n * m]: member[b * m + j] = rank, j < size[b] */
    bool consecutive;   /* every node's ranks are member[b * m] + j */
};

int swai_gen_nodes_make(struct swai_gen_nodes *g, const int *node_of, int N, const char *who,
                        char *why, size_t wn);
void swai_gen_nodes_free(struct swai_gen_nodes *g);

/*
 * swai-gen-levels.c: @algo's AllReduce in HCCL's levels over the nodes of
 * o->node_of: a ReduceScatter inside each node, @algo between the nodes on
 * each plane, an AllGather inside each node.  A node of fewer ranks than
 * the largest holds several planes' blocks.  One level only (a node, or a
 * rank a node): @algo as it is.  0, or -EINVAL / -ENOMEM with @why.
 */
int swai_gen_levels(struct swai_sched *s, const char *algo, enum swai_coll coll, int nranks,
                    const struct swai_gen_opts *o, char *why, size_t n);

/* swai-gen-nhr.c: seed 000's D = round((N-1) / 2^(k+1)), half up. */
int swai_nhr_slices(int nranks, int k);
/* Its step count, ceil(log2 N). */
int swai_nhr_steps(int nranks);
/*
 * The slice order tree[] (tree[idx] = tree id) of @order for @nranks:
 * 0 or -ENOMEM.  SWAI_NHR_BEST searches (swai-gen-nhr-order.c).
 */
int swai_nhr_order(int nranks, enum swai_nhr_order order, int *tree);
/*
 * For tree[]: the pieces of the most fragmented message of each step
 * into most[0 .. steps); the number of steps, or -1.
 */
int swai_nhr_pieces(int nranks, const int *tree, int *most, int max);

#endif /* SWAI_GEN_H */
