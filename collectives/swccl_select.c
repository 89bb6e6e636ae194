// SPDX-License-Identifier: MIT
/*
 * swccl_select.c - which algorithm runs a call: the one a user forces
 * (swcclCommSetAlgo, else SWCCL_ALGO), otherwise the one the cost model
 * says is fastest.  The cost of a candidate is its modeled time on this
 * card: its programs are built and run through the card's timing model
 * (swccl_sim.c) with the parameters libsdaa reports -- alpha (launch, host
 * sync, per-step, per-DMA, barrier) plus beta (bytes over the bandwidth of
 * each path), plus a host sync after each step of the host-synchronised
 * algorithms.  SWCCL_DEBUG=INFO logs every candidate's cost and the choice.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "swccl_internal.h"

swcclAlgo_t swccl_env_algo(void)
{
	const char *e = getenv("SWCCL_ALGO");

	if (!e || !*e || !strcasecmp(e, "AUTO"))
		return swcclAlgoAuto;
	for (int a = 1; a < swcclNumAlgos; a++)
		if (!strcasecmp(e, swcclAlgoName((swcclAlgo_t)a)))
			return (swcclAlgo_t)a;
	swccl_log(SWCCL_LOG_WARN, "SWCCL_ALGO=%s is not RING, CSC, CSC1 or AUTO; using AUTO", e);
	return swcclAlgoAuto;
}

SWCCL_EXPORT const char *swcclAlgoName(swcclAlgo_t algo)
{
	static const char *const n[] = { "AUTO", "RING", "CSC", "CSC1" };

	return (unsigned)algo < swcclNumAlgos ? n[algo] : "?";
}

/* Model @a on @c: its programs, step by step. */
swcclResult_t swccl_plan_algo(const struct swccl_algo *a, struct swccl_call *c,
			      struct swccl_plan *plan)
{
	int steps = a->steps(c);
	bool host_steps = a->algo == swcclAlgoRing;

	memset(plan, 0, sizeof(*plan));
	plan->algo = a;
	for (int s = 0; s < steps; s++) {
		struct swai_prog prog[SWCCL_MAX_RANKS], *pp[SWCCL_MAX_RANKS];
		struct swccl_sim_result res;
		bool nomem = false;

		for (int r = 0; r < c->nranks; r++) {
			swai_prog_init(&prog[r]);
			a->build(c, s, r, &prog[r]);
			pp[r] = &prog[r];
			nomem |= prog[r].nomem;
			plan->launches += prog[r].n > 0;
		}
		if (!nomem)
			swccl_sim_step(c, pp, NULL, &res);
		for (int r = 0; r < c->nranks; r++)
			swai_prog_free(&prog[r]);
		if (nomem)
			return swcclSystemError;
		if (res.error) {
			swccl_log(SWCCL_LOG_WARN, "%s %s: %s", swccl_coll_name(c->coll), a->name,
				  res.error);
			return swcclInternalError;
		}
		plan->us += res.us + (host_steps ? c->tp.syncNs / 1e3 : 0);
		plan->transfer_us += res.transfer_us;
		plan->host_syncs += res.host_barriers + host_steps;
	}
	return swcclSuccess;
}

swcclResult_t swccl_select(swcclComm_t comm, struct swccl_call *c, struct swccl_plan *plan)
{
	swcclAlgo_t want = c->force ? c->force :
			   comm->algo != swcclAlgoAuto ? comm->algo : swccl_env_algo();
	char costs[512] = "";
	size_t len = 0;
	bool found = false;

	for (int i = 0; swccl_algos[i]; i++) {
		const struct swccl_algo *a = swccl_algos[i];
		const char *why;
		struct swccl_plan p;
		swcclResult_t r;

		if (a->coll != c->coll)
			continue;
		why = a->unsupported(c);
		if (why) {
			len += (size_t)snprintf(costs + len, sizeof(costs) - len, " %s: n/a (%s);",
						a->name, why);
			if (a->algo == want)
				return swccl_fail(comm, swcclInvalidUsage, "%s %s: %s",
						  swccl_coll_name(c->coll), a->name, why);
			continue;
		}
		r = swccl_plan_algo(a, c, &p);
		if (r)
			return swccl_fail(comm, r, "%s %s: cannot model its programs",
					  swccl_coll_name(c->coll), a->name);
		if (len < sizeof(costs))
			len += (size_t)snprintf(costs + len, sizeof(costs) - len,
						" %s %.1f us;", a->name, p.us);
		if (want != swcclAlgoAuto ? a->algo == want : !found || p.us < plan->us) {
			*plan = p;
			found = true;
		}
	}
	if (!found)
		return swccl_fail(comm, swcclInternalError, "%s: no algorithm",
				  swccl_coll_name(c->coll));
	swccl_log(SWCCL_LOG_INFO, "%s #%llu %zu x %s%s%s on %d ranks:%s -> %s (%s)",
		  swccl_coll_name(c->coll), (unsigned long long)c->seq, c->count,
		  swccl_type_name(c->dtype), c->coll == SWCCL_ALLGATHER ||
		  c->coll == SWCCL_BROADCAST ? "" : " ",
		  c->coll == SWCCL_ALLGATHER || c->coll == SWCCL_BROADCAST ? "" :
		  swccl_op_name(c->op), c->nranks, costs, plan->algo->name,
		  c->force ? "a fused call's unfused sequence" :
		  want != swcclAlgoAuto ? "forced" : "lowest modeled time");
	return swcclSuccess;
}
