// SPDX-License-Identifier: MIT
/*
 * swk_cvt.c - element-wise type conversion (F32 <-> BF16, or a copy) as a
 * program: GET x, CVT (in place when both types have one size), PUT y.
 */
#include "swk_priv.h"

struct cvt_ctx {
	const struct swk_cvt *c;
	uint64_t set, src_buf;		/* bytes of a buffer set; of its source part */
	bool in_place;
};

static void cvt_load(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par)
{
	const struct cvt_ctx *c = ctx;
	unsigned int es = swk_esize(c->c->from);

	swk_xfer(p, SWAI_OP_DMA_GET, par * c->set, c->c->x + i0 * es, 1, (uint64_t)cnt * es, 0, 0);
}

static uint64_t cvt_dst(const struct cvt_ctx *c, int par)
{
	return par * c->set + (c->in_place ? 0 : c->src_buf);
}

static void cvt_compute(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par)
{
	const struct cvt_ctx *c = ctx;
	struct swai_insn *in = swai_prog_add(p);

	(void)i0;
	if (!in)
		return;
	in->op = SWAI_OP_CVT;
	in->dtype = c->c->from;
	in->rop = c->c->to;
	in->len = cnt;
	in->src = par * c->set;
	in->dst = cvt_dst(c, par);
}

static void cvt_store(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par)
{
	const struct cvt_ctx *c = ctx;
	unsigned int es = swk_esize(c->c->to);

	swk_xfer(p, SWAI_OP_DMA_PUT, c->c->y + i0 * es, cvt_dst(c, par), 1, (uint64_t)cnt * es, 0, 0);
}

int swk_cvt(struct swai_progs *out, const struct swk_cvt *cv, const struct swk_cfg *cfg)
{
	unsigned int ef = cv ? swk_esize(cv->from) : 0, et = cv ? swk_esize(cv->to) : 0;
	struct cvt_ctx c = { .c = cv };
	struct swk_ew e = {
		.ctx = &c, .per_tile = 3,
		.load = cvt_load, .compute = cvt_compute, .store = cvt_store,
	};
	int budget;

	if (!out || !cv || !ef || !et || !cv->n || swk_cfg_budget(cfg, &budget))
		return -EINVAL;
	c.in_place = ef == et;
	e.n = cv->n;
	e.tile = swk_ew_tile(cv->n, cfg->ldm_bytes, c.in_place ? ef : ef + et, ef < et ? ef : et);
	c.src_buf = swk_align(e.tile * ef);
	c.set = c.src_buf + (c.in_place ? 0 : swk_align(e.tile * et));
	return swk_ew_emit(out, &e, cfg);
}
