// SPDX-License-Identifier: MIT
/*
 * swccl_rdma.c - schedules over RDMA WRITE (swccl_rdma.h): every call can
 * go, their plan (DIRECT or PLANE, grouped by the ranks' nodes), and every
 * rank's ports and mailbox, opened at the first such call and known to all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-gen.h"
#include "swccl_kind.h"
#include "swccl_nic.h"
#include "swccl_plan.h"
#include "swccl_rdma.h"
#include "swccl_xcard.h"
#include "swccl_xproc.h"

static void close_rank(void *ctx, int r)
{
	struct swccl_rdma *n = ctx;

	for (int k = 0; k < SWCCL_RDMA_PORTS; k++)
		if (n->port[r][k].key)
			sdaaNicClose(&n->port[r][k]);
	if (n->mbox[r])
		sdaaFreeHost(n->mbox[r]);
	if (n->scratch[r])
		sdaaFree(n->scratch[r]);
	if (n->in[r])
		sdaaFree(n->in[r]);
	if (n->red[r])
		sdaaFree(n->red[r]);
}

void swccl_rdma_free(struct swccl_shared *sh)
{
	if (!sh->rdma)
		return;
	swccl_xproc_close_all(sh, close_rank, sh->rdma);
	free(sh->rdma);
	sh->rdma = NULL;
}

/* Rank @r's ports and mailbox, on its card; its peer record. */
static swcclResult_t open_rank(struct swccl_shared *sh, void *ctx, int r, swcclComm_t comm0)
{
	struct swccl_rdma *n = ctx;
	struct swcclComm *cm = sh->comm[r];
	size_t mb = sizeof(*n->mbox[r]) * (size_t)sh->nranks;
	void *dp = NULL;

	if (sdaaSetDevice(cm->dev))
		return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d: %s", r,
				  sdaaGetErrorString(sdaaGetLastError()));
	for (int k = 0; k < SWCCL_RDMA_PORTS; k++) {
		if (sdaaNicOpen(cm->dev, &n->port[r][k]))
			return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d (card %d): NIC "
					  "port %d of %d: %s (AllToAll between nodes needs the cards' "
					  "NIC ports: tools/vm/swai-cluster)", r, cm->card, k + 1,
					  SWCCL_RDMA_PORTS, sdaaGetErrorString(sdaaGetLastError()));
		n->peer[r].vport[k] = n->port[r][k].vport;
		n->peer[r].key[k] = n->port[r][k].key;
	}
	if (sdaaMallocHost((void **)&n->mbox[r], mb) ||
	    sdaaHostGetDevicePointer(&dp, n->mbox[r], 0))
		return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d: cannot pin its NIC "
				  "mailbox: %s", r, sdaaGetErrorString(sdaaGetLastError()));
	memset(n->mbox[r], 0, mb);
	n->peer[r].node = n->port[r][0].node;
	n->peer[r].mbox = (uint64_t)(uintptr_t)dp;
	return swcclSuccess;
}

/* Every rank's ports and mailbox, opened and known to all (once per comm). */
static swcclResult_t setup(struct swccl_shared *sh, swcclComm_t comm0)
{
	struct swccl_rdma *n;
	swcclResult_t res;

	if (sh->rdma)
		return swcclSuccess;
	n = calloc(1, sizeof(*n));
	if (!n)
		return swccl_fail(comm0, swcclSystemError, "out of memory");
	sh->rdma = n;
	res = swccl_xproc_open_all(sh, comm0, open_rank, n, n->peer, sizeof(n->peer[0]),
				   "the RDMA ports");
	if (res)
		swccl_rdma_free(sh);
	return res;
}

/*
 * AUTO's choice between nodes: the one the model of the cards' NICs says is
 * faster (ties: the fewer messages between nodes) -- an AllToAllv's too,
 * every process knowing every rank's counts (swccl_p2p.c); where neither
 * model can say, seed 002's criterion alone, the fewer messages between
 * nodes.  *us: the chosen one's model time.
 */
static swcclAlgo_t choose(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0,
			  double *us)
{
	static const swcclAlgo_t cand[2] = { swcclAlgoDirect, swcclAlgoPlane };
	double t[2] = { -1, -1 };
	uint64_t m[2] = { 0, 0 }, chunks;
	struct swai_sched s;
	char why[256];
	int best = 0;

	for (int i = 0; i < 2; i++) {
		if (swai_gen_build(&s, swcclAlgoName(cand[i]), SWAI_COLL_ALLTOALL, c->nranks,
				   &(struct swai_gen_opts){ .node_of = c->node }, why, sizeof(why)))
			continue;
		swai_sched_internode(&s, c->node, &m[i], &chunks);
		swai_sched_free(&s);
		t[i] = swccl_rdma_model(sh, c, swcclAlgoName(cand[i]), comm0);
	}
	if (t[1] >= 0 && (t[0] < 0 || t[1] < t[0] || (t[1] == t[0] && m[1] < m[0])))
		best = 1;
	else if (t[0] < 0 && t[1] < 0 && m[1] && m[1] < m[0])
		best = 1;
	*us = t[best];
	swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "%s #%llu between nodes: DIRECT %.3f us, %llu "
		  "messages between nodes; PLANE %.3f us, %llu -> %s", c->kind->name(c),
		  (unsigned long long)c->seq,
		  t[0], (unsigned long long)m[0], t[1], (unsigned long long)m[1],
		  swcclAlgoName(cand[best]));
	return cand[best];
}

/*
 * An AllToAllv's messages between nodes: its blocks' sizes, through its
 * relays' scratch (PLANE's carry a node's blocks for one rank), as the
 * protocol lays them out.
 */
static swcclResult_t v_internode(struct swccl_shared *sh, const struct swccl_call *c,
				 struct swccl_plan *p, swcclComm_t comm0)
{
	struct swccl_rdma_call x = { .sh = sh, .c = c, .comm0 = comm0,
				     .how = swcclAlgoName(p->algo), .peer = sh->rdma->peer };
	swcclResult_t r = swccl_rdma_call_init(&x);

	if (!r)
		swccl_rdma_internode(&x, &p->internode_msgs, &p->internode_bytes);
	swccl_rdma_call_free(&x);
	return r;
}

/*
 * The RDMA plan of @c: AllToAll DIRECT or PLANE, as wanted or by the
 * model; AllGather and Broadcast MESH1 (every block straight to every
 * rank that wants it: one phase, a WRITE a peer); ReduceScatter,
 * AllReduce and Reduce MESH1 too, their sums on the cards
 * (swccl_rdma_reduce.c).
 */
static swcclResult_t plan_rdma(struct swccl_shared *sh, struct swccl_call *c,
			       struct swccl_plan *p, swcclComm_t comm0)
{
	bool a2a = c->coll == SWCCL_ALLTOALL;
	struct swai_sched s;
	char gwhy[256];
	swcclAlgo_t a = c->want;
	swcclResult_t res;
	double us = -1;

	if (a2a && a != swcclAlgoAuto && a != swcclAlgoDirect && a != swcclAlgoPlane)
		return swccl_fail(comm0, swcclInvalidUsage, "AllToAll: the ranks span nodes, and "
				  "between nodes it runs DIRECT or PLANE over the NICs, not %s",
				  swcclAlgoName(a));
	if (!a2a && a != swcclAlgoAuto && a != swcclAlgoMesh1)
		return swccl_fail(comm0, swcclInvalidUsage, "%s: the ranks span nodes, and "
				  "between nodes it runs MESH1 over RDMA WRITE or NIC/HOST's trees, "
				  "not %s", c->kind->name(c), swcclAlgoName(a));
	if (!a2a)
		a = swcclAlgoMesh1;
	if (setup(sh, comm0))
		return swcclUnhandledSdaaError;
	if (a == swcclAlgoAuto && a2a)
		a = choose(sh, c, comm0, &us);
	else if (!swccl_rdma_reduces(c))
		us = swccl_rdma_model(sh, c, swcclAlgoName(a), comm0);
	else
		us = swccl_rdma_reduce_model(sh, c, comm0);
	*p = (struct swccl_plan){ .algo = a, .us = us < 0 ? 0 : us, .rdma = true };
	if (c->v) {
		res = v_internode(sh, c, p, comm0);	/* it builds and checks the schedule */
		if (res)
			return res;
	} else {
		if (swccl_xcard_sched(c, swcclAlgoName(a), &s, gwhy, sizeof(gwhy)))
			return swccl_fail(comm0, swcclInvalidUsage, "%s %s: %s", c->kind->name(c),
					  swcclAlgoName(a), gwhy);
		swccl_internode(c, &s, &p->internode_msgs, &p->internode_bytes);
		swai_sched_free(&s);
	}
	swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "%s #%llu %zu x %s on %d ranks: %s over RDMA "
		  "WRITE (%s), %.3f us modeled", c->kind->name(c), (unsigned long long)c->seq, c->count,
		  swccl_type_name(c->dtype), c->nranks, swcclAlgoName(a),
		  c->want ? "forced" : "the model's choice", p->us);
	return swcclSuccess;
}

void swccl_rdma_finish_plan(struct swccl_plan *p)
{
	p->how = swcclAlgoName(p->algo);
	p->fused = -1;
	p->launches = 0;
	p->host_syncs = 1;
}

swcclResult_t swccl_rdma_plan(struct swccl_shared *sh, struct swccl_call *c,
			      struct swccl_plan *p, swcclComm_t comm0)
{
	swcclResult_t r;

	/* Across nodes, the hosts are the nodes. */
	for (int q = 0; q < c->nranks; q++)
		c->node[q] = swccl_xproc_node(sh, q);
	/* A shape is planned (its models run) once; AllToAllv's blocks are not in the key. */
	if (c->v || !swccl_plan_lookup(sh, c, p) || !p->rdma) {
		r = plan_rdma(sh, c, p, comm0);
		if (r)
			return r;
		if (!c->v)
			swccl_plan_store(sh, c, p);
	}
	swccl_rdma_finish_plan(p);
	return swcclSuccess;
}

bool swccl_rdma_auto(struct swccl_shared *sh, struct swccl_call *c, const struct swccl_plan *best,
		     struct swccl_plan *p, swcclComm_t comm0)
{
	struct swccl_plan q = { .fused = -1 };
	char err[sizeof(comm0->lasterr)];

	if (c->coll != SWCCL_ALLTOALL || !swccl_nic_cards(sh, c))
		return false;
	memcpy(err, comm0->lasterr, sizeof(err));
	if (plan_rdma(sh, c, &q, comm0)) {
		memcpy(comm0->lasterr, err, sizeof(err));
		return false;
	}
	/* No model (one that cannot say): the fabric's exact time stands. */
	if (q.us <= 0 || (best && best->us <= q.us))
		return false;
	swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "AllToAll #%llu: %s over RDMA WRITE %.3f us beats "
		  "the fabric's %s %.3f us", (unsigned long long)c->seq, swcclAlgoName(q.algo), q.us,
		  best ? swcclAlgoName(best->algo) : "-", best ? best->us : 0.0);
	*p = q;
	return true;
}

