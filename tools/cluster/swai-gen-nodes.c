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
}

int swai_gen_nodes_make(struct swai_gen_nodes *g, const int *node_of, int N, const char *who,
                        char *why, size_t wn)
{
    int *id = calloc((size_t)N, sizeof(*id)), *cnt = calloc((size_t)N, sizeof(*cnt));
    int ret = 0;

    *g = (struct swai_gen_nodes){ 0 };
    g->node = calloc((size_t)N, sizeof(int));
    g->plane = calloc((size_t)N, sizeof(int));
    g->member = calloc((size_t)N, sizeof(int));
    if (!id || !cnt || !g->node || !g->plane || !g->member) {
        snprintf(why, wn, "out of memory");
        ret = -ENOMEM;
        goto out;
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
        g->plane[r] = cnt[b]++;
    }
    g->m = cnt[0];
    for (int b = 1; b < g->n; b++) {
        if (cnt[b] != g->m) {
            snprintf(why, wn, "%s needs the same number of ranks on every "
                     "node: node %d has %d, node %d has %d", who, id[0], cnt[0],
                     id[b], cnt[b]);
            ret = -EINVAL;
            goto out;
        }
    }
    g->consecutive = true;
    for (int r = 0; r < N; r++) {
        g->member[g->node[r] * g->m + g->plane[r]] = r;
    }
    for (int r = 0; r < N; r++) {
        if (r != g->member[g->node[r] * g->m] + g->plane[r]) {
            g->consecutive = false;
        }
    }
out:
    free(id);
    free(cnt);
    if (ret) {
        swai_gen_nodes_free(g);
    }
    return ret;
}
