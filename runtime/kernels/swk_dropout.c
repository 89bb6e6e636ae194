// SPDX-License-Identifier: MIT
/*
 * swk_dropout.c - Dropout as a program, and libswccl's fused reduce-scatter
 * tail (sum of f32 sources, dropout, conversion) that must give the same
 * bits as the unfused reduce-scatter followed by sdaaDropout.
 *
 * Dropout is computed in place in the LDM: GET x, DROPOUT, PUT y.  Its mask
 * depends only on (seed, offset + i), so any tiling gives the same result.
 */
#include <math.h>

#include "swk_priv.h"

struct dropout_ctx {
	const struct swk_dropout *d;
	uint64_t set;			/* bytes of one buffer set */
};

static void dropout_insn(struct swai_prog *p, uint8_t dtype, uint32_t off, uint32_t cnt,
			 float keep, uint64_t seed, uint64_t offset)
{
	struct swai_insn_dropout *in = (struct swai_insn_dropout *)swai_prog_add(p);

	if (!in)
		return;
	in->op = SWAI_OP_DROPOUT;
	in->dtype = dtype;
	in->n = cnt;
	in->x = off;
	in->y = off;
	in->keep = swk_f32_bits(keep);
	in->seed = seed;
	in->offset = offset;
}

static void dropout_load(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par)
{
	const struct dropout_ctx *c = ctx;
	unsigned int es = swk_esize(c->d->dtype);

	swk_xfer(p, SWAI_OP_DMA_GET, par * c->set, c->d->x + i0 * es, 1, (uint64_t)cnt * es, 0, 0);
}

static void dropout_compute(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt,
			    int par)
{
	const struct dropout_ctx *c = ctx;

	dropout_insn(p, c->d->dtype, (uint32_t)(par * c->set), cnt, c->d->keep, c->d->seed,
		     c->d->offset + i0);
}

static void dropout_store(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par)
{
	const struct dropout_ctx *c = ctx;
	unsigned int es = swk_esize(c->d->dtype);

	swk_xfer(p, SWAI_OP_DMA_PUT, c->d->y + i0 * es, par * c->set, 1, (uint64_t)cnt * es, 0, 0);
}

static bool keep_ok(float keep)
{
	return keep > 0.0f && keep <= 1.0f;	/* false for NaN */
}

int swk_dropout(struct swai_progs *out, const struct swk_dropout *d, const struct swk_cfg *cfg)
{
	unsigned int es = d ? swk_esize(d->dtype) : 0;
	struct dropout_ctx c = { .d = d };
	struct swk_ew e = {
		.ctx = &c, .per_tile = 3,
		.load = dropout_load, .compute = dropout_compute, .store = dropout_store,
	};
	int budget;

	if (!out || !d || !es || !d->n || !keep_ok(d->keep) || swk_cfg_budget(cfg, &budget))
		return -EINVAL;
	e.n = d->n;
	e.tile = swk_ew_tile(d->n, cfg->ldm_bytes, es, es);
	c.set = swk_align(e.tile * es);
	return swk_ew_emit(out, &e, cfg);
}

/* --- reduce + dropout ------------------------------------------------------------- */

struct rd_ctx {
	const struct swk_reduce_dropout *r;
	uint64_t buf;			/* bytes of one f32 buffer */
	uint64_t set;			/* bytes of one buffer set: nsrc f32 buffers (+ output) */
};

static void rd_load(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par)
{
	const struct rd_ctx *c = ctx;

	for (int s = 0; s < c->r->nsrc; s++)
		swk_xfer(p, SWAI_OP_DMA_GET, par * c->set + s * c->buf, c->r->src[s] + i0 * 4, 1,
			 (uint64_t)cnt * 4, 0, 0);
}

static void rd_compute(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par)
{
	const struct rd_ctx *c = ctx;
	uint64_t acc = par * c->set;

	for (int s = 1; s < c->r->nsrc; s++) {
		struct swai_insn *in = swai_prog_add(p);

		if (!in)
			return;
		in->op = SWAI_OP_REDUCE;
		in->dtype = SWAI_DT_F32;
		in->rop = SWAI_ROP_SUM;
		in->len = cnt;
		in->dst = acc;
		in->src = acc + s * c->buf;
	}
	if (c->r->dropout)
		dropout_insn(p, SWAI_DT_F32, (uint32_t)acc, cnt, c->r->keep, c->r->seed,
			     c->r->offset + i0);
	if (c->r->out_dtype != SWAI_DT_F32) {
		struct swai_insn *in = swai_prog_add(p);

		if (!in)
			return;
		in->op = SWAI_OP_CVT;
		in->dtype = SWAI_DT_F32;
		in->rop = c->r->out_dtype;
		in->len = cnt;
		in->dst = acc + c->r->nsrc * c->buf;
		in->src = acc;
	}
}

static void rd_store(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par)
{
	const struct rd_ctx *c = ctx;
	unsigned int es = swk_esize(c->r->out_dtype);
	uint64_t src = par * c->set + (c->r->out_dtype != SWAI_DT_F32 ? c->r->nsrc * c->buf : 0);

	swk_xfer(p, SWAI_OP_DMA_PUT, c->r->y + i0 * es, src, 1, (uint64_t)cnt * es, 0, 0);
}

int swk_reduce_dropout(struct swai_progs *out, const struct swk_reduce_dropout *r,
		       const struct swk_cfg *cfg)
{
	unsigned int es = r ? swk_esize(r->out_dtype) : 0;
	struct rd_ctx c = { .r = r };
	struct swk_ew e = {
		.ctx = &c, .load = rd_load, .compute = rd_compute, .store = rd_store,
	};
	int budget;

	if (!out || !r || !es || !r->n || r->nsrc < 1 || r->nsrc > SWK_MAX_BLOCKS ||
	    (r->dropout && !keep_ok(r->keep)) || swk_cfg_budget(cfg, &budget))
		return -EINVAL;
	e.n = r->n;
	e.per_tile = 2 * r->nsrc + !!r->dropout + (r->out_dtype != SWAI_DT_F32);
	e.tile = swk_ew_tile(r->n, cfg->ldm_bytes,
			     4ull * r->nsrc + (r->out_dtype != SWAI_DT_F32 ? es : 0), es);
	c.buf = swk_align(e.tile * 4);
	c.set = c.buf * r->nsrc + (r->out_dtype != SWAI_DT_F32 ? swk_align(e.tile * es) : 0);
	return swk_ew_emit(out, &e, cfg);
}
