// SPDX-License-Identifier: MIT
/*
 * swccl_cost.c - the cost model: a call's schedule run on the card's own
 * engine (tools/card/swai-engine.h), the host's part modeled as libsdaa
 * models it (runtime/sdaa_model.c).
 *
 * Every job of a phase is launched at the host's modeled time H; the
 * engine runs them with the card's instruction costs, ports, shared-path
 * calendars and LDM scoreboard, so its end times are the card's.  After a
 * phase of a host-synchronised schedule the host waits for every rank:
 * H = the latest end + t_sync.  The call's time is H at the end, or the
 * latest end without host waits: exactly what the card takes for the call
 * when it starts on an idle card (events around the call measure that).
 *
 * Device addresses are resolved from the call: every rank's buffers, the
 * comm's scratch and staging (Global-HBM) and semaphores (pinned host
 * memory).  Nothing is moved, only timed -- except the semaphores, whose
 * values steer BARRIER and WAIT: they live in a shadow here.  With the
 * arithmetic (the host unit tests) the device addresses are host pointers
 * and the engine computes, which makes it the functional simulator too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-engine.h"
#include "swccl_plan.h"

/* Little-endian hosts: a struct swai_insn in memory is the card's encoding. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "little-endian host");

#define MAX_REGIONS	(SWCCL_MAX_RANKS * (FB_N + 3) + 3 + 2 * SWAI_ENGINE_CGS * SWAI_ENGINE_CGS)

struct region {
	uint64_t va, len;
	enum swccl_tier tier;
	int cg;			/* Local: owner */
	uint8_t *ptr;		/* the bytes, when the model computes */
};

struct swccl_model {
	struct swai_engine e;
	uint8_t *ldm;		/* with arithmetic: the core groups' LDM */
	bool data;
	/* the run in progress */
	const struct swccl_call *c;
	const struct swccl_sched *s;
	int phase;
	int rank_of[SWAI_ENGINE_CGS];
	int next[SWCCL_MAX_RANKS];
	uint64_t h_ps;
	uint64_t end_ns[SWCCL_MAX_RANKS];
	uint64_t transfer_ps[SWCCL_MAX_RANKS];
	int status, err_rank, err_job;
	uint32_t err_pc;
	struct region reg[MAX_REGIONS];
	int nreg;
	uint8_t *shadow;	/* the semaphores, when the model only times */
	size_t shadow_bytes;
};

/* --- the engine's host --- */

static struct swai_progs *jobs_of(const struct swccl_model *m, int r)
{
	return swccl_sched_jobs(m->s, m->phase, r);
}

static bool pending(void *opaque, unsigned cg)
{
	const struct swccl_model *m = opaque;
	int r = m->rank_of[cg];

	return r >= 0 && m->next[r] < jobs_of(m, r)->n;
}

static void start(void *opaque, unsigned cg)
{
	struct swccl_model *m = opaque;
	int r = m->rank_of[cg];
	const struct swai_prog *p = &jobs_of(m, r)->p[m->next[r]];
	struct swai_engine_start st = {
		.tag = (uint64_t)m->next[r]++, .not_before_ps = m->h_ps, .peer = m->c->peer,
	};

	swai_engine_begin(&m->e, cg, &st);
	swai_engine_load(&m->e, cg, (const uint8_t *)p->in, (uint32_t)p->n);
}

static void finish(void *opaque, unsigned cg, const struct swai_engine_end *end)
{
	struct swccl_model *m = opaque;
	int r = m->rank_of[cg];

	if (end->status && !m->status) {
		m->status = end->status;
		m->err_rank = r;
		m->err_job = (int)end->tag;
		m->err_pc = end->pc;
	}
	if (end->end_ns > m->end_ns[r])
		m->end_ns[r] = end->end_ns;
	m->transfer_ps[r] += end->transfer_ps;
}

static int locate(void *opaque, unsigned cg, const struct swai_engine_job *j, uint64_t va,
		  uint64_t len, bool write, struct swai_place *p, struct swai_fault *f)
{
	const struct swccl_model *m = opaque;

	(void)len;
	(void)write;
	for (int i = 0; i < m->nreg; i++) {
		const struct region *g = &m->reg[i];

		if (va < g->va || va - g->va >= g->len)
			continue;
		memset(p, 0, sizeof(*p));
		p->tier = g->tier == SWCCL_GLOBAL ? SWAI_TIER_GLOBAL :
			  g->tier == SWCCL_HOST ? SWAI_TIER_HOST :
			  g->cg == (int)cg ? SWAI_TIER_LOCAL : SWAI_TIER_PEER;
		if (p->tier == SWAI_TIER_PEER && !j->peer) {
			f->va = va;
			return SWAI_JOB_ERR_FOREIGN;
		}
		p->host = g->tier == SWCCL_HOST;
		p->addr = va;
		p->run = g->len - (va - g->va);
		p->ptr = g->ptr ? g->ptr + (va - g->va) : NULL;
		return SWAI_JOB_OK;
	}
	/* Memory the call does not name: a bug of the schedule's builder. */
	f->va = va;
	f->mmu_reason = SWAI_MMU_R_NOT_PRESENT;
	return SWAI_JOB_ERR_MMU;
}

static const struct swai_engine_ops model_ops = {
	.pending = pending, .start = start, .finish = finish, .locate = locate,
};

/* --- the model --- */

void swccl_timing_props(const struct sdaaTimingParams *t, struct swai_timing_props *tp)
{
	*tp = (struct swai_timing_props){
		.ring_mbps = t->ringMBps, .ring_total_mbps = t->ringTotalMBps,
		.local_mbps = t->localMBps, .pcie_mbps = t->pcieMBps, .ldm_mbps = t->ldmMBps,
		.t_launch_ns = t->launchNs, .t_sync_ns = t->syncNs, .t_step_ns = t->stepNs,
		.t_barrier_ns = t->barrierNs, .t_dma_ns = t->dmaNs,
		/* A card without compute reports 0; collectives do not compute. */
		.f32_gflops = t->f32Gflops ? t->f32Gflops : 1,
		.bf16_gflops = t->bf16Gflops ? t->bf16Gflops : 1,
	};
}

struct swccl_model *swccl_model_new(const struct swccl_call *c,
				    const struct swai_engine_arith *arith)
{
	struct swai_timing_props tp;
	struct swccl_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	swccl_timing_props(&c->tp, &tp);
	swai_engine_init(&m->e, &tp, c->ldm, &model_ops, m);
	m->data = arith != NULL;
	if (m->data)
		m->ldm = calloc(SWAI_ENGINE_CGS, c->ldm);
	if ((m->data && !m->ldm) || !swai_engine_attach(&m->e, m->ldm, arith)) {
		swccl_model_free(m);
		return NULL;
	}
	return m;
}

void swccl_model_free(struct swccl_model *m)
{
	if (!m)
		return;
	swai_engine_detach(&m->e);
	free(m->ldm);
	free(m->shadow);
	free(m);
}

static void map(struct swccl_model *m, uint64_t va, size_t len, enum swccl_tier tier, int cg)
{
	if (!len || m->nreg == MAX_REGIONS)
		return;
	m->reg[m->nreg++] = (struct region){ .va = va, .len = len, .tier = tier, .cg = cg,
					     .ptr = m->data ? (uint8_t *)(uintptr_t)va : NULL };
}

static void map_buf(struct swccl_model *m, const struct swccl_buf *b)
{
	if (b->va)
		map(m, b->va, b->bytes, b->tier, b->cg);
}

/* The semaphores' span, in pinned host memory: a shadow unless the model computes. */
static int map_sems(struct swccl_model *m, const struct swccl_call *c)
{
	uint64_t lo = c->sem.barrier, hi = c->sem.barrier + 8;

	for (int r = 0; r < c->nranks; r++) {
		const uint64_t v[2] = { c->sem.flag[r], c->sem.progress[r] };

		for (int i = 0; i < 2; i++) {
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] + 8 > hi ? v[i] + 8 : hi;
		}
	}
	if (!m->data) {
		if (hi - lo > m->shadow_bytes) {
			free(m->shadow);
			m->shadow = malloc(hi - lo);
			m->shadow_bytes = m->shadow ? hi - lo : 0;
			if (!m->shadow)
				return -1;
		}
		memset(m->shadow, 0, hi - lo);
	}
	map(m, lo, hi - lo, SWCCL_HOST, -1);
	if (!m->data)
		m->reg[m->nreg - 1].ptr = m->shadow;
	return 0;
}

static const char *status_name(int s)
{
	static const char *const n[] = {
		"ok", "illegal instruction", "LDM range", "unknown device address",
		"queue reset", "bad program", "bus error", "misaligned operand",
		"another core group's Local-HBM",
	};

	return s >= 0 && s < (int)(sizeof(n) / sizeof(n[0])) ? n[s] : "?";
}

/* Every job of phase @p, launched at m->h_ps; 0 or -1 with @why. */
static int run_phase(struct swccl_model *m, int p, char *why, size_t n)
{
	const struct swccl_call *c = m->c;

	m->phase = p;
	memset(m->next, 0, sizeof(m->next));
	while (swai_engine_step(&m->e) && !m->status)
		;
	if (m->status) {
		snprintf(why, n, "rank %d (CG %d), job %d, instruction %u: %s", m->err_rank,
			 c->r[m->err_rank].cg, m->err_job, m->err_pc, status_name(m->status));
		return -1;
	}
	for (int r = 0; r < c->nranks; r++)
		if (swai_engine_busy(&m->e, (unsigned)c->r[r].cg)) {
			snprintf(why, n, "deadlock: rank %d (CG %d) waits forever", r, c->r[r].cg);
			return -1;
		}
	return 0;
}

int swccl_model_run(struct swccl_model *m, const struct swccl_call *c,
		    const struct swccl_sched *s, size_t extra_scratch,
		    struct swccl_cost *out, char *why, size_t n)
{
	uint64_t last_ns = 0;
	double transfer_ps = 0;

	memset(out, 0, sizeof(*out));
	m->c = c;
	m->s = s;
	m->status = 0;
	m->nreg = 0;
	for (int cg = 0; cg < SWAI_ENGINE_CGS; cg++)
		m->rank_of[cg] = -1;
	for (int r = 0; r < c->nranks; r++) {
		const struct swccl_rank *rk = &c->r[r];

		if (rk->cg < 0 || rk->cg >= SWAI_ENGINE_CGS || m->rank_of[rk->cg] >= 0) {
			snprintf(why, n, "rank %d: core group %d is not a free one of the card", r,
				 rk->cg);
			return -1;
		}
		m->rank_of[rk->cg] = r;
		map_buf(m, &rk->send);
		map_buf(m, &rk->recv);
		for (int i = 0; i < FB_N; i++)
			map_buf(m, &rk->fb[i]);
		map_buf(m, &rk->tmp);
		/* AllToAllv, Send/Recv: each block where its rank's arrays put it */
		for (int q = 0; rk->pv && q < c->nranks; q++) {
			map_buf(m, &rk->pv->send[q]);
			map_buf(m, &rk->pv->recv[q]);
		}
	}
	map(m, c->scratch, c->scratch_bytes > extra_scratch ? c->scratch_bytes : extra_scratch,
	    SWCCL_GLOBAL, -1);
	map(m, c->stage, c->stage_bytes, SWCCL_GLOBAL, -1);
	if (map_sems(m, c)) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	swai_engine_reset(&m->e);
	m->h_ps = 0;
	for (int p = 0; p < s->nphases; p++) {
		uint64_t end = 0, tr = 0;

		memset(m->end_ns, 0, sizeof(m->end_ns));
		memset(m->transfer_ps, 0, sizeof(m->transfer_ps));
		if (run_phase(m, p, why, n))
			return -1;
		for (int r = 0; r < c->nranks; r++) {
			end = m->end_ns[r] > end ? m->end_ns[r] : end;
			tr = m->transfer_ps[r] > tr ? m->transfer_ps[r] : tr;
		}
		transfer_ps += (double)tr;
		last_ns = end > last_ns ? end : last_ns;
		/* The host learns of each end from an interrupt: t_sync later. */
		if (s->host_sync && end && (end + c->tp.syncNs) * 1000 > m->h_ps)
			m->h_ps = (end + c->tp.syncNs) * 1000;
	}
	out->us = (s->host_sync ? (double)(m->h_ps / 1000) : (double)last_ns) / 1e3;
	out->transfer_us = transfer_ps / 1e6;
	return 0;
}
