/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-milp.c - seed 003's MILP on the MTEG (swai-milp.h): every variable
 * gets its column by index arithmetic, every row is appended as triplets,
 * and CBC gets the whole matrix at once, column-wise (adding 10^5 columns
 * one by one through its C API is quadratic).
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <coin/Cbc_C_Interface.h>

#include "swai-milp.h"

/* The model: where each variable's column is, and the rows so far. */
struct milp {
    const struct swai_mteg *m;
    enum swai_coll coll;
    int root, N, H, ntrees;
    uint32_t chunks;
    int *last;          /* [e]: the last slot e may leave at, all of it by H; -1: none */
    int *xoff;          /* [s * nedges + e]: x(k, e, t) at base[k] + xoff + t; -1: none */
    int *nx;            /* [s]: the x columns of a tree from card s */
    int *base;          /* [k]: tree k's first column */
    int ncols, dmax;    /* Dmax: the last column */
    int *trow, *tcol;   /* the rows' entries, as triplets */
    double *tval;
    size_t nnz, cap;
    double *rlo, *rhi;  /* each row's bounds */
    int nrows, rcap;
    int err;            /* -ENOMEM once an append failed: the rest are dropped */
};

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int src_of(const struct milp *p, int k)
{
    return p->coll == SWAI_COLL_ALLGATHER ? k / (int)p->chunks : p->root;
}

/* x(k, e, t0): edge e carries tree k's chunk from slot t0; -1 if it does not exist. */
static int xcol(const struct milp *p, int k, int e, int t0)
{
    int off = p->xoff[(size_t)src_of(p, k) * (size_t)p->m->nedges + (size_t)e];

    return off < 0 || t0 < 0 || t0 > p->last[e] ? -1 : p->base[k] + off + t0;
}

static int ycol(const struct milp *p, int k, int v, int t)
{
    return p->base[k] + p->nx[src_of(p, k)] + v * (p->H + 1) + t;
}

/* z and D exist for the cards other than the source, after the y. */
static int zcol(const struct milp *p, int k, int v, int t)
{
    int s = src_of(p, k);

    return p->base[k] + p->nx[s] + (p->N + v - (v > s)) * (p->H + 1) + t;
}

static int dcol(const struct milp *p, int k, int v)
{
    int s = src_of(p, k);

    return p->base[k] + p->nx[s] + (2 * p->N - 1) * (p->H + 1) + v - (v > s);
}

/*
 * Which x exist, and every column's place.  No x into a tree's source:
 * (6) with a binary y lets a card take a chunk once, and the source holds
 * it from slot 0, so such an x is 0 in every solution.  -E2BIG above
 * SWAI_MILP_MAX_COLS.
 */
static int layout(struct milp *p)
{
    const struct swai_mteg *m = p->m;
    long long ncols = 0;

    for (int i = 0; i < m->nedges; i++) {
        const struct swai_mteg_edge *e = &m->e[i];

        p->last[i] = p->H - e->L;
        for (int h = 0; h < e->nhops; h++) {
            int fit = p->H - (e->at[h] + e->busy[h] - 1);

            p->last[i] = fit < p->last[i] ? fit : p->last[i];
        }
    }
    for (int s = 0; s < p->N; s++) {
        for (int i = 0; i < m->nedges; i++) {
            bool none = m->e[i].v == s || p->last[i] < 0;

            p->xoff[(size_t)s * (size_t)m->nedges + (size_t)i] = none ? -1 : p->nx[s];
            p->nx[s] += none ? 0 : p->last[i] + 1;
        }
    }
    for (int k = 0; k < p->ntrees; k++) {
        p->base[k] = (int)ncols;
        ncols += p->nx[src_of(p, k)] + (long long)(2 * p->N - 1) * (p->H + 1) + p->N - 1;
        if (ncols >= SWAI_MILP_MAX_COLS) {
            return -E2BIG;
        }
    }
    p->dmax = (int)ncols;
    p->ncols = (int)ncols + 1;
    return 0;
}

/* A new row, lo <= ... <= hi; put() appends its entries. */
static void row(struct milp *p, double lo, double hi)
{
    if (p->err) {
        return;
    }
    if (p->nrows == p->rcap) {
        int cap = p->rcap ? 2 * p->rcap : 4096;
        double *l = realloc(p->rlo, (size_t)cap * sizeof(*l)), *h;

        p->rlo = l ? l : p->rlo;
        h = l ? realloc(p->rhi, (size_t)cap * sizeof(*h)) : NULL;
        p->rhi = h ? h : p->rhi;
        if (!h) {
            p->err = -ENOMEM;
            return;
        }
        p->rcap = cap;
    }
    p->rlo[p->nrows] = lo;
    p->rhi[p->nrows++] = hi;
}

static void put(struct milp *p, int col, double val)
{
    if (p->err) {
        return;
    }
    if (p->nnz == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 65536;
        int *r = realloc(p->trow, cap * sizeof(*r)), *c = NULL;
        double *v = NULL;

        p->trow = r ? r : p->trow;
        c = r ? realloc(p->tcol, cap * sizeof(*c)) : NULL;
        p->tcol = c ? c : p->tcol;
        v = c ? realloc(p->tval, cap * sizeof(*v)) : NULL;
        p->tval = v ? v : p->tval;
        if (!v) {
            p->err = -ENOMEM;
            return;
        }
        p->cap = cap;
    }
    p->trow[p->nnz] = p->nrows - 1;
    p->tcol[p->nnz] = col;
    p->tval[p->nnz++] = val;
}

/* (4), (5), (6): what tree k's source sends, who may send, what a card holds. */
static void flow_rows(struct milp *p, int k)
{
    const struct swai_mteg *m = p->m;
    int s = src_of(p, k);

    row(p, 1, DBL_MAX);                                         /* (4) */
    for (int e = 0; e < m->nedges; e++) {
        for (int t = 0; m->e[e].u == s && xcol(p, k, e, t) >= 0; t++) {
            put(p, xcol(p, k, e, t), 1);
        }
    }
    for (int e = 0; e < m->nedges; e++) {                       /* (5) */
        for (int t = 0; xcol(p, k, e, t) >= 0; t++) {
            row(p, -DBL_MAX, 0);
            put(p, xcol(p, k, e, t), 1);
            put(p, ycol(p, k, m->e[e].u, t), -1);
        }
    }
    /*
     * (6) in the MTEG's slots: the seed's x at t - L - 1 is its y "before
     * slot t"; here y(v, t) holds in slot t, so x leaves at t - L.
     */
    for (int v = 0; v < p->N; v++) {                            /* (6) */
        for (int t = 1; t <= p->H; t++) {
            row(p, 0, 0);
            put(p, ycol(p, k, v, t), 1);
            put(p, ycol(p, k, v, t - 1), -1);
            for (int j = m->in_off[v]; j < m->in_off[v + 1]; j++) {
                int c = xcol(p, k, m->in[j], t - m->e[m->in[j]].L);

                if (c >= 0) {
                    put(p, c, -1);
                }
            }
        }
    }
}

/* (9)-(12), (14) and Dmax >= D: the slot each card first holds tree k's chunk. */
static void arrival_rows(struct milp *p, int k)
{
    int s = src_of(p, k);

    for (int v = 0; v < p->N; v++) {
        if (v == s) {
            continue;
        }
        row(p, 1, 1);                                           /* (9) */
        for (int t = 1; t <= p->H; t++) {
            put(p, zcol(p, k, v, t), 1);
        }
        for (int t = 1; t <= p->H; t++) {
            row(p, -DBL_MAX, 0);                                /* (10) */
            put(p, zcol(p, k, v, t), 1);
            put(p, ycol(p, k, v, t), -1);
            row(p, -DBL_MAX, 1);                                /* (11) */
            put(p, zcol(p, k, v, t), 1);
            put(p, ycol(p, k, v, t - 1), 1);
            row(p, 0, DBL_MAX);                                 /* (12) */
            put(p, zcol(p, k, v, t), 1);
            put(p, ycol(p, k, v, t), -1);
            put(p, ycol(p, k, v, t - 1), 1);
        }
        row(p, 0, 0);                                           /* (14) */
        put(p, dcol(p, k, v), 1);
        for (int t = 1; t <= p->H; t++) {
            put(p, zcol(p, k, v, t), -t);
        }
        row(p, 0, DBL_MAX);                                     /* (1) */
        put(p, p->dmax, 1);
        put(p, dcol(p, k, v), -1);
    }
}

/*
 * Every x under the (link direction, slot) cells it occupies: counted into
 * @cnt (@cols NULL), else written at cols[cnt[cell]++].
 */
static void occupy(const struct milp *p, size_t *cnt, int *cols)
{
    const struct swai_mteg *m = p->m;

    for (int k = 0; k < p->ntrees; k++) {
        for (int i = 0; i < m->nedges; i++) {
            const struct swai_mteg_edge *e = &m->e[i];

            for (int t = 0; xcol(p, k, i, t) >= 0; t++) {
                for (int h = 0; h < e->nhops; h++) {
                    for (int b = 0; b < e->busy[h]; b++) {
                        size_t cell = (size_t)e->res[h] * (size_t)(p->H + 1) +
                                      (size_t)(t + e->at[h] + b);

                        if (cols) {
                            cols[cnt[cell]] = xcol(p, k, i, t);
                        }
                        cnt[cell]++;
                    }
                }
            }
        }
    }
}

/* (7): at most one chunk on a link direction in a slot (cells of one x: a bound). */
static int capacity_rows(struct milp *p)
{
    size_t cells = (size_t)p->m->nres * (size_t)(p->H + 1), *cnt, *at, total = 0;
    int *cols, ret;

    cnt = calloc(cells + 1, sizeof(*cnt));
    at = malloc((cells + 1) * sizeof(*at));
    if (!cnt || !at) {
        free(cnt);
        free(at);
        return -ENOMEM;
    }
    occupy(p, cnt, NULL);
    for (size_t c = 0; c < cells; c++) {
        at[c] = total;
        total += cnt[c];
    }
    at[cells] = total;
    cols = malloc((total + 1) * sizeof(*cols));
    if (cols) {
        memcpy(cnt, at, cells * sizeof(*cnt));
        occupy(p, cnt, cols);
    }
    for (size_t c = 0; cols && c < cells; c++) {
        if (at[c + 1] - at[c] < 2) {
            continue;
        }
        row(p, -DBL_MAX, 1);
        /* an x in the cell twice (two hops on one link) counts twice */
        for (size_t j = at[c]; j < at[c + 1]; j++) {
            double coef = 1;

            for (; j + 1 < at[c + 1] && cols[j + 1] == cols[j]; j++) {
                coef++;
            }
            put(p, cols[j], coef);
        }
    }
    ret = cols ? p->err : -ENOMEM;
    free(cnt);
    free(at);
    free(cols);
    return ret;
}

/* Binary everywhere but D and Dmax; (2), (3), (8), (13) as bounds. */
static void bounds(const struct milp *p, double *lo, double *hi, double *obj)
{
    for (int c = 0; c < p->ncols; c++) {
        lo[c] = 0;
        hi[c] = 1;
        obj[c] = 0;
    }
    for (int k = 0; k < p->ntrees; k++) {
        int s = src_of(p, k);

        for (int v = 0; v < p->N; v++) {
            lo[ycol(p, k, v, 0)] = hi[ycol(p, k, v, 0)] = v == s;  /* (2), (3) */
            lo[ycol(p, k, v, p->H)] = 1;                            /* (8) */
            if (v != s) {
                hi[zcol(p, k, v, 0)] = 0;                           /* (13) */
                hi[dcol(p, k, v)] = p->H;
            }
        }
    }
    hi[p->dmax] = p->H;
    obj[p->dmax] = 1;                                               /* (1) */
}

/* The triplets as CBC's compressed columns. */
static int to_columns(const struct milp *p, CoinBigIndex **start, int **index, double **value)
{
    CoinBigIndex *at;

    *start = calloc((size_t)p->ncols + 1, sizeof(**start));
    *index = malloc((p->nnz + 1) * sizeof(**index));
    *value = malloc((p->nnz + 1) * sizeof(**value));
    at = malloc(((size_t)p->ncols + 1) * sizeof(*at));
    if (!*start || !*index || !*value || !at) {
        free(at);
        return -ENOMEM;
    }
    for (size_t i = 0; i < p->nnz; i++) {
        (*start)[p->tcol[i] + 1]++;
    }
    for (int c = 0; c < p->ncols; c++) {
        (*start)[c + 1] += (*start)[c];
    }
    memcpy(at, *start, ((size_t)p->ncols + 1) * sizeof(*at));
    for (size_t i = 0; i < p->nnz; i++) {
        CoinBigIndex j = at[p->tcol[i]]++;

        (*index)[j] = p->trow[i];
        (*value)[j] = p->tval[i];
    }
    free(at);
    return 0;
}

/*
 * A given solution (MTEGCCA's trees) as every column's value.  A tree may
 * bring a card its chunk twice (a later path of the tree through it); (6)
 * allows one arrival, so the earliest hop into each card stays: every send
 * from that card comes after it.  -EINVAL with @why if it is no solution.
 */
static int start_values(const struct milp *p, const struct swai_mteg_hop *start,
                        const int *nstart, int *arrive, int *keep, double *val,
                        char *why, size_t n)
{
    int N = p->N, dmax = 0;

    memset(val, 0, (size_t)p->ncols * sizeof(*val));
    for (int k = 0; k < p->ntrees; k++) {
        const struct swai_mteg_hop *h = &start[(size_t)k * (size_t)N * (size_t)N];
        int s = src_of(p, k);

        for (int v = 0; v < N; v++) {
            arrive[v] = v == s ? 0 : INT_MAX;
            keep[v] = -1;
        }
        for (int j = 0; j < nstart[k]; j++) {
            const struct swai_mteg_edge *e = &p->m->e[h[j].e];

            if (e->v != s && h[j].t + e->L < arrive[e->v]) {
                arrive[e->v] = h[j].t + e->L;
                keep[e->v] = j;
            }
        }
        for (int v = 0; v < N; v++) {
            int c = v == s ? 0 : keep[v] < 0 ? -1 : xcol(p, k, h[keep[v]].e, h[keep[v]].t);

            if (c < 0 || (v != s && arrive[p->m->e[h[keep[v]].e].u] > h[keep[v]].t)) {
                snprintf(why, n, "the MIP start's tree %d does not bring card %d its chunk "
                         "within %d slots from a card that holds it", k, v, p->H);
                return -EINVAL;
            }
            for (int t = 0; t <= p->H; t++) {
                val[ycol(p, k, v, t)] = t >= arrive[v];
            }
            if (v != s) {
                val[c] = 1;
                val[zcol(p, k, v, arrive[v])] = 1;
                val[dcol(p, k, v)] = arrive[v];
                dmax = arrive[v] > dmax ? arrive[v] : dmax;
            }
        }
    }
    val[p->dmax] = dmax;
    return 0;
}

/* The MIP start into CBC: every column, by index. */
static int set_start(const struct milp *p, Cbc_Model *cbc, const struct swai_mteg_hop *start,
                     const int *nstart, char *why, size_t n)
{
    double *val = malloc((size_t)p->ncols * sizeof(*val));
    int *idx = malloc((size_t)p->ncols * sizeof(*idx));
    int *arrive = malloc((size_t)p->N * sizeof(*arrive));
    int *keep = malloc((size_t)p->N * sizeof(*keep)), ret = -ENOMEM;

    if (val && idx && arrive && keep) {
        ret = start_values(p, start, nstart, arrive, keep, val, why, n);
    }
    if (!ret) {
        for (int c = 0; c < p->ncols; c++) {
            idx[c] = c;
        }
        Cbc_setMIPStartI(cbc, p->ncols, idx, val);
    }
    free(val);
    free(idx);
    free(arrive);
    free(keep);
    return ret;
}

/* The matrix, bounds and objective into a new CBC model; NULL if out of memory. */
static Cbc_Model *load(const struct milp *p)
{
    double *lo = malloc((size_t)p->ncols * sizeof(*lo));
    double *hi = malloc((size_t)p->ncols * sizeof(*hi));
    double *obj = malloc((size_t)p->ncols * sizeof(*obj)), *value = NULL;
    CoinBigIndex *start = NULL;
    Cbc_Model *cbc = NULL;
    int *index = NULL;

    if (lo && hi && obj && !to_columns(p, &start, &index, &value)) {
        cbc = Cbc_newModel();
    }
    if (cbc) {
        bounds(p, lo, hi, obj);
        Cbc_loadProblem(cbc, p->ncols, p->nrows, start, index, value, lo, hi, obj,
                        p->rlo, p->rhi);
        for (int c = 0; c < p->ncols; c++) {
            Cbc_setInteger(cbc, c);
        }
        Cbc_setObjSense(cbc, 1);
    }
    free(lo);
    free(hi);
    free(obj);
    free(start);
    free(index);
    free(value);
    return cbc;
}

/* The solution's x as hops in the trees' layout; its last arrival. */
static int read_hops(const struct milp *p, const double *sol, struct swai_mteg_hop *hops,
                     int *nhops)
{
    size_t room = (size_t)p->N * (size_t)p->N;
    int slots = 0;

    for (int k = 0; k < p->ntrees; k++) {
        nhops[k] = 0;
        for (int e = 0; e < p->m->nedges; e++) {
            for (int t = 0; xcol(p, k, e, t) >= 0; t++) {
                if (sol[xcol(p, k, e, t)] < 0.5 || (size_t)nhops[k] >= room) {
                    continue;   /* (6): at most N - 1, one into each card */
                }
                hops[(size_t)k * room + (size_t)nhops[k]++] = (struct swai_mteg_hop){ e, t };
                slots = t + p->m->e[e].L > slots ? t + p->m->e[e].L : slots;
            }
        }
    }
    return slots;
}

/* Solve; what CBC reached into @res and, with a solution, @hops. */
static void solve(const struct milp *p, Cbc_Model *cbc, double time_limit_s,
                  struct swai_mteg_hop *hops, int *nhops, struct swai_milp_result *res)
{
    const double *sol;

    Cbc_setLogLevel(cbc, getenv("SWAI_MILP_LOG") ? 1 : 0);
    /* the limit is the user's wall clock, not CBC's default CPU time */
    Cbc_setParameter(cbc, "timeMode", "elapsed");
    /*
     * No CglPreProcess: in CBC 2.10.8 a time limit that ends it crashes in
     * its postProcess (ndv2 AllGather, 4 chunks, 20 s), and after it the
     * search stopped at 39 s of 60; without it the limit holds and the
     * ndv2 models that finish do so as fast or faster (0.39 s against
     * 0.85 s, 2.9 against 4.9 s for AllGather with 1 and 2 chunks).
     */
    Cbc_setParameter(cbc, "preprocess", "off");
    Cbc_setMaximumSeconds(cbc, time_limit_s);
    Cbc_solve(cbc);
    sol = Cbc_bestSolution(cbc);
    res->bound_slots = Cbc_getBestPossibleObjValue(cbc);
    if (Cbc_isProvenOptimal(cbc) && sol) {
        res->status = 0;
    } else if (Cbc_isProvenInfeasible(cbc)) {
        res->status = -1;
    } else {
        res->status = sol ? 1 : 2;
    }
    if (res->status == 0 || res->status == 1) {
        res->slots = read_hops(p, sol, hops, nhops);
    }
}

static void milp_free(struct milp *p)
{
    free(p->last);
    free(p->xoff);
    free(p->nx);
    free(p->base);
    free(p->trow);
    free(p->tcol);
    free(p->tval);
    free(p->rlo);
    free(p->rhi);
}

static int check_input(const struct swai_mteg *m, enum swai_coll coll, int root,
                       uint32_t chunks, double time_limit_s, char *why, size_t n)
{
    if (!m || !m->nedges || m->ncards < 2 || m->H < 1) {
        snprintf(why, n, "no MTEG of 2 cards and a slot to solve on");
        return -EINVAL;
    }
    if ((coll != SWAI_COLL_ALLGATHER && coll != SWAI_COLL_BROADCAST) || root < 0 ||
        root >= m->ncards || !chunks || chunks > (uint32_t)(INT_MAX / m->ncards) ||
        !(time_limit_s > 0)) {
        snprintf(why, n, "%s from %d, %u chunks, %g s: the MILP takes allgather or broadcast "
                 "from a card, a chunk or more, a time limit above 0", swai_coll_name(coll),
                 root, chunks, time_limit_s);
        return -EINVAL;
    }
    return 0;
}

/* The model's columns and rows into *p; -E2BIG above SWAI_MILP_MAX_COLS. */
static int build(struct milp *p)
{
    size_t E = (size_t)p->m->nedges, N = (size_t)p->N;
    int ret;

    p->last = malloc(E * sizeof(*p->last));
    p->xoff = malloc(N * E * sizeof(*p->xoff));
    p->nx = calloc(N, sizeof(*p->nx));
    p->base = malloc((size_t)p->ntrees * sizeof(*p->base));
    if (!p->last || !p->xoff || !p->nx || !p->base) {
        return -ENOMEM;
    }
    ret = layout(p);
    for (int k = 0; !ret && k < p->ntrees; k++) {
        flow_rows(p, k);
        arrival_rows(p, k);
    }
    if (!ret) {
        ret = p->err ? p->err : capacity_rows(p);
    }
    if (!ret && p->nnz > INT_MAX) {
        ret = -E2BIG;
    }
    return ret;
}

int swai_milp_solve(const struct swai_mteg *m, enum swai_coll coll, int root, uint32_t chunks,
                    double time_limit_s, const struct swai_mteg_hop *start, const int *nstart,
                    struct swai_mteg_hop *hops, int *nhops, struct swai_milp_result *res,
                    char *why, size_t n)
{
    double t0 = now_s();
    struct milp p = { 0 };
    Cbc_Model *cbc = NULL;
    int ret;

    memset(res, 0, sizeof(*res));
    res->status = 2;
    ret = check_input(m, coll, root, chunks, time_limit_s, why, n);
    if (ret) {
        return ret;
    }
    p = (struct milp){ .m = m, .coll = coll, .root = root, .N = m->ncards, .H = m->H,
                       .chunks = chunks,
                       .ntrees = (coll == SWAI_COLL_ALLGATHER ? m->ncards : 1) * (int)chunks };
    memset(nhops, 0, (size_t)p.ntrees * sizeof(*nhops));
    ret = build(&p);
    if (ret == -E2BIG) {
        snprintf(why, n, "the MILP of %d trees on %d cards and %d slots has more than %d "
                 "columns or 2^31 nonzeros: use a smaller --slots/--chunks or the heuristic",
                 p.ntrees, p.N, p.H, SWAI_MILP_MAX_COLS);
        ret = -EINVAL;
    }
    if (!ret) {
        res->ncols = p.ncols;
        res->nrows = p.nrows;
        cbc = load(&p);
        ret = cbc ? 0 : -ENOMEM;
    }
    if (!ret && start && nstart) {
        ret = set_start(&p, cbc, start, nstart, why, n);
    }
    if (!ret) {
        solve(&p, cbc, time_limit_s, hops, nhops, res);
    }
    if (ret == -ENOMEM) {
        snprintf(why, n, "out of memory");
    }
    if (cbc) {
        Cbc_deleteModel(cbc);
    }
    milp_free(&p);
    res->solve_s = now_s() - t0;
    return ret;
}
