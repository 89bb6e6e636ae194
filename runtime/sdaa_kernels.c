// SPDX-License-Identifier: MIT
/*
 * sdaa_kernels.c - the compute kernels (sdaaGemm, sdaaLayerNorm,
 * sdaaDropout, sdaaConvert) and the job geometry other libraries build
 * their own kernels for (sdaaDeviceGetKernelLimits).
 *
 * Each call checks its arguments, has runtime/kernels/ build the programs (one per
 * job: tiles double-buffered through the LDM) for the stream's core group,
 * and submits them in stream order, each job after the one before.  The
 * addresses are the card's to check, as with sdaaLaunchProgram.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "sdaa_exec.h"
#include "swk.h"

static sdaaError_t bad(const char *fn, const char *why)
{
	sdaa_log(SDAA_LOG_INFO, SDAA_SUB_KERNEL, "%s: %s", fn, why);
	return sdaa_error(sdaaErrorInvalidValue);
}

static uint8_t dtype_of(sdaaDataType_t t)
{
	return t == SDAA_R_32F ? SWAI_DT_F32 : t == SDAA_R_16BF ? SWAI_DT_BF16 : 0xff;
}

static bool overlap(const void *a, size_t na, const void *b, size_t nb)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

	return x < y + nb && y < x + na;
}

static sdaaError_t queue_limits(struct sdaa_queue *q, struct swk_cfg *cfg)
{
	const struct drm_swai_query_device *d = &q->xc->card->q;

	if (!(d->capabilities & DRM_SWAI_CAP_COMPUTE))
		return sdaaErrorNotSupported;
	cfg->ldm_bytes = (uint64_t)d->cpes_per_cg * d->ldm_size;
	cfg->max_insns = SWAI_PROGRAM_MAX_BYTES / (int)sizeof(struct swai_insn);
	cfg->reserve = 0;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaDeviceGetKernelLimits(struct sdaaKernelLimits *lim, int device)
{
	struct sdaa_queue *q;
	struct swk_cfg cfg;
	sdaaError_t err;

	if (!lim)
		return sdaa_error(sdaaErrorInvalidValue);
	err = sdaa_device_valid(device);
	if (!err)
		err = sdaa_device_queue(device, &q);
	if (!err)
		err = queue_limits(q, &cfg);
	if (err)
		return sdaa_error(err);
	lim->ldmBytes = cfg.ldm_bytes;
	lim->maxInsns = cfg.max_insns;
	return sdaaSuccess;
}

/* What a kernel needs from the caller: its emitter and its arguments. */
struct kernel {
	const char *fn;
	int (*emit)(struct swai_progs *out, const void *args, const struct swk_cfg *cfg);
	const void *args;
};

static sdaaError_t submit_all(struct sdaa_stream *s, const struct swai_progs *ps)
{
	struct sdaa_front deps = s->front;
	sdaaError_t err = sdaaSuccess;

	for (int i = 0; i < ps->n && !err; i++) {
		struct sdaa_fence f;

		err = sdaa_submit(s->q, ps->p[i].in, (size_t)ps->p[i].n, &deps, &f);
		if (err)
			break;
		/* The next job, and the stream's later work, come after this one. */
		sdaa_front_set(&deps, s->q->xc->index, s->q->cg, f);
		sdaa_front_set(&s->front, s->q->xc->index, s->q->cg, f);
	}
	return err;
}

static sdaaError_t run(const struct kernel *k, sdaaStream_t stream)
{
	struct sdaa_stream *s;
	struct swai_progs ps;
	struct swk_cfg cfg;
	sdaaError_t err;
	int ret;

	err = sdaa_stream_begin(stream, &s);
	if (err)
		return sdaa_error(err);
	err = queue_limits(s->q, &cfg);
	if (err) {
		sdaa_log(SDAA_LOG_INFO, SDAA_SUB_KERNEL,
			 "%s: card %d has no compute kernels (DRM_SWAI_CAP_COMPUTE)", k->fn,
			 s->q->xc->card->minor);
		goto out;
	}
	swai_progs_init(&ps);
	ret = k->emit(&ps, k->args, &cfg);
	if (ret == -ENOMEM) {
		err = sdaaErrorMemoryAllocation;
	} else if (ret) {
		sdaa_log(SDAA_LOG_INFO, SDAA_SUB_KERNEL, "%s: %s", k->fn, ret == -E2BIG ?
			 "a single row or tile does not fit the core group's LDM" :
			 "arguments refused by the kernel builder");
		err = sdaaErrorInvalidValue;
	} else {
		sdaa_log(SDAA_LOG_DEBUG, SDAA_SUB_KERNEL, "%s: %d jobs, %ld instructions", k->fn, ps.n,
			 swai_progs_insns(&ps));
		err = submit_all(s, &ps);
	}
	swai_progs_free(&ps);
out:
	sdaa_stream_end(s);
	return sdaa_error(err);
}

/* --- GEMM -------------------------------------------------------------------------- */

static int emit_gemm(struct swai_progs *out, const void *args, const struct swk_cfg *cfg)
{
	return swk_gemm(out, args, cfg);
}

SDAA_API sdaaError_t sdaaGemm(sdaaOperation_t transA, sdaaOperation_t transB, int m, int n,
			      int k, float alpha, const void *A, int lda, const void *B, int ldb,
			      float beta, float *C, int ldc, sdaaDataType_t type,
			      sdaaEpilogue_t epilogue, sdaaStream_t stream)
{
	uint8_t dt = dtype_of(type);
	struct swk_gemm g = {
		.trans_a = transA == SDAA_OP_T, .trans_b = transB == SDAA_OP_T,
		.alpha = alpha, .beta = beta, .dtype = dt,
		.epilogue = epilogue == SDAA_EPILOGUE_GELU ? SWAI_EPI_GELU : SWAI_EPI_NONE,
	};
	struct kernel kn = { "sdaaGemm", emit_gemm, &g };
	size_t es = dt == SWAI_DT_BF16 ? 2 : 4, asz, bsz, csz;

	if ((transA != SDAA_OP_N && transA != SDAA_OP_T) ||
	    (transB != SDAA_OP_N && transB != SDAA_OP_T))
		return bad(kn.fn, "transA and transB are SDAA_OP_N or SDAA_OP_T");
	if (dt == 0xff)
		return bad(kn.fn, "type is SDAA_R_32F or SDAA_R_16BF");
	if (epilogue != SDAA_EPILOGUE_DEFAULT && epilogue != SDAA_EPILOGUE_GELU)
		return bad(kn.fn, "unknown epilogue");
	if (m <= 0 || n <= 0 || k <= 0)
		return bad(kn.fn, "m, n and k must be positive");
	if (!A || !B || !C)
		return bad(kn.fn, "A, B and C must not be NULL");
	if (lda < (g.trans_a ? m : k) || ldb < (g.trans_b ? k : n) || ldc < n)
		return bad(kn.fn, "a leading dimension is smaller than its row");
	asz = ((size_t)((g.trans_a ? k : m) - 1) * lda + (g.trans_a ? m : k)) * es;
	bsz = ((size_t)((g.trans_b ? n : k) - 1) * ldb + (g.trans_b ? k : n)) * es;
	csz = ((size_t)(m - 1) * ldc + n) * 4;
	if (overlap(C, csz, A, asz) || overlap(C, csz, B, bsz))
		return bad(kn.fn, "C overlaps A or B");
	g.m = (uint32_t)m;
	g.n = (uint32_t)n;
	g.k = (uint32_t)k;
	g.a = (struct swk_mat){ .va = { (uintptr_t)A }, .ld = (uint32_t)lda };
	g.b = (struct swk_mat){ .va = { (uintptr_t)B }, .ld = (uint32_t)ldb };
	g.c = (struct swk_mat){ .va = { (uintptr_t)C }, .ld = (uint32_t)ldc };
	return run(&kn, stream);
}

/* --- LayerNorm ---------------------------------------------------------------------- */

static int emit_ln(struct swai_progs *out, const void *args, const struct swk_cfg *cfg)
{
	return swk_layernorm(out, args, cfg);
}

SDAA_API sdaaError_t sdaaLayerNorm(void *y, const void *x, const float *gamma,
				   const float *beta, int rows, int cols, float eps,
				   sdaaDataType_t type, sdaaStream_t stream)
{
	uint8_t dt = dtype_of(type);
	struct swk_ln l = {
		.eps = eps, .dtype = dt, .x = (uintptr_t)x, .gamma = (uintptr_t)gamma,
		.beta = (uintptr_t)beta,
	};
	struct kernel kn = { "sdaaLayerNorm", emit_ln, &l };
	size_t bytes = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0) *
		       (dt == SWAI_DT_BF16 ? 2 : 4);

	if (dt == 0xff)
		return bad(kn.fn, "type is SDAA_R_32F or SDAA_R_16BF");
	if (rows <= 0 || cols <= 0)
		return bad(kn.fn, "rows and cols must be positive");
	if (!y || !x || !gamma || !beta)
		return bad(kn.fn, "y, x, gamma and beta must not be NULL");
	if (!(eps >= 0.0f) || isinf(eps))
		return bad(kn.fn, "eps must be finite and >= 0");
	if (y != x && overlap(y, bytes, x, bytes))
		return bad(kn.fn, "y overlaps x (it may be x itself)");
	l.rows = (uint32_t)rows;
	l.cols = (uint32_t)cols;
	l.ldx = (uint32_t)cols;
	l.y = (struct swk_mat){ .va = { (uintptr_t)y }, .ld = (uint32_t)cols };
	return run(&kn, stream);
}

/* --- Dropout ------------------------------------------------------------------------- */

static int emit_dropout(struct swai_progs *out, const void *args, const struct swk_cfg *cfg)
{
	return swk_dropout(out, args, cfg);
}

SDAA_API sdaaError_t sdaaDropout(void *y, const void *x, size_t n, float keepProb,
				 unsigned long long seed, unsigned long long offset,
				 sdaaDataType_t type, sdaaStream_t stream)
{
	uint8_t dt = dtype_of(type);
	struct swk_dropout d = {
		.n = n, .dtype = dt, .keep = keepProb, .seed = seed, .offset = offset,
		.x = (uintptr_t)x, .y = (uintptr_t)y,
	};
	struct kernel kn = { "sdaaDropout", emit_dropout, &d };
	size_t es = dt == SWAI_DT_BF16 ? 2 : 4;

	if (dt == 0xff)
		return bad(kn.fn, "type is SDAA_R_32F or SDAA_R_16BF");
	if (!n || n > SIZE_MAX / 4)
		return bad(kn.fn, "n must be positive");
	if (!y || !x)
		return bad(kn.fn, "y and x must not be NULL");
	if (!(keepProb > 0.0f && keepProb <= 1.0f))
		return bad(kn.fn, "keepProb must be in (0, 1]");
	if (y != x && overlap(y, n * es, x, n * es))
		return bad(kn.fn, "y overlaps x (it may be x itself)");
	return run(&kn, stream);
}

/* --- Convert ------------------------------------------------------------------------- */

static int emit_cvt(struct swai_progs *out, const void *args, const struct swk_cfg *cfg)
{
	return swk_cvt(out, args, cfg);
}

SDAA_API sdaaError_t sdaaConvert(void *y, sdaaDataType_t ytype, const void *x,
				 sdaaDataType_t xtype, size_t n, sdaaStream_t stream)
{
	struct swk_cvt c = {
		.n = n, .from = dtype_of(xtype), .to = dtype_of(ytype), .x = (uintptr_t)x,
		.y = (uintptr_t)y,
	};
	struct kernel kn = { "sdaaConvert", emit_cvt, &c };
	size_t ex = c.from == SWAI_DT_BF16 ? 2 : 4, ey = c.to == SWAI_DT_BF16 ? 2 : 4;

	if (c.from == 0xff || c.to == 0xff)
		return bad(kn.fn, "types are SDAA_R_32F or SDAA_R_16BF");
	if (!n || n > SIZE_MAX / 4)
		return bad(kn.fn, "n must be positive");
	if (!y || !x)
		return bad(kn.fn, "y and x must not be NULL");
	if (!(y == x && ex == ey) && overlap(y, n * ey, x, n * ex))
		return bad(kn.fn, "y overlaps x (only in place with one element size)");
	return run(&kn, stream);
}
