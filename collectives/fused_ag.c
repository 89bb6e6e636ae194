// SPDX-License-Identifier: MIT
/*
 * fused_ag.c - LayerNorm + CSC-AllGather + GEMM fused (the paper's Figs. 10
 * and 11, front half of the MLP): rank r's jobs.
 *
 *   LayerNorm: x_r -> LDM -> y_r, PUT to gathered slot r (Local-HBM) and,
 *     on the other path at once, to the staging slot r (Global-HBM): the
 *     CSC-AG write phase rides on the LayerNorm's write-back.
 *   BARRIER (on card): every slot of the staging is written (a semaphore
 *     instruction first waits for the asynchronous PUTs).
 *   GEMM: A = [y_0; ..; y_{N-1}] with block r read from Local-HBM and the
 *     others from the staging; each A block, once in LDM, is also PUT into
 *     its gathered slot: the CSC-AG read phase rides on the GEMM's loads.
 *
 * The staging has two halves used by alternate calls: the next call's
 * LayerNorm writes the other half while slow ranks may still read this
 * one, and the call after that passes the next call's barrier first --
 * which every rank reaches only after this call's reads.  So no final
 * barrier.  The emitters' tiling depends only on the shapes, so the
 * unfused sdaaLayerNorm/sdaaGemm run the same compute instructions: the
 * results are bitwise those of the unfused sequence.
 */
#include <errno.h>

#include "swccl_algo.h"
#include "swccl_fused.h"
#include "swk.h"

static uint64_t slot_bytes(const struct swccl_call *c)
{
	return (uint64_t)c->fz.rows * c->fz.hidden * c->esize;
}

size_t fused_ag_stage_bytes(const struct swccl_call *c)
{
	return c->nranks > 1 ? (size_t)c->nranks * slot_bytes(c) : 0;
}

int fused_ag_jobs(const struct swccl_call *c, int r, struct swai_progs *out)
{
	const struct swccl_rank *rk = &c->r[r];
	struct swk_cfg cfg = { .ldm_bytes = c->ldm, .max_insns = c->kinsns,
			       .reserve = SWCCL_FUSED_RESERVE };
	uint64_t slot = slot_bytes(c), gathered = rk->fb[FB_Y].va;
	uint8_t dt = (uint8_t)swccl_type_dt(c->dtype);
	uint32_t h = (uint32_t)c->fz.hidden;
	struct swk_ln ln = { .rows = (uint32_t)c->fz.rows, .cols = h, .eps = c->fz.eps,
			     .dtype = dt, .x = rk->fb[FB_X].va, .gamma = rk->fb[FB_GAMMA].va,
			     .beta = rk->fb[FB_BETA].va, .ldx = h };
	struct swk_gemm g = { .m = (uint32_t)(c->fz.rows * (size_t)c->nranks),
			      .n = (uint32_t)c->fz.n, .k = h, .alpha = 1.0f, .beta = 0.0f,
			      .dtype = dt,
			      .epilogue = c->fz.gelu ? SWAI_EPI_GELU : SWAI_EPI_NONE };
	struct swai_progs lnp, gp;
	int e;

	ln.y.va[0] = gathered + (uint64_t)r * slot;
	ln.y.ld = h;
	ln.y2.va[0] = c->nranks > 1 ? c->stage + (uint64_t)r * slot : 0;
	ln.y2.ld = h;
	g.a.block_rows = g.a_copy.block_rows = (uint32_t)c->fz.rows;
	g.a.ld = g.a_copy.ld = h;
	for (int j = 0; j < c->nranks; j++) {
		g.a.va[j] = j == r ? gathered + (uint64_t)j * slot : c->stage + (uint64_t)j * slot;
		g.a_copy.va[j] = j == r ? 0 : gathered + (uint64_t)j * slot;
	}
	g.b.va[0] = rk->fb[FB_W].va;
	g.b.ld = (uint32_t)c->fz.n;
	g.c.va[0] = rk->fb[FB_OUT].va;
	g.c.ld = (uint32_t)c->fz.n;

	swai_progs_init(&lnp);
	swai_progs_init(&gp);
	e = swk_layernorm(&lnp, &ln, &cfg);
	if (!e)
		e = swk_gemm(&gp, &g, &cfg);
	if (!e && (lnp.nomem || gp.nomem))
		e = -ENOMEM;
	if (!e)
		e = jobs_two_phases(out, c, r, &lnp, &gp, c->kinsns);
	swai_progs_free(&lnp);
	swai_progs_free(&gp);
	return e;
}
