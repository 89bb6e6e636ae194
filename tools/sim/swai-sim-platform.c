/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sim-platform.c - a topology as a SimGrid platform (swai-sim-platform.h).
 *
 * Units: the topology's MB/s are 10^6 B/s ("MBps" in SimGrid), its
 * latencies ns.  Routes are asymmetric ("symmetrical=NO"): the way back
 * may take other hops (one-way links, a DGX-2's crossing links).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "swai-sim-platform.h"

/* A link's capacity for the card-internal links (never the narrowest). */
#define FAT_MBPS "100000000MBps"

/*
 * What a way over a link adds to a route's latency beyond the link's own:
 * one DMA command if it leaves a card (only routes from that card use it:
 * cards do not forward), a switch traversal if it enters a switch.  Folded
 * into the link, so a route is its links alone -- every constraint in
 * SimGrid's max-min system costs time at a thousand ranks.
 */
static uint64_t extra_ns(const struct swai_topo *t, const struct swai_timing_props *p,
                         int from, int to)
{
    return (t->devs[from].kind == SWAI_TOPO_CARD ? p->t_dma_ns : 0) +
           (t->devs[to].kind == SWAI_TOPO_SWITCH ? t->devs[to].latency_ns : 0);
}

static void write_route(FILE *f, const struct swai_topo *t, int a, int b,
                        const struct swai_topo_route *r)
{
    fprintf(f, "  <route src=\"c%d\" dst=\"c%d\" symmetrical=\"NO\">\n", a, b);
    if (!r) {
        fprintf(f, "   <link_ctn id=\"bus%d\"/>\n", a);
    }
    for (int h = 0; r && h < r->nhops; h++) {
        const struct swai_topo_link *l = &t->links[r->hops[h].link];
        int dir = r->hops[h].dir;

        if (l->shared) {
            fprintf(f, "   <link_ctn id=\"l%d\"/>\n   <link_ctn id=\"x%d%c\"/>\n",
                    r->hops[h].link, r->hops[h].link, dir ? '-' : '+');
        } else {
            fprintf(f, "   <link_ctn id=\"l%d%c\"/>\n", r->hops[h].link, dir ? '-' : '+');
        }
    }
    fprintf(f, "  </route>\n");
}

int swai_sim_platform_write(FILE *f, const struct swai_topo *t,
                            const struct swai_timing_props *p, bool card,
                            const bool *want, uint32_t *mbps, uint32_t *lat_ns,
                            int32_t *out, char *why, size_t n)
{
    size_t N = (size_t)t->ncards;
    uint64_t keep = card ? 0 : 1;   /* latencies kept, or (card) left to the receiver */

    fprintf(f, "<?xml version='1.0'?>\n"
            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<!-- generated from the topology \"%s\" by swccl-sim -->\n"
            "<platform version=\"4.1\">\n <zone id=\"%s\" routing=\"Full\">\n",
            t->name, t->name);
    for (size_t k = 0; k < N; k++) {
        fprintf(f, "  <host id=\"c%zu\" speed=\"1Gf\"/>\n", k);
        /* Two core groups of one card: its ring bus, after a DMA command. */
        fprintf(f, "  <link id=\"bus%zu\" bandwidth=\"%" PRIu32 "MBps\" "
                "latency=\"%" PRIu64 "ns\" sharing_policy=\"FATPIPE\"/>\n", k,
                p->ring_mbps, keep * p->t_dma_ns);
    }
    for (int i = 0; i < t->nlinks; i++) {
        const struct swai_topo_link *l = &t->links[i];
        uint64_t ab = keep * extra_ns(t, p, l->a, l->b), ba = keep * extra_ns(t, p, l->b, l->a);
        uint64_t own = keep * l->latency_ns;

        if (l->shared) {
            /* One capacity both ways; each way's extra latency on its own. */
            fprintf(f, "  <link id=\"l%d\" bandwidth=\"%" PRIu32 "MBps\" "
                    "latency=\"%" PRIu64 "ns\" sharing_policy=\"SHARED\"/>\n", i,
                    l->mbps, own);
            fprintf(f, "  <link id=\"x%d+\" bandwidth=\"" FAT_MBPS "\" latency=\"%"
                    PRIu64 "ns\" sharing_policy=\"FATPIPE\"/>\n", i, ab);
            fprintf(f, "  <link id=\"x%d-\" bandwidth=\"" FAT_MBPS "\" latency=\"%"
                    PRIu64 "ns\" sharing_policy=\"FATPIPE\"/>\n", i, ba);
            continue;
        }
        fprintf(f, "  <link id=\"l%d+\" bandwidth=\"%" PRIu32 "MBps\" latency=\"%"
                PRIu64 "ns\"/>\n", i, l->mbps, own + ab);
        if (!l->oneway) {
            fprintf(f, "  <link id=\"l%d-\" bandwidth=\"%" PRIu32 "MBps\" latency=\"%"
                    PRIu64 "ns\"/>\n", i, l->mbps, own + ba);
        }
    }
    for (size_t a = 0; a < N; a++) {
        for (size_t b = 0; b < N; b++) {
            struct swai_topo_route r = { 0 };
            int ret;

            if (!want[a * N + b]) {
                continue;
            }
            if (t->card_dev[a] == t->card_dev[b]) {
                write_route(f, t, (int)a, (int)b, NULL);
                out[a * N + b] = -1;
                continue;
            }
            ret = swai_topo_route(t, (int)a, (int)b, &r, why, n);
            if (ret) {
                return ret;
            }
            write_route(f, t, (int)a, (int)b, &r);
            mbps[a * N + b] = r.mbps;
            out[a * N + b] = swai_topo_resource(t, &r.hops[0]);
            lat_ns[a * N + b] = r.latency_ns > UINT32_MAX ? UINT32_MAX : (uint32_t)r.latency_ns;
            swai_topo_route_free(&r);
        }
    }
    fprintf(f, " </zone>\n</platform>\n");
    return ferror(f) ? -EIO : 0;
}
