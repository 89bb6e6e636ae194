/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mtegcca.c - MTEGCCA (seed 003 §2.2): a collective as broadcasts,
 * one Takahashi-Matsuyama tree per chunk on the MTEG (swai-mteg.c), and
 * the trees as the project's schedule; with the lower bounds the
 * synthesizer reports beside its completion time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"

/* One send or receive of a rank, at a slot. */
struct event {
    int slot, recv, peer;
    uint32_t off;               /* the chunk's place in OUT */
};

static int cmp_event(const void *a, const void *b)
{
    const struct event *x = a, *y = b;

    if (x->slot != y->slot) {
        return x->slot < y->slot ? -1 : 1;
    }
    if (x->recv != y->recv) {
        return x->recv ? -1 : 1;    /* what arrives at t may leave at t */
    }
    if (x->peer != y->peer) {
        return x->peer < y->peer ? -1 : 1;
    }
    return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The largest of three bounds: the bytes every card must take in over its
 * links; the bytes every node must take in from outside over the links
 * into it (the cut: NDv2 x k's one InfiniBand link down to a chassis);
 * the latency of the farthest pair, plus a chunk at the fastest rate.
 */
static double lower_bound_us(const struct swai_mteg *m, enum swai_coll coll, int root,
                             uint64_t block_bytes, uint64_t chunk_bytes)
{
    int N = m->ncards;
    uint64_t *lat = malloc((size_t)N * (size_t)N * sizeof(*lat)), worst = 0;
    double bw = 0;
    uint32_t maxb = 0;

    for (int i = 0; i < m->nedges; i++) {
        maxb = m->e[i].mbps > maxb ? m->e[i].mbps : maxb;
    }
    for (int v = 0; v < N; v++) {
        uint64_t in = m->in_mbps[v];

        if (in && (coll == SWAI_COLL_ALLGATHER || v != root)) {
            double need = coll == SWAI_COLL_ALLGATHER ? (double)(N - 1) * (double)block_bytes :
                          (double)block_bytes;

            bw = need / (double)in > bw ? need / (double)in : bw;    /* us */
        }
    }
    for (int k = 0; k < m->nnodes; k++) {
        int inside = 0, has_root = 0;

        for (int v = 0; v < N; v++) {
            inside += m->node_of[v] == k;
            has_root |= m->node_of[v] == k && v == root;
        }
        if (m->node_in_mbps[k] && inside < N) {
            double need = coll == SWAI_COLL_ALLGATHER ?
                          (double)(N - inside) * (double)block_bytes :
                          has_root ? 0 : (double)block_bytes;

            bw = need / (double)m->node_in_mbps[k] > bw ? need / (double)m->node_in_mbps[k] : bw;
        }
    }
    if (!lat) {
        return bw;
    }
    for (size_t i = 0; i < (size_t)N * (size_t)N; i++) {
        lat[i] = i % ((size_t)N + 1) ? UINT64_MAX / 4 : 0;
    }
    for (int i = 0; i < m->nedges; i++) {
        uint64_t *l = &lat[(size_t)m->e[i].u * (size_t)N + (size_t)m->e[i].v];

        *l = m->e[i].latency_ns < *l ? m->e[i].latency_ns : *l;
    }
    for (int k = 0; k < N; k++) {
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                uint64_t via = lat[(size_t)i * N + k] + lat[(size_t)k * N + j];

                if (via < lat[(size_t)i * N + j]) {
                    lat[(size_t)i * N + j] = via;
                }
            }
        }
    }
    for (int s = 0; s < N; s++) {
        for (int v = 0; v < N; v++) {
            if ((coll == SWAI_COLL_ALLGATHER || s == root) && lat[(size_t)s * N + v] > worst &&
                lat[(size_t)s * N + v] < UINT64_MAX / 4) {
                worst = lat[(size_t)s * N + v];
            }
        }
    }
    free(lat);
    /* the farthest pair's latency and one chunk at the fastest link's rate */
    {
        double l = (double)worst / 1e3 + (maxb ? (double)chunk_bytes / maxb : 0);

        return l > bw ? l : bw;
    }
}

/* Plan every tree on an MTEG of @H slots; -ENOSPC if one does not fit. */
static int plan(const struct swai_topo *t, enum swai_coll coll, int root, int nsrc,
                uint32_t chunks, uint64_t chunk_bytes, int H, unsigned flags, struct swai_mteg *m,
                struct swai_mteg_hop *hops, int *nhops, int *slots, char *why, size_t n)
{
    int N = t->ncards, *arrive = malloc((size_t)N * sizeof(int)), ret;

    if (!arrive) {
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    ret = swai_mteg_build(m, t, chunk_bytes, H, flags, why, n);
    *slots = 0;
    /* broadcasts by data volume, largest first: all equal here, so by card */
    for (int i = 0; !ret && i < nsrc; i++) {
        int src = coll == SWAI_COLL_ALLGATHER ? i : root;

        for (uint32_t c = 0; !ret && c < chunks; c++) {
            struct swai_mteg_hop *h = &hops[((size_t)i * chunks + c) * (size_t)N * (size_t)N];

            ret = swai_mteg_tree(m, src, h, &nhops[(size_t)i * chunks + c], arrive);
            for (int v = 0; !ret && v < N; v++) {
                *slots = arrive[v] > *slots ? arrive[v] : *slots;
            }
        }
    }
    if (ret == -ENOMEM) {
        snprintf(why, n, "out of memory");
    }
    if (ret) {
        swai_mteg_free(m);
    }
    free(arrive);
    return ret;
}

/* Each hop of every tree as the sender's and the receiver's event (@ev NULL: count). */
static void events(const struct swai_mteg *m, enum swai_coll coll, int root, int nsrc,
                   uint32_t chunks, const struct swai_mteg_hop *hops, const int *nhops,
                   struct event **ev, int *nev)
{
    int N = m->ncards;

    for (int i = 0; i < nsrc; i++) {
        int src = coll == SWAI_COLL_ALLGATHER ? i : root;

        for (uint32_t c = 0; c < chunks; c++) {
            size_t tree = (size_t)i * chunks + c;
            uint32_t off = (coll == SWAI_COLL_ALLGATHER ? (uint32_t)src * chunks : 0) + c;

            for (int k = 0; k < nhops[tree]; k++) {
                const struct swai_mteg_hop *h = &hops[tree * (size_t)N * (size_t)N + (size_t)k];
                const struct swai_mteg_edge *e = &m->e[h->e];

                if (ev) {
                    ev[e->u][nev[e->u]] = (struct event){ h->t, 0, e->v, off };
                    ev[e->v][nev[e->v]] = (struct event){ h->t + e->L, 1, e->u, off };
                }
                nev[e->u]++;
                nev[e->v]++;
            }
        }
    }
}

/* The trees as steps: every rank's sends and receives in slot order. */
int swai_mteg_schedule(const struct swai_mteg *m, const char *name, enum swai_coll coll,
                       int root, uint32_t chunks, const struct swai_mteg_hop *hops,
                       const int *nhops, struct swai_sched *s, char *why, size_t n)
{
    int N = m->ncards, nsrc = coll == SWAI_COLL_ALLGATHER ? N : 1;
    struct event **ev = calloc((size_t)N, sizeof(*ev));
    int *nev = calloc((size_t)N, sizeof(*nev)), ret;

    ret = swai_sched_init(s, name, coll, N, root, chunks);
    if (!ev || !nev) {
        ret = -ENOMEM;
    }
    if (!ret) {
        events(m, coll, root, nsrc, chunks, hops, nhops, NULL, nev);
    }
    for (int r = 0; !ret && r < N; r++) {
        ev[r] = malloc(((size_t)nev[r] + 1) * sizeof(**ev));
        nev[r] = 0;
        if (!ev[r]) {
            ret = -ENOMEM;
        }
    }
    if (!ret) {
        events(m, coll, root, nsrc, chunks, hops, nhops, ev, nev);
    }
    for (int r = 0; !ret && r < N; r++) {
        if (coll == SWAI_COLL_ALLGATHER) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, (uint32_t)r * chunks, chunks, 0);
        } else if (r == root) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, chunks, 0);
        }
        qsort(ev[r], (size_t)nev[r], sizeof(**ev), cmp_event);
        for (int k = 0; k < nev[r]; k++) {
            const struct event *x = &ev[r][k];

            if (x->recv) {
                swai_sched_recv(s, r, x->peer, SWAI_BUF_OUT, x->off, 1, (uint32_t)x->slot);
            } else {
                swai_sched_send(s, r, x->peer, SWAI_BUF_OUT, x->off, 1, (uint32_t)x->slot);
            }
        }
    }
    if (!ret) {
        ret = s->err ? s->err : swai_sched_autodeps(s);
    }
    for (int r = 0; ev && r < N; r++) {
        free(ev[r]);
    }
    free(ev);
    free(nev);
    if (ret) {
        snprintf(why, n, ret == -ENOMEM ? "out of memory" : "the schedule cannot be built");
        if (s->ranks) {
            swai_sched_free(s);
        }
    }
    return ret;
}

void swai_mteg_plan_free(struct swai_mteg_plan *p)
{
    swai_mteg_free(&p->m);
    free(p->hops);
    free(p->nhops);
    memset(p, 0, sizeof(*p));
}

int swai_mteg_plan(const struct swai_topo *t, enum swai_coll coll, int root,
                   uint64_t block_bytes, uint32_t chunks, int H, unsigned flags,
                   struct swai_mteg_plan *p, struct swai_mteg_result *res, char *why, size_t n)
{
    int N = t->ncards, nsrc = coll == SWAI_COLL_ALLGATHER ? N : 1, ret, slots;
    uint64_t chunk_bytes = chunks ? (block_bytes + chunks - 1) / chunks : 0;

    memset(res, 0, sizeof(*res));
    memset(p, 0, sizeof(*p));
    if (coll != SWAI_COLL_ALLGATHER && coll != SWAI_COLL_BROADCAST) {
        snprintf(why, n, "%s: the synthesizer makes allgather and broadcast",
                 swai_coll_name(coll));
        return -EINVAL;
    }
    if (!chunks || !chunk_bytes || N < 2 || root < 0 || root >= N) {
        snprintf(why, n, "%d cards, root %d, %u chunks of %llu bytes: need 2 cards, a root "
                 "among them, a chunk of at least a byte", N, root, chunks,
                 (unsigned long long)chunk_bytes);
        return -EINVAL;
    }
    /* a tree's paths visit a card at most once each: at most N x N hops */
    p->ntrees = nsrc * (int)chunks;
    p->hops = malloc((size_t)p->ntrees * (size_t)N * (size_t)N * sizeof(*p->hops));
    p->nhops = calloc((size_t)p->ntrees, sizeof(*p->nhops));
    if (!p->hops || !p->nhops) {
        swai_mteg_plan_free(p);
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    /* Without a budget: from a few slots a card, doubling until every tree fits. */
    for (int h = H ? H : 4 * N;; h *= 2) {
        ret = plan(t, coll, root, nsrc, chunks, chunk_bytes, h, flags, &p->m, p->hops,
                   p->nhops, &slots, why, n);
        if (ret != -ENOSPC || H || h > (1 << 16)) {
            if (ret == -ENOSPC) {
                snprintf(why, n, "%d slots do not reach every card (--slots more)", h);
            }
            break;
        }
    }
    if (ret) {
        free(p->hops);
        free(p->nhops);
        memset(p, 0, sizeof(*p));   /* plan() freed the MTEG */
        return ret;
    }
    res->H = p->m.H;
    res->slots = slots;
    res->completion_us = (double)slots * (double)p->m.tau_ps / 1e6;
    res->lower_bound_us = lower_bound_us(&p->m, coll, root, block_bytes, chunk_bytes);
    return 0;
}

int swai_mteg_synth(const struct swai_topo *t, enum swai_coll coll, int root,
                    uint64_t block_bytes, uint32_t chunks, int H, unsigned flags,
                    struct swai_sched *s, struct swai_mteg_result *res,
                    char *why, size_t n)
{
    struct swai_mteg_plan p;
    int ret;

    ret = swai_mteg_plan(t, coll, root, block_bytes, chunks, H, flags, &p, res, why, n);
    if (!ret) {
        ret = swai_mteg_schedule(&p.m, "MTEG", coll, root, chunks, p.hops, p.nhops, s, why, n);
        swai_mteg_plan_free(&p);
    }
    return ret;
}
