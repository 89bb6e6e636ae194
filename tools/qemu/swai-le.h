/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-le.h - little-endian loads and stores of n <= 8 bytes.  Descriptors,
 * programs, completions and LDM elements are little endian on every host.
 */
#ifndef SWAI_LE_H
#define SWAI_LE_H

#include <stdint.h>

static inline uint64_t swai_ld_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;

    while (n--) {
        v = v << 8 | p[n];
    }
    return v;
}

static inline void swai_st_le(uint8_t *p, unsigned n, uint64_t v)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

#endif /* SWAI_LE_H */
