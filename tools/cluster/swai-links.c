/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-links.c - link calendars and cut-through booking (swai-links.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-links.h"

int swai_links_init(struct swai_links *l, const struct swai_topo *t)
{
    l->t = t;
    l->n = swai_topo_nresources(t);
    l->lane = NULL;
    l->nlane = 0;
    l->cal = calloc((size_t)l->n * SWAI_LINKS_LANES + 1, sizeof(*l->cal));
    l->bytes = calloc((size_t)l->n + 1, sizeof(*l->bytes));
    if (!l->cal || !l->bytes) {
        swai_links_free(l);
        return -ENOMEM;
    }
    return 0;
}

void swai_links_free(struct swai_links *l)
{
    for (int i = 0; l->cal && i < l->n * SWAI_LINKS_LANES; i++) {
        free(l->cal[i]);
    }
    free(l->cal);
    free(l->bytes);
    free(l->lane);
    l->cal = NULL;
    l->bytes = NULL;
    l->lane = NULL;
    l->nlane = 0;
}

void swai_links_reset(struct swai_links *l)
{
    for (int i = 0; i < l->n * SWAI_LINKS_LANES; i++) {
        if (l->cal[i]) {
            memset(l->cal[i], 0, sizeof(*l->cal[i]));
        }
    }
    memset(l->bytes, 0, (size_t)l->n * sizeof(*l->bytes));
}

/* How many transfers at @mbps hop @h carries at once: its lanes. */
static int lanes(const struct swai_links *l, const struct swai_topo_hop *h,
                 uint32_t mbps)
{
    uint32_t k = mbps ? l->t->links[h->link].mbps / mbps : 1;

    return k < 1 ? 1 : k > SWAI_LINKS_LANES ? SWAI_LINKS_LANES : (int)k;
}

/*
 * The first of hop @h's lanes free for @d from @t0 (*@at == @t0), else
 * when the earliest of them is (*@at > @t0); the lane's index.
 */
static int lane_fit(const struct swai_links *l, const struct swai_topo_route *rt,
                    int h, uint64_t t0, uint64_t d, uint64_t *at)
{
    struct swai_cal **cal = &l->cal[(size_t)swai_topo_resource(l->t, &rt->hops[h]) *
                                    SWAI_LINKS_LANES];
    int n = lanes(l, &rt->hops[h], rt->mbps), best = 0;

    *at = UINT64_MAX;
    for (int k = 0; k < n; k++) {
        uint64_t a = cal[k] ? swai_cal_fit(cal[k], t0, d) : t0;

        if (a < *at) {
            *at = a;
            best = k;
        }
        if (a == t0) {
            break;
        }
    }
    return best;
}

int swai_links_book(struct swai_links *l, const struct swai_topo_route *rt,
                    uint64_t ready_ps, uint64_t bytes, uint64_t *start,
                    uint64_t *end)
{
    uint64_t d = swai_timing_ps(bytes, rt->mbps), t0 = ready_ps, at;
    int h;

    if (rt->nhops > l->nlane) {
        int *lane = realloc(l->lane, (size_t)rt->nhops * sizeof(*lane));

        if (!lane) {
            return -ENOMEM;
        }
        l->lane = lane;
        l->nlane = rt->nhops;
    }
    /*
     * Every hop for the same d, from the first time all are free; the last
     * sweep, all of it at that time, leaves each hop's lane.
     */
    for (h = 0; h < rt->nhops;) {
        l->lane[h] = lane_fit(l, rt, h, t0, d, &at);
        h = at == t0 ? h + 1 : 0;
        t0 = at;
    }
    for (h = 0; h < rt->nhops; h++) {
        int res = swai_topo_resource(l->t, &rt->hops[h]);
        struct swai_cal **c = &l->cal[(size_t)res * SWAI_LINKS_LANES + (size_t)l->lane[h]];

        if (!*c) {
            /* 32 KiB each: only the lanes a job fills get one. */
            *c = calloc(1, sizeof(**c));
            if (!*c) {
                return -ENOMEM;
            }
        }
    }
    for (h = 0; h < rt->nhops; h++) {
        int res = swai_topo_resource(l->t, &rt->hops[h]);

        swai_cal_book(l->cal[(size_t)res * SWAI_LINKS_LANES + (size_t)l->lane[h]], t0, d);
        l->bytes[res] += bytes;
    }
    *start = t0;
    *end = t0 + d;
    return 0;
}

uint64_t swai_links_busiest(const struct swai_links *l)
{
    uint64_t m = 0;

    for (int i = 0; i < l->n; i++) {
        m = l->bytes[i] > m ? l->bytes[i] : m;
    }
    return m;
}
