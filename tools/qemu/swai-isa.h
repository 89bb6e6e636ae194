/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-isa.h - the core-group program format, for the device model.
 *
 * The one definition is uapi/drm/swai_program.h.  build-qemu.sh copies it
 * next to this file in the QEMU tree; the host unit tests find it in the
 * repository.
 */
#ifndef SWAI_ISA_H
#define SWAI_ISA_H

#if __has_include("swai_program.h")
#include "swai_program.h"
#else
#include "../../uapi/drm/swai_program.h"
#endif

#define SWAI_INSN_SIZE      48
#define SWAI_PROGRAM_MAX    (SWAI_PROGRAM_MAX_BYTES / SWAI_INSN_SIZE)

_Static_assert(sizeof(struct swai_insn) == SWAI_INSN_SIZE,
               "struct swai_insn is 48 bytes");

#endif /* SWAI_ISA_H */
