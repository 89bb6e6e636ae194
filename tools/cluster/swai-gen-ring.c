/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-ring.c - RING: rank r sends to r + 1 and receives from r - 1.
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

/* Block q of the input reduced around the ring; ends in out[fin]. */
static void ring_rs(struct swai_sched *s, int N, bool allreduce)
{
    for (int r = 0; r < N; r++) {
        int next = (int)mod(r + 1, N), prev = (int)mod(r - 1, N);

        swai_sched_send(s, r, next, SWAI_BUF_IN, mod(r - 1, N), 1, 0);
        for (int k = 0; k < N - 1; k++) {
            uint32_t b = mod(r - k - 2, N);
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
static void ring_ag(struct swai_sched *s, int N, uint32_t base)
{
    for (int r = 0; r < N; r++) {
        int next = (int)mod(r + 1, N), prev = (int)mod(r - 1, N);

        for (int k = 0; k < N - 1; k++) {
            swai_sched_send(s, r, next, SWAI_BUF_OUT, mod(r - k, N), 1,
                            base + (uint32_t)k);
            swai_sched_recv(s, r, prev, SWAI_BUF_OUT, mod(r - k - 1, N), 1,
                            base + (uint32_t)k);
        }
    }
}

static void ring_bcast(struct swai_sched *s, int N, int root)
{
    uint32_t P = (uint32_t)N;

    for (int d = 0; d < N; d++) {
        int r = (int)mod(root + d, N);

        if (!d) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, P, 0);
        }
        for (uint32_t j = 0; j < P; j++) {
            if (d) {
                swai_sched_recv(s, r, (int)mod(r - 1, N), SWAI_BUF_OUT, j,
                                1, j + (uint32_t)d - 1);
            }
            if (d < N - 1) {
                swai_sched_send(s, r, (int)mod(r + 1, N), SWAI_BUF_OUT, j,
                                1, j + (uint32_t)d);
            }
        }
    }
}

static void ring_reduce(struct swai_sched *s, int N, int root)
{
    uint32_t P = (uint32_t)N;

    for (int p = 0; p < N; p++) {
        int r = (int)mod(root + 1 + p, N);

        for (uint32_t j = 0; j < P; j++) {
            int buf = p == N - 1 ? SWAI_BUF_OUT : SWAI_BUF_SCRATCH;

            if (p) {
                swai_sched_recv_reduce(s, r, (int)mod(r - 1, N), SWAI_BUF_IN,
                                       j, buf, j, 1, j + (uint32_t)p - 1);
            }
            if (p < N - 1) {
                swai_sched_send(s, r, (int)mod(r + 1, N),
                                p ? SWAI_BUF_SCRATCH : SWAI_BUF_IN, j, 1,
                                j + (uint32_t)p);
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
    int ret = swai_sched_init(s, "RING", coll, N, o->root,
                              wide ? 1 : (uint32_t)N);

    (void)why;
    (void)n;
    if (ret) {
        return ret;
    }
    switch (coll) {
    case SWAI_COLL_REDUCESCATTER:
        ring_rs(s, N, false);
        break;
    case SWAI_COLL_ALLGATHER:
        for (int r = 0; r < N; r++) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, (uint32_t)r,
                            1, 0);
        }
        ring_ag(s, N, 0);
        break;
    case SWAI_COLL_ALLREDUCE:
        ring_rs(s, N, true);
        ring_ag(s, N, (uint32_t)N - 1);
        break;
    case SWAI_COLL_BROADCAST:
        ring_bcast(s, N, o->root);
        break;
    default:
        ring_reduce(s, N, o->root);
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
