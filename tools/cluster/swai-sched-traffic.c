/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-traffic.c - what a schedule sends between nodes: the
 * messages whose two ranks are on different nodes, and their chunks.
 * Seed 002's measure of an all-to-all (m^2 n (n - 1) messages direct,
 * m n (n - 1) plane-hierarchical); swccl-bench's and swccl-sim's
 * internode_msgs and internode_bytes.
 */
#include "swai-sched.h"

void swai_sched_internode(const struct swai_sched *s, const int *node_of,
                          uint64_t *msgs, uint64_t *chunks)
{
    *msgs = 0;
    *chunks = 0;
    for (int r = 0; r < s->nranks; r++) {
        const struct swai_sched_rank *rk = &s->ranks[r];

        for (int i = 0; i < rk->nsteps; i++) {
            const struct swai_step *st = &rk->steps[i];

            if (st->op == SWAI_STEP_SEND && node_of[st->peer] != node_of[r]) {
                (*msgs)++;
                *chunks += st->count;
            }
        }
    }
}
