/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg.h - seed 003's multicast time-expanded graph (MTEG) and its
 * MTEGCCA heuristic, on the project's topology file, writing the project's
 * schedule format (Documentation/cluster.md §10).
 *
 * The slot is the time one chunk takes on the fastest link:
 * tau = mu / max B.  A directed link u -> v takes L = ceil(alpha / tau) +
 * ceil(maxB / B) slots per chunk.  The MTEG has a node u_t for every card
 * and slot 0..H, storage edges u_t -> u_t+1 (cost 1), transmission edges
 * u_t -> v_t+L (cost L) and, per receiving card, a virtual sink reached
 * from every u_t at cost 0.  Every edge costs the slots it advances, so the
 * graph without the sinks is a DAG in slot order and shortest distances
 * from a tree come from one sweep over the slots, not Dijkstra.
 *
 * MTEGCCA: a collective is a set of broadcasts (AllGather: one per source,
 * largest data first; ties by card); each chunk's broadcast is a
 * Takahashi-Matsuyama tree from the source at slot 0 -- repeatedly the
 * uncovered card closest to the current tree joins it by its shortest
 * path -- and the tree's transmission edges are taken, so no later tree
 * (and no later path of this one) sends over that link in that slot.
 *
 * Links between cards are edges; so is every pair of cards joined only
 * through switches, along the topology's route (NDv2 x k's InfiniBand
 * switch, a DGX-2's NVSwitch), each hop's link direction taken in its own
 * slot.  A card relays by receiving and sending.
 */
#ifndef SWAI_MTEG_H
#define SWAI_MTEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swai-sched.h"
#include "swai-timing.h"
#include "swai-topo.h"

/*
 * A transmission edge: card u to card v over a link, or over the route
 * through switches (a switch does not store, and the fabric does not
 * multicast: a chunk crosses it on its way between two cards).  Each hop's
 * link direction is busy one slot, @at[k] slots after the chunk leaves u.
 */
#define SWAI_MTEG_MAX_HOPS 8

struct swai_mteg_edge {
    int u, v;                   /* cards */
    int L;                      /* slots a chunk takes */
    uint32_t mbps;              /* the narrowest hop */
    uint64_t latency_ns;        /* links and switches on the way */
    int nhops;                  /* resources held: its links' hops, then (--card) u's engine */
    int nlinks;                 /* of them, the links' hops: res[0 .. nlinks) */
    int res[SWAI_MTEG_MAX_HOPS];    /* swai_topo_resource() of each hop */
    int at[SWAI_MTEG_MAX_HOPS];     /* its first slot, counted from the start */
    int busy[SWAI_MTEG_MAX_HOPS];   /* the slots it holds its link */
    int bytes[SWAI_MTEG_MAX_HOPS];  /* the slots its bytes take (busy, but for the seed's rule) */
};

/*
 * SWAI_MTEG_SEED: seed 003's rule as written -- a chunk takes a link in the
 * slot it starts only, so a link at a quarter of the fastest rate starts a
 * chunk every slot (four times its bandwidth).  Without it (ours) a chunk
 * holds each link for ceil(maxB / B) slots, the time its bytes take.
 */
#define SWAI_MTEG_SEED  1u
/*
 * SWAI_MTEG_TM: MTEGCCA exactly as seed 003 defines it -- Takahashi-
 * Matsuyama trees (a card joins by the cheapest path from anywhere on the
 * tree, whatever slot that is), broadcasts one source after another.
 * Without it (ours, "MTEG-EA"): earliest-arrival trees (swai_mteg_tree_ea),
 * the chunks of all sources interleaved, then a rip-up-and-replan pass.
 */
#define SWAI_MTEG_TM    2u
/*
 * SWAI_MTEG_TRANSPOSE: every edge u -> v is the link (or route) v -> u run
 * backwards in time -- a hop that G holds from slot a to a + busy after
 * the chunk leaves v is held from L - a - busy after it "leaves" u.  A
 * plan on it, read with time reversed (slot t -> T - t), is a plan on G:
 * broadcast trees become reduction trees (ReduceScatter, seed 003's
 * reverse-tree argument).
 */
#define SWAI_MTEG_TRANSPOSE 4u
/*
 * SWAI_MTEG_QUICK: ours without its iterated local search (the last pass,
 * swai-mteg-improve.c), for a first look: --chunks auto compares the chunk
 * counts so, then searches from the best.
 */
#define SWAI_MTEG_QUICK 8u
/*
 * SWAI_MTEG_CARD: the slots of the card the schedule runs on (libswccl's
 * lowering, its steps' costs in swai-sched-card.h), not TE-CCL's GPUs: a
 * rank is one core group, whose send is a COPY -- issued (t-step), then
 * the core group waits for its bytes to land -- so a card sends one chunk
 * at a time: every edge out of u also holds u's engine, a resource of its
 * own, from the COPY's issue to its landing; the chunk is at v a wake-up
 * (t-barrier) after that; and every call starts with a job's launch.
 * With SWAI_MTEG_TRANSPOSE (ReduceScatter, AllReduce's first half) the
 * receiver's engine also wakes and reduces the partial sum in (a
 * RECV_REDUCE of a chunk), before it can send its own sum on.
 */
#define SWAI_MTEG_CARD  16u
/*
 * SWAI_MTEG_NO_COPY: the sources send their blocks from where the result
 * keeps them (AllReduce's AllGather, after its ReduceScatter summed them
 * in the output), so SWAI_MTEG_CARD holds no engine for an own copy.
 */
#define SWAI_MTEG_NO_COPY 32u
/*
 * SWAI_MTEG_DIRECT: edges of direct links only, no routes through switches
 * (node 0 planned alone for swai_mteg_replicate: on AMD x 2 its switches'
 * links are the way between the nodes).
 */
#define SWAI_MTEG_DIRECT 64u
/*
 * swai_mteg_subset_bound tries every subset of the cards where there are at
 * most this many (2^16 sets: on AMD 0.04-0.35 s), else every pair of cards
 * (AMD x 2: each node's 2^16 subsets took 1.1 s and found no more than
 * the pairs; DGX-2 x 2's 0.3-1.4 s found nothing).
 */
#define SWAI_MTEG_CUT_SUBSETS 16
/* Within this many hundredths of its bound a plan is not searched further. */
#define SWAI_MTEG_NEAR_PCT 1

struct swai_mteg {
    int ncards, H;              /* slots 0 .. H */
    uint64_t tau_ps;            /* one slot */
    int nedges, nres;
    struct swai_mteg_edge *e;
    int *in_off, *in;           /* edges into each card: in[in_off[v] ..] */
    int *out_off, *out;         /* and out of it */
    uint8_t *taken;             /* [res * (H + 1) + t]: a chunk on it in slot t */
    int *skip;                  /* [res * (H + 2) + t]: next-free hints (swai-mteg.c) */
    int nnodes, *node_of;       /* [card]: its node */
    /*
     * Ours, while a plan follows the packing (swai-mteg-improve.c): [src *
     * nedges + e], how many more of src's chunks edge e should carry; NULL
     * otherwise.  swai_mteg_tree_ea keeps to it while it leaves every card
     * a way in.
     */
    int *left;
    /*
     * Ours, while a plan caps it (swai-mteg-improve.c): the cards one card sends
     * a chunk to through a switch -- its one port carries every such copy
     * -- 0 for no cap; swai_mteg_tree_ea keeps to it as to the quotas.
     */
    int fanout;
    /*
     * Ours, while a plan follows the packing (swai-mteg-improve.c): the
     * cards a tree's source sends its chunk to itself, 0 for no cap --
     * the packing's trees leave the source this many times on average;
     * swai_mteg_tree_ea keeps to it as to the quotas.
     */
    int srccap;
    /*
     * Ours, while a plan tries it (swai-mteg-improve.c): swai_mteg_tree_ea breaks
     * ties between cards the chunk reaches in the same slot by the card
     * next after the source, cyclically, instead of the lowest index.
     */
    bool ring_ties;
    double pack_slots;          /* swai_mteg_pack's T once solved on this MTEG, else 0 */
    bool card;                  /* planned in the card's slots (SWAI_MTEG_CARD) */
    uint64_t fixed_ps;          /* before slot 0 (SWAI_MTEG_CARD: the launch), else 0 */
    int *hold;                  /* [card]: SWAI_MTEG_CARD's engine held from slot 0, or NULL */
    int split;                  /* slots a chunk takes on the fastest link: 1, or
                                   (SWAI_MTEG_CARD) enough that one is a quarter
                                   of a wake-up at most */
};

/* One hop of a tree: edge @e leaves its card at slot @t. */
struct swai_mteg_hop {
    int e, t;
};

/*
 * The MTEG of @t for chunks of @chunk_bytes and @H slots.  0, or -EINVAL
 * (no link, a route of more than SWAI_MTEG_MAX_HOPS hops) / -ENOMEM with
 * @why.
 */
int swai_mteg_build(struct swai_mteg *m, const struct swai_topo *t,
                    uint64_t chunk_bytes, int H, unsigned flags, char *why, size_t n);
void swai_mteg_free(struct swai_mteg *m);
/*
 * @m's in_off/in and out_off/out (allocated; swai_mteg_free frees them)
 * from its edges e[0 .. nedges): what a graph built by hand needs, as
 * swai_mteg_build's does.  0 or -ENOMEM.
 */
int swai_mteg_index(struct swai_mteg *m);

/*
 * One chunk's TM tree from @src at slot 0 to every other card, on the
 * edges not yet taken; takes its edges.  Its hops into @hops (room for
 * ncards x ncards; *nhops), the slot each card first holds the chunk into
 * @arrive[ncards] (src: 0).  0, or -ENOSPC when H slots do not reach every
 * card (nothing taken), -ENOMEM.
 */
int swai_mteg_tree(struct swai_mteg *m, int src, struct swai_mteg_hop *hops,
                   int *nhops, int *arrive);

/*
 * Ours: the tree in which every card holds the chunk as early as the links
 * left free allow -- Dijkstra in slots from @src, a card's edge taken when
 * the card is settled, a candidate whose edge was taken meanwhile re-timed
 * (taking only delays others, so a settled card is never beaten).  It
 * minimises what the objective (eq. (1)) counts, the last arrival; the TM
 * tree minimises the slots its edges advance, which lets a card join late
 * from a late part of the tree.  Same contract as swai_mteg_tree.
 */
int swai_mteg_tree_ea(struct swai_mteg *m, int src, struct swai_mteg_hop *hops,
                      int *nhops, int *arrive);

/*
 * AllToAll's demand (multicast-free): one chunk from @src to @dst by the
 * path on which it arrives earliest, its edges then taken; its hops into
 * @hops (room for ncards) in path order, *arrive its arrival slot.  0, or
 * -ENOSPC when H slots do not reach @dst (nothing taken), -ENOMEM.
 */
int swai_mteg_path_ea(struct swai_mteg *m, int src, int dst, struct swai_mteg_hop *hops,
                      int *nhops, int *arrive);

/*
 * AllToAll's trees are its demands, DIRECT's rounds in order: tree
 * (k * ncards + s) * chunks + c is chunk c from card s to card s + k
 * (k = 0: a card's own block, no hops).
 */
static inline void swai_mteg_demand(int ncards, uint32_t chunks, size_t tree, int *src,
                                    int *dst)
{
    size_t demand = tree / chunks, k = demand / (size_t)ncards;

    *src = (int)(demand % (size_t)ncards);
    *dst = (int)((demand % (size_t)ncards + k) % (size_t)ncards);
}

/* Is edge @e free to leave its card at slot @t0 (every hop's link in its slots)? */
bool swai_mteg_edge_free(const struct swai_mteg *m, const struct swai_mteg_edge *e, int t0);
/* The edge @u -> @v (its index in m->e), or -1: no link or route joins them. */
int swai_mteg_edge_to(const struct swai_mteg *m, int u, int v);
/*
 * @t0 if @e is free to leave then; else a later departure no earlier than
 * the first that clears the slot found taken (a skip: no departure between
 * is free); -1 past H.
 */
int swai_mteg_edge_next(struct swai_mteg *m, const struct swai_mteg_edge *e, int t0);
/*
 * The MTEG cut to slots 0..@H, what is taken in them kept: a plan that
 * ends by @H, made with room to spare, on the smallest graph that holds
 * it (the MILP's).  0, -EINVAL (@H not in 1..H), -ENOMEM (@m unchanged).
 */
int swai_mteg_trim(struct swai_mteg *m, int H);
/*
 * Every link free again in every slot (a new plan on the same MTEG); the
 * engines' holds (swai_mteg_hold_copy) stay.
 */
void swai_mteg_clear(struct swai_mteg *m);
/*
 * SWAI_MTEG_CARD: @card's engine first copies @bytes (its own block, from
 * the input to the output, the schedule's first step there, which its
 * sends wait for): held from slot 0 for the COPY's issue and its bytes
 * through Local-HBM.  0, -ENOSPC (longer than H), -ENOMEM.
 */
int swai_mteg_hold_copy(struct swai_mteg *m, int card, uint64_t bytes);
/* Mark (@on) or free every hop's link of @h in its slots. */
void swai_mteg_take(struct swai_mteg *m, const struct swai_mteg_hop *h, bool on);
/* The same for every hop of @ntrees trees at @hops (room each, @nhops). */
void swai_mteg_take_trees(struct swai_mteg *m, int ntrees, size_t room,
                          const struct swai_mteg_hop *hops, const int *nhops, bool on);

/*
 * A lower bound on the slots @coll (AllGather, or Broadcast from @root) of
 * @chunks chunks a source needs on @m, conflicts aside: the farthest
 * source, and every card's, every node's and every small set's cut -- the
 * chunks it must take in, one per `busy` slots on each link into it, the
 * last of them then spread inside (swai-mteg-bound.c); AllGather and
 * Broadcast also the packing's busiest link (swai_mteg_pack_bound).
 */
int swai_mteg_lower_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                          uint32_t chunks);
/* The same without the packing's LP: latency and cuts (AllToAll: all four). */
int swai_mteg_cut_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                        uint32_t chunks);
/*
 * The cuts of the other sets (swai-mteg-bound.c): every subset of the cards,
 * or every pair (SWAI_MTEG_CUT_SUBSETS).  Like the packing's LP, asked only
 * of a plan above the cheap cuts.
 */
int swai_mteg_subset_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                           uint32_t chunks);
/*
 * The packing's busiest link, ceil(T) slots (m->pack_slots if solved):
 * AllGather's (swai_mteg_pack; too large, swai_mteg_node_bound) or
 * Broadcast's from @root (swai_mteg_pack_root); 0 for the others, or a
 * Broadcast too large.
 */
int swai_mteg_pack_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                         uint32_t chunks);

/*
 * AllToAll's bandwidth bound: the least load T (slots) of the busiest link
 * over every routing of its demands as a flow, by COIN-OR CLP
 * (swai-mteg-flow.c); ceil(T), or 0 where the program is too large to be
 * worth it (more than 60 000 columns) or CLP fails.
 */
int swai_mteg_flow_bound(const struct swai_mteg *m, uint32_t chunks);

/*
 * Ours: AllGather's best fractional packing of broadcast trees on @m
 * (swai-mteg-pack.c, an LP by COIN-OR CLP): x[s * nedges + e] blocks of
 * source s on edge e (@x may be NULL), and *T the least load, in slots,
 * of the busiest link when every source's block is cut in @chunks --
 * a lower bound on every AllGather plan of @m, and what a plan of trees
 * can reach when time is aside (Edmonds: every card is a terminal).
 * 0, -E2BIG (more than 4 096 columns, N x edges + 1: the cut rounds then
 * take CLP seconds), -ENOMEM, -EIO (CLP failed), -ETIMEDOUT (still cutting after
 * 100 rounds).
 */
int swai_mteg_pack(const struct swai_mteg *m, uint32_t chunks, double *x, double *T);
/*
 * The same with source s's block counted @weight[s] times on every link:
 * blocks that move alike (those of the cards merged into one by
 * swai_mteg_node_bound) as one source, a smaller LP.
 */
int swai_mteg_pack_weighted(const struct swai_mteg *m, uint32_t chunks, const double *weight,
                            double *x, double *T);
/*
 * Broadcast's: the packing of @root's block alone (swai_mteg_pack_weighted,
 * the other sources weighing nothing) -- the best fractional packing of
 * spanning trees from @root, its *T a lower bound on every Broadcast plan
 * of @m.  The same returns.
 */
int swai_mteg_pack_root(const struct swai_mteg *m, uint32_t chunks, int root, double *x,
                        double *T);
/*
 * @m's nodes' cards by place: card[node * n + i] is node's i-th card (in
 * @m's order), place[c] card c's i; *n the cards a node.  0, -ENOTSUP
 * unless every node has n cards, -ENOMEM.
 */
int swai_mteg_places(const struct swai_mteg *m, int *card, int *place, int *n);
/*
 * Ours: a packing (as swai_mteg_pack's @x) for a topology of nodes like
 * its node 0, where that LP is too large: every source's block sent once
 * into each other node, to the card in its place there, and spread inside
 * every node as node 0's packing spreads that place's block
 * (swai-mteg-nodes.c).  Not a bound.  0, -ENOTSUP (one node, nodes of
 * different sizes or links, a source with no edge to its counterpart),
 * or swai_mteg_pack's errors on node 0.
 */
int swai_mteg_pack_nodes(const struct swai_mteg *m, uint32_t chunks, double *x);
/*
 * AllGather's bound from node 0 against the rest of the cards merged into
 * one that holds their blocks from the start (swai-mteg-nodes.c): ceil(T)
 * slots of that relaxation's best packing, for a topology whose own
 * packing LP is too large; 0 for one node, an LP too large, or CLP's
 * failure.
 */
int swai_mteg_node_bound(const struct swai_mteg *m, uint32_t chunks);

/*
 * Ours: the @ntrees trees at @hops (room each, @nhops, in the order their
 * cards joined, as swai_mteg_tree_ea leaves them) kept, and their hops
 * timed again on @m, which holds them, by list scheduling: every slot each
 * free link goes to the ready hop with the longest way below it
 * (swai-mteg-list.c).  Kept if it ends before *slots (then *slots is its
 * end), else the plan is left as it was.  0 or -ENOMEM.
 */
int swai_mteg_retime(struct swai_mteg *m, int ntrees, size_t room, struct swai_mteg_hop *hops,
                     const int *nhops, int *slots);

/*
 * SWAI_MTEG_CARD reduction trees (planned on the transposed MTEG), timed
 * again forward in the time they run in, each hop as two tasks: its
 * sender's COPY (the engine and the links, as the edge holds them) and,
 * once that has landed, the receiver's reduction (its engine, whenever it
 * is free).  A card sends its partial sum once all sums into it are
 * reduced.  The edge holds the two back to back; on the card a landed sum
 * waits in its slot until the receiver gets to it, and the engine does
 * other work meanwhile (swai-mteg-fold.c).  If it ends before *slots, the
 * hops' times (a hop at t: its reduction ends at T - t) and @wait (see
 * struct swai_mteg_plan) are set and *slots is its end; else nothing
 * changes.  0 or -ENOMEM.
 */
int swai_mteg_fold_time(const struct swai_mteg *m, int ntrees, size_t room,
                        struct swai_mteg_hop *hops, const int *nhops, int *wait, int *slots);

/*
 * Ours: a local improvement pass over the @ntrees trees at @hops (as for
 * swai_mteg_retime; each tree's first hop leaves its source; AllToAll's,
 * room < ncards^2, are paths): a tree that ends within @depth (1..4) slots
 * of the last ripped up and planned again by swai_mteg_tree_ea (a path by
 * swai_mteg_path_ea) around the others, kept if the plan then ends
 * earlier, or as early with fewer trees ending then, then a slot before,
 * ... @depth deep (swai-mteg-reroute.c); until each such tree has been
 * tried since the last move, or @max_tries.  *slots: the plan's end.  0 or
 * -ENOMEM.
 */
int swai_mteg_reroute(struct swai_mteg *m, int ntrees, size_t room, struct swai_mteg_hop *hops,
                      int *nhops, int *slots, int depth, int max_tries);
/*
 * Ours: the kick of an iterated local search over AllGather's or
 * Broadcast's trees (as for swai_mteg_reroute): @k trees drawn at random
 * by @seed (a step of a linear congruential generator each; a tree drawn
 * twice counts once) ripped up, then planned again by swai_mteg_tree_ea
 * in the order drawn, on @m, each from the source its first hop left.
 * *slots: the plan's end after.  0, -ENOSPC (a tree found no room in H: the plan is incomplete, the
 * caller restores it), -ENOMEM.
 */
int swai_mteg_kick(struct swai_mteg *m, int ntrees, size_t room, struct swai_mteg_hop *hops,
                   int *nhops, int k, uint64_t *seed, int *slots);

struct swai_mteg_result {
    int H;                      /* the slots used to plan */
    int slots;                  /* the last chunk's arrival slot */
    double completion_us;       /* slots x tau */
    double lower_bound_us;      /* swai_mteg_lower_bound, in us */
    double bound_s;             /* wall seconds the bound took (its LP): not planning */
    bool unimproved;            /* ours past the improvement passes' budget: placed only */
};

/*
 * Room for one tree's hops: a tree's paths visit a card at most once each
 * (ncards x ncards hops); AllToAll's path, fewer than ncards.
 */
static inline size_t swai_mteg_room(enum swai_coll coll, int ncards)
{
    return (size_t)ncards * (coll == SWAI_COLL_ALLTOALL ? 1 : (size_t)ncards);
}

/*
 * MTEGCCA's trees, before they become a schedule (the MILP, swai-milp.h,
 * starts from them): tree i * chunks + c is source i's chunk c (Broadcast:
 * i = 0, the root; AllToAll: swai_mteg_demand), its hops at
 * hops[(i * chunks + c) * room] (nhops[i * chunks + c] of them, room =
 * swai_mteg_room), on @m, whose taken slots are theirs.
 */
struct swai_mteg_plan {
    struct swai_mteg m;
    int ntrees;
    size_t room;
    struct swai_mteg_hop *hops;
    int *nhops;
    /*
     * SWAI_MTEG_CARD reductions timed by swai_mteg_fold_time: [tree *
     * room + k], the slots hop k's partial sum waits, landed, for its
     * receiver's engine; NULL: none waits (the hop is one interval).
     */
    int *wait;
};

/*
 * MTEGCCA's trees for @coll as swai_mteg_synth() plans them, into *p (free
 * with swai_mteg_plan_free).  0, or -errno with @why.
 */
int swai_mteg_plan(const struct swai_topo *t, enum swai_coll coll, int root,
                   uint64_t block_bytes, uint32_t chunks, int H, unsigned flags,
                   struct swai_mteg_plan *p, struct swai_mteg_result *res, char *why, size_t n);
void swai_mteg_plan_free(struct swai_mteg_plan *p);

/*
 * Trees in swai_mteg_plan's layout, planned on @m (MTEGCCA's, the MILP's),
 * as the schedule @name into *s: a send and a receive per hop, each rank's
 * in slot order.  0, or -errno with @why.
 */
int swai_mteg_schedule(const struct swai_mteg *m, const char *name, enum swai_coll coll,
                       int root, uint32_t chunks, const struct swai_mteg_hop *hops,
                       const int *nhops, struct swai_sched *s, char *why, size_t n);

/*
 * Reduction trees @rs (AllGather's, planned with SWAI_MTEG_TRANSPOSE, its
 * last arrival @rs_slots) read backwards, then broadcast trees @ag forward
 * after them: ReduceScatter (@rs), AllReduce (both), AllGather and
 * Broadcast (@ag), as the schedule @name into *s (swai-mteg-sched.c).
 */
int swai_mteg_schedule_plans(const struct swai_mteg_plan *rs, int rs_slots,
                             const struct swai_mteg_plan *ag, const char *name,
                             enum swai_coll coll, int root, uint32_t chunks,
                             struct swai_sched *s, char *why, size_t n);

/*
 * The synthesizer for @coll -- AllGather, Broadcast from @root, and by the
 * reverse-tree argument ReduceScatter and AllReduce (ReduceScatter, then
 * AllGather: completion and bound are the two phases' sums) -- of blocks
 * of @block_bytes (swai_coll_block_bytes) cut into @chunks chunks, on @t:
 * the schedule into *s (free with swai_sched_free).  @H 0: start small and
 * double until every tree fits.  0, or -errno with @why.
 */
int swai_mteg_synth(const struct swai_topo *t, enum swai_coll coll, int root,
                    uint64_t block_bytes, uint32_t chunks, int H, unsigned flags,
                    struct swai_sched *s, struct swai_mteg_result *res,
                    char *why, size_t n);

#endif /* SWAI_MTEG_H */
