/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mtegcca.c - MTEGCCA (seed 003 §2.2): a collective as broadcasts,
 * one Takahashi-Matsuyama tree per chunk on the MTEG (swai-mteg.c), and
 * the trees as the project's schedule; with the lower bounds the
 * synthesizer reports beside its completion time.  The trees are placed
 * by swai-mteg-place.c and, ours, improved by swai-mteg-improve.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swai-mteg-trees.h"

/*
 * On nodes alike, one more pass (swai_mteg_improve_from) from node 0's own
 * plan on every node: node 0 alone, planned here for K x the chunks on its
 * direct links, its trees made the whole topology's (swai-mteg-replicate.c).
 * Where that does not apply, nothing happens.  AMD x 2, x 3 and x 4 at 64
 * MiB in 16 chunks: 320, 582 and 852 slots -> 313, 573 and 840 (3.6, 4.6
 * and 4.0 % above their bounds).
 */
static int replicate_pass(const struct swai_topo *t, struct swai_mteg *m,
                          struct swai_mteg_trees *p, uint64_t chunk_bytes, int *slots)
{
    int K = m->nnodes, n = swai_mteg_replicate_nodes(m, p), ret = n < 0 ? n : 0, *nhops = NULL;
    struct swai_mteg_plan sub = { 0 };
    struct swai_mteg_hop *hops = NULL;
    struct swai_mteg_result r;
    struct swai_topo one;
    char why[256];

    swai_topo_init(&one);
    ret = ret ? ret : swai_topo_scale(&one, t, 1, why, sizeof(why));
    ret = ret ? ret : swai_mteg_plan(&one, SWAI_COLL_ALLGATHER, 0,
                                     chunk_bytes * (uint64_t)K * p->chunks,
                                     (uint32_t)K * p->chunks, 0, p->flags | SWAI_MTEG_DIRECT,
                                     &sub, &r, why, sizeof(why));
    ret = ret ? ret : swai_mteg_replicate(m, p, &sub, &hops, &nhops);
    ret = ret ? ret : swai_mteg_improve_from(m, p, hops, nhops, slots);
    swai_mteg_plan_free(&sub);
    swai_topo_free(&one);
    free(hops);
    free(nhops);
    return ret == -ENOMEM ? ret : 0;    /* else not this pattern: the plan as it is */
}

/* Plan every tree on an MTEG of @H slots; -ENOSPC if one does not fit. */
static int plan(const struct swai_topo *t, struct swai_mteg_trees *p, uint64_t chunk_bytes,
                int H, struct swai_mteg *m, int *slots, char *why, size_t n)
{
    size_t ntrees = (size_t)p->nsrc * p->chunks;
    size_t *order = malloc(ntrees * sizeof(*order));
    int ret;

    if (!order) {
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    ret = swai_mteg_build(m, t, chunk_bytes, H, p->flags, why, n);
    /*
     * On the card, a source's sends wait for its own block's copy
     * (swai-mteg.h); a reduction's leaves send from the input, and
     * AllReduce's second half from where its first left the sums.
     */
    for (int c = 0; !ret && (p->flags & SWAI_MTEG_CARD) &&
         !(p->flags & (SWAI_MTEG_TRANSPOSE | SWAI_MTEG_NO_COPY)) && c < m->ncards; c++) {
        if (p->coll != SWAI_COLL_BROADCAST || c == p->root) {
            ret = swai_mteg_hold_copy(m, c, chunk_bytes * p->chunks);
        }
    }
    swai_mteg_first_order(p, order);
    if (!ret) {
        ret = swai_mteg_place(m, p, order, slots);
    }
    if (!ret && !(p->flags & SWAI_MTEG_TM)) {
        ret = swai_mteg_promote(m, p, order, slots);
    }
    /* above its cut bound, AllGather's trees (and the reductions') get more tries */
    if (!ret && !(p->flags & SWAI_MTEG_TM) &&
        (p->coll == SWAI_COLL_ALLGATHER || p->coll == SWAI_COLL_BROADCAST) &&
        *slots > swai_mteg_cut_bound(m, p->coll, p->root, p->chunks)) {
        ret = swai_mteg_improve(m, p, slots);
        if (!ret && *slots > swai_mteg_near_bound(m, p)) {
            ret = replicate_pass(t, m, p, chunk_bytes, slots);
        }
    }
    /*
     * AllToAll's demands, timed again and rerouted: AMD at 64 MiB 945.0 ->
     * 913.6 us (bound 895.2).  Without the gate on the cut bound, which
     * for AllToAll solves an LP: these passes cost less.
     */
    if (!ret && !(p->flags & SWAI_MTEG_TM) && p->coll == SWAI_COLL_ALLTOALL &&
        !swai_mteg_too_big(m, ntrees)) {
        ret = swai_mteg_retime_capped(m, p, slots);
        ret = ret ? ret : swai_mteg_polish(m, p, slots);
    }
    if (ret == -ENOMEM) {
        snprintf(why, n, "out of memory");
    }
    if (ret && m->e) {
        swai_mteg_free(m);
    }
    free(order);
    return ret;
}

/*
 * The bound of a plan that took @slots: the cuts, and the packing's LP and
 * the other sets' cuts only where the plan is above them -- a plan at its
 * cut bound is optimal, and no bound is above an optimum (NDv2 x 2 would
 * solve the LP, and try 65 536 sets, for nothing).
 */
static int bound_slots(const struct swai_mteg *m, enum swai_coll coll, int root,
                       uint32_t chunks, int slots, double *took)
{
    struct timespec a, b;
    int cut;

    clock_gettime(CLOCK_MONOTONIC, &a);
    cut = swai_mteg_cut_bound(m, coll, root, chunks);
    /* AllGather's and Broadcast's bounds have more than the cuts: the packing's LP */
    if (slots > cut) {
        int pack = swai_mteg_pack_bound(m, coll, root, chunks);

        cut = pack > cut ? pack : cut;
    }
    if (slots > cut) {
        int sets = swai_mteg_subset_bound(m, coll, root, chunks);

        cut = sets > cut ? sets : cut;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    *took += (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    return cut;
}

void swai_mteg_plan_free(struct swai_mteg_plan *p)
{
    swai_mteg_free(&p->m);
    free(p->hops);
    free(p->nhops);
    free(p->wait);
    memset(p, 0, sizeof(*p));
}

/*
 * @p's trees, or @h's (@nh hops each, on an MTEG whose edges join the same
 * cards as @p's, @h's edges), timed by swai_mteg_fold_time on @p's MTEG;
 * kept in @p if they end before *slots.
 */
static int fold_trees(struct swai_mteg_plan *p, const struct swai_mteg *hm,
                      const struct swai_mteg_hop *h, const int *nh, int *slots)
{
    size_t N = (size_t)p->m.ncards, nt = (size_t)p->ntrees * p->room;
    struct swai_mteg_hop *x = malloc(nt * sizeof(*x));
    int *wait = calloc(nt, sizeof(*wait)), *edge = malloc(N * N * sizeof(*edge));
    int *n = malloc((size_t)p->ntrees * sizeof(*n)), got = *slots, ret = 0;

    if (!x || !wait || !edge || !n) {
        ret = -ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < N * N; i++) {
        edge[i] = -1;
    }
    for (int e = 0; e < p->m.nedges; e++) {
        edge[(size_t)p->m.e[e].u * N + (size_t)p->m.e[e].v] = e;
    }
    memcpy(x, h, nt * sizeof(*x));
    memcpy(n, nh, (size_t)p->ntrees * sizeof(*n));
    for (size_t i = 0; i < nt; i++) {
        if (i % p->room < (size_t)n[i / p->room]) {
            x[i].e = edge[(size_t)hm->e[h[i].e].u * N + (size_t)hm->e[h[i].e].v];
            if (x[i].e < 0) {
                goto out;   /* joined there, not here: nothing to time */
            }
        }
    }
    ret = swai_mteg_fold_time(&p->m, p->ntrees, p->room, x, n, wait, &got);
    if (!ret && got < *slots) {
        memcpy(p->hops, x, nt * sizeof(*x));
        memcpy(p->nhops, n, (size_t)p->ntrees * sizeof(*n));
        free(p->wait);
        p->wait = wait;
        wait = NULL;
        *slots = got;
    }
out:
    free(x);
    free(wait);
    free(edge);
    free(n);
    return ret;
}

/*
 * SWAI_MTEG_CARD reductions: the plan's trees timed with the reductions
 * apart from their COPYs (swai_mteg_fold_time), and the trees planned in
 * GPUs' slots timed so too, the sooner kept -- trees that know nothing of
 * the engines, a second try at spreading the cards' reductions (on a
 * DGX-1 at 1 MiB ours take 598 slots so, GPUs' 638; where neither ends
 * before the plan, the plan stays).  The MTEG's calendars then no longer
 * show the plan; nothing reads them after.
 */
static int card_fold(const struct swai_topo *t, enum swai_coll coll, int root,
                     uint64_t block_bytes, uint32_t chunks, unsigned flags,
                     struct swai_mteg_plan *p, int *slots)
{
    struct swai_mteg_plan g;
    struct swai_mteg_result r;
    char why[160];
    int ret = fold_trees(p, &p->m, p->hops, p->nhops, slots);

    if (ret) {
        return ret;
    }
    ret = swai_mteg_plan(t, coll, root, block_bytes, chunks, 0,
                         flags & ~(SWAI_MTEG_CARD | SWAI_MTEG_NO_COPY), &g, &r, why, sizeof(why));
    if (ret) {
        return ret == -ENOMEM ? ret : 0;    /* a plan of ours is there already */
    }
    ret = fold_trees(p, &g.m, g.hops, g.nhops, slots);
    swai_mteg_plan_free(&g);
    return ret;
}

int swai_mteg_plan(const struct swai_topo *t, enum swai_coll coll, int root,
                   uint64_t block_bytes, uint32_t chunks, int H, unsigned flags,
                   struct swai_mteg_plan *p, struct swai_mteg_result *res, char *why, size_t n)
{
    int N = t->ncards, ret, slots;
    int nsrc = coll == SWAI_COLL_ALLGATHER ? N : coll == SWAI_COLL_ALLTOALL ? N * N : 1;
    uint64_t chunk_bytes = chunks ? (block_bytes + chunks - 1) / chunks : 0;
    struct swai_mteg_trees ctx;
    int *ends;

    memset(res, 0, sizeof(*res));
    memset(p, 0, sizeof(*p));
    if (coll != SWAI_COLL_ALLGATHER && coll != SWAI_COLL_BROADCAST &&
        coll != SWAI_COLL_ALLTOALL) {
        snprintf(why, n, "%s: the synthesizer makes allgather, broadcast, alltoall, "
                 "reducescatter and allreduce", swai_coll_name(coll));
        return -EINVAL;
    }
    if (coll == SWAI_COLL_ALLTOALL && (flags & SWAI_MTEG_TM)) {
        snprintf(why, n, "alltoall: seed 003's MTEGCCA is of broadcasts; its demands are "
                 "ours (MTEG-EA, without --tm)");
        return -EINVAL;
    }
    if (!chunks || !chunk_bytes || N < 2 || root < 0 || root >= N) {
        snprintf(why, n, "%d cards, root %d, %u chunks of %llu bytes: need 2 cards, a root "
                 "among them, a chunk of at least a byte", N, root, chunks,
                 (unsigned long long)chunk_bytes);
        return -EINVAL;
    }
    p->ntrees = nsrc * (int)chunks;
    p->room = swai_mteg_room(coll, N);
    p->hops = malloc((size_t)p->ntrees * p->room * sizeof(*p->hops));
    p->nhops = calloc((size_t)p->ntrees, sizeof(*p->nhops));
    ends = calloc((size_t)p->ntrees, sizeof(*ends));
    if (!p->hops || !p->nhops || !ends) {
        free(ends);
        swai_mteg_plan_free(p);
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    ctx = (struct swai_mteg_trees){ .coll = coll, .root = root, .nsrc = nsrc, .chunks = chunks,
                                    .flags = flags, .hops = p->hops, .nhops = p->nhops,
                                    .ends = ends };
    /* Without a budget: from a few slots a card, doubling until every tree fits. */
    for (int h = H ? H : 4 * N;; h *= 2) {
        ret = plan(t, &ctx, chunk_bytes, h, &p->m, &slots, why, n);
        if (ret != -ENOSPC || H || h > (1 << 16)) {
            if (ret == -ENOSPC) {
                snprintf(why, n, "%d slots do not reach every card (--slots more)", h);
            }
            break;
        }
    }
    free(ends);
    if (!ret && (flags & SWAI_MTEG_CARD) && (flags & SWAI_MTEG_TRANSPOSE)) {
        ret = card_fold(t, coll, root, block_bytes, chunks, flags, p, &slots);
        if (ret) {
            swai_mteg_free(&p->m);
        }
    }
    if (ret) {
        free(p->hops);
        free(p->nhops);
        free(p->wait);
        memset(p, 0, sizeof(*p));   /* plan() freed the MTEG */
        return ret;
    }
    res->H = p->m.H;
    res->slots = slots;
    res->unimproved = !(flags & SWAI_MTEG_TM) && swai_mteg_too_big(&p->m, (size_t)p->ntrees);
    /* every plan on the card starts with its launch: the bound's too */
    res->completion_us = ((double)slots * (double)p->m.tau_ps + (double)p->m.fixed_ps) / 1e6;
    res->lower_bound_us = ((double)bound_slots(&p->m, coll, root, chunks, slots,
                                               &res->bound_s) * (double)p->m.tau_ps +
                           (double)p->m.fixed_ps) / 1e6;
    return 0;
}

/* @p's figures into @res (@H the slots it planned in). */
static void figures(const struct swai_mteg_plan *p, enum swai_coll coll, int root,
                    uint32_t chunks, int slots, struct swai_mteg_result *res)
{
    res->H += p->m.H;    /* AllReduce: the two phases one after the other */
    res->slots += slots;
    res->completion_us += (double)slots * (double)p->m.tau_ps / 1e6;
    res->lower_bound_us += (double)bound_slots(&p->m, coll, root, chunks, slots, &res->bound_s) *
                           (double)p->m.tau_ps / 1e6;
}

/*
 * ReduceScatter: AllGather's trees on the transposed MTEG, backwards
 * (swai-mteg-sched.c).  AllReduce: those, then AllGather's trees forward,
 * on blocks of a rank's data / N.
 */
static int synth_reduce(const struct swai_topo *t, enum swai_coll coll, uint64_t block_bytes,
                        uint32_t chunks, int H, unsigned flags, struct swai_sched *s,
                        struct swai_mteg_result *res, char *why, size_t n)
{
    struct swai_mteg_plan rs, ag = { 0 };
    struct swai_mteg_result r1, r2;
    uint64_t blk = coll == SWAI_COLL_ALLREDUCE ?
                   (block_bytes + (uint64_t)t->ncards - 1) / (uint64_t)t->ncards : block_bytes;
    int ret;

    ret = swai_mteg_plan(t, SWAI_COLL_ALLGATHER, 0, blk, chunks, H, flags | SWAI_MTEG_TRANSPOSE,
                         &rs, &r1, why, n);
    if (ret) {
        return ret;
    }
    if (coll == SWAI_COLL_ALLREDUCE) {
        ret = swai_mteg_plan(t, SWAI_COLL_ALLGATHER, 0, blk, chunks, H,
                             flags | SWAI_MTEG_NO_COPY, &ag, &r2, why, n);
    }
    if (!ret) {
        ret = swai_mteg_schedule_plans(&rs, r1.slots, coll == SWAI_COLL_ALLREDUCE ? &ag : NULL,
                                       "MTEG", coll, 0, chunks, s, why, n);
    }
    if (!ret) {
        memset(res, 0, sizeof(*res));
        res->unimproved = r1.unimproved || (coll == SWAI_COLL_ALLREDUCE && r2.unimproved);
        figures(&rs, SWAI_COLL_ALLGATHER, 0, chunks, r1.slots, res);
        if (coll == SWAI_COLL_ALLREDUCE) {
            figures(&ag, SWAI_COLL_ALLGATHER, 0, chunks, r2.slots, res);
        }
        /* SWAI_MTEG_CARD: one call, one launch */
        res->completion_us += (double)rs.m.fixed_ps / 1e6;
        res->lower_bound_us += (double)rs.m.fixed_ps / 1e6;
    }
    swai_mteg_plan_free(&rs);
    swai_mteg_plan_free(&ag);
    return ret;
}

int swai_mteg_synth(const struct swai_topo *t, enum swai_coll coll, int root,
                    uint64_t block_bytes, uint32_t chunks, int H, unsigned flags,
                    struct swai_sched *s, struct swai_mteg_result *res,
                    char *why, size_t n)
{
    struct swai_mteg_plan p;
    int ret;

    if (coll == SWAI_COLL_REDUCESCATTER || coll == SWAI_COLL_ALLREDUCE) {
        return synth_reduce(t, coll, block_bytes, chunks, H, flags, s, res, why, n);
    }
    ret = swai_mteg_plan(t, coll, root, block_bytes, chunks, H, flags, &p, res, why, n);
    if (!ret) {
        ret = swai_mteg_schedule(&p.m, "MTEG", coll, root, chunks, p.hops, p.nhops, s, why, n);
        swai_mteg_plan_free(&p);
    }
    return ret;
}
