// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_kernels_test - the compute kernels on the card (sdaaGemm,
 * sdaaLayerNorm, sdaaDropout, sdaaConvert) against the host reference of
 * runtime/kernels/swk_ref.c: LayerNorm, Dropout and Convert bit for bit, GEMM
 * within the stated tolerance
 *   |C - ref| <= 1e-5 |alpha| sum_k |a||b| sqrt(k) + 1e-6 (1 + |beta c|)
 * (x 1.2 with GELU), for f32 and bf16, all transposes, odd shapes; dropout
 * statistics and split invariance; a GEMM built for many small jobs (the
 * emitters with a short job limit, through sdaaLaunchProgram); the modeled
 * time of a large GEMM against FLOPs / peak; argument errors; stream and
 * event order.  Skips when the card has no DRM_SWAI_CAP_COMPUTE.
 */
#include <math.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"
#include "swk.h"

static int has_compute(void)
{
	struct sdaaDeviceProp p;

	return sdaaGetDeviceProperties(&p, 0) == sdaaSuccess &&
	       (p.capabilities & DRM_SWAI_CAP_COMPUTE);
}

#define NEED_COMPUTE() do {						\
	NEED_SUBMIT();							\
	if (!has_compute())						\
		SKIP(return, "the card has no compute kernels (no DRM_SWAI_CAP_COMPUTE)"); \
} while (0)

/* Device memory: Local-HBM if the split has any, else Global-HBM. */
struct dbuf { void *p; int cross; };

static void *dalloc(struct dbuf *b, size_t n)
{
	b->cross = 0;
	if (sdaaMalloc(&b->p, n) == sdaaSuccess)
		return b->p;
	sdaaGetLastError();
	b->cross = 1;
	if (sdaaMallocCross(&b->p, n) == sdaaSuccess)
		return b->p;
	b->p = NULL;
	return NULL;
}

static void dfree(struct dbuf *b)
{
	if (b->p)
		b->cross ? sdaaFreeCross(b->p) : sdaaFree(b->p);
	b->p = NULL;
}

static uint64_t rng = 7;

static float frand(void)
{
	return (float)((double)(splitmix64(&rng) >> 11) * 0x1p-53 * 2.0 - 1.0);
}

static void *rand_array(uint8_t dt, size_t n)
{
	void *p = malloc(n * 4 + 4);

	for (size_t i = 0; p && i < n; i++)
		swk_store(dt, p, i, frand());
	return p;
}

static uint8_t dt_of(sdaaDataType_t t)
{
	return t == SDAA_R_16BF ? SWAI_DT_BF16 : SWAI_DT_F32;
}

/* Upload @n bytes of @h to a new device buffer. */
static void *upload(struct dbuf *b, const void *h, size_t n)
{
	if (!dalloc(b, n))
		return NULL;
	if (sdaaMemcpy(b->p, h, n, sdaaMemcpyDefault)) {
		dfree(b);
		return NULL;
	}
	return b->p;
}

TEST_F_TIMEOUT(card, layernorm_bit_exact, 300)
{
	static const struct { int rows, cols; } shapes[] = {
		{ 1, 1 }, { 37, 129 }, { 300, 1024 }, { 3, 20000 },
	};
	const sdaaDataType_t types[] = { SDAA_R_32F, SDAA_R_16BF };

	NEED_COMPUTE();
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		for (int t = 0; t < 2; t++) {
			int rows = shapes[s].rows, cols = shapes[s].cols;
			uint8_t dt = dt_of(types[t]);
			size_t n = (size_t)rows * cols, es = swk_esize(dt);
			void *x = rand_array(dt, n), *ref = malloc(n * es), *got = malloc(n * es);
			float *g = rand_array(SWAI_DT_F32, cols), *b = rand_array(SWAI_DT_F32, cols);
			struct dbuf dx, dy, dg, db;
			long bad;

			ASSERT_NE(NULL, upload(&dx, x, n * es));
			ASSERT_NE(NULL, dalloc(&dy, n * es));
			ASSERT_NE(NULL, upload(&dg, g, cols * 4));
			ASSERT_NE(NULL, upload(&db, b, cols * 4));
			swk_ref_layernorm(rows, cols, 1e-5f, dt, x, cols, g, b, ref, cols);
			ASSERT_EQ(sdaaSuccess, sdaaLayerNorm(dy.p, dx.p, dg.p, db.p, rows, cols,
							     1e-5f, types[t], NULL));
			ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, dy.p, n * es, sdaaMemcpyDefault));
			bad = sdaa_test_diff(got, ref, n * es);
			if (bad != -1)
				TH_LOG("LN %dx%d type %d: byte %ld differs", rows, cols, t, bad);
			EXPECT_EQ(-1, bad);
			/* In place. */
			ASSERT_EQ(sdaaSuccess, sdaaLayerNorm(dx.p, dx.p, dg.p, db.p, rows, cols,
							     1e-5f, types[t], NULL));
			ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, dx.p, n * es, sdaaMemcpyDefault));
			EXPECT_EQ(-1, sdaa_test_diff(got, ref, n * es));
			dfree(&dx);
			dfree(&dy);
			dfree(&dg);
			dfree(&db);
			free(x);
			free(ref);
			free(got);
			free(g);
			free(b);
		}
	}
}

TEST_F_TIMEOUT(card, dropout_bit_exact_split_and_stats, 300)
{
	const size_t n = 300007;
	const sdaaDataType_t types[] = { SDAA_R_32F, SDAA_R_16BF };

	NEED_COMPUTE();
	for (int t = 0; t < 2; t++) {
		uint8_t dt = dt_of(types[t]);
		size_t es = swk_esize(dt), kept = 0, cut = 100003;
		void *x = rand_array(dt, n), *ref = malloc(n * es), *got = malloc(n * es);
		const unsigned long long seed = 0x0123456789abcdefull, off = 1000;
		const float keep = 0.9f;
		struct dbuf dx, dy;
		char *y;

		ASSERT_NE(NULL, upload(&dx, x, n * es));
		ASSERT_NE(NULL, dalloc(&dy, n * es));
		y = dy.p;
		swk_ref_dropout(n, dt, keep, seed, off, x, ref);
		ASSERT_EQ(sdaaSuccess, sdaaDropout(y, dx.p, n, keep, seed, off, types[t], NULL));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, y, n * es, sdaaMemcpyDefault));
		EXPECT_EQ(-1, sdaa_test_diff(got, ref, n * es));
		for (size_t i = 0; i < n; i++)
			kept += swk_load(dt, got, i) != 0.0f || swk_load(dt, x, i) == 0.0f;
		/* 0.9 +- 5 sigma, sigma = sqrt(0.09 / n) = 0.00055. */
		EXPECT_LT(fabs((double)kept / n - keep), 0.0028);
		/* Two calls with offsets == one call. */
		ASSERT_EQ(sdaaSuccess, sdaaMemset(y, 0, n * es));
		ASSERT_EQ(sdaaSuccess, sdaaDropout(y, dx.p, cut, keep, seed, off, types[t], NULL));
		ASSERT_EQ(sdaaSuccess, sdaaDropout(y + cut * es, (char *)dx.p + cut * es, n - cut,
						   keep, seed, off + cut, types[t], NULL));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, y, n * es, sdaaMemcpyDefault));
		EXPECT_EQ(-1, sdaa_test_diff(got, ref, n * es));
		/* In place, keep 1: the identity. */
		ASSERT_EQ(sdaaSuccess, sdaaDropout(dx.p, dx.p, n, 1.0f, seed, 0, types[t], NULL));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, dx.p, n * es, sdaaMemcpyDefault));
		EXPECT_EQ(-1, sdaa_test_diff(got, x, n * es));
		dfree(&dx);
		dfree(&dy);
		free(x);
		free(ref);
		free(got);
	}
}

TEST_F_TIMEOUT(card, convert_bit_exact, 120)
{
	const size_t n = 300007;
	uint32_t *x = rand_array(SWAI_DT_F32, n);
	uint16_t *h = malloc(n * 2), *href = malloc(n * 2);
	float *f = malloc(n * 4), *fref = malloc(n * 4);
	static const uint32_t special[] = {
		0x7f800001, 0x7fc00000, 0xffffffff, 0x7f800000, 0xff800000, 0x3f808000,
		0x3f818000, 0xbf818000, 0x7f7fffff, 0x00000001, 0x80000000, 0x3f807fff,
	};
	struct dbuf dx, dh, df;

	NEED_COMPUTE();
	memcpy(x, special, sizeof(special));
	ASSERT_NE(NULL, upload(&dx, x, n * 4));
	ASSERT_NE(NULL, dalloc(&dh, n * 2));
	ASSERT_NE(NULL, dalloc(&df, n * 4));
	swk_ref_cvt(n, SWAI_DT_F32, SWAI_DT_BF16, x, href);
	swk_ref_cvt(n, SWAI_DT_BF16, SWAI_DT_F32, href, fref);
	ASSERT_EQ(sdaaSuccess, sdaaConvert(dh.p, SDAA_R_16BF, dx.p, SDAA_R_32F, n, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaConvert(df.p, SDAA_R_32F, dh.p, SDAA_R_16BF, n, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(h, dh.p, n * 2, sdaaMemcpyDefault));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(f, df.p, n * 4, sdaaMemcpyDefault));
	for (size_t i = 0; i < sizeof(special) / 4; i++)
		if (h[i] != href[i])
			TH_LOG("f32 0x%08x -> bf16 0x%04x, expected 0x%04x", special[i], h[i],
			       href[i]);
	EXPECT_EQ(-1, sdaa_test_diff(h, href, n * 2));
	EXPECT_EQ(-1, sdaa_test_diff(f, fref, n * 4));
	/* Same type: a copy, in place allowed. */
	ASSERT_EQ(sdaaSuccess, sdaaConvert(dx.p, SDAA_R_32F, dx.p, SDAA_R_32F, n, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(f, dx.p, n * 4, sdaaMemcpyDefault));
	EXPECT_EQ(-1, sdaa_test_diff(f, x, n * 4));
	dfree(&dx);
	dfree(&dh);
	dfree(&df);
	free(x);
	free(h);
	free(href);
	free(f);
	free(fref);
}

/*
 * C = alpha op(A) op(B) + beta C on the card vs the double reference, on
 * every element or (@sample) on 300 of them.
 */
static int gemm_check(struct __test_metadata *_metadata, int ta, int tb, int m, int n, int k,
		      float alpha, float beta, sdaaDataType_t type, int gelu, int sample)
{
	uint8_t dt = dt_of(type);
	size_t es = swk_esize(dt);
	int lda = (ta ? m : k) + 3, ldb = (tb ? k : n) + 1, ldc = n + 2;
	size_t asz = (size_t)(ta ? k : m) * lda, bsz = (size_t)(tb ? n : k) * ldb;
	size_t csz = (size_t)m * ldc;
	void *a = rand_array(dt, asz), *b = rand_array(dt, bsz);
	float *c = rand_array(SWAI_DT_F32, csz), *got = malloc(csz * 4);
	struct dbuf da, db, dc;
	int bad = 0;

	if (!upload(&da, a, asz * es) || !upload(&db, b, bsz * es) || !upload(&dc, c, csz * 4))
		return -1;
	if (sdaaGemm(ta ? SDAA_OP_T : SDAA_OP_N, tb ? SDAA_OP_T : SDAA_OP_N, m, n, k, alpha,
		     da.p, lda, db.p, ldb, beta, dc.p, ldc, type,
		     gelu ? SDAA_EPILOGUE_GELU : SDAA_EPILOGUE_DEFAULT, NULL) ||
	    sdaaMemcpy(got, dc.p, csz * 4, sdaaMemcpyDefault))
		return -1;
	for (int s = 0; s < (sample ? 300 : m * n); s++) {
		int i = sample ? (int)(splitmix64(&rng) % m) : s / n;
		int j = sample ? (int)(splitmix64(&rng) % n) : s % n;
		float ref = c[(size_t)i * ldc + j], tol;
		const char *ap = (const char *)a, *bp = (const char *)b;

		/* One element: a 1 x 1 GEMM over row i of op(A) and column j of op(B). */
		if (ta)
			ap += (size_t)i * es;
		else
			ap += (size_t)i * lda * es;
		if (tb)
			bp += (size_t)j * ldb * es;
		else
			bp += (size_t)j * es;
		swk_ref_gemm(ta, tb, 1, 1, k, alpha, ap, lda, bp, ldb, beta, &ref, 1, dt,
			     gelu ? SWAI_EPI_GELU : SWAI_EPI_NONE, &tol);
		if (!(fabsf(got[(size_t)i * ldc + j] - ref) <= tol) && bad++ < 3)
			TH_LOG("gemm %c%c %dx%dx%d: C[%d][%d] = %.9g, ref %.9g, tol %.3g",
			       ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, i, j,
			       got[(size_t)i * ldc + j], ref, tol);
	}
	dfree(&da);
	dfree(&db);
	dfree(&dc);
	free(a);
	free(b);
	free(c);
	free(got);
	return bad;
}

TEST_F_TIMEOUT(card, gemm_transposes_types_epilogue, 600)
{
	NEED_COMPUTE();
	for (int ta = 0; ta < 2; ta++)
		for (int tb = 0; tb < 2; tb++)
			for (int t = 0; t < 2; t++) {
				sdaaDataType_t type = t ? SDAA_R_16BF : SDAA_R_32F;

				EXPECT_EQ(0, gemm_check(_metadata, ta, tb, 67, 45, 129, 1.5f,
							0.5f, type, (ta + tb + t) & 1, 0));
				EXPECT_EQ(0, gemm_check(_metadata, ta, tb, 1, 1, 1, 1.0f, 0.0f,
							type, 0, 0));
			}
	/* Streamed B with a k-split (B does not fit half of the LDM). */
	EXPECT_EQ(0, gemm_check(_metadata, 0, 0, 130, 300, 9000, 1.0f, 0.0f, SDAA_R_32F, 1, 1));
	EXPECT_EQ(0, gemm_check(_metadata, 1, 1, 200, 1500, 2000, -0.5f, 2.0f, SDAA_R_16BF, 0,
				1));
}

/* The emitters with a short job limit: many jobs, k-blocks cut between jobs. */
TEST_F_TIMEOUT(card, gemm_many_jobs, 300)
{
	const int m = 150, n = 700, k = 3000;
	struct sdaaKernelLimits lim;
	struct swk_cfg cfg;
	size_t asz = (size_t)m * k, bsz = (size_t)k * n, csz = (size_t)m * n;
	float *a = rand_array(SWAI_DT_F32, asz), *b = rand_array(SWAI_DT_F32, bsz);
	float *got = malloc(csz * 4);
	struct dbuf da, db, dc;
	struct swai_progs ps;
	struct swk_gemm g = {
		.m = m, .n = n, .k = k, .alpha = 1, .beta = 0, .dtype = SWAI_DT_F32,
		.epilogue = SWAI_EPI_GELU,
	};
	int bad = 0;

	NEED_COMPUTE();
	ASSERT_EQ(sdaaSuccess, sdaaDeviceGetKernelLimits(&lim, 0));
	EXPECT_EQ(SWAI_PROGRAM_MAX_BYTES / 48, lim.maxInsns);
	ASSERT_NE(NULL, upload(&da, a, asz * 4));
	ASSERT_NE(NULL, upload(&db, b, bsz * 4));
	ASSERT_NE(NULL, dalloc(&dc, csz * 4));
	g.a = (struct swk_mat){ .va = { va_of(da.p) }, .ld = k };
	g.b = (struct swk_mat){ .va = { va_of(db.p) }, .ld = n };
	g.c = (struct swk_mat){ .va = { va_of(dc.p) }, .ld = n };
	/* A quarter of the LDM and 12 instructions per job. */
	cfg = (struct swk_cfg){ lim.ldmBytes / 4, 12, 0 };
	swai_progs_init(&ps);
	ASSERT_EQ(0, swk_gemm(&ps, &g, &cfg));
	TH_LOG("%d jobs, %ld instructions", ps.n, swai_progs_insns(&ps));
	EXPECT_LT(10, ps.n);
	for (int j = 0; j < ps.n; j++)
		ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(ps.p[j].in, ps.p[j].n, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, dc.p, csz * 4, sdaaMemcpyDefault));
	for (int s = 0; s < 300; s++) {
		int i = (int)(splitmix64(&rng) % m), j = (int)(splitmix64(&rng) % n);
		float ref, tol;

		swk_ref_gemm(0, 0, 1, 1, k, 1, a + (size_t)i * k, k, b + j, n, 0, &ref, 1,
			     SWAI_DT_F32, SWAI_EPI_GELU, &tol);
		if (!(fabsf(got[(size_t)i * n + j] - ref) <= tol) && bad++ < 3)
			TH_LOG("C[%d][%d] = %.9g, ref %.9g", i, j, got[(size_t)i * n + j], ref);
	}
	EXPECT_EQ(0, bad);
	swai_progs_free(&ps);
	dfree(&da);
	dfree(&db);
	dfree(&dc);
	free(a);
	free(b);
	free(got);
}

/* Modeled time of a compute-bound GEMM: about FLOPs / peak. */
TEST_F_TIMEOUT(card, gemm_modeled_time, 300)
{
	const int m = 1024, n = 1024, k = 1024;
	const sdaaDataType_t types[] = { SDAA_R_32F, SDAA_R_16BF };
	struct sdaaTimingParams tp;
	struct dbuf da, db, dc;
	sdaaStream_t s;
	sdaaEvent_t e0, e1;

	NEED_COMPUTE();
	ASSERT_EQ(sdaaSuccess, sdaaDeviceGetTimingParams(&tp, 0));
	ASSERT_LT(0, tp.f32Gflops);
	ASSERT_LT(0, tp.bf16Gflops);
	ASSERT_NE(NULL, dalloc(&da, (size_t)m * k * 4));
	ASSERT_NE(NULL, dalloc(&db, (size_t)k * n * 4));
	ASSERT_NE(NULL, dalloc(&dc, (size_t)m * n * 4));
	ASSERT_EQ(sdaaSuccess, sdaaMemset(da.p, 0, (size_t)m * k * 4));
	ASSERT_EQ(sdaaSuccess, sdaaMemset(db.p, 0, (size_t)k * n * 4));
	ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&s));
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&e0));
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&e1));
	for (int t = 0; t < 2; t++) {
		double peak = t ? tp.bf16Gflops : tp.f32Gflops;
		double want = 2.0 * m * n * k / (peak * 1e6);	/* ms */
		float ms;

		ASSERT_EQ(sdaaSuccess, sdaaEventRecord(e0, s));
		ASSERT_EQ(sdaaSuccess, sdaaGemm(SDAA_OP_N, SDAA_OP_N, m, n, k, 1, da.p, k, db.p, n,
						0, dc.p, n, types[t], SDAA_EPILOGUE_DEFAULT, s));
		ASSERT_EQ(sdaaSuccess, sdaaEventRecord(e1, s));
		ASSERT_EQ(sdaaSuccess, sdaaEventSynchronize(e1));
		ASSERT_EQ(sdaaSuccess, sdaaEventElapsedTime(&ms, e0, e1));
		TH_LOG("%s %dx%dx%d: %.4f ms modeled, FLOPs/peak %.4f ms (%.0f%% of peak)",
		       t ? "bf16" : "f32", m, n, k, ms, want, 100.0 * want / ms);
		EXPECT_GE(ms, want * 0.999);
		EXPECT_LE(ms, want * 1.3 + tp.launchNs * 1e-6);
	}
	sdaaEventDestroy(e0);
	sdaaEventDestroy(e1);
	sdaaStreamDestroy(s);
	dfree(&da);
	dfree(&db);
	dfree(&dc);
}

TEST_F(card, argument_errors)
{
	struct dbuf d;
	char *p;

	NEED_COMPUTE();
	ASSERT_NE(NULL, dalloc(&d, 64 * KIB));
	p = d.p;
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaGemm(SDAA_OP_N, SDAA_OP_N, 4, 4, 0, 1, p, 4,
						  p + 1024, 4, 0, (float *)(p + 2048), 4,
						  SDAA_R_32F, SDAA_EPILOGUE_DEFAULT, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaGemm(SDAA_OP_N, SDAA_OP_T, 4, 4, 8, 1, p, 8,
						  p + 1024, 4, 0, (float *)(p + 2048), 4,
						  SDAA_R_32F, SDAA_EPILOGUE_DEFAULT, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaLayerNorm(p, p, (float *)p, (float *)p, 4, -1,
						       1e-5f, SDAA_R_32F, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaLayerNorm(p, p + 2, (float *)(p + 4096),
						       (float *)(p + 8192), 4, 8, 1e-5f,
						       SDAA_R_16BF, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaDropout(p, p, 100, 0.0f, 1, 0, SDAA_R_32F, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaDropout(p, p, 100, 2.0f, 1, 0, SDAA_R_32F, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaConvert(p, SDAA_R_16BF, p, SDAA_R_32F, 100, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaConvert(p, (sdaaDataType_t)5, p + 4096, SDAA_R_32F,
						     100, NULL));
	/* A row too long for the LDM (gamma, beta and two rows of x). */
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaLayerNorm(p, p, (float *)p, (float *)p, 1,
						       1 << 22, 1e-5f, SDAA_R_32F, NULL));
	/* Argument errors are not sticky: the device still works. */
	EXPECT_EQ(sdaaSuccess, sdaaDropout(p, p, 100, 0.5f, 1, 0, SDAA_R_32F, NULL));
	EXPECT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	sdaaGetLastError();
	dfree(&d);
}

/* LayerNorm -> GEMM -> Dropout -> Convert on one stream without host waits; an event after. */
TEST_F_TIMEOUT(card, stream_and_event_order, 300)
{
	const int rows = 64, cols = 96, n = 80;
	float *x = rand_array(SWAI_DT_F32, (size_t)rows * cols), *w = rand_array(SWAI_DT_F32,
									    (size_t)cols * n);
	float *g = rand_array(SWAI_DT_F32, cols), *b = rand_array(SWAI_DT_F32, cols);
	float *y = malloc((size_t)rows * cols * 4), *c = malloc((size_t)rows * n * 4);
	uint16_t *h = malloc((size_t)rows * n * 2), *href = malloc((size_t)rows * n * 2);
	struct dbuf dx, dw, dg, db, dc, dh;
	sdaaStream_t s;
	sdaaEvent_t e;
	int bad = 0;

	NEED_COMPUTE();
	ASSERT_NE(NULL, upload(&dx, x, (size_t)rows * cols * 4));
	ASSERT_NE(NULL, upload(&dw, w, (size_t)cols * n * 4));
	ASSERT_NE(NULL, upload(&dg, g, cols * 4));
	ASSERT_NE(NULL, upload(&db, b, cols * 4));
	ASSERT_NE(NULL, dalloc(&dc, (size_t)rows * n * 4));
	ASSERT_NE(NULL, dalloc(&dh, (size_t)rows * n * 2));
	ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&s));
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&e));
	ASSERT_EQ(sdaaSuccess, sdaaLayerNorm(dx.p, dx.p, dg.p, db.p, rows, cols, 1e-5f,
					     SDAA_R_32F, s));
	ASSERT_EQ(sdaaSuccess, sdaaGemm(SDAA_OP_N, SDAA_OP_N, rows, n, cols, 1, dx.p, cols, dw.p,
					n, 0, dc.p, n, SDAA_R_32F, SDAA_EPILOGUE_GELU, s));
	ASSERT_EQ(sdaaSuccess, sdaaDropout(dc.p, dc.p, (size_t)rows * n, 0.8f, 99, 0,
					   SDAA_R_32F, s));
	ASSERT_EQ(sdaaSuccess, sdaaConvert(dh.p, SDAA_R_16BF, dc.p, SDAA_R_32F,
					   (size_t)rows * n, s));
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(e, s));
	ASSERT_EQ(sdaaSuccess, sdaaEventSynchronize(e));
	ASSERT_EQ(sdaaSuccess, sdaaEventQuery(e));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(h, dh.p, (size_t)rows * n * 2, sdaaMemcpyDefault));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(c, dc.p, (size_t)rows * n * 4, sdaaMemcpyDefault));
	/* The chain on the host: LN exact, the GEMM within tolerance; then the
	 * card's C gives exact dropout-free checks of the conversion.
	 */
	swk_ref_layernorm(rows, cols, 1e-5f, SWAI_DT_F32, x, cols, g, b, y, cols);
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < n; j++) {
			float ref, tol, v = c[(size_t)i * n + j];
			float u = swk_dropout_u(99, (uint64_t)i * n + j);

			swk_ref_gemm(0, 0, 1, 1, cols, 1, y + (size_t)i * cols, cols, w + j, n, 0,
				     &ref, 1, SWAI_DT_F32, SWAI_EPI_GELU, &tol);
			ref = u < 0.8f ? ref * (1.0f / 0.8f) : 0.0f;
			if (!(fabsf(v - ref) <= tol * 1.25f + 1e-6f) && bad++ < 3)
				TH_LOG("C[%d][%d] = %.9g, ref %.9g", i, j, v, ref);
		}
	EXPECT_EQ(0, bad);
	swk_ref_cvt((size_t)rows * n, SWAI_DT_F32, SWAI_DT_BF16, c, href);
	EXPECT_EQ(-1, sdaa_test_diff(h, href, (size_t)rows * n * 2));
	sdaaEventDestroy(e);
	sdaaStreamDestroy(s);
	dfree(&dx);
	dfree(&dw);
	dfree(&dg);
	dfree(&db);
	dfree(&dc);
	dfree(&dh);
	free(x);
	free(w);
	free(g);
	free(b);
	free(y);
	free(c);
	free(h);
	free(href);
}

TEST_HARNESS_MAIN
