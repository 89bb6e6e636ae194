/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-topo.c - the topology model: building it, finding devices, and
 * routing between cards (swai-topo.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-topo.h"

void swai_topo_init(struct swai_topo *t)
{
    memset(t, 0, sizeof(*t));
}

void swai_topo_free(struct swai_topo *t)
{
    free(t->description);
    free(t->source);
    free(t->devs);
    free(t->links);
    free(t->nodes);
    free(t->card_dev);
    free(t->adj_off);
    free(t->adj);
    swai_topo_init(t);
}

static bool name_ok(const char *name)
{
    size_t len = strlen(name);

    if (!len || len >= SWAI_TOPO_NAME) {
        return false;
    }
    for (const char *p = name; *p; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
              *p == '-')) {
            return false;
        }
    }
    return true;
}

int swai_topo_find(const struct swai_topo *t, const char *name)
{
    for (int i = 0; i < t->ndevs; i++) {
        if (!strcmp(t->devs[i].name, name)) {
            return i;
        }
    }
    return -1;
}

int swai_topo_card_node(const struct swai_topo *t, int card)
{
    if (card < 0 || card >= t->ncards) {
        return -1;
    }
    return t->devs[t->card_dev[card]].node;
}

static int add_dev(struct swai_topo *t, const struct swai_topo_dev *d,
                   char *why, size_t n)
{
    struct swai_topo_dev *devs;

    if (!name_ok(d->name)) {
        snprintf(why, n, "bad device name \"%s\" (1..%d of [A-Za-z0-9._-])",
                 d->name, SWAI_TOPO_NAME - 1);
        return -1;
    }
    if (swai_topo_find(t, d->name) >= 0) {
        snprintf(why, n, "device \"%s\" named twice", d->name);
        return -1;
    }
    if (t->ndevs >= SWAI_TOPO_MAX_DEVS) {
        snprintf(why, n, "more than %d devices", SWAI_TOPO_MAX_DEVS);
        return -1;
    }
    devs = realloc(t->devs, (size_t)(t->ndevs + 1) * sizeof(*devs));
    if (!devs) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    t->devs = devs;
    devs[t->ndevs] = *d;
    return t->ndevs++;
}

int swai_topo_add_node(struct swai_topo *t, const char *name, int ncards,
                       int cgs, char *why, size_t n)
{
    struct swai_topo_node *nodes;
    int *card_dev;

    if (!name_ok(name)) {
        snprintf(why, n, "bad node name \"%s\"", name);
        return -1;
    }
    for (int i = 0; i < t->nnodes; i++) {
        if (!strcmp(t->nodes[i].name, name)) {
            snprintf(why, n, "node \"%s\" named twice", name);
            return -1;
        }
    }
    if (ncards < 1 || ncards > 4096 || cgs < 1 || cgs > SWAI_TOPO_MAX_CGS) {
        snprintf(why, n, "node \"%s\": %d cards of %d core groups (1..4096 "
                 "cards, 1..%d core groups)", name, ncards, cgs,
                 SWAI_TOPO_MAX_CGS);
        return -1;
    }
    nodes = realloc(t->nodes, (size_t)(t->nnodes + 1) * sizeof(*nodes));
    if (!nodes) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    t->nodes = nodes;
    card_dev = realloc(t->card_dev,
                       (size_t)(t->ncards + ncards) * sizeof(*card_dev));
    if (!card_dev) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    t->card_dev = card_dev;
    memset(&nodes[t->nnodes], 0, sizeof(nodes[0]));
    snprintf(nodes[t->nnodes].name, SWAI_TOPO_NAME, "%s", name);
    nodes[t->nnodes].first = t->ndevs;
    for (int c = 0; c < ncards; c++) {
        struct swai_topo_dev d = {
            .kind = SWAI_TOPO_CARD, .node = t->nnodes, .card = c, .cgs = cgs,
        };
        int dev;

        if (snprintf(d.name, sizeof(d.name), "%s.c%d", name, c) >=
            (int)sizeof(d.name)) {
            snprintf(why, n, "node name \"%s\" too long for its cards", name);
            return -1;
        }
        dev = add_dev(t, &d, why, n);
        if (dev < 0) {
            return -1;
        }
        t->card_dev[t->ncards++] = dev;
        nodes[t->nnodes].ncards++;
    }
    return t->nnodes++;
}

int swai_topo_add_switch(struct swai_topo *t, const char *name,
                         uint32_t latency_ns, char *why, size_t n)
{
    struct swai_topo_dev d = {
        .kind = SWAI_TOPO_SWITCH, .node = -1, .card = -1,
        .latency_ns = latency_ns,
    };

    if (strlen(name) >= sizeof(d.name)) {
        snprintf(why, n, "switch name \"%.20s...\" too long", name);
        return -1;
    }
    strcpy(d.name, name);
    return add_dev(t, &d, why, n);
}

int swai_topo_add_link(struct swai_topo *t, const struct swai_topo_link *l,
                       char *why, size_t n)
{
    struct swai_topo_link *links;

    if (l->a < 0 || l->a >= t->ndevs || l->b < 0 || l->b >= t->ndevs ||
        l->a == l->b) {
        snprintf(why, n, "a link needs two different devices");
        return -1;
    }
    if (l->mbps < 1 || l->mbps > 100000000u || l->latency_ns > 1000000000u) {
        snprintf(why, n, "link %s-%s: %u MB/s, %u ns (1..100000000 MB/s, "
                 "0..1000000000 ns)", t->devs[l->a].name, t->devs[l->b].name,
                 l->mbps, l->latency_ns);
        return -1;
    }
    if (l->oneway && l->shared) {
        snprintf(why, n, "link %s-%s: one-way and shared", t->devs[l->a].name,
                 t->devs[l->b].name);
        return -1;
    }
    if (t->nlinks >= SWAI_TOPO_MAX_LINKS) {
        snprintf(why, n, "more than %d links", SWAI_TOPO_MAX_LINKS);
        return -1;
    }
    links = realloc(t->links, (size_t)(t->nlinks + 1) * sizeof(*links));
    if (!links) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    t->links = links;
    free(t->adj_off);
    free(t->adj);
    t->adj_off = t->adj = NULL;
    links[t->nlinks] = *l;
    links[t->nlinks].kind[sizeof(l->kind) - 1] = 0;
    return t->nlinks++;
}

int swai_topo_resource(const struct swai_topo *t,
                       const struct swai_topo_hop *h)
{
    return 2 * h->link + (t->links[h->link].shared ? 0 : h->dir);
}

int swai_topo_nresources(const struct swai_topo *t)
{
    return 2 * t->nlinks;
}
