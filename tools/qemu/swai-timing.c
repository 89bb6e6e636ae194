/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-timing.c - bandwidth and fixed-cost arithmetic of the timing model
 * (see swai-timing.h and Documentation/datasheet.md §14).
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "swai-timing.h"

/* Shared by all CGs; the rest are a CG's own ports. */
static bool res_shared(unsigned r)
{
    return r == SWAI_RES_RING_TOTAL || r == SWAI_RES_PCIE_RD ||
           r == SWAI_RES_PCIE_WR;
}

/*
 * Defaults and their sources (datasheet §14): ring 100 GB/s, launch 25 us,
 * host sync 15 us and per-step 5 us are the paper's; the others are stated
 * there with their derivation.
 */
void swai_timing_props_init(struct swai_timing_props *p)
{
    p->ring_mbps = 100000;
    p->ring_total_mbps = 800000;
    p->local_mbps = 100000;
    p->pcie_mbps = 25000;
    p->ldm_mbps = 1000000;
    p->t_launch_ns = 25000;
    p->t_sync_ns = 15000;
    p->t_step_ns = 5000;
    p->t_barrier_ns = 1000;
    p->t_dma_ns = 1000;
    p->f32_gflops = 2048;
    p->bf16_gflops = 4096;
}

const char *swai_timing_props_validate(const struct swai_timing_props *p)
{
#define BW(f, name) \
    if (p->f < SWAI_MBPS_MIN || p->f > SWAI_MBPS_MAX) { \
        return name " must be in 1..100000000"; \
    }
#define NS(f, name) \
    if (p->f > SWAI_T_NS_MAX) { \
        return name " must be in 0..1000000000"; \
    }
    BW(ring_mbps, "ring-mbps");
    BW(ring_total_mbps, "ring-total-mbps");
    BW(local_mbps, "local-mbps");
    BW(pcie_mbps, "pcie-mbps");
    BW(ldm_mbps, "ldm-mbps");
    NS(t_launch_ns, "t-launch-ns");
    NS(t_sync_ns, "t-sync-ns");
    NS(t_step_ns, "t-step-ns");
    NS(t_barrier_ns, "t-barrier-ns");
    NS(t_dma_ns, "t-dma-ns");
    if (p->f32_gflops < 1 || p->f32_gflops > SWAI_GFLOPS_MAX) {
        return "f32-gflops must be in 1..1000000";
    }
    if (p->bf16_gflops < 1 || p->bf16_gflops > SWAI_GFLOPS_MAX) {
        return "bf16-gflops must be in 1..1000000";
    }
#undef BW
#undef NS
    return NULL;
}

void swai_timing_init(struct swai_timing *t, const struct swai_timing_props *p)
{
    t->mbps[SWAI_RES_LOCAL_RD] = p->local_mbps;
    t->mbps[SWAI_RES_LOCAL_WR] = p->local_mbps;
    t->mbps[SWAI_RES_RING_RD] = p->ring_mbps;
    t->mbps[SWAI_RES_RING_WR] = p->ring_mbps;
    t->mbps[SWAI_RES_RING_TOTAL] = p->ring_total_mbps;
    t->mbps[SWAI_RES_PCIE_RD] = p->pcie_mbps;
    t->mbps[SWAI_RES_PCIE_WR] = p->pcie_mbps;
    swai_timing_reset(t);
}

void swai_timing_reset(struct swai_timing *t)
{
    unsigned r;

    for (r = 0; r < SWAI_RES_N; r++) {
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
    unsigned lo = 0, hi = c->n;

    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;

        if (c->b[mid] > t) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* Insert [a, a + d) at position i (it fits there), merging neighbours. */
static void cal_insert(struct swai_cal *c, unsigned i, uint64_t a, uint64_t d)
{
    uint64_t b = a + d;
    bool left = i > 0 && c->b[i - 1] == a;
    bool right = i < c->n && c->a[i] == b;

    if (left && right) {
        c->b[i - 1] = c->b[i];
        memmove(&c->a[i], &c->a[i + 1], (c->n - i - 1) * sizeof(c->a[0]));
        memmove(&c->b[i], &c->b[i + 1], (c->n - i - 1) * sizeof(c->b[0]));
        c->n--;
        return;
    }
    if (left) {
        c->b[i - 1] = b;
        return;
    }
    if (right) {
        c->a[i] = a;
        return;
    }
    memmove(&c->a[i + 1], &c->a[i], (c->n - i) * sizeof(c->a[0]));
    memmove(&c->b[i + 1], &c->b[i], (c->n - i) * sizeof(c->b[0]));
    c->a[i] = a;
    c->b[i] = b;
    c->n++;
}

/* Book 'd' ps in the first gap at or after 'ready'; returns its end. */
static uint64_t cal_book(struct swai_cal *c, uint64_t ready, uint64_t d)
{
    unsigned i = cal_first_after(c, ready);
    uint64_t at = ready;

    if (!d) {
        return ready;
    }
    if (c->n == SWAI_CAL_SLOTS) {
        /* Full: forget the oldest gap (it counts as busy from now on). */
        c->b[0] = c->b[1];
        memmove(&c->a[1], &c->a[2], (c->n - 2) * sizeof(c->a[0]));
        memmove(&c->b[1], &c->b[2], (c->n - 2) * sizeof(c->b[0]));
        c->n--;
        i = cal_first_after(c, ready);
    }
    for (; i < c->n; i++) {
        if (c->a[i] >= at + d) {
            break;              /* the gap before interval i fits */
        }
        if (c->b[i] > at) {
            at = c->b[i];
        }
    }
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
        done = res_shared(r) ? cal_book(&t->cal[r], start_ps, d)
                             : start_ps + d;
        if (done > end) {
            end = done;
        }
    }
    return end;
}
