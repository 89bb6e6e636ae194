/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_debug.h - debug messages of swai.ko by category, as ivpu's ivpu_dbg.
 *
 * The module parameter swai.debug is a mask of SWAI_DBG_* bits (writable in
 * /sys/module/swai/parameters/debug) that selects the categories; the
 * messages are dev_dbg(), so with CONFIG_DYNAMIC_DEBUG they also need
 * "module swai +p" in dynamic_debug/control (or swai.dyndbg=+p), as ivpu's.
 * Job messages name the job as every layer does: ctx <ASID> q <core group>
 * job <id>.
 */
#ifndef SWAI_DEBUG_H
#define SWAI_DEBUG_H

#include <linux/bits.h>
#include <linux/device.h>

#define SWAI_DBG_PROBE	BIT(0)	/* identity, geometry, partition */
#define SWAI_DBG_IOCTL	BIT(1)	/* rejected ioctls and why */
#define SWAI_DBG_JOB	BIT(2)	/* submit, completion */
#define SWAI_DBG_QUEUE	BIT(3)	/* ring writes */
#define SWAI_DBG_MMU	BIT(4)	/* contexts, faults */
#define SWAI_DBG_RESET	BIT(5)	/* queue and card resets */
#define SWAI_DBG_PRIME	BIT(6)	/* buffer export and import */
#define SWAI_DBG_NIC	BIT(7)	/* NIC ports and refused posts */

extern unsigned int swai_debug_mask;

#define swai_dbg(dev, cat, fmt, ...)					\
	do {								\
		if (unlikely(swai_debug_mask & SWAI_DBG_##cat))		\
			dev_dbg(dev, "[" #cat "] " fmt, ##__VA_ARGS__);	\
	} while (0)

#endif /* SWAI_DEBUG_H */
