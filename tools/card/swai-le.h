/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-le.h - little-endian loads and stores of n <= 8 bytes.  Descriptors,
 * programs, completions and LDM elements are little endian on every host.
 */
#ifndef SWAI_LE_H
#define SWAI_LE_H

#include <stdint.h>
#include <string.h>

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


/* Bit patterns of IEEE floats and back (memcpy: no aliasing UB). */
static inline float bits_f32(uint32_t b)
{
    float f;

    memcpy(&f, &b, sizeof(f));
    return f;
}

static inline uint32_t f32_bits(float f)
{
    uint32_t b;

    memcpy(&b, &f, sizeof(b));
    return b;
}

static inline double bits_f64(uint64_t b)
{
    double d;

    memcpy(&d, &b, sizeof(d));
    return d;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t b;

    memcpy(&b, &d, sizeof(b));
    return b;
}

#endif /* SWAI_LE_H */
