/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-replicate.c - ours: AllGather on K nodes alike as node 0's own
 * AllGather of K times the chunks, on every node (swai-mteg-trees.h,
 * swai_mteg_replicate).
 *
 * Inside a node the K nodes' AllGather is node 0's of K blocks a place:
 * every card takes in its own node's blocks and, through the card in its
 * place, every other node's.  AMD x 2 at 64 MiB in 16 chunks moves the
 * bytes one AMD chassis moves in 32 chunks of the same size, and one
 * chassis planned alone ends at 309 slots where the plan of both ends at
 * 320 (the bound 302): the trees of 32 cards are planned and searched
 * around each other, those of 16 twice as often in the same time.
 *
 * So node 0 alone (swai_topo_scale to one node) is planned for K x chunks
 * chunks a block (by the caller, swai-mtegcca.c, which plans), and source s of node a, place i, chunk c becomes a tree
 * of the whole topology: node 0's tree (i, c x K) in node a, then for
 * every other node b the edge from s to the card in place i there and
 * node 0's tree (i, c x K + (b - a) mod K) in node b: a block's chunk c from
 * another node comes right after the own block's chunk c in node 0's
 * plan, as it reaches the card in its place later (one chunk at a time
 * over the switches), and list timing of the whole plan (the caller's)
 * moves its trees after it.  With the other nodes' chunks after all the
 * own ones instead, AMD x 2 ends at 319 slots; interleaved, at 313.  Node
 * 0 is planned on its direct links only (SWAI_MTEG_DIRECT): its switches'
 * links are the way between the nodes, and on them its own routes took
 * the slots the blocks from the other chassis needed (timed at 568 slots).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "swai-mteg-trees.h"

/* Node 0 planned alone has at most this many cards (its own DFS stack). */
#define SWAI_MTEG_REPLICATE_MAX 256

/* Are node 0's @n cards (@card) joined by direct links (edges of one hop) of @m? */
static bool direct_joined(const struct swai_mteg *m, const int *card, int n)
{
    bool seen[SWAI_MTEG_REPLICATE_MAX] = { false };
    int stack[SWAI_MTEG_REPLICATE_MAX], top = 0, reached = 1;

    if (n > SWAI_MTEG_REPLICATE_MAX) {
        return false;
    }
    seen[0] = true;
    stack[top++] = 0;
    while (top) {
        int i = stack[--top];

        for (int j = 0; j < n; j++) {
            int e = seen[j] ? -1 : swai_mteg_edge_to(m, card[i], card[j]);

            if (e >= 0 && m->e[e].nlinks == 1) {
                seen[j] = true;
                stack[top++] = j;
                reached++;
            }
        }
    }
    return reached == n;
}

/* Node 0's tree @st (on @sm) into node @b of @m at @h; its hops, or -ENOTSUP. */
static int map_tree(const struct swai_mteg *m, const struct swai_mteg *sm,
                    const struct swai_mteg_hop *st, int nst, const int *card, int n, int b,
                    struct swai_mteg_hop *h)
{
    for (int k = 0; k < nst; k++) {
        const struct swai_mteg_edge *e = &sm->e[st[k].e];
        int x = swai_mteg_edge_to(m, card[b * n + e->u], card[b * n + e->v]);

        if (x < 0) {
            return -ENOTSUP;
        }
        h[k] = (struct swai_mteg_hop){ x, 0 };
    }
    return nst;
}

int swai_mteg_replicate_nodes(const struct swai_mteg *m, const struct swai_mteg_trees *p)
{
    int N = m->ncards, n = 0, ret;
    int *card = malloc((size_t)N * sizeof(*card)), *place = malloc((size_t)N * sizeof(*place));

    ret = !card || !place ? -ENOMEM :
          p->coll != SWAI_COLL_ALLGATHER || m->nnodes < 2 ||
          (p->flags & (SWAI_MTEG_TM | SWAI_MTEG_CARD | SWAI_MTEG_SEED)) ? -ENOTSUP :
          swai_mteg_places(m, card, place, &n);
    if (!ret && !direct_joined(m, card, n)) {
        ret = -ENOTSUP;     /* node 0's cards meet only through switches (DGX-2) */
    }
    free(card);
    free(place);
    return ret ? ret : n;
}

int swai_mteg_replicate(const struct swai_mteg *m, const struct swai_mteg_trees *p,
                        const struct swai_mteg_plan *sub, struct swai_mteg_hop **hops,
                        int **nhops)
{
    int N = m->ncards, K = m->nnodes, n = 0;
    size_t room = swai_mteg_room(p->coll, N), ntrees = (size_t)N * p->chunks;
    int *card = malloc((size_t)N * sizeof(*card)), *place = malloc((size_t)N * sizeof(*place));
    int ret = !card || !place ? -ENOMEM : swai_mteg_places(m, card, place, &n);

    *hops = malloc(ntrees * room * sizeof(**hops));
    *nhops = calloc(ntrees, sizeof(**nhops));
    if (!ret && (!*hops || !*nhops)) {
        ret = -ENOMEM;
    }
    if (!ret && (sub->m.ncards != n || sub->ntrees != n * K * (int)p->chunks)) {
        ret = -ENOTSUP;     /* not node 0 planned for K x chunks */
    }
    for (int s = 0; !ret && s < N; s++) {
        int a = m->node_of[s], i = place[s];

        for (uint32_t c = 0; !ret && c < p->chunks; c++) {
            struct swai_mteg_hop *h = &(*hops)[((size_t)s * p->chunks + c) * room];
            int nh = 0;

            for (int j = 0; !ret && j < K; j++) {
                int b = (a + j) % K;
                size_t st = (size_t)i * K * p->chunks + (size_t)c * K + (size_t)j;

                if (j) {    /* into node b at the card in place i */
                    int x = swai_mteg_edge_to(m, s, card[b * n + i]);

                    if (x < 0) {
                        ret = -ENOTSUP;
                        break;
                    }
                    h[nh++] = (struct swai_mteg_hop){ x, 0 };
                }
                ret = map_tree(m, &sub->m, &sub->hops[st * sub->room], sub->nhops[st], card,
                               n, b, &h[nh]);
                nh += ret > 0 ? ret : 0;
                ret = ret < 0 ? ret : 0;
            }
            (*nhops)[(size_t)s * p->chunks + c] = nh;
        }
    }
    if (ret) {
        free(*hops);
        free(*nhops);
        *hops = NULL;
        *nhops = NULL;
    }
    free(card);
    free(place);
    return ret;
}
