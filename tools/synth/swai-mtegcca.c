/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mtegcca.c - MTEGCCA (seed 003 §2.2): a collective as broadcasts,
 * one Takahashi-Matsuyama tree per chunk on the MTEG (swai-mteg.c), and
 * the trees as the project's schedule; with the lower bounds the
 * synthesizer reports beside its completion time.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swai-mteg.h"

/*
 * Ours: how many times the tree that ends last is moved to the front and
 * every tree planned again (the best order kept).  A greedy plan lets the
 * first trees take the slots they like; the one that pays for it is the
 * one to favour next.  Each round costs one plan (milliseconds at 80 cards).
 */
#define PROMOTE_ROUNDS 16

struct plan_ctx {
    enum swai_coll coll;
    int root, nsrc;
    uint32_t chunks;
    unsigned flags;
    struct swai_mteg_hop *hops;
    int *nhops;
    int *ends;      /* [tree]: its last arrival */
    const int *quota;   /* [src * nedges + e]: swai_mteg_pack's chunks, or NULL */
};

/* Every tree in @order on a fresh @m; the last arrival into *slots. */
static int place(struct swai_mteg *m, const struct plan_ctx *p, const size_t *order,
                 int *slots)
{
    int N = m->ncards, *arrive = malloc((size_t)N * sizeof(int)), ret = 0;

    if (!arrive) {
        return -ENOMEM;
    }
    swai_mteg_clear(m);
    if (p->quota) {
        memcpy(m->left, p->quota, (size_t)N * (size_t)m->nedges * sizeof(*m->left));
    }
    *slots = 0;
    for (size_t k = 0; !ret && k < (size_t)p->nsrc * p->chunks; k++) {
        size_t tree = order[k];
        int src = p->coll == SWAI_COLL_ALLGATHER ? (int)(tree / p->chunks) : p->root, dst;
        struct swai_mteg_hop *h = &p->hops[tree * swai_mteg_room(p->coll, N)];

        p->ends[tree] = 0;
        if (p->coll == SWAI_COLL_ALLTOALL) {
            swai_mteg_demand(N, p->chunks, tree, &src, &dst);
            p->nhops[tree] = 0;
            ret = src == dst ? 0 : swai_mteg_path_ea(m, src, dst, h, &p->nhops[tree],
                                                     &p->ends[tree]);
            *slots = p->ends[tree] > *slots ? p->ends[tree] : *slots;
            continue;
        }
        ret = p->flags & SWAI_MTEG_TM ? swai_mteg_tree(m, src, h, &p->nhops[tree], arrive) :
              swai_mteg_tree_ea(m, src, h, &p->nhops[tree], arrive);
        for (int v = 0; !ret && v < N; v++) {
            p->ends[tree] = arrive[v] > p->ends[tree] ? arrive[v] : p->ends[tree];
        }
        *slots = p->ends[tree] > *slots ? p->ends[tree] : *slots;
    }
    free(arrive);
    return ret;
}

/* Ours: promote the tree that ends last, PROMOTE_ROUNDS times; the best order planned. */
static int promote(struct swai_mteg *m, const struct plan_ctx *p, size_t *order, int *slots)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks;
    size_t *best = malloc(ntrees * sizeof(*best));
    int best_slots = *slots, ret = 0, now = *slots;

    if (!best) {
        return -ENOMEM;
    }
    memcpy(best, order, ntrees * sizeof(*best));
    for (int round = 0; round < PROMOTE_ROUNDS; round++) {
        size_t at = 0;

        for (size_t k = 1; k < ntrees; k++) {
            at = p->ends[order[k]] > p->ends[order[at]] ? k : at;
        }
        if (!at) {
            break;      /* the first tree ends last: nothing to favour */
        }
        {
            size_t tree = order[at];

            memmove(&order[1], &order[0], at * sizeof(*order));
            order[0] = tree;
        }
        ret = place(m, p, order, &now);
        if (ret == -ENOMEM) {
            break;
        }
        if (!ret && now < best_slots) {
            best_slots = now;
            memcpy(best, order, ntrees * sizeof(*best));
        }
        if (ret) {
            break;      /* this order does not fit in H: keep the best */
        }
    }
    if (ret != -ENOMEM && (ret || now != best_slots)) {
        ret = place(m, p, best, slots);     /* it fitted before: it fits again */
        memcpy(order, best, ntrees * sizeof(*order));
    } else if (!ret) {
        *slots = now;       /* @order, as good, is what @m holds */
    }
    free(best);
    return ret;
}

/*
 * Broadcasts by data volume, largest first: all equal here, so by card --
 * the seed's every chunk of a source, then the next source; ours the first
 * chunk of every source, then the second: a link's slots go to the chunks
 * in the order they can move.
 */
static void first_order(const struct plan_ctx *p, size_t *order)
{
    for (size_t k = 0; k < (size_t)p->nsrc * p->chunks; k++) {
        order[k] = p->flags & SWAI_MTEG_TM ? k :
                   (k % (size_t)p->nsrc) * p->chunks + k / (size_t)p->nsrc;
    }
}

/*
 * Ours: the plan's hops timed again all together (swai_mteg_retime), kept
 * if it ends first; not where hops x slots pass RETIME_MAX_WORK, the
 * scans' cost.
 */
#define RETIME_MAX_WORK 50000000L

static int retime(struct swai_mteg *m, const struct plan_ctx *p, int *slots)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks;
    long work = 0;

    for (size_t i = 0; i < ntrees; i++) {
        work += (long)p->nhops[i] * (long)(m->H + 1);
    }
    return work > RETIME_MAX_WORK ? 0 :
           swai_mteg_retime(m, (int)ntrees, swai_mteg_room(p->coll, m->ncards), p->hops,
                            p->nhops, slots);
}

/* A plan kept aside (@hops, @nhops in @p's layout) back in @p and on @m. */
static void put_back(struct swai_mteg *m, struct plan_ctx *p, const struct swai_mteg_hop *hops,
                     const int *nhops)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks, room = swai_mteg_room(p->coll, m->ncards);

    memcpy(p->hops, hops, ntrees * room * sizeof(*hops));
    memcpy(p->nhops, nhops, ntrees * sizeof(*nhops));
    swai_mteg_clear(m);
    swai_mteg_take_trees(m, (int)ntrees, room, p->hops, p->nhops, true);
}

/*
 * Ours: every tree planned again under @quota (may be NULL) and the fan-out
 * cap @fanout (0: none), timed again, and kept if it ends before *slots;
 * else the plan on @m as it was.
 */
static int try_plan(struct swai_mteg *m, struct plan_ctx *p, const int *quota, int fanout,
                    int *slots)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks, NE = (size_t)m->ncards * (size_t)m->nedges;
    size_t nh = ntrees * swai_mteg_room(p->coll, m->ncards);
    int *nhops = malloc(ntrees * sizeof(*nhops)), ret, tried = 0;
    struct swai_mteg_hop *hops = malloc(nh * sizeof(*hops));
    size_t *order = malloc(ntrees * sizeof(*order));

    m->left = quota ? malloc(NE * sizeof(*m->left)) : NULL;
    if (!nhops || !hops || !order || (quota && !m->left)) {
        ret = -ENOMEM;
        goto out;
    }
    memcpy(hops, p->hops, nh * sizeof(*hops));      /* the plan so far, to go back to */
    memcpy(nhops, p->nhops, ntrees * sizeof(*nhops));
    p->quota = quota;
    m->fanout = fanout;
    first_order(p, order);
    ret = place(m, p, order, &tried);
    if (!ret) {
        ret = promote(m, p, order, &tried);
    }
    p->quota = NULL;
    m->fanout = 0;
    if (!ret) {
        ret = retime(m, p, &tried);
    }
    if (!ret && tried < *slots) {
        *slots = tried;
    } else if (ret != -ENOMEM) {
        /* the plan so far ends no later (or this one did not fit in H) */
        put_back(m, p, hops, nhops);
        ret = 0;
    }
out:
    free(m->left);
    m->left = NULL;
    free(nhops);
    free(hops);
    free(order);
    return ret;
}

/*
 * The trees (AllToAll: the demands' paths) that end last, one at a time
 * around all the others, then those that end within 2 and 3 slots of the
 * last (each pass from where the one before ended: never later); then
 * timed again.  AMD AllGather, 16 chunks: 233.3 us after the first pass,
 * 212.3 after the third.
 */
static int polish(struct swai_mteg *m, struct plan_ctx *p, int *slots)
{
    int ret = 0;

    for (int depth = 1; !ret && depth <= 3; depth++) {
        ret = swai_mteg_reroute(m, (int)(p->nsrc * p->chunks),
                                swai_mteg_room(p->coll, m->ncards), p->hops, p->nhops, slots,
                                depth, 4 * p->nsrc * (int)p->chunks);
    }
    return ret ? ret : retime(m, p, slots);
}

/*
 * Ours: an iterated local search from the polished plan.  KICK_ROUNDS
 * times a twentieth of the trees, drawn at random, are planned again
 * (swai_mteg_kick), the plan is timed again and polished, and kept if it
 * ends earlier, else the best plan is put back; until it meets @floor.
 * Polishing moves late trees one at a time and stops where none can move
 * alone; the kick moves the trees in their way.  The draws are a fixed
 * sequence: the same instance gives the same plan.  A round costs about a
 * timing pass (hops x slots), so past KICK_WORK in all there are fewer
 * rounds: AMD at 16 chunks gets 100 (2 million a pass), AMD x 2 and DGX-2
 * x 2 12 (16 million).  64 MiB, 16 chunks: AMD 212.3 -> 205.8 us (bound
 * 196.6; its last gain at round 92), DGX-2 x 2 536.9 -> 530.6 (523.2),
 * AMD x 2 218.2 -> 211.7 (194.0), in 0.3-2 s.
 */
#define KICK_ROUNDS 100
#define KICK_WORK 2e8

static int search(struct swai_mteg *m, struct plan_ctx *p, int floor, int *slots)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks, room = swai_mteg_room(p->coll, m->ncards);
    size_t nh = ntrees * room;
    struct swai_mteg_hop *best = malloc(nh * sizeof(*best));
    int *bestn = malloc(ntrees * sizeof(*bestn)), ret = 0, rounds;
    uint64_t seed = 0x9e3779b97f4a7c15ull;  /* any fixed start */
    double work = 0;

    for (size_t i = 0; i < ntrees; i++) {
        work += (double)p->nhops[i] * (m->H + 1);
    }
    rounds = work * KICK_ROUNDS > KICK_WORK ? (int)(KICK_WORK / work) : KICK_ROUNDS;
    if (!best || !bestn) {
        ret = -ENOMEM;
        goto out;
    }
    memcpy(best, p->hops, nh * sizeof(*best));
    memcpy(bestn, p->nhops, ntrees * sizeof(*bestn));
    for (int round = 0; !ret && round < rounds && *slots > floor; round++) {
        int now = 0;

        ret = swai_mteg_kick(m, (int)ntrees, room, p->hops, p->nhops, p->chunks,
                             (int)(ntrees / 20) + 1, &seed, &now);
        ret = ret ? ret : retime(m, p, &now);
        ret = ret ? ret : polish(m, p, &now);
        if (ret == -ENOSPC) {
            ret = 0;    /* a tree found no room in H: as good as worse */
            now = *slots;
        }
        if (!ret && now < *slots) {
            *slots = now;
            memcpy(best, p->hops, nh * sizeof(*best));
            memcpy(bestn, p->nhops, ntrees * sizeof(*bestn));
        } else if (!ret) {
            put_back(m, p, best, bestn);
        }
    }
out:
    free(best);
    free(bestn);
    return ret;
}

/*
 * Past this many trees x edges a plan takes seconds and the tries below
 * three times that (AMD x 10, 1 chunk: 4 million, 3.6 s; NDv2 x 10, 16
 * chunks: 8 million); DGX-2 x 2 and AMD x 2 at 16 chunks have half a
 * million.
 */
#define IMPROVE_MAX_WORK 2e6

/* Within SWAI_MTEG_NEAR_PCT of its bound (the cuts, the packing) a plan is near enough. */
static int near_floor(const struct swai_mteg *m, const struct plan_ctx *p)
{
    int floor = swai_mteg_cut_bound(m, p->coll, p->root, p->chunks);
    int pack = m->pack_slots > 0 ? (int)(m->pack_slots - 1e-6) + 1 : 0;

    floor = pack > floor ? pack : floor;
    return floor + floor * SWAI_MTEG_NEAR_PCT / 100;
}

/*
 * One pass of improve() below from the plan on @m: the tries (under
 * @quota, NULL where the LP gave none), the polish and the search.
 */
static int improve_pass(struct swai_mteg *m, struct plan_ctx *p, const int *quota,
                        bool switched, int *slots)
{
    int ret = 0;

    for (int cap = 1; !ret && switched && !m->ring_ties && cap <= 2; cap++) {
        ret = try_plan(m, p, NULL, cap, slots);
    }
    if (!ret && m->ring_ties) {
        ret = try_plan(m, p, NULL, 0, slots);
    }
    if (!ret && quota) {
        ret = try_plan(m, p, quota, 0, slots);
    }
    ret = ret ? ret : polish(m, p, slots);
    if (!ret && !(p->flags & SWAI_MTEG_QUICK)) {
        ret = search(m, p, near_floor(m, p), slots);
    }
    return ret;
}

/* The plan so far (@p's hops) copied into @hops/@nhops, allocated here (put_back returns it). */
static int keep_plan(const struct plan_ctx *p, const struct swai_mteg *m,
                     struct swai_mteg_hop **hops, int **nhops)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks, nh = ntrees * swai_mteg_room(p->coll, m->ncards);

    *hops = malloc(nh * sizeof(**hops));
    *nhops = malloc(ntrees * sizeof(**nhops));
    if (!*hops || !*nhops) {
        return -ENOMEM;
    }
    memcpy(*hops, p->hops, nh * sizeof(**hops));
    memcpy(*nhops, p->nhops, ntrees * sizeof(**nhops));
    return 0;
}

/*
 * Ours, for a plan above its cut bound: its hops timed again, then a pass
 * (improve_pass): the trees planned again two ways, the plan that ends
 * first kept (on @m, *slots), then polished, then searched (but for
 * SWAI_MTEG_QUICK).
 *  - A card whose offer was overtaken joins through a relay rather than
 *    through a card that already sends this chunk through a switch to 1
 *    (then 2) others (swai-mteg-ea.c): a card's one port carries every
 *    such copy, and earliest-arrival trees make it a star (DGX-2 x 2, 64
 *    MiB, 4 chunks: the busiest ports into the NVSwitch carry chunks for
 *    147 of the plan's 150 slots, where the bound is 127).
 *  - Each source's chunks on an edge held to what the best fractional
 *    packing of trees gives it (swai_mteg_pack, rounded up).  Earliest-
 *    arrival trees crowd onto the fastest links and leave the slower ones
 *    idle until the end (DGX-1: 681.6 us at 64 MiB, 16 chunks, against a
 *    packing of 391.5); the quotas spread them as the packing does.  Where
 *    the LP is too large, on nodes alike, one node's packing repeated
 *    (swai_mteg_pack_nodes: AMD x 2, 64 MiB, 16 chunks, 523.0 -> 218.2 us).
 * Still above its bound after the pass, a second from the same start with
 * ties broken around a ring (swai_mteg.ring_ties: the first plan, then the
 * quotas, polish and search), the sooner kept.  Earliest-arrival trees
 * that take the lowest card first pair the sources up -- the first two
 * chassis' first copies through the switch go to each other -- and on an
 * odd number of chassis leave one chassis' way in idle in each round:
 * NDv2 x 3, 5 and 7 at 64 MiB were 5.3, 5.8 and 5.9 % above their bounds,
 * now 0, 0 and 2.0 %.  It costs a second pass where the plan stays above
 * its bound (AMD x 2, 16 chunks: 1.7 -> 2.5 s).
 */
static int improve(struct swai_mteg *m, struct plan_ctx *p, int *slots)
{
    size_t NE = (size_t)m->ncards * (size_t)m->nedges;
    struct swai_mteg_hop *start_hops = NULL, *end_hops = NULL;
    int *start_n = NULL, *end_n = NULL, *quota = NULL, start, ring;
    double *x = NULL;
    int ret = retime(m, p, slots);
    bool switched = false;

    if (ret || (double)p->nsrc * p->chunks * m->nedges > IMPROVE_MAX_WORK) {
        return ret;
    }
    for (int e = 0; e < m->nedges; e++) {
        switched |= m->e[e].nhops > 1;
    }
    x = malloc(NE * sizeof(*x));
    quota = malloc(NE * sizeof(*quota));
    if (!x || !quota) {
        ret = -ENOMEM;
        goto out;
    }
    if (!swai_mteg_pack(m, p->chunks, x, &m->pack_slots) ||
        swai_mteg_pack_nodes(m, p->chunks, x) == 0) {
        for (size_t i = 0; i < NE; i++) {
            quota[i] = (int)ceil(x[i] * p->chunks - 0.01);  /* 2.0000001 chunks are 2 */
        }
    } else {
        free(quota);
        quota = NULL;
    }
    start = *slots;
    ret = keep_plan(p, m, &start_hops, &start_n);
    ret = ret ? ret : improve_pass(m, p, quota, switched, slots);
    /* still above its bound: the ring's pass from the same start */
    if (!ret && *slots > near_floor(m, p)) {
        ret = keep_plan(p, m, &end_hops, &end_n);
        if (!ret) {
            put_back(m, p, start_hops, start_n);
            ring = start;
            m->ring_ties = true;
            ret = improve_pass(m, p, quota, switched, &ring);
            m->ring_ties = false;
        }
        if (!ret && ring < *slots) {
            *slots = ring;
        } else if (!ret) {
            put_back(m, p, end_hops, end_n);
        }
    }
out:
    free(x);
    free(quota);
    free(start_hops);
    free(start_n);
    free(end_hops);
    free(end_n);
    return ret;
}

/* Plan every tree on an MTEG of @H slots; -ENOSPC if one does not fit. */
static int plan(const struct swai_topo *t, struct plan_ctx *p, uint64_t chunk_bytes,
                int H, struct swai_mteg *m, int *slots, char *why, size_t n)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks;
    size_t *order = malloc(ntrees * sizeof(*order));
    int ret;

    if (!order) {
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    ret = swai_mteg_build(m, t, chunk_bytes, H, p->flags, why, n);
    /*
     * On the card, a source's sends wait for its own block's copy
     * (swai-mteg.h); a reduction's leaves send from the input, and
     * AllReduce's second half from where its first left the sums.
     */
    for (int c = 0; !ret && (p->flags & SWAI_MTEG_CARD) &&
         !(p->flags & (SWAI_MTEG_TRANSPOSE | SWAI_MTEG_NO_COPY)) && c < m->ncards; c++) {
        if (p->coll != SWAI_COLL_BROADCAST || c == p->root) {
            ret = swai_mteg_hold_copy(m, c, chunk_bytes * p->chunks);
        }
    }
    first_order(p, order);
    if (!ret) {
        ret = place(m, p, order, slots);
    }
    if (!ret && !(p->flags & SWAI_MTEG_TM)) {
        ret = promote(m, p, order, slots);
    }
    /* above its cut bound, AllGather's trees (and the reductions') get more tries */
    if (!ret && !(p->flags & SWAI_MTEG_TM) && p->coll == SWAI_COLL_ALLGATHER &&
        *slots > swai_mteg_cut_bound(m, p->coll, p->root, p->chunks)) {
        ret = improve(m, p, slots);
    }
    /*
     * AllToAll's demands, timed again and rerouted: AMD at 64 MiB 945.0 ->
     * 913.6 us (bound 895.2).  Without the gate on the cut bound, which
     * for AllToAll solves an LP: these passes cost less.
     */
    if (!ret && !(p->flags & SWAI_MTEG_TM) && p->coll == SWAI_COLL_ALLTOALL &&
        (double)ntrees * m->nedges <= IMPROVE_MAX_WORK) {
        ret = retime(m, p, slots);
        ret = ret ? ret : polish(m, p, slots);
    }
    if (ret == -ENOMEM) {
        snprintf(why, n, "out of memory");
    }
    if (ret && m->e) {
        swai_mteg_free(m);
    }
    free(order);
    return ret;
}

/*
 * The bound of a plan that took @slots: the cuts, and the packing's LP only
 * where the plan is above them -- a plan at its cut bound is optimal, and
 * no bound is above an optimum (NDv2 x 2 would solve the LP for nothing).
 */
static int bound_slots(const struct swai_mteg *m, enum swai_coll coll, int root,
                       uint32_t chunks, int slots, double *took)
{
    struct timespec a, b;
    int cut;

    clock_gettime(CLOCK_MONOTONIC, &a);
    cut = swai_mteg_cut_bound(m, coll, root, chunks);
    /* only AllGather's bound has more than the cuts: the packing's LP */
    if (coll == SWAI_COLL_ALLGATHER && slots > cut) {
        int pack = swai_mteg_pack_bound(m, chunks);

        cut = pack > cut ? pack : cut;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    *took += (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    return cut;
}

void swai_mteg_plan_free(struct swai_mteg_plan *p)
{
    swai_mteg_free(&p->m);
    free(p->hops);
    free(p->nhops);
    free(p->wait);
    memset(p, 0, sizeof(*p));
}

/*
 * @p's trees, or @h's (@nh hops each, on an MTEG whose edges join the same
 * cards as @p's, @h's edges), timed by swai_mteg_fold_time on @p's MTEG;
 * kept in @p if they end before *slots.
 */
static int fold_trees(struct swai_mteg_plan *p, const struct swai_mteg *hm,
                      const struct swai_mteg_hop *h, const int *nh, int *slots)
{
    size_t N = (size_t)p->m.ncards, nt = (size_t)p->ntrees * p->room;
    struct swai_mteg_hop *x = malloc(nt * sizeof(*x));
    int *wait = calloc(nt, sizeof(*wait)), *edge = malloc(N * N * sizeof(*edge));
    int *n = malloc((size_t)p->ntrees * sizeof(*n)), got = *slots, ret = 0;

    if (!x || !wait || !edge || !n) {
        ret = -ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < N * N; i++) {
        edge[i] = -1;
    }
    for (int e = 0; e < p->m.nedges; e++) {
        edge[(size_t)p->m.e[e].u * N + (size_t)p->m.e[e].v] = e;
    }
    memcpy(x, h, nt * sizeof(*x));
    memcpy(n, nh, (size_t)p->ntrees * sizeof(*n));
    for (size_t i = 0; i < nt; i++) {
        if (i % p->room < (size_t)n[i / p->room]) {
            x[i].e = edge[(size_t)hm->e[h[i].e].u * N + (size_t)hm->e[h[i].e].v];
            if (x[i].e < 0) {
                goto out;   /* joined there, not here: nothing to time */
            }
        }
    }
    ret = swai_mteg_fold_time(&p->m, p->ntrees, p->room, x, n, wait, &got);
    if (!ret && got < *slots) {
        memcpy(p->hops, x, nt * sizeof(*x));
        memcpy(p->nhops, n, (size_t)p->ntrees * sizeof(*n));
        free(p->wait);
        p->wait = wait;
        wait = NULL;
        *slots = got;
    }
out:
    free(x);
    free(wait);
    free(edge);
    free(n);
    return ret;
}

/*
 * SWAI_MTEG_CARD reductions: the plan's trees timed with the reductions
 * apart from their COPYs (swai_mteg_fold_time), and the trees planned in
 * GPUs' slots timed so too, the sooner kept -- trees that know nothing of
 * the engines, a second try at spreading the cards' reductions (on a
 * DGX-1 at 1 MiB ours take 598 slots so, GPUs' 638; where neither ends
 * before the plan, the plan stays).  The MTEG's calendars then no longer
 * show the plan; nothing reads them after.
 */
static int card_fold(const struct swai_topo *t, enum swai_coll coll, int root,
                     uint64_t block_bytes, uint32_t chunks, unsigned flags,
                     struct swai_mteg_plan *p, int *slots)
{
    struct swai_mteg_plan g;
    struct swai_mteg_result r;
    char why[160];
    int ret = fold_trees(p, &p->m, p->hops, p->nhops, slots);

    if (ret) {
        return ret;
    }
    ret = swai_mteg_plan(t, coll, root, block_bytes, chunks, 0,
                         flags & ~(SWAI_MTEG_CARD | SWAI_MTEG_NO_COPY), &g, &r, why, sizeof(why));
    if (ret) {
        return ret == -ENOMEM ? ret : 0;    /* a plan of ours is there already */
    }
    ret = fold_trees(p, &g.m, g.hops, g.nhops, slots);
    swai_mteg_plan_free(&g);
    return ret;
}

int swai_mteg_plan(const struct swai_topo *t, enum swai_coll coll, int root,
                   uint64_t block_bytes, uint32_t chunks, int H, unsigned flags,
                   struct swai_mteg_plan *p, struct swai_mteg_result *res, char *why, size_t n)
{
    int N = t->ncards, ret, slots;
    int nsrc = coll == SWAI_COLL_ALLGATHER ? N : coll == SWAI_COLL_ALLTOALL ? N * N : 1;
    uint64_t chunk_bytes = chunks ? (block_bytes + chunks - 1) / chunks : 0;
    struct plan_ctx ctx;
    int *ends;

    memset(res, 0, sizeof(*res));
    memset(p, 0, sizeof(*p));
    if (coll != SWAI_COLL_ALLGATHER && coll != SWAI_COLL_BROADCAST &&
        coll != SWAI_COLL_ALLTOALL) {
        snprintf(why, n, "%s: the synthesizer makes allgather, broadcast, alltoall, "
                 "reducescatter and allreduce", swai_coll_name(coll));
        return -EINVAL;
    }
    if (coll == SWAI_COLL_ALLTOALL && (flags & SWAI_MTEG_TM)) {
        snprintf(why, n, "alltoall: seed 003's MTEGCCA is of broadcasts; its demands are "
                 "ours (MTEG-EA, without --tm)");
        return -EINVAL;
    }
    if (!chunks || !chunk_bytes || N < 2 || root < 0 || root >= N) {
        snprintf(why, n, "%d cards, root %d, %u chunks of %llu bytes: need 2 cards, a root "
                 "among them, a chunk of at least a byte", N, root, chunks,
                 (unsigned long long)chunk_bytes);
        return -EINVAL;
    }
    p->ntrees = nsrc * (int)chunks;
    p->room = swai_mteg_room(coll, N);
    p->hops = malloc((size_t)p->ntrees * p->room * sizeof(*p->hops));
    p->nhops = calloc((size_t)p->ntrees, sizeof(*p->nhops));
    ends = calloc((size_t)p->ntrees, sizeof(*ends));
    if (!p->hops || !p->nhops || !ends) {
        free(ends);
        swai_mteg_plan_free(p);
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    ctx = (struct plan_ctx){ coll, root, nsrc, chunks, flags, p->hops, p->nhops, ends, NULL };
    /* Without a budget: from a few slots a card, doubling until every tree fits. */
    for (int h = H ? H : 4 * N;; h *= 2) {
        ret = plan(t, &ctx, chunk_bytes, h, &p->m, &slots, why, n);
        if (ret != -ENOSPC || H || h > (1 << 16)) {
            if (ret == -ENOSPC) {
                snprintf(why, n, "%d slots do not reach every card (--slots more)", h);
            }
            break;
        }
    }
    free(ends);
    if (!ret && (flags & SWAI_MTEG_CARD) && (flags & SWAI_MTEG_TRANSPOSE)) {
        ret = card_fold(t, coll, root, block_bytes, chunks, flags, p, &slots);
        if (ret) {
            swai_mteg_free(&p->m);
        }
    }
    if (ret) {
        free(p->hops);
        free(p->nhops);
        free(p->wait);
        memset(p, 0, sizeof(*p));   /* plan() freed the MTEG */
        return ret;
    }
    res->H = p->m.H;
    res->slots = slots;
    /* every plan on the card starts with its launch: the bound's too */
    res->completion_us = ((double)slots * (double)p->m.tau_ps + (double)p->m.fixed_ps) / 1e6;
    res->lower_bound_us = ((double)bound_slots(&p->m, coll, root, chunks, slots,
                                               &res->bound_s) * (double)p->m.tau_ps +
                           (double)p->m.fixed_ps) / 1e6;
    return 0;
}

/* @p's figures into @res (@H the slots it planned in). */
static void figures(const struct swai_mteg_plan *p, enum swai_coll coll, int root,
                    uint32_t chunks, int slots, struct swai_mteg_result *res)
{
    res->H += p->m.H;    /* AllReduce: the two phases one after the other */
    res->slots += slots;
    res->completion_us += (double)slots * (double)p->m.tau_ps / 1e6;
    res->lower_bound_us += (double)bound_slots(&p->m, coll, root, chunks, slots, &res->bound_s) *
                           (double)p->m.tau_ps / 1e6;
}

/*
 * ReduceScatter: AllGather's trees on the transposed MTEG, backwards
 * (swai-mteg-sched.c).  AllReduce: those, then AllGather's trees forward,
 * on blocks of a rank's data / N.
 */
static int synth_reduce(const struct swai_topo *t, enum swai_coll coll, uint64_t block_bytes,
                        uint32_t chunks, int H, unsigned flags, struct swai_sched *s,
                        struct swai_mteg_result *res, char *why, size_t n)
{
    struct swai_mteg_plan rs, ag = { 0 };
    struct swai_mteg_result r1, r2;
    uint64_t blk = coll == SWAI_COLL_ALLREDUCE ?
                   (block_bytes + (uint64_t)t->ncards - 1) / (uint64_t)t->ncards : block_bytes;
    int ret;

    ret = swai_mteg_plan(t, SWAI_COLL_ALLGATHER, 0, blk, chunks, H, flags | SWAI_MTEG_TRANSPOSE,
                         &rs, &r1, why, n);
    if (ret) {
        return ret;
    }
    if (coll == SWAI_COLL_ALLREDUCE) {
        ret = swai_mteg_plan(t, SWAI_COLL_ALLGATHER, 0, blk, chunks, H,
                             flags | SWAI_MTEG_NO_COPY, &ag, &r2, why, n);
    }
    if (!ret) {
        ret = swai_mteg_schedule_plans(&rs, r1.slots, coll == SWAI_COLL_ALLREDUCE ? &ag : NULL,
                                       "MTEG", coll, 0, chunks, s, why, n);
    }
    if (!ret) {
        memset(res, 0, sizeof(*res));
        figures(&rs, SWAI_COLL_ALLGATHER, 0, chunks, r1.slots, res);
        if (coll == SWAI_COLL_ALLREDUCE) {
            figures(&ag, SWAI_COLL_ALLGATHER, 0, chunks, r2.slots, res);
        }
        /* SWAI_MTEG_CARD: one call, one launch */
        res->completion_us += (double)rs.m.fixed_ps / 1e6;
        res->lower_bound_us += (double)rs.m.fixed_ps / 1e6;
    }
    swai_mteg_plan_free(&rs);
    swai_mteg_plan_free(&ag);
    return ret;
}

int swai_mteg_synth(const struct swai_topo *t, enum swai_coll coll, int root,
                    uint64_t block_bytes, uint32_t chunks, int H, unsigned flags,
                    struct swai_sched *s, struct swai_mteg_result *res,
                    char *why, size_t n)
{
    struct swai_mteg_plan p;
    int ret;

    if (coll == SWAI_COLL_REDUCESCATTER || coll == SWAI_COLL_ALLREDUCE) {
        return synth_reduce(t, coll, block_bytes, chunks, H, flags, s, res, why, n);
    }
    ret = swai_mteg_plan(t, coll, root, block_bytes, chunks, H, flags, &p, res, why, n);
    if (!ret) {
        ret = swai_mteg_schedule(&p.m, "MTEG", coll, root, chunks, p.hops, p.nhops, s, why, n);
        swai_mteg_plan_free(&p);
    }
    return ret;
}
