// SPDX-License-Identifier: MIT
/*
 * fused_seq.c - the unfused sequence of a fused call: the kernels and the
 * CSC collective one after the other through memory, the programs an
 * application gets from sdaaLayerNorm + swcclAllGather (CSC) + sdaaGemm,
 * resp. sdaaGemm + swcclReduceScatter (CSC) + sdaaDropout: the same
 * emitters with libsdaa's job geometry (no reserved instructions), the same
 * algorithm.  The fused jobs' results are checked bit for bit against it,
 * and the fusion gain is measured against it.
 */
#include <errno.h>

#include "swccl_algo.h"
#include "swccl_fused.h"
#include "swccl_plan.h"
#include "swk.h"

void fused_seq_collective(const struct swccl_call *c, struct swccl_call *coll)
{
	uint64_t es, blk;

	*coll = *c;
	es = c->coll == SWCCL_ALLGATHER ? c->esize : sizeof(float);
	blk = (uint64_t)c->fz.rows * c->fz.hidden * es;
	coll->dtype = c->coll == SWCCL_ALLGATHER ? c->dtype : swcclFloat32;
	coll->esize = es;
	coll->op = swcclSum;
	coll->count = c->fz.rows * c->fz.hidden;
	coll->want = swcclAlgoCsc;
	for (int r = 0; r < c->nranks; r++) {
		struct swccl_rank *rk = &coll->r[r];
		struct swccl_buf whole = c->coll == SWCCL_ALLGATHER ? c->r[r].fb[FB_Y] :
					 c->r[r].tmp;
		struct swccl_buf own = whole;

		whole.bytes = (size_t)(blk * (uint64_t)c->nranks);
		own.va += (uint64_t)r * blk;
		own.bytes = (size_t)blk;
		/* NCCL's in-place forms: AG sends its own slot, RS receives into it */
		rk->send = c->coll == SWCCL_ALLGATHER ? own : whole;
		rk->recv = c->coll == SWCCL_ALLGATHER ? whole : own;
	}
}

/* Append an emitter's programs, one job each, as libsdaa launches them. */
static void add_progs(struct swai_progs *jobs, struct swai_progs *ps)
{
	for (int i = 0; i < ps->n; i++) {
		struct swai_prog *p = swai_progs_add(jobs);

		if (p)
			swai_prog_append(p, ps->p[i].in, ps->p[i].n);
	}
	swai_progs_free(ps);
}

/* The kernel before (@before) or after the collective of rank @r. */
static int kernel(const struct swccl_call *c, int r, bool before, struct swai_progs *jobs)
{
	const struct swccl_rank *rk = &c->r[r];
	struct swk_cfg cfg = { .ldm_bytes = c->ldm, .max_insns = c->kinsns };
	uint32_t m = (uint32_t)(c->fz.rows * (size_t)c->nranks), h = (uint32_t)c->fz.hidden;
	uint32_t n = (uint32_t)c->fz.n;
	uint8_t dt = (uint8_t)swccl_type_dt(c->dtype);
	struct swai_progs ps;
	int e;

	swai_progs_init(&ps);
	if (c->coll == SWCCL_ALLGATHER && before) {
		struct swk_ln l = { .rows = (uint32_t)c->fz.rows, .cols = h, .eps = c->fz.eps,
				    .dtype = dt, .x = rk->fb[FB_X].va, .gamma = rk->fb[FB_GAMMA].va,
				    .beta = rk->fb[FB_BETA].va, .ldx = h };

		l.y.va[0] = rk->fb[FB_Y].va + (uint64_t)r * c->fz.rows * h * c->esize;
		l.y.ld = h;
		e = swk_layernorm(&ps, &l, &cfg);
	} else if (c->coll == SWCCL_ALLGATHER) {
		struct swk_gemm g = { .m = m, .n = n, .k = h, .alpha = 1.0f, .beta = 0.0f,
				      .dtype = dt,
				      .epilogue = c->fz.gelu ? SWAI_EPI_GELU : SWAI_EPI_NONE };

		g.a = (struct swk_mat){ .va = { rk->fb[FB_Y].va }, .ld = h };
		g.b = (struct swk_mat){ .va = { rk->fb[FB_W].va }, .ld = n };
		g.c = (struct swk_mat){ .va = { rk->fb[FB_OUT].va }, .ld = n };
		e = swk_gemm(&ps, &g, &cfg);
	} else if (before) {
		struct swk_gemm g = { .m = m, .n = h, .k = n, .alpha = 1.0f, .beta = 0.0f,
				      .dtype = dt, .epilogue = SWAI_EPI_NONE };

		g.a = (struct swk_mat){ .va = { rk->fb[FB_X].va }, .ld = n };
		g.b = (struct swk_mat){ .va = { rk->fb[FB_W].va }, .ld = h };
		g.c = (struct swk_mat){ .va = { rk->tmp.va }, .ld = h };
		e = swk_gemm(&ps, &g, &cfg);
	} else {
		uint64_t blk = (uint64_t)c->fz.rows * h;
		struct swk_dropout d = { .n = blk, .dtype = SWAI_DT_F32, .keep = c->fz.keep,
					 .seed = c->fz.seed, .offset = c->fz.offset + r * blk,
					 .x = rk->tmp.va + r * blk * sizeof(float),
					 .y = rk->fb[FB_OUT].va };

		e = swk_dropout(&ps, &d, &cfg);
	}
	if (!e)
		add_progs(jobs, &ps);
	swai_progs_free(&ps);
	return e;
}

int fused_seq_schedule(const struct swccl_call *c, const struct swccl_call *coll,
		       struct swccl_sched *s)
{
	int p = swccl_sched_phase(s), e = 0;

	if (p < 0)
		return -ENOMEM;
	for (int r = 0; r < c->nranks && !e; r++)
		e = kernel(c, r, true, swccl_sched_jobs(s, p, r));
	if (!e)
		swccl_sched_algo(s, coll, swccl_algo_find(coll->coll, swcclAlgoCsc));
	for (int r = 0; r < c->nranks && !e; r++)
		e = kernel(c, r, false, swccl_sched_jobs(s, p, r));
	if (!e && s->nomem)
		e = -ENOMEM;
	return e;
}
