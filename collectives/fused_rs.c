// SPDX-License-Identifier: MIT
/*
 * fused_rs.c - GEMM + CSC-ReduceScatter + Dropout fused (the paper's
 * Fig. 10, back half of the MLP): rank r's jobs.
 *
 *   GEMM: P_r = A_r W_r; row block j of the result goes straight from LDM
 *     into the exchange slot (reader j, writer r) in Global-HBM, block r
 *     into the rank's Local-HBM scratch: the CSC-RS write phase rides on
 *     the GEMM's write-back, and P_r never exists as a whole.
 *   BARRIER (on card).
 *   Reduce + dropout: block r of every writer, summed in LDM in rank order
 *     0..N-1 (the order of CSC-RS, reducescatter_csc.c, so the sums are
 *     bitwise equal), the dropout applied in LDM, one write-back into out.
 *
 * The exchange has two halves for alternate calls (see fused_ag.c): no
 * final barrier.  Half layout: for reader i, its N-1 writers j != i in
 * rank order, one block (rowsPerRank x hidden f32) each.
 */
#include <errno.h>

#include "swccl_algo.h"
#include "swccl_fused.h"
#include "swk.h"

static uint64_t block_bytes(const struct swccl_call *c)
{
	return (uint64_t)c->fz.rows * c->fz.hidden * sizeof(float);
}

size_t fused_rs_stage_bytes(const struct swccl_call *c)
{
	return (size_t)c->nranks * (size_t)(c->nranks - 1) * block_bytes(c);
}

/* Exchange slot of writer @j's block for reader @i (j != i). */
static uint64_t xslot(const struct swccl_call *c, int i, int j)
{
	return c->stage + ((uint64_t)i * (uint64_t)(c->nranks - 1) + (uint64_t)(j < i ? j : j - 1)) *
	       block_bytes(c);
}

int fused_rs_jobs(const struct swccl_call *c, int r, struct swai_progs *out)
{
	const struct swccl_rank *rk = &c->r[r];
	struct swk_cfg cfg = { .ldm_bytes = c->ldm, .max_insns = c->kinsns,
			       .reserve = SWCCL_FUSED_RESERVE };
	uint32_t h = (uint32_t)c->fz.hidden;
	struct swk_gemm g = { .m = (uint32_t)(c->fz.rows * (size_t)c->nranks), .n = h,
			      .k = (uint32_t)c->fz.n, .alpha = 1.0f, .beta = 0.0f,
			      .dtype = (uint8_t)swccl_type_dt(c->dtype),
			      .epilogue = SWAI_EPI_NONE };
	struct swk_reduce_dropout rd = { .n = (uint64_t)c->fz.rows * c->fz.hidden,
					 .nsrc = c->nranks, .y = rk->fb[FB_OUT].va,
					 .keep = c->fz.keep, .seed = c->fz.seed,
					 .offset = c->fz.offset +
						   (uint64_t)r * c->fz.rows * c->fz.hidden,
					 .dropout = 1, .out_dtype = SWAI_DT_F32 };
	struct swai_progs gp, rp;
	int e;

	g.a.va[0] = rk->fb[FB_X].va;
	g.a.ld = (uint32_t)c->fz.n;
	g.b.va[0] = rk->fb[FB_W].va;
	g.b.ld = h;
	g.c.block_rows = (uint32_t)c->fz.rows;
	g.c.ld = h;
	for (int j = 0; j < c->nranks; j++) {
		g.c.va[j] = j == r ? rk->tmp.va : xslot(c, j, r);
		rd.src[j] = j == r ? rk->tmp.va : xslot(c, r, j);
	}

	swai_progs_init(&gp);
	swai_progs_init(&rp);
	e = swk_gemm(&gp, &g, &cfg);
	if (!e)
		e = swk_reduce_dropout(&rp, &rd, &cfg);
	if (!e && (gp.nomem || rp.nomem))
		e = -ENOMEM;
	if (!e)
		e = jobs_two_phases(out, c, r, &gp, &rp, c->kinsns);
	swai_progs_free(&gp);
	swai_progs_free(&rp);
	return e;
}
