// SPDX-License-Identifier: MIT
/*
 * alltoall_direct.c - DIRECT AllToAll among the core groups of one card
 * (and AllToAllv, Send/Recv: each rank's own blocks, c->r[].pv).
 *
 * Rank r copies its block for q straight into q's recvbuff at block r,
 * one COPY a peer, starting at r + 1 so that the core groups do not all
 * write one peer's Local-HBM at once.  No two copies write the same place,
 * so one launch does it.  In place a block must leave before another lands
 * on it: step 0 copies the rank's input to its slot of the comm's
 * Global-HBM scratch, the host waits for every rank, and step 1 copies
 * from there.  Into another core group's Local-HBM needs peer access.
 */
#include "swccl_algo.h"

static bool in_place(const struct swccl_call *c)
{
	return !c->v && c->r[0].send.va == c->r[0].recv.va;
}

/* Rank @r's block for @q: its bytes, and where it is and goes. */
static uint64_t block(const struct swccl_call *c, int r, int q, uint64_t *src, uint64_t *dst)
{
	uint64_t b = c->count * c->esize;

	if (c->v) {
		*src = c->r[r].pv->send[q].va;
		*dst = c->r[q].pv->recv[r].va;
		return c->r[r].pv->send_n[q] * c->esize;
	}
	*src = in_place(c) ? c->scratch + ((uint64_t)r * (uint64_t)c->nranks + (uint64_t)q) * b :
			     c->r[r].send.va + (uint64_t)q * b;
	*dst = c->r[q].recv.va + (uint64_t)r * b;
	return b;
}

static const char *unsupported(const struct swccl_call *c)
{
	for (int q = 0; q < c->nranks; q++) {
		if (!c->v && !swccl_readable(c, &c->r[q].recv))
			return "a recvbuff in Local-HBM needs peer access between the core groups";
		for (int r = 0; c->v && r < c->nranks; r++)
			if (c->r[q].pv->recv_n[r] && !swccl_readable(c, &c->r[q].pv->recv[r]))
				return "a block in Local-HBM needs peer access between the core groups";
	}
	return NULL;
}

static size_t scratch(const struct swccl_call *c)
{
	return in_place(c) ? (size_t)c->nranks * (size_t)c->nranks * c->count * c->esize : 0;
}

static int steps(const struct swccl_call *c)
{
	return in_place(c) ? 2 : 1;
}

static void build(const struct swccl_call *c, int s, int r, struct swai_prog *p)
{
	int n = c->nranks;

	prog_progress(p, c, r, SWCCL_STEP_START);
	if (in_place(c) && s == 0) {
		if (c->count)
			prog_copy(p, c->scratch + (uint64_t)r * (uint64_t)n * c->count * c->esize,
				  c->r[r].send.va, (uint64_t)n * c->count * c->esize);
	} else {
		for (int k = 1; k <= n; k++) {
			uint64_t src, dst, len = block(c, r, (r + k) % n, &src, &dst);

			if (len)
				prog_copy(p, dst, src, len);
		}
	}
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}

const struct swccl_algo swccl_alltoall_direct = {
	.name = "DIRECT", .coll = SWCCL_ALLTOALL, .algo = swcclAlgoDirect,
	.props = SWCCL_ALGO_HOST_SYNC,
	.unsupported = unsupported, .scratch = scratch, .steps = steps, .build = build,
};
