// SPDX-License-Identifier: MIT
/*
 * swk_gemm.c - GEMM as a program: C (f32) = alpha op(A) op(B) + beta C.
 *
 * A-stationary: a block of mb rows of op(A) with all of K stays in the LDM
 * while the C tiles of those rows are computed, so every row of A is loaded
 * once (what libswccl's a_copy hook relies on).  B is kept resident for the
 * whole job when it fits in half of the LDM; otherwise it streams in tiles
 * of kb x nb, and K is split into k-blocks when a K x nb panel does not fit
 * (the k-blocks accumulate into the C tile in the LDM with beta = 1; the
 * epilogue comes with the last one).
 *
 * One step = one GEMM instruction (row block i, column tile j, k-block kk).
 * Each step's loads are issued before the previous step's compute; A, B
 * and C buffers alternate by the parity of the row block, the step and the
 * C tile, all counted over the whole operation, so the LDM offsets do not
 * depend on where the jobs are cut.  Jobs are cut at row block boundaries
 * when the row block fits a job, else at C tile boundaries, else between
 * k-blocks (then the partial C goes out through HBM and comes back, which
 * is exact in f32).
 */
#include <math.h>
#include <string.h>

#include "swk_priv.h"

struct gplan {
	const struct swk_gemm *g;
	unsigned int es;
	bool b_res, copy;
	uint32_t mb, nb, kb, nmb, nnb, nkb;
	uint64_t a_off[2], b_off[2], c_off[2];
};

struct gstep { uint32_t i, j, kk, r0, mbi, j0, nbj, k0, kbk; uint64_t unit; };

static uint32_t min32(uint64_t a, uint64_t b)
{
	return (uint32_t)(a < b ? a : b);
}

static void step_of(const struct gplan *pl, uint64_t s, struct gstep *st)
{
	const struct swk_gemm *g = pl->g;

	st->kk = (uint32_t)(s % pl->nkb);
	st->unit = s / pl->nkb;
	st->j = (uint32_t)(st->unit % pl->nnb);
	st->i = (uint32_t)(st->unit / pl->nnb);
	st->r0 = st->i * pl->mb;
	st->mbi = min32(pl->mb, g->m - st->r0);
	st->j0 = st->j * pl->nb;
	st->nbj = min32(pl->nb, g->n - st->j0);
	st->k0 = st->kk * pl->kb;
	st->kbk = min32(pl->kb, g->k - st->k0);
}

static int pieces(const struct swk_mat *m, unsigned int es, uint32_t r0, uint32_t n, bool skip0)
{
	return swk_mat_pieces(m, es, r0, n, 0, NULL, skip0);
}

/* Instructions of step @s's loads and compute (not the C PUT). */
static int step_cost(const struct gplan *pl, uint64_t s, bool first)
{
	const struct swk_gemm *g = pl->g;
	struct gstep st;
	int n = 1;

	step_of(pl, s, &st);
	if (first || (st.j == 0 && st.kk == 0)) {
		n += g->trans_a ? pieces(&g->a, pl->es, 0, g->k, false) :
				  pieces(&g->a, pl->es, st.r0, st.mbi, false);
		if (pl->copy && st.j == 0 && st.kk == 0)
			n += pieces(&g->a_copy, pl->es, st.r0, st.mbi, true);
	}
	if (first || !pl->b_res)
		n += g->trans_b ? pieces(&g->b, pl->es, st.j0, st.nbj, false) :
				  pieces(&g->b, pl->es, st.k0, st.kbk, false);
	if ((st.kk == 0 && g->beta != 0.0f) || (first && st.kk > 0))
		n += pieces(&g->c, 4, st.r0, st.mbi, false);
	return n;
}

static int cput_cost(const struct gplan *pl, uint64_t s)
{
	struct gstep st;

	step_of(pl, s, &st);
	return pieces(&pl->g->c, 4, st.r0, st.mbi, true);
}

static void emit_loads(const struct gplan *pl, struct swai_prog *p, uint64_t s, bool first)
{
	const struct swk_gemm *g = pl->g;
	struct gstep st;
	uint64_t a, b, c;

	step_of(pl, s, &st);
	a = pl->a_off[st.i & 1];
	b = pl->b_off[pl->b_res ? 0 : s & 1];
	c = pl->c_off[st.unit & 1];
	if (first || (st.j == 0 && st.kk == 0)) {
		if (g->trans_a)
			swk_get_mat(p, &g->a, pl->es, 0, g->k, st.r0, st.mbi, a,
				    (uint64_t)st.mbi * pl->es);
		else
			swk_get_mat(p, &g->a, pl->es, st.r0, st.mbi, 0, g->k, a,
				    (uint64_t)g->k * pl->es);
		if (pl->copy && st.j == 0 && st.kk == 0)
			swk_put_mat(p, &g->a_copy, pl->es, st.r0, st.mbi, 0, g->k, a,
				    (uint64_t)g->k * pl->es);
	}
	if (first || !pl->b_res) {
		if (g->trans_b)
			swk_get_mat(p, &g->b, pl->es, st.j0, st.nbj, st.k0, st.kbk, b,
				    (uint64_t)st.kbk * pl->es);
		else
			swk_get_mat(p, &g->b, pl->es, st.k0, st.kbk, st.j0, st.nbj, b,
				    (uint64_t)st.nbj * pl->es);
	}
	if ((st.kk == 0 && g->beta != 0.0f) || (first && st.kk > 0))
		swk_get_mat(p, &g->c, 4, st.r0, st.mbi, st.j0, st.nbj, c, (uint64_t)st.nbj * 4);
}

static void emit_gemm(const struct gplan *pl, struct swai_prog *p, uint64_t s)
{
	const struct swk_gemm *g = pl->g;
	struct swai_insn_gemm *in = (struct swai_insn_gemm *)swai_prog_add(p);
	struct gstep st;

	if (!in)
		return;
	step_of(pl, s, &st);
	in->op = SWAI_OP_GEMM;
	in->flags = (g->trans_a ? SWAI_GEMM_TRANS_A : 0) | (g->trans_b ? SWAI_GEMM_TRANS_B : 0);
	in->dtype = g->dtype;
	in->epilogue = st.kk == pl->nkb - 1 ? g->epilogue : SWAI_EPI_NONE;
	in->m = st.mbi;
	in->n = st.nbj;
	in->k = st.kbk;
	in->c = (uint32_t)pl->c_off[st.unit & 1];
	in->ldc = st.nbj;
	if (g->trans_a) {
		in->a = (uint32_t)(pl->a_off[st.i & 1] + (uint64_t)st.k0 * st.mbi * pl->es);
		in->lda = st.mbi;
	} else {
		in->a = (uint32_t)(pl->a_off[st.i & 1] + (uint64_t)st.k0 * pl->es);
		in->lda = g->k;
	}
	in->b = (uint32_t)pl->b_off[pl->b_res ? 0 : s & 1];
	in->ldb = g->trans_b ? st.kbk : st.nbj;
	in->alpha = swk_f32_bits(g->alpha);
	in->beta = swk_f32_bits(st.kk ? 1.0f : g->beta);
}

static void emit_cput(const struct gplan *pl, struct swai_prog *p, uint64_t s)
{
	struct gstep st;

	step_of(pl, s, &st);
	swk_put_mat(p, &pl->g->c, 4, st.r0, st.mbi, st.j0, st.nbj, pl->c_off[st.unit & 1],
		    (uint64_t)st.nbj * 4);
}

static bool has_va(const struct swk_mat *m)
{
	for (int i = 0; i < SWK_MAX_BLOCKS; i++)
		if (m->va[i])
			return true;
	return false;
}

static int gemm_check(const struct swk_gemm *g)
{
	if (!swk_esize(g->dtype) || !g->m || !g->n || !g->k || g->epilogue > SWAI_EPI_MAX)
		return -EINVAL;
	if (g->a.ld < (g->trans_a ? g->m : g->k) || !swk_mat_ok(&g->a, g->trans_a ? g->k : g->m) ||
	    g->b.ld < (g->trans_b ? g->k : g->n) || !swk_mat_ok(&g->b, g->trans_b ? g->n : g->k) ||
	    g->c.ld < g->n || !swk_mat_ok(&g->c, g->m))
		return -EINVAL;
	if (has_va(&g->a_copy) && (g->trans_a || g->a_copy.ld < g->k ||
				   !swk_mat_ok(&g->a_copy, g->m)))
		return -EINVAL;
	return 0;
}

/* mb rows of at most @max: as even as possible. */
static uint32_t even(uint32_t total, uint64_t max)
{
	uint64_t cnt = swk_div_up(total, max);

	return (uint32_t)swk_div_up(total, cnt);
}

/* Tile sizes and LDM layout: a function of shapes, type and LDM size only. */
static int gemm_plan(struct gplan *pl, uint64_t ldm)
{
	const struct swk_gemm *g = pl->g;
	uint64_t L = ldm - 8 * SWK_LDM_ALIGN, es = pl->es, K = g->k, arow = K * es;
	uint64_t bres = swk_align(K * g->n * es), abuf, cbuf, bbuf, rest, max;

	pl->b_res = false;
	if (bres <= L / 2 && (L - bres) / (2 * (arow + (uint64_t)g->n * 4)) >= 1) {
		max = (L - bres) / (2 * (arow + (uint64_t)g->n * 4));
		pl->b_res = true;
		pl->mb = even(g->m, max < g->m ? max : g->m);
		pl->nb = g->n;
		pl->kb = g->k;
	} else {
		max = L / 2 / (2 * arow);
		if (!max)
			max = L * 3 / 4 / (2 * arow);
		if (!max)
			return -E2BIG;
		pl->mb = even(g->m, max < 128 ? max : 128);
		rest = L - 2 * swk_align(pl->mb * arow);
		max = rest / (2 * (arow + pl->mb * 4ull));
		if (max >= 32 || max >= g->n) {
			pl->kb = g->k;
			pl->nb = even(g->n, max);
		} else {
			pl->nb = min32(g->n, 64);
			if (rest <= 2 * swk_align(pl->mb * pl->nb * 4ull))
				return -E2BIG;
			max = (rest - 2 * swk_align(pl->mb * pl->nb * 4ull)) / (2 * pl->nb * es);
			if (!max)
				return -E2BIG;
			pl->kb = even(g->k, max);
		}
	}
	pl->nmb = (uint32_t)swk_div_up(g->m, pl->mb);
	pl->nnb = (uint32_t)swk_div_up(g->n, pl->nb);
	pl->nkb = (uint32_t)swk_div_up(g->k, pl->kb);
	abuf = swk_align(pl->mb * arow);
	bbuf = swk_align((uint64_t)pl->kb * pl->nb * es);
	cbuf = swk_align((uint64_t)pl->mb * pl->nb * 4);
	pl->b_off[0] = 0;
	pl->b_off[1] = pl->b_res ? 0 : bbuf;
	pl->a_off[0] = pl->b_res ? bbuf : 2 * bbuf;
	pl->a_off[1] = pl->a_off[0] + abuf;
	pl->c_off[0] = pl->a_off[1] + abuf;
	pl->c_off[1] = pl->c_off[0] + cbuf;
	if (pl->c_off[1] + cbuf > ldm)
		return -E2BIG;
	return 0;
}

/* Instructions of steps [s, e) when @s is the first of its job (@first) or not. */
static long range_cost(const struct gplan *pl, uint64_t s, uint64_t e, bool first)
{
	long n = 0;

	for (uint64_t t = s; t < e; t++, first = false)
		n += step_cost(pl, t, first) + (t % pl->nkb == pl->nkb - 1 ? cput_cost(pl, t) : 0);
	return n;
}

int swk_gemm(struct swai_progs *out, const struct swk_gemm *g, const struct swk_cfg *cfg)
{
	struct gplan pl = { .g = g };
	uint64_t nsteps, s = 0, per_row, per_unit;
	int budget, first = out ? out->n : 0, ret;

	if (!out || !g || gemm_check(g) || swk_cfg_budget(cfg, &budget))
		return -EINVAL;
	pl.es = swk_esize(g->dtype);
	pl.copy = has_va(&g->a_copy);
	ret = gemm_plan(&pl, cfg->ldm_bytes);
	if (ret)
		return ret;
	per_unit = pl.nkb;
	per_row = per_unit * pl.nnb;
	nsteps = per_row * pl.nmb;
	while (s < nsteps) {
		struct swai_prog *p;
		uint64_t e = s;
		long used = 0;

		/* Choose the job's steps [s, e). */
		while (e < nsteps) {
			bool f = e == s;
			uint64_t grp = e % per_row == 0 ? per_row : e % per_unit == 0 ? per_unit : 0;
			int c;

			if (!f && grp && used + range_cost(&pl, e, e + grp, false) > budget &&
			    range_cost(&pl, e, e + grp, true) <= budget)
				break;
			c = step_cost(&pl, e, f) + cput_cost(&pl, e);
			if (used + c > budget)
				break;
			used += c - (e % pl.nkb == pl.nkb - 1 ? 0 : cput_cost(&pl, e));
			e++;
		}
		if (e == s) {
			ret = -E2BIG;
			break;
		}
		p = swai_progs_add(out);
		if (!p)
			break;
		emit_loads(&pl, p, s, true);
		for (uint64_t t = s; t < e; t++) {
			if (t + 1 < e)
				emit_loads(&pl, p, t + 1, false);
			emit_gemm(&pl, p, t);
			if (t % pl.nkb == pl.nkb - 1 || t + 1 == e)
				emit_cput(&pl, p, t);
		}
		s = e;
	}
	if (ret) {
		swai_progs_truncate(out, first);
		return ret;
	}
	return swk_finish(out, first);
}
