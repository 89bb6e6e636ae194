// SPDX-License-Identifier: MIT
/*
 * swccl_group.c - a rank's call, and swcclGroupStart/End: calls between
 * them are only recorded (per thread, nesting allowed); the outermost
 * GroupEnd posts them all, in order, then waits until each is launched.
 * Posting all before waiting is what lets one thread drive every rank of a
 * swcclCommInitAll communicator: the last rank's post launches the call.
 */
#include <stdio.h>
#include <stdlib.h>

#include "swccl_kind.h"

static __thread int depth;
static __thread struct swccl_op *ops;
static __thread int nops, capops;
static __thread swcclResult_t group_error;

/*
 * Record @op; a Send or Recv joins the rank's earlier one of this group
 * (its kind's merge).  The group keeps its own copy of the blocks.
 */
static swcclResult_t group_add(const struct swccl_op *op)
{
	for (int i = 0; op->merge && i < nops; i++)
		if (ops[i].merge && ops[i].comm == op->comm && ops[i].kind == op->kind) {
			swcclResult_t r = op->kind->merge(&ops[i], op);

			return r && !group_error ? group_error = r : r;
		}
	if (nops == capops) {
		int cap = capops ? 2 * capops : 16;
		struct swccl_op *n = realloc(ops, (size_t)cap * sizeof(*n));

		if (!n)
			return group_error = swcclSystemError;
		ops = n;
		capops = cap;
	}
	ops[nops] = *op;
	if (op->pv) {
		ops[nops].pv = malloc(sizeof(*op->pv));
		if (!ops[nops].pv)
			return group_error = swcclSystemError;
		*ops[nops].pv = *op->pv;
	}
	nops++;
	return swcclSuccess;
}

swcclResult_t swccl_submit(const struct swccl_op *op)
{
	uint64_t seq;
	swcclResult_t r;

	if (!op->comm)
		return swcclInvalidArgument;
	if (op->comm->dead)
		return swccl_fail(op->comm, swcclInvalidUsage, "the communicator was aborted");
	if (depth > 0)
		return group_add(op);
	r = swccl_post(op, &seq);
	return r ? r : swccl_wait(op->comm, seq);
}

SWCCL_EXPORT swcclResult_t swcclGroupStart(void)
{
	if (!depth++)
		group_error = swcclSuccess;
	return swcclSuccess;
}

/* What the group kept of @op, after its call (@ran) or instead of it. */
static void release(struct swccl_op *op, bool ran)
{
	if (op->kind->release)
		op->kind->release(op, ran);
	free(op->pv);
}

SWCCL_EXPORT swcclResult_t swcclGroupEnd(void)
{
	swcclResult_t res = group_error, r;
	uint64_t *seq;
	int n = nops;

	if (!depth)
		return swcclInvalidUsage;
	if (--depth)
		return swcclSuccess;
	nops = 0;
	/* Staged first, so that a failure there runs none of the group either. */
	for (int i = 0; i < n && !res; i++)
		if (ops[i].kind->stage)
			res = ops[i].kind->stage(&ops[i]);
	seq = res ? NULL : calloc((size_t)n + 1, sizeof(*seq));
	if (!res && !seq)
		res = swcclSystemError;
	/* A call the group refused: none of it runs, or its peers would wait for it. */
	if (res) {
		for (int i = 0; i < n; i++)
			release(&ops[i], false);
		return res;
	}
	for (int i = 0; i < n; i++) {
		r = swccl_post(&ops[i], &seq[i]);
		if (r && !res)
			res = r;
	}
	for (int i = 0; i < n; i++) {
		r = seq[i] ? swccl_wait(ops[i].comm, seq[i]) : swcclSuccess;
		if (r && !res)
			res = r;
		release(&ops[i], seq[i] && !r);
	}
	free(seq);
	return res;
}
