/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-fold.c - ours, on the card: reduction trees timed forward as
 * the card runs them, a hop's COPY and its reduction apart
 * (swai-mteg.h, swai_mteg_fold_time).
 *
 * An MTEG edge holds its resources in one interval, so a reduction tree
 * planned on it reduces each partial sum the moment it lands; if the
 * receiver's engine is busy then, the sender waits.  On the card the sum
 * waits in its landing slot instead, and the receiver reduces it when it
 * gets to it.  With the engines the bottleneck of a reduction on the card
 * (every card sends N - 1 partial sums and reduces as many), that wait is
 * what keeps them busy: a DGX-1 ReduceScatter at 1 MiB in 707 slots
 * planned, the same trees in far fewer timed here.
 *
 * List scheduling in real time, slot by slot: a sum's COPY may start when
 * every sum into its sender is reduced, its reduction when it has landed
 * and the sender's earlier sums to that card are reduced (a rank's k-th
 * receive from a peer is its k-th send); the ready task with the longest way to its tree's root goes first
 * wherever its engine (and the COPY's links) are free.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"

/* Past this many tasks x slots the timing is left out (a plan takes longer). */
#define FOLD_MAX_WORK 4e8

struct task {
    int tree, k;
    bool fold;          /* the receiver's reduction, else the sender's COPY */
    int up;             /* slots from its start to its tree's last reduction */
};

static int by_up(const void *a, const void *b)
{
    const struct task *x = a, *y = b;

    if (x->up != y->up) {
        return y->up - x->up;
    }
    if (x->fold != y->fold) {
        return x->fold ? -1 : 1;
    }
    return x->tree != y->tree ? x->tree - y->tree : x->k - y->k;
}

/* Edge @e's reduction: the receiver's engine, first backwards (swai-mteg.c). */
static int fold_slots(const struct swai_mteg_edge *e)
{
    return e->busy[e->nlinks];
}

/* Every hop of @e but the reduction free (or taken) from real slot @r on. */
static bool copy_at(const struct swai_mteg *m, uint8_t *cal, const struct swai_mteg_edge *e,
                    int r, bool take)
{
    for (int k = 0; k < e->nhops; k++) {
        int from = r + e->L - e->at[k] - e->busy[k];
        uint8_t *c = &cal[(size_t)e->res[k] * (size_t)(m->H + 1)];

        if (k == e->nlinks) {
            continue;
        }
        if (take) {
            memset(&c[from], 1, (size_t)e->busy[k]);
            continue;
        }
        if (from < 0 || from + e->busy[k] > m->H + 1 || memchr(&c[from], 1, (size_t)e->busy[k])) {
            return false;
        }
    }
    return true;
}

int swai_mteg_fold_time(const struct swai_mteg *m, int ntrees, size_t room,
                        struct swai_mteg_hop *hops, const int *nhops, int *wait, int *slots)
{
    size_t N = (size_t)m->ncards, n = 0, at = 0;
    int H = m->H, T = 0, ret = 0;
    struct task *p;
    int *into = malloc((size_t)ntrees * N * sizeof(int));   /* [tree][card]: its hop in, plan's */
    int *left = calloc((size_t)ntrees * N, sizeof(int));    /* sums still to reduce */
    int *ready = calloc((size_t)ntrees * N, sizeof(int));   /* when the last was */
    int *start = malloc((size_t)ntrees * room * 3 * sizeof(int));   /* COPY, reduction, seq */
    int *sent = calloc(N * N, sizeof(int)), *folded = calloc(N * N, sizeof(int));   /* [v][u] */
    uint8_t *cal = calloc((size_t)m->nres * (size_t)(H + 1), 1);

    for (int i = 0; i < ntrees; i++) {
        n += 2 * (size_t)nhops[i];
    }
    p = malloc((n ? n : 1) * sizeof(*p));
    if (!p || !into || !left || !ready || !start || !cal || !sent || !folded) {
        ret = -ENOMEM;
        goto out;
    }
    if ((double)n * (H + 1) > FOLD_MAX_WORK) {
        goto out;
    }
    for (int i = 0; i < ntrees; i++) {
        const struct swai_mteg_hop *h = &hops[(size_t)i * room];
        int *in = &into[(size_t)i * N];

        for (size_t v = 0; v < N; v++) {
            in[v] = -1;
        }
        /* the plan's hops come parent first: a hop's way up is its own, then its parent's */
        for (int k = 0; k < nhops[i]; k++) {
            const struct swai_mteg_edge *e = &m->e[h[k].e];
            int above = in[e->u] >= 0 ? p[at + 2 * (size_t)in[e->u]].up : 0;

            in[e->v] = k;
            left[(size_t)i * N + (size_t)e->u]++;
            p[at + 2 * (size_t)k] = (struct task){ i, k, false, e->L + above };
            p[at + 2 * (size_t)k + 1] = (struct task){ i, k, true, fold_slots(e) + above };
            start[((size_t)i * room + (size_t)k) * 3] = -1;
        }
        at += 2 * (size_t)nhops[i];
    }
    qsort(p, n, sizeof(*p), by_up);
    for (int t = 0; n && t <= H; t++) {
        size_t keep = 0;

        for (size_t j = 0; j < n; j++) {
            size_t hop = (size_t)p[j].tree * room + (size_t)p[j].k, X = (size_t)p[j].tree * N;
            const struct swai_mteg_edge *e = &m->e[hops[hop].e];
            int R = fold_slots(e), *s = &start[hop * 3];
            size_t pair = (size_t)e->v * N + (size_t)e->u;
            uint8_t *eng = &cal[(size_t)e->res[e->nlinks] * (size_t)(H + 1)];

            if (!p[j].fold && !left[X + (size_t)e->v] && ready[X + (size_t)e->v] <= t &&
                copy_at(m, cal, e, t, false)) {
                copy_at(m, cal, e, t, true);
                s[0] = t;
                s[2] = sent[pair]++;
                continue;
            }
            /* a receiver takes a sender's messages in the order they were sent */
            if (p[j].fold && s[0] >= 0 && s[2] == folded[pair] && s[0] + e->L - R <= t &&
                t + R <= H + 1 && !memchr(&eng[t], 1, (size_t)R)) {
                memset(&eng[t], 1, (size_t)R);
                s[1] = t;
                folded[pair]++;
                left[X + (size_t)e->u]--;
                ready[X + (size_t)e->u] = t + R > ready[X + (size_t)e->u] ?
                                          t + R : ready[X + (size_t)e->u];
                T = t + R > T ? t + R : T;
                continue;
            }
            p[keep++] = p[j];
        }
        n = keep;
    }
    if (n || T >= *slots) {
        goto out;   /* H slots were not enough, or it is no better: as it was */
    }
    for (int i = 0; i < ntrees; i++) {
        for (int k = 0; k < nhops[i]; k++) {
            size_t hop = (size_t)i * room + (size_t)k;
            const struct swai_mteg_edge *e = &m->e[hops[hop].e];
            int R = fold_slots(e);

            /* backwards the reduction ends at T - t; the COPY left wait earlier than L before */
            hops[hop].t = T - start[hop * 3 + 1] - R;
            wait[hop] = start[hop * 3 + 1] - (start[hop * 3] + e->L - R);
        }
    }
    *slots = T;
out:
    free(p);
    free(into);
    free(left);
    free(ready);
    free(start);
    free(sent);
    free(folded);
    free(cal);
    return ret;
}
