/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg.c - the multicast time-expanded graph and one Takahashi-
 * Matsuyama tree on it (swai-mteg.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"
#include "swai-board.h"
#include "swai-sched-card.h"

#define INF 0x3fffffff
/* SWAI_MTEG_CARD: slots in the shortest of the card's costs, a wake-up. */
#define SWAI_MTEG_CARD_SLOTS_PER_WAKE 4

/*
 * SWAI_MTEG_CARD's costs, in slots: a COPY's issue, a WAIT's wake-up and
 * (SWAI_MTEG_TRANSPOSE) a RECV_REDUCE's wake-up and reduction of a chunk.
 */
struct card_slots {
    int step, wake, reduce;
};

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* SWAI_MTEG_CARD: card @c's engine, the resource after the topology's. */
static int engine_res(const struct swai_mteg *m, int c)
{
    return m->nres - m->ncards + c;
}

void swai_mteg_free(struct swai_mteg *m)
{
    free(m->e);
    free(m->in_off);
    free(m->in);
    free(m->out_off);
    free(m->out);
    free(m->taken);
    free(m->skip);
    free(m->node_of);
    free(m->left);
    free(m->hold);
    memset(m, 0, sizeof(*m));
}

/*
 * The slots one hop takes: delta = its link's latency and the switch it
 * enters, l = its bytes (ceil(maxB / B), in slots of a chunk at maxB; a
 * @split of them: ceil(split x maxB / B)); *bytes_slots gets l.
 */
static int hop_slots(const struct swai_topo *t, const struct swai_mteg *m, uint32_t maxb,
                     const struct swai_topo_hop *h, int *bytes_slots)
{
    const struct swai_topo_link *l = &t->links[h->link];
    int to = h->dir ? l->a : l->b;
    uint64_t lat = (uint64_t)l->latency_ns +
                   (t->devs[to].kind == SWAI_TOPO_SWITCH ? t->devs[to].latency_ns : 0);

    *bytes_slots = (int)ceil_div((uint64_t)m->split * maxb, l->mbps);
    return (int)ceil_div(lat * 1000, m->tau_ps) + *bytes_slots;
}

/*
 * SWAI_MTEG_CARD (swai-mteg.h): the COPY is issued before the links take
 * the chunk, u's engine is held from the issue until the chunk has landed,
 * and v has it a wake-up later.
 */
static void add_send_costs(struct swai_mteg *m, struct swai_mteg_edge *e,
                           const struct card_slots *cs)
{
    int k = e->nhops++;

    for (int h = 0; h < e->nlinks; h++) {
        e->at[h] += cs->step;
    }
    e->res[k] = engine_res(m, e->u);
    e->at[k] = 0;
    e->busy[k] = cs->step + e->L;
    e->bytes[k] = e->busy[k];
    e->L += cs->step + cs->wake;
}

/*
 * SWAI_MTEG_CARD with SWAI_MTEG_TRANSPOSE: u -> v is v's partial sum sent
 * to u, read backwards.  Forward in time v's engine issues the COPY and
 * holds on until the sum has landed, then u wakes and reduces it in; so
 * backwards u's engine is held first (the reduction), then the links,
 * then v's engine over the links and the issue before them.
 */
static void add_reduce_costs(struct swai_mteg *m, struct swai_mteg_edge *e,
                             const struct card_slots *cs)
{
    int links = e->L, k = e->nhops;

    for (int h = 0; h < e->nlinks; h++) {
        e->at[h] += cs->reduce;
    }
    e->res[k] = engine_res(m, e->u);
    e->at[k] = 0;
    e->busy[k] = cs->reduce;
    e->res[k + 1] = engine_res(m, e->v);
    e->at[k + 1] = cs->reduce;
    e->busy[k + 1] = links + cs->step;
    for (int h = k; h < k + 2; h++) {
        e->bytes[h] = e->busy[h];
    }
    e->nhops += 2;
    e->L += cs->reduce + cs->step;
}

/* Edge u -> v along @r's hops (@cs: SWAI_MTEG_CARD's, or NULL); 0 or -E2BIG. */
static int add_edge(const struct swai_topo *t, struct swai_mteg *m, uint32_t maxb, int u, int v,
                    const struct swai_topo_route *r, unsigned flags,
                    const struct card_slots *cs)
{
    struct swai_mteg_edge *e = &m->e[m->nedges];

    /* SWAI_MTEG_CARD: the sender's engine, and backwards the receiver's too */
    if (r->nhops + (cs ? 1 : 0) + (cs && (flags & SWAI_MTEG_TRANSPOSE) ? 1 : 0) >
        SWAI_MTEG_MAX_HOPS) {
        return -E2BIG;
    }
    *e = (struct swai_mteg_edge){ .u = u, .v = v, .mbps = r->mbps,
                                  .latency_ns = r->latency_ns, .nhops = r->nhops,
                                  .nlinks = r->nhops };
    for (int k = 0; k < r->nhops; k++) {
        int bytes_slots;

        e->res[k] = swai_topo_resource(t, &r->hops[k]);
        e->at[k] = e->L;
        e->L += hop_slots(t, m, maxb, &r->hops[k], &bytes_slots);
        e->busy[k] = flags & SWAI_MTEG_SEED ? 1 : bytes_slots;
        e->bytes[k] = bytes_slots;
    }
    if (flags & SWAI_MTEG_TRANSPOSE) {
        /* @r is v's route to u: the same hops, backwards (swai-mteg.h) */
        e->u = v;
        e->v = u;
        for (int k = 0; k < r->nhops; k++) {
            e->at[k] = e->L - e->at[k] - e->busy[k];
        }
    }
    if (cs && (flags & SWAI_MTEG_TRANSPOSE)) {
        add_reduce_costs(m, e, cs);
    } else if (cs) {
        add_send_costs(m, e, cs);
    }
    m->nedges++;
    return 0;
}

/* Every pair of cards a link or a route through switches joins, as edges. */
static int add_edges(const struct swai_topo *t, struct swai_mteg *m, uint32_t maxb,
                     unsigned flags, const struct card_slots *cs, char *why, size_t n)
{
    for (int u = 0; u < t->ncards; u++) {
        for (int v = 0; v < t->ncards; v++) {
            struct swai_topo_route r;
            bool via_switch = false;
            int ret;

            /* the transposed edge u -> v is G's v -> u (add_edge turns it round) */
            int from = flags & SWAI_MTEG_TRANSPOSE ? v : u, to = from == u ? v : u;

            if (u == v || swai_topo_route(t, from, to, &r, why, n)) {
                continue;   /* not joined: a schedule relays at cards */
            }
            for (int k = 0; k + 1 < r.nhops; k++) {
                const struct swai_topo_link *l = &t->links[r.hops[k].link];

                via_switch |= t->devs[r.hops[k].dir ? l->a : l->b].kind ==
                              SWAI_TOPO_SWITCH;
            }
            /* direct links, or cards behind switches only (not a card relay) */
            ret = r.nhops == 1 || (via_switch && !(flags & SWAI_MTEG_DIRECT)) ?
                  add_edge(t, m, maxb, from, to, &r, flags, cs) : 0;
            swai_topo_route_free(&r);
            if (ret) {
                snprintf(why, n, "the route from card %d to %d has more than %d hops", u, v,
                         SWAI_MTEG_MAX_HOPS - (cs ? 1 : 0));
                return ret;
            }
        }
    }
    return 0;
}

/*
 * @off[ncards + 1] and @idx[nedges] (allocated): the edges by their card
 * -- its u (@by_u) or its v -- a counting sort, in edge order.
 */
static int by_card(const struct swai_mteg *m, bool by_u, int **off, int **idx)
{
    size_t N = (size_t)m->ncards;
    int *fill = calloc(N + 1, sizeof(*fill));

    *off = calloc(N + 1, sizeof(**off));
    *idx = malloc(((size_t)m->nedges + 1) * sizeof(**idx));
    if (!fill || !*off || !*idx) {
        free(fill);
        return -ENOMEM;
    }
    for (int i = 0; i < m->nedges; i++) {
        (*off)[(by_u ? m->e[i].u : m->e[i].v) + 1]++;
    }
    for (size_t c = 0; c < N; c++) {
        (*off)[c + 1] += (*off)[c];
    }
    for (int i = 0; i < m->nedges; i++) {
        int c = by_u ? m->e[i].u : m->e[i].v;

        (*idx)[(*off)[c] + fill[c]++] = i;
    }
    free(fill);
    return 0;
}

int swai_mteg_index(struct swai_mteg *m)
{
    int ret = by_card(m, false, &m->in_off, &m->in);

    return ret ? ret : by_card(m, true, &m->out_off, &m->out);
}

int swai_mteg_build(struct swai_mteg *m, const struct swai_topo *t,
                    uint64_t chunk_bytes, int H, unsigned flags, char *why, size_t n)
{
    size_t N = (size_t)t->ncards;
    struct card_slots cs;
    uint32_t maxb = 0;
    int ret;

    memset(m, 0, sizeof(*m));
    if (H < 1 || !chunk_bytes) {
        snprintf(why, n, "%d slots of %llu-byte chunks: at least 1 slot and 1 byte", H,
                 (unsigned long long)chunk_bytes);
        return -EINVAL;
    }
    if ((flags & SWAI_MTEG_CARD) && (flags & SWAI_MTEG_SEED)) {
        snprintf(why, n, "the card's slots are by bytes, not by the seed's rule");
        return -EINVAL;
    }
    for (int l = 0; l < t->nlinks; l++) {
        maxb = t->links[l].mbps > maxb ? t->links[l].mbps : maxb;
    }
    m->ncards = t->ncards;
    m->H = H;
    m->nres = swai_topo_nresources(t) + (flags & SWAI_MTEG_CARD ? t->ncards : 0);
    /* tau = mu / max B */
    m->tau_ps = swai_timing_ps(chunk_bytes, maxb ? maxb : 1);
    if (!m->tau_ps) {
        m->tau_ps = 1;
    }
    m->split = 1;
    if (flags & SWAI_MTEG_CARD) {
        /* the card's step costs (swai-sched-card.h), its default timing as swai-vm's cards */
        const struct swai_step send = { .op = SWAI_STEP_SEND }, recv = { .op = SWAI_STEP_RECV },
                               fold = { .op = SWAI_STEP_RECV_REDUCE };
        struct swai_timing_props p;
        uint64_t wake;

        swai_timing_props_init(&p);
        /* a receive written in place by its sender: its WAIT */
        wake = swai_sched_card_after_ps(&p, &recv, true, 0, 0);
        /*
         * A slot of at most a quarter of a wake-up: tau split in as many,
         * so that the card's costs (a wake-up is the least) are not rounded
         * up to a chunk's time each -- at 4 MiB on dgx1 a 5 us step and a
         * 1 us wake-up would cost 21 us each.  A hop rounds three costs up
         * (issue, bytes, wake-up or reduction); at a whole wake-up a slot
         * that was ~10 % of a hop at 1 MiB, and the plans were worse for
         * it (ReduceScatter at 4 MiB: 420 us on the cards against 341).
         */
        m->split = wake ? (int)ceil_div(m->tau_ps * SWAI_MTEG_CARD_SLOTS_PER_WAKE, wake) : 1;
        m->tau_ps = ceil_div(m->tau_ps, (uint64_t)m->split);
        cs.step = (int)ceil_div(swai_sched_card_before_ps(&p, &send), m->tau_ps);
        cs.wake = (int)ceil_div(wake, m->tau_ps);
        /* a partial sum of a chunk, after its WAIT, in the LDM of swccl-bench's -g 1 */
        cs.reduce = (int)ceil_div(swai_sched_card_after_ps(&p, &fold, false, chunk_bytes,
                                                           SWAI_CG_LDM_DEFAULT), m->tau_ps);
        m->fixed_ps = swai_sched_card_launch_ps(&p);
        m->card = true;
    }
    m->e = malloc((N * N + 1) * sizeof(*m->e));
    m->taken = calloc((size_t)m->nres * (size_t)(H + 1), 1);
    m->skip = calloc((size_t)m->nres * (size_t)(H + 2), sizeof(*m->skip));
    m->nnodes = t->nnodes;
    m->node_of = calloc(N + 1, sizeof(*m->node_of));
    if (!m->e || !m->taken || !m->skip || !m->node_of) {
        swai_mteg_free(m);
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    ret = add_edges(t, m, maxb, flags, flags & SWAI_MTEG_CARD ? &cs : NULL, why, n);
    if (!ret && !m->nedges) {
        snprintf(why, n, "%s joins no two cards", t->name);
        ret = -EINVAL;
    }
    if (ret) {
        swai_mteg_free(m);
        return ret;
    }
    /* the node of every card: the bound's cuts */
    for (int c = 0; c < t->ncards; c++) {
        m->node_of[c] = t->devs[t->card_dev[c]].node;
    }
    if (swai_mteg_index(m)) {
        swai_mteg_free(m);
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    return 0;
}

/*
 * The first slot >= @x free on resource @r (H + 1: none).  skip[] holds
 * hints -- a slot at or before the next free one -- shortened on the way
 * (path compression), so a link taken for a long run is crossed in a few
 * steps.  Slots are only taken between clears; freeing one resets its
 * resource's hints (swai_mteg_take).
 */
static int next_free_slot(struct swai_mteg *m, int r, int x)
{
    const uint8_t *tk = &m->taken[(size_t)r * (size_t)(m->H + 1)];
    int *hint = &m->skip[(size_t)r * (size_t)(m->H + 2)];
    int y = x;

    while (y <= m->H && tk[y]) {
        y = hint[y] > y ? hint[y] : y + 1;
    }
    for (int z = x; z < y && z <= m->H;) {
        int next = hint[z] > z ? hint[z] : z + 1;

        hint[z] = y;
        z = next;
    }
    return y;
}

int swai_mteg_edge_next(struct swai_mteg *m, const struct swai_mteg_edge *e, int t0)
{
    for (int k = 0; k < e->nhops; k++) {
        for (int b = 0; b < e->busy[k]; b++) {
            int t = t0 + e->at[k] + b;

            if (t > m->H) {
                return -1;
            }
            if (m->taken[(size_t)e->res[k] * (size_t)(m->H + 1) + (size_t)t]) {
                /* every departure whose hop k starts in the taken run is blocked */
                return next_free_slot(m, e->res[k], t) - e->at[k];
            }
        }
    }
    return t0;
}

int swai_mteg_trim(struct swai_mteg *m, int H)
{
    uint8_t *taken;
    int *skip;

    if (H < 1 || H > m->H) {
        return -EINVAL;
    }
    taken = calloc((size_t)m->nres * (size_t)(H + 1), 1);
    skip = calloc((size_t)m->nres * (size_t)(H + 2), sizeof(*skip));
    if (!taken || !skip) {
        free(taken);
        free(skip);
        return -ENOMEM;
    }
    for (int r = 0; r < m->nres; r++) {
        memcpy(&taken[(size_t)r * (size_t)(H + 1)], &m->taken[(size_t)r * (size_t)(m->H + 1)],
               (size_t)H + 1);
    }
    free(m->taken);
    free(m->skip);
    m->taken = taken;
    m->skip = skip;
    m->H = H;
    return 0;
}

/* The engines' holds (SWAI_MTEG_CARD) taken again. */
static void take_holds(struct swai_mteg *m)
{
    for (int c = 0; m->hold && c < m->ncards; c++) {
        memset(&m->taken[(size_t)engine_res(m, c) * (size_t)(m->H + 1)], 1,
               (size_t)m->hold[c]);
    }
}

void swai_mteg_clear(struct swai_mteg *m)
{
    memset(m->taken, 0, (size_t)m->nres * (size_t)(m->H + 1));
    memset(m->skip, 0, (size_t)m->nres * (size_t)(m->H + 2) * sizeof(*m->skip));
    take_holds(m);
}

int swai_mteg_hold_copy(struct swai_mteg *m, int card, uint64_t bytes)
{
    const struct swai_step copy = { .op = SWAI_STEP_COPY };
    struct swai_timing_props p;
    uint64_t ps;

    swai_timing_props_init(&p);
    ps = swai_sched_card_after_ps(&p, &copy, false, bytes, 0);
    if (!m->hold && !(m->hold = calloc((size_t)m->ncards, sizeof(*m->hold)))) {
        return -ENOMEM;
    }
    m->hold[card] = (int)ceil_div(ps, m->tau_ps);
    if (m->hold[card] > m->H) {
        return -ENOSPC;
    }
    memset(&m->taken[(size_t)engine_res(m, card) * (size_t)(m->H + 1)], 1,
           (size_t)m->hold[card]);
    return 0;
}

int swai_mteg_edge_to(const struct swai_mteg *m, int u, int v)
{
    for (int k = m->out_off[u]; k < m->out_off[u + 1]; k++) {
        if (m->e[m->out[k]].v == v) {
            return m->out[k];
        }
    }
    return -1;
}

bool swai_mteg_edge_free(const struct swai_mteg *m, const struct swai_mteg_edge *e, int t0)
{
    for (int k = 0; k < e->nhops; k++) {
        for (int b = 0; b < e->busy[k]; b++) {
            int t = t0 + e->at[k] + b;

            if (t > m->H || m->taken[(size_t)e->res[k] * (size_t)(m->H + 1) + (size_t)t]) {
                return false;
            }
        }
    }
    return true;
}

void swai_mteg_take(struct swai_mteg *m, const struct swai_mteg_hop *h, bool on)
{
    const struct swai_mteg_edge *e = &m->e[h->e];

    for (int k = 0; k < e->nhops; k++) {
        if (!on) {      /* a freed slot: the hints over it no longer hold */
            memset(&m->skip[(size_t)e->res[k] * (size_t)(m->H + 2)], 0,
                   (size_t)(m->H + 2) * sizeof(*m->skip));
        }
        for (int b = 0; b < e->busy[k]; b++) {
            m->taken[(size_t)e->res[k] * (size_t)(m->H + 1) +
                     (size_t)(h->t + e->at[k] + b)] = on;
        }
    }
}

void swai_mteg_take_trees(struct swai_mteg *m, int ntrees, size_t room,
                          const struct swai_mteg_hop *hops, const int *nhops, bool on)
{
    for (int i = 0; i < ntrees; i++) {
        for (int k = 0; k < nhops[i]; k++) {
            swai_mteg_take(m, &hops[(size_t)i * room + (size_t)k], on);
        }
    }
}

/*
 * The distance of every (card, slot) from the tree: one sweep in slot
 * order, from slot @from (earlier slots are as they were: a path that
 * leaves the tree at slot t changes nothing before t + 1).  pred: -1 in the
 * tree, -2 by storage, else the edge it came over.
 */
static void sweep(const struct swai_mteg *m, const bool *intree, int *dist, int *pred, int from)
{
    int N = m->ncards, H = m->H;

    for (int t = from; t <= H; t++) {
        for (int v = 0; v < N; v++) {
            int i = v * (H + 1) + t, d = INF, p = -3;

            if (intree[i]) {
                d = 0;
                p = -1;
            } else if (t && dist[i - 1] < INF) {
                d = dist[i - 1] + 1;
                p = -2;
            }
            for (int k = m->in_off[v]; k < m->in_off[v + 1]; k++) {
                const struct swai_mteg_edge *e = &m->e[m->in[k]];
                int t0 = t - e->L;

                if (t0 < 0 || dist[e->u * (H + 1) + t0] >= INF || !swai_mteg_edge_free(m, e, t0)) {
                    continue;
                }
                if (dist[e->u * (H + 1) + t0] + e->L < d) {
                    d = dist[e->u * (H + 1) + t0] + e->L;
                    p = m->in[k];
                }
            }
            dist[i] = d;
            pred[i] = p;
        }
    }
}

int swai_mteg_tree(struct swai_mteg *m, int src, struct swai_mteg_hop *hops,
                   int *nhops, int *arrive)
{
    int N = m->ncards, H = m->H, ret = 0, left = N - 1;
    size_t cells = (size_t)N * (size_t)(H + 1);
    bool *intree = calloc(cells, sizeof(*intree));
    int *dist = malloc(cells * sizeof(*dist)), *pred = malloc(cells * sizeof(*pred));

    *nhops = 0;
    if (!intree || !dist || !pred) {
        ret = -ENOMEM;
        goto out;
    }
    for (int v = 0; v < N; v++) {
        arrive[v] = -1;
    }
    arrive[src] = 0;
    intree[src * (H + 1)] = true;
    for (int from = 0; left > 0;) {
        int best = -1, best_t = 0, best_d = INF;

        sweep(m, intree, dist, pred, from);
        /* the uncovered card closest to the tree (its sink: min over slots) */
        for (int v = 0; v < N; v++) {
            if (arrive[v] >= 0) {
                continue;
            }
            for (int t = 0; t <= H; t++) {
                if (dist[v * (H + 1) + t] < best_d) {
                    best_d = dist[v * (H + 1) + t];
                    best = v;
                    best_t = t;
                }
            }
        }
        if (best < 0) {
            ret = -ENOSPC;
            goto out;
        }
        /* its shortest path joins the tree; every card on it is covered */
        int v = best, t = best_t;

        for (; !intree[v * (H + 1) + t];) {
            int p = pred[v * (H + 1) + t];

            intree[v * (H + 1) + t] = true;
            if (p == -2) {
                t--;
                continue;
            }
            if (*nhops >= N * N) {     /* a path visits a card once: never */
                ret = -ENOSPC;
                goto out;
            }
            hops[*nhops] = (struct swai_mteg_hop){ p, t - m->e[p].L };
            /*
             * Taken at once, not when the tree is done: two paths of one
             * tree may share a first hop through a switch (the seed's
             * direct links never do; for them it is the same).
             */
            swai_mteg_take(m, &hops[(*nhops)++], true);
            if (arrive[v] < 0 || arrive[v] > t) {
                left -= arrive[v] < 0;
                arrive[v] = t;
            }
            t -= m->e[p].L;
            v = m->e[p].u;
        }
        from = t + 1;   /* the path left the tree at slot t */
    }
out:
    if (ret) {
        /* nothing taken: give back what this tree's paths took so far */
        for (int i = 0; i < *nhops; i++) {
            swai_mteg_take(m, &hops[i], false);
        }
        *nhops = 0;
    }
    free(intree);
    free(dist);
    free(pred);
    return ret;
}
