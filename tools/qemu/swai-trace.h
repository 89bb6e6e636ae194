/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-trace.h - the card's trace points, defined once in trace-events.
 *
 * In QEMU the trace_swai_*() calls are QEMU's tracing (trace.h, generated
 * from trace-events; enable with -trace 'swai_*').  The host unit tests
 * compile the same calls against inline no-ops generated from the same
 * file (trace-stubs.awk), so every trace point also builds and type-checks
 * outside QEMU.  Include this first in a unit that traces: QEMU's osdep.h
 * must come before any system header.
 */
#ifndef SWAI_TRACE_H
#define SWAI_TRACE_H

#if __has_include("qemu/osdep.h")
#include "qemu/osdep.h"
#include "trace.h"
#else
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "swai-trace-stubs.h"
#endif

#endif /* SWAI_TRACE_H */
