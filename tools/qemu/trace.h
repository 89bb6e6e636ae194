/* SPDX-License-Identifier: GPL-2.0-or-later */
/* QEMU's per-directory trace header for hw/misc/swai (see trace-events). */
#include "trace/trace-hw_misc_swai.h"
