/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-mwu.c - ours: trees that share the links evenly, by
 * multiplicative weights (swai-mteg-trees.h, swai_mteg_mwu_trees).
 *
 * Earliest-arrival trees take the fastest way to every card and leave
 * the load where it falls: on AMD x 3 at 64 MiB in 16 chunks the busiest
 * links inside a chassis carry chunks for 576-596 of the plan's 641
 * slots, where the links from the top switch, the cut bound, need 512.
 * The packing LP that would spread them is too large there, and its
 * shares rounded up to whole chunks load the links more than it says.
 *
 * Here every tree is a spanning tree of the cards grown from its source,
 * each step by the cheapest edge out of it, and an edge costs its links'
 * busy slots each weighted by exp(eps x that link's load so far / norm),
 * plus lam x the slots from the source to the edge's far end: the
 * multiplicative-weights rule for packing trees (a link the trees before
 * used much costs exponentially more), with a price on depth, as a tree
 * is timed after, and a deep one ends late.  The chunks of every source
 * in turn, the first chunk of each before the second, so the load grows
 * evenly.  No slot is taken: the trees' edges are all that is chosen,
 * and list timing (swai_mteg_retime) times them.
 *
 * On nodes alike, optionally (@by_place) as one node's packing on each
 * (swai-mteg-nodes.c) sends them: a tree enters another node only from its
 * source, at the card in the source's own place there -- each card then
 * takes in one block a node over its own way in.  Free to cross anywhere,
 * AMD x 2's trees end at 323 slots in 16 chunks, held to that at 320;
 * AMD x 4's 287.7 and 279.8 us; DGX-2 x 2's, where a chassis' sixteen
 * cards each have eight links to the switch, 526.4 and 528.5.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "swai-mteg-trees.h"

/*
 * Scratch for the trees: each link's weight factor, exp(eps x its load /
 * norm), as rate^load; each edge's weight (kept up to date as the loads
 * grow), the edges on each link, a card's depth and whether it is in.
 */
struct grow {
    double rate, *f, *w;
    int *place;         /* [card]: its place in its node, where a tree enters a node; or NULL */
    int *on_off, *on;   /* the edges with a hop on link r: on[on_off[r] .. on_off[r + 1]) */
    int *outpos;        /* [edge]: where it stands in m->out, the order ties go by */
    /* the tree growing: from src; [card] in it, its depth, its cheapest edge in and its cost */
    int src, *depth, *best;
    double lam, *cost;
    bool *in, *stale;   /* stale: its cheapest edge in got dearer, look again */
};

static void grow_free(struct grow *g)
{
    free(g->f);
    free(g->w);
    free(g->place);
    free(g->on_off);
    free(g->on);
    free(g->outpos);
    free(g->depth);
    free(g->best);
    free(g->cost);
    free(g->in);
    free(g->stale);
}

/*
 * e^x as (1 + x / 2^16)^(2^16), by sixteen squarings: not libm's exp(),
 * whose last bit may differ between CPUs (glibc takes an FMA version where
 * the CPU has one), and the guest's emulated CPU must plan the trees the
 * host plans (suite vm-8cards-dgx1 compares the two).  Each operation is
 * IEEE's, so the same on every machine.
 */
static double growth(double x)
{
    double y = 1 + x / 65536;

    for (int i = 0; i < 16; i++) {
        y *= y;
    }
    return y;
}

static double weight(const struct swai_mteg *m, const struct grow *g, int e)
{
    double w = 0;

    for (int x = 0; x < m->e[e].nhops; x++) {
        w += m->e[e].busy[x] * g->f[m->e[e].res[x]];
    }
    return w;
}

/* The edges on each link, and every edge's weight at no load; 0 or -ENOMEM. */
static int grow_init(const struct swai_mteg *m, struct grow *g, double eps, double norm)
{
    size_t n = 0;

    g->rate = growth(eps / norm);
    g->f = malloc((size_t)m->nres * sizeof(*g->f));
    g->w = malloc((size_t)m->nedges * sizeof(*g->w));
    g->on_off = calloc((size_t)m->nres + 1, sizeof(*g->on_off));
    g->outpos = malloc((size_t)m->nedges * sizeof(*g->outpos));
    g->depth = malloc((size_t)m->ncards * sizeof(*g->depth));
    g->best = malloc((size_t)m->ncards * sizeof(*g->best));
    g->cost = malloc((size_t)m->ncards * sizeof(*g->cost));
    g->in = malloc((size_t)m->ncards * sizeof(*g->in));
    g->stale = malloc((size_t)m->ncards * sizeof(*g->stale));
    for (int e = 0; e < m->nedges; e++) {
        n += (size_t)m->e[e].nhops;
    }
    g->on = malloc((n ? n : 1) * sizeof(*g->on));
    if (!g->f || !g->w || !g->on_off || !g->outpos || !g->depth || !g->best || !g->cost ||
        !g->in || !g->stale || !g->on) {
        return -ENOMEM;
    }
    for (int k = 0; k < m->nedges; k++) {
        g->outpos[m->out[k]] = k;
    }
    for (int r = 0; r < m->nres; r++) {
        g->f[r] = 1;
    }
    for (int e = 0; e < m->nedges; e++) {
        g->w[e] = weight(m, g, e);
        for (int x = 0; x < m->e[e].nhops; x++) {
            g->on_off[m->e[e].res[x] + 1]++;
        }
    }
    for (int r = 0; r < m->nres; r++) {
        g->on_off[r + 1] += g->on_off[r];
    }
    /* on_off[r + 1] is now where link r's edges end: fill each range from its end */
    for (int e = m->nedges - 1; e >= 0; e--) {
        for (int x = m->e[e].nhops - 1; x >= 0; x--) {
            g->on[--g->on_off[m->e[e].res[x] + 1]] = e;
        }
    }
    /* and on_off[r + 1] is where link r's edges start: one along */
    for (int r = 0; r < m->nres; r++) {
        g->on_off[r] = g->on_off[r + 1];
    }
    g->on_off[m->nres] = (int)n;
    return 0;
}

/* Edge @e taken by a tree: its links' loads, and the weights of every edge on them. */
static void load_edge(const struct swai_mteg *m, struct grow *g, int e)
{
    for (int x = 0; x < m->e[e].nhops; x++) {
        int r = m->e[e].res[x];

        for (int b = 0; b < m->e[e].busy[x]; b++) {
            g->f[r] *= g->rate;
        }
        for (int k = g->on_off[r]; k < g->on_off[r + 1]; k++) {
            int v = m->e[g->on[k]].v;

            g->w[g->on[k]] = weight(m, g, g->on[k]);
            g->stale[v] |= g->best[v] == g->on[k];
        }
    }
}

/*
 * Edge @e offers its head a way into the tree: if its tail is in and its
 * head is not, the place rule lets it, and it is cheaper than the head's
 * way so far (ties: the edge first in m->out, as a scan of every edge out
 * of the tree would take it).
 */
static void offer(const struct swai_mteg *m, struct grow *g, int e)
{
    const struct swai_mteg_edge *x = &m->e[e];
    double c;

    if (!g->in[x->u] || g->in[x->v] ||
        (g->place && m->node_of[x->u] != m->node_of[x->v] &&
         (x->u != g->src || g->place[x->v] != g->place[g->src]))) {
        return;     /* into another node only from the source, to its place */
    }
    c = g->w[e] + g->lam * (g->depth[x->u] + x->L);
    if (g->best[x->v] < 0 || c < g->cost[x->v] ||
        (c == g->cost[x->v] && g->outpos[e] < g->outpos[g->best[x->v]])) {
        g->best[x->v] = e;
        g->cost[x->v] = c;
    }
}

/* Card @v joins: its edges out offer the cards not yet in a way in. */
static void join(const struct swai_mteg *m, struct grow *g, int v)
{
    g->in[v] = true;
    for (int k = m->out_off[v]; k < m->out_off[v + 1]; k++) {
        offer(m, g, m->out[k]);
    }
}

/*
 * One tree from @src into @h (its hops in the order their cards joined,
 * t = 0), its links' loads counted as it grows: Prim's rule, each card
 * not in keeping its cheapest edge in, looked at again only when that
 * edge got dearer (weights only grow).  How many hops, or -ENOSPC where a
 * card cannot be reached.
 */
static int grow_tree(const struct swai_mteg *m, struct grow *g, int src, struct swai_mteg_hop *h)
{
    int N = m->ncards, n = 0;

    g->src = src;
    for (int v = 0; v < N; v++) {
        g->in[v] = g->stale[v] = false;
        g->depth[v] = 0;
        g->best[v] = -1;
    }
    join(m, g, src);
    for (int joined = 1; joined < N; joined++) {
        int v = -1, e;

        for (int c = 0; c < N; c++) {
            if (g->stale[c] && !g->in[c]) {
                g->best[c] = -1;
                for (int j = m->in_off[c]; j < m->in_off[c + 1]; j++) {
                    offer(m, g, m->in[j]);
                }
            }
            g->stale[c] = false;
            if (!g->in[c] && g->best[c] >= 0 &&
                (v < 0 || g->cost[c] < g->cost[v] ||
                 (g->cost[c] == g->cost[v] && g->outpos[g->best[c]] < g->outpos[g->best[v]]))) {
                v = c;
            }
        }
        if (v < 0) {
            return -ENOSPC;
        }
        e = g->best[v];
        h[n++] = (struct swai_mteg_hop){ e, 0 };
        g->depth[v] = g->depth[m->e[e].u] + m->e[e].L;
        load_edge(m, g, e);
        join(m, g, v);
    }
    return n;
}

int swai_mteg_mwu_trees(const struct swai_mteg *m, struct swai_mteg_trees *p, double eps,
                        double lam, double norm, bool by_place)
{
    size_t room = swai_mteg_room(p->coll, m->ncards), N = (size_t)m->ncards;
    struct grow g = { 0 };
    int ret = grow_init(m, &g, eps, norm), n, *card = NULL;

    g.lam = lam;
    if (!ret && by_place) {
        card = malloc(N * sizeof(*card));
        g.place = malloc(N * sizeof(*g.place));
        ret = !card || !g.place ? -ENOMEM : m->nnodes < 2 ? -ENOTSUP :
              swai_mteg_places(m, card, g.place, &n);
        free(card);
    }

    for (uint32_t c = 0; !ret && c < p->chunks; c++) {
        for (int s = 0; !ret && s < p->nsrc; s++) {
            size_t tree = (size_t)s * p->chunks + c;
            int k = grow_tree(m, &g, p->coll == SWAI_COLL_ALLGATHER ? s : p->root,
                              &p->hops[tree * room]);

            ret = k < 0 ? k : 0;
            p->nhops[tree] = k < 0 ? 0 : k;
        }
    }
    grow_free(&g);
    return ret;
}
