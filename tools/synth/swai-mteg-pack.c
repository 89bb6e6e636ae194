/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-pack.c - ours: the best fractional packing of an AllGather's
 * broadcast trees, a linear program solved by COIN-OR CLP (swai-mteg.h,
 * swai_mteg_pack).
 *
 * Time aside, source s's block reaches every card when, for every card v,
 * one block's worth of flow gets from s to v through the edges that carry
 * s's chunks: x(s, e) blocks of s on edge e, every cut that separates s
 * from a card crossed by at least one block.  Every card is a terminal
 * (switches are inside edges), so by Edmonds' theorem such an x is a
 * weighted set of spanning trees from s: it is what a plan of trees can
 * do, not only a bound.  Every hop of an edge holds its link for the slots
 * its bytes take, so the least T that keeps every link's load at most T
 * slots is a lower bound on any plan (the cuts of swai-mteg-bound.c count
 * one set of cards at a time; this one counts them all at once, which is
 * what makes AMD's bound tight), and the x that attains it says how much
 * of each source each link should carry -- what the planner follows
 * (swai-mteg-improve.c).
 *
 * The cuts are exponentially many, so they come in as needed: start with
 * every card's links in, solve, and for every source and card find the
 * least cut under x by a maximum flow; a cut under one block goes in as a
 * row and CLP's dual simplex solves again from where it was.  O(N x E)
 * columns, not the N^2 x E of a flow per (source, card).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <coin/Clp_C_Interface.h>

#include "swai-mteg.h"

/*
 * Past this many columns (N x edges + 1), no packing: AMD (16 cards, 240
 * edges) has 3 841 and is solved in 0.1-0.2 s; NDv2 x 4 (32 cards) about
 * 8 000 and takes 2.3 s; DGX-2 x 2 and AMD x 2 (every pair of their 32
 * cards an edge through their switches) about 32 000, seconds to minutes.
 */
#define PACK_MAX_COLS 4096
/* Rounds of cuts; each adds the cuts every (source, card) still lacks. */
#define PACK_MAX_ROUNDS 100
/* A cut this far under one block is violated. */
#define PACK_EPS 1e-7

/*
 * Rows waiting to go into the LP: one round's at most, so room for the
 * largest round is allocated once (rows_init) -- the first (every link's
 * load, every card's links in) or a round of cuts (one a source and card).
 */
struct rows {
    int n, cap;
    size_t nz, nzcap;
    double *lo, *hi, *val;
    CoinBigIndex *start;
    int *col;
};

static int rows_init(struct rows *r, const struct swai_mteg *m)
{
    size_t N = (size_t)m->ncards, E = (size_t)m->nedges, hops = 0;

    for (int e = 0; e < m->nedges; e++) {
        hops += (size_t)m->e[e].nhops;
    }
    r->cap = m->nres + m->ncards * m->ncards;
    r->nzcap = N * hops + (size_t)m->nres + N * E + N * N * E;
    r->lo = malloc((size_t)r->cap * sizeof(*r->lo));
    r->hi = malloc((size_t)r->cap * sizeof(*r->hi));
    r->start = malloc(((size_t)r->cap + 1) * sizeof(*r->start));
    r->col = malloc(r->nzcap * sizeof(*r->col));
    r->val = malloc(r->nzcap * sizeof(*r->val));
    return r->lo && r->hi && r->start && r->col && r->val ? 0 : -ENOMEM;
}

static int rows_add(struct rows *r, double lo, double hi, const int *col, const double *val,
                    int k)
{
    if (r->n >= r->cap || r->nz + (size_t)k > r->nzcap) {
        return -EIO;    /* more than a round can add: a bug, not the input */
    }
    r->start[r->n] = (CoinBigIndex)r->nz;
    r->lo[r->n] = lo;
    r->hi[r->n++] = hi;
    memcpy(&r->col[r->nz], col, (size_t)k * sizeof(*col));
    memcpy(&r->val[r->nz], val, (size_t)k * sizeof(*val));
    r->nz += (size_t)k;
    r->start[r->n] = (CoinBigIndex)r->nz;
    return 0;
}

static void rows_flush(struct rows *r, Clp_Simplex *lp)
{
    if (r->n) {
        Clp_addRows(lp, r->n, r->lo, r->hi, r->start, r->col, r->val);
    }
    r->n = 0;
    r->nz = 0;
}

static void rows_free(struct rows *r)
{
    free(r->lo);
    free(r->hi);
    free(r->val);
    free(r->start);
    free(r->col);
}

/*
 * The most flow from @s to @t under capacities @cap[N x N] (Edmonds-Karp:
 * N is at most a few hundred); @seen marks the side of the least cut that
 * holds @s.  Stops as soon as one block gets through: only cuts under one
 * block are wanted.
 */
static double max_flow(int N, const double *cap, double *f, int s, int t, bool *seen,
                       int *prev, int *queue)
{
    double total = 0;

    memset(f, 0, (size_t)N * (size_t)N * sizeof(*f));
    for (;;) {
        int head = 0, tail = 0;
        double push = 1e30;

        memset(seen, 0, (size_t)N * sizeof(*seen));
        seen[s] = true;
        queue[tail++] = s;
        while (head < tail && !seen[t]) {
            int u = queue[head++];

            for (int v = 0; v < N; v++) {
                if (!seen[v] && cap[u * N + v] - f[u * N + v] > PACK_EPS) {
                    seen[v] = true;
                    prev[v] = u;
                    queue[tail++] = v;
                }
            }
        }
        if (!seen[t] || total >= 1 - PACK_EPS) {
            return total;
        }
        for (int v = t; v != s; v = prev[v]) {
            double r = cap[prev[v] * N + v] - f[prev[v] * N + v];

            push = r < push ? r : push;
        }
        for (int v = t; v != s; v = prev[v]) {
            f[prev[v] * N + v] += push;
            f[v * N + prev[v]] -= push;
        }
        total += push;
    }
}

/* Every (source, card) whose least cut under @x is under one block: its cut as a row. */
static int separate(const struct swai_mteg *m, const double *x, struct rows *r, int *col,
                    double *val)
{
    int N = m->ncards, E = m->nedges, ret = 0;
    double *cap = malloc((size_t)N * (size_t)N * sizeof(*cap));
    double *f = malloc((size_t)N * (size_t)N * sizeof(*f));
    bool *seen = malloc((size_t)N * sizeof(*seen));
    int *prev = malloc((size_t)N * sizeof(*prev)), *queue = malloc((size_t)N * sizeof(*queue));

    if (!cap || !f || !seen || !prev || !queue) {
        ret = -ENOMEM;
        goto out;
    }
    for (int s = 0; !ret && s < N; s++) {
        memset(cap, 0, (size_t)N * (size_t)N * sizeof(*cap));
        for (int e = 0; e < E; e++) {
            cap[m->e[e].u * N + m->e[e].v] += x[(size_t)s * (size_t)E + (size_t)e];
        }
        for (int v = 0; !ret && v < N; v++) {
            int k = 0;

            if (v == s || max_flow(N, cap, f, s, v, seen, prev, queue) >= 1 - PACK_EPS) {
                continue;
            }
            for (int e = 0; e < E; e++) {
                if (seen[m->e[e].u] && !seen[m->e[e].v]) {
                    col[k] = s * E + e;
                    val[k++] = 1;
                }
            }
            ret = rows_add(r, 1, 1e30, col, val, k);
        }
    }
out:
    free(cap);
    free(f);
    free(seen);
    free(prev);
    free(queue);
    return ret;
}

/* The first rows: every link's load at most T, every card's links in carry each source's block. */
static int first_rows(const struct swai_mteg *m, uint32_t chunks, const double *weight,
                      struct rows *r, int *col, double *val)
{
    int N = m->ncards, E = m->nedges, ret = 0;

    for (int res = 0; !ret && res < m->nres; res++) {
        int k = 0;

        for (int s = 0; s < N; s++) {
            for (int e = 0; e < E; e++) {
                for (int h = 0; h < m->e[e].nhops; h++) {
                    if (m->e[e].res[h] == res) {
                        col[k] = s * E + e;
                        val[k++] = (double)m->e[e].bytes[h] * chunks *
                                   (weight ? weight[s] : 1);
                    }
                }
            }
        }
        col[k] = N * E;
        val[k++] = -1;
        ret = k > 1 ? rows_add(r, -1e30, 0, col, val, k) : 0;
    }
    for (int s = 0; !ret && s < N; s++) {
        for (int v = 0; !ret && v < N; v++) {
            int k = 0;

            for (int i = m->in_off[v]; v != s && i < m->in_off[v + 1]; i++) {
                col[k] = s * E + m->in[i];
                val[k++] = 1;
            }
            ret = k ? rows_add(r, 1, 1e30, col, val, k) : 0;
        }
    }
    return ret;
}

/* Solve, then add the cuts @x violates and solve again, until it violates none. */
static int solve(const struct swai_mteg *m, Clp_Simplex *lp, struct rows *r, int *col,
                 double *val)
{
    int ret = 0;

    for (int round = 0; !ret; round++) {
        rows_flush(r, lp);
        if (Clp_dual(lp, 0) || Clp_status(lp)) {
            return -EIO;
        }
        ret = separate(m, Clp_getColSolution(lp), r, col, val);
        if (!ret && !r->n) {
            return 0;
        }
        if (!ret && round == PACK_MAX_ROUNDS) {
            ret = -ETIMEDOUT;
        }
    }
    return ret;
}

int swai_mteg_pack_weighted(const struct swai_mteg *m, uint32_t chunks, const double *weight,
                            double *x, double *T)
{
    int N = m->ncards, E = m->nedges, ncols = N * E + 1, ret = 0;
    size_t room = (size_t)N * (size_t)E + 1;
    CoinBigIndex *start = NULL;
    double *lo = NULL, *hi = NULL, *obj = NULL, *val = NULL;
    int *col = NULL;
    struct rows r = { 0 };
    Clp_Simplex *lp = NULL;

    if ((long)N * E + 1 > PACK_MAX_COLS || !chunks) {
        return -E2BIG;      /* before anything is allocated: NDv2 x 10 asks each time */
    }
    start = calloc((size_t)ncols + 1, sizeof(*start));
    lo = calloc((size_t)ncols, sizeof(*lo));
    hi = malloc((size_t)ncols * sizeof(*hi));
    obj = calloc((size_t)ncols, sizeof(*obj));
    val = malloc(room * sizeof(*val));
    col = malloc(room * sizeof(*col));
    if (!start || !lo || !hi || !obj || !val || !col || rows_init(&r, m) ||
        !(lp = Clp_newModel())) {
        ret = -ENOMEM;
        goto out;
    }
    for (int i = 0; i < ncols; i++) {
        hi[i] = 1e30;
    }
    obj[ncols - 1] = 1;     /* minimise T */
    Clp_setLogLevel(lp, 0);
    Clp_loadProblem(lp, ncols, 0, start, NULL, NULL, lo, hi, obj, NULL, NULL);
    ret = first_rows(m, chunks, weight, &r, col, val);
    if (!ret) {
        ret = solve(m, lp, &r, col, val);
    }
    if (!ret) {
        *T = Clp_objectiveValue(lp);
    }
    if (!ret && x) {
        memcpy(x, Clp_getColSolution(lp), (size_t)(ncols - 1) * sizeof(*x));
    }
out:
    if (lp) {
        Clp_deleteModel(lp);
    }
    rows_free(&r);
    free(start);
    free(lo);
    free(hi);
    free(obj);
    free(val);
    free(col);
    return ret;
}

int swai_mteg_pack(const struct swai_mteg *m, uint32_t chunks, double *x, double *T)
{
    return swai_mteg_pack_weighted(m, chunks, NULL, x, T);
}

int swai_mteg_pack_root(const struct swai_mteg *m, uint32_t chunks, int root, double *x,
                        double *T)
{
    double *weight = calloc((size_t)m->ncards, sizeof(*weight));
    int ret;

    if (!weight) {
        return -ENOMEM;
    }
    weight[root] = 1;
    ret = swai_mteg_pack_weighted(m, chunks, weight, x, T);
    free(weight);
    return ret;
}
