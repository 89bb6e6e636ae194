/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-layout.c - the device memory layout (swai-layout.h).
 */
#include "swai_regs.h"
#include "swai-layout.h"

#define SWAI_MIB (1024ull * 1024)

/* Global-HBM chunks must tile every possible Cross segment exactly. */
_Static_assert((SWAI_PART_ALIGN_MB * SWAI_MIB) % SWAI_GLOBAL_GRANULE == 0,
               "partition granule must be a multiple of the Global granule");

uint64_t swai_layout_hbm_bytes(const struct swai_layout *l)
{
    return (uint64_t)l->hbm_mb * SWAI_MIB;
}

uint64_t swai_layout_local_bytes(const struct swai_layout *l)
{
    return (uint64_t)l->local_mb * SWAI_MIB;
}

uint64_t swai_layout_global_bytes(const struct swai_layout *l)
{
    return SWAI_NUM_CG * (swai_layout_hbm_bytes(l) -
                          swai_layout_local_bytes(l));
}

bool swai_layout_translate(const struct swai_layout *l, unsigned cg,
                           uint64_t addr, struct swai_loc *loc)
{
    uint64_t local = swai_layout_local_bytes(l);
    struct swai_loc r;

    if (cg >= SWAI_NUM_CG) {
        return false;
    }
    if (addr < SWAI_GLOBAL_BASE) {
        /* Local-HBM: the bottom of the issuing CG's own controller. */
        if (addr >= local) {
            return false;
        }
        r.ctrl = cg;
        r.off = addr;
        r.run = local - addr;
    } else {
        /* Global-HBM: granule k lives on controller k % NUM_CG. */
        uint64_t g = addr - SWAI_GLOBAL_BASE;
        uint64_t k = g / SWAI_GLOBAL_GRANULE;
        uint64_t in = g % SWAI_GLOBAL_GRANULE;

        if (g >= swai_layout_global_bytes(l)) {
            return false;
        }
        r.ctrl = k % SWAI_NUM_CG;
        r.off = local + k / SWAI_NUM_CG * SWAI_GLOBAL_GRANULE + in;
        r.run = SWAI_GLOBAL_GRANULE - in;
    }
    r.phys = r.ctrl * swai_layout_hbm_bytes(l) + r.off;
    *loc = r;
    return true;
}
