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
 *
 * Kahn's algorithm with two min-heaps of step indices (ready non-receives,
 * ready receives): at each pick the lowest-indexed ready step that cannot
 * block, else the lowest-indexed ready receive.  O(n log n), so a ring's
 * 2046 steps on each of a thousand ranks order in milliseconds.
 *
 * swai_sched_pin_order undoes that for a schedule whose listed order is
 * already the one it was timed in (swccl-synth --card's plans).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-sched.h"

static bool is_recv(const struct swai_step *st)
{
    return st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE;
}

/* The kind of step whose order towards one peer is kept. */
static int kind(const struct swai_step *st)
{
    return st->op == SWAI_STEP_SEND ? 0 : is_recv(st) ? 1 : -1;
}

struct heap {
    int *v, n;
};

static void heap_push(struct heap *h, int x)
{
    int i = h->n++;

    while (i && h->v[(i - 1) / 2] > x) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static int heap_pop(struct heap *h)
{
    int top = h->v[0], x = h->v[--h->n], i = 0;

    for (;;) {
        int c = 2 * i + 1;

        if (c >= h->n) {
            break;
        }
        if (c + 1 < h->n && h->v[c + 1] < h->v[c]) {
            c++;
        }
        if (h->v[c] >= x) {
            break;
        }
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n) {
        h->v[i] = x;
    }
    return top;
}

int swai_sched_issue_order(const struct swai_sched_rank *rk, int *order)
{
    size_t n = (size_t)rk->nsteps;
    int npeers = 0, ret = 0;

    for (size_t i = 0; i < n; i++) {
        npeers = rk->steps[i].peer >= npeers ? rk->steps[i].peer + 1 : npeers;
    }

    /*
     * waiting[i]: how many steps i still waits for (its dependencies, and
     * the step before it of its kind to the same peer, after[] of that
     * one); succ[succ_at[i] ..]: the steps that depend on step i.
     */
    int *waiting = calloc(n + 1, sizeof(int)), *after = malloc((n + 1) * sizeof(int));
    int *succ_at = calloc(n + 2, sizeof(int)), *succ = malloc((rk->ndeps + 1) * sizeof(int));
    int *fill = calloc(n + 1, sizeof(int));
    int *last = malloc(2 * ((size_t)npeers + 1) * sizeof(int));
    struct heap h[2] = { { malloc((n + 1) * sizeof(int)), 0 },
                         { malloc((n + 1) * sizeof(int)), 0 } };

    if (!waiting || !after || !succ_at || !succ || !fill || !last || !h[0].v || !h[1].v) {
        ret = -ENOMEM;
        goto out;
    }
    for (int p = 0; p < 2 * (npeers + 1); p++) {
        last[p] = -1;
    }
    for (size_t i = 0; i < n; i++) {
        const struct swai_step *st = &rk->steps[i];
        int k = kind(st);

        after[i] = -1;
        waiting[i] = (int)st->ndeps;
        for (uint32_t d = 0; d < st->ndeps; d++) {
            succ_at[rk->deps[st->deps_at + d] + 1]++;
        }
        if (k >= 0 && st->peer >= 0) {
            int *l = &last[2 * st->peer + k];

            if (*l >= 0) {
                after[*l] = (int)i;
                waiting[i]++;
            }
            *l = (int)i;
        }
    }
    for (size_t i = 0; i < n; i++) {
        succ_at[i + 1] += succ_at[i];
    }
    for (size_t i = 0; i < n; i++) {
        const struct swai_step *st = &rk->steps[i];

        for (uint32_t d = 0; d < st->ndeps; d++) {
            int on = (int)rk->deps[st->deps_at + d];

            succ[succ_at[on] + fill[on]++] = (int)i;
        }
        if (!waiting[i]) {
            heap_push(&h[is_recv(st)], (int)i);
        }
    }
    for (size_t k = 0; k < n; k++) {
        int pick;

        if (!h[0].n && !h[1].n) {
            ret = -EINVAL;  /* a cycle: swai_sched_validate refuses those */
            goto out;
        }
        pick = heap_pop(&h[h[0].n ? 0 : 1]);
        order[k] = pick;
        for (int s = succ_at[pick]; s < succ_at[pick + 1]; s++) {
            if (!--waiting[succ[s]]) {
                heap_push(&h[is_recv(&rk->steps[succ[s]])], succ[s]);
            }
        }
        if (after[pick] >= 0 && !--waiting[after[pick]]) {
            heap_push(&h[is_recv(&rk->steps[after[pick]])], after[pick]);
        }
    }
out:
    free(waiting);
    free(after);
    free(succ_at);
    free(succ);
    free(fill);
    free(last);
    free(h[0].v);
    free(h[1].v);
    return ret;
}

int swai_sched_pin_order(struct swai_sched *s)
{
    for (int r = 0; r < s->nranks && !s->err; r++) {
        struct swai_sched_rank *rk = &s->ranks[r];
        uint32_t *deps = malloc(((size_t)rk->ndeps + 1) * sizeof(*deps));
        struct swai_step *old = malloc(((size_t)rk->nsteps + 1) * sizeof(*old));
        int last = -1;

        if (!deps || !old) {
            free(deps);
            free(old);
            s->err = -ENOMEM;
            break;
        }
        if (rk->ndeps) {
            memcpy(deps, rk->deps, (size_t)rk->ndeps * sizeof(*deps));
        }
        if (rk->nsteps) {
            memcpy(old, rk->steps, (size_t)rk->nsteps * sizeof(*old));
        }
        /* swai_sched_dep builds one step's list at a time: all again, in order */
        rk->ndeps = 0;
        for (int i = 0; i < rk->nsteps; i++) {
            rk->steps[i].ndeps = 0;
            rk->steps[i].deps_at = 0;
        }
        for (int i = 0; i < rk->nsteps; i++) {
            bool recv = is_recv(&old[i]);

            for (uint32_t d = 0; d < old[i].ndeps; d++) {
                swai_sched_dep(s, r, i, (int)deps[old[i].deps_at + d]);
            }
            if (!recv && last >= 0) {
                swai_sched_dep(s, r, i, last);
            }
            last = recv ? i : last;
        }
        free(deps);
        free(old);
    }
    return s->err;
}
