// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_trace.c - instantiates the tracepoints of swai_trace.h.
 */
#define CREATE_TRACE_POINTS
#include "swai_trace.h"
