// SPDX-License-Identifier: MIT
/*
 * swccl_xcost.c - the cost model between cards: a call's lowered programs
 * run on one engine per card (tools/card/swai-engine.h), the engines joined
 * by the fabric the device model uses (tools/cluster/swai-fabric.h) on the
 * communicator's topology -- the same link calendars, the same booking
 * rule, the same semaphore times across cards.  So a prediction is what
 * the emulated cards take: every job launched at the host's time on an
 * idle card (libsdaa keeps one host clock per process), the call's time the
 * latest end.
 *
 * Addresses are resolved from the call: the rank's own buffers and counters
 * and landing area on its card, the peers' over the fabric at their cards'
 * fabric indices.  Nothing is moved, only timed -- except the counters,
 * whose values steer the waits: they live in a shadow here, one per rank,
 * shared by the rank that owns them and the peers that signal them.
 *
 * Planes: the calls of several communicators that run at once on other
 * core groups of the same cards (the planes of swccl_hier.c) run here
 * together, each plane's rank r on its own core group of rank r's card, so
 * they share the links -- and the card's paths -- as on the device.  Their
 * addresses are kept apart by the caller (swccl_xcard.c's model calls).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-engine.h"
#include "swai-fabric.h"
#include "swai-topo.h"
#include "swccl_plan.h"
#include "swccl_xcard.h"

#define NCTR	(2 * SWCCL_MAX_RANKS)	/* counters per rank (swccl_lower.c) */

/* What one core group of a card runs: rank r of plane @plane, or nothing. */
struct xslot {
	int plane;		/* -1: idle */
	bool started;
	uint64_t end_ns;
};

/* Rank r's card (of every plane). */
struct xrank {
	struct swccl_xmodel *m;
	int r;
	struct swai_engine e;
	struct xslot slot[SWAI_ENGINE_CGS];
};

struct swccl_xmodel {
	struct swai_fabric *f;
	int nplanes;
	const struct swccl_call *const *c;	/* per plane */
	const struct swccl_sched *const *s;
	struct xrank rk[SWCCL_MAX_RANKS];
	uint64_t ctr[SWAI_ENGINE_CGS][SWCCL_MAX_RANKS][NCTR];	/* the counters' values */
	uint64_t progress;			/* what progress reports write */
	uint8_t hbm;				/* a fabric port's (unused) memory */
	int status, err_rank, err_plane;
	uint32_t err_pc;
};

static bool pending(void *opaque, unsigned cg)
{
	const struct xrank *x = opaque;
	const struct xslot *sl = &x->slot[cg];

	return sl->plane >= 0 && !sl->started &&
	       swccl_sched_jobs(x->m->s[sl->plane], 0, x->r)->n > 0;
}

static void start(void *opaque, unsigned cg)
{
	struct xrank *x = opaque;
	struct xslot *sl = &x->slot[cg];
	const struct swai_prog *p = &swccl_sched_jobs(x->m->s[sl->plane], 0, x->r)->p[0];
	struct swai_engine_start st = { .tag = 1, .peer = x->m->c[sl->plane]->peer };

	sl->started = true;
	swai_engine_begin(&x->e, cg, &st);
	swai_engine_load(&x->e, cg, (const uint8_t *)p->in, (uint32_t)p->n);
}

static void finish(void *opaque, unsigned cg, const struct swai_engine_end *end)
{
	struct xrank *x = opaque;

	if (end->status && !x->m->status) {
		x->m->status = end->status;
		x->m->err_rank = x->r;
		x->m->err_plane = x->slot[cg].plane;
		x->m->err_pc = end->pc;
	}
	x->slot[cg].end_ns = end->end_ns;
}

/* [va, va + len) in [base, base + size): the place's offset, or -1. */
static int64_t within(uint64_t va, uint64_t base, uint64_t size)
{
	return va >= base && va - base < size ? (int64_t)(va - base) : -1;
}

static unsigned tier_of(const struct swccl_buf *b, unsigned cg)
{
	return b->tier == SWCCL_GLOBAL ? SWAI_TIER_GLOBAL :
	       b->tier == SWCCL_HOST ? SWAI_TIER_HOST :
	       b->cg == (int)cg ? SWAI_TIER_LOCAL : SWAI_TIER_PEER;
}

static int locate(void *opaque, unsigned cg, const struct swai_engine_job *j, uint64_t va,
		  uint64_t len, bool write, struct swai_place *p, struct swai_fault *f)
{
	struct xrank *x = opaque;
	struct swccl_xmodel *m = x->m;
	int plane = x->slot[cg].plane;
	const struct swccl_call *c = m->c[plane];
	int64_t off;

	(void)j;
	(void)len;
	(void)write;
	memset(p, 0, sizeof(*p));
	p->addr = va;
	for (int b = 0; b < c->nranks; b++) {
		bool mine = b == x->r;

		p->tier = mine ? SWAI_TIER_GLOBAL : SWAI_TIER_FABRIC;
		p->card = (unsigned)c->fabric_id[b];
		if ((off = within(va, c->xflags[b], NCTR * 8)) >= 0) {
			/*
			 * The same identity on the owner and over the fabric,
			 * and another for each plane: the card keeps each
			 * counter's writes (datasheet §15.4) by it.
			 */
			p->ptr = (uint8_t *)m->ctr[plane][b] + off;
			p->addr = (uint64_t)plane * NCTR * 8 + (uint64_t)off;
			p->run = NCTR * 8 - (uint64_t)off;
			return SWAI_JOB_OK;
		}
		if ((off = within(va, c->xland[b], c->xland_bytes)) >= 0) {
			p->run = c->xland_bytes - (uint64_t)off;
			return SWAI_JOB_OK;
		}
		/* AllToAllv's blocks, then the buffers (unused by AllToAllv: 0) */
		for (int k = 0; k < 2 + (c->v && c->r[b].pv ? 2 * c->nranks : 0); k++) {
			const struct swccl_buf *u = k == 0 ? &c->r[b].send : k == 1 ? &c->r[b].recv :
						    k & 1 ? &c->r[b].pv->recv[(k - 2) / 2] :
						    &c->r[b].pv->send[(k - 2) / 2];

			if (!u->va || (off = within(va, u->va, u->bytes)) < 0)
				continue;
			if (mine)
				p->tier = tier_of(u, cg);
			p->host = mine && u->tier == SWCCL_HOST;
			p->run = u->bytes - (uint64_t)off;
			return SWAI_JOB_OK;
		}
	}
	if (within(va, c->sem.progress[0], SWCCL_MAX_RANKS * 8) >= 0) {
		p->tier = SWAI_TIER_HOST;
		p->host = true;
		p->ptr = (uint8_t *)&m->progress;
		p->run = 8;
		return SWAI_JOB_OK;
	}
	/* Memory the call does not name: a bug of the lowering. */
	f->va = va;
	f->mmu_reason = SWAI_MMU_R_NOT_PRESENT;
	return SWAI_JOB_ERR_MMU;
}

static uint64_t book(void *opaque, unsigned card, bool write, uint64_t ready_ps,
		     uint64_t bytes, bool first)
{
	const struct xrank *x = opaque;

	return swai_fabric_book(x->m->f, (unsigned)x->m->c[0]->fabric_id[x->r], card, write,
				ready_ps, bytes, first);
}

static void sem_store(void *opaque, unsigned card, uint64_t addr, uint64_t val, uint64_t ps)
{
	const struct xrank *x = opaque;

	swai_fabric_sem_store(x->m->f, (unsigned)x->m->c[0]->fabric_id[x->r], card, addr, val,
			      ps);
}

static uint64_t sem_time(void *opaque, unsigned card, uint64_t addr,
			 const struct swai_sem_want *want)
{
	const struct xrank *x = opaque;

	return swai_fabric_sem_time(x->m->f, (unsigned)x->m->c[0]->fabric_id[x->r], card, addr,
				    want);
}

static uint64_t wall_ns(void *opaque)
{
	(void)opaque;
	return 0;
}

/* The cards step in one modeled-time order, as the device's do. */
static bool may_step(void *opaque, uint64_t at_ps)
{
	const struct xrank *x = opaque;

	return swai_fabric_may_step(x->m->f, (unsigned)x->m->c[0]->fabric_id[x->r], at_ps);
}

static const struct swai_engine_ops xops = {
	.pending = pending, .start = start, .finish = finish, .locate = locate,
	.wall_ns = wall_ns, .fabric_book = book, .fabric_sem_store = sem_store,
	.fabric_sem_time = sem_time, .may_step = may_step,
};

struct swccl_xmodel *swccl_xmodel_new(const struct swccl_call *c, const char *topology,
				      char *why, size_t n)
{
	struct swai_timing_props tp;
	struct swccl_xmodel *m = calloc(1, sizeof(*m));
	struct swai_topo topo;

	if (!m) {
		snprintf(why, n, "out of memory");
		return NULL;
	}
	swccl_timing_props(&c->tp, &tp);
	if (swai_topo_load(&topo, topology, why, n)) {
		free(m);
		return NULL;
	}
	m->f = swai_fabric_new(&topo, why, n);
	if (!m->f) {
		free(m);
		return NULL;
	}
	for (int r = 0; r < c->nranks; r++) {
		struct swai_fabric_port port = { .hbm = &m->hbm, .hbm_bytes = 1,
						 .engine = &m->rk[r].e };

		m->rk[r].m = m;
		m->rk[r].r = r;
		swai_engine_init(&m->rk[r].e, &tp, c->ldm, &xops, &m->rk[r]);
		if (!swai_engine_attach(&m->rk[r].e, NULL, NULL) ||
		    swai_fabric_join(m->f, (unsigned)c->fabric_id[r], &port, why, n)) {
			swccl_xmodel_free(m);
			return NULL;
		}
	}
	return m;
}

void swccl_xmodel_free(struct swccl_xmodel *m)
{
	if (!m)
		return;
	for (int r = 0; r < SWCCL_MAX_RANKS; r++)
		if (m->rk[r].m)
			swai_engine_detach(&m->rk[r].e);
	swai_fabric_free(m->f);
	free(m);
}

int swccl_xmodel_run(struct swccl_xmodel *m, int nplanes, const struct swccl_call *const *c,
		     const struct swccl_sched *const *s, double *us, char *why, size_t n)
{
	int nr = c[0]->nranks;
	bool busy = true;
	uint64_t end = 0;

	if (nplanes < 1 || nplanes > SWAI_ENGINE_CGS) {
		snprintf(why, n, "%d planes: a card has %d core groups", nplanes,
			 SWAI_ENGINE_CGS);
		return -1;
	}
	m->nplanes = nplanes;
	m->c = c;
	m->s = s;
	m->status = 0;
	memset(m->ctr, 0, sizeof(m->ctr));
	swai_links_reset(&m->f->links);
	for (int r = 0; r < nr; r++) {
		swai_engine_reset(&m->rk[r].e);
		for (int g = 0; g < SWAI_ENGINE_CGS; g++)
			m->rk[r].slot[g] = (struct xslot){ .plane = -1 };
		for (int p = 0; p < nplanes; p++) {
			int g = c[p]->r[r].cg;

			if (g < 0 || g >= SWAI_ENGINE_CGS || m->rk[r].slot[g].plane >= 0) {
				snprintf(why, n, "plane %d's rank %d on core group %d: taken or "
					 "none", p, r, g);
				return -1;
			}
			m->rk[r].slot[g].plane = p;
		}
	}
	/*
	 * Each card as far as it goes, in turn, until none can: a card goes
	 * only while its next step is the first of all cards' in modeled time
	 * (may_step), so the steps -- and the bookings of links two senders
	 * share -- come in the one order the device's cards take them in,
	 * whatever this loop's order; waits resolve by the times the fabric
	 * recorded.
	 */
	while (busy) {
		busy = false;
		for (int r = 0; r < nr; r++)
			while (swai_engine_step(&m->rk[r].e))
				busy = true;
	}
	for (int r = 0; r < nr; r++)
		for (int g = 0; g < SWAI_ENGINE_CGS; g++) {
			const struct xslot *sl = &m->rk[r].slot[g];

			if (sl->plane < 0)
				continue;
			if (swai_engine_busy(&m->rk[r].e, (unsigned)g)) {
				snprintf(why, n, "rank %d%s never finishes: the lowered programs "
					 "deadlock", r, nplanes > 1 ? " of a plane" : "");
				return -1;
			}
			end = sl->end_ns > end ? sl->end_ns : end;
		}
	if (m->status) {
		snprintf(why, n, "rank %d's program (plane %d) fails (status %d at instruction %u)",
			 m->err_rank, m->err_plane, m->status, m->err_pc);
		return -1;
	}
	*us = (double)end / 1e3;
	return 0;
}
