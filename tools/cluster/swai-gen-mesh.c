/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-mesh.c - MESH1 (one-shot) and MESH2 (two-shot): every rank
 * talks to every other directly, as HCCL does inside a fully connected
 * server (seed 000 §3).
 *
 *   MESH1  one round: AllReduce sends the whole buffer to everyone and
 *          every rank reduces all N (alpha + D beta, N - 1 times the
 *          data); ReduceScatter, AllGather, Broadcast and Reduce send
 *          each block straight to where it ends.
 *   MESH2  two rounds: AllReduce is a direct ReduceScatter then a direct
 *          AllGather of the N blocks (2 alpha + D/N beta per link);
 *          Broadcast scatters then all-gathers; Reduce reduce-scatters
 *          then gathers at the root.
 * Every rank reduces a block in rank order, starting from rank 0's, so
 * the ranks' results are bitwise equal.  A rank sends to its peers in rank
 * order from its o->shift-th peer on (swai-gen.h): only the order of one
 * round's sends moves, never which messages a pair exchanges.
 */
#include "swai-gen.h"

/* The @i-th peer rank @r sends to in a round to all (0 <= i < N - 1). */
static int peer_at(int r, int i, int N, int shift)
{
    int q = ((i + shift) % (N - 1) + (N - 1)) % (N - 1);

    return q < r ? q : q + 1;
}

/*
 * Block @b of every rank's input, reduced in rank order into @dst at
 * rank @r (every other rank sent it its block b).
 */
static void reduce_in_order(struct swai_sched *s, int r, int N, uint32_t b,
                            int dst, uint32_t doff, uint32_t round)
{
    for (int q = 0; q < N; q++) {
        if (!q && r == 0) {
            swai_sched_copy(s, r, SWAI_BUF_IN, b, dst, doff, 1, round);
        } else if (!q) {
            swai_sched_recv(s, r, 0, dst, doff, 1, round);
        } else if (q == r) {
            swai_sched_reduce(s, r, SWAI_BUF_IN, b, dst, doff, 1, round);
        } else {
            swai_sched_recv_reduce(s, r, q, dst, doff, dst, doff, 1, round);
        }
    }
}

/* Block q of the input to rank q, reduced there into dst[q or 0]. */
static void direct_rs(struct swai_sched *s, int N, bool at_block,
                      int root_only, int shift, uint32_t round)
{
    for (int r = 0; r < N; r++) {
        for (int i = 0; i < N - 1; i++) {
            int q = peer_at(r, i, N, shift);

            swai_sched_send(s, r, q, SWAI_BUF_IN, (uint32_t)q, 1, round);
        }
        reduce_in_order(s, r, N, (uint32_t)r,
                        root_only < 0 || r == root_only ? SWAI_BUF_OUT :
                        SWAI_BUF_SCRATCH, at_block ? (uint32_t)r : 0, round);
    }
}

/* Block r of @src at every rank r to every other rank's out[r]. */
static void direct_ag(struct swai_sched *s, int N, int src, bool at_block,
                      int shift, uint32_t round)
{
    for (int r = 0; r < N; r++) {
        for (int i = 0; i < N - 1; i++) {
            swai_sched_send(s, r, peer_at(r, i, N, shift), src,
                            at_block ? (uint32_t)r : 0, 1, round);
        }
        for (int q = 0; q < N; q++) {
            if (q != r) {
                swai_sched_recv(s, r, q, SWAI_BUF_OUT, (uint32_t)q, 1,
                                round);
            }
        }
    }
}

static int build1(struct swai_sched *s, enum swai_coll coll, int N,
                  const struct swai_gen_opts *o, char *why, size_t n)
{
    int ret = swai_sched_init(s, "MESH1", coll, N, o->root, 1);
    bool copied = false;

    (void)why;
    (void)n;
    if (ret) {
        return ret;
    }
    switch (coll) {
    case SWAI_COLL_ALLREDUCE:
        for (int r = 0; r < N; r++) {
            for (int i = 0; i < N - 1; i++) {
                swai_sched_send(s, r, peer_at(r, i, N, o->shift), SWAI_BUF_IN,
                                0, 1, 0);
            }
            reduce_in_order(s, r, N, 0, SWAI_BUF_OUT, 0, 0);
        }
        break;
    case SWAI_COLL_REDUCESCATTER:
        direct_rs(s, N, false, -1, o->shift, 0);
        break;
    case SWAI_COLL_ALLGATHER:
        for (int r = 0; r < N; r++) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, (uint32_t)r,
                            1, 0);
        }
        direct_ag(s, N, SWAI_BUF_IN, false, o->shift, 0);
        break;
    case SWAI_COLL_BROADCAST:
        for (int i = 0; i <= N - 1; i++) {
            int q = i < N - 1 ? peer_at(o->root, i, N, o->shift) : -1;

            /* The root's own copy where rank order puts it (before q > root). */
            if (!copied && (q < 0 || q > o->root)) {
                swai_sched_copy(s, o->root, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0,
                                1, 0);
                copied = true;
            }
            if (q >= 0) {
                swai_sched_send(s, o->root, q, SWAI_BUF_IN, 0, 1, 0);
                swai_sched_recv(s, q, o->root, SWAI_BUF_OUT, 0, 1, 0);
            }
        }
        break;
    default:
        for (int q = 0; q < N; q++) {
            if (q != o->root) {
                swai_sched_send(s, q, o->root, SWAI_BUF_IN, 0, 1, 0);
            }
        }
        reduce_in_order(s, o->root, N, 0, SWAI_BUF_OUT, 0, 0);
        break;
    }
    return 0;
}

static int build2(struct swai_sched *s, enum swai_coll coll, int N,
                  const struct swai_gen_opts *o, char *why, size_t n)
{
    int ret = swai_sched_init(s, "MESH2", coll, N, o->root, (uint32_t)N);
    uint32_t C = (uint32_t)N;

    (void)why;
    (void)n;
    if (ret) {
        return ret;
    }
    switch (coll) {
    case SWAI_COLL_ALLREDUCE:
        direct_rs(s, N, true, -1, o->shift, 0);
        direct_ag(s, N, SWAI_BUF_OUT, true, o->shift, 1);
        break;
    case SWAI_COLL_BROADCAST:
        swai_sched_copy(s, o->root, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, C, 0);
        for (int i = 0; i < N - 1; i++) {
            int q = peer_at(o->root, i, N, o->shift);

            swai_sched_send(s, o->root, q, SWAI_BUF_IN, (uint32_t)q, 1, 0);
            swai_sched_recv(s, q, o->root, SWAI_BUF_OUT, (uint32_t)q, 1, 0);
        }
        for (int r = 0; r < N; r++) {
            for (int i = 0; i < N - 1; i++) {
                int q = peer_at(r, i, N, o->shift);

                if (q != o->root) {
                    swai_sched_send(s, r, q, SWAI_BUF_OUT, (uint32_t)r, 1, 1);
                }
            }
            for (int q = 0; q < N && r != o->root; q++) {
                if (q != r) {
                    swai_sched_recv(s, r, q, SWAI_BUF_OUT, (uint32_t)q, 1, 1);
                }
            }
        }
        break;
    default:
        direct_rs(s, N, true, o->root, o->shift, 0);
        s->scratch_chunks = C;
        for (int q = 0; q < N; q++) {
            if (q != o->root) {
                swai_sched_send(s, q, o->root, SWAI_BUF_SCRATCH, (uint32_t)q,
                                1, 1);
                swai_sched_recv(s, o->root, q, SWAI_BUF_OUT, (uint32_t)q, 1,
                                1);
            }
        }
        break;
    }
    return 0;
}

const struct swai_gen swai_gen_mesh1 = {
    .name = "MESH1",
    .what = "mesh one-shot: one round, every block straight to its ranks",
    .colls = 1u << SWAI_COLL_ALLREDUCE | 1u << SWAI_COLL_REDUCESCATTER |
             1u << SWAI_COLL_ALLGATHER | 1u << SWAI_COLL_BROADCAST |
             1u << SWAI_COLL_REDUCE,
    .build = build1,
};

const struct swai_gen swai_gen_mesh2 = {
    .name = "MESH2",
    .what = "mesh two-shot: a direct reduce-scatter or scatter, then gather",
    .colls = 1u << SWAI_COLL_ALLREDUCE | 1u << SWAI_COLL_BROADCAST |
             1u << SWAI_COLL_REDUCE,
    .build = build2,
};
