/* SPDX-License-Identifier: MIT */
/*
 * swccl_plan.h - how a call runs and what it costs.
 *
 * A schedule (as UCC's ucc_schedule) is every rank's jobs -- core-group
 * programs, in launch order on the rank's stream -- in phases: all of a
 * phase's jobs are launched at once, and for a host-synchronised
 * schedule the host waits for every rank after each phase.  Algorithms,
 * the kernel emitters and the fused calls build schedules; the launch
 * layer runs them on the card (swccl_launch.c), and the cost model
 * (swccl_cost.c) runs the very same schedule on the card's engine
 * (tools/card/swai-engine.h), so a prediction is the card's modeled time.
 *
 * Later transports (card-to-card, NIC) are more kinds of jobs in a
 * schedule, and algorithms given as schedules (imported or synthesized)
 * are schedules built from outside; both plug in here.
 */
#ifndef SWCCL_PLAN_H
#define SWCCL_PLAN_H

#include "swai-prog.h"
#include "swccl_comm.h"

struct swccl_algo;

struct swccl_sched {
	int nranks;
	bool host_sync;		/* the host waits for every rank after each phase */
	int nphases, cap;
	struct swai_progs *jobs;	/* [phase * nranks + rank] */
	bool nomem;
};

void swccl_sched_init(struct swccl_sched *s, int nranks, bool host_sync);
void swccl_sched_free(struct swccl_sched *s);
/* Open a new phase; its index. */
int swccl_sched_phase(struct swccl_sched *s);
/* Rank @r's jobs in phase @p. */
struct swai_progs *swccl_sched_jobs(const struct swccl_sched *s, int p, int r);
/* Append algorithm @a's programs for @c, its steps after the last phase. */
void swccl_sched_algo(struct swccl_sched *s, const struct swccl_call *c,
		      const struct swccl_algo *a);
/* Launches (non-empty jobs) and host syncs (waits, host-mediated barriers). */
void swccl_sched_count(const struct swccl_sched *s, int *launches, int *host_syncs);

/* What a call will do and take. */
struct swccl_plan {
	struct swccl_sched sched;
	const char *how;	/* "CSC", "CSC fused", "unfused (LayerNorm, CSC, GEMM)" */
	swcclAlgo_t algo;
	int fused;		/* -1: not a fused call */
	double us;		/* the cost model's: the card's modeled time, idle card */
	double transfer_us;	/* time the slowest rank moved bytes at full speed (Fig. 13) */
	int launches, host_syncs;
	bool rdma;		/* runs over the NICs' RDMA WRITE (swccl_rdma.c) */
	/* its schedule's messages between nodes (c->node), and their bytes */
	unsigned long long internode_msgs, internode_bytes;
};

/* swccl_cost.c: the cost model, the call's schedule on the card's engine */
struct swccl_cost {
	double us, transfer_us;
};
struct swai_engine_arith;
struct swai_timing_props;
/* The engine's timing parameters from the card's (sdaaDeviceGetTimingParams). */
void swccl_timing_props(const struct sdaaTimingParams *t, struct swai_timing_props *tp);
/*
 * A model of the card a call of @c's shape runs on.  With @arith the
 * engine also computes (the host unit tests: device addresses are host
 * pointers); without, it only times.  NULL without memory.
 */
struct swccl_model *swccl_model_new(const struct swccl_call *c,
				    const struct swai_engine_arith *arith);
void swccl_model_free(struct swccl_model *m);
/*
 * Run @s for @c, every job of a phase launched at the host's time, the
 * host waiting after each phase if @s says so; 0, or -1 with @why (a
 * deadlock, a card error: a bug of the schedule's builder).  @extra_scratch
 * bytes of Global-HBM are assumed at c->scratch (a plan made before the
 * scratch grows).
 */
int swccl_model_run(struct swccl_model *m, const struct swccl_call *c,
		    const struct swccl_sched *s, size_t extra_scratch,
		    struct swccl_cost *out, char *why, size_t n);

/* swccl_plan.c: the comm's plans, one per call shape, made once */
struct swccl_plan_cache *swccl_plan_cache_new(void);
void swccl_plan_cache_free(struct swccl_plan_cache *pc);
/*
 * The plan of @c from the cache (its cost and choice, whether it goes over
 * RDMA and its messages between nodes; the schedule is the caller's to
 * build), or false.
 */
bool swccl_plan_lookup(struct swccl_shared *sh, const struct swccl_call *c,
		       struct swccl_plan *p);
void swccl_plan_store(struct swccl_shared *sh, const struct swccl_call *c,
		      const struct swccl_plan *p);
/* Cost @s for @c on the comm's model; fills p->us and p->transfer_us. */
swcclResult_t swccl_plan_cost(struct swccl_shared *sh, const struct swccl_call *c,
			      const struct swccl_sched *s, size_t extra_scratch,
			      struct swccl_plan *p, swcclComm_t comm0);

#endif /* SWCCL_PLAN_H */
