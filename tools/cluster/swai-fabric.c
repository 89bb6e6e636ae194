/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-fabric.c - the card-to-card fabric of one node (swai-fabric.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai_regs.h"
#include "swai-fabric.h"
#include "swai-sync.h"

/* FNV-1a over the topology as written, and which fabric of this process. */
static uint32_t make_tag(const struct swai_topo *t)
{
    static uint32_t instances;
    char *dump = swai_topo_dump(t);
    uint32_t h = 2166136261u;

    for (const char *c = dump ? dump : t->name; *c; c++) {
        h = (h ^ (uint8_t)*c) * 16777619u;
    }
    free(dump);
    h ^= ++instances * 0x9e3779b9u;
    return h ? h : 1;   /* 0 reads as "no fabric" */
}

struct swai_fabric *swai_fabric_new(struct swai_topo *t, char *why, size_t n)
{
    struct swai_fabric *f = calloc(1, sizeof(*f));
    size_t pairs;

    if (!f) {
        swai_topo_free(t);
        snprintf(why, n, "out of memory");
        return NULL;
    }
    f->topo = *t;       /* taken over: t's pointers now belong to f */
    memset(t, 0, sizeof(*t));
    if (f->topo.ncards < 1 || f->topo.ncards > SWAI_FABRIC_MAX_CARDS) {
        snprintf(why, n, "topology \"%s\" has %d cards; a fabric joins "
                 "1..%d", f->topo.name, f->topo.ncards,
                 SWAI_FABRIC_MAX_CARDS);
        swai_fabric_free(f);
        return NULL;
    }
    f->ncards = (unsigned)f->topo.ncards;
    pairs = (size_t)f->ncards * f->ncards;
    f->port = calloc(f->ncards, sizeof(*f->port));
    f->route = calloc(pairs, sizeof(*f->route));
    f->route_state = calloc(pairs, 1);
    if (!f->port || !f->route || !f->route_state ||
        swai_links_init(&f->links, &f->topo)) {
        snprintf(why, n, "out of memory");
        swai_fabric_free(f);
        return NULL;
    }
    f->tag = make_tag(&f->topo);
    return f;
}

void swai_fabric_free(struct swai_fabric *f)
{
    if (!f) {
        return;
    }
    for (size_t i = 0; f->route && i < (size_t)f->ncards * f->ncards; i++) {
        swai_topo_route_free(&f->route[i]);
    }
    free(f->route);
    free(f->route_state);
    free(f->port);
    swai_links_free(&f->links);
    swai_topo_free(&f->topo);
    free(f);
}

/*
 * Routes are computed when a card joins, both ways to every other card,
 * so that afterwards they are only read -- also by unlocked locates.
 */
static void compute_routes(struct swai_fabric *f, unsigned card)
{
    char why[160];

    for (unsigned o = 0; o < f->ncards; o++) {
        for (int way = 0; way < 2 && o != card; way++) {
            unsigned a = way ? o : card, b = way ? card : o;
            size_t i = (size_t)a * f->ncards + b;

            if (!f->route_state[i]) {
                f->route_state[i] = swai_topo_route(&f->topo, (int)a, (int)b,
                                                    &f->route[i], why,
                                                    sizeof(why)) ? -1 : 1;
            }
        }
    }
}

/* The route from -> to, or NULL (none, or neither has joined yet). */
static const struct swai_topo_route *route(const struct swai_fabric *f,
                                           unsigned from, unsigned to)
{
    size_t i = (size_t)from * f->ncards + to;

    if (from >= f->ncards || to >= f->ncards || from == to) {
        return NULL;
    }
    return f->route_state[i] > 0 ? &f->route[i] : NULL;
}

int swai_fabric_join(struct swai_fabric *f, unsigned card,
                     const struct swai_fabric_port *port, char *why,
                     size_t n)
{
    if (card >= f->ncards) {
        snprintf(why, n, "fabric-card %u: topology \"%s\" has cards 0..%u",
                 card, f->topo.name, f->ncards - 1);
        return -EINVAL;
    }
    if (f->port[card].hbm) {
        snprintf(why, n, "fabric-card %u (%s) is already another card", card,
                 f->topo.devs[f->topo.card_dev[card]].name);
        return -EBUSY;
    }
    if (!port->hbm || !port->hbm_bytes || !port->engine) {
        snprintf(why, n, "fabric-card %u: a card without HBM", card);
        return -EINVAL;
    }
    compute_routes(f, card);
    f->port[card] = *port;
    return 0;
}

void swai_fabric_leave(struct swai_fabric *f, unsigned card)
{
    if (card < f->ncards) {
        memset(&f->port[card], 0, sizeof(f->port[card]));
    }
}

bool swai_fabric_path(struct swai_fabric *f, unsigned from, unsigned to,
                      struct swai_fabric_path *p)
{
    const struct swai_topo_route *r = route(f, from, to);

    if (!r) {
        return false;
    }
    p->hops = (uint32_t)r->nhops;
    p->mbps = r->mbps;
    p->latency_ns = r->latency_ns > UINT32_MAX ? UINT32_MAX :
                    (uint32_t)r->latency_ns;
    return true;
}

int swai_fabric_locate(struct swai_fabric *f, unsigned from, unsigned to,
                       uint64_t addr, uint64_t len, struct swai_place *p)
{
    const struct swai_fabric_port *q;

    if (to >= f->ncards || !route(f, from, to)) {
        return SWAI_MMU_R_BAD_TARGET;
    }
    q = &f->port[to];
    if (!q->hbm || addr >= q->hbm_bytes) {
        return SWAI_MMU_R_BAD_TARGET;
    }
    p->tier = SWAI_TIER_FABRIC;
    p->ptr = q->hbm + addr;
    p->dma = false;
    p->host = false;
    p->addr = addr;
    p->card = to;
    p->run = len < q->hbm_bytes - addr ? len : q->hbm_bytes - addr;
    return 0;
}

uint64_t swai_fabric_book(struct swai_fabric *f, unsigned from, unsigned to,
                          bool write, uint64_t ready_ps, uint64_t bytes,
                          bool first)
{
    /* Data flows from -> to for a write, to -> from for a read. */
    const struct swai_topo_route *r = write ? route(f, from, to) :
                                              route(f, to, from);
    const struct swai_topo_route *req = route(f, from, to);
    uint64_t t0, t1;

    if (!r || !req) {
        return ready_ps;    /* located pages always have a route */
    }
    if (!write && first) {
        /* A read's request crosses to the peer before data flows back. */
        ready_ps += swai_timing_ns_to_ps(req->latency_ns);
    }
    if (swai_links_book(&f->links, r, ready_ps, bytes, &t0, &t1)) {
        /* No memory for a calendar: as if the links were free. */
        t1 = ready_ps + swai_timing_ps(bytes, r->mbps);
    }
    if (!write && first) {
        t1 += swai_timing_ns_to_ps(r->latency_ns);
    }
    return t1;
}

void swai_fabric_sem_store(struct swai_fabric *f, unsigned from, unsigned to,
                           uint64_t addr, uint64_t val, uint64_t ps)
{
    const struct swai_topo_route *r = route(f, from, to);

    if (r && to < f->ncards && f->port[to].engine) {
        swai_sync_record(f->port[to].engine, false, addr, val,
                         ps + swai_timing_ns_to_ps(r->latency_ns));
    }
}

uint64_t swai_fabric_sem_time(struct swai_fabric *f, unsigned from,
                              unsigned to, uint64_t addr,
                              const struct swai_sem_want *want)
{
    const struct swai_topo_route *r = route(f, to, from);
    uint64_t t;

    if (!r || to >= f->ncards || !f->port[to].engine) {
        return 0;
    }
    t = swai_sync_written_at(f->port[to].engine, false, addr, want);
    /* The value still has to come back over the route. */
    return t ? t + swai_timing_ns_to_ps(r->latency_ns) : 0;
}

/* Does a step at @t of card @c come before one at @u of card @d? */
static bool before(uint64_t t, unsigned c, uint64_t u, unsigned d)
{
    return t < u || (t == u && c < d);
}

/*
 * The joined card other than @card whose step comes first (swai_engine_next_ps,
 * then the lower index), its step's time in *@at; ncards when none can step.
 */
static unsigned first_other(const struct swai_fabric *f, unsigned card,
                            uint64_t *at)
{
    unsigned c, best = f->ncards;

    *at = UINT64_MAX;
    for (c = 0; c < f->ncards; c++) {
        uint64_t t;

        if (c == card || !f->port[c].engine) {
            continue;
        }
        t = swai_engine_next_ps(f->port[c].engine);
        if (t != UINT64_MAX && before(t, c, *at, best)) {
            *at = t;
            best = c;
        }
    }
    return best;
}

bool swai_fabric_may_step(const struct swai_fabric *f, unsigned card,
                          uint64_t at_ps)
{
    uint64_t t;
    unsigned c = first_other(f, card, &t);

    return c == f->ncards || !before(t, c, at_ps, card);
}

void swai_fabric_stepped(const struct swai_fabric *f, unsigned card)
{
    const struct swai_engine *e = card < f->ncards ? f->port[card].engine : NULL;
    uint64_t t;
    unsigned c = first_other(f, card, &t);

    if (c < f->ncards && f->port[c].wake &&
        (!e || before(t, c, swai_engine_next_ps(e), card))) {
        f->port[c].wake(f->port[c].wake_opaque);
    }
}
