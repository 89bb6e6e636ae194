/* SPDX-License-Identifier: MIT */
/*
 * splitmix64.h - the deterministic PRNG of the tests and benchmarks: the same
 * seed gives the same sequence on every machine, so runs are comparable.
 */
#ifndef SWAI_SPLITMIX64_H
#define SWAI_SPLITMIX64_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif /* SWAI_SPLITMIX64_H */
