// SPDX-License-Identifier: MIT
/*
 * swk_layernorm.c - LayerNorm over rows as a program.
 *
 * gamma and beta stay in the LDM for the whole job (loaded first in every
 * job); x comes in tiles of whole rows, normalized in place, and goes out
 * to y -- and, for libswccl's fused all-gather, to y2 as well, from the
 * same LDM bytes in the same pass.
 */
#include <math.h>

#include "swk_priv.h"

struct ln_plan {
	const struct swk_ln *l;
	unsigned int es;
	uint32_t tile;			/* rows per tile */
	uint64_t beta_off, x_off, set;	/* LDM layout */
};

static uint32_t tile_rows(const struct ln_plan *pl, uint32_t t)
{
	uint32_t r0 = t * pl->tile;

	return pl->l->rows - r0 < pl->tile ? pl->l->rows - r0 : pl->tile;
}

static int tile_cost(const struct ln_plan *pl, uint32_t t)
{
	uint32_t r0 = t * pl->tile, n = tile_rows(pl, t);

	return 2 + swk_mat_pieces(&pl->l->y, pl->es, r0, n, 0, NULL, true) +
	       swk_mat_pieces(&pl->l->y2, pl->es, r0, n, 0, NULL, true);
}

static void ln_load(const struct ln_plan *pl, struct swai_prog *p, uint32_t t)
{
	const struct swk_ln *l = pl->l;
	uint64_t row = (uint64_t)l->cols * pl->es;

	swk_xfer(p, SWAI_OP_DMA_GET, pl->x_off + (t & 1) * pl->set,
		 l->x + (uint64_t)t * pl->tile * l->ldx * pl->es, tile_rows(pl, t), row, row,
		 (uint64_t)l->ldx * pl->es);
}

static void ln_compute(const struct ln_plan *pl, struct swai_prog *p, uint32_t t)
{
	const struct swk_ln *l = pl->l;
	struct swai_insn_layernorm *in = (struct swai_insn_layernorm *)swai_prog_add(p);
	uint32_t off = (uint32_t)(pl->x_off + (t & 1) * pl->set);

	if (!in)
		return;
	in->op = SWAI_OP_LAYERNORM;
	in->dtype = l->dtype;
	in->rows = tile_rows(pl, t);
	in->cols = l->cols;
	in->eps = swk_f32_bits(l->eps);
	in->x = off;
	in->ldx = l->cols;
	in->y = off;
	in->ldy = l->cols;
	in->gamma = 0;
	in->beta = (uint32_t)pl->beta_off;
}

static void ln_store(const struct ln_plan *pl, struct swai_prog *p, uint32_t t)
{
	const struct swk_ln *l = pl->l;
	uint64_t off = pl->x_off + (t & 1) * pl->set, row = (uint64_t)l->cols * pl->es;

	swk_put_mat(p, &l->y, pl->es, t * pl->tile, tile_rows(pl, t), 0, l->cols, off, row);
	swk_put_mat(p, &l->y2, pl->es, t * pl->tile, tile_rows(pl, t), 0, l->cols, off, row);
}

static bool has_va(const struct swk_mat *m)
{
	for (int i = 0; i < SWK_MAX_BLOCKS; i++)
		if (m->va[i])
			return true;
	return false;
}

static int ln_check(const struct swk_ln *l)
{
	if (!swk_esize(l->dtype) || !l->rows || !l->cols || l->ldx < l->cols || !l->x ||
	    !l->gamma || !l->beta || !(l->eps >= 0.0f) || isinf(l->eps))
		return -EINVAL;
	if (l->y.ld < l->cols || !swk_mat_ok(&l->y, l->rows) || !has_va(&l->y))
		return -EINVAL;
	if (has_va(&l->y2) && (l->y2.ld < l->cols || !swk_mat_ok(&l->y2, l->rows)))
		return -EINVAL;
	return 0;
}

int swk_layernorm(struct swai_progs *out, const struct swk_ln *l, const struct swk_cfg *cfg)
{
	struct ln_plan pl = { .l = l };
	uint64_t gb, row, rmax, want, floor;
	uint32_t ntiles;
	int budget, first = out ? out->n : 0;

	if (!out || !l || ln_check(l) || swk_cfg_budget(cfg, &budget))
		return -EINVAL;
	pl.es = swk_esize(l->dtype);
	gb = swk_align((uint64_t)l->cols * 4);
	row = (uint64_t)l->cols * pl.es;
	if (cfg->ldm_bytes < 2 * gb + 2 * SWK_LDM_ALIGN)
		return -E2BIG;
	rmax = (cfg->ldm_bytes - 2 * gb - 2 * SWK_LDM_ALIGN) / (2 * row);
	if (!rmax)
		return -E2BIG;
	want = swk_div_up(l->rows, SWK_EW_TILES);
	floor = swk_div_up(SWK_MIN_XFER, row);
	want = want > floor ? want : floor;
	want = want < rmax ? want : rmax;
	pl.tile = (uint32_t)(want < l->rows ? want : l->rows);
	pl.beta_off = gb;
	pl.x_off = 2 * gb;
	pl.set = swk_align(pl.tile * row);
	ntiles = (uint32_t)swk_div_up(l->rows, pl.tile);

	for (uint32_t t0 = 0; t0 < ntiles;) {
		struct swai_prog *p;
		uint32_t t1 = t0;
		int used = 2;

		while (t1 < ntiles && used + tile_cost(&pl, t1) <= budget)
			used += tile_cost(&pl, t1++);
		if (t1 == t0) {
			swai_progs_truncate(out, first);
			return -E2BIG;
		}
		p = swai_progs_add(out);
		if (!p)
			break;
		swk_xfer(p, SWAI_OP_DMA_GET, 0, l->gamma, 1, (uint64_t)l->cols * 4, 0, 0);
		swk_xfer(p, SWAI_OP_DMA_GET, gb, l->beta, 1, (uint64_t)l->cols * 4, 0, 0);
		for (uint32_t t = t0; t <= t1; t++) {
			if (t < t1)
				ln_load(&pl, p, t);
			if (t > t0) {
				ln_compute(&pl, p, t - 1);
				ln_store(&pl, p, t - 1);
			}
		}
		t0 = t1;
	}
	return swk_finish(out, first);
}
