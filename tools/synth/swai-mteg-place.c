/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-place.c - a collective's trees placed on the MTEG in an order
 * (swai-mteg-trees.h): the first order, ours promoting the tree that ends
 * last, the hops timed again together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg-trees.h"

/*
 * Ours: how many times the tree that ends last is moved to the front and
 * every tree planned again (the best order kept).  A greedy plan lets the
 * first trees take the slots they like; the one that pays for it is the
 * one to favour next.  Each round costs one plan (milliseconds at 80 cards).
 */
#define PROMOTE_ROUNDS 16

/* Every tree in @order on a fresh @m; the last arrival into *slots. */
int swai_mteg_place(struct swai_mteg *m, const struct swai_mteg_trees *p, const size_t *order,
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
int swai_mteg_promote(struct swai_mteg *m, const struct swai_mteg_trees *p, size_t *order, int *slots)
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
        ret = swai_mteg_place(m, p, order, &now);
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
        ret = swai_mteg_place(m, p, best, slots);     /* it fitted before: it fits again */
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
void swai_mteg_first_order(const struct swai_mteg_trees *p, size_t *order)
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

int swai_mteg_retime_capped(struct swai_mteg *m, const struct swai_mteg_trees *p, int *slots)
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
