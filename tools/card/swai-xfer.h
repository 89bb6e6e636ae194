/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-xfer.h - the transfer instructions DMA_GET, DMA_PUT and COPY
 * (datasheet §13.4, §13.8, §14.4, §14.7), synchronous or not.
 */
#ifndef SWAI_XFER_H
#define SWAI_XFER_H

#include "swai-engine.h"

/*
 * One step of the transfer at CG cg's pc: its fixed cost when it starts,
 * then one chunk of at most SWAI_CHUNK bytes.  SWAI_JOB_OK (more to do,
 * or on to the next instruction), SWAI_CG_GONE or an error.
 */
int swai_xfer_step(struct swai_engine *e, unsigned cg,
                   const struct swai_insn *in);

#endif /* SWAI_XFER_H */
