/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-nodes.c - ours: AllGather's packing of trees on a topology of
 * several nodes, from one node's LP: the plan's quotas on nodes alike
 * (swai_mteg_pack_nodes) and a bound (swai_mteg_node_bound; swai-mteg.h).
 *
 * The packing LP of the whole topology is too large from 32 cards on
 * (swai-mteg-pack.c), and there the trees go wrong in the way it would
 * correct: AMD x 2's earliest-arrival trees load its eight links between
 * chassis from 17 to 63 chunks at 16 chunks a block (32 each if even) and
 * end at 3 times the bound.  On nodes that repeat one pattern (what
 * --nodes K builds) a plan the LP cannot see is at hand:
 *  - every source sends its block into every other node once, to the card
 *    in its own place there (its counterpart), over the edge between them:
 *    a counterpart receives one block a node, so the links into the nodes
 *    carry what their cut bound counts, evenly;
 *  - inside each node, a block spreads from where it is -- its source or
 *    its counterpart, the same place -- as node 0's packing spreads that
 *    place's block.
 * Each node then carries its own blocks and the others' in the shares one
 * node's packing gives, K blocks a place instead of one.  An edge inside a
 * node is one whose links no edge between nodes uses (AMD's pair switches
 * are its way out; a route through them between two cards of a chassis
 * would take that way's slots).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"

/* Does edge @e stay inside its node: both cards there, no hop on a link between nodes? */
static bool inside(const struct swai_mteg *m, const bool *between, int e)
{
    const struct swai_mteg_edge *x = &m->e[e];

    if (m->node_of[x->u] != m->node_of[x->v]) {
        return false;
    }
    for (int h = 0; h < x->nhops; h++) {
        if (between[x->res[h]]) {
            return false;
        }
    }
    return true;
}

/*
 * Node 0 alone as an MTEG @sub (cards renumbered 0..n-1 in @m's order,
 * which is @place's), with the edges inside it: all swai_mteg_pack reads.
 * Free it with swai_mteg_free.
 */
static int node_zero(const struct swai_mteg *m, const bool *between, const int *place,
                     int n, struct swai_mteg *sub)
{
    memset(sub, 0, sizeof(*sub));
    sub->ncards = n;
    sub->nres = m->nres;
    sub->e = malloc((size_t)m->nedges * sizeof(*sub->e));
    if (!sub->e) {
        return -ENOMEM;
    }
    for (int e = 0; e < m->nedges; e++) {
        if (m->node_of[m->e[e].u] == 0 && inside(m, between, e)) {
            struct swai_mteg_edge x = m->e[e];

            x.u = place[x.u];
            x.v = place[x.v];
            sub->e[sub->nedges++] = x;
        }
    }
    return swai_mteg_index(sub);
}

int swai_mteg_places(const struct swai_mteg *m, int *card, int *place, int *n)
{
    int N = m->ncards, K = m->nnodes, *count = calloc((size_t)K, sizeof(*count));

    if (!count) {
        return -ENOMEM;
    }
    for (int c = 0; c < N; c++) {
        place[c] = count[m->node_of[c]]++;
    }
    *n = count[0];
    for (int b = 0; b < K; b++) {
        if (count[b] != *n) {
            free(count);
            return -ENOTSUP;
        }
    }
    for (int c = 0; c < N; c++) {
        card[m->node_of[c] * *n + place[c]] = c;
    }
    free(count);
    return 0;
}

int swai_mteg_pack_nodes(const struct swai_mteg *m, uint32_t chunks, double *x)
{
    int N = m->ncards, E = m->nedges, K = m->nnodes, n = 0, ret;
    bool *between = calloc((size_t)m->nres + 1, sizeof(*between));
    int *card = malloc((size_t)N * sizeof(*card)), *place = malloc((size_t)N * sizeof(*place));
    double *xs = NULL, T;
    struct swai_mteg sub = { 0 };

    if (!between || !card || !place) {
        ret = -ENOMEM;
        goto out;
    }
    ret = K < 2 ? -ENOTSUP : swai_mteg_places(m, card, place, &n);
    for (int e = 0; !ret && e < E; e++) {
        for (int h = 0; m->node_of[m->e[e].u] != m->node_of[m->e[e].v] && h < m->e[e].nlinks;
             h++) {
            between[m->e[e].res[h]] = true;
        }
    }
    ret = ret ? ret : node_zero(m, between, place, n, &sub);
    if (!ret && !(xs = malloc((size_t)n * (size_t)sub.nedges * sizeof(*xs)))) {
        ret = -ENOMEM;
    }
    ret = ret ? ret : swai_mteg_pack(&sub, chunks, xs, &T);
    if (ret) {
        goto out;
    }
    memset(x, 0, (size_t)N * (size_t)E * sizeof(*x));
    for (int s = 0; !ret && s < N; s++) {
        for (int b = 0; !ret && b < K; b++) {
            int there = card[b * n + place[s]], cross = swai_mteg_edge_to(m, s, there);

            if (b != m->node_of[s]) {
                if (cross < 0) {
                    ret = -ENOTSUP;     /* no way to its counterpart: not this pattern */
                    break;
                }
                x[(size_t)s * (size_t)E + (size_t)cross] = 1;
            }
            /* node b's edges inside it, as node 0's from the same place */
            for (int k = 0; k < sub.nedges; k++) {
                int e = swai_mteg_edge_to(m, card[b * n + sub.e[k].u], card[b * n + sub.e[k].v]);

                if (e < 0 || !inside(m, between, e)) {
                    ret = -ENOTSUP;     /* node b is not like node 0 */
                    break;
                }
                x[(size_t)s * (size_t)E + (size_t)e] = xs[(size_t)place[s] *
                                                          (size_t)sub.nedges + (size_t)k];
            }
        }
    }
out:
    swai_mteg_free(&sub);
    free(xs);
    free(between);
    free(card);
    free(place);
    return ret;
}

/* Hops @a of an edge all on @b's links, with no more bytes there? */
static bool within(const struct swai_mteg_edge *a, const struct swai_mteg_edge *b)
{
    for (int i = 0; i < a->nhops; i++) {
        int h = 0;

        while (h < b->nhops && b->res[h] != a->res[i]) {
            h++;
        }
        if (h == b->nhops || b->bytes[h] < a->bytes[i]) {
            return false;
        }
    }
    return true;
}

/* The same edge (ends, links, bytes) in @e[0..n)? */
static bool known(const struct swai_mteg_edge *e, int n, const struct swai_mteg_edge *x)
{
    for (int i = 0; i < n; i++) {
        if (e[i].u == x->u && e[i].v == x->v && within(&e[i], x) && within(x, &e[i])) {
            return true;
        }
    }
    return false;
}

/* Does @x go as cheaply through X (card @n) over two of the edges @e[0..nx) to and from it? */
static bool through_x(const struct swai_mteg_edge *e, int nx, int n,
                      const struct swai_mteg_edge *x)
{
    for (int a = 0; a < nx; a++) {
        if (e[a].u != x->u || e[a].v != n || !within(&e[a], x)) {
            continue;
        }
        for (int b = 0; b < nx; b++) {
            if (e[b].u == n && e[b].v == x->v && within(&e[b], x)) {
                return true;
            }
        }
    }
    return false;
}

/*
 * Node 0 with every other card merged into one, X (card @n of @sub): an
 * edge with an end outside becomes one to or from X, with only its hops on
 * links that every edge using them has an end in node 0 (the rest are
 * inside X, and free); an edge inside node 0 that goes as cheaply through
 * X -- AMD's route between two cards over the top switch -- is left out.
 * Every plan on @m is one on @sub with no link busier.  Free @sub with
 * swai_mteg_free.
 */
static int merged(const struct swai_mteg *m, const int *place, int n, struct swai_mteg *sub)
{
    int E = m->nedges, ret = 0, nx = 0;
    bool *outer = calloc((size_t)m->nres + 1, sizeof(*outer));

    memset(sub, 0, sizeof(*sub));
    sub->ncards = n + 1;
    sub->nres = m->nres;
    sub->e = malloc((size_t)E * sizeof(*sub->e));
    if (!outer || !sub->e) {
        ret = -ENOMEM;
        goto out;
    }
    for (int e = 0; e < E; e++) {
        for (int h = 0; m->node_of[m->e[e].u] && m->node_of[m->e[e].v] && h < m->e[e].nhops;
             h++) {     /* links and (SWAI_MTEG_CARD) engines: X's are merged away */
            outer[m->e[e].res[h]] = true;
        }
    }
    /* the edges to and from X first: the ones inside are checked against them */
    for (int pass = 0; pass < 2; pass++) {
        for (int e = 0; e < E; e++) {
            struct swai_mteg_edge x = m->e[e];
            bool out = m->node_of[x.u] || m->node_of[x.v];
            int k = 0;

            if ((m->node_of[x.u] && m->node_of[x.v]) || out == (pass == 1)) {
                continue;
            }
            x.u = m->node_of[x.u] ? n : place[x.u];
            x.v = m->node_of[x.v] ? n : place[x.v];
            for (int h = 0, links = x.nlinks; h < x.nhops; h++) {
                x.nlinks -= h < links && outer[x.res[h]];
                if (!outer[x.res[h]]) {
                    x.res[k] = x.res[h];
                    x.bytes[k++] = x.bytes[h];
                }
            }
            x.nhops = k;
            if (pass == 1 && through_x(sub->e, nx, n, &x)) {
                continue;
            }
            if (!known(sub->e, sub->nedges, &x)) {     /* kept with no hops left: free */
                sub->e[sub->nedges++] = x;
            }
        }
        nx = pass ? nx : sub->nedges;
    }
    ret = swai_mteg_index(sub);
out:
    free(outer);
    return ret;
}

int swai_mteg_node_bound(const struct swai_mteg *m, uint32_t chunks)
{
    int N = m->ncards, n = 0, ret;
    int *card = malloc((size_t)N * sizeof(*card)), *place = malloc((size_t)N * sizeof(*place));
    double *weight = NULL, T = 0;
    struct swai_mteg sub = { 0 };

    ret = !card || !place ? -ENOMEM : m->nnodes < 2 ? -ENOTSUP : swai_mteg_places(m, card, place, &n);
    if (ret == -ENOTSUP && m->nnodes > 1) {
        ret = 0;    /* nodes of different sizes: node 0's places are still its cards' */
        n = 0;
        for (int c = 0; c < N; c++) {
            n += !m->node_of[c];
        }
    }
    ret = ret ? ret : merged(m, place, n, &sub);
    if (!ret && !(weight = malloc(((size_t)n + 1) * sizeof(*weight)))) {
        ret = -ENOMEM;
    }
    if (!ret) {
        for (int i = 0; i < n; i++) {
            weight[i] = 1;
        }
        weight[n] = N - n;  /* X's blocks move alike: one source, N - n blocks */
        ret = swai_mteg_pack_weighted(&sub, chunks, weight, NULL, &T);
    }
    swai_mteg_free(&sub);
    free(weight);
    free(card);
    free(place);
    return ret ? 0 : (int)(T - 1e-6) + 1;
}
