/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-direct.c - which receives a sender may write straight into
 * their destination (swai-sched.h, swai_sched_direct): libswccl's lowering
 * skips their copy out of the landing slot (collectives/swccl_lower.c), and
 * swccl-sim --card charges them so (swai-sched-card.c).
 */
#include <stdlib.h>

#include "swai-sched.h"

/* Do a step's ranges of one buffer share a chunk with [off, off + n)? */
static bool touches(const struct swai_step *a, int buf, uint32_t off, uint32_t n)
{
    bool rd = a->op == SWAI_STEP_SEND || a->op == SWAI_STEP_COPY ||
              a->op == SWAI_STEP_REDUCE || a->op == SWAI_STEP_RECV_REDUCE;
    bool wr = a->op != SWAI_STEP_SEND;

    return (rd && a->src_buf == buf && a->src_off < off + n && off < a->src_off + a->count) ||
           (wr && a->dst_buf == buf && a->dst_off < off + n && off < a->dst_off + a->count);
}

/*
 * Mark in @seen (indexed at @at[rank] + step) every step that happens
 * before step @i of rank @a starts: its dependencies, and for a receive
 * the send it takes, transitively.  Each rank runs its steps in an order
 * of their dependencies, and a message's SIGNAL waits for everything its
 * sender issued before it (datasheet §13.8), so such a step is over by then.
 */
static void mark_before(const struct swai_sched *s, int **match, const int *at, bool *seen,
                        int a, int i)
{
    const struct swai_sched_rank *rk = &s->ranks[a];
    const struct swai_step *st = &rk->steps[i];

    for (uint32_t d = 0; d < st->ndeps; d++) {
        int k = (int)rk->deps[st->deps_at + d];

        if (!seen[at[a] + k]) {
            seen[at[a] + k] = true;
            mark_before(s, match, at, seen, a, k);
        }
    }
    if ((st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE) &&
        !seen[at[st->peer] + match[a][i]]) {
        seen[at[st->peer] + match[a][i]] = true;
        mark_before(s, match, at, seen, st->peer, match[a][i]);
    }
}

bool swai_sched_direct(const struct swai_sched *s, int **match, int b, int j)
{
    const struct swai_sched_rank *rk = &s->ranks[b];
    const struct swai_step *st = &rk->steps[j];
    int *at = NULL;
    bool *seen = NULL, ok = true;

    if (st->op != SWAI_STEP_RECV) {
        return false;
    }
    for (int k = 0; k < j && ok; k++) {
        if (!touches(&rk->steps[k], st->dst_buf, st->dst_off, st->count)) {
            continue;
        }
        if (!seen) {
            at = calloc((size_t)s->nranks + 1, sizeof(*at));
            for (int q = 0; at && q < s->nranks; q++) {
                at[q + 1] = at[q] + s->ranks[q].nsteps;
            }
            seen = at ? calloc((size_t)at[s->nranks] + 1, sizeof(*seen)) : NULL;
            if (!seen) {
                free(at);
                return false;   /* out of memory: the copy is always right */
            }
            mark_before(s, match, at, seen, st->peer, match[b][j]);
        }
        ok = seen[at[b] + k];
    }
    free(seen);
    free(at);
    return ok;
}
