/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-plane.c - PLANE: seed 002's plane-hierarchical AllToAll.
 *
 * n nodes of m ranks; the j-th rank of every node (in rank order) forms
 * plane j.  Which rank is on which node is the caller's grouping
 * (swai_gen_opts.node_of, from the topology file: the patent's "grouping
 * information", its S701); every node must have the same number of ranks.
 *
 *   round 0, inside each node: rank (a, j) gives the rank (a, p) of its
 *            node in plane p each block bound for plane p -- the one for
 *            (a, p) itself straight into its output, the others into its
 *            scratch row of their node, column j; its own plane's blocks
 *            it copies into its own rows.
 *   round 1, inside each plane: rank (a, p) sends each other node b's row
 *            (m blocks: node a's ranks' blocks for (b, p)) to (b, p) as one
 *            message, which lands in (b, p)'s output at node a's ranks
 *            (through scratch and copies when those ranks are not
 *            consecutive).
 *
 * Messages between nodes: m n (n - 1), of m blocks each, against DIRECT's
 * m^2 n (n - 1) of one block: m times fewer, as the patent claims.
 * Scratch: (n - 1) m chunks a rank, twice that when a node's ranks are not
 * consecutive or the caller wants every message through scratch
 * (swai_gen_opts.via_scratch: AllToAllv).
 */
#include <errno.h>
#include <stdio.h>

#include "swai-gen.h"

/* Node @b's row in the scratch of a rank of node @a (b != a). */
static uint32_t row(const struct swai_gen_nodes *g, int a, int b)
{
    return (uint32_t)((b < a ? b : b - 1) * g->m);
}

/* Round 0: rank x = (a, j) and the ranks of its node. */
static void inside_node(struct swai_sched *s, const struct swai_gen_nodes *g, int x)
{
    int a = g->node[x], j = g->plane[x], m = g->m;

    for (int p = 0; p < m; p++) {
        int peer = g->member[a * m + p];

        for (int b = 0; b < g->n; b++) {
            int y = g->member[b * m + p];

            if (p == j) {
                swai_sched_copy(s, x, SWAI_BUF_IN, (uint32_t)y,
                                b == a ? SWAI_BUF_OUT : SWAI_BUF_SCRATCH,
                                b == a ? (uint32_t)x : row(g, a, b) + (uint32_t)j,
                                1, 0);
            } else {
                swai_sched_send(s, x, peer, SWAI_BUF_IN, (uint32_t)y, 1, 0);
            }
        }
    }
    for (int q = 0; q < m; q++) {
        int from = g->member[a * m + q];

        if (q == j) {
            continue;
        }
        for (int b = 0; b < g->n; b++) {
            swai_sched_recv(s, x, from, b == a ? SWAI_BUF_OUT : SWAI_BUF_SCRATCH,
                            b == a ? (uint32_t)from : row(g, a, b) + (uint32_t)q,
                            1, 0);
        }
    }
}

/* Round 1: rank x = (a, p) and the ranks of its plane. */
/*
 * @whole: a plane's message lands in the output whole (every node's ranks
 * consecutive, and the caller did not ask for scratch).
 */
static void inside_plane(struct swai_sched *s, const struct swai_gen_nodes *g, bool whole, int x)
{
    int a = g->node[x], p = g->plane[x], m = g->m;
    uint32_t recv_at = (uint32_t)((g->n - 1) * m);

    for (int b = 0; b < g->n; b++) {
        if (b != a) {
            swai_sched_send(s, x, g->member[b * m + p], SWAI_BUF_SCRATCH,
                            row(g, a, b), (uint32_t)m, 1);
        }
    }
    for (int b = 0; b < g->n; b++) {
        int from = g->member[b * m + p];

        if (b == a) {
            continue;
        }
        if (whole) {
            swai_sched_recv(s, x, from, SWAI_BUF_OUT,
                            (uint32_t)g->member[b * m], (uint32_t)m, 1);
            continue;
        }
        swai_sched_recv(s, x, from, SWAI_BUF_SCRATCH, recv_at + row(g, a, b),
                        (uint32_t)m, 1);
        for (int j = 0; j < m; j++) {
            swai_sched_copy(s, x, SWAI_BUF_SCRATCH,
                            recv_at + row(g, a, b) + (uint32_t)j, SWAI_BUF_OUT,
                            (uint32_t)g->member[b * m + j], 1, 1);
        }
    }
}

static int build(struct swai_sched *s, enum swai_coll coll, int N,
                 const struct swai_gen_opts *o, char *why, size_t n)
{
    struct swai_gen_nodes g;
    int ret = swai_gen_nodes_make(&g, o->node_of, N, "PLANE", why, n);
    bool whole;

    if (ret) {
        return ret;
    }
    whole = g.consecutive && !o->via_scratch;
    if (swai_sched_init(s, "PLANE", coll, N, 0, 1)) {
        swai_gen_nodes_free(&g);
        return -ENOMEM;
    }
    s->scratch_chunks = (uint32_t)((g.n - 1) * g.m) * (whole ? 1 : 2);
    for (int x = 0; x < N; x++) {
        inside_node(s, &g, x);
    }
    for (int x = 0; x < N; x++) {
        inside_plane(s, &g, whole, x);
    }
    swai_gen_nodes_free(&g);
    return 0;
}

const struct swai_gen swai_gen_plane = {
    .name = "PLANE",
    .what = "all-to-all in two rounds, inside each node then inside each "
            "plane (seed 002): m times fewer messages between nodes",
    .colls = 1u << SWAI_COLL_ALLTOALL,
    .build = build,
};
