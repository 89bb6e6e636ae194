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
    l->cal = calloc((size_t)l->n + 1, sizeof(*l->cal));
    l->bytes = calloc((size_t)l->n + 1, sizeof(*l->bytes));
    if (!l->cal || !l->bytes) {
        swai_links_free(l);
        return -ENOMEM;
    }
    return 0;
}

void swai_links_free(struct swai_links *l)
{
    for (int i = 0; l->cal && i < l->n; i++) {
        free(l->cal[i]);
    }
    free(l->cal);
    free(l->bytes);
    l->cal = NULL;
    l->bytes = NULL;
}

void swai_links_reset(struct swai_links *l)
{
    for (int i = 0; i < l->n; i++) {
        if (l->cal[i]) {
            memset(l->cal[i], 0, sizeof(*l->cal[i]));
        }
        l->bytes[i] = 0;
    }
}

int swai_links_book(struct swai_links *l, const struct swai_topo_route *rt,
                    uint64_t ready_ps, uint64_t bytes, uint64_t *start,
                    uint64_t *end)
{
    uint64_t d = swai_timing_ps(bytes, rt->mbps), t0 = ready_ps;
    int h;

    for (h = 0; h < rt->nhops; h++) {
        int res = swai_topo_resource(l->t, &rt->hops[h]);

        if (!l->cal[res]) {
            /* 32 KiB each: only the directions a job uses get one. */
            l->cal[res] = calloc(1, sizeof(*l->cal[res]));
            if (!l->cal[res]) {
                return -ENOMEM;
            }
        }
    }
    /* Every hop for the same d, from the first time all are free. */
    for (h = 0; h < rt->nhops;) {
        uint64_t at = swai_cal_fit(l->cal[swai_topo_resource(l->t,
                                   &rt->hops[h])], t0, d);

        h = at == t0 ? h + 1 : 0;
        t0 = at;
    }
    for (h = 0; h < rt->nhops; h++) {
        int res = swai_topo_resource(l->t, &rt->hops[h]);

        swai_cal_book(l->cal[res], t0, d);
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
