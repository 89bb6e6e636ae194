/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-access.h - how a core-group program reaches device addresses
 * (datasheet §13.1-§13.3): through its host's locate() (the device's MMU
 * and Local-HBM privacy rule), then by pointer, by bus-master DMA, or not
 * at all when the host only times the program.  Every byte is counted on
 * the path it uses, for the timing model.
 *
 * Errors, in this order, give the job's status: an injected MMU fault (the
 * job's first data access), what locate() refuses (SWAI_JOB_ERR_MMU,
 * SWAI_JOB_ERR_FOREIGN), a failed bus access (SWAI_JOB_ERR_DMA).  The
 * failing address goes to job->fault.va.  These functions change nothing
 * but *j and the bytes they move, so they run without the lock on a copy
 * of the job (swai-engine.h).
 */
#ifndef SWAI_ACCESS_H
#define SWAI_ACCESS_H

#include "swai-engine.h"

/*
 * What the chunks of a transfer used, for the timing model: bytes per path
 * of the card (SWAI_RES_*), then bytes read from and written to another
 * card over the fabric and which card (its index + 1; 0: none).  A chunk
 * reaches at most one peer card each way: the first it touches is the one
 * charged (a 64 KiB chunk spread over pages of two peer cards is charged
 * on the first one's route).
 */
enum {
    SWAI_ACCT_FABRIC_RD = SWAI_RES_N,
    SWAI_ACCT_FABRIC_WR,
    SWAI_ACCT_FABRIC_RD_CARD,
    SWAI_ACCT_FABRIC_WR_CARD,
    SWAI_ACCT_N,
};

/* Where [va, va + len) is: SWAI_JOB_OK and *p, or an error. */
int swai_access_locate(struct swai_engine *e, unsigned cg,
                       struct swai_engine_job *j, uint64_t va, uint64_t len,
                       bool write, struct swai_place *p);
/*
 * Move len bytes between va and buf (write: buf -> va; buf NULL: time
 * only), run by run; adds the bytes to acct[] per path (acct may be NULL).
 * SWAI_JOB_OK or an error; *moved says how far it got (moved may be NULL).
 */
int swai_access_rw(struct swai_engine *e, unsigned cg,
                   struct swai_engine_job *j, uint64_t va, uint8_t *buf,
                   uint64_t len, bool write, uint64_t acct[SWAI_ACCT_N],
                   uint64_t *moved);
/*
 * COPY len (<= SWAI_CHUNK) bytes from va src to va dst, as if through LDM:
 * the whole source is read before the destination is written (a failing
 * source leaves *moved 0), then the destination is written in order.
 * Bytes move straight between the two places where they can.
 */
int swai_access_copy(struct swai_engine *e, unsigned cg,
                     struct swai_engine_job *j, uint64_t dst, uint64_t src,
                     uint64_t len, uint64_t acct[SWAI_ACCT_N],
                     uint64_t *moved);

#endif /* SWAI_ACCESS_H */
