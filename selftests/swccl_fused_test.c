// SPDX-License-Identifier: GPL-2.0-only
/*
 * swccl_fused_test - swcclLayerNormAllGatherGemm and
 * swcclGemmReduceScatterDropout on the card: fused and unfused give the same
 * bits (f32, bf16, odd shapes), both match the host reference (LayerNorm and
 * the dropout mask exactly, GEMMs within |got - ref| <= 1e-5 sum_k |a||b|
 * sqrt(k) + 1e-6, runtime/kernels/swk_ref.c), every bad argument is refused with a
 * message naming it, the fused calls are faster in modeled time, and
 * swcclCommLastCallInfo / SWCCL_FUSION say which ran.
 */
#include <stdlib.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"
#include "swccl_test.h"
#include "swk.h"

#define EPS 1e-5f
#define KEEP 0.8f
#define SEED 77ULL
#define OFFSET 5ULL

struct shape {
	swcclDataType_t t;
	size_t rows, hidden, n;		/* n: AG ffn, RS k */
};

/* Every rank's buffers of one call (Local-HBM) and their host images. */
struct fcall {
	struct shape s;
	bool rs;
	void *x[NR_MAX], *y[NR_MAX], *w[NR_MAX], *g[NR_MAX], *b[NR_MAX], *out[NR_MAX];
	uint8_t *hx[NR_MAX], *hw[NR_MAX];
	float *hg, *hb;
};

static size_t es(swcclDataType_t t)
{
	return t == swcclBfloat16 ? 2 : 4;
}

static uint8_t dt(swcclDataType_t t)
{
	return t == swcclBfloat16 ? SWAI_DT_BF16 : SWAI_DT_F32;
}

static void rnd(void *p, size_t n, swcclDataType_t t, uint64_t seed, float lo, float hi)
{
	for (size_t i = 0; i < n; i++)
		swk_store(dt(t), p, i, lo + (hi - lo) * (float)((splitmix64(&seed) >> 40) * 0x1p-24));
}

static size_t xbytes(const struct fcall *f, int n)
{
	size_t rows = f->rs ? f->s.rows * (size_t)n : f->s.rows;

	return rows * (f->rs ? f->s.n : f->s.hidden) * es(f->s.t);
}

static size_t wbytes(const struct fcall *f)
{
	return f->s.hidden * f->s.n * es(f->s.t);
}

static size_t outbytes(const struct fcall *f, int n)
{
	return (f->rs ? f->s.rows * f->s.hidden : f->s.rows * (size_t)n * f->s.n) * 4;
}

static size_t ybytes(const struct fcall *f, int n)
{
	return f->s.rows * (size_t)n * f->s.hidden * es(f->s.t);
}

static int fopen_call(struct cctx *x, struct fcall *f, struct shape s, bool rs)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	f->rs = rs;
	f->hg = malloc(s.hidden * 4);
	f->hb = malloc(s.hidden * 4);
	rnd(f->hg, s.hidden, swcclFloat32, 3, 0.5f, 1.5f);
	rnd(f->hb, s.hidden, swcclFloat32, 4, -0.2f, 0.2f);
	for (int r = 0; r < x->n; r++) {
		f->hx[r] = malloc(xbytes(f, x->n));
		f->hw[r] = malloc(wbytes(f));
		rnd(f->hx[r], xbytes(f, x->n) / es(s.t), s.t, 10 + r, -2, 2);
		rnd(f->hw[r], wbytes(f) / es(s.t), s.t, 20 + r, -0.1f, 0.1f);
		f->x[r] = balloc(x, r, PL_LOCAL, xbytes(f, x->n));
		f->w[r] = balloc(x, r, PL_LOCAL, wbytes(f));
		f->out[r] = balloc(x, r, PL_LOCAL, outbytes(f, x->n));
		f->y[r] = rs ? NULL : balloc(x, r, PL_LOCAL, ybytes(f, x->n));
		f->g[r] = balloc(x, r, PL_LOCAL, s.hidden * 4);
		f->b[r] = balloc(x, r, PL_LOCAL, s.hidden * 4);
		if (!f->x[r] || !f->w[r] || !f->out[r] || (!rs && !f->y[r]) || !f->g[r] || !f->b[r])
			return -1;
		if (sdaaMemcpy(f->x[r], f->hx[r], xbytes(f, x->n), sdaaMemcpyHostToDevice) ||
		    sdaaMemcpy(f->w[r], f->hw[r], wbytes(f), sdaaMemcpyHostToDevice) ||
		    sdaaMemcpy(f->g[r], f->hg, s.hidden * 4, sdaaMemcpyHostToDevice) ||
		    sdaaMemcpy(f->b[r], f->hb, s.hidden * 4, sdaaMemcpyHostToDevice))
			return -1;
	}
	return 0;
}

static void fclose_call(struct cctx *x, struct fcall *f)
{
	cctx_sync(x);
	for (int r = 0; r < x->n; r++) {
		sdaaSetDevice(x->dev[r]);
		sdaaFree(f->x[r]);
		sdaaFree(f->w[r]);
		sdaaFree(f->out[r]);
		if (f->y[r])
			sdaaFree(f->y[r]);
		sdaaFree(f->g[r]);
		sdaaFree(f->b[r]);
		free(f->hx[r]);
		free(f->hw[r]);
	}
	free(f->hg);
	free(f->hb);
}

static swcclResult_t issue(struct cctx *x, struct fcall *f, int r, swcclFusion_t fusion)
{
	swcclLnAgGemmArgs ag = { .x = f->x[r], .gathered = f->y[r], .gamma = f->g[r],
		.beta = f->b[r], .eps = EPS, .w = f->w[r], .out = f->out[r],
		.rowsPerRank = f->s.rows, .hidden = f->s.hidden, .ffn = f->s.n, .type = f->s.t,
		.gelu = 1, .fusion = fusion };
	swcclGemmRsDropoutArgs rs = { .a = f->x[r], .w = f->w[r], .out = f->out[r],
		.rowsPerRank = f->s.rows, .k = f->s.n, .hidden = f->s.hidden, .type = f->s.t,
		.keep = KEEP, .seed = SEED, .offset = OFFSET, .fusion = fusion };

	sdaaSetDevice(x->dev[r]);
	return f->rs ? swcclGemmReduceScatterDropout(&rs, x->comm[r], x->st[r]) :
		       swcclLayerNormAllGatherGemm(&ag, x->comm[r], x->st[r]);
}

/* All ranks, one group; 0 or the first failure. */
static swcclResult_t all(struct cctx *x, struct fcall *f, swcclFusion_t fusion)
{
	swcclResult_t res = swcclGroupStart(), r;

	for (int k = 0; k < x->n; k++) {
		r = issue(x, f, k, fusion);
		if (r && !res)
			res = r;
	}
	r = swcclGroupEnd();
	return res ? res : r;
}

/* Rank @r's outputs (gathered, then out) into a new buffer. */
static uint8_t *grab(struct cctx *x, struct fcall *f, int r, size_t *n)
{
	size_t yb = f->rs ? 0 : ybytes(f, x->n), ob = outbytes(f, x->n);
	uint8_t *p = malloc(yb + ob);

	cctx_sync(x);
	sdaaSetDevice(x->dev[r]);
	if (yb && sdaaMemcpy(p, f->y[r], yb, sdaaMemcpyDeviceToHost))
		memset(p, 0, yb);
	if (sdaaMemcpy(p + yb, f->out[r], ob, sdaaMemcpyDeviceToHost))
		memset(p + yb, 0, ob);
	*n = yb + ob;
	return p;
}

/* Host reference of rank @r's outputs in @got: wrong elements. */
static long reference(struct cctx *x, struct fcall *f, int r, const uint8_t *got)
{
	size_t h = f->s.hidden, n = f->s.n, rows = f->s.rows, e = es(f->s.t);
	size_t m = rows * (size_t)x->n, cn = f->rs ? h : n;
	float *c = malloc(m * cn * 4), *tol = malloc(m * cn * 4);
	long bad = 0;

	if (!f->rs) {
		uint8_t *y = malloc(m * h * e);
		const float *out = (const float *)(got + m * h * e);

		for (int j = 0; j < x->n; j++)
			swk_ref_layernorm((uint32_t)rows, (uint32_t)h, EPS, dt(f->s.t), f->hx[j],
					  (uint32_t)h, f->hg, f->hb, y + (size_t)j * rows * h * e,
					  (uint32_t)h);
		bad += memcmp(y, got, m * h * e) != 0;
		swk_ref_gemm(0, 0, (uint32_t)m, (uint32_t)n, (uint32_t)h, 1, y, (uint32_t)h,
			     f->hw[r], (uint32_t)n, 0, c, (uint32_t)n, dt(f->s.t), SWAI_EPI_GELU, tol);
		for (size_t i = 0; i < m * n; i++)
			bad += !(fabsf(out[i] - c[i]) <= tol[i]);
		free(y);
	} else {
		const float *out = (const float *)got;
		float *sum = calloc(rows * h, 4), *st = calloc(rows * h, 4);

		for (int j = 0; j < x->n; j++) {
			swk_ref_gemm(0, 0, (uint32_t)m, (uint32_t)h, (uint32_t)n, 1, f->hx[j],
				     (uint32_t)n, f->hw[j], (uint32_t)h, 0, c, (uint32_t)h,
				     dt(f->s.t), SWAI_EPI_NONE, tol);
			for (size_t i = 0; i < rows * h; i++) {
				sum[i] += c[(size_t)r * rows * h + i];
				st[i] += tol[(size_t)r * rows * h + i] + 1e-6f * fabsf(sum[i]);
			}
		}
		for (size_t i = 0; i < rows * h; i++) {
			uint64_t pos = OFFSET + (uint64_t)r * rows * h + i;

			if (swk_dropout_u(SEED, pos) < KEEP)
				bad += !(fabsf(out[i] - sum[i] / KEEP) <= st[i] / KEEP + 1e-6f);
			else
				bad += out[i] != 0;
		}
		free(sum);
		free(st);
	}
	free(c);
	free(tol);
	return bad;
}

/* Fused vs unfused bitwise and the reference, every rank. */
static void both_ways(struct __test_metadata *_metadata, struct cctx *x, struct shape s, bool rs)
{
	struct fcall f;

	ASSERT_EQ(0, fopen_call(x, &f, s, rs));
	for (int r = 0; r < x->n; r++) {
		struct swcclCallInfo info;
		uint8_t *u, *g;
		size_t n1, n2;

		ASSERT_EQ(swcclSuccess, all(x, &f, swcclFusionOff)) {
			TH_LOG("%s", swcclGetLastError(x->comm[0]));
		}
		ASSERT_EQ(swcclSuccess, swcclCommLastCallInfo(x->comm[r], &info));
		EXPECT_EQ(0, info.fused);
		EXPECT_EQ(swcclAlgoCsc, info.algo);
		u = grab(x, &f, r, &n1);
		ASSERT_EQ(swcclSuccess, all(x, &f, swcclFusionOn)) {
			TH_LOG("%s", swcclGetLastError(x->comm[0]));
		}
		ASSERT_EQ(swcclSuccess, swcclCommLastCallInfo(x->comm[r], &info));
		EXPECT_EQ(1, info.fused);
		EXPECT_EQ(0, info.host_syncs);
		g = grab(x, &f, r, &n2);
		ASSERT_EQ(n1, n2);
		EXPECT_EQ(-1, sdaa_test_diff(u, g, n1)) {
			TH_LOG("%s %s rows %zu hidden %zu n %zu rank %d: fused != unfused",
			       rs ? "RS" : "AG", s.t == swcclBfloat16 ? "bf16" : "f32", s.rows,
			       s.hidden, s.n, r);
		}
		EXPECT_EQ(0, reference(x, &f, r, g));
		free(u);
		free(g);
	}
	fclose_call(x, &f);
}

FIXTURE(fused) {
	struct cctx x;
};

FIXTURE_SETUP(fused)
{
	const char *why = cctx_devices(&self->x);
	struct sdaaTimingParams tp;

	if (why)
		SKIP(return, "%s", why);
	if (sdaaDeviceGetTimingParams(&tp, self->x.dev[0]) || !tp.f32Gflops)
		SKIP(return, "the card has no compute (DRM_SWAI_CAP_COMPUTE)");
	ASSERT_EQ(0, cctx_open(&self->x));
}

FIXTURE_TEARDOWN(fused)
{
	if (self->x.comm[0])
		cctx_close(&self->x);
}

TEST_F_TIMEOUT(fused, allgather_bitwise_and_reference, 600)
{
	both_ways(_metadata, &self->x, (struct shape){ swcclFloat32, 37, 72, 40 }, false);
	both_ways(_metadata, &self->x, (struct shape){ swcclBfloat16, 37, 72, 40 }, false);
	both_ways(_metadata, &self->x, (struct shape){ swcclBfloat16, 64, 520, 33 }, false);
	both_ways(_metadata, &self->x, (struct shape){ swcclFloat32, 1, 3, 1 }, false);
}

TEST_F_TIMEOUT(fused, reducescatter_bitwise_and_reference, 600)
{
	both_ways(_metadata, &self->x, (struct shape){ swcclFloat32, 37, 72, 40 }, true);
	both_ways(_metadata, &self->x, (struct shape){ swcclBfloat16, 21, 96, 200 }, true);
	both_ways(_metadata, &self->x, (struct shape){ swcclFloat32, 1, 5, 3 }, true);
}

/* Modeled time: fused below unfused (one job per rank instead of 3 launches and a host sync). */
TEST_F_TIMEOUT(fused, fused_is_faster, 600)
{
	for (int rs = 0; rs < 2; rs++) {
		struct fcall f;
		sdaaEvent_t a, b[NR_MAX];
		double t[2] = { 0, 0 };

		ASSERT_EQ(0, fopen_call(&self->x, &f,
					(struct shape){ swcclBfloat16, 256, 1024, 256 }, rs));
		sdaaSetDevice(self->x.dev[0]);
		ASSERT_EQ(0, sdaaEventCreate(&a));
		for (int r = 0; r < self->x.n; r++) {
			sdaaSetDevice(self->x.dev[r]);
			ASSERT_EQ(0, sdaaEventCreate(&b[r]));
		}
		for (int k = 0; k < 4; k++) {	/* unfused, fused, twice: the second counts */
			cctx_sync(&self->x);
			sdaaSetDevice(self->x.dev[0]);
			ASSERT_EQ(0, sdaaEventRecord(a, self->x.st[0]));
			ASSERT_EQ(swcclSuccess, all(&self->x, &f, k & 1 ? swcclFusionOn :
						    swcclFusionOff));
			t[k & 1] = 0;
			for (int r = 0; r < self->x.n; r++) {
				float ms;

				sdaaSetDevice(self->x.dev[r]);
				ASSERT_EQ(0, sdaaEventRecord(b[r], self->x.st[r]));
				ASSERT_EQ(0, sdaaEventSynchronize(b[r]));
				ASSERT_EQ(0, sdaaEventElapsedTime(&ms, a, b[r]));
				t[k & 1] = ms * 1e3 > t[k & 1] ? ms * 1e3 : t[k & 1];
			}
		}
		TH_LOG("%s: unfused %.1f us, fused %.1f us", rs ? "GemmReduceScatterDropout" :
		       "LayerNormAllGatherGemm", t[0], t[1]);
		EXPECT_LT(t[1], t[0]);
		for (int r = 0; r < self->x.n; r++)
			sdaaEventDestroy(b[r]);
		sdaaEventDestroy(a);
		fclose_call(&self->x, &f);
	}
}

/*
 * SWCCL_FUSION=0 turns swcclFusionAuto into the unfused sequence.  The
 * variable is read once, at its first use (as NCCL_PARAM): unsetting it
 * later changes nothing, and a call that asks for fusion still gets it.
 */
TEST_F_TIMEOUT(fused, env_turns_fusion_off, 300)
{
	struct fcall f;
	struct swcclCallInfo info;

	ASSERT_EQ(0, fopen_call(&self->x, &f, (struct shape){ swcclFloat32, 8, 16, 8 }, false));
	setenv("SWCCL_FUSION", "0", 1);
	ASSERT_EQ(swcclSuccess, all(&self->x, &f, swcclFusionAuto));
	ASSERT_EQ(swcclSuccess, swcclCommLastCallInfo(self->x.comm[0], &info));
	EXPECT_EQ(0, info.fused);
	unsetenv("SWCCL_FUSION");
	ASSERT_EQ(swcclSuccess, all(&self->x, &f, swcclFusionAuto));
	ASSERT_EQ(swcclSuccess, swcclCommLastCallInfo(self->x.comm[0], &info));
	EXPECT_EQ(0, info.fused);
	ASSERT_EQ(swcclSuccess, all(&self->x, &f, swcclFusionOn));
	ASSERT_EQ(swcclSuccess, swcclCommLastCallInfo(self->x.comm[0], &info));
	EXPECT_EQ(1, info.fused);
	fclose_call(&self->x, &f);
}

/* One rank's bad call fails at once (no rendezvous) with a message naming the argument. */
static void refused(struct __test_metadata *_metadata, struct cctx *x, swcclResult_t want,
		    swcclResult_t got, const char *word)
{
	const char *msg = swcclGetLastError(x->comm[0]);

	EXPECT_EQ(want, got);
	EXPECT_NE(NULL, strstr(msg, word)) {
		TH_LOG("message \"%s\" does not name \"%s\"", msg, word);
	}
}

TEST_F_TIMEOUT(fused, argument_errors, 300)
{
	struct cctx *x = &self->x;
	struct fcall f;
	swcclLnAgGemmArgs ag, a0;
	swcclGemmRsDropoutArgs rs, r0;
	void *other;

	ASSERT_EQ(0, fopen_call(x, &f, (struct shape){ swcclFloat32, 8, 16, 8 }, false));
	a0 = (swcclLnAgGemmArgs){ .x = f.x[0], .gathered = f.y[0], .gamma = f.g[0],
		.beta = f.b[0], .eps = EPS, .w = f.w[0], .out = f.out[0], .rowsPerRank = 8,
		.hidden = 16, .ffn = 8, .type = swcclFloat32 };
	r0 = (swcclGemmRsDropoutArgs){ .a = f.y[0], .w = f.w[0], .out = f.out[0],
		.rowsPerRank = 8, .k = 8, .hidden = 16, .type = swcclFloat32, .keep = 1 };
	sdaaSetDevice(x->dev[0]);
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(NULL, x->comm[0], x->st[0]), "args");
	EXPECT_EQ(swcclInvalidArgument, swcclLayerNormAllGatherGemm(&a0, NULL, x->st[0]));
	ag = a0, ag.type = swcclInt32;
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "type");
	ag = a0, ag.rowsPerRank = 0;
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "rowsPerRank");
	ag = a0, ag.eps = -1;
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "eps");
	ag = a0, ag.eps = NAN;
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "eps");
	ag = a0, ag.gelu = 2;
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "gelu");
	ag = a0, ag.fusion = (swcclFusion_t)7;
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "fusion");
	ag = a0, ag.gamma = NULL;
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "gamma");
	ag = a0, ag.x = f.x[1];		/* another core group's Local-HBM */
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "x ");
	ag = a0, ag.out = (float *)f.y[0];	/* outputs overlap */
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "overlaps");
	ag = a0, ag.w = (char *)f.w[0] + 2;	/* misaligned f32 */
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "aligned");
	ag = a0, ag.hidden = 1ULL << 40;
	refused(_metadata, x, swcclInvalidArgument,
		swcclLayerNormAllGatherGemm(&ag, x->comm[0], x->st[0]), "hidden");
	refused(_metadata, x, swcclInvalidArgument,
		swcclGemmReduceScatterDropout(NULL, x->comm[0], x->st[0]), "args");
	rs = r0, rs.keep = 0;
	refused(_metadata, x, swcclInvalidArgument,
		swcclGemmReduceScatterDropout(&rs, x->comm[0], x->st[0]), "keep");
	rs = r0, rs.keep = 1.5f;
	refused(_metadata, x, swcclInvalidArgument,
		swcclGemmReduceScatterDropout(&rs, x->comm[0], x->st[0]), "keep");
	rs = r0, rs.keep = NAN;
	refused(_metadata, x, swcclInvalidArgument,
		swcclGemmReduceScatterDropout(&rs, x->comm[0], x->st[0]), "keep");
	rs = r0, rs.k = 0;
	refused(_metadata, x, swcclInvalidArgument,
		swcclGemmReduceScatterDropout(&rs, x->comm[0], x->st[0]), "k 0");
	rs = r0, rs.type = swcclFloat16;
	refused(_metadata, x, swcclInvalidArgument,
		swcclGemmReduceScatterDropout(&rs, x->comm[0], x->st[0]), "type");
	/* host memory that is not libsdaa's */
	other = malloc(4096);
	rs = r0, rs.w = other;
	refused(_metadata, x, swcclInvalidArgument,
		swcclGemmReduceScatterDropout(&rs, x->comm[0], x->st[0]), "not memory of libsdaa");
	free(other);
	/* ranks that disagree on the shape: all fail, nothing hangs */
	{
		swcclResult_t res = swcclGroupStart();

		for (int r = 0; r < x->n; r++) {
			swcclLnAgGemmArgs a = { .x = f.x[r], .gathered = f.y[r], .gamma = f.g[r],
				.beta = f.b[r], .eps = EPS, .w = f.w[r], .out = f.out[r],
				.rowsPerRank = r ? 8 : 4, .hidden = 16, .ffn = 8,
				.type = swcclFloat32 };

			sdaaSetDevice(x->dev[r]);
			swcclLayerNormAllGatherGemm(&a, x->comm[r], x->st[r]);
		}
		res = swcclGroupEnd();
		EXPECT_EQ(swcclInvalidUsage, res);
	}
	/* and the comm still works */
	EXPECT_EQ(swcclSuccess, all(x, &f, swcclFusionOn));
	fclose_call(x, &f);
}

TEST_HARNESS_MAIN
