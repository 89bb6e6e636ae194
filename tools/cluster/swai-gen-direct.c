/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-direct.c - DIRECT: AllToAll as a pairwise exchange.  In round k
 * (1 .. N - 1) rank r sends its block for r + k straight to r + k and
 * receives from r - k its block for r; its own block is a copy.  Every
 * pair exchanges one message each way, N (N - 1) messages in all, and in
 * every round each rank sends one and receives one, so no rank's link is
 * asked for twice at once (MPI's and NCCL's pairwise all-to-all).
 */
#include <errno.h>

#include "swai-gen.h"

static int build(struct swai_sched *s, enum swai_coll coll, int N,
                 const struct swai_gen_opts *o, char *why, size_t n)
{
    (void)o;
    (void)why;
    (void)n;
    if (swai_sched_init(s, "DIRECT", coll, N, 0, 1)) {
        return -ENOMEM;
    }
    for (int r = 0; r < N; r++) {
        swai_sched_copy(s, r, SWAI_BUF_IN, (uint32_t)r, SWAI_BUF_OUT,
                        (uint32_t)r, 1, 0);
        for (int k = 1; k < N; k++) {
            int to = (r + k) % N, from = (r - k + N) % N;

            swai_sched_send(s, r, to, SWAI_BUF_IN, (uint32_t)to, 1,
                            (uint32_t)k - 1);
            swai_sched_recv(s, r, from, SWAI_BUF_OUT, (uint32_t)from, 1,
                            (uint32_t)k - 1);
        }
    }
    return 0;
}

const struct swai_gen swai_gen_direct = {
    .name = "DIRECT",
    .what = "all-to-all as a pairwise exchange: round k sends to r + k",
    .colls = 1u << SWAI_COLL_ALLTOALL,
    .build = build,
};
