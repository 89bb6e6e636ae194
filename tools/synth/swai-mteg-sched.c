/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-sched.c - planned trees as the project's schedule (swai-mteg.h):
 * every hop a send and a receive, each rank's steps in slot order, the
 * dependencies from the data (swai_sched_autodeps).
 *
 * Broadcast trees (AllGather, Broadcast, AllReduce's second half) move a
 * chunk forward in OUT.  AllToAll's paths move a chunk from IN to OUT
 * through SCRATCH at the cards that relay it.  Reduction trees are
 * broadcast trees planned on the transposed MTEG (SWAI_MTEG_TRANSPOSE)
 * read backwards in time: the hop u -> v leaving at t becomes v sending u
 * its partial sum at T - t - L, which u adds in at T - t.  A card adds its
 * children in the order they arrive (then by card), its own contribution
 * first, so the sum's order is the schedule's and results are
 * reproducible.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"

/* One step of a rank, at a slot. */
struct event {
    int slot;
    int op;                     /* enum swai_step_op: SEND, RECV, RECV_REDUCE */
    int peer;
    int src_buf, dst_buf;
    uint32_t src_off, dst_off;
};

struct events {
    struct event **ev;          /* [rank] */
    int *nev, *cap;
    int err;
};

static void push(struct events *b, int r, const struct event *x)
{
    if (b->err) {
        return;
    }
    if (b->nev[r] == b->cap[r]) {
        int cap = b->cap[r] ? 2 * b->cap[r] : 64;
        struct event *ev = realloc(b->ev[r], (size_t)cap * sizeof(*ev));

        if (!ev) {
            b->err = -ENOMEM;
            return;
        }
        b->ev[r] = ev;
        b->cap[r] = cap;
    }
    b->ev[r][b->nev[r]++] = *x;
}

static int cmp_event(const void *a, const void *b)
{
    const struct event *x = a, *y = b;

    if (x->slot != y->slot) {
        return x->slot < y->slot ? -1 : 1;
    }
    if ((x->op == SWAI_STEP_SEND) != (y->op == SWAI_STEP_SEND)) {
        return x->op == SWAI_STEP_SEND ? 1 : -1;    /* what arrives at t may leave at t */
    }
    if (x->peer != y->peer) {
        return x->peer < y->peer ? -1 : 1;
    }
    if (x->dst_off != y->dst_off) {
        return x->dst_off < y->dst_off ? -1 : 1;
    }
    return x->src_off < y->src_off ? -1 : x->src_off > y->src_off;
}

/* Trees to read, in swai_mteg_plan's layout: a plan's, or the MILP's on a plan's MTEG. */
struct trees {
    const struct swai_mteg *m;
    const struct swai_mteg_hop *hops;
    const int *nhops;
    int ntrees;
    size_t room;                /* hops a tree, swai_mteg_room */
    const int *wait;            /* swai_mteg_plan's, or NULL */
};

static struct trees of_plan(const struct swai_mteg_plan *p)
{
    return (struct trees){ &p->m, p->hops, p->nhops, p->ntrees, p->room, p->wait };
}

static const struct swai_mteg_hop *tree_hops(const struct trees *p, size_t tree)
{
    return &p->hops[tree * p->room];
}

/* Tree @tree's hops forward from @slot0: chunk @off of OUT, sent and received. */
static void forward(struct events *b, const struct trees *p, size_t tree,
                    uint32_t off, int slot0)
{
    const struct swai_mteg_hop *h = tree_hops(p, tree);

    for (int k = 0; k < p->nhops[tree]; k++) {
        const struct swai_mteg_edge *e = &p->m->e[h[k].e];

        push(b, e->u, &(struct event){ slot0 + h[k].t, SWAI_STEP_SEND, e->v, SWAI_BUF_OUT, 0,
                                       off, 0 });
        push(b, e->v, &(struct event){ slot0 + h[k].t + e->L, SWAI_STEP_RECV, e->u, 0,
                                       SWAI_BUF_OUT, 0, off });
    }
}

/*
 * AllToAll's demand @tree, a path: from IN at its source, through a fresh
 * SCRATCH chunk at every card it passes (*relayed[card] so far), into OUT
 * at its destination.
 */
static void unicast(struct events *b, const struct trees *p, size_t tree, uint32_t chunks,
                    uint32_t *relayed)
{
    const struct swai_mteg_hop *h = tree_hops(p, tree);
    int src, dst, buf = SWAI_BUF_IN;
    uint32_t c = (uint32_t)(tree % chunks), off;

    swai_mteg_demand(p->m->ncards, chunks, tree, &src, &dst);
    off = (uint32_t)dst * chunks + c;
    for (int k = 0; k < p->nhops[tree]; k++) {
        const struct swai_mteg_edge *e = &p->m->e[h[k].e];
        bool last = k == p->nhops[tree] - 1;
        int to = last ? SWAI_BUF_OUT : SWAI_BUF_SCRATCH;
        uint32_t at = last ? (uint32_t)src * chunks + c : relayed[e->v]++;

        push(b, e->u, &(struct event){ h[k].t, SWAI_STEP_SEND, e->v, buf, 0, off, 0 });
        push(b, e->v, &(struct event){ h[k].t + e->L, SWAI_STEP_RECV, e->u, 0, to, 0, at });
        buf = to;
        off = at;
    }
}

/* Where a card's partial sum of a block chunk is made, and what it starts from. */
struct place {
    int buf;
    uint32_t off;
};

/* A hop of a reduction tree, and how long its sum waits landed (swai_mteg_fold_time). */
struct arrival {
    struct swai_mteg_hop h;
    int wait;
};

static int by_arrival(const void *a, const void *b)
{
    const struct swai_mteg_hop *x = &((const struct arrival *)a)->h;
    const struct swai_mteg_hop *y = &((const struct arrival *)b)->h;

    /* reversed, the later departure arrives first */
    return x->t != y->t ? (x->t > y->t ? -1 : 1) : (x->e > y->e) - (x->e < y->e);
}

/*
 * The hops of a tree that bring each card the chunk first, into @out: the
 * seed's TM tree can bring a card a chunk twice (a later path through it),
 * or back to its source, harmless forward, counted twice backwards.
 * @first: room for a card each.
 */
static int first_arrivals(const struct swai_mteg *m, int root, const struct swai_mteg_hop *h,
                          const int *wait, int n, struct arrival *out, int *first)
{
    int kept = 0;

    for (int v = 0; v < m->ncards; v++) {
        first[v] = -1;
    }
    for (int k = 0; k < n; k++) {
        int v = m->e[h[k].e].v;

        if (first[v] < 0 || h[k].t + m->e[h[k].e].L < h[first[v]].t + m->e[h[first[v]].e].L) {
            first[v] = k;
        }
    }
    for (int k = 0; k < n; k++) {
        /* the root holds it from the start: nothing into it counts */
        if (first[m->e[h[k].e].v] == k && m->e[h[k].e].v != root) {
            out[kept++] = (struct arrival){ h[k], wait ? wait[k] : 0 };
        }
    }
    return kept;
}

/*
 * Tree @tree backwards (T = @T): every card's children's partial sums into
 * acc[card] (its own, own[card], first), then its sum to its parent.
 * @scratch: room for one tree's hops.
 */
static void backward(struct events *b, const struct trees *p, size_t tree, int root,
                     int T, const struct place *own, const struct place *acc, int *has_child,
                     struct arrival *scratch)
{
    const struct swai_mteg *m = p->m;
    int n = p->nhops[tree], N = m->ncards;

    n = first_arrivals(m, root, tree_hops(p, tree), p->wait ? &p->wait[tree * p->room] : NULL,
                       n, scratch, has_child);
    qsort(scratch, (size_t)n, sizeof(*scratch), by_arrival);
    memset(has_child, 0, (size_t)N * sizeof(*has_child));
    for (int k = 0; k < n; k++) {
        has_child[m->e[scratch[k].h.e].u] = 1;
    }
    for (int k = 0; k < n; k++) {
        const struct swai_mteg_edge *e = &m->e[scratch[k].h.e];
        int parent = e->u, child = e->v, at = T - scratch[k].h.t;
        const struct place *from = has_child[child] ? &acc[child] : &own[child];
        const struct place *start = has_child[parent] == 1 ? &own[parent] : &acc[parent];

        /* the sum left L (and the slots it then waited, landed) before it is reduced */
        push(b, child, &(struct event){ at - e->L - scratch[k].wait, SWAI_STEP_SEND, parent,
                                        from->buf, 0, from->off, 0 });
        push(b, parent, &(struct event){ at, SWAI_STEP_RECV_REDUCE, child, start->buf,
                                         acc[parent].buf, start->off, acc[parent].off });
        has_child[parent] = 2;  /* its own contribution is in: the rest add to the sum */
    }
}

/*
 * The events of @coll's trees (@rs backwards, then @ag forward; AllToAll:
 * @ag's paths, the chunks each card relays counted in @relayed) into @b.
 */
static void collect(struct events *b, enum swai_coll coll, const struct trees *rs,
                    int rs_slots, const struct trees *ag, uint32_t chunks, uint32_t *relayed)
{
    int N = rs ? rs->m->ncards : ag->m->ncards;
    struct place *own = calloc((size_t)N, sizeof(*own)), *acc = calloc((size_t)N, sizeof(*acc));
    int *has_child = calloc((size_t)N, sizeof(*has_child));
    struct arrival *tmp = malloc((size_t)N * (size_t)N * sizeof(*tmp));

    if (!own || !acc || !has_child || !tmp) {
        b->err = -ENOMEM;
    }
    for (int s = 0; !b->err && rs && s < N; s++) {
        for (uint32_t c = 0; c < chunks; c++) {
            uint32_t blk = (uint32_t)s * chunks + c;

            /* AllReduce sums in OUT (where the result comes back); ReduceScatter in SCRATCH */
            for (int v = 0; v < N; v++) {
                own[v] = (struct place){ SWAI_BUF_IN, blk };
                acc[v] = coll == SWAI_COLL_ALLREDUCE ? (struct place){ SWAI_BUF_OUT, blk } :
                         v == s ? (struct place){ SWAI_BUF_OUT, c } :
                         (struct place){ SWAI_BUF_SCRATCH, blk };
            }
            backward(b, rs, blk, s, rs_slots, own, acc, has_child, tmp);
        }
    }
    for (size_t tree = 0; !b->err && ag && tree < (size_t)ag->ntrees; tree++) {
        if (coll == SWAI_COLL_ALLTOALL) {
            unicast(b, ag, tree, chunks, relayed);
            continue;
        }
        /* tree s * chunks + c is chunk c of block s in OUT (Broadcast: one block) */
        forward(b, ag, tree, (uint32_t)tree, rs ? rs_slots : 0);
    }
    free(own);
    free(acc);
    free(has_child);
    free(tmp);
}

static int schedule(const struct trees *rs, int rs_slots, const struct trees *ag, const char *name,
                    enum swai_coll coll, int root, uint32_t chunks, struct swai_sched *s,
                    char *why, size_t n)
{
    int N = rs ? rs->m->ncards : ag->m->ncards, ret;
    struct events b = { calloc((size_t)N, sizeof(*b.ev)), calloc((size_t)N, sizeof(int)),
                        calloc((size_t)N, sizeof(int)), 0 };
    uint32_t *relayed = calloc((size_t)N, sizeof(*relayed));
    /* the schedule's chunks: a rank's data (AllReduce: every block's) */
    uint32_t sched_chunks = coll == SWAI_COLL_ALLREDUCE ? (uint32_t)N * chunks : chunks;

    ret = swai_sched_init(s, name, coll, N, root, sched_chunks);
    if (!b.ev || !b.nev || !b.cap || !relayed) {
        ret = -ENOMEM;
    }
    if (!ret && coll == SWAI_COLL_REDUCESCATTER) {
        s->scratch_chunks = (uint32_t)N * chunks;
    }
    if (!ret) {
        collect(&b, coll, rs, rs_slots, ag, chunks, relayed);
        ret = b.err;
    }
    for (int r = 0; !ret && coll == SWAI_COLL_ALLTOALL && r < N; r++) {
        s->scratch_chunks = relayed[r] > s->scratch_chunks ? relayed[r] : s->scratch_chunks;
    }
    for (int r = 0; !ret && r < N; r++) {
        if (coll == SWAI_COLL_ALLGATHER) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, (uint32_t)r * chunks, chunks, 0);
        } else if (coll == SWAI_COLL_ALLTOALL) {
            swai_sched_copy(s, r, SWAI_BUF_IN, (uint32_t)r * chunks, SWAI_BUF_OUT,
                            (uint32_t)r * chunks, chunks, 0);
        } else if (coll == SWAI_COLL_BROADCAST && r == root) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, chunks, 0);
        }
        qsort(b.ev[r], (size_t)b.nev[r], sizeof(**b.ev), cmp_event);
        for (int k = 0; k < b.nev[r]; k++) {
            const struct event *x = &b.ev[r][k];

            swai_sched_add(s, r, &(struct swai_step){ .op = (uint8_t)x->op,
                           .src_buf = (uint8_t)x->src_buf, .dst_buf = (uint8_t)x->dst_buf,
                           .peer = x->peer, .src_off = x->src_off, .dst_off = x->dst_off,
                           .count = 1, .round = (uint32_t)x->slot });
        }
    }
    if (!ret) {
        ret = s->err ? s->err : swai_sched_autodeps(s);
    }
    /*
     * In the card's slots a rank's steps are planned one after another on
     * its one engine, in slot order; issued ahead of a receive that waits,
     * a reduction's leaves would send all their partial sums first and the
     * sums the plan reduces in between would wait.
     */
    if (!ret && (rs ? rs->m : ag->m)->card) {
        ret = swai_sched_pin_order(s);
    }
    for (int r = 0; b.ev && r < N; r++) {
        free(b.ev[r]);
    }
    free(b.ev);
    free(b.nev);
    free(b.cap);
    free(relayed);
    if (ret) {
        snprintf(why, n, ret == -ENOMEM ? "out of memory" : "the schedule cannot be built");
        if (s->ranks) {
            swai_sched_free(s);
        }
    }
    return ret;
}

int swai_mteg_schedule_plans(const struct swai_mteg_plan *rs, int rs_slots,
                             const struct swai_mteg_plan *ag, const char *name,
                             enum swai_coll coll, int root, uint32_t chunks,
                             struct swai_sched *s, char *why, size_t n)
{
    struct trees r = rs ? of_plan(rs) : (struct trees){ 0 }, a = ag ? of_plan(ag) :
                                                           (struct trees){ 0 };

    return schedule(rs ? &r : NULL, rs_slots, ag ? &a : NULL, name, coll, root, chunks, s,
                    why, n);
}

int swai_mteg_schedule(const struct swai_mteg *m, const char *name, enum swai_coll coll,
                       int root, uint32_t chunks, const struct swai_mteg_hop *hops,
                       const int *nhops, struct swai_sched *s, char *why, size_t n)
{
    int nsrc = coll == SWAI_COLL_ALLGATHER ? m->ncards :
               coll == SWAI_COLL_ALLTOALL ? m->ncards * m->ncards : 1;
    struct trees t = { m, hops, nhops, nsrc * (int)chunks, swai_mteg_room(coll, m->ncards),
                       NULL };

    return schedule(NULL, 0, &t, name, coll, root, chunks, s, why, n);
}
