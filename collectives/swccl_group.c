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

static swcclResult_t group_add(const struct swccl_op *op)
{
	if (nops == capops) {
		int cap = capops ? 2 * capops : 16;
		struct swccl_op *n = realloc(ops, (size_t)cap * sizeof(*n));

		if (!n)
			return group_error = swcclSystemError;
		ops = n;
		capops = cap;
	}
	ops[nops++] = *op;
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
	seq = calloc((size_t)n + 1, sizeof(*seq));
	if (!seq)
		return swcclSystemError;
	for (int i = 0; i < n; i++) {
		r = swccl_post(&ops[i], &seq[i]);
		if (r && !res)
			res = r;
	}
	for (int i = 0; i < n; i++) {
		if (!seq[i])
			continue;
		r = swccl_wait(ops[i].comm, seq[i]);
		if (r && !res)
			res = r;
	}
	free(seq);
	return res;
}
