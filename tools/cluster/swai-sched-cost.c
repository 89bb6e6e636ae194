/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-cost.c - a schedule's time on a topology (swai-sched-cost.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-links.h"
#include "swai-sched-cost.h"

struct sim {
    const struct swai_sched *s;
    const struct swai_topo *t;
    struct swai_timing_props p;
    uint64_t bytes;
    const int *card;            /* rank -> card */
    struct swai_topo_route *route;  /* [a * N + b], computed when used */
    struct swai_links links;
    uint64_t **done;            /* [rank][step]: end time, if fin */
    unsigned char **fin;        /* [rank][step]: has run */
    uint64_t **arrive;          /* [rank][send step]: data at the peer */
    int **match;                /* [rank][receive]: the send's index */
    int *next;                  /* [rank]: first step not done */
    struct swai_sched_cost_out out;
};

uint64_t swai_sched_range_bytes(const struct swai_sched *s, uint64_t bytes,
                                uint32_t off, uint32_t count)
{
    uint64_t C = s->chunks, sum = 0;

    for (uint32_t c = off; c < off + count; c++) {
        uint64_t k = c % C;

        sum += bytes * (k + 1) / C - bytes * k / C;
    }
    return sum;
}

static uint64_t range_bytes(const struct sim *x, uint32_t off, uint32_t count)
{
    return swai_sched_range_bytes(x->s, x->bytes, off, count);
}

uint64_t swai_sched_local_ps(const struct swai_sched *s, const struct swai_step *st,
                             uint64_t bytes, int cgs,
                             const struct swai_timing_props *p)
{
    uint64_t b = swai_sched_range_bytes(s, bytes, st->op == SWAI_STEP_RECV ?
                                        st->dst_off : st->src_off, st->count);
    uint64_t mbps = (uint64_t)p->local_mbps * (uint64_t)cgs;
    uint64_t moved = st->op == SWAI_STEP_RECV ? 0 :
                     st->op == SWAI_STEP_COPY ? 2 * b : 3 * b;
    uint64_t t = swai_timing_ns_to_ps(p->t_dma_ns);

    if (st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE) {
        t += swai_timing_ns_to_ps(p->t_barrier_ns);
    }
    if (mbps > UINT32_MAX) {
        mbps = UINT32_MAX;
    }
    return t + swai_timing_ps(moved, (uint32_t)mbps);
}

static int route(struct sim *x, int a, int b, struct swai_topo_route **r,
                 char *why, size_t n)
{
    struct swai_topo_route *slot = &x->route[(size_t)a * x->s->nranks + b];

    if (!slot->hops) {
        int ret = swai_topo_route(x->t, x->card[a], x->card[b], slot, why, n);

        if (ret) {
            return ret;
        }
    }
    *r = slot;
    return 0;
}

/* Whether step i of rank r can start, and when (*t). */
static bool ready_at(const struct sim *x, int r, int i, uint64_t *t)
{
    const struct swai_sched_rank *rk = &x->s->ranks[r];
    const struct swai_step *st = &rk->steps[i];

    *t = 0;
    for (uint32_t d = 0; d < st->ndeps; d++) {
        uint32_t on = rk->deps[st->deps_at + d];

        if (!x->fin[r][on]) {
            return false;
        }
        *t = x->done[r][on] > *t ? x->done[r][on] : *t;
    }
    if (st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE) {
        int m = x->match[r][i];

        if (!x->fin[st->peer][m]) {
            return false;
        }
        *t = x->arrive[st->peer][m] > *t ? x->arrive[st->peer][m] : *t;
    }
    return true;
}

static int book_send(struct sim *x, int r, int i, uint64_t start, char *why,
                     size_t n)
{
    const struct swai_step *st = &x->s->ranks[r].steps[i];
    uint64_t bytes = range_bytes(x, st->src_off, st->count), t0, t1;
    struct swai_topo_route *rt;
    int ret;

    if (x->card[r] == x->card[st->peer]) {
        /* Two core groups of one card: over its ring bus, not the fabric. */
        t1 = start + swai_timing_ps(bytes, x->p.ring_mbps);
        x->done[r][i] = x->arrive[r][i] = t1;
        x->fin[r][i] = 1;
        return 0;
    }
    ret = route(x, r, st->peer, &rt, why, n);
    if (!ret) {
        ret = swai_links_book(&x->links, rt, start, bytes, &t0, &t1);
    }
    if (ret) {
        if (ret == -ENOMEM) {
            snprintf(why, n, "out of memory");
        }
        return ret;
    }
    x->out.link_bytes += bytes * (uint64_t)rt->nhops;
    x->done[r][i] = t1;
    x->fin[r][i] = 1;
    x->arrive[r][i] = t1 + swai_timing_ns_to_ps(rt->latency_ns);
    return 0;
}

/* A local step (or a receive's end) from when it is ready. */
static void run_local(struct sim *x, int r, int i, uint64_t ready)
{
    const struct swai_topo_dev *dev = &x->t->devs[x->t->card_dev[x->card[r]]];

    x->done[r][i] = ready + swai_sched_local_ps(x->s, &x->s->ranks[r].steps[i],
                                                x->bytes, dev->cgs, &x->p);
    x->fin[r][i] = 1;
}

/* A send starts one DMA command after it is ready. */
static uint64_t issued(const struct sim *x, uint64_t ready)
{
    return ready + swai_timing_ns_to_ps(x->p.t_dma_ns);
}

static int step_all(struct sim *x, char *why, size_t n)
{
    const struct swai_sched *s = x->s;

    for (;;) {
        int br = -1, bi = -1;
        uint64_t bt = UINT64_MAX;
        bool any = false, progress = false;

        for (int r = 0; r < s->nranks; r++) {
            const struct swai_sched_rank *rk = &s->ranks[r];

            while (x->next[r] < rk->nsteps && x->fin[r][x->next[r]]) {
                x->next[r]++;
            }
            for (int i = x->next[r]; i < rk->nsteps; i++) {
                uint64_t t;

                if (x->fin[r][i]) {
                    continue;
                }
                any = true;
                if (!ready_at(x, r, i, &t)) {
                    continue;
                }
                if (rk->steps[i].op != SWAI_STEP_SEND) {
                    run_local(x, r, i, t);
                    progress = true;
                } else if (t < bt) {
                    bt = t;
                    br = r;
                    bi = i;
                }
            }
        }
        if (!any) {
            return 0;
        }
        if (br >= 0 && !progress) {
            int ret = book_send(x, br, bi, issued(x, bt), why, n);

            if (ret) {
                return ret;
            }
            progress = true;
        }
        if (!progress) {
            snprintf(why, n, "the schedule deadlocks (swai_sched_verify says "
                     "where)");
            return -EINVAL;
        }
    }
}

static void sim_free(struct sim *x)
{
    size_t N = (size_t)x->s->nranks;

    for (size_t i = 0; x->route && i < N * N; i++) {
        swai_topo_route_free(&x->route[i]);
    }
    swai_links_free(&x->links);
    for (size_t r = 0; r < N; r++) {
        if (x->done) {
            free(x->done[r]);
        }
        if (x->fin) {
            free(x->fin[r]);
        }
        if (x->arrive) {
            free(x->arrive[r]);
        }
    }
    free(x->route);
    free(x->done);
    free(x->fin);
    free(x->arrive);
    swai_sched_match_free(x->s, x->match);
    free(x->next);
}

static int sim_init(struct sim *x)
{
    size_t N = (size_t)x->s->nranks;

    if (swai_links_init(&x->links, x->t)) {
        return -ENOMEM;
    }
    x->route = calloc(N * N, sizeof(*x->route));
    x->done = calloc(N, sizeof(*x->done));
    x->fin = calloc(N, sizeof(*x->fin));
    x->arrive = calloc(N, sizeof(*x->arrive));
    x->next = calloc(N, sizeof(*x->next));
    if (!x->route || !x->done || !x->fin || !x->arrive || !x->next) {
        return -ENOMEM;
    }
    for (size_t r = 0; r < N; r++) {
        size_t ns = (size_t)x->s->ranks[r].nsteps + 1;

        x->done[r] = calloc(ns, sizeof(uint64_t));
        x->fin[r] = calloc(ns, 1);
        x->arrive[r] = calloc(ns, sizeof(uint64_t));
        if (!x->done[r] || !x->fin[r] || !x->arrive[r]) {
            return -ENOMEM;
        }
    }
    return 0;
}

int swai_sched_cost(const struct swai_sched *s, const struct swai_topo *t,
                    const struct swai_sched_cost_in *in,
                    struct swai_sched_cost_out *out, char *why, size_t n)
{
    struct sim x = { .s = s, .t = t, .bytes = in->bytes };
    int *ident = NULL, ret;
    uint64_t end = 0;

    memset(out, 0, sizeof(*out));
    if (swai_sched_validate(s, why, n)) {
        return -EINVAL;
    }
    if (in->card) {
        x.p = *in->card;
    } else {
        swai_timing_props_init(&x.p);
    }
    x.card = in->rank_card;
    if (!x.card) {
        if (s->nranks > t->ncards) {
            snprintf(why, n, "%d ranks on a topology of %d cards", s->nranks,
                     t->ncards);
            return -EINVAL;
        }
        ident = malloc((size_t)s->nranks * sizeof(*ident));
        if (!ident) {
            snprintf(why, n, "out of memory");
            return -ENOMEM;
        }
        for (int r = 0; r < s->nranks; r++) {
            ident[r] = r;
        }
        x.card = ident;
    }
    for (int r = 0; r < s->nranks; r++) {
        if (x.card[r] < 0 || x.card[r] >= t->ncards) {
            snprintf(why, n, "rank %d on card %d, not one of the %d cards", r,
                     x.card[r], t->ncards);
            free(ident);
            return -EINVAL;
        }
    }
    ret = sim_init(&x);
    if (ret) {
        snprintf(why, n, "out of memory");
    } else {
        ret = swai_sched_match(s, &x.match, why, n);
    }
    if (!ret) {
        ret = step_all(&x, why, n);
    }
    for (int r = 0; !ret && r < s->nranks; r++) {
        for (int i = 0; i < s->ranks[r].nsteps; i++) {
            end = x.done[r][i] > end ? x.done[r][i] : end;
        }
    }
    x.out.ps = end;
    if (!ret) {
        x.out.busiest_bytes = swai_links_busiest(&x.links);
    }
    *out = x.out;
    sim_free(&x);
    free(ident);
    return ret;
}
