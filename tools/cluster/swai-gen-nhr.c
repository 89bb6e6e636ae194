/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-nhr.c - NHR, the Nonuniform Hierarchical Ring, exactly as seed
 * 000 §4.5 states it (Documentation/cluster.md §4).
 *
 * The data is N slices.  ReduceScatter takes S = ceil(log2 N) steps; at
 * step k rank i sends D = round((N - 1) / 2^(k + 1)) slices (half up;
 * both counts in swai-gen-nhr-rule.c, which the reordering uses too) to
 * i - 2^k, namely slice idx(T0 - 2^(k+1) m) for m < D with T0 = i - 2^k,
 * and receives slices idx(i - 2^(k+1) m) from i + 2^k, reducing them
 * into its own (tree ids mod N; idx(x) is x's place in tree[]).  Rank i
 * ends with slice idx(i).  AllGather mirrors it: step t uses k = S-1-t
 * and sends to i + 2^k what ReduceScatter received.  The D values sum to
 * N - 1, so each pass moves exactly (N - 1)/N of the data, and the
 * biggest step goes to the ring neighbour.
 *
 * tree[] is the data reordering: the identity for ReduceScatter and
 * AllGather alone (rank r must end with block r), and for AllReduce the
 * order that makes messages most contiguous (swai-gen-nhr-order.c).  A
 * message is one step per run of neighbouring slices that the sender and
 * receiver both hold in the same buffer.  Reduction order: the receiver's
 * partial first (src), then the sender's.
 *
 * With swai_gen_opts.nhr_split P > 1 (AllReduce), a slice is P chunks and
 * each ReduceScatter message goes as P parts of equal size, in order on
 * the pair's queue: the receiver reduces a part while the next one lands,
 * instead of a whole round's message after it has all landed (127.8 us for
 * the 16 MiB round of 12 ranks, Documentation/cluster.md §8).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-gen.h"


static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

struct nhr {
    struct swai_sched *s;
    int N, S;
    int *pos;                   /* tree id -> slice (idx in tree[]) */
    unsigned char *touched;     /* [rank * N + slice]: partial in work */
    int work;                   /* the partials' buffer */
    bool ag_only, rs_only;
    uint32_t *list;             /* one message's slices */
    uint32_t split;             /* chunks a slice; a message's parts */
};

/* Slices idx(t0 - 2^(k+1) m), m < D, sorted. */
static int slices(struct nhr *x, int t0, int k)
{
    int D = swai_nhr_slices(x->N, k), step = 1 << (k + 1);

    for (int m = 0; m < D; m++) {
        long t = ((long)t0 - (long)step * m) % x->N;

        x->list[m] = (uint32_t)x->pos[t < 0 ? t + x->N : t];
    }
    qsort(x->list, (size_t)D, sizeof(*x->list), cmp_u32);
    return D;
}

static int part_buf(const struct nhr *x, int rank, uint32_t sl)
{
    return x->touched[(size_t)rank * x->N + sl] ? x->work : SWAI_BUF_IN;
}

/*
 * One ReduceScatter message a -> b of x->list[0..D): runs split where the
 * slices stop being neighbours or either side's buffer changes.
 */
static void rs_message(struct nhr *x, int a, int b, int D, int k, bool last)
{
    for (int m = 0; m < D;) {
        uint32_t sl = x->list[m];
        int sa = part_buf(x, a, sl), sb = part_buf(x, b, sl), len = 1;
        bool fin = last && x->rs_only;

        while (m + len < D && x->list[m + len] == sl + (uint32_t)len &&
               part_buf(x, a, sl + (uint32_t)len) == sa &&
               part_buf(x, b, sl + (uint32_t)len) == sb) {
            len++;
        }
        /* part q: the q-th len chunks of the run's len * split */
        for (uint32_t q = 0; q < x->split; q++) {
            uint32_t off = sl * x->split + q * (uint32_t)len;

            swai_sched_send(x->s, a, b, sa, off, (uint32_t)len, (uint32_t)k);
            swai_sched_recv_reduce(x->s, b, a, sb, off,
                                   fin ? SWAI_BUF_OUT : x->work,
                                   fin ? 0 : off,     /* fin: split is 1 */
                                   (uint32_t)len, (uint32_t)k);
        }
        m += len;
    }
}

static void reduce_scatter(struct nhr *x)
{
    for (int k = 0; k < x->S; k++) {
        int N = x->N, dist = 1 << k;

        for (int i = 0; i < N; i++) {
            int to = (i - dist % N + N) % N;
            int D = slices(x, to, k);

            rs_message(x, i, to, D, k, k == x->S - 1);
        }
        /* what arrived this step is a partial in the work buffer now */
        for (int i = 0; i < N; i++) {
            int to = (i - dist % N + N) % N;
            int D = slices(x, to, k);

            for (int m = 0; m < D; m++) {
                x->touched[(size_t)to * N + x->list[m]] = 1;
            }
        }
    }
}

static void all_gather(struct nhr *x, uint32_t base)
{
    for (int t = 0; t < x->S; t++) {
        int N = x->N, k = x->S - 1 - t, dist = 1 << k;

        for (int i = 0; i < N; i++) {
            int to = (i + dist) % N;
            int D = slices(x, i, k);

            for (int m = 0; m < D;) {
                uint32_t sl = x->list[m];
                int len = 1;

                while (m + len < D && x->list[m + len] == sl + (uint32_t)len) {
                    len++;
                }
                swai_sched_send(x->s, i, to, SWAI_BUF_OUT, sl * x->split,
                                (uint32_t)len * x->split, base + (uint32_t)t);
                swai_sched_recv(x->s, to, i, SWAI_BUF_OUT, sl * x->split,
                                (uint32_t)len * x->split, base + (uint32_t)t);
                m += len;
            }
        }
    }
}

static int build(struct swai_sched *s, enum swai_coll coll, int N,
                 const struct swai_gen_opts *o, char *why, size_t n)
{
    struct nhr x = { .s = s, .N = N, .S = swai_nhr_steps(N), .split = 1 };
    int *tree;
    int ret;

    if (coll == SWAI_COLL_ALLREDUCE && o->nhr_split > 1) {
        x.split = (uint32_t)o->nhr_split;
    }
    if ((uint64_t)N * x.split > SWAI_SCHED_MAX_CHUNKS) {
        snprintf(why, n, "NHR on %d ranks in %u parts a message: more than %u chunks",
                 N, x.split, SWAI_SCHED_MAX_CHUNKS);
        return -EINVAL;
    }
    tree = malloc((size_t)N * sizeof(*tree));
    x.pos = malloc((size_t)N * sizeof(*x.pos));
    x.list = malloc((size_t)N * sizeof(*x.list));
    x.touched = calloc((size_t)N * (size_t)N, 1);
    ret = !tree || !x.pos || !x.list || !x.touched ? -ENOMEM :
          swai_nhr_order(N, coll == SWAI_COLL_ALLREDUCE ? o->nhr_order :
                         SWAI_NHR_IDENTITY, tree);
    if (!ret) {
        ret = swai_sched_init(s, "NHR", coll, N, 0,
                              coll == SWAI_COLL_ALLREDUCE ? (uint32_t)N * x.split : 1);
    }
    if (ret) {
        snprintf(why, n, "out of memory");
        goto out;
    }
    for (int i = 0; i < N; i++) {
        x.pos[tree[i]] = i;
    }
    if (coll == SWAI_COLL_ALLREDUCE) {
        x.work = SWAI_BUF_OUT;
        reduce_scatter(&x);
        all_gather(&x, (uint32_t)x.S);
    } else if (coll == SWAI_COLL_REDUCESCATTER) {
        x.work = SWAI_BUF_SCRATCH;
        x.rs_only = true;
        s->scratch_chunks = (uint32_t)N;
        reduce_scatter(&x);
    } else {
        for (int r = 0; r < N; r++) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, (uint32_t)r,
                            1, 0);
        }
        all_gather(&x, 0);
    }
out:
    free(tree);
    free(x.pos);
    free(x.list);
    free(x.touched);
    return ret;
}

const struct swai_gen swai_gen_nhr = {
    .name = "NHR",
    .what = "HCCL's nonuniform hierarchical ring: ceil(log2 N) steps a pass",
    .colls = 1u << SWAI_COLL_ALLREDUCE | 1u << SWAI_COLL_REDUCESCATTER |
             1u << SWAI_COLL_ALLGATHER,
    .build = build,
    .relabels = true,
};
