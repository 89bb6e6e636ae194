/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-levels.c - an AllReduce in HCCL's levels (swai-gen.h): the
 * ranks of each node reduce-scatter among themselves, the algorithm runs
 * between the nodes on each plane (the j-th rank of every node), and the
 * ranks of each node all-gather.  Seed 000 measures NHR so: "the default
 * algorithm for AllReduce between servers", after the servers' own level
 * over HCCS.
 *
 * n nodes (swai_gen_opts.node_of, swai-gen-nodes.c), the largest of m
 * ranks.  With C the chunks of the algorithm's AllReduce on n ranks, the
 * data is m blocks of C chunks; block p is plane p's, held in node a by its
 * rank p mod m_a (m_a its ranks: a smaller node's ranks hold several):
 *
 *   round 0       rank (a, j) sends its input's block p to its holder,
 *                 every block it does not hold, one message each (block
 *                 j + 1 first, so that no two ranks of a node start on one
 *                 peer), and sums what it receives onto the blocks it
 *                 holds, in SCRATCH at their places;
 *   rounds 1 ..   plane p runs the algorithm's AllReduce on block p: its
 *                 rank b is node b's holder, its IN our SCRATCH block p,
 *                 its OUT our OUT's block p, its SCRATCH ours after m C;
 *   last round    each holder sends OUT's blocks it holds to the other
 *                 ranks of its node, which take them at their places.
 *
 * Each node sends (m - 1)/m of the data out and takes as much in, once
 * each way: what the node's mesh of HCCS links carries at once, before
 * the 1/m that each rank's NIC carries between the nodes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "swai-gen.h"

/* The rank of node @a that holds block @p: a node of fewer ranks holds several. */
static int owner(const struct swai_gen_nodes *g, int a, int p)
{
    return g->member[a * g->m + p % g->size[a]];
}

/* Plane p's step @st of its rank (node) @b, as the rank's of node b that holds block p. */
static void plane_step(struct swai_sched *s, const struct swai_gen_nodes *g,
                       const struct swai_sched *sub, int p, int b, const struct swai_step *st)
{
    static const int buf[SWAI_BUF_N] = { SWAI_BUF_SCRATCH, SWAI_BUF_OUT, SWAI_BUF_SCRATCH };
    uint32_t C = sub->chunks, M = (uint32_t)g->m;
    uint32_t base[SWAI_BUF_N] = { (uint32_t)p * C, (uint32_t)p * C,
                                  M * C + (uint32_t)p * sub->scratch_chunks };
    struct swai_step t = *st;

    if (t.peer >= 0) {
        t.peer = owner(g, t.peer, p);
    }
    if (t.op != SWAI_STEP_RECV) {
        t.src_off += base[t.src_buf];
        t.src_buf = (uint8_t)buf[t.src_buf];
    }
    if (t.op != SWAI_STEP_SEND) {
        t.dst_off += base[t.dst_buf];
        t.dst_buf = (uint8_t)buf[t.dst_buf];
    }
    t.round += 1;
    swai_sched_add(s, owner(g, b, p), &t);
}

/* Rank @x = (a, j)'s program; @last the generator's last round. */
static void compose_rank(struct swai_sched *s, const struct swai_gen_nodes *g,
                         const struct swai_sched *sub, int x, uint32_t last)
{
    int a = g->node[x], j = g->plane[x], M = g->m, ma = g->size[a];
    uint32_t C = sub->chunks;

    /* Round 0: every block to its holder (block j + 1 first), then sum our own. */
    for (int k = 1; k < M + 1; k++) {
        int p = (j + k) % M;

        if (owner(g, a, p) != x) {
            swai_sched_send(s, x, owner(g, a, p), SWAI_BUF_IN, (uint32_t)p * C, C, 0);
        }
    }
    for (int p = j; p < M; p += ma) {
        swai_sched_copy(s, x, SWAI_BUF_IN, (uint32_t)p * C, SWAI_BUF_SCRATCH, (uint32_t)p * C,
                        C, 0);
    }
    for (int i = 1; i < ma; i++) {
        int q = (j - i + ma) % ma, from = g->member[a * M + q];

        for (int k = 1; k < M + 1; k++) {
            int p = (q + k) % M;

            if (owner(g, a, p) == x) {
                swai_sched_recv_reduce(s, x, from, SWAI_BUF_SCRATCH, (uint32_t)p * C,
                                       SWAI_BUF_SCRATCH, (uint32_t)p * C, C, 0);
            }
        }
    }
    /* The planes of our blocks, between the nodes. */
    for (int p = j; p < M; p += ma) {
        const struct swai_sched_rank *rk = &sub->ranks[a];

        for (int i = 0; i < rk->nsteps; i++) {
            plane_step(s, g, sub, p, a, &rk->steps[i]);
        }
    }
    /* Last round: our blocks to the others of the node, theirs to us. */
    for (int i = 1; i < ma; i++) {
        int to = g->member[a * M + (j + i) % ma];

        for (int p = j; p < M; p += ma) {
            swai_sched_send(s, x, to, SWAI_BUF_OUT, (uint32_t)p * C, C, last + 2);
        }
    }
    for (int i = 1; i < ma; i++) {
        int q = (j - i + ma) % ma;

        for (int p = q; p < M; p += ma) {
            swai_sched_recv(s, x, g->member[a * M + q], SWAI_BUF_OUT, (uint32_t)p * C, C,
                            last + 2);
        }
    }
}

static void compose(struct swai_sched *s, const struct swai_gen_nodes *g, const struct swai_sched *sub)
{
    uint32_t last = 0;

    for (int r = 0; r < sub->nranks; r++) {
        for (int i = 0; i < sub->ranks[r].nsteps; i++) {
            last = sub->ranks[r].steps[i].round > last ? sub->ranks[r].steps[i].round : last;
        }
    }
    for (int x = 0; x < s->nranks; x++) {
        compose_rank(s, g, sub, x, last);
    }
}

int swai_gen_levels(struct swai_sched *s, const char *algo, enum swai_coll coll, int nranks,
                    const struct swai_gen_opts *o, char *why, size_t n)
{
    struct swai_gen_opts so = { .nhr_order = o->nhr_order, .nhr_split = o->nhr_split };
    struct swai_sched sub;
    struct swai_gen_nodes g;
    int ret;

    memset(s, 0, sizeof(*s));
    if (coll != SWAI_COLL_ALLREDUCE || !o->node_of) {
        snprintf(why, n, "levels: AllReduce only, over the ranks' nodes");
        return -EINVAL;
    }
    if (nranks < 1 || nranks > SWAI_SCHED_MAX_RANKS) {
        snprintf(why, n, "%d ranks (1..%d)", nranks, SWAI_SCHED_MAX_RANKS);
        return -EINVAL;
    }
    ret = swai_gen_nodes_make(&g, o->node_of, nranks, NULL, why, n);
    if (ret) {
        return ret;
    }
    if (g.m == 1 || g.n == 1) {
        /* One level only: the algorithm as it is. */
        swai_gen_nodes_free(&g);
        return swai_gen_build(s, algo, coll, nranks, o, why, n);
    }
    ret = swai_gen_build(&sub, algo, coll, g.n, &so, why, n);
    if (!ret && ((uint64_t)sub.chunks + sub.scratch_chunks) * (uint64_t)g.m >
        SWAI_SCHED_MAX_CHUNKS) {
        snprintf(why, n, "levels: %u chunks a plane x %d planes", sub.chunks, g.m);
        swai_sched_free(&sub);
        ret = -EINVAL;
    }
    if (ret) {
        swai_gen_nodes_free(&g);
        return ret;
    }
    ret = swai_sched_init(s, sub.name, coll, nranks, 0, sub.chunks * (uint32_t)g.m);
    if (!ret) {
        s->scratch_chunks = (sub.chunks + sub.scratch_chunks) * (uint32_t)g.m;
        compose(s, &g, &sub);
        ret = s->err;
    }
    if (!ret) {
        ret = swai_sched_autodeps(s);
    }
    if (ret) {
        snprintf(why, n, ret == -ENOMEM ? "out of memory" : "levels: a bad step (%d)", ret);
        swai_sched_free(s);
    }
    swai_sched_free(&sub);
    swai_gen_nodes_free(&g);
    return ret;
}
