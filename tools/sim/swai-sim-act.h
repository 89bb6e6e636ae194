/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sim-act.h - a rank's program as its actor replays it (swai-sim.c),
 * and its sends: in flight, or queued on the rank's queue pair to their
 * peer (swai-sim-sends.c).  Private to tools/sim/.
 */
#ifndef SWAI_SIM_ACT_H
#define SWAI_SIM_ACT_H

#include <stdbool.h>
#include <stdint.h>

#include <simgrid/forward.h>

/*
 * One step as a rank's actor replays it, in the rank's issue order.  A
 * thousand actors take turns, so between two steps of one rank the others
 * have evicted its data from the caches: everything a step needs is here,
 * in one record, and the records lie in the order they run (the schedule's
 * steps, their dependencies and the cost model were three to five cache
 * misses a step, a fifth of a 1024-rank ring's wall time).
 */
struct act {
    sg_comm_t comm;         /* a SEND in flight; NULL once it landed */
    sg_mailbox_t box;       /* SEND: to the peer; a receive: from it */
    uint64_t bytes;         /* the message */
    union {
        uint64_t post_ps;   /* after it: the step's local work (--card: a SEND's too) */
        double not_before;  /* else a posted SEND: its round opens then (swai-sim-sends.c) */
    };
    uint32_t deps_at, ndeps;    /* sends it waits for: prog.deps[deps_at ..] */
    union {                 /* 64 bytes a record, not 88: a ring's 2 M of them */
        struct {            /* --card */
            uint64_t pre_ps;    /* before it (a SEND's COPY) */
        };
        struct {            /* else: a SEND, or a receive (qp -1) */
            uint32_t mbps;      /* its route's narrowest link: how fast it leaves */
            int32_t qp;         /* the rank's queue pair to its peer; -1: none */
            int32_t port;       /* the rank's way out it leaves by (prog.port_mbps); -1: none */
            union {
                int32_t next;   /* SEND: the next queued on it; a batch's member: its lead */
                int32_t from;   /* a receive: its peer */
            };
        };
    };
    bool queued;            /* SEND: waiting for its queue pair */
    bool taken;             /* SEND: posted already, in a batch (swai-sim-sends.c) */
    bool member;            /* SEND: carried by its batch's lead (act.next) */
    uint8_t op;             /* enum swai_step_op */
    uint8_t fence;          /* SEND: enum swai_sim_fence */
};

_Static_assert(sizeof(struct act) <= 64, "a 1024-rank ring's 4 M acts, a cache line each");

/*
 * A send's place among its port's rounds (swai-sim-sends.c), known from the
 * issue order: the first send of a later round than any before it on its
 * port opens that round (if it is posted later than the port's last send);
 * a send of the latest round so far waits for it to open; one of an
 * earlier round is late and waits for nothing.
 */
enum swai_sim_fence {
    SWAI_SIM_FENCE_NONE,
    SWAI_SIM_FENCE_SAME,
    SWAI_SIM_FENCE_OPEN,
};

struct prog {
    struct act *act;        /* [n], in issue order */
    uint32_t *deps;         /* positions of SEND acts */
    int n, nqps, nranks;
    int nports;
    uint32_t *port_mbps;    /* [nports]: each way out's bandwidth */
    int rank;
    double *left;           /* --card: [n], when a SEND's last byte left (< 0: not yet) */
    int *peer;              /* --card: [n], the act's peer */
    bool *credit;           /* --card: [rank], its start seen (swccl_lower.c's credit) */
};

/*
 * A rank's sends (swai-sim-sends.c): started, or queued on their queue pair, by
 * swai_sim_send; reaped as they land while the actor waits for something
 * else -- a receive, a send a step depends on, the step's local work, the
 * end.  @transfers counts the sends started.
 */
struct swai_sim_sends;

struct swai_sim_sends *swai_sim_sends_new(struct prog *pg, uint64_t *transfers);
void swai_sim_send(struct swai_sim_sends *fl, int k);
void swai_sim_receive(struct swai_sim_sends *fl, int k);
void swai_sim_wait_send(struct swai_sim_sends *fl, int on);
void swai_sim_work(struct swai_sim_sends *fl, double seconds);
/* Wait for every send to land, then free @fl. */
void swai_sim_sends_end(struct swai_sim_sends *fl);

#endif /* SWAI_SIM_ACT_H */
