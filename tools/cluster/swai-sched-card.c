/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-card.c - what a schedule's step costs as one core group of a
 * card runs its lowered program (collectives/swccl_lower.c), in closed
 * form from the card's one timing model (swai-timing.h, swai-cost.h), for
 * swccl-sim --card (so the simulator can be held against the emulator)
 * and swccl-synth --card (its slots; swai-sched-card.h).
 *
 * The program a rank runs, step by step:
 *   SEND         a COPY over the fabric (t-step, then the bytes: the core
 *                group waits for them to land) and a SIGNAL;
 *   RECV         a WAIT on the sender's signal (t-barrier to wake, charged
 *                whether or not it slept), then
 *                a COPY out of the landing area (t-step and the bytes),
 *                unless the sender wrote it in place (swai_sched_direct);
 *   RECV_REDUCE  the WAIT, then the reduction in LDM pieces: both inputs
 *                in and the result out through Local-HBM;
 *   COPY/REDUCE  the same on the rank's own buffers;
 * after the job's launch.  One core group's Local-HBM rate, as a rank of
 * swccl-bench -g 1 has.
 */
#include "swai-cost.h"
#include "swai-sched-card.h"

/*
 * A DMA of @bytes between Local-HBM and LDM: issued, then its bytes at the
 * core group's Local-HBM rate (the ring bus, at the same rate, is charged
 * alongside chunk by chunk).
 */
static uint64_t dma(const struct swai_timing_props *p, uint64_t bytes)
{
    return swai_cost_issue_ps(p, SWAI_OP_DMA_GET) + swai_timing_ps(bytes, p->local_mbps);
}

/* A COPY on the card: issued (t-step), its bytes read and written in Local-HBM. */
static uint64_t copy(const struct swai_timing_props *p, uint64_t bytes)
{
    return swai_cost_issue_ps(p, SWAI_OP_COPY) + swai_timing_ps(bytes, p->local_mbps);
}

/*
 * dst = src op msg (swccl_phases.c's phase_fold): per LDM piece -- half a
 * core group's LDM each -- both inputs in, the REDUCE, the result out.  A
 * REDUCE has no issue of its own: the card charges a compute instruction
 * its LDM work only (swai-compute.c).
 */
static uint64_t reduce(const struct swai_timing_props *p, uint64_t bytes, uint64_t ldm)
{
    uint64_t piece = ldm / 2, t = 0;

    for (uint64_t off = 0; off < bytes; off += piece) {
        uint64_t m = bytes - off < piece ? bytes - off : piece;

        t += 3 * dma(p, m) + swai_cost_ldm_op_ps(p, SWAI_OP_REDUCE, m);
    }
    return t;
}

uint64_t swai_sched_card_before_ps(const struct swai_timing_props *p, const struct swai_step *st)
{
    return st->op == SWAI_STEP_SEND ? swai_cost_issue_ps(p, SWAI_OP_COPY) : 0;
}

uint64_t swai_sched_card_wait_ps(const struct swai_timing_props *p)
{
    const struct swai_insn wait = { .op = SWAI_OP_WAIT };

    return swai_cost_wake_ps(p, &wait);
}

uint64_t swai_sched_card_after_ps(const struct swai_timing_props *p, const struct swai_step *st,
                                  bool direct, uint64_t bytes, uint64_t ldm)
{
    uint64_t wake = swai_sched_card_wait_ps(p);

    switch (st->op) {
    case SWAI_STEP_SEND:
        return 0;   /* the SIGNAL goes with the COPY's last bytes */
    case SWAI_STEP_RECV:
        return wake + (direct ? 0 : copy(p, bytes));    /* direct: the sender wrote it there */
    case SWAI_STEP_RECV_REDUCE:
        return wake + reduce(p, bytes, ldm);
    case SWAI_STEP_COPY:
        return copy(p, bytes);
    default:    /* REDUCE */
        return reduce(p, bytes, ldm);
    }
}

uint64_t swai_sched_card_launch_ps(const struct swai_timing_props *p)
{
    return swai_cost_launch_ps(p);
}
