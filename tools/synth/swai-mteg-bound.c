/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-bound.c - the lower bound the synthesizer reports beside its
 * completion time (swai-mteg.h, swai_mteg_lower_bound), in the MTEG's own
 * slots, so that "x % above the bound" compares like with like.
 *
 * Two arguments (AllToAll: four), the largest wins:
 *  - latency: no card holds a chunk before the shortest path in slots from
 *    its source;
 *  - cuts: a set S of cards (every card alone and every node of the
 *    topology; for a plan above those, swai_mteg_subset_bound, every subset
 *    of the cards where there are at most SWAI_MTEG_CUT_SUBSETS, else every
 *    pair) must take in M chunks from outside.  Each enters S at least once
 *    over an edge into S, crossing each of the edge's hops; count one hop
 *    of every such edge -- the last, or the same number of links before it
 *    (entry_hop) -- and that hop's link carries one chunk per the slots its
 *    bytes take from the first slot a chunk can reach it, so the M first
 *    entries need some last start T'.  (Bytes, under the seed's rule too:
 *    that rule promises more than the links carry, and the bound says so.)
 *    The chunk that enters last must still reach every card of S: at least
 *    the rest of its edge from that hop and the shortest path on inside (a
 *    card: the rest of the edge only).  AMD's chassis: half of it behind
 *    the links between the halves, 26 slots for a Broadcast of 16 chunks
 *    where the cards, the nodes and the packing gave 21 at most; a pair of
 *    AMD's cards behind their pair switch, AllGather's best set.  NDv2 x k:
 *    8 x (k-1) chunks down one InfiniBand link, one at a time, then across
 *    the chassis; AMD x k: 16 x (k-1) down the eight links from the top
 *    switch into a chassis, two hops after their sources and two before a
 *    card.
 *    AllToAll: S takes in a chunk from every card outside for every card
 *    inside, and the last need reach one card;
 *    and the volume of its demands' cheapest paths over all the links
 *    (volume_slots), and the same as a flow that knows which links each
 *    demand can reach (swai_mteg_flow_bound, an LP by CLP).  AllGather:
 *    also the busiest link of the best fractional packing of its trees
 *    (swai_mteg_pack), which counts every cut at once.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "swai-mteg.h"

#define FAR 0x3fffffff

/* An edge's weight: the slots it advances, or (@volume) the link-slots its bytes hold. */
static long weight(const struct swai_mteg_edge *e, bool volume)
{
    long c = 0;

    if (!volume) {
        return e->L;
    }
    for (int k = 0; k < e->nhops; k++) {
        c += e->bytes[k];
    }
    return c;
}

/* The least weight between every two cards over the MTEG's edges (no conflicts). */
static long *all_pairs(const struct swai_mteg *m, bool volume)
{
    size_t N = (size_t)m->ncards;
    long *d = malloc(N * N * sizeof(*d));

    if (!d) {
        return NULL;
    }
    for (size_t i = 0; i < N * N; i++) {
        d[i] = i % (N + 1) ? FAR : 0;
    }
    for (int i = 0; i < m->nedges; i++) {
        long *x = &d[(size_t)m->e[i].u * N + (size_t)m->e[i].v];

        *x = weight(&m->e[i], volume) < *x ? weight(&m->e[i], volume) : *x;
    }
    for (size_t k = 0; k < N; k++) {
        for (size_t i = 0; i < N; i++) {
            for (size_t j = 0; d[i * N + k] < FAR && j < N; j++) {
                if (d[i * N + k] + d[k * N + j] < d[i * N + j]) {
                    d[i * N + j] = d[i * N + k] + d[k * N + j];
                }
            }
        }
    }
    return d;
}

/*
 * The hop of edge @e that a cut counts: its last link's (@back 0), where a
 * chunk enters the card it goes to, or @back links before it (its first
 * link's where it has fewer).  Every chunk that enters S crosses that hop
 * of the edge it enters by, whichever hop it is, so each @back gives a
 * bound.  Where links before a card are shared, an earlier hop is the
 * narrower way in: AMD's sixteen cards of a chassis each have a switch
 * link of their own, but their chassis takes in every chunk through the
 * eight links from the top switch, and a chunk is on those two hops after
 * it left its source and two before it lands.
 */
static int entry_hop(const struct swai_mteg_edge *e, int back)
{
    return e->nlinks - 1 - back > 0 ? e->nlinks - 1 - back : 0;
}

/* Scratch for one set's cut (a card's and a resource's worth each). */
struct scratch {
    long *head;                 /* [card] */
    int *s, *b, *used, nused;   /* [res], and the resources in use */
};

/*
 * The smallest slot T' by which the links into S (the hops entry_hop
 * counts of the edges into it) can have started @M chunks: a link from
 * the first slot a chunk can be on it, one chunk every `busy` slots (the
 * least of the edges on it, so that the bound stays a bound).
 */
static int last_entry(const struct swai_mteg *m, const bool *in, int M, const int *held,
                      int back, struct scratch *x)
{
    int T = FAR, latest = 0, widest = 1;

    x->nused = 0;
    for (int v = 0; v < m->ncards; v++) {
        for (int j = in[v] ? m->in_off[v] : 0; in[v] && j < m->in_off[v + 1]; j++) {
            const struct swai_mteg_edge *e = &m->e[m->in[j]];
            int k = entry_hop(e, back), r = e->res[k];

            if (in[e->u] || held[e->u] >= FAR) {
                continue;
            }
            if (x->s[r] == FAR) {
                x->used[x->nused++] = r;
            }
            x->s[r] = held[e->u] + e->at[k] < x->s[r] ? held[e->u] + e->at[k] : x->s[r];
            x->b[r] = e->bytes[k] < x->b[r] ? e->bytes[k] : x->b[r];
        }
    }
    for (int j = 0; j < x->nused; j++) {
        int r = x->used[j];

        T = x->s[r] < T ? x->s[r] : T;
        latest = x->s[r] > latest ? x->s[r] : latest;
        widest = x->b[r] > widest ? x->b[r] : widest;
    }
    /*
     * The links' capacity by T grows with T, and one link alone carries M by
     * latest + M x widest: the least T with M, by bisection.
     */
    if (T < FAR) {
        int lo = T, hi = latest + M * widest;

        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            long cap = 0;

            for (int j = 0; j < x->nused && cap < M; j++) {
                int r = x->used[j];

                cap += x->s[r] <= mid ? (mid - x->s[r]) / x->b[r] + 1 : 0;
            }
            if (cap >= M) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        T = lo;
    }
    for (int j = 0; j < x->nused; j++) {
        x->s[x->used[j]] = FAR;     /* as found: every resource FAR */
        x->b[x->used[j]] = FAR;
    }
    return T;
}

/*
 * The cut bound of the cards with in[v] set: @M chunks from outside, the
 * earliest a chunk is at any card @held[u] (0 for AllGather's sources).
 */
static int cut_slots(const struct swai_mteg *m, const bool *in, int M, const int *held,
                     const long *d, bool unicast, int back, struct scratch *x)
{
    long drain = unicast ? FAR : 0;
    int N = m->ncards;

    if (M <= 0) {
        return 0;
    }
    /*
     * The chunk entering last: the rest of its edge (the least over the
     * edges into each card w of S, head[w]), then on to the farthest card
     * of S (AllToAll: the nearest).
     */
    for (int w = 0; w < N; w++) {
        x->head[w] = FAR;
        for (int j = in[w] ? m->in_off[w] : 0; in[w] && j < m->in_off[w + 1]; j++) {
            const struct swai_mteg_edge *e = &m->e[m->in[j]];
            int rest = e->L - e->at[entry_hop(e, back)];

            if (!in[e->u] && rest < x->head[w]) {
                x->head[w] = rest;
            }
        }
    }
    for (int v = 0; v < N; v++) {
        long best = FAR;

        for (int w = 0; in[v] && w < N; w++) {
            long y = d[(size_t)w * (size_t)N + (size_t)v];

            if (x->head[w] < FAR && y < FAR && x->head[w] + y < best) {
                best = x->head[w] + y;
            }
        }
        if (in[v] && !unicast) {
            drain = best > drain ? best : drain;
        } else if (in[v]) {
            drain = best < drain ? best : drain;    /* it need reach one card */
        }
    }
    if (drain >= FAR) {
        return FAR;     /* S cannot be reached */
    }
    return last_entry(m, in, M, held, back, x) + (int)drain;
}

/*
 * AllToAll's volume: every chunk holds each link of its path for the
 * slots its bytes take there, so the demands need at least the sum over
 * them of their cheapest such path, and the links
 * give nres link-slots a slot.  (Relays spend links twice: on a DGX-1
 * three of a card's seven peers are two hops away.)
 */
static int volume_slots(const struct swai_mteg *m, uint32_t chunks)
{
    size_t N = (size_t)m->ncards;
    long *w = all_pairs(m, true), total = 0;

    if (!w || !m->nres) {
        free(w);
        return 0;
    }
    for (size_t i = 0; i < N * N; i++) {
        total += w[i] < FAR ? w[i] * (long)chunks : 0;
    }
    free(w);
    return (int)((total + m->nres - 1) / m->nres);
}

/* What every set's cut bound needs (swai_mteg_cut_bound). */
struct cut {
    enum swai_coll coll;
    int root, links;
    uint32_t chunks;
    const int *held;
    const long *d;
    struct scratch *x;
};

/* The largest of @best and the cut bounds of the cards with in[v] set. */
static int set_bound(const struct swai_mteg *m, const struct cut *c, const bool *in, int best)
{
    int N = m->ncards, inside = 0, has_root = 0, M;

    for (int v = 0; v < N; v++) {
        inside += in[v];
        has_root |= in[v] && v == c->root;
    }
    if (!inside || inside == N) {
        return best;
    }
    M = c->coll == SWAI_COLL_ALLGATHER ? (N - inside) * (int)c->chunks :
        c->coll == SWAI_COLL_ALLTOALL ? inside * (N - inside) * (int)c->chunks :
        has_root ? 0 : (int)c->chunks;
    for (int back = 0; back < c->links; back++) {
        int t = cut_slots(m, in, M, c->held, c->d, c->coll == SWAI_COLL_ALLTOALL, back,
                          c->x);

        best = t < FAR && t > best ? t : best;
    }
    return best;
}

/*
 * Every subset of the cards, where there are at most SWAI_MTEG_CUT_SUBSETS
 * (2^16 sets, each in O(its edges in + cards^2)); else every pair.
 */
static void subsets(const struct swai_mteg *m, const struct cut *c, bool *in, int *best)
{
    int N = m->ncards;

    for (uint32_t set = 1; N <= SWAI_MTEG_CUT_SUBSETS && set < (1u << N); set++) {
        for (int v = 0; v < N; v++) {
            in[v] = set >> v & 1;
        }
        *best = set_bound(m, c, in, *best);
    }
    for (int a = 0; N > SWAI_MTEG_CUT_SUBSETS && a < N; a++) {
        for (int b = a + 1; b < N; b++) {
            for (int v = 0; v < N; v++) {
                in[v] = v == a || v == b;
            }
            *best = set_bound(m, c, in, *best);
        }
    }
}

/*
 * The latency and the cuts of every card alone and every node (@more:
 * instead of those, every subset or every pair, SWAI_MTEG_CUT_SUBSETS).
 */
static int cuts(const struct swai_mteg *m, enum swai_coll coll, int root, uint32_t chunks,
                bool more)
{
    int N = m->ncards, best = 0, links = 1, *held = malloc((size_t)N * sizeof(*held));
    bool *in = calloc((size_t)N, sizeof(*in));
    long *d = all_pairs(m, false);
    bool every = coll == SWAI_COLL_ALLGATHER || coll == SWAI_COLL_ALLTOALL;
    struct scratch x = {
        .head = malloc((size_t)N * sizeof(*x.head)),
        .s = malloc(((size_t)m->nres + 1) * sizeof(*x.s)),
        .b = malloc(((size_t)m->nres + 1) * sizeof(*x.b)),
        .used = malloc(((size_t)m->nres + 1) * sizeof(*x.used)),
    };
    struct cut c = { coll, root, 1, chunks, held, d, &x };

    if (!d || !held || !in || !x.head || !x.s || !x.b || !x.used) {
        best = 0;   /* no bound is still a bound */
        goto out;
    }
    for (int r = 0; r < m->nres; r++) {
        x.s[r] = FAR;
        x.b[r] = FAR;
    }
    for (int v = 0; v < N; v++) {
        held[v] = every ? 0 : (int)d[(size_t)root * (size_t)N + (size_t)v];
        for (int s = 0; s < N; s++) {
            long dist = d[(size_t)s * (size_t)N + (size_t)v];

            if ((every || s == root) && dist < FAR && dist > best) {
                best = (int)dist;   /* latency */
            }
        }
    }
    for (int i = 0; i < m->nedges; i++) {
        links = m->e[i].nlinks > links ? m->e[i].nlinks : links;
    }
    c.links = links;
    if (more) {
        subsets(m, &c, in, &best);
        goto out;
    }
    if (coll == SWAI_COLL_ALLTOALL) {
        int v = volume_slots(m, chunks), f = swai_mteg_flow_bound(m, chunks);

        best = v > best ? v : best;
        best = f > best ? f : best;
    }
    /* every card alone, then every node; each at every hop back from the last */
    for (int k = 0; k < N + m->nnodes; k++) {
        for (int v = 0; v < N; v++) {
            in[v] = k < N ? v == k : m->node_of[v] == k - N;
        }
        best = set_bound(m, &c, in, best);
    }
out:
    free(d);
    free(held);
    free(in);
    free(x.head);
    free(x.s);
    free(x.b);
    free(x.used);
    return best;
}

int swai_mteg_cut_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                        uint32_t chunks)
{
    return cuts(m, coll, root, chunks, false);
}

int swai_mteg_subset_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                           uint32_t chunks)
{
    return cuts(m, coll, root, chunks, true);
}

int swai_mteg_pack_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                         uint32_t chunks)
{
    double T = m->pack_slots;
    int ret;

    if (coll != SWAI_COLL_ALLGATHER && coll != SWAI_COLL_BROADCAST) {
        return 0;
    }
    ret = T > 0 ? 0 : coll == SWAI_COLL_BROADCAST ? swai_mteg_pack_root(m, chunks, root, NULL, &T) :
          swai_mteg_pack(m, chunks, NULL, &T);
    if (!ret) {
        return (int)(T - 1e-6) + 1;     /* a link's slots are whole: at least ceil(T) */
    }
    /* an AllGather too large: node 0 against the rest merged, a smaller LP */
    return ret == -E2BIG && coll == SWAI_COLL_ALLGATHER ? swai_mteg_node_bound(m, chunks) : 0;
}

int swai_mteg_lower_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                          uint32_t chunks)
{
    int best = swai_mteg_cut_bound(m, coll, root, chunks);
    int p = swai_mteg_pack_bound(m, coll, root, chunks);
    int s = swai_mteg_subset_bound(m, coll, root, chunks);

    best = p > best ? p : best;
    return s > best ? s : best;
}
