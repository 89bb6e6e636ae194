/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-msccl.h - MSCCL's XML algorithm format, in and out
 * (Documentation/cluster.md §3.3), so schedules from MSCCL and TACCL run
 * here and ours run under MSCCL.
 *
 * Export puts each rank's sends to one peer in one threadblock, its
 * receives from one peer in another, and its local steps in a third; a
 * step keeps one dependency in depid/deps and carries more on "nop" steps,
 * as MSCCL's own lowering does.  Import reads s, r, rrc, cpy, re and nop,
 * and splits rcs, rrs and rrcs into a receive and a send; a rank's steps
 * are ordered threadblock by threadblock as their dependencies allow.
 */
#ifndef SWAI_MSCCL_H
#define SWAI_MSCCL_H

#include <stddef.h>

#include "swai-sched.h"

/* The XML text (malloc'd), or NULL without memory. */
char *swai_msccl_export(const struct swai_sched *s);
/* 0, or -EINVAL / -ENOMEM with what is wrong and where in @why. */
int swai_msccl_import(struct swai_sched *s, const char *xml, size_t len,
                      char *why, size_t n);

#endif /* SWAI_MSCCL_H */
