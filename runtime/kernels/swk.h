/* SPDX-License-Identifier: MIT */
/*
 * swk.h - compute kernels of the SW-AI card as core-group programs.
 *
 * The emitters turn one operation (GEMM, LayerNorm, Dropout, a type
 * conversion, a reduce + dropout) into programs of struct swai_insn, one per
 * job: tiles of the operands are moved between HBM and the LDM with
 * asynchronous transfers (SWAI_XFER_ASYNC), double-buffered, and computed in
 * the LDM by the compute instructions (uapi/drm/swai_program.h).  The same
 * objects are linked, hidden, into libsdaa (sdaaGemm and friends) and
 * libswccl (the fused collectives, which add hooks: a_copy, y2).
 *
 * The tiling depends only on the shapes, the types, the hooks' block layout
 * and struct swk_cfg -- never on addresses -- so a fused and an unfused call
 * with the same shapes run the very same compute instructions on the same
 * LDM offsets, which is what makes their results bit-identical.
 * Documentation/kernels.md describes the schemes.
 *
 * swk_ref_*: the host reference of the card's arithmetic (bit-exact
 * definitions of datasheet §13.7; GEMM in double, see swk_ref_gemm).
 */
#ifndef SWK_H
#define SWK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/swai_program.h>

#include "swai-prog.h"

/* Programs are built with the project's one builder: struct swai_prog(s). */
struct swk_cfg {
	uint64_t ldm_bytes;	/* the CG's LDM: cpes * ldmPerCpe (8 MiB by default) */
	int max_insns;		/* per job, SWAI_PROGRAM_MAX_BYTES / 48 */
	int reserve;		/* instructions the caller appends to each program (0..8) */
};

/* Every LDM buffer the emitters use starts on this boundary (the card's hazard granule). */
#define SWK_LDM_ALIGN		256u

#define SWK_MAX_BLOCKS 16
/*
 * A matrix whose rows may live in several places: rows [i*block_rows,
 * (i+1)*block_rows) at va[i]; block_rows == 0 means one place va[0].  ld in
 * elements (row r of block i at va[i] + (r - i*block_rows) * ld * esize).
 */
struct swk_mat { uint64_t va[SWK_MAX_BLOCKS]; uint32_t block_rows, ld; };

struct swk_gemm {
	int trans_a, trans_b; uint32_t m, n, k; float alpha, beta;
	uint8_t dtype;		/* A, B: SWAI_DT_F32 / SWAI_DT_BF16; C always f32 */
	uint8_t epilogue;	/* SWAI_EPI_* */
	struct swk_mat a, b, c;	/* stored matrices: A is k x m with trans_a, B n x k with trans_b */
	/*
	 * Fusion hook (libswccl, AG): every A row block, once in LDM, is also
	 * PUT asynchronously to a_copy (same element type, block layout of its
	 * own; va[i] == 0: that block is not copied).  Only with !trans_a.
	 * Each row of A is loaded into LDM exactly once (unless one A row
	 * block needs more than one job: then it is loaded again, but copied
	 * only once).
	 */
	struct swk_mat a_copy;
};

struct swk_ln {
	uint32_t rows, cols; float eps; uint8_t dtype;
	uint64_t x, gamma, beta;	/* x: rows x cols, ld = ldx; gamma/beta f32 [cols] */
	uint32_t ldx;
	struct swk_mat y;		/* output (dtype) */
	struct swk_mat y2;		/* fusion hook (AG write phase): also PUT each y tile here;
					 * va[i] == 0: that block is not written (all 0: none) */
};

struct swk_dropout {
	uint64_t n; uint8_t dtype; float keep; uint64_t seed, offset;
	uint64_t x, y;
};

struct swk_cvt { uint64_t n; uint8_t from, to; uint64_t x, y; };

/*
 * libswccl's fused reduce-scatter tail: y = dropout(src[0] + src[1] + ...
 * + src[nsrc-1]) (f32 REDUCE SUM in that order; dropout only if @dropout),
 * converted to out_dtype.  The sources are f32 [n].
 */
struct swk_reduce_dropout {
	uint64_t n; int nsrc; uint64_t src[SWK_MAX_BLOCKS]; uint64_t y; float keep;
	uint64_t seed, offset; int dropout; uint8_t out_dtype;
};

/*
 * 0, -EINVAL (bad shape or arguments), -ENOMEM, -E2BIG (a single tile
 * cannot fit the LDM, or its instructions one job).  Programs are appended
 * to @out; each is self-contained (loads what it needs: LDM does not
 * survive a job), has at most max_insns - reserve instructions and no END
 * (the caller may append up to @reserve instructions, e.g. a FENCE).  Tiles
 * are double-buffered with SWAI_XFER_ASYNC: the GET of tile t+1 is issued
 * before the compute of tile t; results are PUT asynchronously; no DRAIN at
 * the end (the job drains).  Append a DRAIN before anything that reads the
 * results through HBM in the same job.
 */
int swk_gemm(struct swai_progs *out, const struct swk_gemm *g, const struct swk_cfg *cfg);
int swk_layernorm(struct swai_progs *out, const struct swk_ln *l, const struct swk_cfg *cfg);
int swk_dropout(struct swai_progs *out, const struct swk_dropout *d, const struct swk_cfg *cfg);
int swk_cvt(struct swai_progs *out, const struct swk_cvt *c, const struct swk_cfg *cfg);
int swk_reduce_dropout(struct swai_progs *out, const struct swk_reduce_dropout *r,
		       const struct swk_cfg *cfg);

/* Bytes of one element of @dtype (F32, BF16), 0 if not a compute type. */
unsigned int swk_esize(uint8_t dtype);

/* --- host reference (runtime/kernels/swk_ref.c) --------------------------------------------- */
uint16_t swk_bf16_from_f32(float f);		/* round to nearest even, NaN stays NaN */
float swk_f32_from_bf16(uint16_t h);		/* exact */
/* Element @i of an array of @dtype as f32, and the store (rounded to @dtype). */
float swk_load(uint8_t dtype, const void *p, size_t i);
void swk_store(uint8_t dtype, void *p, size_t i, float v);
/* Philox4x32-10 of counter @ctr with key @key into @out. */
void swk_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);
/* The uniform number in [0, 1) of Philox stream position @c (counter c / 4, word c % 4). */
float swk_dropout_u(uint64_t seed, uint64_t c);
float swk_gelu(float x);

/*
 * C = alpha op(A) op(B) + beta C (f32, row major; beta 0 ignores C), sums in
 * double, rounded once to f32, then the epilogue.  If @tol is not NULL it
 * receives, per element of C (ld = ldc), the bound the card's result must
 * meet: |got - ref| <= 1e-5 * |alpha| * sum_k |a||b| * sqrt(k) + 1e-6 * (1 +
 * |beta c|) (GELU's slope is at most 1.13: the bound is scaled by 1.2).
 */
void swk_ref_gemm(int trans_a, int trans_b, uint32_t m, uint32_t n, uint32_t k, float alpha,
		  const void *a, uint32_t lda, const void *b, uint32_t ldb, float beta, float *c,
		  uint32_t ldc, uint8_t dtype, uint8_t epilogue, float *tol);
void swk_ref_layernorm(uint32_t rows, uint32_t cols, float eps, uint8_t dtype, const void *x,
		       uint32_t ldx, const float *gamma, const float *beta, void *y, uint32_t ldy);
void swk_ref_dropout(uint64_t n, uint8_t dtype, float keep, uint64_t seed, uint64_t offset,
		     const void *x, void *y);
void swk_ref_cvt(uint64_t n, uint8_t from, uint8_t to, const void *x, void *y);

#endif /* SWK_H */
