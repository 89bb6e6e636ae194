/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-list.c - ours: the trees of a plan kept, their hops timed
 * again all together by list scheduling (swai-mteg.h, swai_mteg_retime).
 *
 * Trees planned one after another each take the earliest slots they can,
 * whether the hop is on their critical path or not, and the trees planned
 * later find the links' early slots gone.  Here every slot, every link
 * that is free goes to the ready hop (its card holds the chunk) that has
 * the longest way still to go below it -- the classic critical-path rule
 * -- whichever tree it belongs to.
 *
 * The hops are ranked once by that rule.  A slot looks only at the hops
 * due in it (a bucket a slot, a bit a rank): a hop is due in the slot its
 * chunk lands, and one its links keep waits for the first slot they may
 * let it go.  Looking at every hop not yet timed in every slot took most
 * of a long search's time: AMD x 2 at 16 chunks with 600 rounds 26.1 ->
 * 13.1 s, 1.73 -> 1.43 s with the default 12; every plan the same.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"

struct pending {
    int tree, k;        /* hop k of the tree */
    int below;          /* slots from its departure to the last card under it */
};

static int by_below(const void *a, const void *b)
{
    const struct pending *x = a, *y = b;

    if (x->below != y->below) {
        return y->below - x->below;
    }
    return x->tree != y->tree ? x->tree - y->tree : x->k - y->k;
}

/*
 * Each hop's way below: its own slots, then the longest of the hops that
 * leave the card it reaches (hops are in the order their cards joined, so
 * children come after their parent: one pass backwards).
 */
static void ways_below(const struct swai_mteg *m, const struct swai_mteg_hop *h, int nhops,
                       int *below, int *longest)
{
    for (int v = 0; v < m->ncards; v++) {
        longest[v] = 0;
    }
    for (int k = nhops - 1; k >= 0; k--) {
        const struct swai_mteg_edge *e = &m->e[h[k].e];

        below[k] = e->L + longest[e->v];
        longest[e->u] = below[k] > longest[e->u] ? below[k] : longest[e->u];
    }
}

/*
 * The hops by rank, and what timing them needs: which hops leave each
 * (tree, card), when each card holds its tree's chunk, which hops are
 * timed, and the buckets of the hops due in each slot.
 */
struct timing {
    struct pending *p;          /* [rank] */
    int *held;                  /* [tree * N + card]: the slot it holds the chunk, or -1 */
    int *leaves, *next;         /* first hop (rank) leaving [tree * N + card]; [rank] the next */
    bool *timed;                /* [rank] */
    uint64_t *due;              /* [n / 64]: the hops due in this slot, a bit a rank */
    int *bhead, *bnext, *brank; /* buckets [slot]: linked lists in a growing pool */
    size_t npool, cap;
};

/* Rank @r is due in slot @t (its card holds the chunk then, or its links may let it go). */
static int enqueue(struct timing *x, int t, int r)
{
    if (x->npool == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 1024;
        int *bn = realloc(x->bnext, cap * sizeof(*bn));

        if (!bn) {
            return -ENOMEM;
        }
        x->bnext = bn;
        bn = realloc(x->brank, cap * sizeof(*bn));
        if (!bn) {
            return -ENOMEM;
        }
        x->brank = bn;
        x->cap = cap;
    }
    x->brank[x->npool] = r;
    x->bnext[x->npool] = x->bhead[t];
    x->bhead[t] = (int)x->npool++;
    return 0;
}

/* Card @v of tree @i holds the chunk from slot @at: the hops leaving it queued then. */
static int arrive(struct timing *x, const struct swai_mteg *m, int i, int v, int at)
{
    int ret = 0;

    x->held[(size_t)i * (size_t)m->ncards + (size_t)v] = at;
    if (at > m->H) {
        return 0;   /* nothing leaves after H */
    }
    for (int r = x->leaves[(size_t)i * (size_t)m->ncards + (size_t)v]; !ret && r >= 0;
         r = x->next[r]) {
        ret = x->timed[r] ? 0 : enqueue(x, at, r);
    }
    return ret;
}

/* The hops queued for slot @t into @due, a bit a rank (so each once, in rank order). */
static void due_now(struct timing *x, int t)
{
    for (int q = x->bhead[t]; q >= 0; q = x->bnext[q]) {
        x->due[x->brank[q] / 64] |= 1ull << (x->brank[q] % 64);
    }
}

static void timing_free(struct timing *x)
{
    free(x->p);
    free(x->held);
    free(x->leaves);
    free(x->next);
    free(x->timed);
    free(x->due);
    free(x->bhead);
    free(x->bnext);
    free(x->brank);
}

/* @x for the trees at @hops, ranked; 0 or -ENOMEM. */
static int timing_init(struct timing *x, const struct swai_mteg *m, int ntrees, size_t room,
                       const struct swai_mteg_hop *hops, const int *nhops, size_t n)
{
    size_t N = (size_t)m->ncards, cells = (size_t)ntrees * N, i = 0;
    int *below = malloc(N * sizeof(*below)), *longest = malloc(N * sizeof(*longest));
    int ret = 0;

    memset(x, 0, sizeof(*x));
    x->p = malloc((n ? n : 1) * sizeof(*x->p));
    x->held = malloc((cells ? cells : 1) * sizeof(*x->held));
    x->leaves = malloc((cells ? cells : 1) * sizeof(*x->leaves));
    x->next = malloc((n ? n : 1) * sizeof(*x->next));
    x->timed = calloc(n ? n : 1, sizeof(*x->timed));
    x->due = calloc(n / 64 + 1, sizeof(*x->due));
    x->bhead = malloc((size_t)(m->H + 1) * sizeof(*x->bhead));
    if (!below || !longest || !x->p || !x->held || !x->leaves || !x->next || !x->timed ||
        !x->due || !x->bhead) {
        ret = -ENOMEM;
        goto out;
    }
    for (int t = 0; t <= m->H; t++) {
        x->bhead[t] = -1;
    }
    for (int t = 0; t < ntrees; t++) {
        ways_below(m, &hops[(size_t)t * room], nhops[t], below, longest);
        for (int k = 0; k < nhops[t]; k++) {
            x->p[i++] = (struct pending){ t, k, below[k] };
        }
    }
    qsort(x->p, n, sizeof(*x->p), by_below);
    for (size_t c = 0; c < cells; c++) {
        x->held[c] = -1;
        x->leaves[c] = -1;
    }
    for (size_t r = n; r-- > 0;) {
        const struct swai_mteg_edge *e = &m->e[hops[(size_t)x->p[r].tree * room +
                                                    (size_t)x->p[r].k].e];
        size_t c = (size_t)x->p[r].tree * N + (size_t)e->u;

        x->next[r] = x->leaves[c];
        x->leaves[c] = (int)r;
    }
    /* every tree's source holds its chunk from slot 0 */
    for (int t = 0; !ret && t < ntrees; t++) {
        if (nhops[t]) {
            ret = arrive(x, m, t, m->e[hops[(size_t)t * room].e].u, 0);
        }
    }
out:
    free(below);
    free(longest);
    return ret;
}

int swai_mteg_retime(struct swai_mteg *m, int ntrees, size_t room, struct swai_mteg_hop *hops,
                     const int *nhops, int *slots)
{
    size_t n = 0, N = (size_t)m->ncards, timed = 0;
    struct swai_mteg_hop *t0 = NULL;
    struct timing x;
    int last = 0, ret;

    for (int i = 0; i < ntrees; i++) {
        n += (size_t)nhops[i];
    }
    ret = timing_init(&x, m, ntrees, room, hops, nhops, n);
    t0 = malloc((size_t)ntrees * room * sizeof(*t0));
    if (ret || !t0) {
        ret = -ENOMEM;
        goto out;
    }
    memcpy(t0, hops, (size_t)ntrees * room * sizeof(*t0));
    swai_mteg_clear(m);
    /*
     * Every slot, the hops due in it in rank order.  A hop its links keep
     * waits in the bucket of the first slot they may let it go
     * (swai_mteg_edge_next): links are only taken here, never freed, so
     * it could not have gone before, and it meets the hops due then in
     * rank order, as if it had been looked at every slot.
     */
    for (int t = 0; !ret && timed < n && t <= m->H; t++) {
        due_now(&x, t);
        for (size_t w = 0; !ret && w <= n / 64; w++) {
            while (!ret && x.due[w]) {
                int r = (int)(w * 64) + __builtin_ctzll(x.due[w]), next;
                struct swai_mteg_hop *h = &hops[(size_t)x.p[r].tree * room +
                                                (size_t)x.p[r].k];
                const struct swai_mteg_edge *e = &m->e[h->e];
                int at = x.held[(size_t)x.p[r].tree * N + (size_t)e->u];

                x.due[w] &= x.due[w] - 1;
                if (x.timed[r] || t + e->L > m->H) {
                    continue;   /* too late for H: never timed */
                }
                /* a card reached twice (a TM tree) holds the chunk from its last arrival */
                next = at > t ? at : swai_mteg_edge_next(m, e, t);
                if (next == t) {
                    h->t = t;
                    swai_mteg_take(m, h, true);
                    x.timed[r] = true;
                    timed++;
                    last = t + e->L > last ? t + e->L : last;
                    ret = arrive(&x, m, x.p[r].tree, e->v, t + e->L);
                } else if (next > t && next + e->L <= m->H) {
                    ret = enqueue(&x, next, r);
                }
            }
        }
    }
    if (ret || timed < n || last >= *slots) {
        /* no memory, H slots were not enough, or it is no better: the plan as it was */
        memcpy(hops, t0, (size_t)ntrees * room * sizeof(*t0));
        swai_mteg_clear(m);
        swai_mteg_take_trees(m, ntrees, room, hops, nhops, true);
        goto out;
    }
    *slots = last;
out:
    timing_free(&x);
    free(t0);
    return ret;
}
