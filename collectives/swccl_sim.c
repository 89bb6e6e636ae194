// SPDX-License-Identifier: MIT
/*
 * swccl_sim.c - the cost model's engine: the programs of one step, all
 * ranks at once, on a model of the card's timing (datasheet §14): per
 * instruction alpha (t_step, t_dma, t_barrier, t_sync) plus beta (bytes
 * over the path's bandwidth), BARRIER and WAIT released by the modeled time
 * of the semaphore write that satisfies them.  Because the cost is computed
 * from the very programs that are launched, it cannot drift from them;
 * Documentation/collectives.md gives the closed forms it reproduces.
 *
 * Not modeled: the shared paths' calendars (the ring total is 4 x a port by
 * default, so only host memory is shared: PCIe is split among the ranks
 * that use it in the step).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_internal.h"

#define MAX_SEMS 64

#define MAX_LOG 512

/* A semaphore and its writes, so a waiter knows WHEN its condition came true. */
struct sem {
	uint64_t va, val;
	int nlog;
	struct {
		uint64_t v;
		double t;	/* us */
	} log[MAX_LOG];
};

struct rank_state {
	int pc;
	double t;		/* us since the launch */
	double xfer;		/* us of bytes / bandwidth */
	bool in_barrier;
	uint64_t target;
};

struct sim {
	const struct swccl_call *c;
	struct swccl_sim_mem *mem;
	struct sem sems[MAX_SEMS];
	int nsems;
	int host_users;
	int ring_users;		/* ranks moving Global-HBM bytes in this step */
	int sides;		/* Global sides of the transfer being costed */
	bool wrote;
	const char *error;
};

/* When @m first held at least @v (0 if before the step: a host write). */
static double sem_since(const struct sem *m, uint64_t v)
{
	for (int i = 0; i < m->nlog; i++)
		if (m->log[i].v >= v)
			return m->log[i].t;
	return 0;
}

static struct sem *sem_at(struct sim *s, uint64_t va)
{
	for (int i = 0; i < s->nsems; i++)
		if (s->sems[i].va == va)
			return &s->sems[i];
	if (s->nsems == MAX_SEMS) {
		s->error = "too many semaphores";
		return &s->sems[0];
	}
	s->sems[s->nsems] = (struct sem){ .va = va };
	if (s->mem)
		memcpy(&s->sems[s->nsems].val, (void *)(uintptr_t)va, 8);
	return &s->sems[s->nsems++];
}

static void sem_store(struct sim *s, struct sem *m, uint64_t v, double t)
{
	m->val = v;
	if (m->nlog < MAX_LOG)
		m->log[m->nlog++].v = v, m->log[m->nlog - 1].t = t;
	else
		s->error = "too many semaphore writes";
	s->wrote = true;
	if (s->mem)
		memcpy((void *)(uintptr_t)m->va, &v, 8);
}

/*
 * A rank's share of Global-HBM: its ring port, or its part of the ring's
 * total when all ranks moving Global bytes together ask more (every Global
 * side of a transfer -- read and write -- counts against the total).
 */
static double ring_bw(struct sim *s)
{
	const struct sdaaTimingParams *tp = &s->c->tp;
	double share = (double)tp->ringTotalMBps / ((s->ring_users ? s->ring_users : 1) *
						     (s->sides ? s->sides : 1));

	return fmin(tp->ringMBps, share);
}

static bool is_global(const struct swccl_call *c, uint64_t a)
{
	for (int j = 0; j < c->nranks; j++) {
		const struct swccl_buf *b[2] = { &c->r[j].send, &c->r[j].recv };

		for (int i = 0; i < 2; i++)
			if (a >= b[i]->va && a < b[i]->va + b[i]->bytes)
				return b[i]->tier == SWCCL_GLOBAL;
	}
	return a >= c->scratch && a < c->scratch + (c->scratch_bytes ? c->scratch_bytes : 1);
}

/* MB/s of the path between rank @r's core group and @va. */
static double bw(struct sim *s, int r, uint64_t va)
{
	const struct swccl_call *c = s->c;
	const struct sdaaTimingParams *tp = &c->tp;

	for (int j = 0; j < c->nranks; j++) {
		const struct swccl_buf *b[2] = { &c->r[j].send, &c->r[j].recv };

		for (int i = 0; i < 2; i++) {
			if (!b[i]->va || va < b[i]->va || va >= b[i]->va + b[i]->bytes)
				continue;
			if (b[i]->tier == SWCCL_HOST)
				return (double)tp->pcieMBps / (s->host_users ? s->host_users : 1);
			if (b[i]->tier == SWCCL_GLOBAL)
				return ring_bw(s);
			if (b[i]->cg == c->r[r].cg)
				return tp->localMBps;
			return fmin(tp->ringMBps, tp->localMBps);	/* peer access */
		}
	}
	return ring_bw(s);	/* the comm's scratch: Global-HBM */
}

/* Is @a in one of the call's buffers in host memory? */
static bool on_host(const struct swccl_call *c, uint64_t a)
{
	for (int j = 0; j < c->nranks; j++) {
		const struct swccl_buf *b[2] = { &c->r[j].send, &c->r[j].recv };

		for (int i = 0; i < 2; i++)
			if (b[i]->tier == SWCCL_HOST && a >= b[i]->va && a < b[i]->va + b[i]->bytes)
				return true;
	}
	return false;
}

static double xfer(double bytes, double mbps)
{
	return bytes / mbps;	/* MB/s = bytes/us */
}

static void *va(uint64_t a)
{
	return (void *)(uintptr_t)a;
}

/* One instruction; false when the rank blocks. */
static bool step(struct sim *s, int r, struct rank_state *st, const struct swai_insn *in)
{
	const struct sdaaTimingParams *tp = &s->c->tp;
	uint64_t rows = in->rows ? in->rows : 1, bytes = rows * in->len;
	uint8_t *ldm = s->mem ? s->mem->ldm[r] : NULL;
	double x;

	switch (in->op) {
	case SWAI_OP_COPY:
		s->sides = is_global(s->c, in->src) + is_global(s->c, in->dst);
		x = xfer((double)bytes, fmin(bw(s, r, in->src), bw(s, r, in->dst)));
		st->t += tp->stepNs / 1e3 + x;
		st->xfer += x;
		if (s->mem)
			for (uint64_t i = 0; i < rows; i++)
				memmove(va(in->dst + i * (in->dst_stride ? in->dst_stride : in->len)),
					va(in->src + i * (in->src_stride ? in->src_stride : in->len)),
					in->len);
		return true;
	case SWAI_OP_DMA_GET:
	case SWAI_OP_DMA_PUT:
		s->sides = 1;
		x = xfer((double)bytes, bw(s, r, in->op == SWAI_OP_DMA_GET ? in->src : in->dst));
		st->t += tp->dmaNs / 1e3 + x;
		st->xfer += x;
		if (in->dst + (in->op == SWAI_OP_DMA_GET ? bytes : 0) > s->c->ldm &&
		    in->op == SWAI_OP_DMA_GET)
			s->error = "LDM overrun";
		if (in->op == SWAI_OP_DMA_PUT && in->src + bytes > s->c->ldm)
			s->error = "LDM overrun";
		if (ldm && !s->error)
			memcpy(in->op == SWAI_OP_DMA_GET ? ldm + in->dst : va(in->dst),
			       in->op == SWAI_OP_DMA_GET ? va(in->src) : ldm + in->src, bytes);
		return true;
	case SWAI_OP_REDUCE:
		st->t += xfer(3.0 * in->len * s->c->esize, tp->ldmMBps);
		if (ldm)
			swccl_sim_reduce(ldm + in->dst, ldm + in->src, in->len, in->dtype, in->rop,
					 &s->error);
		return true;
	case SWAI_OP_DIV:
		st->t += xfer(2.0 * in->len * s->c->esize, tp->ldmMBps);
		if (ldm)
			swccl_sim_div(ldm + in->dst, in->len, in->dtype, in->src, &s->error);
		return true;
	case SWAI_OP_SIGNAL: {
		struct sem *m = sem_at(s, in->dst);

		sem_store(s, m, in->flags & SWAI_SIGNAL_SET ? in->src : m->val + in->src, st->t);
		return true;
	}
	case SWAI_OP_WAIT: {
		struct sem *m = sem_at(s, in->dst);

		if (m->val < in->src)
			return false;
		st->t = fmax(st->t, sem_since(m, in->src)) + tp->barrierNs / 1e3;
		return true;
	}
	case SWAI_OP_BARRIER: {
		struct sem *m = sem_at(s, in->dst);

		if (!st->in_barrier) {
			st->target = (m->val / in->len + 1) * in->len;
			sem_store(s, m, m->val + 1, st->t);
			st->in_barrier = true;
		}
		if (m->val < st->target)
			return false;
		st->in_barrier = false;
		st->t = fmax(st->t, sem_since(m, st->target)) +
			(in->flags & SWAI_BARRIER_HOST ? tp->syncNs : tp->barrierNs) / 1e3;
		return true;
	}
	case SWAI_OP_NOP:
		return true;
	default:
		s->error = "unexpected instruction";
		return true;
	}
}

void swccl_sim_step(const struct swccl_call *c, struct swai_prog *const *progs,
		    struct swccl_sim_mem *mem, struct swccl_sim_result *res)
{
	struct sim *s = calloc(1, sizeof(*s));
	struct rank_state st[SWCCL_MAX_RANKS];
	bool blocked[SWCCL_MAX_RANKS] = { false }, launched = false;
	double end = 0, xmax = 0;

	memset(st, 0, sizeof(st));
	memset(res, 0, sizeof(*res));
	if (!s) {
		res->error = "out of memory";
		return;
	}
	s->c = c;
	s->mem = mem;
	for (int r = 0; r < c->nranks; r++) {
		bool host = false, ring = false;

		for (int i = 0; i < progs[r]->n; i++) {
			const struct swai_insn *in = &progs[r]->in[i];

			if (in->op == SWAI_OP_COPY || in->op == SWAI_OP_DMA_GET ||
			    in->op == SWAI_OP_DMA_PUT)
				host |= on_host(c, in->src) || on_host(c, in->dst),
				ring |= (in->op != SWAI_OP_DMA_GET && is_global(c, in->dst)) ||
					(in->op != SWAI_OP_DMA_PUT && is_global(c, in->src));
			if (in->op == SWAI_OP_BARRIER && (in->flags & SWAI_BARRIER_HOST) && r == 0)
				res->host_barriers++;
		}
		s->host_users += host;
		s->ring_users += ring;
		launched |= progs[r]->n > 0;
	}
	/*
	 * In modeled-time order, as the card's command processor: the runnable
	 * rank with the earliest clock runs one instruction; a semaphore write
	 * makes the blocked ranks look again.
	 */
	while (!s->error) {
		int r = -1;

		for (int q = 0; q < c->nranks; q++)
			if (st[q].pc < progs[q]->n && !blocked[q] && (r < 0 || st[q].t < st[r].t))
				r = q;
		if (r < 0)
			break;
		s->wrote = false;
		if (step(s, r, &st[r], &progs[r]->in[st[r].pc]))
			st[r].pc++;
		else
			blocked[r] = true;
		if (s->wrote)
			memset(blocked, 0, sizeof(blocked));
	}
	for (int r = 0; r < c->nranks && !s->error; r++)
		if (st[r].pc < progs[r]->n)
			s->error = "deadlock: a rank waits forever";
	for (int r = 0; r < c->nranks; r++) {
		end = fmax(end, st[r].t);
		xmax = fmax(xmax, st[r].xfer);
	}
	res->us = launched ? c->tp.launchNs / 1e3 + end : 0;
	res->transfer_us = xmax;
	res->error = s->error;
	free(s);
}
