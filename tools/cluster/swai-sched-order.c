/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-order.c - the order a rank issues its steps in (swai-sched.h):
 * a topological order of the dependencies that puts every step that
 * cannot block (sends, local copies and reductions) before a receive that
 * waits, keeping sends to one peer, and receives from one peer, in the
 * schedule's order (so the k-th send still meets the k-th receive).
 *
 * A rank whose schedule lists a receive before an independent send thus
 * sends first instead of making its peers wait for its receive: chains of
 * waits across ranks would serialise a round.  libswccl lowers a rank to a
 * program in this order, and the simulator's actors replay it.
 */
#include "swai-sched.h"

static bool is_recv(const struct swai_step *st)
{
    return st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE;
}

/* May step @i of @rk run once the steps marked in @done have? */
static bool ready(const struct swai_sched_rank *rk, int i, const bool *done)
{
    const struct swai_step *st = &rk->steps[i];

    for (uint32_t d = 0; d < st->ndeps; d++) {
        if (!done[rk->deps[st->deps_at + d]]) {
            return false;
        }
    }
    /* Sends to a peer, and receives from it, keep their order. */
    for (int j = 0; j < i; j++) {
        if (!done[j] && rk->steps[j].peer == st->peer && st->peer >= 0 &&
            is_recv(&rk->steps[j]) == is_recv(st) &&
            (rk->steps[j].op == SWAI_STEP_SEND) ==
            (st->op == SWAI_STEP_SEND)) {
            return false;
        }
    }
    return true;
}

void swai_sched_issue_order(const struct swai_sched_rank *rk, int *order,
                            bool *done)
{
    for (int i = 0; i < rk->nsteps; i++) {
        done[i] = false;
    }
    for (int n = 0; n < rk->nsteps; n++) {
        int pick = -1;

        for (int i = 0; i < rk->nsteps && pick < 0; i++) {
            if (!done[i] && !is_recv(&rk->steps[i]) && ready(rk, i, done)) {
                pick = i;
            }
        }
        for (int i = 0; i < rk->nsteps && pick < 0; i++) {
            if (!done[i] && ready(rk, i, done)) {
                pick = i;
            }
        }
        if (pick < 0) {     /* a validated schedule always has one */
            for (pick = 0; done[pick]; pick++) {
            }
        }
        order[n] = pick;
        done[pick] = true;
    }
}
