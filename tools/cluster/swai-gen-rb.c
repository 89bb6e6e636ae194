/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-rb.c - RB: Reduce then Broadcast of the whole buffer over a
 * binomial tree, HCCL's small-data AllReduce (seed 000 §4.4): every step
 * one-sided and carrying all the data, ceil(log2 N) steps each way.
 *
 * With v = (r - root) mod N: Reduce step k, the ranks with
 * v mod 2^(k+1) = 2^k send their partial to v - 2^k; Broadcast step t
 * (k = S - 1 - t), the ranks with v mod 2^(k+1) = 0 send to v + 2^k (if
 * there is one).  The talk lost its figure; this is the tree with NHR's
 * distances (the digest's reading).  Reduction order: the parent's
 * partial first, then the child's.
 */
#include "swai-gen.h"

static void reduce_tree(struct swai_sched *s, int N, int root, int S,
                        int dst_root)
{
    for (int v = 0; v < N; v++) {
        int r = (v + root) % N;
        bool have = false;      /* has a partial in its work buffer */
        int work = v ? SWAI_BUF_SCRATCH : dst_root;

        for (int k = 0; k < S; k++) {
            int d = 1 << k;

            if (v % (2 * d) == d) {
                swai_sched_send(s, r, (v - d + root) % N,
                                have ? work : SWAI_BUF_IN, 0, 1, (uint32_t)k);
                break;
            }
            if (v % (2 * d) == 0 && v + d < N) {
                swai_sched_recv_reduce(s, r, (v + d + root) % N,
                                       have ? work : SWAI_BUF_IN, 0, work, 0,
                                       1, (uint32_t)k);
                have = true;
            }
        }
        if (!v && !have) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, dst_root, 0, 1, 0);
        }
    }
}

/* From out[0] of the root down the tree, from round @base. */
static void bcast_tree(struct swai_sched *s, int N, int root, int S,
                       uint32_t base)
{
    for (int v = 0; v < N; v++) {
        int r = (v + root) % N;

        for (int t = 0; t < S; t++) {
            int k = S - 1 - t, d = 1 << k;

            if (v % (2 * d) == d) {
                swai_sched_recv(s, r, (v - d + root) % N, SWAI_BUF_OUT, 0, 1,
                                base + (uint32_t)t);
            } else if (v % (2 * d) == 0 && v + d < N) {
                swai_sched_send(s, r, (v + d + root) % N, SWAI_BUF_OUT, 0, 1,
                                base + (uint32_t)t);
            }
        }
    }
}

static int build(struct swai_sched *s, enum swai_coll coll, int N,
                 const struct swai_gen_opts *o, char *why, size_t n)
{
    int S = swai_nhr_steps(N);
    int ret = swai_sched_init(s, "RB", coll, N, o->root, 1);

    (void)why;
    (void)n;
    if (ret) {
        return ret;
    }
    s->scratch_chunks = 1;
    if (coll != SWAI_COLL_BROADCAST) {
        reduce_tree(s, N, coll == SWAI_COLL_REDUCE ? o->root : 0, S,
                    SWAI_BUF_OUT);
    } else {
        swai_sched_copy(s, o->root, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, 1, 0);
    }
    if (coll != SWAI_COLL_REDUCE) {
        bcast_tree(s, N, coll == SWAI_COLL_BROADCAST ? o->root : 0, S,
                   coll == SWAI_COLL_ALLREDUCE ? (uint32_t)S : 0);
    }
    return 0;
}

const struct swai_gen swai_gen_rb = {
    .name = "RB",
    .what = "reduce + broadcast over a binomial tree, the whole buffer a step",
    .colls = 1u << SWAI_COLL_ALLREDUCE | 1u << SWAI_COLL_BROADCAST |
             1u << SWAI_COLL_REDUCE,
    .build = build,
    .relabels = true,
};
