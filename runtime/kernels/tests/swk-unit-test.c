// SPDX-License-Identifier: MIT
/*
 * swk-unit-test.c - host unit test of runtime/kernels/: the reference arithmetic
 * (Philox known answer, bf16 rounding, GELU, LayerNorm, dropout) and the
 * program emitters, whose programs run on the card's own engine
 * (swk-engine.h: tools/card/, as the device and the cost model run them)
 * on odd shapes, small LDMs and short job limits so that every tiling path
 * (multi-tile, multi-job, k-split, block layouts, hooks) is taken and
 * checked against the independent host reference.
 *
 * GEMM tolerance (the card's, see swk_ref_gemm):
 *   |got - ref| <= 1e-5 * |alpha| * sum_k |a||b| * sqrt(k) + 1e-6 * (1 + |beta c|).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swk.h"
#include "swk-engine.h"
#include "splitmix64.h"
#include "tap.h"

static uint64_t rng = 42;

static float frand(void)
{
	return (float)((double)(splitmix64(&rng) >> 11) * 0x1p-53 * 2.0 - 1.0);
}

static void *rand_array(uint8_t dt, size_t n)
{
	void *p = malloc(n * swk_esize(dt) + 1);

	for (size_t i = 0; i < n; i++)
		swk_store(dt, p, i, frand());
	return p;
}

static uint32_t bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static float fbits(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static const struct swk_cfg big = { 8u << 20, SWAI_PROGRAM_MAX_BYTES / 48, 0 };

/* --- reference ----------------------------------------------------------------------- */

static void test_philox_kat(void)
{
	const uint32_t c0[4] = { 0, 0, 0, 0 }, k0[2] = { 0, 0 };
	const uint32_t c1[4] = { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff };
	const uint32_t k1[2] = { 0xffffffff, 0xffffffff };
	const uint32_t c2[4] = { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 };
	const uint32_t k2[2] = { 0xa4093822, 0x299f31d0 };
	uint32_t o[4];

	swk_philox4x32_10(c0, k0, o);
	CHECK_EQ(o[0], 0x6627e8d5);
	CHECK_EQ(o[1], 0xe169c58d);
	CHECK_EQ(o[2], 0xbc57ac4c);
	CHECK_EQ(o[3], 0x9b00dbd8);
	/* Random123's other two known answers for philox4x32_10. */
	swk_philox4x32_10(c1, k1, o);
	CHECK_EQ(o[0], 0x408f276d);
	CHECK_EQ(o[1], 0x41c83b0e);
	CHECK_EQ(o[2], 0xa20bc7c6);
	CHECK_EQ(o[3], 0x6d5451fd);
	swk_philox4x32_10(c2, k2, o);
	CHECK_EQ(o[0], 0xd16cfe09);
	CHECK_EQ(o[1], 0x94fdcceb);
	CHECK_EQ(o[2], 0x5001e420);
	CHECK_EQ(o[3], 0x24126ea1);
	/* u of position 0..3 = the four words of counter 0. */
	swk_philox4x32_10(c0, k0, o);
	CHECK(swk_dropout_u(0, 2) == (float)(o[2] >> 8) * 0x1p-24f);
}

static void test_bf16(void)
{
	CHECK_EQ(swk_bf16_from_f32(1.0f), 0x3f80);
	CHECK_EQ(swk_bf16_from_f32(fbits(0x3f808000)), 0x3f80);	/* tie, even stays */
	CHECK_EQ(swk_bf16_from_f32(fbits(0x3f818000)), 0x3f82);	/* tie, odd rounds up */
	CHECK_EQ(swk_bf16_from_f32(fbits(0x3f808001)), 0x3f81);
	CHECK_EQ(swk_bf16_from_f32(fbits(0x3f807fff)), 0x3f80);
	CHECK_EQ(swk_bf16_from_f32(fbits(0xbf818000)), 0xbf82);	/* negative tie */
	CHECK_EQ(swk_bf16_from_f32(INFINITY), 0x7f80);
	CHECK_EQ(swk_bf16_from_f32(-INFINITY), 0xff80);
	CHECK_EQ(swk_bf16_from_f32(fbits(0x7f7fffff)), 0x7f80);	/* overflow to inf */
	CHECK_EQ(swk_bf16_from_f32(fbits(0x7fc00000)), 0x7fc0);
	CHECK_EQ(swk_bf16_from_f32(fbits(0x7f800001)), 0x7fc0);	/* sNaN -> quiet NaN */
	CHECK_EQ(swk_bf16_from_f32(fbits(0xffffffff)), 0xffff);
	CHECK_EQ(swk_bf16_from_f32(fbits(0x00000001)), 0x0000);	/* denormal */
	CHECK_EQ(swk_bf16_from_f32(-0.0f), 0x8000);
	CHECK(isnan(swk_f32_from_bf16(0x7fc1)));
	CHECK_EQ(bits(swk_f32_from_bf16(0x3f81)), 0x3f810000);
}

static void test_gelu(void)
{
	CHECK(swk_gelu(0.0f) == 0.0f);
	CHECK(fabsf(swk_gelu(1.0f) - 0.841192f) < 1e-6f);
	CHECK(fabsf(swk_gelu(-1.0f) + 0.158808f) < 1e-6f);
	CHECK(swk_gelu(20.0f) == 20.0f);
	CHECK(swk_gelu(-20.0f) == 0.0f || fabsf(swk_gelu(-20.0f)) < 1e-30f);
}

static void test_ref_layernorm(void)
{
	float x[2][5] = { { 1, 2, 3, 4, 5 }, { 7, 7, 7, 7, 7 } }, y[2][5];
	float g[5] = { 1, 1, 1, 1, 2 }, b[5] = { 0, 0, 0, 0, 0.5f };

	swk_ref_layernorm(2, 5, 1e-5f, SWAI_DT_F32, x, 5, g, b, y, 5);
	for (int j = 0; j < 5; j++) {
		double d = (x[0][j] - 3) / sqrt(2.0 + 1e-5) * g[j] + b[j];

		CHECK(fabs(y[0][j] - d) < 1e-5);
		CHECK(y[1][j] == b[j]);		/* constant row: x - mean == 0 */
	}
}

static void test_ref_dropout(void)
{
	enum { N = 200000 };
	float *x = malloc(N * 4), *y = malloc(N * 4), *z = malloc(N * 4);
	long kept = 0;

	for (int i = 0; i < N; i++)
		x[i] = 1.0f;
	swk_ref_dropout(N, SWAI_DT_F32, 0.75f, 1234, 99, x, y);
	for (int i = 0; i < N; i++) {
		kept += y[i] != 0.0f;
		CHECK(y[i] == 0.0f || y[i] == 1.0f / 0.75f);
	}
	/* 0.75 +- 5 sigma (sigma = sqrt(p(1-p)/N) ~ 0.001). */
	CHECK(fabs((double)kept / N - 0.75) < 0.005);
	/* Split invariance: [0, 777) and [777, N) with the offset moved along. */
	swk_ref_dropout(777, SWAI_DT_F32, 0.75f, 1234, 99, x, z);
	swk_ref_dropout(N - 777, SWAI_DT_F32, 0.75f, 1234, 99 + 777, x + 777, z + 777);
	CHECK(!memcmp(y, z, N * 4));
	swk_ref_dropout(N, SWAI_DT_F32, 1.0f, 1234, 0, x, z);
	CHECK(!memcmp(x, z, N * 4));
	free(x);
	free(y);
	free(z);
}

/* --- emitters ----------------------------------------------------------------------- */

static int run(const struct swai_progs *ps, const struct swk_cfg *cfg, long *gemms)
{
	static struct engine_run er;
	int err = engine_run(&er, ps, cfg);

	if (err)
		printf("# engine: %d errors, first: %s\n", err, er.why);
	if (gemms)
		*gemms = er.gemms;
	return err;
}

/* A matrix of @rows x @ld elements spread over blocks of @br rows (0: one place). */
struct blk { void *p[SWK_MAX_BLOCKS]; int n; };

static void to_blocks(struct swk_mat *m, struct blk *b, const void *src, uint32_t rows,
		      uint32_t ld, uint32_t br, unsigned int es, int skip)
{
	memset(m, 0, sizeof(*m));
	m->ld = ld;
	m->block_rows = br;
	b->n = br ? (int)((rows + br - 1) / br) : 1;
	for (int i = 0; i < b->n; i++) {
		uint32_t r0 = br ? i * br : 0, nr = br ? (rows - r0 < br ? rows - r0 : br) : rows;

		b->p[i] = NULL;
		if (i == skip)
			continue;
		b->p[i] = calloc((size_t)nr * ld + 1, es);
		if (src)
			memcpy(b->p[i], (const uint8_t *)src + (size_t)r0 * ld * es,
			       (size_t)nr * ld * es);
		m->va[i] = (uintptr_t)b->p[i];
	}
}

static void from_blocks(void *dst, const struct blk *b, uint32_t rows, uint32_t ld, uint32_t br,
			unsigned int es)
{
	for (int i = 0; i < b->n; i++) {
		uint32_t r0 = br ? i * br : 0, nr = br ? (rows - r0 < br ? rows - r0 : br) : rows;

		if (b->p[i])
			memcpy((uint8_t *)dst + (size_t)r0 * ld * es, b->p[i], (size_t)nr * ld * es);
	}
}

static void free_blocks(struct blk *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->p[i]);
}

struct gcase {
	int ta, tb;
	uint32_t m, n, k;
	float alpha, beta;
	uint8_t dt, epi;
	uint64_t ldm;
	int max_insns;
	uint32_t abr, cbr;		/* block rows of A (!ta) and C */
	int copy;			/* a_copy with block rows abr, block 1 skipped */
	int min_jobs;
};

static void gemm_case(const struct gcase *gc)
{
	unsigned int es = swk_esize(gc->dt);
	uint32_t ar = gc->ta ? gc->k : gc->m, ac = (gc->ta ? gc->m : gc->k), lda = ac + 3;
	uint32_t br = gc->tb ? gc->n : gc->k, bc = gc->tb ? gc->k : gc->n, ldb = bc + 1;
	uint32_t ldc = gc->n + 2;
	void *a = rand_array(gc->dt, (size_t)ar * lda), *b = rand_array(gc->dt, (size_t)br * ldb);
	float *c = rand_array(SWAI_DT_F32, (size_t)gc->m * ldc);
	float *ref = malloc((size_t)gc->m * ldc * 4), *tol = calloc((size_t)gc->m * ldc, 4);
	float *got = malloc((size_t)gc->m * ldc * 4);
	struct swk_cfg cfg = { gc->ldm, gc->max_insns, 2 };
	struct swk_gemm g = {
		.trans_a = gc->ta, .trans_b = gc->tb, .m = gc->m, .n = gc->n, .k = gc->k,
		.alpha = gc->alpha, .beta = gc->beta, .dtype = gc->dt, .epilogue = gc->epi,
	};
	struct blk ab, cb, cp = { .n = 0 };
	struct swai_progs ps;
	long gemms = 0;
	int bad = 0, ret;

	memcpy(ref, c, (size_t)gc->m * ldc * 4);
	swk_ref_gemm(gc->ta, gc->tb, gc->m, gc->n, gc->k, gc->alpha, a, lda, b, ldb, gc->beta,
		     ref, ldc, gc->dt, gc->epi, tol);
	to_blocks(&g.a, &ab, a, ar, lda, gc->ta ? 0 : gc->abr, es, -1);
	g.b.ld = ldb;
	g.b.va[0] = (uintptr_t)b;
	to_blocks(&g.c, &cb, c, gc->m, ldc, gc->cbr, 4, -1);
	if (gc->copy)
		to_blocks(&g.a_copy, &cp, NULL, gc->m, gc->k, gc->abr, es, 1);
	swai_progs_init(&ps);
	ret = swk_gemm(&ps, &g, &cfg);
	CHECK_EQ(ret, 0);
	CHECK(ps.n >= gc->min_jobs);
	CHECK(!run(&ps, &cfg, &gemms));
	from_blocks(got, &cb, gc->m, ldc, gc->cbr, 4);
	for (uint32_t i = 0; i < gc->m; i++)
		for (uint32_t j = 0; j < gc->n; j++) {
			size_t x = (size_t)i * ldc + j;

			if (!(fabsf(got[x] - ref[x]) <= tol[x]) && bad++ < 3)
				printf("# C[%u][%u] = %.9g, ref %.9g, tol %.3g\n", i, j, got[x],
				       ref[x], tol[x]);
		}
	CHECK(!bad);
	for (int i = 0; i < cp.n; i++) {
		uint32_t r0 = i * gc->abr;
		uint32_t nr = gc->m - r0 < gc->abr ? gc->m - r0 : gc->abr;

		for (uint32_t r = 0; cp.p[i] && r < nr; r++)
			CHECK(!memcmp((uint8_t *)cp.p[i] + (size_t)r * gc->k * es,
				      (uint8_t *)a + (size_t)(r0 + r) * lda * es, (size_t)gc->k * es));
	}
	printf("# gemm %s%s %ux%ux%u %s: %d jobs, %ld insns, %ld GEMM insns\n", gc->ta ? "T" : "N",
	       gc->tb ? "T" : "N", gc->m, gc->n, gc->k, gc->dt == SWAI_DT_BF16 ? "bf16" : "f32",
	       ps.n, swai_progs_insns(&ps), gemms);
	swai_progs_free(&ps);
	free_blocks(&ab);
	free_blocks(&cb);
	free_blocks(&cp);
	free(a);
	free(b);
	free(c);
	free(ref);
	free(tol);
	free(got);
}

static void test_gemm_shapes(void)
{
	const struct gcase cases[] = {
		/* B resident, one job */
		{ 0, 0, 37, 29, 53, 1.0f, 0.0f, SWAI_DT_F32, 0, 16384, 1365, 0, 0, 0, 1 },
		{ 1, 0, 37, 29, 53, 0.5f, 1.0f, SWAI_DT_F32, 0, 16384, 1365, 0, 0, 0, 1 },
		{ 0, 1, 37, 29, 53, 1.0f, -2.0f, SWAI_DT_BF16, SWAI_EPI_GELU, 16384, 1365, 0, 0, 0, 1 },
		{ 1, 1, 37, 29, 53, -1.5f, 0.25f, SWAI_DT_BF16, 0, 16384, 1365, 0, 0, 0, 1 },
		/* streamed B with a k-split; short jobs */
		{ 0, 0, 37, 29, 300, 1.0f, 0.0f, SWAI_DT_F32, SWAI_EPI_GELU, 16384, 30, 0, 0, 0, 2 },
		{ 1, 0, 37, 29, 300, 1.0f, 0.5f, SWAI_DT_F32, 0, 16384, 30, 0, 0, 0, 2 },
		{ 0, 1, 37, 29, 300, 2.0f, 1.0f, SWAI_DT_BF16, SWAI_EPI_GELU, 16384, 30, 0, 0, 0, 2 },
		{ 1, 1, 37, 29, 300, 1.0f, 0.0f, SWAI_DT_BF16, 0, 16384, 12, 0, 0, 0, 2 },
		/* streamed B without a k-split, several column tiles */
		{ 0, 0, 50, 300, 40, 1.0f, 0.0f, SWAI_DT_F32, 0, 32768, 30, 0, 0, 0, 2 },
		{ 0, 1, 50, 300, 40, 1.0f, 3.0f, SWAI_DT_BF16, 0, 32768, 1365, 0, 0, 0, 1 },
		/* column tiles and a k-split together */
		{ 0, 0, 20, 200, 400, 1.0f, 0.5f, SWAI_DT_F32, SWAI_EPI_GELU, 16384, 1365, 0, 0, 0, 1 },
		{ 1, 1, 20, 200, 400, 1.0f, 0.0f, SWAI_DT_BF16, 0, 16384, 25, 0, 0, 0, 2 },
		/* block layouts and the a_copy hook (a block not copied) */
		{ 0, 0, 37, 29, 300, 1.0f, 1.0f, SWAI_DT_F32, 0, 16384, 40, 10, 7, 1, 2 },
		{ 0, 1, 61, 45, 33, 1.0f, 0.0f, SWAI_DT_BF16, SWAI_EPI_GELU, 16384, 1365, 16, 9, 1, 1 },
		{ 0, 0, 61, 45, 33, 1.0f, 0.0f, SWAI_DT_BF16, 0, 8u << 20, 1365, 13, 13, 1, 1 },
		/* tiny */
		{ 0, 0, 1, 1, 1, 1.0f, 0.0f, SWAI_DT_F32, 0, 8u << 20, 1365, 0, 0, 0, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		gemm_case(&cases[i]);
}

/* Random shapes, LDM sizes and job limits: every plan the emitter makes is right. */
static void test_gemm_random(void)
{
	int ran = 0;

	for (int i = 0; i < 80; i++) {
		struct gcase gc = {
			.ta = (int)(splitmix64(&rng) & 1), .tb = (int)(splitmix64(&rng) & 1),
			.m = 1 + (uint32_t)(splitmix64(&rng) % 70),
			.n = 1 + (uint32_t)(splitmix64(&rng) % 70),
			.k = 1 + (uint32_t)(splitmix64(&rng) % 400),
			.alpha = frand() * 2, .beta = (splitmix64(&rng) & 1) ? frand() : 0.0f,
			.dt = (splitmix64(&rng) & 1) ? SWAI_DT_BF16 : SWAI_DT_F32,
			.epi = (uint8_t)(splitmix64(&rng) & 1),
			.ldm = 4096u << (splitmix64(&rng) % 5),
			.max_insns = 8 + (int)(splitmix64(&rng) % 100),
		};
		struct swk_gemm g = {
			.trans_a = gc.ta, .trans_b = gc.tb, .m = gc.m, .n = gc.n, .k = gc.k,
			.dtype = gc.dt, .a = { .va = { 1 }, .ld = 1000 }, .b = { .va = { 1 }, .ld = 1000 },
			.c = { .va = { 1 }, .ld = 1000 },
		};
		struct swk_cfg cfg = { gc.ldm, gc.max_insns, 2 };
		struct swai_progs ps;
		int ret;

		if (!gc.ta && (splitmix64(&rng) & 1)) {
			gc.abr = 1 + (uint32_t)(gc.m / 8);
			gc.copy = gc.m > gc.abr;
		}
		if (splitmix64(&rng) & 1)
			gc.cbr = 1 + (uint32_t)(gc.m / 6);
		/* The same block layouts as gemm_case makes (they change the instruction count). */
		for (int b = 0; b < SWK_MAX_BLOCKS; b++) {
			g.a.va[b] = g.c.va[b] = 1;
			g.a_copy.va[b] = gc.copy && b != 1;
		}
		g.a.block_rows = gc.abr;
		g.c.block_rows = gc.cbr;
		g.a_copy.block_rows = gc.abr;
		g.a_copy.ld = 1000;
		/* Plans that cannot fit (a row of A over a tiny LDM) are -E2BIG: skip them. */
		swai_progs_init(&ps);
		ret = swk_gemm(&ps, &g, &cfg);
		swai_progs_free(&ps);
		CHECK(ret == 0 || ret == -E2BIG);
		if (ret)
			continue;
		gemm_case(&gc);
		ran++;
	}
	CHECK(ran > 40);
}

/* Compute instructions of @ps in order, as bytes. */
static size_t computes(const struct swai_progs *ps, struct swai_insn *out, size_t cap)
{
	size_t n = 0;

	for (int j = 0; j < ps->n; j++)
		for (int i = 0; i < ps->p[j].n; i++) {
			uint8_t op = ps->p[j].in[i].op;

			if (op >= SWAI_OP_GEMM && op <= SWAI_OP_CVT && n < cap)
				out[n++] = ps->p[j].in[i];
		}
	return n;
}

static void test_same_compute(void)
{
	struct swk_cfg c0 = { 16384, 40, 0 }, c1 = { 16384, 40, 8 };
	struct swk_gemm g = {
		.m = 37, .n = 29, .k = 300, .alpha = 1, .beta = 0, .dtype = SWAI_DT_BF16,
		.a = { .va = { 0x1000 }, .ld = 300 }, .b = { .va = { 0x900000 }, .ld = 29 },
		.c = { .va = { 0x2000000 }, .ld = 29 },
	};
	struct swk_gemm h = g;
	struct swk_ln l = {
		.rows = 300, .cols = 40, .eps = 1e-5f, .dtype = SWAI_DT_F32, .x = 0x10000,
		.gamma = 0x100, .beta = 0x200, .ldx = 40, .y = { .va = { 0x800000 }, .ld = 40 },
	};
	struct swk_ln l2 = l;
	static struct swai_insn a[4096], b[4096];
	struct swai_progs p0, p1;
	size_t n0, n1;

	/* Other addresses, blocks, the a_copy hook and another reserve. */
	h.a.block_rows = 10;
	for (int i = 0; i < 4; i++) {
		h.a.va[i] = 0x7000000 + i * 0x100000;
		h.a_copy.va[i] = i == 2 ? 0 : 0x9000000 + i * 0x100000;
	}
	h.a_copy.block_rows = 10;
	h.a_copy.ld = 300;
	h.b.va[0] = 0x5550000;
	h.c.va[0] = 0x6660000;
	swai_progs_init(&p0);
	swai_progs_init(&p1);
	CHECK_EQ(swk_gemm(&p0, &g, &c0), 0);
	CHECK_EQ(swk_gemm(&p1, &h, &c1), 0);
	n0 = computes(&p0, a, 4096);
	n1 = computes(&p1, b, 4096);
	CHECK(n0 > 10);
	CHECK_EQ(n0, n1);
	CHECK(!memcmp(a, b, n0 * sizeof(a[0])));
	CHECK(p0.n != p1.n || swai_progs_insns(&p0) != swai_progs_insns(&p1));
	swai_progs_free(&p0);
	swai_progs_free(&p1);

	l2.x = 0x123400;
	l2.y.block_rows = 75;
	l2.y.va[1] = 0x900000;
	l2.y.va[2] = 0x980000;
	l2.y.va[3] = 0x9c0000;
	l2.y2.block_rows = 75;
	l2.y2.ld = 40;
	l2.y2.va[0] = 0xa00000;
	l2.y2.va[3] = 0xb00000;
	CHECK_EQ(swk_layernorm(&p0, &l, &c0), 0);
	CHECK_EQ(swk_layernorm(&p1, &l2, &c1), 0);
	n0 = computes(&p0, a, 4096);
	n1 = computes(&p1, b, 4096);
	CHECK(n0 > 2);
	CHECK_EQ(n0, n1);
	CHECK(!memcmp(a, b, n0 * sizeof(a[0])));
	swai_progs_free(&p0);
	swai_progs_free(&p1);
}

static void ln_case(uint32_t rows, uint32_t cols, uint8_t dt, uint64_t ldm, int max_insns,
		    uint32_t ybr, uint32_t y2br, int min_jobs)
{
	unsigned int es = swk_esize(dt);
	uint32_t ldx = cols + 5;
	void *x = rand_array(dt, (size_t)rows * ldx);
	float *gamma = rand_array(SWAI_DT_F32, cols), *beta = rand_array(SWAI_DT_F32, cols);
	void *ref = calloc((size_t)rows * cols, es), *got = calloc((size_t)rows * cols, es);
	void *got2 = calloc((size_t)rows * cols, es);
	struct swk_cfg cfg = { ldm, max_insns, 1 };
	struct swk_ln l = {
		.rows = rows, .cols = cols, .eps = 1e-5f, .dtype = dt, .x = (uintptr_t)x,
		.gamma = (uintptr_t)gamma, .beta = (uintptr_t)beta, .ldx = ldx,
	};
	struct blk yb, y2b = { .n = 0 };
	struct swai_progs ps;

	swk_ref_layernorm(rows, cols, 1e-5f, dt, x, ldx, gamma, beta, ref, cols);
	to_blocks(&l.y, &yb, NULL, rows, cols, ybr, es, -1);
	if (y2br)
		to_blocks(&l.y2, &y2b, NULL, rows, cols, y2br, es, 0);
	swai_progs_init(&ps);
	CHECK_EQ(swk_layernorm(&ps, &l, &cfg), 0);
	CHECK(ps.n >= min_jobs);
	CHECK(!run(&ps, &cfg, NULL));
	from_blocks(got, &yb, rows, cols, ybr, es);
	CHECK(!memcmp(got, ref, (size_t)rows * cols * es));
	if (y2br) {
		memcpy(got2, ref, (size_t)y2br * cols * es);	/* block 0 is not written */
		from_blocks(got2, &y2b, rows, cols, y2br, es);
		CHECK(!memcmp(got2, ref, (size_t)rows * cols * es));
	}
	printf("# layernorm %ux%u: %d jobs, %ld insns\n", rows, cols, ps.n, swai_progs_insns(&ps));
	swai_progs_free(&ps);
	free_blocks(&yb);
	free_blocks(&y2b);
	free(x);
	free(gamma);
	free(beta);
	free(ref);
	free(got);
	free(got2);
}

static void test_layernorm(void)
{
	ln_case(37, 29, SWAI_DT_F32, 8u << 20, 1365, 0, 0, 1);
	ln_case(301, 77, SWAI_DT_BF16, 8192, 20, 0, 0, 2);
	ln_case(301, 77, SWAI_DT_F32, 8192, 1365, 37, 50, 1);
	ln_case(301, 77, SWAI_DT_BF16, 16384, 12, 19, 23, 3);
	ln_case(5, 1000, SWAI_DT_F32, 32768, 1365, 0, 0, 1);
}

static void dropout_case(uint64_t n, uint8_t dt, float keep, uint64_t ldm, int max_insns)
{
	unsigned int es = swk_esize(dt);
	void *x = rand_array(dt, n), *y = calloc(n, es), *ref = calloc(n, es);
	struct swk_cfg cfg = { ldm, max_insns, 0 };
	struct swk_dropout d = {
		.n = n, .dtype = dt, .keep = keep, .seed = 0x1234567890abcdefull, .offset = 12345,
		.x = (uintptr_t)x, .y = (uintptr_t)y,
	};
	struct swai_progs ps;

	swk_ref_dropout(n, dt, keep, d.seed, d.offset, x, ref);
	swai_progs_init(&ps);
	CHECK_EQ(swk_dropout(&ps, &d, &cfg), 0);
	CHECK(!run(&ps, &cfg, NULL));
	CHECK(!memcmp(y, ref, n * es));
	/* In place. */
	d.y = d.x;
	swai_progs_free(&ps);
	CHECK_EQ(swk_dropout(&ps, &d, &cfg), 0);
	CHECK(!run(&ps, &cfg, NULL));
	CHECK(!memcmp(x, ref, n * es));
	printf("# dropout %llu: %d jobs, %ld insns\n", (unsigned long long)n, ps.n,
	       swai_progs_insns(&ps));
	swai_progs_free(&ps);
	free(x);
	free(y);
	free(ref);
}

static void test_dropout(void)
{
	dropout_case(1, SWAI_DT_F32, 0.5f, 8u << 20, 1365);
	dropout_case(100003, SWAI_DT_F32, 0.9f, 8u << 20, 1365);
	dropout_case(100003, SWAI_DT_BF16, 0.3f, 16384, 10);
	dropout_case(3000001, SWAI_DT_BF16, 1.0f, 8u << 20, 1365);
}

static void cvt_case(uint64_t n, uint8_t from, uint8_t to, uint64_t ldm, int max_insns)
{
	void *x = rand_array(from, n), *y = calloc(n, swk_esize(to)), *ref = calloc(n, swk_esize(to));
	struct swk_cfg cfg = { ldm, max_insns, 0 };
	struct swk_cvt c = { .n = n, .from = from, .to = to, .x = (uintptr_t)x, .y = (uintptr_t)y };
	struct swai_progs ps;

	if (from == SWAI_DT_F32 && n > 4) {	/* specials */
		((uint32_t *)x)[0] = 0x7f800001;
		((uint32_t *)x)[1] = 0x3f808000;
		((uint32_t *)x)[2] = 0xff800000;
	}
	swk_ref_cvt(n, from, to, x, ref);
	swai_progs_init(&ps);
	CHECK_EQ(swk_cvt(&ps, &c, &cfg), 0);
	CHECK(!run(&ps, &cfg, NULL));
	CHECK(!memcmp(y, ref, n * swk_esize(to)));
	swai_progs_free(&ps);
	free(x);
	free(y);
	free(ref);
}

static void test_cvt(void)
{
	cvt_case(100003, SWAI_DT_F32, SWAI_DT_BF16, 8u << 20, 1365);
	cvt_case(100003, SWAI_DT_BF16, SWAI_DT_F32, 16384, 9);
	cvt_case(1001, SWAI_DT_F32, SWAI_DT_F32, 4096, 1365);
	cvt_case(7, SWAI_DT_BF16, SWAI_DT_BF16, 4096, 1365);
	{
		struct swk_cvt c = { .n = 10, .from = SWAI_DT_F32, .to = SWAI_DT_BF16, .x = 1, .y = 2 };
		struct swai_progs ps;

		swai_progs_init(&ps);
		CHECK_EQ(swk_cvt(&ps, &c, &(struct swk_cfg){ 2048, 1365, 0 }), -EINVAL);
		CHECK_EQ(ps.n, 0);
	}
}

static void rd_case(uint64_t n, int nsrc, int drop, uint8_t out_dt, uint64_t ldm, int max_insns)
{
	unsigned int es = swk_esize(out_dt);
	float *src[SWK_MAX_BLOCKS], *sum = calloc(n, 4);
	void *y = calloc(n, es), *ref = calloc(n, es);
	struct swk_cfg cfg = { ldm, max_insns, 0 };
	struct swk_reduce_dropout r = {
		.n = n, .nsrc = nsrc, .y = (uintptr_t)y, .keep = 0.8f, .seed = 77, .offset = 5,
		.dropout = drop, .out_dtype = out_dt,
	};
	struct swai_progs ps;

	for (int s = 0; s < nsrc; s++) {
		src[s] = rand_array(SWAI_DT_F32, n);
		r.src[s] = (uintptr_t)src[s];
		for (uint64_t i = 0; i < n; i++)
			sum[i] = s ? sum[i] + src[s][i] : src[s][i];
	}
	if (drop)
		swk_ref_dropout(n, SWAI_DT_F32, 0.8f, 77, 5, sum, sum);
	swk_ref_cvt(n, SWAI_DT_F32, out_dt, sum, ref);
	swai_progs_init(&ps);
	CHECK_EQ(swk_reduce_dropout(&ps, &r, &cfg), 0);
	CHECK(!run(&ps, &cfg, NULL));
	CHECK(!memcmp(y, ref, n * es));
	swai_progs_free(&ps);
	for (int s = 0; s < nsrc; s++)
		free(src[s]);
	free(sum);
	free(y);
	free(ref);
}

static void test_reduce_dropout(void)
{
	rd_case(100003, 4, 1, SWAI_DT_F32, 8u << 20, 1365);
	rd_case(10007, 3, 1, SWAI_DT_BF16, 16384, 20);
	rd_case(10007, 1, 0, SWAI_DT_BF16, 16384, 1365);
	rd_case(513, 2, 0, SWAI_DT_F32, 4096, 6);
}

static void test_errors(void)
{
	struct swai_progs ps;
	struct swk_gemm g = {
		.m = 4, .n = 4, .k = 4, .alpha = 1, .dtype = SWAI_DT_F32,
		.a = { .va = { 0x1000 }, .ld = 4 }, .b = { .va = { 0x2000 }, .ld = 4 },
		.c = { .va = { 0x3000 }, .ld = 4 },
	};
	struct swk_ln l = {
		.rows = 2, .cols = 100000, .eps = 0, .dtype = SWAI_DT_F32, .x = 0x1000, .ldx = 100000,
		.gamma = 0x2000, .beta = 0x3000, .y = { .va = { 0x4000 }, .ld = 100000 },
	};
	struct swk_dropout d = { .n = 10, .dtype = SWAI_DT_F32, .keep = 0, .x = 1, .y = 1 };
	struct swk_cfg bad = { 8u << 20, 1365, 1365 };

	swai_progs_init(&ps);
	g.dtype = SWAI_DT_F16;
	CHECK_EQ(swk_gemm(&ps, &g, &big), -EINVAL);
	g.dtype = SWAI_DT_F32;
	g.a.ld = 3;
	CHECK_EQ(swk_gemm(&ps, &g, &big), -EINVAL);
	g.a.ld = 4;
	g.m = 0;
	CHECK_EQ(swk_gemm(&ps, &g, &big), -EINVAL);
	g.m = 4;
	g.a.block_rows = 0;
	g.c.block_rows = 0;
	g.trans_a = 1;
	g.a_copy.va[0] = 0x5000;
	g.a_copy.ld = 4;
	CHECK_EQ(swk_gemm(&ps, &g, &big), -EINVAL);	/* a_copy needs !trans_a */
	g.trans_a = 0;
	CHECK_EQ(swk_gemm(&ps, &g, &bad), -EINVAL);
	memset(&g.a_copy, 0, sizeof(g.a_copy));
	g.k = 1u << 22;					/* one row of A over the LDM */
	g.a.ld = g.k;
	CHECK_EQ(swk_gemm(&ps, &g, &big), -E2BIG);
	CHECK_EQ(swk_layernorm(&ps, &l, &(struct swk_cfg){ 8u << 20, 1365, 0 }), 0);
	swai_progs_free(&ps);
	l.cols = l.ldx = l.y.ld = 2000000;		/* gamma, beta and a row over the LDM */
	CHECK_EQ(swk_layernorm(&ps, &l, &big), -E2BIG);
	l.eps = NAN;
	CHECK_EQ(swk_layernorm(&ps, &l, &big), -EINVAL);
	l.eps = -1;
	CHECK_EQ(swk_layernorm(&ps, &l, &big), -EINVAL);
	CHECK_EQ(swk_dropout(&ps, &d, &big), -EINVAL);
	d.keep = NAN;
	CHECK_EQ(swk_dropout(&ps, &d, &big), -EINVAL);
	d.keep = 1.5f;
	CHECK_EQ(swk_dropout(&ps, &d, &big), -EINVAL);
	CHECK_EQ(ps.n, 0);
	swai_progs_free(&ps);
}

/* The default geometry: the shapes of the MLP block give few, large transfers. */
static void test_big_shapes(void)
{
	struct swk_gemm g = {
		.m = 2048, .n = 1536, .k = 6144, .alpha = 1, .dtype = SWAI_DT_BF16,
		.a = { .va = { 0x10000000 }, .ld = 6144 }, .b = { .va = { 0x20000000 }, .ld = 1536 },
		.c = { .va = { 0x30000000 }, .ld = 1536 },
	};
	struct swai_progs ps;
	uint64_t minlen = ~0ull;

	swai_progs_init(&ps);
	CHECK_EQ(swk_gemm(&ps, &g, &big), 0);
	for (int j = 0; j < ps.n; j++) {
		CHECK(ps.p[j].n <= big.max_insns);
		for (int i = 0; i < ps.p[j].n; i++) {
			const struct swai_insn *in = &ps.p[j].in[i];

			if (in->op == SWAI_OP_DMA_GET && in->len * (in->rows ? in->rows : 1) < minlen)
				minlen = in->len * (in->rows ? in->rows : 1);
		}
	}
	printf("# gemm 2048x1536x6144 bf16: %d jobs, %ld insns, smallest GET %llu bytes\n", ps.n,
	       swai_progs_insns(&ps), (unsigned long long)minlen);
	CHECK(minlen >= 256 * 1024);
	swai_progs_free(&ps);
}

static const struct tap_test tests[] = {
	{ "philox4x32-10 known answers", test_philox_kat },
	{ "bf16 rounding, NaN, inf", test_bf16 },
	{ "gelu", test_gelu },
	{ "reference layernorm", test_ref_layernorm },
	{ "reference dropout: keep fraction, split invariance", test_ref_dropout },
	{ "gemm programs: transposes, bf16, beta, k-split, jobs, blocks, a_copy", test_gemm_shapes },
	{ "gemm programs: 80 random plans", test_gemm_random },
	{ "same shapes -> same compute instructions", test_same_compute },
	{ "layernorm programs: tiles, jobs, blocks, y2", test_layernorm },
	{ "dropout programs", test_dropout },
	{ "cvt programs", test_cvt },
	{ "reduce+dropout programs", test_reduce_dropout },
	{ "argument errors", test_errors },
	{ "large shapes: transfer sizes", test_big_shapes },
};

TAP_MAIN(tests)
