/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-philox.c - Philox4x32-10 and the dropout uniforms (swai-philox.h).
 */
#include "swai-philox.h"

#define PHILOX_M0   0xD2511F53u     /* round multipliers */
#define PHILOX_M1   0xCD9E8D57u
#define PHILOX_W0   0x9E3779B9u     /* key schedule (Weyl) constants */
#define PHILOX_W1   0xBB67AE85u
#define PHILOX_ROUNDS 10

void swai_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2],
                        uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    uint32_t k0 = key[0], k1 = key[1];
    int i;

    for (i = 0; i < PHILOX_ROUNDS; i++) {
        uint64_t p0 = (uint64_t)PHILOX_M0 * c0;
        uint64_t p1 = (uint64_t)PHILOX_M1 * c2;

        c0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        c1 = (uint32_t)p1;
        c2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c3 = (uint32_t)p0;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

float swai_philox_uniform(uint64_t seed, uint64_t c)
{
    uint64_t q = c / 4;
    uint32_t ctr[4] = { (uint32_t)q, (uint32_t)(q >> 32), 0, 0 };
    uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };
    uint32_t w[4];

    swai_philox4x32_10(ctr, key, w);
    return (float)(w[c % 4] >> 8) * 0x1p-24f;
}
