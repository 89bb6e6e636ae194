// SPDX-License-Identifier: MIT
/*
 * swccl_rdma_reduce.c - AllReduce, ReduceScatter and Reduce between nodes
 * of any size and type, over RDMA WRITE (swccl_rdma.h): a WRITE does not
 * add, so the sums are the cards'.
 *
 *   1. every block of a rank's input to the block's owner: an AllToAllv
 *      (DIRECT) into the owner's reduction slots, one per rank;
 *   2. each owner sums its slots on its card in rank order (phase_fold,
 *      the order every reducing algorithm keeps), into its output block
 *      (Reduce: the root's; another owner's into a slot of its own);
 *   3. AllReduce: every owner's sum to every rank, an AllToAllv again;
 *      Reduce: every owner's sum to the root's output.
 *
 * AllReduce's and Reduce's blocks are count x q / N .. count x (q + 1) / N
 * (all of it, below N elements: whole()).  The two exchanges are calls of
 * the protocol of their own (their sequence numbers tagged so that a
 * record of one is never taken for the other's); the call, like every
 * call over the NICs, is host-synchronous.  swccl_rdma_reduce_model()
 * times the same three parts.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_algo.h"
#include "swccl_kind.h"
#include "swccl_plan.h"
#include "swccl_rdma.h"

/*
 * An AllReduce or Reduce of fewer elements than ranks: every rank owns all
 * of it (Reduce: the root alone).  The whole input goes to every rank (the
 * root), which sums it all, and there is no second exchange: one exchange
 * of a few elements instead of two with empty blocks (AllReduce of 8 B on
 * 4 ranks: 82.0 us, not 112.6).
 */
static bool whole(const struct swccl_call *c)
{
	return c->coll != SWCCL_REDUCESCATTER && c->count < (size_t)c->nranks;
}

/* Block @q of @c's data: its first element and its length. */
static size_t block(const struct swccl_call *c, int q, size_t *len)
{
	size_t n = c->nranks, lo, hi;

	if (whole(c)) {
		*len = c->coll == SWCCL_REDUCE && q != c->root ? 0 : c->count;
		return 0;
	}
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
 * Exchange @k of @c as a call: an AllToAllv of the blocks @pv of the ranks
 * @mine says (the others' are their processes'), DIRECT over the NICs.
 * NULL without memory.
 */
static struct swccl_call *exchange_call(const struct swccl_call *c, int k, struct swccl_peers *pv,
					const bool *mine)
{
	struct swccl_call *x = malloc(sizeof(*x));

	if (!x)
		return NULL;
	*x = *c;
	x->kind = &swccl_kind_p2p;
	x->coll = SWCCL_ALLTOALL;
	x->v = true;
	x->count = 1;
	x->seq = c->seq | (uint64_t)(k + 1) << 60;
	for (int r = 0; r < c->nranks; r++)
		x->r[r].pv = mine[r] ? &pv[r] : NULL;
	return x;
}

/* Exchange @k of @c for this process's ranks. */
static swcclResult_t exchange(struct swccl_shared *sh, const struct swccl_call *c, int k,
			      struct swccl_peers *pv, swcclComm_t comm0)
{
	struct swccl_plan p = { .algo = swcclAlgoDirect, .how = "DIRECT", .rdma = true };
	bool mine[SWCCL_MAX_RANKS];
	struct swccl_call *x;
	swcclResult_t res;

	for (int r = 0; r < c->nranks; r++)
		mine[r] = !sh->comm[r]->remote;
	x = exchange_call(c, k, pv, mine);
	if (!x)
		return swccl_fail(comm0, swcclSystemError, "out of memory");
	res = swccl_rdma_run(sh, x, &p, comm0);
	free(x);
	return res;
}

/* Rank @r's blocks of exchange 1: each to its owner's slot in @slots. */
static void to_owners(const struct swccl_call *c, int r, uint64_t slots, struct swccl_peers *pv)
{
	const struct swccl_rank *rk = &c->r[r];
	size_t es = c->esize, mine;

	block(c, r, &mine);
	for (int q = 0; q < c->nranks; q++) {
		size_t len, off = block(c, q, &len);

		pv->send_n[q] = len;
		pv->send[q] = buf(&rk->send, rk->send.va + off * es, len * es);
		pv->recv_n[q] = mine;
		pv->recv[q] = buf(&rk->send, slots + (uint64_t)q * mine * es, mine * es);
	}
}

/*
 * Reduce: rank @r's slots hold the N blocks it sums and one more, where a
 * rank that is not the root puts its sum (the root sums into its output).
 */
static size_t slot_bytes(const struct swccl_call *c, int r)
{
	size_t mine;

	block(c, r, &mine);
	return ((size_t)c->nranks + (c->coll == SWCCL_REDUCE && r != c->root)) * mine * c->esize;
}

/* Where rank @r's sum goes, its reduction slots at @slots. */
static uint64_t sum_at(const struct swccl_call *c, int r, uint64_t slots)
{
	size_t mine, at = block(c, r, &mine);

	if (c->coll == SWCCL_REDUCESCATTER)
		return c->r[r].recv.va;
	if (c->coll == SWCCL_REDUCE && r != c->root)
		return slots + (uint64_t)c->nranks * mine * c->esize;
	return c->r[r].recv.va + at * c->esize;
}

/* Reduce's rank @r's blocks of exchange 2: its sum to the root, into its output. */
static void to_root(const struct swccl_call *c, int r, uint64_t slots, struct swccl_peers *pv)
{
	const struct swccl_rank *rk = &c->r[r];
	size_t es = c->esize, mine;

	block(c, r, &mine);
	for (int q = 0; q < c->nranks; q++) {
		size_t len, off = block(c, q, &len);
		bool up = q == c->root && r != c->root, down = r == c->root && q != c->root;

		pv->send_n[q] = up ? mine : 0;
		pv->send[q] = buf(&rk->send, sum_at(c, r, slots), up ? mine * es : 0);
		pv->recv_n[q] = down ? len : 0;
		pv->recv[q] = down ? buf(&rk->recv, rk->recv.va + off * es, len * es) :
				     buf(&rk->send, slots, 0);
	}
}

/* AllReduce's rank @r's blocks of exchange 2: its sum to every rank. */
static void to_all(const struct swccl_call *c, int r, struct swccl_peers *pv)
{
	const struct swccl_rank *rk = &c->r[r];
	size_t es = c->esize, mine, at = block(c, r, &mine);

	for (int q = 0; q < c->nranks; q++) {
		size_t len, off = block(c, q, &len);

		pv->send_n[q] = mine;
		pv->send[q] = buf(&rk->recv, rk->recv.va + at * es, mine * es);
		pv->recv_n[q] = len;
		pv->recv[q] = buf(&rk->recv, rk->recv.va + off * es, len * es);
	}
}

#define MAX_INSNS ((int)(SWAI_PROGRAM_MAX_BYTES / sizeof(struct swai_insn)))

/*
 * The programs summing @len elements of every rank's slot at @slots into
 * @out, in rank order: as many as the card's limit on one takes.  0, or
 * -1 without memory.
 */
static int fold_progs(const struct swccl_call *c, uint64_t slots, uint64_t out, size_t len,
		      struct swai_progs *ps)
{
	uint64_t es = c->esize, ch = swccl_chunk(c, c->nranks) / es;
	/* a chunk costs N reads, N - 1 adds, a finish and a write */
	uint64_t piece = ch * (uint64_t)(MAX_INSNS / (2 * c->nranks + 2));

	for (uint64_t at = 0; at < len; at += piece) {
		uint64_t n = len - at < piece ? len - at : piece, items[SWCCL_MAX_RANKS];
		uint64_t dst = out + at * es;
		struct swai_prog *p = swai_progs_add(ps);

		if (!p)
			return -1;
		for (int q = 0; q < c->nranks; q++)
			items[q] = slots + ((uint64_t)q * len + at) * es;
		phase_fold(p, c, items, c->nranks, 0, &dst, 1, true, n);
		if (p->nomem || p->n > MAX_INSNS)
			return -1;
	}
	return 0;
}

/* Rank @r's sum of its slots at @slots into @out, on its card, then the wait. */
static swcclResult_t sum(const struct swccl_call *c, int r, uint64_t slots, uint64_t out,
			 size_t len, swcclComm_t comm0)
{
	struct swai_progs ps;
	sdaaError_t e = sdaaSetDevice(c->r[r].dev);

	swai_progs_init(&ps);
	if (!e && fold_progs(c, slots, out, len, &ps))
		e = sdaaErrorInvalidValue;
	for (int i = 0; i < ps.n && !e; i++)
		e = sdaaLaunchProgram(ps.p[i].in, (size_t)ps.p[i].n, c->r[r].stream);
	swai_progs_free(&ps);
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

/* Is there a second exchange: the sums to every rank (AllReduce) or the root (Reduce)? */
static bool second(const struct swccl_call *c)
{
	return c->coll != SWCCL_REDUCESCATTER && !whole(c);
}

swcclResult_t swccl_rdma_reduce_run(struct swccl_shared *sh, struct swccl_call *c,
				    swcclComm_t comm0)
{
	struct swccl_peers *pv = calloc((size_t)c->nranks, sizeof(*pv));
	struct swccl_rdma *n = sh->rdma;
	size_t mine;
	swcclResult_t res = pv ? swcclSuccess : swccl_fail(comm0, swcclSystemError,
							   "out of memory");

	/* 1: the blocks to their owners' slots */
	for (int r = 0; r < c->nranks && !res; r++) {
		if (sh->comm[r]->remote)
			continue;
		res = slots(sh, c, r, slot_bytes(c, r), comm0);
		if (!res)
			to_owners(c, r, (uint64_t)(uintptr_t)n->red[r], &pv[r]);
	}
	if (!res)
		res = exchange(sh, c, 0, pv, comm0);
	/* 2: each owner's sum, on its card */
	for (int r = 0; r < c->nranks && !res; r++) {
		block(c, r, &mine);
		if (!sh->comm[r]->remote)
			res = sum(c, r, (uint64_t)(uintptr_t)n->red[r],
				  sum_at(c, r, (uint64_t)(uintptr_t)n->red[r]), mine, comm0);
	}
	/* 3: AllReduce: every sum to every rank; Reduce: to the root */
	for (int r = 0; r < c->nranks && !res && second(c); r++)
		if (!sh->comm[r]->remote && c->coll == SWCCL_ALLREDUCE)
			to_all(c, r, &pv[r]);
		else if (!sh->comm[r]->remote)
			to_root(c, r, (uint64_t)(uintptr_t)n->red[r], &pv[r]);
	if (!res && second(c))
		res = exchange(sh, c, 1, pv, comm0);
	free(pv);
	return res;
}

/* Where the model puts every rank's reduction slots (it times, moves nothing). */
#define MODEL_SLOTS_VA (1ULL << 51)

/*
 * Rank @r's sum as its card takes it, launch and host wait included: the
 * fold's programs in one host-synchronous phase on the card's own engine
 * (swccl_cost.c), with the slots where the rank's input is.  -1 if the
 * model cannot say.
 */
static double sum_us(const struct swccl_call *c, int r, size_t len)
{
	struct swccl_call *one = malloc(sizeof(*one));
	struct swccl_model *m = NULL;
	struct swccl_cost cost;
	struct swccl_sched s;
	char why[256];
	double us = -1;

	if (!one)
		return -1;
	*one = *c;
	one->nranks = 1;
	one->r[0] = c->r[r];
	one->r[0].pv = NULL;
	one->r[0].tmp = buf(&c->r[r].send, MODEL_SLOTS_VA, slot_bytes(c, r));
	swccl_sched_init(&s, 1, true);
	if (swccl_sched_phase(&s) == 0 &&
	    !fold_progs(c, MODEL_SLOTS_VA, sum_at(c, r, MODEL_SLOTS_VA), len,
			swccl_sched_jobs(&s, 0, 0)))
		m = swccl_model_new(one, NULL);
	if (m && !swccl_model_run(m, one, &s, 0, &cost, why, sizeof(why)))
		us = cost.us;
	swccl_model_free(m);
	swccl_sched_free(&s);
	free(one);
	return us;
}

double swccl_rdma_reduce_model(struct swccl_shared *sh, const struct swccl_call *c,
			       swcclComm_t comm0)
{
	struct swccl_peers *pv = calloc((size_t)c->nranks, sizeof(*pv));
	uint64_t host_ns[SWCCL_MAX_RANKS] = { 0 }, end = 0;
	struct swccl_call *x = NULL;
	bool all[SWCCL_MAX_RANKS];
	double us = -1, x0_us = -1;

	for (int r = 0; r < c->nranks; r++)
		all[r] = true;
	/* 1: every rank's blocks to their owners (the model plays every rank) */
	for (int r = 0; pv && r < c->nranks; r++)
		to_owners(c, r, MODEL_SLOTS_VA, &pv[r]);
	x = pv ? exchange_call(c, 0, pv, all) : NULL;
	x0_us = x ? swccl_rdma_model_from(sh, x, "DIRECT", comm0, host_ns) : -1;
	if (x0_us < 0)
		goto out;
	/*
	 * 2: each rank's sum from the end of its exchange, on its card's
	 * clock: what the card's events measure, whatever order the process
	 * launched its ranks' sums in.
	 */
	for (int r = 0; r < c->nranks; r++) {
		size_t mine;
		double t;

		block(c, r, &mine);
		t = sum_us(c, r, mine);

		if (t < 0)
			goto out;
		host_ns[r] += (uint64_t)(t * 1e3 + 0.5);
		end = host_ns[r] > end ? host_ns[r] : end;
	}
	us = (double)end / 1e3;
	if (!second(c))
		goto out;
	/* 3: the sums to every rank or the root, from the ranks' clocks */
	for (int r = 0; r < c->nranks; r++)
		if (c->coll == SWCCL_ALLREDUCE)
			to_all(c, r, &pv[r]);
		else
			to_root(c, r, MODEL_SLOTS_VA, &pv[r]);
	free(x);
	x = exchange_call(c, 1, pv, all);
	us = x ? swccl_rdma_model_from(sh, x, "DIRECT", comm0, host_ns) : -1;
out:
	swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "%s #%llu over RDMA WRITE: exchange 1 to %.3f us, "
		  "sums to %.3f us, all %.3f us modeled", c->kind->name(c),
		  (unsigned long long)c->seq, x0_us, end / 1e3, us);
	free(x);
	free(pv);
	return us;
}
