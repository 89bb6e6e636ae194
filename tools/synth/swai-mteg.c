/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg.c - the multicast time-expanded graph and one Takahashi-
 * Matsuyama tree on it (swai-mteg.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"

#define INF 0x3fffffff

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

void swai_mteg_free(struct swai_mteg *m)
{
    free(m->e);
    free(m->in_off);
    free(m->in);
    free(m->taken);
    memset(m, 0, sizeof(*m));
}

int swai_mteg_build(struct swai_mteg *m, const struct swai_topo *t,
                    uint64_t chunk_bytes, int H, char *why, size_t n)
{
    uint32_t maxb = 0;
    int *card_of = NULL, k = 0;

    memset(m, 0, sizeof(*m));
    if (H < 1 || !chunk_bytes) {
        snprintf(why, n, "%d slots of %llu-byte chunks: at least 1 slot and 1 byte", H,
                 (unsigned long long)chunk_bytes);
        return -EINVAL;
    }
    card_of = malloc((size_t)t->ndevs * sizeof(*card_of));
    m->e = malloc(2 * ((size_t)t->nlinks + 1) * sizeof(*m->e));
    m->in_off = calloc((size_t)t->ncards + 1, sizeof(*m->in_off));
    if (!card_of || !m->e || !m->in_off) {
        free(card_of);
        swai_mteg_free(m);
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    for (int d = 0; d < t->ndevs; d++) {
        card_of[d] = -1;
    }
    for (int c = 0; c < t->ncards; c++) {
        card_of[t->card_dev[c]] = c;
    }
    for (int l = 0; l < t->nlinks; l++) {
        const struct swai_topo_link *lk = &t->links[l];

        if (card_of[lk->a] < 0 || card_of[lk->b] < 0) {
            snprintf(why, n, "%s: a switch (%s); the synthesizer takes links between "
                     "cards only, for now", t->name,
                     card_of[lk->a] < 0 ? t->devs[lk->a].name : t->devs[lk->b].name);
            free(card_of);
            swai_mteg_free(m);
            return -EINVAL;
        }
        maxb = lk->mbps > maxb ? lk->mbps : maxb;
        for (int dir = 0; dir < (lk->oneway ? 1 : 2); dir++) {
            m->e[k++] = (struct swai_mteg_edge){
                .u = card_of[dir ? lk->b : lk->a], .v = card_of[dir ? lk->a : lk->b],
                .mbps = lk->mbps, .latency_ns = lk->latency_ns };
        }
    }
    free(card_of);
    if (!k) {
        snprintf(why, n, "%s has no link between cards", t->name);
        swai_mteg_free(m);
        return -EINVAL;
    }
    m->ncards = t->ncards;
    m->nedges = k;
    m->H = H;
    /* tau = mu / max B; L = ceil(alpha / tau) + ceil(maxB / B) */
    m->tau_ps = swai_timing_ps(chunk_bytes, maxb);
    if (!m->tau_ps) {
        m->tau_ps = 1;
    }
    for (int i = 0; i < k; i++) {
        struct swai_mteg_edge *e = &m->e[i];

        e->L = (int)(ceil_div((uint64_t)e->latency_ns * 1000, m->tau_ps) +
                     ceil_div(maxb, e->mbps));
        m->in_off[e->v + 1]++;
    }
    for (int c = 0; c < m->ncards; c++) {
        m->in_off[c + 1] += m->in_off[c];
    }
    m->in = malloc((size_t)k * sizeof(*m->in));
    m->taken = calloc((size_t)k * (size_t)(H + 1), 1);
    if (!m->in || !m->taken) {
        swai_mteg_free(m);
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    {
        int *fill = calloc((size_t)m->ncards, sizeof(*fill));

        if (!fill) {
            swai_mteg_free(m);
            snprintf(why, n, "out of memory");
            return -ENOMEM;
        }
        for (int i = 0; i < k; i++) {
            m->in[m->in_off[m->e[i].v] + fill[m->e[i].v]++] = i;
        }
        free(fill);
    }
    return 0;
}

/*
 * The distance of every (card, slot) from the tree: one sweep in slot
 * order.  pred: -1 in the tree, -2 by storage, else the edge it came over.
 */
static void sweep(const struct swai_mteg *m, const bool *intree, int *dist, int *pred)
{
    int N = m->ncards, H = m->H;

    for (int t = 0; t <= H; t++) {
        for (int v = 0; v < N; v++) {
            int i = v * (H + 1) + t, d = INF, p = -3;

            if (intree[i]) {
                d = 0;
                p = -1;
            } else if (t && dist[i - 1] < INF) {
                d = dist[i - 1] + 1;
                p = -2;
            }
            for (int k = m->in_off[v]; k < m->in_off[v + 1]; k++) {
                const struct swai_mteg_edge *e = &m->e[m->in[k]];
                int t0 = t - e->L;

                if (t0 < 0 || m->taken[(size_t)m->in[k] * (size_t)(H + 1) + (size_t)t0] ||
                    dist[e->u * (H + 1) + t0] >= INF) {
                    continue;
                }
                if (dist[e->u * (H + 1) + t0] + e->L < d) {
                    d = dist[e->u * (H + 1) + t0] + e->L;
                    p = m->in[k];
                }
            }
            dist[i] = d;
            pred[i] = p;
        }
    }
}

int swai_mteg_tree(struct swai_mteg *m, int src, struct swai_mteg_hop *hops,
                   int *nhops, int *arrive)
{
    int N = m->ncards, H = m->H, ret = 0, left = N - 1;
    size_t cells = (size_t)N * (size_t)(H + 1);
    bool *intree = calloc(cells, sizeof(*intree));
    int *dist = malloc(cells * sizeof(*dist)), *pred = malloc(cells * sizeof(*pred));

    *nhops = 0;
    if (!intree || !dist || !pred) {
        ret = -ENOMEM;
        goto out;
    }
    for (int v = 0; v < N; v++) {
        arrive[v] = -1;
    }
    arrive[src] = 0;
    intree[src * (H + 1)] = true;
    while (left > 0) {
        int best = -1, best_t = 0, best_d = INF;

        sweep(m, intree, dist, pred);
        /* the uncovered card closest to the tree (its sink: min over slots) */
        for (int v = 0; v < N; v++) {
            if (arrive[v] >= 0) {
                continue;
            }
            for (int t = 0; t <= H; t++) {
                if (dist[v * (H + 1) + t] < best_d) {
                    best_d = dist[v * (H + 1) + t];
                    best = v;
                    best_t = t;
                }
            }
        }
        if (best < 0) {
            ret = -ENOSPC;
            goto out;
        }
        /* its shortest path joins the tree; every card on it is covered */
        for (int v = best, t = best_t; !intree[v * (H + 1) + t];) {
            int p = pred[v * (H + 1) + t];

            intree[v * (H + 1) + t] = true;
            if (p == -2) {
                t--;
                continue;
            }
            if (*nhops >= N * N) {     /* a path visits a card once: never */
                ret = -ENOSPC;
                goto out;
            }
            hops[(*nhops)++] = (struct swai_mteg_hop){ p, t - m->e[p].L };
            if (arrive[v] < 0 || arrive[v] > t) {
                left -= arrive[v] < 0;
                arrive[v] = t;
            }
            t -= m->e[p].L;
            v = m->e[p].u;
        }
    }
    for (int i = 0; i < *nhops; i++) {
        m->taken[(size_t)hops[i].e * (size_t)(H + 1) + (size_t)hops[i].t] = 1;
    }
out:
    if (ret) {
        *nhops = 0;
    }
    free(intree);
    free(dist);
    free(pred);
    return ret;
}
