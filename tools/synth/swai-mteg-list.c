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
 */
#include <errno.h>
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

int swai_mteg_retime(struct swai_mteg *m, int ntrees, size_t room, struct swai_mteg_hop *hops,
                     const int *nhops, int *slots)
{
    size_t n = 0, N = (size_t)m->ncards;
    struct pending *p;
    struct swai_mteg_hop *t0 = NULL;
    int *held = NULL, *below = NULL, *longest = NULL, last = 0, ret = 0;

    for (int i = 0; i < ntrees; i++) {
        n += (size_t)nhops[i];
    }
    p = malloc((n ? n : 1) * sizeof(*p));
    held = malloc((size_t)ntrees * N * sizeof(*held));
    below = malloc(N * sizeof(*below));
    longest = malloc(N * sizeof(*longest));
    t0 = malloc((size_t)ntrees * room * sizeof(*t0));
    if (!p || !held || !below || !longest || !t0) {
        ret = -ENOMEM;
        goto out;
    }
    memcpy(t0, hops, (size_t)ntrees * room * sizeof(*t0));
    n = 0;
    for (int i = 0; i < ntrees; i++) {
        const struct swai_mteg_hop *h = &hops[(size_t)i * room];

        for (size_t v = 0; v < N; v++) {
            held[(size_t)i * N + v] = -1;
        }
        if (nhops[i]) {
            held[(size_t)i * N + (size_t)m->e[h[0].e].u] = 0;    /* the source */
        }
        ways_below(m, h, nhops[i], below, longest);
        for (int k = 0; k < nhops[i]; k++) {
            p[n++] = (struct pending){ i, k, below[k] };
        }
    }
    qsort(p, n, sizeof(*p), by_below);
    swai_mteg_clear(m);
    /* every slot, the ready hops by their way below; a hop taken leaves the list */
    for (int t = 0; n && t <= m->H; t++) {
        size_t keep = 0;

        for (size_t j = 0; j < n; j++) {
            struct swai_mteg_hop *h = &hops[(size_t)p[j].tree * room + (size_t)p[j].k];
            const struct swai_mteg_edge *e = &m->e[h->e];
            int at = held[(size_t)p[j].tree * N + (size_t)e->u];

            if (at >= 0 && at <= t && t + e->L <= m->H && swai_mteg_edge_free(m, e, t)) {
                h->t = t;
                swai_mteg_take(m, h, true);
                held[(size_t)p[j].tree * N + (size_t)e->v] = t + e->L;
                last = t + e->L > last ? t + e->L : last;
                continue;
            }
            p[keep++] = p[j];
        }
        n = keep;
    }
    if (n || last >= *slots) {
        /* H slots were not enough, or it is no better: the plan as it was */
        memcpy(hops, t0, (size_t)ntrees * room * sizeof(*t0));
        swai_mteg_clear(m);
        swai_mteg_take_trees(m, ntrees, room, hops, nhops, true);
        goto out;
    }
    *slots = last;
out:
    free(p);
    free(held);
    free(below);
    free(longest);
    free(t0);
    return ret;
}
