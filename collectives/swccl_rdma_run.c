// SPDX-License-Identifier: MIT
/*
 * swccl_rdma_run.c - one call of a schedule over RDMA WRITE on the cards'
 * ports (swccl_rdma.h): each of this process's ranks gets its stream's
 * earlier work done and its scratch, then the protocol
 * (swccl_rdma_proto.c) runs over the ports through libsdaa.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_kind.h"
#include "swccl_plan.h"
#include "swccl_rdma.h"

/*
 * Each rank's host keeps its own modeled clock, as the model's do: a
 * process may stand for several hosts (its ranks go in lockstep), so a post
 * is at its rank's time and a wait moves only its rank's (libsdaa's clock
 * moves to the latest of them, where the call ends).
 */
struct card_io {
	struct swccl_shared *sh;
	swcclComm_t comm0;
	uint32_t sync_ns;
	uint64_t clock_ns[SWCCL_MAX_RANKS];
};

static int c_post(void *o, int r, int port, const struct swai_nic_desc *d, int n)
{
	struct card_io *io = o;
	const sdaaNicPort_t *pt = &io->sh->rdma->port[r][port];
	uint8_t raw[64][SWAI_NIC_DESC_SIZE];
	unsigned int posted = 0;

	for (int i = 0; i < n; i += 64) {
		int m = n - i < 64 ? n - i : 64;

		for (int k = 0; k < m; k++)
			swai_nic_desc_encode(raw[k], &d[i + k]);
		if (sdaaNicPostAt(pt, raw, (unsigned int)m, io->clock_ns[r], &posted)) {
			swccl_fail(io->comm0, swcclUnhandledSdaaError, "between nodes: rank %d (NIC node "
				   "%u): posting %d descriptors: %s", r, pt->node, m,
				   sdaaGetErrorString(sdaaGetLastError()));
			return -EIO;
		}
	}
	return 0;
}

static int c_wait(void *o, int r, int port, int n, unsigned int *status)
{
	struct card_io *io = o;
	const sdaaNicPort_t *pt = &io->sh->rdma->port[r][port];
	unsigned int ms = (unsigned int)(swccl_timeout_s() * 1000), got = 0;
	sdaaNicCompletion_t cq[64];
	uint64_t end = 0;
	sdaaError_t e;

	while (n > 0) {
		unsigned int want = n < 64 ? (unsigned int)n : 64;

		e = sdaaNicWait(pt, cq, want, want, ms, &got);
		if (e == sdaaErrorTimeout || (!e && got < want))
			return -ETIME;
		if (e) {
			*status = 0xff;
			return -EIO;
		}
		for (unsigned int i = 0; i < got; i++) {
			if (cq[i].status) {
				*status = cq[i].status;
				return -EIO;
			}
			end = cq[i].timeNs > end ? cq[i].timeNs : end;
		}
		n -= (int)got;
	}
	if (end + io->sync_ns > io->clock_ns[r])
		io->clock_ns[r] = end + io->sync_ns;
	return 0;
}

static const struct swccl_rdma_rec *c_rec(void *o, int r, int from)
{
	struct card_io *io = o;

	return &io->sh->rdma->mbox[r][from];
}

/* (Re)allocate *@p to hold @want bytes on the current card. */
static int grow(void **p, size_t *have, size_t want)
{
	if (*have >= want)
		return 0;
	if (*p)
		sdaaFree(*p);
	*p = NULL;
	*have = 0;
	if (sdaaMalloc(p, want))
		return -1;
	*have = want;
	return 0;
}

/*
 * Rank @r before the call: its stream's earlier work done, its scratch,
 * and a place for its input's copy when it is in place (peers write its
 * output while it still sends from its input).
 */
static swcclResult_t prepare(struct swccl_rdma_call *x, int r, struct sdaaTimingParams *tp)
{
	struct swccl_rdma *n = x->sh->rdma;
	const struct swccl_rank *rk = &x->c->r[r];
	uint64_t sb = swccl_rdma_scratch_bytes(x, r), ib = swccl_rdma_in_bytes(x);

	x->in_copy[r] = swccl_rdma_in_place(x, r);
	if (sdaaSetDevice(rk->dev) || sdaaStreamSynchronize(rk->stream) ||
	    sdaaDeviceGetTimingParams(tp, rk->dev) ||
	    grow(&n->scratch[r], &n->scratch_bytes[r], sb ? sb : 256) ||
	    (x->in_copy[r] && grow(&n->in[r], &n->in_bytes[r], ib)))
		return swccl_fail(x->comm0, swcclUnhandledSdaaError, "%s: rank %d: %s",
				  x->c->kind->name(x->c), r,
				  sdaaGetErrorString(sdaaGetLastError()));
	x->scratch_va[r] = (uint64_t)(uintptr_t)n->scratch[r];
	x->in_va[r] = (uint64_t)(uintptr_t)n->in[r];
	return swcclSuccess;
}

swcclResult_t swccl_rdma_run(struct swccl_shared *sh, struct swccl_call *c,
			     const struct swccl_plan *p, swcclComm_t comm0)
{
	struct card_io cio = { sh, comm0, c->tp.syncNs, { 0 } };
	struct swccl_rdma_io io = { &cio, c_post, c_wait, c_rec };
	struct swccl_rdma_call x = { .sh = sh, .c = c, .comm0 = comm0, .how = p->how,
				     .peer = sh->rdma->peer, .credit = sh->rdma->credit,
				     .rounds = &sh->rdma->rounds };
	swcclResult_t res = swccl_rdma_call_init(&x);

	for (int r = 0; r < c->nranks; r++)
		x.local[r] = !sh->comm[r]->remote;
	for (int r = 0; r < c->nranks && !res; r++) {
		struct sdaaTimingParams tp;

		if (!x.local[r])
			continue;
		res = prepare(&x, r, &tp);
		/* every rank starts where the host is once all streams are done */
		for (int q = 0; q < c->nranks && !res; q++)
			cio.clock_ns[q] = tp.hostClockNs;
	}
	if (!res)
		res = swccl_rdma_exchange(&x, &io);
	swccl_log(SWCCL_LOG_INFO, SWCCL_LAUNCH, "%s #%llu (%s) over RDMA WRITE: %s, %d "
		  "phases", c->kind->name(c), (unsigned long long)c->seq, p->how,
		  res ? "failed" : "done",
		  x.nlevels);
	swccl_rdma_call_free(&x);
	return res;
}
