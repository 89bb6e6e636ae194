/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-mteg-reroute.c - ours: a local improvement pass over a plan's trees
 * (swai-mteg.h, swai_mteg_reroute): rip up a tree that ends late, plan it
 * again by earliest arrival around all the others, keep it if the plan
 * got better.  AllToAll's demands are paths, planned again the same way
 * (swai_mteg_path_ea, from the path's first card to its last).
 *
 * The trees were planned one after another, so each found the links as the
 * trees before it left them, not as the trees after it took them; a tree
 * planned again now sees every other tree where it is.  "Better" is the
 * last arrival earlier, or as early with fewer trees arriving then, then
 * fewer a slot before, ... (@depth slots deep): plateau moves -- the last
 * few trees often can only be moved one at a time, each freeing a slot the
 * next one needs, and the trees just before them are in the way of both.
 * The trees tried are those that end within @depth slots of the last.  The
 * pass ends when each of them has been tried once since the last move, or
 * after @max_tries.
 *
 * The reroute stops where no late tree can move alone.  The kick
 * (swai_mteg_kick) moves trees that are not late, at random, for the
 * caller to reroute from there: an iterated local search.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-mteg.h"

#define MAX_DEPTH 4

/* A plan's score: its last arrival, then how many trees end there, a slot before, ... */
struct score {
    int end;
    int n[MAX_DEPTH];
};

static int tree_end(const struct swai_mteg *m, const struct swai_mteg_hop *h, int n)
{
    int end = 0;

    for (int k = 0; k < n; k++) {
        int at = h[k].t + m->e[h[k].e].L;

        end = at > end ? at : end;
    }
    return end;
}

/* The score of a plan whose trees end at @ends. */
static struct score plan_score(const int *ends, int ntrees, int depth)
{
    struct score s = { 0 };

    for (int i = 0; i < ntrees; i++) {
        s.end = ends[i] > s.end ? ends[i] : s.end;
    }
    for (int i = 0; i < ntrees; i++) {
        int back = s.end - ends[i];

        if (back < depth) {
            s.n[back]++;
        }
    }
    return s;
}

static bool better(const struct score *a, const struct score *b, int depth)
{
    if (a->end != b->end) {
        return a->end < b->end;
    }
    for (int d = 0; d < depth; d++) {
        if (a->n[d] != b->n[d]) {
            return a->n[d] < b->n[d];
        }
    }
    return false;
}

/* The trees that end within @depth slots of the last. */
static int late_trees(const struct score *s, int depth)
{
    int n = 0;

    for (int d = 0; d < depth; d++) {
        n += s->n[d];
    }
    return n;
}

int swai_mteg_reroute(struct swai_mteg *m, int ntrees, size_t room, struct swai_mteg_hop *hops,
                      int *nhops, int *slots, int depth, int max_tries)
{
    bool paths = room < (size_t)m->ncards * (size_t)m->ncards;   /* AllToAll's demands */
    struct swai_mteg_hop *was = malloc(room * sizeof(*was));
    int *arrive = malloc((size_t)m->ncards * sizeof(*arrive)), ret = 0, fails = 0, next = 0;
    int *ends = malloc(((size_t)ntrees + 1) * sizeof(*ends));   /* each tree's, kept up to date */
    struct score now;

    if (!was || !arrive || !ends) {
        ret = -ENOMEM;
        goto out;
    }
    depth = depth < 1 ? 1 : depth > MAX_DEPTH ? MAX_DEPTH : depth;
    for (int i = 0; i < ntrees; i++) {
        ends[i] = tree_end(m, &hops[(size_t)i * room], nhops[i]);
    }
    now = plan_score(ends, ntrees, depth);
    for (int tries = 0; tries < max_tries && fails < late_trees(&now, depth); tries++) {
        struct swai_mteg_hop *h = NULL;
        struct score then;
        int i = -1, n0, end0;

        /* the next late tree, round the plan from the one tried before */
        for (int j = 0; j < ntrees && i < 0; j++) {
            int k = (next + j) % ntrees;

            if (nhops[k] && ends[k] > now.end - depth) {
                i = k;
            }
        }
        if (i < 0) {
            break;
        }
        next = i + 1;
        h = &hops[(size_t)i * room];
        n0 = nhops[i];
        end0 = ends[i];
        memcpy(was, h, (size_t)n0 * sizeof(*was));
        swai_mteg_take_trees(m, 1, room, h, &n0, false);
        if (paths) {
            ret = swai_mteg_path_ea(m, m->e[was[0].e].u, m->e[was[n0 - 1].e].v, h, &nhops[i],
                                    &ends[i]);
        } else {
            ret = swai_mteg_tree_ea(m, m->e[was[0].e].u, h, &nhops[i], arrive);
            ends[i] = tree_end(m, h, nhops[i]);
        }
        if (ret && ret != -ENOSPC) {
            break;
        }
        if (!ret) {
            then = plan_score(ends, ntrees, depth);
            if (better(&then, &now, depth)) {
                now = then;
                fails = 0;
                continue;
            }
        }
        /* no better (or it no longer fits in H): the tree as it was */
        ret = 0;
        swai_mteg_take_trees(m, 1, room, h, &nhops[i], false);
        memcpy(h, was, (size_t)n0 * sizeof(*was));
        nhops[i] = n0;
        ends[i] = end0;
        swai_mteg_take_trees(m, 1, room, h, &n0, true);
        fails++;
    }
    *slots = now.end;
out:
    free(was);
    free(arrive);
    free(ends);
    return ret;
}

int swai_mteg_kick(struct swai_mteg *m, int ntrees, size_t room, struct swai_mteg_hop *hops,
                   int *nhops, int k, uint64_t *seed, int *slots)
{
    int *pick = malloc(((size_t)k + 1) * sizeof(*pick));
    int *src = malloc(((size_t)k + 1) * sizeof(*src));
    int *arrive = malloc((size_t)m->ncards * sizeof(*arrive)), ret = 0, n = 0;
    bool *out = calloc((size_t)ntrees + 1, sizeof(*out));

    if (!pick || !src || !arrive || !out) {
        ret = -ENOMEM;
        goto out;
    }
    for (int i = 0; i < k; i++) {
        int t;

        /* Knuth's MMIX constants; the high bits, the good ones */
        *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
        t = (int)((*seed >> 33) % (uint64_t)ntrees);
        if (!out[t] && nhops[t]) {
            out[t] = true;
            /* its source: where its first hop leaves (a Broadcast's trees are all the root's) */
            src[n] = m->e[hops[(size_t)t * room].e].u;
            pick[n++] = t;
            swai_mteg_take_trees(m, 1, room, &hops[(size_t)t * room], &nhops[t], false);
        }
    }
    for (int i = 0; !ret && i < n; i++) {
        ret = swai_mteg_tree_ea(m, src[i], &hops[(size_t)pick[i] * room],
                                &nhops[pick[i]], arrive);
    }
    *slots = 0;
    for (int i = 0; !ret && i < ntrees; i++) {
        int end = tree_end(m, &hops[(size_t)i * room], nhops[i]);

        *slots = end > *slots ? end : *slots;
    }
out:
    free(pick);
    free(src);
    free(arrive);
    free(out);
    return ret;
}
