/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-improve.c - ours: a plan above its bound improved
 * (swai-mteg-trees.h, swai_mteg_improve): the trees planned again other
 * ways (a fan-out cap, the packing's quotas, ties around a ring), the late
 * ones rerouted, and an iterated local search; then the same from other
 * starts: trees that share the links evenly (swai-mteg-mwu.c) and, on
 * nodes alike, node 0's own plan on every node (swai-mteg-replicate.c).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg-trees.h"

/* A plan kept aside, to go back to: @p's hops and their counts, copied. */
struct kept {
    struct swai_mteg_hop *hops;
    int *nhops;
};

/* @p's plan into @k (allocated the first time); 0 or -ENOMEM. */
static int keep(struct kept *k, const struct swai_mteg_trees *p, const struct swai_mteg *m)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks;
    size_t nh = ntrees * swai_mteg_room(p->coll, m->ncards);

    if (!k->hops) {
        k->hops = malloc(nh * sizeof(*k->hops));
        k->nhops = malloc(ntrees * sizeof(*k->nhops));
    }
    if (!k->hops || !k->nhops) {
        return -ENOMEM;
    }
    memcpy(k->hops, p->hops, nh * sizeof(*k->hops));
    memcpy(k->nhops, p->nhops, ntrees * sizeof(*k->nhops));
    return 0;
}

/* The plan kept in @k back in @p and on @m. */
static void put_back(struct swai_mteg *m, struct swai_mteg_trees *p, const struct kept *k)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks, room = swai_mteg_room(p->coll, m->ncards);

    memcpy(p->hops, k->hops, ntrees * room * sizeof(*k->hops));
    memcpy(p->nhops, k->nhops, ntrees * sizeof(*k->nhops));
    swai_mteg_clear(m);
    swai_mteg_take_trees(m, (int)ntrees, room, p->hops, p->nhops, true);
}

static void kept_free(struct kept *k)
{
    free(k->hops);
    free(k->nhops);
}

/*
 * Ours: every tree planned again under @quota (may be NULL) and the fan-out
 * cap @fanout (0: none), timed again, and kept if it ends before *slots;
 * else the plan on @m as it was.
 */
static int try_plan(struct swai_mteg *m, struct swai_mteg_trees *p, const int *quota, int fanout,
                    int *slots)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks, NE = (size_t)m->ncards * (size_t)m->nedges;
    size_t *order = malloc(ntrees * sizeof(*order));
    struct kept was = { 0 };    /* the plan so far, to go back to */
    int ret = keep(&was, p, m), tried = 0;

    m->left = quota ? malloc(NE * sizeof(*m->left)) : NULL;
    if (ret || !order || (quota && !m->left)) {
        ret = -ENOMEM;
        goto out;
    }
    p->quota = quota;
    m->fanout = fanout;
    swai_mteg_first_order(p, order);
    ret = swai_mteg_place(m, p, order, &tried);
    if (!ret) {
        ret = swai_mteg_promote(m, p, order, &tried);
    }
    p->quota = NULL;
    m->fanout = 0;
    if (!ret) {
        ret = swai_mteg_retime_capped(m, p, &tried);
    }
    if (!ret && tried < *slots) {
        *slots = tried;
    } else if (ret != -ENOMEM) {
        /* the plan so far ends no later (or this one did not fit in H) */
        put_back(m, p, &was);
        ret = 0;
    }
out:
    free(m->left);
    m->left = NULL;
    kept_free(&was);
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
int swai_mteg_polish(struct swai_mteg *m, struct swai_mteg_trees *p, int *slots)
{
    int ret = 0;

    for (int depth = 1; !ret && depth <= 3; depth++) {
        ret = swai_mteg_reroute(m, (int)(p->nsrc * p->chunks),
                                swai_mteg_room(p->coll, m->ncards), p->hops, p->nhops, slots,
                                depth, 4 * p->nsrc * (int)p->chunks);
    }
    return ret ? ret : swai_mteg_retime_capped(m, p, slots);
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

static int search(struct swai_mteg *m, struct swai_mteg_trees *p, int floor, int *slots)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks, room = swai_mteg_room(p->coll, m->ncards);
    struct kept best = { 0 };
    int ret = keep(&best, p, m), rounds;
    uint64_t seed = 0x9e3779b97f4a7c15ull;  /* any fixed start */
    double work = 0;

    for (size_t i = 0; i < ntrees; i++) {
        work += (double)p->nhops[i] * (m->H + 1);
    }
    rounds = work * KICK_ROUNDS > KICK_WORK ? (int)(KICK_WORK / work) : KICK_ROUNDS;
    for (int round = 0; !ret && round < rounds && *slots > floor; round++) {
        int now = 0;

        ret = swai_mteg_kick(m, (int)ntrees, room, p->hops, p->nhops,
                             (int)(ntrees / 20) + 1, &seed, &now);
        ret = ret ? ret : swai_mteg_retime_capped(m, p, &now);
        ret = ret ? ret : swai_mteg_polish(m, p, &now);
        if (ret == -ENOSPC) {
            ret = 0;    /* a tree found no room in H: as good as worse */
            now = *slots;
        }
        if (!ret && now < *slots) {
            *slots = now;
            ret = keep(&best, p, m);
        } else if (!ret) {
            put_back(m, p, &best);
        }
    }
    kept_free(&best);
    return ret;
}

int swai_mteg_near_bound(const struct swai_mteg *m, const struct swai_mteg_trees *p)
{
    int floor = swai_mteg_cut_bound(m, p->coll, p->root, p->chunks);
    int pack = m->pack_slots > 0 ? (int)(m->pack_slots - 1e-6) + 1 : 0;

    floor = pack > floor ? pack : floor;
    return floor + floor * SWAI_MTEG_NEAR_PCT / 100;
}

/*
 * The weightings swai_mteg_mwu_trees tries: eps (how much more a loaded
 * link costs), lam (what a slot of depth costs, against a link-slot).  A
 * larger eps spreads the load more and the trees run deeper, a larger lam
 * makes them shallow and loads the fast links again; which ends first
 * after list timing depends on the topology and on whether the trees are
 * held to their source's place (AMD x 3 at 64 MiB in 16 chunks, free: 625
 * slots at best, eps 20 and lam 2; held: 587, eps 40 and lam 1; the
 * quotas' earliest-arrival trees 693), and a try costs a plan's timing.
 */
static const double mwu_tries[][2] = {
    { 5, 2 }, { 10, 2 }, { 20, 2 }, { 10, 1 }, { 10, 4 },
    { 20, 1 }, { 40, 1 }, { 20, 0.5 }, { 40, 2 }, { 80, 1 },
};

/*
 * Ours: the trees of every weighting in mwu_tries, free to enter a node
 * anywhere and then held to the source's place in it (on nodes alike),
 * timed by list timing; the one that ends first on @m and in *slots (H + 1 where none fits: then
 * the plan on @m is the one it found there).  @norm: the slots the loads
 * are measured against (the plan's before the passes).
 */
static int mwu_start(struct swai_mteg *m, struct swai_mteg_trees *p, double norm, int *slots)
{
    struct kept was = { 0 }, best = { 0 };
    int ret = keep(&was, p, m), found = m->H + 1;

    for (size_t i = 0; !ret && i < 2 * sizeof(mwu_tries) / sizeof(mwu_tries[0]); i++) {
        size_t w = i % (sizeof(mwu_tries) / sizeof(mwu_tries[0]));
        int tried = m->H + 1;

        ret = swai_mteg_mwu_trees(m, p, mwu_tries[w][0], mwu_tries[w][1], norm, w != i);
        if (ret == -ENOSPC || ret == -ENOTSUP) {
            ret = 0;    /* a card no tree reaches, so or not on nodes alike */
            continue;
        }
        ret = ret ? ret : swai_mteg_retime(m, (int)(p->nsrc * p->chunks),
                                           swai_mteg_room(p->coll, m->ncards), p->hops,
                                           p->nhops, &tried);
        if (!ret && tried < found) {
            found = tried;
            ret = keep(&best, p, m);
        }
    }
    if (!ret) {
        put_back(m, p, found <= m->H ? &best : &was);
        *slots = found;
    }
    kept_free(&was);
    kept_free(&best);
    return ret;
}

/*
 * A start the passes above did not plan (on @m, timed to end at @again;
 * H + 1: it did not fit in H) polished and searched, and kept if it then
 * ends before *slots; else the plan @done put back.
 */
static int finish_start(struct swai_mteg *m, struct swai_mteg_trees *p, const struct kept *done,
                        int floor, int again, int *slots)
{
    int ret = 0;

    if (again <= m->H) {
        ret = swai_mteg_polish(m, p, &again);
        if (!ret && !(p->flags & SWAI_MTEG_QUICK)) {
            ret = search(m, p, floor, &again);
        }
    }
    if (!ret && again < *slots) {
        *slots = again;
    } else if (!ret) {
        put_back(m, p, done);
    }
    return ret;
}

/*
 * One pass of swai_mteg_improve() below from the plan on @m: the tries (under
 * @quota, NULL where the LP gave none; with @srccap, the quotas again with
 * the root's fan-out capped at it), the polish and the search.
 */
static int improve_pass(struct swai_mteg *m, struct swai_mteg_trees *p, const int *quota,
                        int srccap, bool switched, int floor, int *slots)
{
    int ret = 0;

    for (int cap = 1; !ret && switched && !quota && !m->ring_ties && cap <= 2; cap++) {
        ret = try_plan(m, p, NULL, cap, slots);
    }
    if (!ret && m->ring_ties) {
        ret = try_plan(m, p, NULL, 0, slots);
    }
    if (!ret && quota) {
        ret = try_plan(m, p, quota, 0, slots);
    }
    if (!ret && quota && srccap) {
        m->srccap = srccap;
        ret = try_plan(m, p, quota, 0, slots);
        m->srccap = 0;
    }
    ret = ret ? ret : swai_mteg_polish(m, p, slots);
    if (!ret && !(p->flags & SWAI_MTEG_QUICK)) {
        ret = search(m, p, floor, slots);
    }
    return ret;
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
 *    147 of the plan's 150 slots, where the bound is 127).  Only where
 *    the packing gives no quotas: where it does (AMD, AMD x k) the quotas'
 *    plan always won, and the two capped plans cost AMD x 10 5.5 s.
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
 *
 * A Broadcast still above its bound gets two more passes from the same
 * start, without and with the ring's ties, each also trying the quotas
 * with the root's fan-out capped at the packing's (swai_mteg.srccap: the
 * root's edges' shares summed, rounded up).  The quotas alone count a
 * source's chunks over all its trees, and the first chunks spend them:
 * every one goes from the root straight to each of its neighbours, as
 * that is each one's earliest arrival, the root's links carry each chunk
 * several times, and once the quotas are gone the rest do the same.  On
 * DGX-1 from card 0, where the packing leaves the root once a tree, 64 MiB
 * in 16 chunks went from 1845.5 to 1258.3 us (bound 838.9); mesh8 and
 * ring8 from 3.4 and 1.5 times their bounds to them; 53 of 216 Broadcasts
 * compared ended earlier, none later.  Not on the card, where a card sends
 * one chunk at a time anyway, and the cap made some plans later.  The cap
 * one below the packing's and one above get the same two passes: which
 * cap wins depends on the root (AMD from card 5 in 16 chunks: 1069.5 us
 * at 2, 775.9 at 3), and DGX-1 from card 0 in 4 chunks reaches CBC's
 * proven optimum, 7 slots (9 before); 11 of 228 Broadcasts ended earlier,
 * none later.
 */
int swai_mteg_improve(struct swai_mteg *m, struct swai_mteg_trees *p, int *slots)
{
    size_t NE = (size_t)m->ncards * (size_t)m->nedges;
    struct kept first = { 0 }, done = { 0 };   /* the plan before the passes, after the first */
    int *quota = NULL, start, again, srccap = 0, floor;
    double *x = NULL;
    int ret = swai_mteg_retime_capped(m, p, slots);
    bool switched = false;

    if (ret || swai_mteg_too_big(m, (size_t)p->nsrc * p->chunks)) {
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
    /* Broadcast: the packing of the root's trees; AllGather: every source's */
    if (p->coll == SWAI_COLL_BROADCAST ?
        !swai_mteg_pack_root(m, p->chunks, p->root, x, &m->pack_slots) :
        !swai_mteg_pack(m, p->chunks, x, &m->pack_slots) ||
        swai_mteg_pack_nodes(m, p->chunks, x) == 0) {
        for (size_t i = 0; i < NE; i++) {
            quota[i] = (int)ceil(x[i] * p->chunks - 0.01);  /* 2.0000001 chunks are 2 */
        }
        if (p->coll == SWAI_COLL_BROADCAST && !(p->flags & SWAI_MTEG_CARD)) {
            double out = 0;

            for (int k = m->out_off[p->root]; k < m->out_off[p->root + 1]; k++) {
                out += x[(size_t)p->root * (size_t)m->nedges + (size_t)m->out[k]];
            }
            srccap = (int)ceil(out - 0.01);
        }
    } else {
        free(quota);
        quota = NULL;
    }
    start = *slots;
    floor = swai_mteg_near_bound(m, p);     /* the packing's T is known from here */
    ret = keep(&first, p, m);
    ret = ret ? ret : improve_pass(m, p, quota, 0, switched, floor, slots);
    /*
     * Still above its bound: a pass from the same start with ties around a
     * ring; then (a Broadcast) one with the root's fan-out capped, and one
     * with both; the plan that ends first kept.
     */
    for (int pass = 1; !ret && pass <= 7 && *slots > floor; pass++) {
        /* passes 2-7: the cap at the packing's, one below it, one above */
        int cap = pass < 2 ? 0 : srccap + (int[]){ 0, -1, 1 }[(pass - 2) / 2];

        if (pass >= 2 && !srccap) {
            break;
        }
        if (pass >= 2 && cap < 1) {
            continue;
        }
        ret = keep(&done, p, m);
        if (!ret) {
            put_back(m, p, &first);
            again = start;
            m->ring_ties = pass % 2 == 1;
            ret = improve_pass(m, p, quota, cap, switched, floor, &again);
            m->ring_ties = false;
        }
        if (!ret && again < *slots) {
            *slots = again;
        } else if (!ret) {
            put_back(m, p, &done);
        }
    }
    /*
     * Still above its bound: a pass from the trees that share the links
     * evenly (swai-mteg-mwu.c), polished and searched.  AMD x 3 and x 4 at
     * 64 MiB in 16 chunks, 17.0 and 13.4 % above their bounds, are bound
     * by the links inside a chassis, which the quotas of one node's
     * packing load unevenly.
     */
    if (!ret && *slots > floor) {
        ret = keep(&done, p, m);
        again = m->H + 1;
        ret = ret ? ret : mwu_start(m, p, start, &again);
        ret = ret ? ret : finish_start(m, p, &done, floor, again, slots);
    }
out:
    free(x);
    free(quota);
    kept_free(&first);
    kept_free(&done);
    return ret;
}

int swai_mteg_improve_from(struct swai_mteg *m, struct swai_mteg_trees *p,
                           const struct swai_mteg_hop *hops, const int *nhops, int *slots)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks, room = swai_mteg_room(p->coll, m->ncards);
    struct kept done = { 0 };
    int again = m->H + 1, ret = keep(&done, p, m);

    if (!ret) {
        memcpy(p->hops, hops, ntrees * room * sizeof(*p->hops));
        memcpy(p->nhops, nhops, ntrees * sizeof(*p->nhops));
        ret = swai_mteg_retime(m, (int)ntrees, room, p->hops, p->nhops, &again);
    }
    ret = ret ? ret : finish_start(m, p, &done, swai_mteg_near_bound(m, p), again, slots);
    kept_free(&done);
    return ret;
}
