/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-bound.c - the lower bound the synthesizer reports beside its
 * completion time (swai-mteg.h, swai_mteg_lower_bound), in the MTEG's own
 * slots, so that "x % above the bound" compares like with like.
 *
 * Two arguments (AllToAll: four), the largest wins:
 *  - latency: no card holds a chunk before the shortest path in slots from
 *    its source;
 *  - cuts: a set S of cards (every card alone, and every node of the
 *    topology) must take in M chunks from outside.  Each enters S at least
 *    once over an edge into S, crossing each of the edge's hops; count one
 *    hop of every such edge -- the last, or the same number of links
 *    before it (entry_hop) -- and that hop's link carries one chunk per the
 *    slots its bytes take from the first slot a chunk can reach it, so the
 *    M first entries need some last start T'.  (Bytes, under the seed's
 *    rule too: that rule promises more than the links carry, and the bound
 *    says so.)  The chunk that enters last must still reach every card of
 *    S: at least the rest of its edge from that hop and the shortest path
 *    on inside (a card: the rest of the edge only).  NDv2 x k: 8 x (k-1)
 *    chunks down one InfiniBand link, one at a time, then across the
 *    chassis; AMD x k: 16 x (k-1) down the eight links from the top switch
 *    into a chassis, two hops after their sources and two before a card.
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

/*
 * The smallest slot T' by which the links into S (the hops entry_hop
 * counts of the edges into it) can have started @M chunks: a link from
 * the first slot a chunk can be on it, one chunk every `busy` slots (the
 * least of the edges on it, so that the bound stays a bound).
 */
static int last_entry(const struct swai_mteg *m, const bool *in, int M, const int *held,
                      int back)
{
    int *s = malloc(((size_t)m->nres + 1) * sizeof(*s));
    int *b = malloc(((size_t)m->nres + 1) * sizeof(*b));
    int T = FAR, latest = 0, widest = 1;

    if (!s || !b) {
        free(s);
        free(b);
        return 0;       /* no bound is still a bound */
    }
    for (int r = 0; r < m->nres; r++) {
        s[r] = FAR;
        b[r] = FAR;
    }
    for (int i = 0; i < m->nedges; i++) {
        const struct swai_mteg_edge *e = &m->e[i];
        int k = entry_hop(e, back), r = e->res[k];

        if (!in[e->u] && in[e->v] && held[e->u] < FAR) {
            s[r] = held[e->u] + e->at[k] < s[r] ? held[e->u] + e->at[k] : s[r];
            b[r] = e->bytes[k] < b[r] ? e->bytes[k] : b[r];
        }
    }
    for (int r = 0; r < m->nres; r++) {
        if (s[r] < FAR) {
            T = s[r] < T ? s[r] : T;
            latest = s[r] > latest ? s[r] : latest;
            widest = b[r] > widest ? b[r] : widest;
        }
    }
    /* one link alone carries M by latest + M x widest: the loop ends */
    for (; T < FAR && T <= latest + M * widest; T++) {
        long cap = 0;

        for (int r = 0; r < m->nres; r++) {
            cap += s[r] <= T ? (T - s[r]) / b[r] + 1 : 0;
        }
        if (cap >= M) {
            break;
        }
    }
    free(s);
    free(b);
    return T;
}

/*
 * The cut bound of the cards with in[v] set: @M chunks from outside, the
 * earliest a chunk is at any card @held[u] (0 for AllGather's sources).
 */
static int cut_slots(const struct swai_mteg *m, const bool *in, int M, const int *held,
                     const long *d, bool unicast, int back)
{
    long drain = unicast ? FAR : 0;
    int N = m->ncards;

    if (M <= 0) {
        return 0;
    }
    /* the chunk entering last: the rest of its edge, then to the farthest card of S */
    for (int v = 0; v < N; v++) {
        long best = FAR;

        for (int i = 0; in[v] && i < m->nedges; i++) {
            const struct swai_mteg_edge *e = &m->e[i];
            int rest = e->L - e->at[entry_hop(e, back)];

            if (!in[e->u] && in[e->v] && d[(size_t)e->v * (size_t)N + (size_t)v] < FAR &&
                rest + d[(size_t)e->v * (size_t)N + (size_t)v] < best) {
                best = rest + d[(size_t)e->v * (size_t)N + (size_t)v];
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
    return last_entry(m, in, M, held, back) + (int)drain;
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

int swai_mteg_cut_bound(const struct swai_mteg *m, enum swai_coll coll, int root,
                        uint32_t chunks)
{
    int N = m->ncards, best = 0, links = 1, *held = malloc((size_t)N * sizeof(*held));
    bool *in = calloc((size_t)N, sizeof(*in));
    long *d = all_pairs(m, false);
    bool every = coll == SWAI_COLL_ALLGATHER || coll == SWAI_COLL_ALLTOALL;

    if (!d || !held || !in) {
        free(d);
        free(held);
        free(in);
        return 0;
    }
    for (int v = 0; v < N; v++) {
        held[v] = every ? 0 : (int)d[(size_t)root * (size_t)N + (size_t)v];
        for (int s = 0; s < N; s++) {
            long x = d[(size_t)s * (size_t)N + (size_t)v];

            if ((every || s == root) && x < FAR && x > best) {
                best = (int)x;   /* latency */
            }
        }
    }
    if (coll == SWAI_COLL_ALLTOALL) {
        int v = volume_slots(m, chunks), f = swai_mteg_flow_bound(m, chunks);

        best = v > best ? v : best;
        best = f > best ? f : best;
    }
    for (int i = 0; i < m->nedges; i++) {
        links = m->e[i].nlinks > links ? m->e[i].nlinks : links;
    }
    /* every card alone, then every node; each at every hop back from the last */
    for (int k = 0; k < N + m->nnodes; k++) {
        int inside = 0, has_root = 0, M;

        for (int v = 0; v < N; v++) {
            in[v] = k < N ? v == k : m->node_of[v] == k - N;
            inside += in[v];
            has_root |= in[v] && v == root;
        }
        if (!inside || inside == N) {
            continue;
        }
        M = coll == SWAI_COLL_ALLGATHER ? (N - inside) * (int)chunks :
            coll == SWAI_COLL_ALLTOALL ? inside * (N - inside) * (int)chunks :
            has_root ? 0 : (int)chunks;
        for (int back = 0; back < links; back++) {
            int c = cut_slots(m, in, M, held, d, coll == SWAI_COLL_ALLTOALL, back);

            best = c < FAR && c > best ? c : best;
        }
    }
    free(d);
    free(held);
    free(in);
    return best;
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

    return p > best ? p : best;
}
