/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-ea.c - ours: one chunk's earliest-arrival tree on the MTEG
 * (swai-mteg.h, swai_mteg_tree_ea), and AllToAll's earliest-arrival path
 * (swai_mteg_path_ea).
 *
 * Every edge out of a settled card is timed at the first slot, from the one
 * the card holds the chunk, at which all its hops' links are free; the
 * unsettled card with the earliest arrival is settled next and its edge
 * taken at once.  Taking an edge can only delay other candidates, never
 * advance them, so a candidate is re-timed lazily when it comes up with a
 * taken edge, and the order in which cards settle is still by arrival --
 * Dijkstra with lazy keys.  A tree costs O(E x the slots a busy link
 * pushes a chunk) instead of the TM tree's N sweeps over every (card, slot).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "swai-mteg.h"

#define NEVER 0x3fffffff

/* The first slot >= @t at which @e may leave and still arrive by H, or -1. */
static int first_free(struct swai_mteg *m, const struct swai_mteg_edge *e, int t)
{
    while (t >= 0 && t + e->L <= m->H) {
        int next = swai_mteg_edge_next(m, e, t);

        if (next == t) {
            return t;
        }
        t = next;   /* skip the departures that still cover the taken slot */
    }
    return -1;
}

struct cand {
    int at;         /* the slot it would hold the chunk, NEVER without an edge */
    int e, t0;      /* over edge @e, leaving at @t0 */
};

/*
 * A chunk enters a node once: an edge from another node into a node that
 * already holds it would spend the scarce links between nodes (the cut the
 * bound counts) to save a hop or two inside.  Without this rule a DGX-2
 * pair sends each chunk over several of its eight 12.5 GB/s links.
 */
static bool crosses_again(const struct swai_mteg *m, int e, const bool *reached)
{
    int a = m->node_of[m->e[e].u], b = m->node_of[m->e[e].v];

    return a != b && reached[b];
}

/* One tree as it grows. */
struct grow {
    bool *reached;      /* [node]: it holds the chunk */
    int *fan;           /* [card]: its hops through a switch so far */
    int q;              /* whose quotas hold, -1: none */
    int cap;            /* the fan-out through a switch, 0: none */
    int src, srccap;    /* the source, and the cards it may send to itself (0: any) */
    int src_sent;       /* those it has */
};

/*
 * Edge @e may carry this tree's chunk: its source's quota on it not spent,
 * the source under its own cap (struct swai_mteg.srccap) if it sends it,
 * and (@capped) where it leaves through a switch -- a card's one port
 * carries every copy it sends that way -- its card under the fan-out cap.
 *
 * The cap holds only when a card's way in is looked for again (retime):
 * a card that has just got the chunk offers every edge out of it, and a
 * card whose offer was overtaken (its edge taken meanwhile, most often by
 * the copy its sender has just sent) then comes from a card under the cap
 * -- a relay -- rather than from the same busy port a slot later.  Capping
 * the first offers too was measured and is worse: DGX-2 x 2, 64 MiB, 16
 * chunks, 601.9 us against 540.0 (the bound 523.2).
 */
static bool allowed(const struct swai_mteg *m, int e, const struct grow *g, bool capped)
{
    if (g->q >= 0 && m->left[(size_t)g->q * (size_t)m->nedges + (size_t)e] <= 0) {
        return false;
    }
    if (g->srccap && m->e[e].u == g->src && g->src_sent >= g->srccap) {
        return false;
    }
    return !capped || !g->cap || m->e[e].nlinks < 2 || g->fan[m->e[e].u] < g->cap;
}

/* @c improved by edge @e from a card holding the chunk at @held? */
static void offer(struct swai_mteg *m, struct cand *c, int e, int held, const struct grow *g,
                  bool capped)
{
    int t0;

    if (!allowed(m, e, g, capped)) {
        return;
    }
    t0 = crosses_again(m, e, g->reached) ? -1 : first_free(m, &m->e[e], held);
    /* ties: the earlier departure, then the lower edge -- deterministic */
    if (t0 >= 0 && (t0 + m->e[e].L < c->at ||
                    (t0 + m->e[e].L == c->at && t0 < c->t0))) {
        *c = (struct cand){ t0 + m->e[e].L, e, t0 };
    }
}

/* Re-time card @v's best edge from the settled cards. */
static void retime(struct swai_mteg *m, struct cand *c, int v, const int *arrive,
                   const struct grow *g)
{
    *c = (struct cand){ NEVER, -1, NEVER };
    for (int k = m->in_off[v]; k < m->in_off[v + 1]; k++) {
        int e = m->in[k];

        if (arrive[m->e[e].u] >= 0) {
            offer(m, c, e, arrive[m->e[e].u], g, true);
        }
    }
}

/* Is @c's edge, found earlier, still free and allowed? */
static bool still_good(const struct swai_mteg *m, const struct cand *c, const struct grow *g)
{
    return !crosses_again(m, c->e, g->reached) && allowed(m, c->e, g, false) &&
           swai_mteg_edge_free(m, &m->e[c->e], c->t0);
}

int swai_mteg_tree_ea(struct swai_mteg *m, int src, struct swai_mteg_hop *hops,
                      int *nhops, int *arrive)
{
    int N = m->ncards, ret = 0, u = src;
    struct cand *c = malloc((size_t)N * sizeof(*c));
    /*
     * The source's quotas and the fan-out cap (swai-mteg-improve.c) hold while
     * they leave every card a way in.
     */
    struct grow g = { calloc((size_t)m->nnodes + 1, sizeof(bool)),
                      calloc((size_t)N, sizeof(int)), m->left ? src : -1, m->fanout,
                      src, m->srccap, 0 };

    *nhops = 0;
    if (!c || !g.reached || !g.fan) {
        ret = -ENOMEM;
        goto out;
    }
    for (int v = 0; v < N; v++) {
        arrive[v] = -1;
        c[v] = (struct cand){ NEVER, -1, NEVER };
    }
    arrive[src] = 0;
    g.reached[m->node_of[src]] = true;
    for (int left = N - 1; left > 0;) {
        int best = -1;

        for (int k = m->out_off[u]; k < m->out_off[u + 1]; k++) {
            int e = m->out[k];

            if (arrive[m->e[e].v] < 0) {
                offer(m, &c[m->e[e].v], e, arrive[u], &g, false);
            }
        }
        for (;;) {
            best = -1;
            /*
             * Ties: the lowest card, or (ring_ties) the card next after the
             * source, cyclically -- each source's first copy through a
             * shared port then goes to a different card, as in a ring,
             * where lowest-first sends the first two sources' copies to
             * each other and leaves the third's receiver idle.
             */
            for (int i = 0; i < N; i++) {
                int v = m->ring_ties ? (src + i) % N : i;

                if (arrive[v] < 0 && c[v].at < NEVER && (best < 0 || c[v].at < c[best].at)) {
                    best = v;
                }
            }
            if (best < 0 || still_good(m, &c[best], &g)) {
                break;
            }
            /* taken by this tree, its node reached, its card at the cap meanwhile */
            retime(m, &c[best], best, arrive, &g);
        }
        if (best < 0 && (g.q >= 0 || g.cap || g.srccap)) {
            /* the quotas or the caps shut the cards left out: the rest without them */
            g.q = -1;
            g.cap = 0;
            g.srccap = 0;
            for (int v = 0; v < N; v++) {
                if (arrive[v] < 0) {
                    retime(m, &c[v], v, arrive, &g);
                }
            }
            continue;
        }
        if (best < 0) {
            ret = -ENOSPC;     /* H slots do not reach every card */
            break;
        }
        hops[*nhops] = (struct swai_mteg_hop){ c[best].e, c[best].t0 };
        swai_mteg_take(m, &hops[(*nhops)++], true);
        if (m->left) {
            m->left[(size_t)src * (size_t)m->nedges + (size_t)c[best].e]--;
        }
        g.fan[m->e[c[best].e].u] += m->e[c[best].e].nlinks > 1;
        g.src_sent += m->e[c[best].e].u == src;
        arrive[best] = c[best].at;
        g.reached[m->node_of[best]] = true;
        u = best;
        left--;
    }
    if (ret) {
        for (int i = 0; i < *nhops; i++) {
            swai_mteg_take(m, &hops[i], false);
        }
        *nhops = 0;
    }
out:
    free(c);
    free(g.reached);
    free(g.fan);
    return ret;
}

/*
 * AllToAll's demand: one chunk from @src to @dst alone.  Leaving later
 * never arrives earlier (first_free is monotone), so Dijkstra over cards
 * with the earliest arrival as key is exact and nothing need be taken
 * while it searches; the path's edges are taken once @dst is settled.
 * A path visits a card once, so its hops hold different links.
 */
int swai_mteg_path_ea(struct swai_mteg *m, int src, int dst, struct swai_mteg_hop *hops,
                      int *nhops, int *arrive)
{
    int N = m->ncards, ret = 0;
    struct cand *c = malloc((size_t)N * sizeof(*c));
    bool *done = calloc((size_t)N, sizeof(*done));

    *nhops = 0;
    *arrive = -1;
    if (!c || !done) {
        free(c);
        free(done);
        return -ENOMEM;
    }
    for (int v = 0; v < N; v++) {
        c[v] = (struct cand){ NEVER, -1, NEVER };
    }
    c[src].at = 0;
    for (;;) {
        int u = -1;

        for (int v = 0; v < N; v++) {
            if (!done[v] && c[v].at < NEVER && (u < 0 || c[v].at < c[u].at)) {
                u = v;
            }
        }
        if (u < 0) {
            ret = -ENOSPC;     /* H slots do not reach @dst */
            break;
        }
        done[u] = true;
        if (u == dst) {
            break;
        }
        for (int k = m->out_off[u]; k < m->out_off[u + 1]; k++) {
            int e = m->out[k];

            if (!done[m->e[e].v]) {
                int t0 = first_free(m, &m->e[e], c[u].at);

                if (t0 >= 0 && (t0 + m->e[e].L < c[m->e[e].v].at ||
                                (t0 + m->e[e].L == c[m->e[e].v].at &&
                                 t0 < c[m->e[e].v].t0))) {
                    c[m->e[e].v] = (struct cand){ t0 + m->e[e].L, e, t0 };
                }
            }
        }
    }
    if (!ret) {
        /* back from @dst: the hops in reverse, then in path order */
        for (int v = dst; v != src; v = m->e[c[v].e].u) {
            hops[(*nhops)++] = (struct swai_mteg_hop){ c[v].e, c[v].t0 };
        }
        for (int i = 0, j = *nhops - 1; i < j; i++, j--) {
            struct swai_mteg_hop x = hops[i];

            hops[i] = hops[j];
            hops[j] = x;
        }
        for (int i = 0; i < *nhops; i++) {
            swai_mteg_take(m, &hops[i], true);
        }
        *arrive = c[dst].at;
    }
    free(c);
    free(done);
    return ret;
}
