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
 * and Recvs become one exchange; the k-th Send to q is matched by q's k-th
 * Recv from this rank, of the same count (several with one peer are
 * staged as one block: struct swccl_joined).
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
		pv->send_sig[q] = in->send_sig[q];
		pv->recv_sig[q] = in->recv_sig[q];
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
	uint64_t send_sig[SWCCL_MAX_RANKS], recv_sig[SWCCL_MAX_RANKS];
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
	memcpy(mine->send_sig, pv->send_sig, sizeof(mine->send_sig));
	memcpy(mine->recv_sig, pv->recv_sig, sizeof(mine->recv_sig));
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
		memcpy(c->r[q].pv->send_sig, all[q].send_sig, sizeof(all[q].send_sig));
		memcpy(c->r[q].pv->recv_sig, all[q].recv_sig, sizeof(all[q].recv_sig));
	}
	free(all);
	return r;
}

static swcclResult_t plan(struct swccl_shared *sh, struct swccl_call *c, struct swccl_plan *p,
			  swcclComm_t comm0)
{
	swcclResult_t r = sh->xproc ? gather_counts(sh, c, comm0) : swcclSuccess;

	/*
	 * A block's two ends agree on its size, and several Sends joined on
	 * their Recvs one by one: every process finds the same mismatch.
	 */
	for (int x = 0; x < c->nranks && !r; x++)
		for (int y = 0; y < c->nranks; y++) {
			const struct swccl_peers *a = c->r[x].pv, *b = c->r[y].pv;

			if (!a || !b)
				continue;
			if (a->send_n[y] != b->recv_n[x])
				return swccl_fail(comm0, swcclInvalidUsage, "AllToAllv: rank %d sends "
						  "%zu elements to rank %d, which receives %zu from "
						  "it", x, a->send_n[y], y, b->recv_n[x]);
			if (a->send_sig[y] != b->recv_sig[x])
				return swccl_fail(comm0, swcclInvalidUsage, "rank %d's Sends to rank "
						  "%d and that rank's Recvs from it differ one by one "
						  "(%zu elements in all): the k-th Send to a peer meets "
						  "its k-th Recv, of the same count", x, y, a->send_n[y]);
		}
	return r ? r : swccl_kind_coll.plan(sh, c, p, comm0);
}

/*
 * A group's several Sends to one peer, or Recvs from one, in the order
 * they were called: the exchange carries one block a peer and direction,
 * so stage() gathers the Sends into one block of the rank's own staging
 * and the Recvs land in one, which release() scatters to their buffers.
 * NCCL pairs the k-th Send to a peer with its k-th Recv; the counts'
 * signature (fold) lets plan() check them one by one, in every process.
 */
struct swccl_part {
	int peer;
	bool send;
	const void *sp;
	void *rp;
	size_t count;
	size_t at;		/* elements into the staging */
};

struct swccl_joined {
	struct swccl_part *part;
	int n, cap;
	void *stage;		/* the staging, on the rank's card */
	bool cross;		/* in its Global-HBM, which every core group reaches */
};

/* The signature of counts so far @sig (0: none yet) and then @count; never 0, one block's. */
static uint64_t fold(uint64_t sig, size_t count)
{
	sig ^= (uint64_t)count + 0x9e3779b97f4a7c15ULL + (sig << 6) + (sig >> 2);
	return sig ? sig : 1;
}

static swcclResult_t add_part(struct swccl_op *into, int q, bool send, const void *sp,
			      void *rp, size_t count)
{
	struct swccl_joined *j = into->joined;

	if (!j) {
		j = into->joined = calloc(1, sizeof(*j));
		if (!j)
			return swccl_fail(into->comm, swcclSystemError, "out of memory");
	}
	if (j->n == j->cap) {
		int cap = j->cap ? 2 * j->cap : 8;
		struct swccl_part *n = realloc(j->part, (size_t)cap * sizeof(*n));

		if (!n)
			return swccl_fail(into->comm, swcclSystemError, "out of memory");
		j->part = n;
		j->cap = cap;
	}
	j->part[j->n++] = (struct swccl_part){ .peer = q, .send = send, .sp = sp, .rp = rp,
					       .count = count };
	return swcclSuccess;
}

/* Is there a part of @q's blocks in direction @send already joined? */
static bool joined(const struct swccl_joined *j, int q, bool send)
{
	for (int i = 0; j && i < j->n; i++)
		if (j->part[i].peer == q && j->part[i].send == send)
			return true;
	return false;
}

/* One more block with peer @q: the first stays in pv; from the second on, all are parts. */
static swcclResult_t join(struct swccl_op *into, int q, bool send, const void *sp, void *rp,
			  size_t count)
{
	struct swccl_peers *a = into->pv;
	size_t *n = send ? &a->send_n[q] : &a->recv_n[q];
	swcclResult_t r = swcclSuccess;

	if (!*n) {
		*n = count;
		if (send)
			a->sp[q] = sp;
		else
			a->rp[q] = rp;
		return swcclSuccess;
	}
	if (!joined(into->joined, q, send))
		r = add_part(into, q, send, a->sp[q], a->rp[q], *n);
	return r ? r : add_part(into, q, send, sp, rp, count);
}

/* Fold a Send or Recv into the rank's exchange of this group. */
static swcclResult_t merge(struct swccl_op *into, const struct swccl_op *op)
{
	const struct swccl_peers *b = op->pv;
	swcclResult_t r = swcclSuccess;

	if (into->dtype != op->dtype)
		return swccl_fail(op->comm, swcclInvalidUsage, "Send/Recv of two datatypes in "
				  "one group");
	for (int q = 0; q < op->comm->sh->nranks && !r; q++) {
		if (b->send_n[q])
			r = join(into, q, true, b->sp[q], NULL, b->send_n[q]);
		if (!r && b->recv_n[q])
			r = join(into, q, false, NULL, b->rp[q], b->recv_n[q]);
	}
	return r;
}

/* The rank's card current for the copies; the caller's device back with restore(). */
static int on_card(const struct swccl_op *op)
{
	int dev = 0;

	sdaaGetDevice(&dev);
	sdaaSetDevice(op->comm->dev);
	return dev;
}

static void restore(int dev)
{
	sdaaSetDevice(dev);
}

/*
 * Each peer's joined blocks as one: their places in the staging (in call
 * order, a peer's Sends and its Recvs each one run), pv's block there and
 * the counts' signature, the Sends copied in on the rank's stream --
 * before the exchange, which waits for the stream.
 */
static swcclResult_t stage(struct swccl_op *op)
{
	struct swccl_joined *j = op->joined;
	struct swccl_peers *pv = op->pv;
	size_t es = swccl_type_size(op->dtype), total = 0, start[2][SWCCL_MAX_RANKS];
	swcclResult_t r = swcclSuccess;
	int dev;

	if (!j)
		return swcclSuccess;
	for (int q = 0; q < op->comm->sh->nranks; q++)
		for (int send = 0; send < 2; send++) {
			uint64_t sig = 0;

			start[send][q] = total;
			for (int i = 0; i < j->n; i++)
				if (j->part[i].peer == q && j->part[i].send == send) {
					j->part[i].at = total;
					total += j->part[i].count;
					sig = fold(sig, j->part[i].count);
				}
			if (sig && send) {
				pv->send_n[q] = total - start[send][q];
				pv->send_sig[q] = sig;
			} else if (sig) {
				pv->recv_n[q] = total - start[send][q];
				pv->recv_sig[q] = sig;
			}
		}
	if (total > SIZE_MAX / es)
		return swccl_fail(op->comm, swcclInvalidArgument, "Send/Recv: the blocks joined "
				  "with one peer are too large");
	dev = on_card(op);
	j->cross = !sdaaMallocCross(&j->stage, total * es);
	if (!j->cross)
		sdaaGetLastError();	/* no Global-HBM: Local, as the caller's may be */
	if (!j->cross && sdaaMalloc(&j->stage, total * es)) {
		restore(dev);
		return swccl_fail(op->comm, swcclSystemError, "Send/Recv: no %zu bytes on card %d "
				  "to join several blocks with one peer: %s", total * es,
				  op->comm->card, sdaaGetErrorString(sdaaGetLastError()));
	}
	for (int i = 0; i < j->n && !r; i++) {
		const struct swccl_part *pt = &j->part[i];
		char *at = (char *)j->stage + pt->at * es;

		if (pt->send)
			pv->sp[pt->peer] = (char *)j->stage + start[1][pt->peer] * es;
		else
			pv->rp[pt->peer] = (char *)j->stage + start[0][pt->peer] * es;
		if (pt->send && sdaaMemcpyAsync(at, pt->sp, pt->count * es, sdaaMemcpyDefault,
						op->stream))
			r = swccl_fail(op->comm, swcclUnhandledSdaaError, "Send/Recv: staging a "
				       "Send to rank %d: %s", pt->peer,
				       sdaaGetErrorString(sdaaGetLastError()));
	}
	restore(dev);
	return r;
}

static void release(struct swccl_op *op, bool ran)
{
	struct swccl_joined *j = op->joined;
	size_t es = swccl_type_size(op->dtype);
	int dev;

	if (!j)
		return;
	if (j->stage) {
		dev = on_card(op);
		for (int i = 0; ran && i < j->n; i++) {
			const struct swccl_part *pt = &j->part[i];

			if (!pt->send && sdaaMemcpyAsync(pt->rp, (char *)j->stage + pt->at * es,
							 pt->count * es, sdaaMemcpyDefault,
							 op->stream))
				swccl_fail(op->comm, swcclUnhandledSdaaError, "Send/Recv: a Recv "
					   "from rank %d out of its staging: %s", pt->peer,
					   sdaaGetErrorString(sdaaGetLastError()));
		}
		/* the staging is free once the stream is past the copies in and out */
		sdaaStreamSynchronize(op->stream);
		if (j->cross)
			sdaaFreeCross(j->stage);
		else
			sdaaFree(j->stage);
		restore(dev);
	}
	free(j->part);
	free(j);
	op->joined = NULL;
}

const struct swccl_kind swccl_kind_p2p = {
	.name = name, .check = check, .init = init, .same = same, .plan = plan,
	.empty = true, .merge = merge, .stage = stage, .release = release,
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
