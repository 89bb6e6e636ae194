/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-seq.c - LDM scoreboard and port times of the CG sequencer
 * (swai-seq.h).
 */
#include <stdbool.h>
#include <string.h>

#include "swai-seq.h"

void swai_seq_sb_reset(struct swai_seq_sb *sb)
{
    if (sb->lo < sb->hi) {
        memset(sb->w_end + sb->lo, 0, (sb->hi - sb->lo) * sizeof(uint64_t));
        memset(sb->r_end + sb->lo, 0, (sb->hi - sb->lo) * sizeof(uint64_t));
    }
    sb->lo = sb->hi = 0;
}

/* Granules [*g0, *g1) of the bytes; false when there are none. */
static bool span(uint64_t off, uint64_t len, uint64_t *g0, uint64_t *g1)
{
    if (!len) {
        return false;
    }
    *g0 = off / SWAI_SEQ_GRANULE;
    *g1 = (off + len - 1) / SWAI_SEQ_GRANULE + 1;
    return true;
}

static uint64_t latest(const uint64_t *a, uint64_t g0, uint64_t g1)
{
    uint64_t t = 0;

    for (; g0 < g1; g0++) {
        t = a[g0] > t ? a[g0] : t;
    }
    return t;
}

uint64_t swai_seq_sb_read_ready(const struct swai_seq_sb *sb, uint64_t off,
                            uint64_t len)
{
    uint64_t g0, g1;

    return span(off, len, &g0, &g1) ? latest(sb->w_end, g0, g1) : 0;
}

uint64_t swai_seq_sb_write_ready(const struct swai_seq_sb *sb, uint64_t off,
                             uint64_t len)
{
    uint64_t g0, g1, w, r;

    if (!span(off, len, &g0, &g1)) {
        return 0;
    }
    w = latest(sb->w_end, g0, g1);
    r = latest(sb->r_end, g0, g1);
    return w > r ? w : r;
}

static void mark(struct swai_seq_sb *sb, uint64_t *a, uint64_t off,
                 uint64_t len, uint64_t t)
{
    uint64_t g0, g1, g;

    if (!span(off, len, &g0, &g1)) {
        return;
    }
    for (g = g0; g < g1; g++) {
        a[g] = t > a[g] ? t : a[g];
    }
    if (sb->lo >= sb->hi) {
        sb->lo = g0;
        sb->hi = g1;
    } else {
        sb->lo = g0 < sb->lo ? g0 : sb->lo;
        sb->hi = g1 > sb->hi ? g1 : sb->hi;
    }
}

void swai_seq_sb_read(struct swai_seq_sb *sb, uint64_t off, uint64_t len,
                      uint64_t t)
{
    mark(sb, sb->r_end, off, len, t);
}

void swai_seq_sb_write(struct swai_seq_sb *sb, uint64_t off, uint64_t len,
                       uint64_t t)
{
    mark(sb, sb->w_end, off, len, t);
}

uint64_t swai_seq_ports_ready(const struct swai_seq *q, uint64_t ready,
                              const uint64_t acct[SWAI_RES_N])
{
    unsigned r;

    for (r = 0; r < SWAI_SEQ_PORTS; r++) {
        if (acct[r] && q->port_free_ps[r] > ready) {
            ready = q->port_free_ps[r];
        }
    }
    return ready;
}

void swai_seq_ports_busy(struct swai_seq *q, uint64_t t,
                         const uint64_t acct[SWAI_RES_N])
{
    unsigned r;

    for (r = 0; r < SWAI_SEQ_PORTS; r++) {
        if (acct[r]) {
            q->port_free_ps[r] = t;
        }
    }
    q->xfer_end_ps = t;
    q->horizon_ps = t > q->horizon_ps ? t : q->horizon_ps;
}
