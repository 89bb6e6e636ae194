/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-nodes.c - the ranks grouped by their nodes into planes, for
 * the generators that work in levels (PLANE, swai_gen_levels; swai-gen.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "swai-gen.h"

void swai_gen_nodes_free(struct swai_gen_nodes *g)
{
    free(g->node);
    free(g->plane);
    free(g->member);
    free(g->size);
    *g = (struct swai_gen_nodes){ 0 };
}

int swai_gen_nodes_make(struct swai_gen_nodes *g, const int *node_of, int N, const char *who,
                        char *why, size_t wn)
{
    int *id = calloc((size_t)N, sizeof(*id));

    *g = (struct swai_gen_nodes){ 0 };
    g->node = calloc((size_t)N, sizeof(int));
    g->plane = calloc((size_t)N, sizeof(int));
    g->size = calloc((size_t)N, sizeof(int));
    if (!id || !g->node || !g->plane || !g->size) {
        goto nomem;
    }
    for (int r = 0; r < N; r++) {
        int b = 0, key = node_of ? node_of[r] : r;

        while (b < g->n && id[b] != key) {
            b++;
        }
        if (b == g->n) {
            id[g->n++] = key;
        }
        g->node[r] = b;
        g->plane[r] = g->size[b]++;
        g->m = g->size[b] > g->m ? g->size[b] : g->m;
    }
    for (int b = 1; who && b < g->n; b++) {
        if (g->size[b] != g->size[0]) {
            snprintf(why, wn, "%s needs the same number of ranks on every "
                     "node: node %d has %d, node %d has %d", who, id[0], g->size[0],
                     id[b], g->size[b]);
            free(id);
            swai_gen_nodes_free(g);
            return -EINVAL;
        }
    }
    g->member = calloc((size_t)g->n * (size_t)g->m, sizeof(int));
    if (!g->member) {
        goto nomem;
    }
    g->consecutive = true;
    for (int r = 0; r < N; r++) {
        g->member[g->node[r] * g->m + g->plane[r]] = r;
    }
    for (int r = 0; r < N; r++) {
        g->consecutive &= r == g->member[g->node[r] * g->m] + g->plane[r];
    }
    free(id);
    return 0;
nomem:
    free(id);
    swai_gen_nodes_free(g);
    snprintf(why, wn, "out of memory");
    return -ENOMEM;
}
