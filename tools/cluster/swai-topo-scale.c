/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-topo-scale.c - a topology of @nodes nodes built after the pattern of
 * node 0 of a preset (swai-topo.h): TE-CCL's NDv2 x k from ndv2x2 (each
 * chassis's NVLink cube-mesh, GPU 0 up to the InfiniBand switch and the
 * switch down to GPU 1), so the file stays the one description of a
 * chassis and its uplinks, whatever the count.
 *
 * Every node gets node 0's cards; every link of node 0 -- among its own
 * cards, or between one of them and a switch -- is made again for each
 * node; switches are kept.  Links between two nodes' cards directly (a
 * DGX-2 pair's crossing links) have no pattern to follow and are refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-topo.h"

/* Device @d of @in (a card of node 0, or a switch) in @out, for node @k. */
static int dev_for(const struct swai_topo *in, const int *sw, int d, int k, int per)
{
    const struct swai_topo_dev *dv = &in->devs[d];

    if (dv->kind == SWAI_TOPO_SWITCH) {
        return sw[d];
    }
    return k * per + dv->card;  /* cards first, node by node (see below) */
}

int swai_topo_scale(struct swai_topo *out, const struct swai_topo *in, int nodes,
                    char *why, size_t n)
{
    const struct swai_topo_node *n0 = in->nnodes ? &in->nodes[0] : NULL;
    int per, cgs, ret = -EINVAL;
    int *sw;    /* @in's switch -> @out's */

    swai_topo_init(out);
    if (!n0 || nodes < 1 || nodes > 4096) {
        snprintf(why, n, "%s: %d nodes after node 0's pattern (1..4096, a topology with nodes)",
                 in->name, nodes);
        return -EINVAL;
    }
    sw = malloc((size_t)in->ndevs * sizeof(*sw));
    if (!sw) {
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
    for (int d = 0; d < in->ndevs; d++) {
        sw[d] = -1;
        if (in->devs[d].kind == SWAI_TOPO_SWITCH &&
            (sw[d] = swai_topo_add_switch(out, in->devs[d].name, in->devs[d].latency_ns,
                                          why, n)) < 0) {
            goto fail;
        }
    }
    for (int k = 0; k < nodes; k++) {
        for (int i = 0; i < in->nlinks; i++) {
            const struct swai_topo_link *l = &in->links[i];
            const struct swai_topo_dev *a = &in->devs[l->a], *b = &in->devs[l->b];
            bool a0 = a->kind == SWAI_TOPO_CARD && a->node == 0;
            bool b0 = b->kind == SWAI_TOPO_CARD && b->node == 0;
            struct swai_topo_link nl = *l;

            if ((a->kind == SWAI_TOPO_CARD && !a0 && b0) ||
                (b->kind == SWAI_TOPO_CARD && !b0 && a0)) {
                snprintf(why, n, "%s: a link between the cards of two nodes (%s-%s) has no "
                         "pattern to scale", in->name, a->name, b->name);
                goto fail;
            }
            if (!a0 && !b0) {
                continue;   /* another node's, or between switches: once, below */
            }
            nl.a = a0 ? out->card_dev[dev_for(in, sw, l->a, k, per)] : sw[l->a];
            nl.b = b0 ? out->card_dev[dev_for(in, sw, l->b, k, per)] : sw[l->b];
            if (swai_topo_add_link(out, &nl, why, n) < 0) {
                goto fail;
            }
        }
    }
    for (int i = 0; i < in->nlinks; i++) {
        const struct swai_topo_link *l = &in->links[i];
        struct swai_topo_link nl = *l;

        if (in->devs[l->a].kind != SWAI_TOPO_SWITCH || in->devs[l->b].kind != SWAI_TOPO_SWITCH) {
            continue;
        }
        nl.a = sw[l->a];
        nl.b = sw[l->b];
        if (swai_topo_add_link(out, &nl, why, n) < 0) {
            goto fail;
        }
    }
    ret = -ENOMEM;
    if (swai_topo_finish(out)) {
        snprintf(why, n, "out of memory");
        goto fail;
    }
    free(sw);
    return 0;
fail:
    swai_topo_free(out);
    free(sw);
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
