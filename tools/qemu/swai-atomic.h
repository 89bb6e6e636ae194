/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-atomic.h - the one word the MPE thread reads without the lock that
 * MMIO writes with it (the MMU's TLB generation, swai-mmu.h): a relaxed
 * atomic, as QEMU's qatomic_read/qatomic_set, spelled so the card also
 * builds outside QEMU.
 */
#ifndef SWAI_ATOMIC_H
#define SWAI_ATOMIC_H

#include <stdint.h>

static inline uint32_t qatomic_read_u32(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void qatomic_set_u32(uint32_t *p, uint32_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

#endif /* SWAI_ATOMIC_H */
