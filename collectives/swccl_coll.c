// SPDX-License-Identifier: MIT
/*
 * swccl_coll.c - the five collectives: the API, each rank's argument
 * checks, and planning a collective of all ranks: which algorithm runs
 * (the one the user forces -- swcclCommSetAlgo, else SWCCL_ALGO -- or the
 * one the cost model says is fastest), its scratch, and its programs as a
 * schedule.  A candidate's cost is its schedule run on the card's engine
 * (swccl_cost.c): the prediction is the card's modeled time.  A call shape
 * is costed once (swccl_plan.c).  SWCCL_DEBUG=INFO SWCCL_DEBUG_SUBSYS=PLAN
 * logs every choice and the candidates' costs.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "swccl_algo.h"
#include "swccl_xcard.h"
#include "swccl_kind.h"
#include "swccl_nic.h"
#include "swccl_plan.h"
#include "swccl_rdma.h"
#include "swccl_xproc.h"

static const char *const coll_name[SWCCL_NCOLLS] = {
	"AllGather", "ReduceScatter", "AllReduce", "Broadcast", "Reduce", "AllToAll"
};

static const char *name(const struct swccl_call *c)
{
	return coll_name[c->coll];
}

static bool reduces(enum swccl_coll c)
{
	return c == SWCCL_REDUCESCATTER || c == SWCCL_ALLREDUCE || c == SWCCL_REDUCE;
}

static swcclResult_t check(const struct swccl_op *op, struct swccl_rank *rk)
{
	swcclComm_t comm = op->comm;
	size_t es = swccl_type_size(op->dtype), n = (size_t)comm->sh->nranks, sb, rb;
	bool root = op->root == comm->rank;
	swcclResult_t r;

	if (!es)
		return swccl_fail(comm, swcclInvalidArgument, "datatype %d", op->dtype);
	if (reduces(op->coll) && (unsigned)op->op >= swcclNumOps)
		return swccl_fail(comm, swcclInvalidArgument, "reduction operator %d", op->op);
	if ((op->coll == SWCCL_BROADCAST || op->coll == SWCCL_REDUCE) &&
	    (op->root < 0 || op->root >= comm->sh->nranks))
		return swccl_fail(comm, swcclInvalidArgument, "root %d of %zu ranks", op->root, n);
	if (op->count > SIZE_MAX / es / n)
		return swccl_fail(comm, swcclInvalidArgument, "count %zu too large", op->count);
	r = swccl_stream_check(comm, op->stream);
	if (r)
		return r;
	rk->sp = op->send;
	rk->rp = op->recv;
	sb = rb = op->count * es;
	if (op->coll == SWCCL_ALLGATHER || op->coll == SWCCL_ALLTOALL)
		rb *= n;
	if (op->coll == SWCCL_REDUCESCATTER || op->coll == SWCCL_ALLTOALL)
		sb *= n;
	if (op->coll != SWCCL_BROADCAST || root) {
		r = swccl_buffer(comm, op->send, sb, "sendbuff", &rk->send);
		if (r)
			return r;
	}
	if (op->coll != SWCCL_REDUCE || root) {
		r = swccl_buffer(comm, op->recv, rb, "recvbuff", &rk->recv);
		if (r)
			return r;
	}
	return swcclSuccess;
}

static void init(struct swccl_call *c, const struct swccl_op *op)
{
	c->coll = op->coll;
	c->count = op->count;
	c->dtype = op->dtype;
	c->op = reduces(op->coll) ? op->op : swcclSum;
	c->root = op->root;
	c->esize = swccl_type_size(op->dtype);
	c->alone = op->alone;
}

static bool same(const struct swccl_call *c, const struct swccl_op *op)
{
	return c->coll == op->coll && c->count == op->count && c->dtype == op->dtype &&
	       (!reduces(op->coll) || c->op == op->op) && c->root == op->root &&
	       c->alone == op->alone;
}

/* The algorithm asked for: the comm's, else SWCCL_ALGO. */
swcclAlgo_t swccl_algo_wanted(swcclComm_t comm)
{
	const char *e;

	if (comm->algo != swcclAlgoAuto)
		return comm->algo;
	e = swccl_param(SWCCL_PARAM_ALGO);
	for (int a = 0; a < swcclNumAlgos; a++)
		if (!strcasecmp(e, swcclAlgoName((swcclAlgo_t)a)))
			return (swcclAlgo_t)a;
	swccl_log(SWCCL_LOG_WARN, SWCCL_PLAN, "SWCCL_ALGO=%s is not RING, CSC, CSC1, MESH1, "
		  "MESH2, HD, NHR, RB, FILE, NIC, HOST, DIRECT, PLANE or AUTO; using AUTO", e);
	return swcclAlgoAuto;
}

/* Cost @a on @c: its schedule on the card's model. */
static swcclResult_t cost(struct swccl_shared *sh, const struct swccl_call *c,
			  const struct swccl_algo *a, struct swccl_plan *p, swcclComm_t comm0)
{
	struct swccl_sched s;
	swcclResult_t r;

	p->how = a->name;
	if (a->props & SWCCL_ALGO_XCARD) {
		/* Between cards: the schedule on the topology (swccl_xcard.c). */
		p->us = swccl_xcard_cost(sh, c, a);
		p->transfer_us = 0;
		return swcclSuccess;
	}
	swccl_sched_init(&s, c->nranks, a->props & SWCCL_ALGO_HOST_SYNC);
	swccl_sched_algo(&s, c, a);
	r = swccl_plan_cost(sh, c, &s, a->scratch(c), p, comm0);
	swccl_sched_free(&s);
	return r;
}

/* The algorithm that runs @c, and its cost: the cheapest unless one is wanted. */
static swcclResult_t choose(struct swccl_shared *sh, const struct swccl_call *c,
			    struct swccl_plan *p, swcclComm_t comm0)
{
	char costs[512] = "";
	size_t len = 0;
	bool found = false;

	for (int i = 0; swccl_algos[i]; i++) {
		const struct swccl_algo *a = swccl_algos[i];
		struct swccl_plan q = { .algo = a->algo };
		const char *why;
		swcclResult_t r;

		if (a->coll != c->coll || (c->want && a->algo != c->want) ||
		    !!(a->props & SWCCL_ALGO_XCARD) != c->xcard)
			continue;
		why = a->unsupported(c);
		if (why) {
			if (a->algo == c->want)
				return swccl_fail(comm0, swcclInvalidUsage, "%s %s: %s", name(c),
						  a->name, why);
			len += (size_t)snprintf(costs + len, sizeof(costs) - len, " %s: n/a (%s);",
						a->name, why);
			continue;
		}
		r = cost(sh, c, a, &q, comm0);
		if (r)
			return r;
		if (q.us < 0 && !c->want) {	/* between cards, not on the topology */
			len += (size_t)snprintf(costs + len, sizeof(costs) - len, " %s: n/a "
						"(no estimate);", a->name);
			continue;
		}
		q.us = q.us < 0 ? 0 : q.us;	/* forced: runs without one */
		if (len < sizeof(costs))
			len += (size_t)snprintf(costs + len, sizeof(costs) - len, " %s %.3f us;",
						a->name, q.us);
		if (!found || q.us < p->us) {
			*p = q;
			found = true;
		}
	}
	if (!found && c->want)
		return swccl_fail(comm0, swcclInvalidUsage, "%s: %s is not an algorithm %s "
				  "(%s)", name(c), swcclAlgoName(c->want),
				  c->xcard ? "between cards" : "among the core groups of a card",
				  c->coll == SWCCL_ALLTOALL ? (c->xcard ? "DIRECT, PLANE, FILE" :
							       "DIRECT") :
				  c->xcard ? "RING, MESH1, MESH2, HD, NHR, RB" : "RING, CSC, CSC1");
	/* Between cards a partial fabric (a ring's non-neighbours) can rule out every one. */
	if (!found && c->xcard)
		return swccl_fail(comm0, swcclInvalidUsage, "%s: no algorithm between cards runs "
				  "on this comm's fabric:%s", name(c), costs);
	if (!found)
		return swccl_fail(comm0, swcclInternalError, "%s: no algorithm:%s", name(c), costs);
	swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "%s #%llu %zu x %s%s%s on %d ranks:%s -> %s (%s)",
		  name(c), (unsigned long long)c->seq, c->count, swccl_type_name(c->dtype),
		  reduces(c->coll) ? " " : "", reduces(c->coll) ? swccl_op_name(c->op) : "",
		  c->nranks, costs, swcclAlgoName(p->algo),
		  c->want ? "forced" : "lowest modeled time");
	return swcclSuccess;
}

/*
 * A call between cards: every rank's landing area large enough for @a's
 * messages, the counters, and the messages sent by earlier calls
 * (swccl_lower.c waits for them on top).
 */
static swcclResult_t xcard_prepare(struct swccl_shared *sh, struct swccl_call *c,
				  const struct swccl_algo *a, swcclComm_t comm0)
{
	size_t bytes = a->scratch(c);
	swcclResult_t r;

	if (!bytes)
		return swccl_fail(comm0, swcclInternalError, "%s: no schedule", a->name);
	if (sh->xproc && (r = swccl_xproc_land(sh, bytes)))
		return r;
	if (!sh->xproc && swccl_xland(sh, bytes))
		return swccl_fail(comm0, swcclUnhandledSdaaError, "cannot allocate %zu bytes of "
				  "Global-HBM on every card for %s's messages: %s", bytes, a->name,
				  sdaaGetErrorString(sdaaGetLastError()));
	c->xland_bytes = sh->xland_bytes;
	for (int r = 0; r < c->nranks; r++) {
		c->xland[r] = (uint64_t)(uintptr_t)sh->xland[r];
		c->xflags[r] = (uint64_t)(uintptr_t)sh->xflags[r];
	}
	memcpy(c->xsent, sh->xsent, sizeof(c->xsent));
	c->xcalls = sh->xcalls;
	return swcclSuccess;
}

static swcclResult_t plan(struct swccl_shared *sh, struct swccl_call *c, struct swccl_plan *p,
			  swcclComm_t comm0)
{
	const struct swccl_algo *a;
	swcclResult_t r;

	c->want = swccl_algo_wanted(comm0);
	/* Over the NICs: another transport, its own plan (swccl_nic_run.c). */
	if (c->want == swcclAlgoNic || c->want == swcclAlgoHost)
		return swccl_nic_plan(sh, c, p, comm0);
	/* AllToAll between nodes: its schedules over the NICs' RDMA WRITE. */
	if (sh->xnodes && c->coll == SWCCL_ALLTOALL)
		return swccl_rdma_plan(sh, c, p, comm0);
	/*
	 * Ranks on other nodes: only the NICs reach them -- MESH1 over RDMA
	 * WRITE (any size) or the NIC's trees (48 B a tree): the faster by
	 * their models; the trees where MESH1 has none.
	 */
	if (sh->xnodes) {
		const char *why = swccl_nic_unsupported(c, swcclAlgoNic);
		swcclResult_t r = swcclInvalidUsage;

		if (c->want && c->want != swcclAlgoMesh1)
			return swccl_fail(comm0, swcclInvalidUsage, "%s: the ranks span nodes, and "
					  "between nodes only NIC and HOST (trees) and MESH1 (RDMA "
					  "WRITE) run (%s needs the fabric of one node)", name(c),
					  swcclAlgoName(c->want));
		if (swccl_nic_cards(sh, c))
			r = swccl_rdma_plan(sh, c, p, comm0);
		if (c->want)
			return r;
		if (!why && swccl_nic_auto(sh, c, r || p->us <= 0 ? NULL : p, p, comm0))
			return swcclSuccess;
		if (!r)
			return swcclSuccess;
		return swccl_fail(comm0, swcclInvalidUsage, "%s: the ranks span nodes, and no "
				  "algorithm between nodes runs it: %s", name(c),
				  why ? why : "the cards have no NIC port on a network");
	}
	swccl_xcard_topo(sh, c);
	/* AllToAllv's blocks are not in the plan's key: plan each call. */
	if (c->v || !swccl_plan_lookup(sh, c, p)) {
		r = choose(sh, c, p, comm0);
		if (!c->want && swccl_nic_auto(sh, c, r ? NULL : p, p, comm0))
			r = swcclSuccess;
		if (r)
			return r;
		/* AllToAll: over the NICs' RDMA where the cards have ports and it is faster. */
		if (!c->want)
			swccl_rdma_auto(sh, c, p, p, comm0);
		if (!c->v)
			swccl_plan_store(sh, c, p);
	}
	if (p->rdma) {
		swccl_rdma_finish_plan(p);
		return swcclSuccess;
	}
	if (p->algo == swcclAlgoNic) {	/* AUTO chose the NIC (now or before) */
		p->how = swcclAlgoName(p->algo);
		p->fused = -1;
		p->launches = 0;
		p->host_syncs = 1;
		return swcclSuccess;
	}
	a = swccl_algo_find_for(c->coll, p->algo, c->xcard);
	if (a->props & SWCCL_ALGO_XCARD)
		r = xcard_prepare(sh, c, a, comm0);
	else if ((r = swccl_scratch(sh, a->scratch(c))))
		return swccl_fail(comm0, r, "cannot allocate %zu bytes of Global-HBM scratch",
				  a->scratch(c));
	if (r)
		return r;
	c->scratch = (uint64_t)(uintptr_t)sh->scratch;
	c->scratch_bytes = sh->scratch_bytes;
	p->how = a->name;
	p->fused = -1;
	swccl_sched_init(&p->sched, c->nranks, a->props & SWCCL_ALGO_HOST_SYNC);
	swccl_sched_algo(&p->sched, c, a);
	swccl_sched_count(&p->sched, &p->launches, &p->host_syncs);
	if (p->sched.nomem)
		return swccl_fail(comm0, swcclSystemError, "%s %s: cannot build its programs",
				  name(c), a->name);
	if (a->props & SWCCL_ALGO_XCARD)
		swccl_xcard_done(sh, c, a, p);
	return swcclSuccess;
}

const struct swccl_kind swccl_kind_coll = {
	.name = name, .check = check, .init = init, .same = same, .plan = plan,
};

static swcclResult_t call(swcclComm_t comm, enum swccl_coll coll, const void *send, void *recv,
			  size_t count, swcclDataType_t dtype, swcclRedOp_t op, int root,
			  sdaaStream_t stream)
{
	struct swccl_op o = { .comm = comm, .kind = &swccl_kind_coll, .coll = coll,
			      .send = send, .recv = recv, .count = count, .dtype = dtype,
			      .op = op, .root = root, .stream = stream };

	return swccl_submit(&o);
}

SWCCL_EXPORT swcclResult_t swcclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
					  swcclDataType_t datatype, swcclComm_t comm,
					  sdaaStream_t stream)
{
	return call(comm, SWCCL_ALLGATHER, sendbuff, recvbuff, sendcount, datatype, swcclSum, 0,
		    stream);
}

SWCCL_EXPORT swcclResult_t swcclReduceScatter(const void *sendbuff, void *recvbuff,
					      size_t recvcount, swcclDataType_t datatype,
					      swcclRedOp_t op, swcclComm_t comm,
					      sdaaStream_t stream)
{
	return call(comm, SWCCL_REDUCESCATTER, sendbuff, recvbuff, recvcount, datatype, op, 0,
		    stream);
}

SWCCL_EXPORT swcclResult_t swcclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
					  swcclDataType_t datatype, swcclRedOp_t op,
					  swcclComm_t comm, sdaaStream_t stream)
{
	return call(comm, SWCCL_ALLREDUCE, sendbuff, recvbuff, count, datatype, op, 0, stream);
}

SWCCL_EXPORT swcclResult_t swcclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
					  swcclDataType_t datatype, int root, swcclComm_t comm,
					  sdaaStream_t stream)
{
	return call(comm, SWCCL_BROADCAST, sendbuff, recvbuff, count, datatype, swcclSum, root,
		    stream);
}

SWCCL_EXPORT swcclResult_t swcclAllToAll(const void *sendbuff, void *recvbuff, size_t count,
					 swcclDataType_t datatype, swcclComm_t comm,
					 sdaaStream_t stream)
{
	return call(comm, SWCCL_ALLTOALL, sendbuff, recvbuff, count, datatype, swcclSum, 0,
		    stream);
}

SWCCL_EXPORT swcclResult_t swcclReduce(const void *sendbuff, void *recvbuff, size_t count,
				       swcclDataType_t datatype, swcclRedOp_t op, int root,
				       swcclComm_t comm, sdaaStream_t stream)
{
	return call(comm, SWCCL_REDUCE, sendbuff, recvbuff, count, datatype, op, root, stream);
}
