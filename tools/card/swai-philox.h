/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-philox.h - the counter-based random numbers of DROPOUT
 * (Documentation/datasheet.md §13.7).
 *
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
 * 3", SC'11): a keyed bijection of a 128-bit counter.  Element c of a
 * dropout mask depends only on (seed, c), so any split of a tensor over
 * instructions, jobs or core groups draws the same mask.
 */
#ifndef SWAI_PHILOX_H
#define SWAI_PHILOX_H

#include <stdint.h>

/* out = Philox4x32-10(ctr, key). */
void swai_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2],
                        uint32_t out[4]);

/*
 * The uniform number in [0, 1) of mask element c under seed: word c % 4 of
 * Philox(counter (lo32(c / 4), hi32(c / 4), 0, 0), key (lo32(seed),
 * hi32(seed))), its top 24 bits times 2^-24 (exact in f32).
 */
float swai_philox_uniform(uint64_t seed, uint64_t c);

#endif /* SWAI_PHILOX_H */
