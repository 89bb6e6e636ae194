/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-nhr-order.c - NHR's data reordering (seed 000 §4.3): the
 * order tree[] in which the N tree ids lie in the buffer, so that the
 * slices of each message are few contiguous pieces.
 *
 * Step k's messages carry the ids {i - 2^(k+1) m : m < D_k} (mod N).
 * With N = 2^a * q, q odd, the first a steps carry whole residue classes
 * mod 2^(k+1), which bit-reversal of the low a bits makes contiguous
 * (the talk's Tree = [0,2,1,3]; every power of two is one piece a
 * message).  Within one class the ids are r + 2^a y, y in Z_q, and the
 * later steps are the same problem on Z_q, odd, where 2 is invertible:
 * multiplying by 2^-K maps step K-1's progression (difference 2^K) onto
 * an interval, step K-2's onto 2 intervals, step K-3's onto 4, ..., and
 * the steps after K stay progressions of D_k pieces.  Ordering y by
 * y * 2^-K mod q with K near log2(q)/2 balances the two, so no message has
 * more than about sqrt(q) pieces (N = 255: 9 where the identity has 127
 * and HCCL's code 64).  SWAI_NHR_BEST tries every K and the identity,
 * keeps the cheapest (the sum over steps of the most pieces any message
 * has, then the total), and polishes it by swapping neighbours within a
 * bounded budget.  Full contiguity is impossible for some N (N = 5:
 * step 0's pairs form a 5-cycle).  Deterministic, and a 1024-rank order
 * costs a few tens of milliseconds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-gen.h"

static int bitrev(int v, int bits)
{
    int r = 0;

    for (int b = 0; b < bits; b++) {
        r |= ((v >> b) & 1) << (bits - 1 - b);
    }
    return r;
}

struct key {
    int key, id;
};

static int cmp_key(const void *a, const void *b)
{
    const struct key *x = a, *y = b;

    return x->key != y->key ? (x->key < y->key ? -1 : 1) :
           (x->id < y->id ? -1 : x->id > y->id);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return x < y ? -1 : x > y;
}

/*
 * Pieces of step @k's messages with tree ids at pos[] (id -> slice): the
 * most of any receiver's message; all of them are added to *total.
 * @buf has room for N ints.
 */
static int step_pieces(int N, const int *pos, int k, int *buf, long *total)
{
    int D = swai_nhr_slices(N, k), step = 1 << (k + 1), most = 0;

    for (int i = 0; i < N; i++) {
        int pieces = 1;

        for (int m = 0; m < D; m++) {
            long t = ((long)i - (long)step * m) % N;

            buf[m] = pos[t < 0 ? t + N : t];
        }
        qsort(buf, (size_t)D, sizeof(*buf), cmp_int);
        for (int m = 1; m < D; m++) {
            pieces += buf[m] != buf[m - 1] + 1;
        }
        most = pieces > most ? pieces : most;
        *total += pieces;
    }
    return most;
}

/* The cost of pos[]: the steps' worst pieces summed, then all pieces. */
static void cost(int N, const int *pos, int *buf, long *worst, long *total)
{
    *worst = 0;
    *total = 0;
    for (int k = 0; k < swai_nhr_steps(N); k++) {
        *worst += step_pieces(N, pos, k, buf, total);
    }
}

static void order_by_bitrev(int N, int *tree)
{
    int bits = swai_nhr_steps(N);
    struct key *k = malloc((size_t)N * sizeof(*k));

    if (!k) {
        for (int i = 0; i < N; i++) {
            tree[i] = i;
        }
        return;
    }
    for (int i = 0; i < N; i++) {
        k[i] = (struct key){ bitrev(i, bits), i };
    }
    qsort(k, (size_t)N, sizeof(*k), cmp_key);
    for (int i = 0; i < N; i++) {
        tree[i] = k[i].id;
    }
    free(k);
}

/*
 * N = 2^a q: classes mod 2^a in bit-reversed order, each ordered by
 * y * 2^-K mod q.
 */
static void order_split(int N, int K, int *tree)
{
    int a = 0, q, idx = 0;
    long inv = 1, half;

    while (!((N >> a) & 1)) {
        a++;
    }
    q = N >> a;
    half = (q + 1) / 2;                 /* 2^-1 mod q */
    for (int k = 0; k < K; k++) {
        inv = inv * half % q;
    }
    for (int b = 0; b < (1 << a); b++) {
        int r = bitrev(b, a);

        for (int y = 0; y < q; y++) {
            /* the id whose key y * 2^-K mod q is this position */
            tree[idx + (int)((long)y * inv % q)] = r + (y << a);
        }
        idx += q;
    }
}

static void positions(int N, const int *tree, int *pos)
{
    for (int i = 0; i < N; i++) {
        pos[tree[i]] = i;
    }
}

static bool lower(long w, long t, long bw, long bt)
{
    return w < bw || (w == bw && t < bt);
}

int swai_nhr_order(int N, enum swai_nhr_order order, int *tree)
{
    int *cand = malloc((size_t)N * sizeof(*cand));
    int *pos = malloc((size_t)N * sizeof(*pos));
    int *buf = malloc((size_t)N * sizeof(*buf));
    long bw = 0, bt = 0, budget;

    if (!cand || !pos || !buf) {
        free(cand);
        free(pos);
        free(buf);
        return -ENOMEM;
    }
    for (int i = 0; i < N; i++) {
        tree[i] = i;
    }
    if (order == SWAI_NHR_BITREV) {
        order_by_bitrev(N, tree);
    } else if (order == SWAI_NHR_BEST) {
        positions(N, tree, pos);
        cost(N, pos, buf, &bw, &bt);
        for (int K = 0; K <= swai_nhr_steps(N); K++) {
            long w, t;

            order_split(N, K, cand);
            positions(N, cand, pos);
            cost(N, pos, buf, &w, &t);
            if (lower(w, t, bw, bt)) {
                memcpy(tree, cand, (size_t)N * sizeof(*tree));
                bw = w;
                bt = t;
            }
        }
        /* neighbour swaps while they help, within a work budget */
        budget = 2000000 / ((long)N * N);  /* a cost() is ~N^2 slices */
        for (bool better = true; better && budget > 0;) {
            better = false;
            for (int i = 0; i + 1 < N && budget > 0; i++, budget--) {
                long w, t;
                int tmp = tree[i];

                tree[i] = tree[i + 1];
                tree[i + 1] = tmp;
                positions(N, tree, pos);
                cost(N, pos, buf, &w, &t);
                if (lower(w, t, bw, bt)) {
                    bw = w;
                    bt = t;
                    better = true;
                } else {
                    tree[i + 1] = tree[i];
                    tree[i] = tmp;
                }
            }
        }
    }
    free(cand);
    free(pos);
    free(buf);
    return 0;
}

/* Pieces of the most fragmented message, per step, for tree[]. */
int swai_nhr_pieces(int N, const int *tree, int *most, int max)
{
    int S = swai_nhr_steps(N);
    int *pos = malloc((size_t)N * sizeof(*pos));
    int *buf = malloc((size_t)N * sizeof(*buf));

    if (!pos || !buf || S > max) {
        free(pos);
        free(buf);
        return -1;
    }
    positions(N, tree, pos);
    for (int k = 0; k < S; k++) {
        long total = 0;

        most[k] = step_pieces(N, pos, k, buf, &total);
    }
    free(pos);
    free(buf);
    return S;
}
