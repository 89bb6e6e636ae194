/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-topo-route.c - routes between cards (swai-topo.h): Dijkstra on
 * (latency, hops), through switches only, with a binary heap so a
 * thousand-card fabric routes every pair in well under a second.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-topo.h"

int swai_topo_finish(struct swai_topo *t)
{
    int *off = calloc((size_t)t->ndevs + 1, sizeof(*off));
    int *adj = malloc(((size_t)t->nlinks * 2 + 1) * sizeof(*adj));
    int *fill;

    free(t->adj_off);
    free(t->adj);
    t->adj_off = t->adj = NULL;
    if (!off || !adj) {
        free(off);
        free(adj);
        return -ENOMEM;
    }
    for (int l = 0; l < t->nlinks; l++) {
        off[t->links[l].a + 1]++;
        if (!t->links[l].oneway) {
            off[t->links[l].b + 1]++;
        }
    }
    for (int d = 0; d < t->ndevs; d++) {
        off[d + 1] += off[d];
    }
    fill = calloc((size_t)t->ndevs + 1, sizeof(*fill));
    if (!fill) {
        free(off);
        free(adj);
        return -ENOMEM;
    }
    /* entry 2l + dir: leave over link l in direction dir */
    for (int l = 0; l < t->nlinks; l++) {
        int a = t->links[l].a, b = t->links[l].b;

        adj[off[a] + fill[a]++] = 2 * l;
        if (!t->links[l].oneway) {
            adj[off[b] + fill[b]++] = 2 * l + 1;
        }
    }
    free(fill);
    t->adj_off = off;
    t->adj = adj;
    return 0;
}

struct dist {
    uint64_t lat;
    int hops;
};

static bool better(struct dist a, struct dist b)
{
    return a.lat < b.lat || (a.lat == b.lat && a.hops < b.hops);
}

/* ECMP's choice among equal ways into a device: a hash of the pair and the way. */
static uint64_t ecmp_key(int src, int dst, int way)
{
    uint64_t z = ((uint64_t)(uint32_t)src << 40) ^ ((uint64_t)(uint32_t)dst << 20) ^
                 (uint64_t)(uint32_t)way;

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A binary min-heap of devices keyed by dist[]; pos[] is -1 when out. */
struct heap {
    int *v, *pos, n;
    const struct dist *d;
};

static bool heap_less(const struct heap *h, int i, int j)
{
    struct dist a = h->d[h->v[i]], b = h->d[h->v[j]];

    return better(a, b) || (!better(b, a) && h->v[i] < h->v[j]);
}

static void heap_swap(struct heap *h, int i, int j)
{
    int t = h->v[i];

    h->v[i] = h->v[j];
    h->v[j] = t;
    h->pos[h->v[i]] = i;
    h->pos[h->v[j]] = j;
}

static void heap_up(struct heap *h, int i)
{
    while (i && heap_less(h, i, (i - 1) / 2)) {
        heap_swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static int heap_pop(struct heap *h)
{
    int top = h->v[0], i = 0;

    heap_swap(h, 0, --h->n);
    h->pos[top] = -1;
    for (;;) {
        int l = 2 * i + 1, m = i;

        if (l < h->n && heap_less(h, l, m)) {
            m = l;
        }
        if (l + 1 < h->n && heap_less(h, l + 1, m)) {
            m = l + 1;
        }
        if (m == i) {
            return top;
        }
        heap_swap(h, i, m);
        i = m;
    }
}

static void heap_push(struct heap *h, int dev)
{
    if (h->pos[dev] < 0) {
        h->v[h->n] = dev;
        h->pos[dev] = h->n++;
    }
    heap_up(h, h->pos[dev]);
}

int swai_topo_route(const struct swai_topo *t, int src, int dst,
                    struct swai_topo_route *r, char *why, size_t n)
{
    struct dist *d;
    int *via, *pos, *v, s, e, ret = 0;
    struct heap h;

    memset(r, 0, sizeof(*r));
    if (src < 0 || src >= t->ncards || dst < 0 || dst >= t->ncards ||
        src == dst) {
        snprintf(why, n, "route %d -> %d: cards are 0..%d and differ", src,
                 dst, t->ncards - 1);
        return -EINVAL;
    }
    if (!t->adj_off) {
        snprintf(why, n, "topology not finished (swai_topo_finish)");
        return -EINVAL;
    }
    s = t->card_dev[src];
    e = t->card_dev[dst];
    d = malloc((size_t)t->ndevs * sizeof(*d));
    via = malloc((size_t)t->ndevs * sizeof(*via));
    pos = malloc((size_t)t->ndevs * sizeof(*pos));
    v = malloc((size_t)t->ndevs * sizeof(*v));
    if (!d || !via || !pos || !v) {
        ret = -ENOMEM;
        goto out;
    }
    for (int i = 0; i < t->ndevs; i++) {
        d[i] = (struct dist){ UINT64_MAX, 0 };
        via[i] = -1;
        pos[i] = -1;
    }
    h = (struct heap){ .v = v, .pos = pos, .d = d };
    d[s] = (struct dist){ 0, 0 };
    heap_push(&h, s);
    while (h.n) {
        int u = heap_pop(&h);

        if (u == e) {
            break;
        }
        /* only the source and switches forward */
        if (u != s && t->devs[u].kind != SWAI_TOPO_SWITCH) {
            continue;
        }
        for (int k = t->adj_off[u]; k < t->adj_off[u + 1]; k++) {
            const struct swai_topo_link *l = &t->links[t->adj[k] / 2];
            int w = t->adj[k] % 2 ? l->a : l->b;
            struct dist nd = { d[u].lat + l->latency_ns +
                               t->devs[w].latency_ns, d[u].hops + 1 };

            if (better(nd, d[w])) {
                d[w] = nd;
                via[w] = t->adj[k];
                heap_push(&h, w);
            } else if (t->ecmp && !better(d[w], nd) && pos[w] >= 0 &&
                       ecmp_key(src, dst, t->adj[k]) < ecmp_key(src, dst, via[w])) {
                via[w] = t->adj[k];     /* an equal way: ECMP's pick */
            }
        }
    }
    if (via[e] < 0) {
        snprintf(why, n, "no route from %s to %s (cards do not forward; "
                 "add a link or a switch)", t->devs[s].name, t->devs[e].name);
        ret = -ENOENT;
        goto out;
    }
    r->nhops = d[e].hops;
    r->latency_ns = d[e].lat;
    r->mbps = UINT32_MAX;
    r->hops = malloc((size_t)r->nhops * sizeof(*r->hops));
    if (!r->hops) {
        ret = -ENOMEM;
        goto out;
    }
    for (int u = e, i = r->nhops - 1; u != s; i--) {
        const struct swai_topo_link *l = &t->links[via[u] / 2];

        r->hops[i] = (struct swai_topo_hop){ via[u] / 2, via[u] % 2 };
        if (l->mbps < r->mbps) {
            r->mbps = l->mbps;
        }
        u = via[u] % 2 ? l->b : l->a;
    }
out:
    if (ret == -ENOMEM) {
        snprintf(why, n, "out of memory");
    }
    free(d);
    free(via);
    free(pos);
    free(v);
    return ret;
}

void swai_topo_route_free(struct swai_topo_route *r)
{
    free(r->hops);
    memset(r, 0, sizeof(*r));
}

int swai_topo_check_connected(const struct swai_topo *t, char *why, size_t n)
{
    for (int a = 0; a < t->ncards; a++) {
        for (int b = 0; b < t->ncards; b++) {
            struct swai_topo_route r;
            int ret;

            if (a == b) {
                continue;
            }
            ret = swai_topo_route(t, a, b, &r, why, n);
            if (ret) {
                return ret;
            }
            swai_topo_route_free(&r);
        }
    }
    return 0;
}
