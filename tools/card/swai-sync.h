/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sync.h - the semaphore instructions of core-group programs:
 * BARRIER, SIGNAL, WAIT, FENCE, TIMESTAMP (datasheet §13.6).
 *
 * A semaphore is an 8-byte aligned little-endian u64 at a device address.
 * The engine runs all CGs under one lock, so a read-modify-write by one CG
 * is atomic with respect to the others (not to the host CPU).  For the
 * timing model the engine remembers when (in modeled time) it last wrote
 * each semaphore: a CG that a write releases leaves its BARRIER or WAIT no
 * earlier than that.
 */
#ifndef SWAI_SYNC_H
#define SWAI_SYNC_H

#include "swai-engine.h"

/*
 * The semaphore instruction at CG cg's pc (the CG has drained): SWAI_JOB_OK
 * (done, or now blocked: job.wait) or an error.
 */
int swai_sync_step(struct swai_engine *e, unsigned cg,
                   const struct swai_insn *in);
/*
 * Re-read the semaphore a blocked CG waits on; when it allows, the CG
 * leaves its BARRIER or WAIT and is runnable again.  SWAI_JOB_OK or an
 * error reading the semaphore.
 */
int swai_sync_check(struct swai_engine *e, unsigned cg);
/*
 * Whether the semaphore a blocked job waits on allows it now, read where
 * the job last looked (job.wait_ptr) without a step: false when it cannot
 * be read so (the host's memory, a peer card's).
 */
bool swai_sync_allows(const struct swai_engine_job *j);

/*
 * When semaphores were written, for the hosts of several cards joined by
 * a fabric: a peer card's write of @val to a semaphore in this card's HBM
 * (@host false, @addr HBM-physical) is recorded here at the modeled time
 * it arrives, and a peer card's wait on it reads the time here.
 *
 * The time a wait ends on is that of the oldest of the latest writes that
 * all satisfy it: the write that made the value satisfy @want, not a later
 * one that the waiter happened to see first (times are kept monotone, so a
 * counter two cards bump is never early).  When the deciding write has been
 * forgotten (SWAI_SEM_WRITES ago) it is the oldest remembered, which is
 * late, never early; when no remembered write satisfies it (the host wrote
 * the value) it is the latest.  A slot is forgotten (oldest first) when
 * SWAI_ENGINE_SEMS are in use; 0: no constraint.
 */
void swai_sync_record(struct swai_engine *e, bool host, uint64_t addr,
                      uint64_t val, uint64_t ps);
uint64_t swai_sync_written_at(const struct swai_engine *e, bool host,
                              uint64_t addr, const struct swai_sem_want *want);

#endif /* SWAI_SYNC_H */
