/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-topo.h - the one description of a cluster's topology
 * (Documentation/cluster.md §2): nodes with their cards (each with its core
 * groups), switches, and the links between them, each with a bandwidth, a
 * latency and whether its capacity is shared.
 *
 * It is read from a JSON file (swai-topo-json.c) by everything that needs
 * to know how cards are joined: the emulator's launcher, libswccl's cost
 * model, the simulator and the synthesizer.  Units are the card timing
 * model's (swai-timing.h): bandwidth in MB/s (10^6 B/s) per direction,
 * latency in ns, integers, so the same file always gives the same times.
 *
 * Routes go from card to card through switches only: a card never
 * forwards another card's traffic (a schedule that wants a relay says so
 * with its own steps).  A route is deterministic: fewest latency, then
 * fewest hops, then lowest link indices -- or, on a topology with
 * "routing": "ecmp" (a Clos), among equal paths the one a hash of the two
 * cards and the links picks, so that pairs spread over the spines as ECMP
 * spreads flows.
 */
#ifndef SWAI_TOPO_H
#define SWAI_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWAI_TOPO_NAME      48      /* device and node names, with the NUL */
#define SWAI_TOPO_MAX_DEVS  65536
#define SWAI_TOPO_MAX_LINKS (1 << 22)
#define SWAI_TOPO_MAX_CGS   64

enum swai_topo_kind {
    SWAI_TOPO_CARD,
    SWAI_TOPO_SWITCH,
};

struct swai_topo_dev {
    char name[SWAI_TOPO_NAME];      /* "n0.c3", "sw0" */
    enum swai_topo_kind kind;
    int node;                       /* cards: index into nodes[]; else -1 */
    int card;                       /* cards: index within the node */
    int cgs;                        /* cards: core groups */
    uint32_t latency_ns;            /* switches: per traversal */
};

struct swai_topo_link {
    int a, b;                       /* device indices */
    uint32_t mbps;                  /* per direction (shared: in all) */
    uint32_t latency_ns;            /* per traversal */
    bool oneway;                    /* only a -> b */
    bool shared;                    /* one capacity for both directions */
    char kind[16];                  /* "hccs", "pcie", "nvlink", "ib", ... */
};

struct swai_topo_node {
    char name[SWAI_TOPO_NAME];
    int first, ncards;              /* its cards: devs[first .. +ncards) */
};

struct swai_topo {
    char name[64];
    char *description;              /* free text, may be NULL */
    char *source;                   /* where the parameters come from */
    bool ecmp;                      /* "routing": "ecmp": spread equal paths */
    int ndevs, nlinks, nnodes, ncards;
    struct swai_topo_dev *devs;
    struct swai_topo_link *links;
    struct swai_topo_node *nodes;
    int *card_dev;                  /* [ncards]: card (global order) -> dev */
    int *adj_off, *adj;             /* swai_topo_finish: links by device */
};

/*
 * A resource a transfer occupies: one direction of a link (dir 0: a -> b,
 * dir 1: b -> a), or the whole of a shared link (dir 0).
 */
struct swai_topo_hop {
    int link;
    int dir;
};

struct swai_topo_route {
    int nhops;
    struct swai_topo_hop *hops;     /* in order from source to destination */
    uint64_t latency_ns;            /* links and switches on the way */
    uint32_t mbps;                  /* the narrowest hop */
};

/* An empty topology (to build by hand or load into). */
void swai_topo_init(struct swai_topo *t);
void swai_topo_free(struct swai_topo *t);

/* Builders: the device's or link's index, or -1 with @why. */
int swai_topo_add_node(struct swai_topo *t, const char *name, int ncards,
                       int cgs, char *why, size_t n);
int swai_topo_add_switch(struct swai_topo *t, const char *name,
                         uint32_t latency_ns, char *why, size_t n);
int swai_topo_add_link(struct swai_topo *t, const struct swai_topo_link *l,
                       char *why, size_t n);

/*
 * After the last builder call: index the links by device for routing
 * (the loader does it).  0 or -ENOMEM.
 */
int swai_topo_finish(struct swai_topo *t);

/* The device named @name, or -1. */
int swai_topo_find(const struct swai_topo *t, const char *name);
/* The node (index into nodes[]) of card @card, or -1: the grouping of ranks. */
int swai_topo_card_node(const struct swai_topo *t, int card);
/* The resource index of a hop: links have two (one if shared). */
int swai_topo_resource(const struct swai_topo *t,
                       const struct swai_topo_hop *h);
int swai_topo_nresources(const struct swai_topo *t);

/*
 * The route from card @src to card @dst (global card indices) into *r
 * (free with swai_topo_route_free).  0, -ENOENT (not connected, @why
 * says which), -EINVAL or -ENOMEM.
 */
int swai_topo_route(const struct swai_topo *t, int src, int dst,
                    struct swai_topo_route *r, char *why, size_t n);
void swai_topo_route_free(struct swai_topo_route *r);

/*
 * Every card reaches every other: 0, or -ENOENT with the first pair that
 * cannot in @why.
 */
int swai_topo_check_connected(const struct swai_topo *t, char *why, size_t n);

/*
 * swai-topo-json.c: read a topology from JSON text or a file; a preset
 * name (no '/' and no ".json") is looked up in $SWAI_TOPO_PATH, then the
 * installed and the source tree's tools/cluster/topologies/.  0, or
 * -errno with the file, the place and what is wrong in @why.
 */
int swai_topo_parse(struct swai_topo *t, const char *json, char *why,
                    size_t n);
int swai_topo_load(struct swai_topo *t, const char *path_or_preset,
                   char *why, size_t n);
/*
 * swai-topo-scale.c: @nodes nodes after node 0's pattern of @in (its
 * cards, their links, their links to switches; switches kept once):
 * NDv2 x k from ndv2x2.  0, or -EINVAL (a direct link between two nodes'
 * cards has no pattern) / -ENOMEM with @why.
 */
int swai_topo_scale(struct swai_topo *out, const struct swai_topo *in, int nodes,
                    char *why, size_t n);
/* swai_topo_load(), then (@nodes > 0) swai_topo_scale() to @nodes nodes: what --nodes does. */
int swai_topo_load_nodes(struct swai_topo *t, const char *path_or_preset, int nodes,
                         char *why, size_t n);

/* Write @t in the explicit form (every link listed); malloc'd, or NULL. */
char *swai_topo_dump(const struct swai_topo *t);

#endif /* SWAI_TOPO_H */
