/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-card.h - a schedule's steps on the card: what each costs as
 * one core group runs libswccl's lowering of it, in closed form from the
 * card's timing model (swai-sched-card.c).  swccl-sim --card replays a
 * rank with these costs; swccl-synth --card plans in them.
 */
#ifndef SWAI_SCHED_CARD_H
#define SWAI_SCHED_CARD_H

#include <stdbool.h>
#include <stdint.h>

#include "swai-sched.h"
#include "swai-timing.h"

/* What step @st takes before its message leaves: a SEND's COPY issued. */
uint64_t swai_sched_card_before_ps(const struct swai_timing_props *p, const struct swai_step *st);
/*
 * A WAIT: its wake-up, which the card charges whether or not it had to
 * sleep (swai-sync.c) -- a receive's, and a rank's credit wait before its
 * first message to a peer (collectives/swccl_lower.c).
 */
uint64_t swai_sched_card_wait_ps(const struct swai_timing_props *p);
/*
 * What it takes after its message arrived (or, a local step, alone): a
 * receive's WAIT, its copy out unless @direct (the sender wrote it in
 * place, swai_sched_direct), a reduction in LDM pieces of half of @ldm; a
 * COPY's issue and its @bytes through Local-HBM.
 */
uint64_t swai_sched_card_after_ps(const struct swai_timing_props *p, const struct swai_step *st,
                                  bool direct, uint64_t bytes, uint64_t ldm);
/* The job's launch, before a rank's first step. */
uint64_t swai_sched_card_launch_ps(const struct swai_timing_props *p);

#endif /* SWAI_SCHED_CARD_H */
