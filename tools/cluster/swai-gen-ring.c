/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-ring.c - RING: rank r sends to r + 1 and receives from r - 1
 * (or, with swai_gen_opts.stride s, the ring of ranks 0, s, 2s, ... mod N,
 * each block following its rank).
 *
 *   ReduceScatter  N - 1 rounds; in round s rank r passes on block
 *                  r - s - 1, each hop adding its own input (NCCL's
 *                  ring), so block r ends at rank r.
 *   AllGather      N - 1 rounds; block r - s moves on in round s.
 *   AllReduce      both, on N blocks of the buffer: 2(N - 1) rounds.
 *   Broadcast      a chain from the root, pipelined in N chunks:
 *                  2N - 3 rounds of 1/N of the data.
 *   Reduce         the chain the other way, ending at the root.
 * Reduction order: along the ring, each rank's input first (src), then
 * what arrived (seed 000's alpha-beta: (N-1) alpha + D beta per pass).
 */
#include "swai-gen.h"

static uint32_t mod(int a, int n)
{
    return (uint32_t)(((a % n) + n) % n);
}

/* The ring's order: the rank (and the block) at position @p. */
struct order {
    int n, stride;
};

static int at(const struct order *o, int p)
{
    return (int)(((int64_t)mod(p, o->n) * o->stride) % o->n);
}

/* The position of rank @r. */
static int pos(const struct order *o, int r)
{
    for (int p = 0; p < o->n; p++) {
        if (at(o, p) == r) {
            return p;
        }
    }
    return 0;
}

/* Block q of the input reduced around the ring; ends in out[fin]. */
static void ring_rs(struct swai_sched *s, const struct order *o, bool allreduce)
{
    int N = o->n;

    for (int p = 0; p < N; p++) {
        int r = at(o, p), next = at(o, p + 1), prev = at(o, p - 1);

        swai_sched_send(s, r, next, SWAI_BUF_IN, (uint32_t)at(o, p - 1), 1, 0);
        for (int k = 0; k < N - 1; k++) {
            uint32_t b = (uint32_t)at(o, p - k - 2);
            bool last = k == N - 2;

            swai_sched_recv_reduce(s, r, prev, SWAI_BUF_IN, b,
                                   last ? SWAI_BUF_OUT : SWAI_BUF_SCRATCH,
                                   last ? (allreduce ? b : 0) : b, 1,
                                   (uint32_t)k);
            if (!last) {
                swai_sched_send(s, r, next, SWAI_BUF_SCRATCH, b, 1,
                                (uint32_t)k + 1);
            }
        }
    }
    s->scratch_chunks = (uint32_t)N;
}

/* Block r of the output around the ring, from round @base. */
static void ring_ag(struct swai_sched *s, const struct order *o, uint32_t base)
{
    int N = o->n;

    for (int p = 0; p < N; p++) {
        int r = at(o, p), next = at(o, p + 1), prev = at(o, p - 1);

        for (int k = 0; k < N - 1; k++) {
            swai_sched_send(s, r, next, SWAI_BUF_OUT, (uint32_t)at(o, p - k), 1,
                            base + (uint32_t)k);
            swai_sched_recv(s, r, prev, SWAI_BUF_OUT, (uint32_t)at(o, p - k - 1), 1,
                            base + (uint32_t)k);
        }
    }
}

static void ring_bcast(struct swai_sched *s, const struct order *o, int root)
{
    int N = o->n, p0 = pos(o, root);
    uint32_t P = (uint32_t)N;

    for (int d = 0; d < N; d++) {
        int r = at(o, p0 + d);

        if (!d) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, P, 0);
        }
        for (uint32_t j = 0; j < P; j++) {
            if (d) {
                swai_sched_recv(s, r, at(o, p0 + d - 1), SWAI_BUF_OUT, j,
                                1, j + (uint32_t)d - 1);
            }
            if (d < N - 1) {
                swai_sched_send(s, r, at(o, p0 + d + 1), SWAI_BUF_OUT, j,
                                1, j + (uint32_t)d);
            }
        }
    }
}

static void ring_reduce(struct swai_sched *s, const struct order *o, int root)
{
    int N = o->n, p0 = pos(o, root);
    uint32_t P = (uint32_t)N;

    for (int k = 0; k < N; k++) {
        int p = p0 + 1 + k, r = at(o, p);

        for (uint32_t j = 0; j < P; j++) {
            int buf = k == N - 1 ? SWAI_BUF_OUT : SWAI_BUF_SCRATCH;

            if (k) {
                swai_sched_recv_reduce(s, r, at(o, p - 1), SWAI_BUF_IN,
                                       j, buf, j, 1, j + (uint32_t)k - 1);
            }
            if (k < N - 1) {
                swai_sched_send(s, r, at(o, p + 1),
                                k ? SWAI_BUF_SCRATCH : SWAI_BUF_IN, j, 1,
                                j + (uint32_t)k);
            }
        }
    }
    s->scratch_chunks = P;
}

static int build(struct swai_sched *s, enum swai_coll coll, int N,
                 const struct swai_gen_opts *o, char *why, size_t n)
{
    bool wide = coll == SWAI_COLL_ALLGATHER ||
                coll == SWAI_COLL_REDUCESCATTER;
    struct order ord = { N, o->stride ? o->stride : 1 };   /* checked by swai_gen_build */
    int ret;

    (void)why;
    (void)n;
    ret = swai_sched_init(s, "RING", coll, N, o->root, wide ? 1 : (uint32_t)N);
    if (ret) {
        return ret;
    }
    switch (coll) {
    case SWAI_COLL_REDUCESCATTER:
        ring_rs(s, &ord, false);
        break;
    case SWAI_COLL_ALLGATHER:
        for (int r = 0; r < N; r++) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, (uint32_t)r,
                            1, 0);
        }
        ring_ag(s, &ord, 0);
        break;
    case SWAI_COLL_ALLREDUCE:
        ring_rs(s, &ord, true);
        ring_ag(s, &ord, (uint32_t)N - 1);
        break;
    case SWAI_COLL_BROADCAST:
        ring_bcast(s, &ord, o->root);
        break;
    default:
        ring_reduce(s, &ord, o->root);
        break;
    }
    return 0;
}

const struct swai_gen swai_gen_ring = {
    .name = "RING",
    .what = "ring: N-1 rounds per pass, a pipelined chain for the rooted",
    .colls = 1u << SWAI_COLL_ALLREDUCE | 1u << SWAI_COLL_REDUCESCATTER |
             1u << SWAI_COLL_ALLGATHER | 1u << SWAI_COLL_BROADCAST |
             1u << SWAI_COLL_REDUCE,
    .build = build,
};
