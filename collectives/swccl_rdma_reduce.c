// SPDX-License-Identifier: MIT
/*
 * swccl_rdma_reduce.c - ReduceScatter and AllReduce between nodes of any
 * size and type, over RDMA WRITE (swccl_rdma.h): a WRITE does not add, so
 * the sums are the cards'.
 *
 *   1. every block of a rank's input to the block's owner: an AllToAllv
 *      (DIRECT) into the owner's reduction slots, one per rank;
 *   2. each owner sums its slots on its card in rank order (phase_fold,
 *      the order every reducing algorithm keeps), into its output block;
 *   3. AllReduce: every owner's sum to every rank, an AllToAllv again.
 *
 * AllReduce's blocks are count x q / N .. count x (q + 1) / N.  The two
 * exchanges are calls of the protocol of their own (their sequence numbers
 * tagged so that a record of one is never taken for the other's); the
 * call, like every call over the NICs, is host-synchronous.
 */
#include <stdlib.h>
#include <string.h>

#include "swccl_algo.h"
#include "swccl_kind.h"
#include "swccl_plan.h"
#include "swccl_rdma.h"

/* Block @q of @c's data: its first element and its length. */
static size_t block(const struct swccl_call *c, int q, size_t *len)
{
	size_t n = c->nranks, lo, hi;

	if (c->coll == SWCCL_REDUCESCATTER) {
		*len = c->count;
		return (size_t)q * c->count;
	}
	lo = c->count * (size_t)q / n;
	hi = c->count * (size_t)(q + 1) / n;
	*len = hi - lo;
	return lo;
}

static struct swccl_buf buf(const struct swccl_buf *like, uint64_t va, size_t bytes)
{
	struct swccl_buf b = *like;

	b.va = va;
	b.bytes = bytes;
	return b;
}

/*
 * Exchange @k of @c: an AllToAllv of this process's ranks' blocks @pv
 * (the others' are their processes'), DIRECT over the NICs.
 */
static swcclResult_t exchange(struct swccl_shared *sh, const struct swccl_call *c, int k,
			      struct swccl_peers *pv, swcclComm_t comm0)
{
	struct swccl_call *x = malloc(sizeof(*x));
	struct swccl_plan p = { .algo = swcclAlgoDirect, .how = "DIRECT", .rdma = true };
	swcclResult_t res;

	if (!x)
		return swccl_fail(comm0, swcclSystemError, "out of memory");
	*x = *c;
	x->kind = &swccl_kind_p2p;
	x->coll = SWCCL_ALLTOALL;
	x->v = true;
	x->count = 1;
	x->seq = c->seq | (uint64_t)(k + 1) << 60;
	for (int r = 0; r < c->nranks; r++)
		x->r[r].pv = sh->comm[r]->remote ? NULL : &pv[r];
	res = swccl_rdma_run(sh, x, &p, comm0);
	free(x);
	return res;
}

#define MAX_INSNS ((int)(SWAI_PROGRAM_MAX_BYTES / sizeof(struct swai_insn)))

/*
 * Rank @r's sum of its slots at @slots into @out, on its card, in rank
 * order: as many programs as the card's limit on one takes, then the wait.
 */
static swcclResult_t sum(const struct swccl_call *c, int r, uint64_t slots, uint64_t out,
			 size_t len, swcclComm_t comm0)
{
	uint64_t es = c->esize, ch = swccl_chunk(c, c->nranks) / es;
	/* a chunk costs N reads, N - 1 adds, a finish and a write */
	uint64_t piece = ch * (uint64_t)(MAX_INSNS / (2 * c->nranks + 2));
	sdaaError_t e = sdaaSetDevice(c->r[r].dev);

	for (uint64_t at = 0; at < len && !e; at += piece) {
		uint64_t n = len - at < piece ? len - at : piece, items[SWCCL_MAX_RANKS];
		uint64_t dst = out + at * es;
		struct swai_prog p;

		for (int q = 0; q < c->nranks; q++)
			items[q] = slots + ((uint64_t)q * len + at) * es;
		swai_prog_init(&p);
		phase_fold(&p, c, items, c->nranks, 0, &dst, 1, true, n);
		e = p.nomem || p.n > MAX_INSNS ? sdaaErrorInvalidValue :
		    sdaaLaunchProgram(p.in, (size_t)p.n, c->r[r].stream);
		swai_prog_free(&p);
	}
	if (!e)
		e = sdaaStreamSynchronize(c->r[r].stream);
	if (e)
		return swccl_fail(comm0, swcclUnhandledSdaaError, "%s: rank %d: summing %zu "
				  "elements of %d ranks on its card: %s", c->kind->name(c), r, len,
				  c->nranks, sdaaGetErrorString(e));
	return swcclSuccess;
}

/* Rank @r's reduction slots, @bytes of its card's memory (kept for the next call). */
static swcclResult_t slots(struct swccl_shared *sh, const struct swccl_call *c, int r,
			   size_t bytes, swcclComm_t comm0)
{
	struct swccl_rdma *n = sh->rdma;

	bytes = bytes ? bytes : 256;
	if (n->red_bytes[r] >= bytes)
		return swcclSuccess;
	if (n->red[r])
		sdaaFree(n->red[r]);
	n->red[r] = NULL;
	n->red_bytes[r] = 0;
	if (sdaaSetDevice(c->r[r].dev) || sdaaMalloc(&n->red[r], bytes))
		return swccl_fail(comm0, swcclUnhandledSdaaError, "%s: rank %d: %zu bytes for its "
				  "reduction slots: %s", c->kind->name(c), r, bytes,
				  sdaaGetErrorString(sdaaGetLastError()));
	n->red_bytes[r] = bytes;
	return swcclSuccess;
}

swcclResult_t swccl_rdma_reduce_run(struct swccl_shared *sh, struct swccl_call *c,
				    swcclComm_t comm0)
{
	struct swccl_peers *pv = calloc((size_t)c->nranks, sizeof(*pv));
	struct swccl_rdma *n = sh->rdma;
	size_t es = c->esize, mine;
	swcclResult_t res = pv ? swcclSuccess : swccl_fail(comm0, swcclSystemError,
							   "out of memory");

	/* 1: the blocks to their owners' slots */
	for (int r = 0; r < c->nranks && !res; r++) {
		const struct swccl_rank *rk = &c->r[r];

		if (sh->comm[r]->remote)
			continue;
		block(c, r, &mine);
		res = slots(sh, c, r, (size_t)c->nranks * mine * es, comm0);
		for (int q = 0; q < c->nranks && !res; q++) {
			size_t len, off = block(c, q, &len);
			uint64_t slot = (uint64_t)(uintptr_t)n->red[r] + (uint64_t)q * mine * es;

			pv[r].send_n[q] = len;
			pv[r].send[q] = buf(&rk->send, rk->send.va + off * es, len * es);
			pv[r].recv_n[q] = mine;
			pv[r].recv[q] = buf(&rk->send, slot, mine * es);
		}
	}
	if (!res)
		res = exchange(sh, c, 0, pv, comm0);
	/* 2: each owner's sum, on its card */
	for (int r = 0; r < c->nranks && !res; r++) {
		size_t at = block(c, r, &mine);

		if (!sh->comm[r]->remote)
			res = sum(c, r, (uint64_t)(uintptr_t)n->red[r], c->r[r].recv.va +
				  (c->coll == SWCCL_ALLREDUCE ? at * es : 0), mine, comm0);
	}
	/* 3: AllReduce: every sum to every rank */
	for (int r = 0; r < c->nranks && !res && c->coll == SWCCL_ALLREDUCE; r++) {
		const struct swccl_rank *rk = &c->r[r];
		size_t at = block(c, r, &mine);

		if (sh->comm[r]->remote)
			continue;
		for (int q = 0; q < c->nranks; q++) {
			size_t len, off = block(c, q, &len);

			pv[r].send_n[q] = mine;
			pv[r].send[q] = buf(&rk->recv, rk->recv.va + at * es, mine * es);
			pv[r].recv_n[q] = len;
			pv[r].recv[q] = buf(&rk->recv, rk->recv.va + off * es, len * es);
		}
	}
	if (!res && c->coll == SWCCL_ALLREDUCE)
		res = exchange(sh, c, 1, pv, comm0);
	free(pv);
	return res;
}
