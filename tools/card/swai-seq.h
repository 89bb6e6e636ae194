/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-seq.h - the CG sequencer's view of asynchronous work
 * (datasheet §14.7).
 *
 * A CG's sequencer issues instructions in order at its clock.  Transfers
 * flagged SWAI_XFER_ASYNC run behind it: each starts when the private ports
 * it uses are free and the LDM bytes it touches are ready, and ends at its
 * own time.  The card keeps, per CG and job:
 *   - horizon: the latest end of anything issued so far (a drain point,
 *     DRAIN or a semaphore instruction, moves the clock there; so does the
 *     end of the job);
 *   - when each private port (Local read/write, ring bus read/write) is free;
 *   - an LDM scoreboard in 256-byte granules: when the last write and the
 *     last read of each granule end, so a compute instruction waits for the
 *     transfer filling its input (read after write) and a transfer waits for
 *     the compute still reading or writing its LDM bytes (write after read,
 *     write after write).
 * A program without asynchronous transfers never finds anything later
 * than its clock here, so its modeled time is what it was before them.
 */
#ifndef SWAI_SEQ_H
#define SWAI_SEQ_H

#include <stdint.h>

#include "swai-timing.h"

#define SWAI_SEQ_GRANULE    256u
#define SWAI_SEQ_PORTS      (SWAI_RES_BUS_WR + 1)   /* the private ports */

/* The scoreboard of one CG's LDM; the engine owns the arrays. */
struct swai_seq_sb {
    uint64_t *w_end, *r_end;    /* ps, per granule */
    uint64_t lo, hi;            /* granules touched since the last reset */
};

/* Per job. */
struct swai_seq {
    uint64_t horizon_ps;
    uint64_t port_free_ps[SWAI_SEQ_PORTS];
    uint64_t xfer_end_ps;       /* the async transfer at pc: its last end */
};

/* Forget everything (a job starts): clears only the touched granules. */
void swai_seq_sb_reset(struct swai_seq_sb *sb);
/* When bytes [off, off + len) may be read (RAW): latest write end. */
uint64_t swai_seq_sb_read_ready(const struct swai_seq_sb *sb, uint64_t off,
                            uint64_t len);
/* When they may be written (WAR, WAW): latest read or write end. */
uint64_t swai_seq_sb_write_ready(const struct swai_seq_sb *sb, uint64_t off,
                             uint64_t len);
/* Record a read or a write of the bytes that ends at t. */
void swai_seq_sb_read(struct swai_seq_sb *sb, uint64_t off, uint64_t len,
                      uint64_t t);
void swai_seq_sb_write(struct swai_seq_sb *sb, uint64_t off, uint64_t len,
                       uint64_t t);

/* When a chunk using acct's private ports may start, at 'ready' at best. */
uint64_t swai_seq_ports_ready(const struct swai_seq *q, uint64_t ready,
                              const uint64_t acct[SWAI_RES_N]);
/* The chunk ended at t: its ports are free then, the horizon moves. */
void swai_seq_ports_busy(struct swai_seq *q, uint64_t t,
                         const uint64_t acct[SWAI_RES_N]);

#endif /* SWAI_SEQ_H */
