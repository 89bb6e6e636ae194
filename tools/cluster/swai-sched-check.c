/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-check.c - run a schedule on fingerprints and check that it
 * computes its collective (swai_sched_verify, swai-sched.h).
 *
 * Every input chunk (rank r, chunk c) gets a random 64-bit weight; a
 * chunk's value is the sum of the weights it holds and how many there
 * are, so a reduction that drops, repeats or mixes up a contribution
 * shows.  Reading a chunk that holds nothing is an error at once: with
 * the latest-ready-first order that is how a missing dependency shows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"
#include "swai-sched.h"

struct val {
    uint64_t sum;
    uint32_t n;                 /* contributions; 0: holds nothing */
};

struct run {
    const struct swai_sched *s;
    struct val *buf[SWAI_BUF_N];    /* [rank * size + chunk] */
    uint32_t size[SWAI_BUF_N];
    unsigned char **done;           /* [rank][step] */
    int **match;                    /* receive -> its send's step index */
    struct val ***msg;              /* [rank][step]: a SEND's message */
    bool latest;
};

static uint64_t weight(int rank, uint32_t chunk)
{
    uint64_t x = ((uint64_t)rank << 32 | chunk) ^ 0x5357414943434cull;

    return splitmix64(&x) | 1;
}

static struct val *at(struct run *x, int rank, int buf, uint32_t off)
{
    return &x->buf[buf][(size_t)rank * x->size[buf] + off];
}

static bool ready(struct run *x, int rank, int i)
{
    const struct swai_sched_rank *r = &x->s->ranks[rank];
    const struct swai_step *st = &r->steps[i];

    for (uint32_t d = 0; d < st->ndeps; d++) {
        if (!x->done[rank][r->deps[st->deps_at + d]]) {
            return false;
        }
    }
    if (st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE) {
        return x->done[st->peer][x->match[rank][i]];
    }
    return true;
}

static int use(const struct val *v, int rank, int i, int buf, uint32_t c,
               char *why, size_t n)
{
    static const char *const names[] = { "in", "out", "scratch" };

    if (v->n) {
        return 0;
    }
    snprintf(why, n, "rank %d step %d reads %s[%u], which holds nothing yet "
             "(a missing dependency or a wrong offset)", rank, i, names[buf],
             c);
    return -1;
}

static int exec(struct run *x, int rank, int i, char *why, size_t n)
{
    const struct swai_step *st = &x->s->ranks[rank].steps[i];
    const struct val *m = NULL;
    struct val *tmp;

    if (st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE) {
        m = x->msg[st->peer][x->match[rank][i]];
    }
    tmp = malloc(st->count * sizeof(*tmp));
    if (!tmp) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    for (uint32_t c = 0; c < st->count; c++) {
        struct val v = { 0 };

        if (st->op != SWAI_STEP_RECV) {
            v = *at(x, rank, st->src_buf, st->src_off + c);
            if (use(&v, rank, i, st->src_buf, st->src_off + c, why, n)) {
                free(tmp);
                return -1;
            }
        }
        if (m) {
            v.sum += m[c].sum;
            v.n += m[c].n;
        }
        if (st->op == SWAI_STEP_REDUCE) {
            const struct val *d = at(x, rank, st->dst_buf, st->dst_off + c);

            if (use(d, rank, i, st->dst_buf, st->dst_off + c, why, n)) {
                free(tmp);
                return -1;
            }
            v.sum += d->sum;
            v.n += d->n;
        }
        tmp[c] = v;
    }
    if (st->op == SWAI_STEP_SEND) {
        x->msg[rank][i] = tmp;
    } else {
        for (uint32_t c = 0; c < st->count; c++) {
            *at(x, rank, st->dst_buf, st->dst_off + c) = tmp[c];
        }
        free(tmp);
    }
    x->done[rank][i] = 1;
    return 0;
}

/* One step of @rank that can run now, in the run's order, or -1. */
static int pick(struct run *x, int rank)
{
    const struct swai_sched_rank *r = &x->s->ranks[rank];

    for (int k = 0; k < r->nsteps; k++) {
        int i = x->latest ? r->nsteps - 1 - k : k;

        if (!x->done[rank][i] && ready(x, rank, i)) {
            return i;
        }
    }
    return -1;
}

static int run_all(struct run *x, char *why, size_t n)
{
    const struct swai_sched *s = x->s;
    bool progress = true;

    while (progress) {
        progress = false;
        for (int r = 0; r < s->nranks; r++) {
            int i = pick(x, r);

            if (i >= 0) {
                if (exec(x, r, i, why, n)) {
                    return -1;
                }
                progress = true;
            }
        }
    }
    for (int r = 0; r < s->nranks; r++) {
        for (int i = 0; i < s->ranks[r].nsteps; i++) {
            if (!x->done[r][i]) {
                snprintf(why, n, "deadlock: rank %d step %d (%s, peer %d, "
                         "round %u) can never run", r, i,
                         swai_step_op_name(s->ranks[r].steps[i].op),
                         s->ranks[r].steps[i].peer,
                         s->ranks[r].steps[i].round);
                return -1;
            }
        }
    }
    return 0;
}

/* What out[c] of @rank must hold. */
static struct val expect(const struct swai_sched *s, int rank, uint32_t c)
{
    uint32_t C = s->chunks, N = (uint32_t)s->nranks;
    struct val v = { 0 };

    switch (s->coll) {
    case SWAI_COLL_ALLREDUCE:
    case SWAI_COLL_REDUCE:
        for (int q = 0; q < s->nranks; q++) {
            v.sum += weight(q, c);
        }
        v.n = N;
        break;
    case SWAI_COLL_REDUCESCATTER:
        for (int q = 0; q < s->nranks; q++) {
            v.sum += weight(q, (uint32_t)rank * C + c);
        }
        v.n = N;
        break;
    case SWAI_COLL_ALLGATHER:
        v = (struct val){ weight((int)(c / C), c % C), 1 };
        break;
    case SWAI_COLL_BROADCAST:
        v = (struct val){ weight(s->root, c), 1 };
        break;
    case SWAI_COLL_ALLTOALL:
        v = (struct val){ weight((int)(c / C), (uint32_t)rank * C + c % C),
                          1 };
        break;
    default:
        break;
    }
    return v;
}

static int check_result(struct run *x, char *why, size_t n)
{
    const struct swai_sched *s = x->s;

    for (int r = 0; r < s->nranks; r++) {
        if (s->coll == SWAI_COLL_REDUCE && r != s->root) {
            continue;
        }
        for (uint32_t c = 0; c < s->out_chunks; c++) {
            struct val want = expect(s, r, c), got = *at(x, r, SWAI_BUF_OUT,
                                                         c);

            if (got.sum != want.sum || got.n != want.n) {
                snprintf(why, n, "rank %d out[%u] holds %u contributions, "
                         "%s; expected %u, %s", r, c, got.n,
                         got.n == want.n ? "other ones" : "wrongly",
                         want.n, "each input once");
                return -1;
            }
        }
    }
    return 0;
}

static void run_free(struct run *x)
{
    for (int b = 0; b < SWAI_BUF_N; b++) {
        free(x->buf[b]);
    }
    for (int r = 0; r < x->s->nranks; r++) {
        for (int i = 0; x->msg && x->msg[r] && i < x->s->ranks[r].nsteps;
             i++) {
            free(x->msg[r][i]);
        }
        if (x->msg) {
            free(x->msg[r]);
        }
        if (x->done) {
            free(x->done[r]);
        }
    }
    swai_sched_match_free(x->s, x->match);
    free(x->msg);
    free(x->done);
}

static int run_init(struct run *x, const struct swai_sched *s, bool latest,
                    char *why, size_t n)
{
    size_t N = (size_t)s->nranks;

    memset(x, 0, sizeof(*x));
    x->s = s;
    x->latest = latest;
    x->msg = calloc(N, sizeof(*x->msg));
    x->done = calloc(N, sizeof(*x->done));
    if (!x->msg || !x->done) {
        return -1;
    }
    for (int b = 0; b < SWAI_BUF_N; b++) {
        x->size[b] = swai_sched_buf_chunks(s, b);
        x->buf[b] = calloc(N * x->size[b] + 1, sizeof(struct val));
        if (!x->buf[b]) {
            return -1;
        }
    }
    for (int r = 0; r < s->nranks; r++) {
        size_t ns = (size_t)s->ranks[r].nsteps + 1;

        x->msg[r] = calloc(ns, sizeof(*x->msg[r]));
        x->done[r] = calloc(ns, 1);
        if (!x->msg[r] || !x->done[r]) {
            return -1;
        }
        for (uint32_t c = 0; c < s->in_chunks; c++) {
            *at(x, r, SWAI_BUF_IN, c) = (struct val){ weight(r, c), 1 };
        }
    }
    return swai_sched_match(s, &x->match, why, n);
}

int swai_sched_verify(const struct swai_sched *s, char *why, size_t n)
{
    if (swai_sched_validate(s, why, n)) {
        return -EINVAL;
    }
    for (int order = 0; order < 2; order++) {
        struct run x;
        char inner[200];
        int ret;

        ret = run_init(&x, s, order, inner, sizeof(inner));
        if (ret) {
            if (ret != -EINVAL) {
                snprintf(inner, sizeof(inner), "out of memory");
            }
        } else {
            ret = run_all(&x, inner, sizeof(inner));
        }
        if (!ret) {
            ret = check_result(&x, inner, sizeof(inner));
        }
        run_free(&x);
        if (ret) {
            snprintf(why, n, "%s %s on %d ranks, %s order: %s", s->name,
                     swai_coll_name(s->coll), s->nranks,
                     order ? "latest-first" : "earliest-first", inner);
            return -EINVAL;
        }
    }
    return 0;
}
