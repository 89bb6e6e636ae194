// SPDX-License-Identifier: MIT
/*
 * swccl_p2p.c - AllToAllv and Send/Recv: an exchange of per-peer blocks,
 * any size, anywhere (struct swccl_peers).  Both are one kind of call: an
 * AllToAll of blocks that differ, run as the DIRECT schedule
 * (tools/cluster/swai-gen-direct.c) -- over the fabric inside a node
 * (swccl_lower.c places each block where it is), over RDMA WRITE between
 * nodes (swccl_rdma.c), where PLANE runs it too: its relays' scratch holds
 * the blocks they forward, laid out by their sizes (swccl_rdma_proto.c).
 *
 * Send/Recv as NCCL has them: inside swcclGroupStart/End a rank's Sends
 * and Recvs become one exchange (at most one of each per peer); a
 * Send to q is matched by q's Recv from this rank of the same count.
 * Unlike NCCL's, the exchange is a call of the whole comm: every rank
 * posts its part of each, in one process (swcclCommInitAll) or one a
 * process -- a rank with nothing to do a Send or Recv of 0 elements --
 * since every process learns every rank's counts first (plan below).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_kind.h"
#include "swccl_xproc.h"

static const char *name(const struct swccl_call *c)
{
	(void)c;
	return "AllToAllv";
}

/* Rank @op's blocks: sizes, buffers, and no block sent over one received. */
static swcclResult_t check(const struct swccl_op *op, struct swccl_rank *rk)
{
	swcclComm_t comm = op->comm;
	const struct swccl_peers *in = op->pv;
	size_t es = swccl_type_size(op->dtype);
	int n = comm->sh->nranks;
	struct swccl_peers *pv;
	swcclResult_t r;
	char what[48];

	if (!es)
		return swccl_fail(comm, swcclInvalidArgument, "datatype %d", op->dtype);
	r = swccl_stream_check(comm, op->stream);
	if (r)
		return r;
	pv = calloc(1, sizeof(*pv));
	if (!pv)
		return swccl_fail(comm, swcclSystemError, "out of memory");
	rk->pv = pv;
	for (int q = 0; q < n; q++) {
		if (in->send_n[q] > SIZE_MAX / es || in->recv_n[q] > SIZE_MAX / es)
			return swccl_fail(comm, swcclInvalidArgument, "a count to or from rank %d "
					  "too large", q);
		pv->send_n[q] = in->send_n[q];
		pv->recv_n[q] = in->recv_n[q];
		pv->sp[q] = in->sp[q];
		pv->rp[q] = in->rp[q];
		snprintf(what, sizeof(what), "the block for rank %d", q);
		if (in->send_n[q] &&
		    (r = swccl_buffer(comm, in->sp[q], in->send_n[q] * es, what, &pv->send[q])))
			return r;
		snprintf(what, sizeof(what), "the block from rank %d", q);
		if (in->recv_n[q] &&
		    (r = swccl_buffer(comm, in->rp[q], in->recv_n[q] * es, what, &pv->recv[q])))
			return r;
	}
	if (pv->send_n[comm->rank] != pv->recv_n[comm->rank])
		return swccl_fail(comm, swcclInvalidArgument, "rank %d sends itself %zu elements "
				  "but receives %zu from itself", comm->rank,
				  pv->send_n[comm->rank], pv->recv_n[comm->rank]);
	/* Not in place: blocks land while others are still being sent. */
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++)
			if (pv->send_n[a] && pv->recv_n[b] &&
			    pv->send[a].va < pv->recv[b].va + pv->recv_n[b] * es &&
			    pv->recv[b].va < pv->send[a].va + pv->send_n[a] * es)
				return swccl_fail(comm, swcclInvalidArgument, "the block for rank "
						  "%d overlaps the block from rank %d: AllToAllv and "
						  "Send/Recv do not run in place", a, b);
	return swcclSuccess;
}

static void init(struct swccl_call *c, const struct swccl_op *op)
{
	c->coll = SWCCL_ALLTOALL;
	c->v = true;
	c->count = 1;		/* the blocks are per rank (r[].pv) */
	c->dtype = op->dtype;
	c->op = swcclSum;
	c->root = 0;
	c->esize = swccl_type_size(op->dtype);
}

static bool same(const struct swccl_call *c, const struct swccl_op *op)
{
	return c->dtype == op->dtype;
}

/*
 * Every rank's counts, in every process: over the fabric a sender lays out
 * its receivers' landing areas, and between nodes PLANE's relays forward
 * blocks they neither send nor receive, and the models of DIRECT and PLANE
 * time them all -- so ranks of other processes tell theirs over the
 * bootstrap, as HCCL's AlltoAllV gathers the counts first.
 */
struct counts {
	size_t send_n[SWCCL_MAX_RANKS], recv_n[SWCCL_MAX_RANKS];
};

static swcclResult_t gather_counts(struct swccl_shared *sh, struct swccl_call *c,
				   swcclComm_t comm0)
{
	struct counts *all = calloc(SWCCL_MAX_RANKS + 1, sizeof(*all)), *mine;
	const struct swccl_peers *pv = c->r[comm0->rank].pv;
	swcclResult_t r;

	if (!all)
		return swccl_fail(comm0, swcclSystemError, "out of memory");
	mine = &all[SWCCL_MAX_RANKS];
	memcpy(mine->send_n, pv->send_n, sizeof(mine->send_n));
	memcpy(mine->recv_n, pv->recv_n, sizeof(mine->recv_n));
	r = swccl_xproc_allgather(sh, mine, sizeof(*mine), all, "AllToAllv's counts");
	for (int q = 0; q < c->nranks && !r; q++) {
		if (q == comm0->rank)
			continue;
		c->r[q].pv = calloc(1, sizeof(*c->r[q].pv));
		if (!c->r[q].pv) {
			r = swccl_fail(comm0, swcclSystemError, "out of memory");
			break;
		}
		memcpy(c->r[q].pv->send_n, all[q].send_n, sizeof(all[q].send_n));
		memcpy(c->r[q].pv->recv_n, all[q].recv_n, sizeof(all[q].recv_n));
	}
	free(all);
	return r;
}

static swcclResult_t plan(struct swccl_shared *sh, struct swccl_call *c, struct swccl_plan *p,
			  swcclComm_t comm0)
{
	swcclResult_t r = sh->xproc ? gather_counts(sh, c, comm0) : swcclSuccess;

	/* A block's two ends agree on its size: every process finds the same mismatch. */
	for (int x = 0; x < c->nranks && !r; x++)
		for (int y = 0; y < c->nranks; y++)
			if (c->r[x].pv && c->r[y].pv &&
			    c->r[x].pv->send_n[y] != c->r[y].pv->recv_n[x])
				return swccl_fail(comm0, swcclInvalidUsage, "AllToAllv: rank %d sends "
						  "%zu elements to rank %d, which receives %zu from "
						  "it", x, c->r[x].pv->send_n[y], y,
						  c->r[y].pv->recv_n[x]);
	return r ? r : swccl_kind_coll.plan(sh, c, p, comm0);
}

/* Fold a Send or Recv into the rank's exchange of this group. */
static swcclResult_t merge(struct swccl_op *into, const struct swccl_op *op)
{
	struct swccl_peers *a = into->pv;
	const struct swccl_peers *b = op->pv;

	if (into->dtype != op->dtype)
		return swccl_fail(op->comm, swcclInvalidUsage, "Send/Recv of two datatypes in "
				  "one group");
	for (int q = 0; q < op->comm->sh->nranks; q++) {
		if ((b->send_n[q] && a->send_n[q]) || (b->recv_n[q] && a->recv_n[q]))
			return swccl_fail(op->comm, swcclInvalidUsage, "two %s rank %d in one "
					  "group: one of each per peer (join them)",
					  b->send_n[q] ? "Sends to" : "Recvs from", q);
		if (b->send_n[q]) {
			a->send_n[q] = b->send_n[q];
			a->sp[q] = b->sp[q];
		}
		if (b->recv_n[q]) {
			a->recv_n[q] = b->recv_n[q];
			a->rp[q] = b->rp[q];
		}
	}
	return swcclSuccess;
}

const struct swccl_kind swccl_kind_p2p = {
	.name = name, .check = check, .init = init, .same = same, .plan = plan,
	.empty = true, .merge = merge,
};

static swcclResult_t post(swcclComm_t comm, struct swccl_peers *pv, swcclDataType_t dtype,
			  bool merge, sdaaStream_t stream)
{
	struct swccl_op o = { .comm = comm, .kind = &swccl_kind_p2p, .coll = SWCCL_ALLTOALL,
			      .dtype = dtype, .stream = stream, .pv = pv, .merge = merge };

	return swccl_submit(&o);
}

SWCCL_EXPORT swcclResult_t swcclAllToAllv(const void *sendbuff, const size_t sendcounts[],
					  const size_t sdispls[], void *recvbuff,
					  const size_t recvcounts[], const size_t rdispls[],
					  swcclDataType_t datatype, swcclComm_t comm,
					  sdaaStream_t stream)
{
	size_t es = swccl_type_size(datatype);
	struct swccl_peers pv = { 0 };

	if (!comm)
		return swcclInvalidArgument;
	if (!sendcounts || !sdispls || !recvcounts || !rdispls)
		return swccl_fail(comm, swcclInvalidArgument, "AllToAllv: NULL counts or "
				  "displacements");
	for (int q = 0; q < comm->sh->nranks; q++) {
		if (sdispls[q] > SIZE_MAX / (es ? es : 1) || rdispls[q] > SIZE_MAX / (es ? es : 1))
			return swccl_fail(comm, swcclInvalidArgument, "AllToAllv: displacement "
					  "of rank %d too large", q);
		pv.send_n[q] = sendcounts[q];
		pv.recv_n[q] = recvcounts[q];
		pv.sp[q] = (const char *)sendbuff + sdispls[q] * es;
		pv.rp[q] = (char *)recvbuff + rdispls[q] * es;
	}
	return post(comm, &pv, datatype, false, stream);
}

/* A Send (@send) or a Recv of @count elements with @peer. */
static swcclResult_t one(swcclComm_t comm, bool send, const void *sp, void *rp, size_t count,
			 swcclDataType_t datatype, int peer, sdaaStream_t stream)
{
	struct swccl_peers pv = { 0 };

	if (!comm)
		return swcclInvalidArgument;
	if (peer < 0 || peer >= comm->sh->nranks)
		return swccl_fail(comm, swcclInvalidArgument, "%s rank %d of %d ranks",
				  send ? "Send to" : "Recv from", peer, comm->sh->nranks);
	if (send) {
		pv.send_n[peer] = count;
		pv.sp[peer] = sp;
	} else {
		pv.recv_n[peer] = count;
		pv.rp[peer] = rp;
	}
	return post(comm, &pv, datatype, true, stream);
}

SWCCL_EXPORT swcclResult_t swcclSend(const void *sendbuff, size_t count,
				     swcclDataType_t datatype, int peer, swcclComm_t comm,
				     sdaaStream_t stream)
{
	return one(comm, true, sendbuff, NULL, count, datatype, peer, stream);
}

SWCCL_EXPORT swcclResult_t swcclRecv(void *recvbuff, size_t count, swcclDataType_t datatype,
				     int peer, swcclComm_t comm, sdaaStream_t stream)
{
	return one(comm, false, NULL, recvbuff, count, datatype, peer, stream);
}
