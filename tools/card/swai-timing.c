/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-timing.c - the timing model's parameters, picosecond arithmetic and
 * calendars (swai-timing.h; datasheet §14).
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "swai-timing.h"

/* Shared by all CGs; the rest are a CG's own ports. */
static bool res_shared(unsigned r)
{
    return r == SWAI_RES_BUS_TOTAL || r == SWAI_RES_PCIE_RD ||
           r == SWAI_RES_PCIE_WR;
}

void swai_timing_props_init(struct swai_timing_props *p)
{
#define SWAI_TIMING_DEFAULT(f, name, def, kind) p->f = def;
    SWAI_TIMING_PROPS(SWAI_TIMING_DEFAULT)
#undef SWAI_TIMING_DEFAULT
}

/*
 * The range of each kind of property, and how the message says it.  One
 * unsigned comparison checks both ends: below lo wraps above hi - lo.
 */
#define LIMIT_BW    SWAI_MBPS_MIN, SWAI_MBPS_MAX, "1..100000000"
#define LIMIT_NS    0, SWAI_T_NS_MAX, "0..1000000000"
#define LIMIT_GF    1, SWAI_GFLOPS_MAX, "1..1000000"
#define CHECK(f, name, lo, hi, range) \
    if ((uint32_t)(p->f - (lo)) > (uint32_t)((hi) - (lo))) { \
        return name " must be in " range; \
    }
#define CHECK_KIND(f, name, def, kind) CHECK_ARGS(f, name, LIMIT_##kind)
#define CHECK_ARGS(f, name, ...) CHECK(f, name, __VA_ARGS__)

const char *swai_timing_props_validate(const struct swai_timing_props *p)
{
    SWAI_TIMING_PROPS(CHECK_KIND)
    return NULL;
}

void swai_timing_init(struct swai_timing *t, const struct swai_timing_props *p)
{
    t->mbps[SWAI_RES_LOCAL_RD] = p->local_mbps;
    t->mbps[SWAI_RES_LOCAL_WR] = p->local_mbps;
    t->mbps[SWAI_RES_BUS_RD] = p->ring_mbps;
    t->mbps[SWAI_RES_BUS_WR] = p->ring_mbps;
    t->mbps[SWAI_RES_BUS_TOTAL] = p->ring_total_mbps;
    t->mbps[SWAI_RES_PCIE_RD] = p->pcie_mbps;
    t->mbps[SWAI_RES_PCIE_WR] = p->pcie_mbps;
    swai_timing_reset(t);
}

void swai_timing_reset(struct swai_timing *t)
{
    unsigned r;

    for (r = 0; r < SWAI_RES_N; r++) {
        t->cal[r].s = 0;
        t->cal[r].n = 0;
    }
}

/* 1 byte at 1 MB/s takes 10^6 ps, so bytes at m MB/s take bytes*10^6/m. */
uint64_t swai_timing_ps(uint64_t bytes, uint32_t mbps)
{
    uint64_t q = bytes / mbps, r = bytes % mbps;
    uint64_t hi;

    /* bytes * 10^6 / m = q * 10^6 + r * 10^6 / m, without overflow. */
    if (q > (UINT64_MAX / 4) / 1000000) {
        return UINT64_MAX / 4;
    }
    hi = q * 1000000;
    return hi + (r * 1000000 + mbps - 1) / mbps;
}

uint64_t swai_timing_ns_to_ps(uint64_t ns)
{
    return ns > (UINT64_MAX / 4) / SWAI_PS_PER_NS ? UINT64_MAX / 4
                                                  : ns * SWAI_PS_PER_NS;
}

/* A FLOP at 1 GFLOP/s takes 1000 ps. */
uint64_t swai_timing_flops_ps(uint64_t flops, uint32_t gflops)
{
    uint64_t q = flops / gflops, r = flops % gflops;

    if (q > (UINT64_MAX / 4) / 1000) {
        return UINT64_MAX / 4;
    }
    return q * 1000 + (r * 1000 + gflops - 1) / gflops;
}

/* Index of the first interval ending after 't' (binary search). */
static unsigned cal_first_after(const struct swai_cal *c, uint64_t t)
{
    const uint64_t *b = c->b + c->s;
    unsigned lo = 0, hi = c->n;

    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;

        if (b[mid] > t) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* Insert [at, at + d) at position i (it fits there), merging neighbours. */
static void cal_insert(struct swai_cal *c, unsigned i, uint64_t at, uint64_t d)
{
    uint64_t *a, *b, end = at + d;
    bool left, right;

    if (c->s + c->n == 2 * SWAI_CAL_SLOTS) {
        memmove(c->a, c->a + c->s, c->n * sizeof(c->a[0]));
        memmove(c->b, c->b + c->s, c->n * sizeof(c->b[0]));
        c->s = 0;
    }
    a = c->a + c->s;
    b = c->b + c->s;
    left = i > 0 && b[i - 1] == at;
    right = i < c->n && a[i] == end;
    if (left && right) {
        b[i - 1] = b[i];
        memmove(&a[i], &a[i + 1], (c->n - i - 1) * sizeof(a[0]));
        memmove(&b[i], &b[i + 1], (c->n - i - 1) * sizeof(b[0]));
        c->n--;
        return;
    }
    if (left) {
        b[i - 1] = end;
        return;
    }
    if (right) {
        a[i] = at;
        return;
    }
    memmove(&a[i + 1], &a[i], (c->n - i) * sizeof(a[0]));
    memmove(&b[i + 1], &b[i], (c->n - i) * sizeof(b[0]));
    a[i] = at;
    b[i] = end;
    c->n++;
}

/* The first start >= ready with d ps free, and the interval it precedes. */
static uint64_t cal_fit(const struct swai_cal *c, uint64_t ready, uint64_t d,
                        unsigned *at_i)
{
    uint64_t at = ready;
    unsigned i;

    for (i = cal_first_after(c, ready); i < c->n; i++) {
        if (c->a[c->s + i] >= at + d) {
            break;              /* the gap before interval i fits */
        }
        if (c->b[c->s + i] > at) {
            at = c->b[c->s + i];
        }
    }
    *at_i = i;
    return at;
}

uint64_t swai_cal_fit(const struct swai_cal *c, uint64_t ready, uint64_t d)
{
    unsigned i;

    return d ? cal_fit(c, ready, d, &i) : ready;
}

uint64_t swai_cal_book(struct swai_cal *c, uint64_t ready, uint64_t d)
{
    uint64_t at;
    unsigned i;

    if (!d) {
        return ready;
    }
    if (c->n == SWAI_CAL_SLOTS) {
        /* Full: forget the oldest gap (it counts as busy from now on). */
        c->a[c->s + 1] = c->a[c->s];
        c->s++;
        c->n--;
    }
    at = cal_fit(c, ready, d, &i);
    cal_insert(c, i, at, d);
    return at + d;
}

uint64_t swai_timing_chunk(struct swai_timing *t, uint64_t start_ps,
                           const uint64_t bytes[SWAI_RES_N])
{
    uint64_t end = start_ps;
    unsigned r;

    for (r = 0; r < SWAI_RES_N; r++) {
        uint64_t d, done;

        if (!bytes[r]) {
            continue;
        }
        d = swai_timing_ps(bytes[r], t->mbps[r]);
        done = res_shared(r) ? swai_cal_book(&t->cal[r], start_ps, d)
                             : start_ps + d;
        if (done > end) {
            end = done;
        }
    }
    return end;
}

uint64_t swai_timing_ideal_ps(const struct swai_timing *t,
                              const uint64_t bytes[SWAI_RES_N])
{
    uint64_t d = 0;
    unsigned r;

    for (r = 0; r < SWAI_RES_N; r++) {
        if (bytes[r]) {
            uint64_t x = swai_timing_ps(bytes[r], t->mbps[r]);

            d = x > d ? x : d;
        }
    }
    return d;
}
