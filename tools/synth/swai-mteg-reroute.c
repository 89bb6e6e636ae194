/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-reroute.c - ours: a local improvement pass over a plan's trees
 * (swai-mteg.h, swai_mteg_reroute): rip up a tree that ends last, plan it
 * again by earliest arrival around all the others, keep it if the plan
 * got better.
 *
 * The trees were planned one after another, so each found the links as the
 * trees before it left them, not as the trees after it took them; a tree
 * that ends last, planned again now, sees every other tree where it is.
 * "Better" is the last arrival earlier, or as early with fewer trees
 * arriving then -- a plateau move: the last few trees often can only be
 * moved one at a time, each freeing a slot the next one needs.  The pass
 * ends when every tree that ends last has been tried once since the last
 * move, or after @max_tries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"

static int tree_end(const struct swai_mteg *m, const struct swai_mteg_hop *h, int n)
{
    int end = 0;

    for (int k = 0; k < n; k++) {
        int at = h[k].t + m->e[h[k].e].L;

        end = at > end ? at : end;
    }
    return end;
}

/* The plan's last arrival, and *at_end how many trees end there. */
static int plan_end(const struct swai_mteg *m, int ntrees, size_t room,
                    const struct swai_mteg_hop *hops, const int *nhops, int *at_end)
{
    int end = 0;

    *at_end = 0;
    for (int i = 0; i < ntrees; i++) {
        int e = tree_end(m, &hops[(size_t)i * room], nhops[i]);

        *at_end = e > end ? 1 : *at_end + (e == end);
        end = e > end ? e : end;
    }
    return end;
}

static void take_all(struct swai_mteg *m, const struct swai_mteg_hop *h, int n, bool on)
{
    for (int k = 0; k < n; k++) {
        swai_mteg_take(m, &h[k], on);
    }
}

int swai_mteg_reroute(struct swai_mteg *m, int ntrees, size_t room, struct swai_mteg_hop *hops,
                      int *nhops, int *slots, int max_tries)
{
    struct swai_mteg_hop *was = malloc(room * sizeof(*was));
    int *arrive = malloc((size_t)m->ncards * sizeof(*arrive)), ret = 0, cnt, fails = 0;
    int end = plan_end(m, ntrees, room, hops, nhops, &cnt), next = 0;

    if (!was || !arrive) {
        ret = -ENOMEM;
        goto out;
    }
    for (int tries = 0; tries < max_tries && fails < cnt; tries++) {
        struct swai_mteg_hop *h = NULL;
        int i = -1, n0, now, now_cnt = 0;

        /* the next tree that ends last, round the plan from the one tried before */
        for (int j = 0; j < ntrees && i < 0; j++) {
            int k = (next + j) % ntrees;

            if (nhops[k] && tree_end(m, &hops[(size_t)k * room], nhops[k]) >= end) {
                i = k;
            }
        }
        if (i < 0) {
            break;
        }
        next = i + 1;
        h = &hops[(size_t)i * room];
        n0 = nhops[i];
        memcpy(was, h, (size_t)n0 * sizeof(*was));
        take_all(m, h, n0, false);
        ret = swai_mteg_tree_ea(m, m->e[was[0].e].u, h, &nhops[i], arrive);
        if (ret && ret != -ENOSPC) {
            break;
        }
        now = ret ? end + 1 : plan_end(m, ntrees, room, hops, nhops, &now_cnt);
        ret = 0;
        if (now < end || (now == end && now_cnt < cnt)) {
            end = now;
            cnt = now_cnt;
            fails = 0;
            continue;
        }
        /* no better (or it no longer fits in H): the tree as it was */
        take_all(m, h, nhops[i], false);
        memcpy(h, was, (size_t)n0 * sizeof(*was));
        nhops[i] = n0;
        take_all(m, h, n0, true);
        fails++;
    }
    *slots = end;
out:
    free(was);
    free(arrive);
    return ret;
}
