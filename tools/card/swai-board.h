/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-board.h - the board's size properties (datasheet §3): HBM per core
 * group, CPEs per core group and LDM per CPE, with their limits and
 * defaults.  QEMU's device (tools/qemu/swai-card.c) takes them as
 * properties; the simulator (tools/sim/) and the synthesizer's card slots
 * (tools/synth/) assume the defaults, as they assume the timing defaults
 * of swai-timing.h.
 */
#ifndef SWAI_BOARD_H
#define SWAI_BOARD_H

/* Property limits; swai_card_props_validate() (tools/qemu/swai-card.c) refuses the rest. */
#define SWAI_HBM_MB_MIN     1
#define SWAI_HBM_MB_MAX     16384
#define SWAI_CPES_MIN       1
#define SWAI_CPES_MAX       64
#define SWAI_LDM_KB_MIN     16
#define SWAI_LDM_KB_MAX     1024
#define SWAI_LOCAL_MB_AUTO  0xffffffffu  /* local-mb = hbm-mb / 2 */

/* Defaults of the board properties (the timing ones: swai-timing.h). */
#define SWAI_HBM_MB_DEFAULT 256
#define SWAI_CPES_DEFAULT   32
#define SWAI_LDM_KB_DEFAULT 256

/* A core group's LDM on the default board: what libswccl cuts reductions by. */
#define SWAI_CG_LDM_DEFAULT ((unsigned long long)SWAI_CPES_DEFAULT * SWAI_LDM_KB_DEFAULT * 1024)

#endif /* SWAI_BOARD_H */
