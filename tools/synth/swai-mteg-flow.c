/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-flow.c - AllToAll's bandwidth bound as a linear program
 * (swai-mteg.h, swai_mteg_flow_bound), solved by COIN-OR CLP.
 *
 * Time aside, an AllToAll is a multicommodity flow: source s must deliver
 * @chunks chunks to every other card, over the MTEG's edges (links, and
 * routes through switches), and every hop of an edge holds its link for
 * the slots its chunk's bytes take there.  The least T such that some
 * routing keeps every link's load at most T slots bounds the plan from
 * below: no schedule delivers in fewer slots than its busiest link is
 * busy.  One commodity per source (its demands share conservation rows)
 * keeps the program at N x E columns.  It is tighter than the volume
 * argument (swai-mteg-bound.c), which lets every link carry at once: the
 * LP knows which links a card's demands can reach.
 */
#include <stdlib.h>

#include <coin/Clp_C_Interface.h>

#include "swai-mteg.h"

/* Past this many columns the bound is not worth its solve (NDv2 x 10: 500 000). */
#define FLOW_MAX_COLS 60000

int swai_mteg_flow_bound(const struct swai_mteg *m, uint32_t chunks)
{
    int N = m->ncards, E = m->nedges, R = m->nres;
    int ncols = N * E + 1, nrows = N * N + R, nz = 0, ret = 0;
    CoinBigIndex *start = malloc(((size_t)ncols + 1) * sizeof(*start));
    int *index = NULL;
    double *value = NULL, *lo = NULL, *hi = NULL, *obj = NULL, *rlo = NULL, *rhi = NULL;
    size_t maxnz = 0;
    Clp_Simplex *lp;

    if (!start || N < 2 || ncols > FLOW_MAX_COLS || !chunks) {
        free(start);
        return 0;
    }
    for (int e = 0; e < E; e++) {
        maxnz += 2 + (size_t)m->e[e].nhops;
    }
    maxnz = maxnz * (size_t)N + (size_t)R;
    index = malloc(maxnz * sizeof(*index));
    value = malloc(maxnz * sizeof(*value));
    lo = calloc((size_t)ncols, sizeof(*lo));
    hi = malloc((size_t)ncols * sizeof(*hi));
    obj = calloc((size_t)ncols, sizeof(*obj));
    rlo = malloc((size_t)nrows * sizeof(*rlo));
    rhi = malloc((size_t)nrows * sizeof(*rhi));
    if (!index || !value || !lo || !hi || !obj || !rlo || !rhi) {
        goto out;
    }
    /* column s * E + e: commodity s on edge e (u -> v); its hops' links' loads */
    for (int s = 0; s < N; s++) {
        for (int e = 0; e < E; e++) {
            const struct swai_mteg_edge *x = &m->e[e];

            start[s * E + e] = nz;
            hi[s * E + e] = 1e30;
            index[nz] = s * N + x->u;   /* row (s, v): out - in at v */
            value[nz++] = 1;
            index[nz] = s * N + x->v;
            value[nz++] = -1;
            for (int k = 0; k < x->nhops; k++) {
                index[nz] = N * N + x->res[k];
                value[nz++] = x->bytes[k];
            }
        }
    }
    /* the last column is T, every link's load at most T */
    start[N * E] = nz;
    hi[N * E] = 1e30;
    obj[N * E] = 1;
    for (int r = 0; r < R; r++) {
        index[nz] = N * N + r;
        value[nz++] = -1;
    }
    start[ncols] = nz;
    /* source s sends (N - 1) x chunks and every other card keeps chunks */
    for (int s = 0; s < N; s++) {
        for (int v = 0; v < N; v++) {
            rlo[s * N + v] = rhi[s * N + v] = v == s ? (double)(N - 1) * chunks :
                                                       -(double)chunks;
        }
    }
    for (int r = 0; r < R; r++) {
        rlo[N * N + r] = -1e30;
        rhi[N * N + r] = 0;
    }
    lp = Clp_newModel();
    if (lp) {
        Clp_setLogLevel(lp, 0);
        Clp_loadProblem(lp, ncols, nrows, start, index, value, lo, hi, obj, rlo, rhi);
        if (!Clp_initialSolve(lp) && Clp_status(lp) == 0) {
            /* a link's slots are whole: the busiest holds at least ceil(T) */
            ret = (int)(Clp_objectiveValue(lp) - 1e-6) + 1;
        }
        Clp_deleteModel(lp);
    }
out:
    free(start);
    free(index);
    free(value);
    free(lo);
    free(hi);
    free(obj);
    free(rlo);
    free(rhi);
    return ret;
}
