/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-layout.h - where device memory is under the current Local/Global
 * switch (datasheet §5, §6): four HBM controllers, one per core group;
 * the bottom local_mb of each is that CG's Local-HBM, the rest of all four
 * (the Cross segments) is Global-HBM, interleaved every
 * SWAI_GLOBAL_GRANULE bytes across the controllers.
 */
#ifndef SWAI_LAYOUT_H
#define SWAI_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

struct swai_layout {
    uint32_t hbm_mb;            /* per controller, fixed */
    uint32_t local_mb;          /* per CG, the switch (LOCAL_PER_CG_MB) */
};

/* Where a device address lands: HBM controller and offset within it. */
struct swai_loc {
    unsigned ctrl;      /* HBM controller == core group */
    uint64_t off;       /* byte offset inside that controller */
    uint64_t phys;      /* HBM-physical = ctrl * hbm + off (BAR2 offset) */
    uint64_t run;       /* bytes contiguous from here in both spaces */
};

uint64_t swai_layout_hbm_bytes(const struct swai_layout *l);    /* per ctrl */
uint64_t swai_layout_local_bytes(const struct swai_layout *l);  /* per CG */
uint64_t swai_layout_global_bytes(const struct swai_layout *l); /* total */
/*
 * Translate device address 'addr' as issued by core group 'cg': addresses
 * below SWAI_GLOBAL_BASE are that CG's private Local-HBM, addresses from
 * SWAI_GLOBAL_BASE on are Global-HBM.  Returns false when the address is
 * not backed (or cg is out of range); 'loc' is then untouched.
 */
bool swai_layout_translate(const struct swai_layout *l, unsigned cg,
                           uint64_t addr, struct swai_loc *loc);

#endif /* SWAI_LAYOUT_H */
