/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-topo-scale.c - a topology of @nodes nodes built after the pattern of
 * node 0 of a preset (swai-topo.h): TE-CCL's NDv2 x k from ndv2x2 (each
 * chassis's NVLink cube-mesh, GPU 0 up to the InfiniBand switch and the
 * switch down to GPU 1), so the file stays the one description of a
 * chassis and its uplinks, whatever the count.
 *
 * Every node gets node 0's cards and node 0's own switches (AMD x k's
 * switch under every two GPUs); every link of node 0 -- among its cards
 * and switches, or up to a switch between nodes -- is made again for each
 * node; the switches between nodes are kept once.  Links between two
 * nodes' cards directly (a DGX-2 pair's crossing links) have no pattern to
 * follow and are refused.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-topo.h"

#define SHARED  (-1)    /* a switch between nodes (NDv2 x k's InfiniBand): kept once */
#define OTHER   (-2)    /* another node's switch: node 0's copies stand for it */

/*
 * Which node a switch belongs to: the one node whose cards (or whose own
 * switches) are all it joins, beside switches between nodes -- AMD x k's
 * switch under every two GPUs of a chassis, or a chassis's aggregation
 * switch above them; SHARED when it joins devices of two nodes or none.
 * Node 0's are made again for every node; another node's are dropped.
 */
static int *switch_owners(const struct swai_topo *in)
{
    int *own = malloc((size_t)in->ndevs * sizeof(*own));
    bool changed = true;

    if (!own) {
        return NULL;
    }
    for (int d = 0; d < in->ndevs; d++) {
        own[d] = in->devs[d].kind == SWAI_TOPO_CARD ? in->devs[d].node : SHARED;
    }
    /* a switch's node from its neighbours' nodes, until nothing changes */
    for (int round = 0; changed && round <= in->ndevs; round++) {
        changed = false;
        for (int d = 0; d < in->ndevs; d++) {
            int node = SHARED;
            bool mixed = false;

            if (in->devs[d].kind != SWAI_TOPO_SWITCH) {
                continue;
            }
            for (int i = 0; i < in->nlinks; i++) {
                int o = in->links[i].a == d ? in->links[i].b :
                        in->links[i].b == d ? in->links[i].a : -1;

                if (o < 0 || own[o] == SHARED) {
                    continue;
                }
                mixed |= node != SHARED && node != own[o];
                node = own[o];
            }
            node = mixed ? SHARED : node;
            changed |= node != own[d];
            own[d] = node;
        }
    }
    for (int d = 0; d < in->ndevs; d++) {
        if (in->devs[d].kind == SWAI_TOPO_SWITCH && own[d] > 0) {
            own[d] = OTHER;
        }
    }
    return own;
}

/* Device @d of @in (a card or switch of node 0, or a shared switch) in @out, for node @k. */
static int dev_for(const struct swai_topo *in, const struct swai_topo *out, const int *map,
                   int d, int k, int per)
{
    const struct swai_topo_dev *dv = &in->devs[d];

    if (dv->kind == SWAI_TOPO_SWITCH) {
        return map[(size_t)k * (size_t)in->ndevs + (size_t)d];
    }
    return out->card_dev[k * per + dv->card];   /* cards first, node by node */
}

/* Node @k's copy of node 0's switches, and the shared ones (k 0 only), into @map. */
static int add_switches(struct swai_topo *out, const struct swai_topo *in, const int *own,
                        int *map, int k, char *why, size_t n)
{
    for (int d = 0; d < in->ndevs; d++) {
        size_t at = (size_t)k * (size_t)in->ndevs + (size_t)d;
        char name[SWAI_TOPO_NAME];

        if (in->devs[d].kind != SWAI_TOPO_SWITCH || own[d] == OTHER) {
            map[at] = -1;
            continue;
        }
        if (own[d] == SHARED && k) {
            map[at] = map[d];
            continue;
        }
        snprintf(name, sizeof(name), k ? "%.20s_n%d" : "%.20s", in->devs[d].name, k);
        map[at] = swai_topo_add_switch(out, name, in->devs[d].latency_ns, why, n);
        if (map[at] < 0) {
            return map[at];
        }
    }
    return 0;
}

/*
 * Node @k's copy of link @l when it touches node 0 (its cards or
 * switches); a link between shared switches once, with k 0.  1 made, 0
 * not, -errno.
 */
static int add_link(struct swai_topo *out, const struct swai_topo *in, const int *own,
                    const int *map, const struct swai_topo_link *l, int k, int per,
                    char *why, size_t n)
{
    const struct swai_topo_dev *a = &in->devs[l->a], *b = &in->devs[l->b];
    struct swai_topo_link nl = *l;
    bool a0 = own[l->a] == 0, b0 = own[l->b] == 0;

    if (a->kind == SWAI_TOPO_CARD && b->kind == SWAI_TOPO_CARD && a->node != b->node &&
        (a0 || b0)) {
        snprintf(why, n, "%s: a link between the cards of two nodes (%s-%s) has no "
                 "pattern to scale", in->name, a->name, b->name);
        return -EINVAL;
    }
    if (own[l->a] == OTHER || own[l->b] == OTHER ||
        (a->kind == SWAI_TOPO_CARD && !a0) || (b->kind == SWAI_TOPO_CARD && !b0) ||
        (!a0 && !b0 && k)) {
        return 0;   /* another node's, or between shared switches and made with k 0 */
    }
    nl.a = dev_for(in, out, map, l->a, k, per);
    nl.b = dev_for(in, out, map, l->b, k, per);
    return swai_topo_add_link(out, &nl, why, n) < 0 ? -EINVAL : 1;
}

int swai_topo_scale(struct swai_topo *out, const struct swai_topo *in, int nodes,
                    char *why, size_t n)
{
    const struct swai_topo_node *n0 = in->nnodes ? &in->nodes[0] : NULL;
    int per, cgs, ret = -EINVAL;
    int *map = NULL, *own = NULL;   /* @in's switch, per node -> @out's */

    swai_topo_init(out);
    if (!n0 || nodes < 1 || nodes > 4096) {
        snprintf(why, n, "%s: %d nodes after node 0's pattern (1..4096, a topology with nodes)",
                 in->name, nodes);
        return -EINVAL;
    }
    map = malloc((size_t)nodes * (size_t)in->ndevs * sizeof(*map));
    own = switch_owners(in);
    if (!map || !own) {
        free(map);
        free(own);
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    per = n0->ncards;
    cgs = in->devs[in->card_dev[0]].cgs;
    snprintf(out->name, sizeof(out->name), "%.40s/%d", in->name, nodes);
    out->ecmp = in->ecmp;
    /* the cards, node by node, so card k*per + c is node k's card c */
    for (int k = 0; k < nodes; k++) {
        char name[SWAI_TOPO_NAME];

        snprintf(name, sizeof(name), "n%d", k);
        if (swai_topo_add_node(out, name, per, cgs, why, n) < 0) {
            goto fail;
        }
    }
    for (int k = 0; k < nodes; k++) {
        if (add_switches(out, in, own, map, k, why, n) < 0) {
            goto fail;
        }
    }
    for (int k = 0; k < nodes; k++) {
        for (int i = 0; i < in->nlinks; i++) {
            if (add_link(out, in, own, map, &in->links[i], k, per, why, n) < 0) {
                goto fail;
            }
        }
    }
    ret = -ENOMEM;
    if (swai_topo_finish(out)) {
        snprintf(why, n, "out of memory");
        goto fail;
    }
    free(map);
    free(own);
    return 0;
fail:
    swai_topo_free(out);
    free(map);
    free(own);
    return ret;
}

int swai_topo_load_nodes(struct swai_topo *t, const char *path_or_preset, int nodes,
                         char *why, size_t n)
{
    struct swai_topo one;
    int ret = swai_topo_load(&one, path_or_preset, why, n);

    if (ret || !nodes) {
        *t = one;
        return ret;
    }
    ret = swai_topo_scale(t, &one, nodes, why, n);
    swai_topo_free(&one);
    return ret;
}
