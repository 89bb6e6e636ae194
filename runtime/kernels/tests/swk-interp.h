/* SPDX-License-Identifier: MIT */
/*
 * swk-interp.h - a host interpreter for the programs the kernel emitters
 * build, for the unit test only: VAs are host pointers, the LDM is a host
 * buffer, and the compute instructions use the host reference (GEMM in
 * double per instruction).  Besides running the programs it checks what the
 * card would reject or what would race on it: LDM ranges and alignment,
 * reserved fields, transfers without SWAI_XFER_ASYNC, an LDM byte read
 * before the job wrote it (jobs must be self-contained), and a GET of HBM
 * bytes a PUT of the same job wrote (asynchronous transfers are not ordered
 * on HBM).
 */
#ifndef SWK_INTERP_H
#define SWK_INTERP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swk.h"

struct interp {
	uint8_t *ldm, *valid;		/* LDM bytes; 1 where this job wrote them */
	uint64_t size;
	struct { uint64_t lo, hi; } *put;	/* HBM rows PUT by this job */
	size_t nput, capput;
	int errors;
	long gemms, transfers;
	char why[160];
};

static void interp_fail(struct interp *it, const char *why, int pc)
{
	if (!it->errors)
		snprintf(it->why, sizeof(it->why), "%s at insn %d", why, pc);
	it->errors++;
}

static int ldm_ok(struct interp *it, uint64_t off, uint64_t rows, uint64_t len, uint64_t ld,
		  unsigned int align, bool read, int pc)
{
	if (!rows || !len)
		return 1;
	if (off % align) {
		interp_fail(it, "misaligned LDM offset", pc);
		return 0;
	}
	if (off + (rows - 1) * ld + len > it->size) {
		interp_fail(it, "LDM range", pc);
		return 0;
	}
	for (uint64_t r = 0; read && r < rows; r++)
		for (uint64_t b = 0; b < len; b++)
			if (!it->valid[off + r * ld + b]) {
				interp_fail(it, "LDM read before written in the job", pc);
				return 0;
			}
	return 1;
}

static void ldm_mark(struct interp *it, uint64_t off, uint64_t rows, uint64_t len, uint64_t ld)
{
	for (uint64_t r = 0; r < rows; r++)
		memset(it->valid + off + r * ld, 1, len);
}

static void xfer(struct interp *it, const struct swai_insn *in, int pc)
{
	uint64_t rows = in->rows ? in->rows : 1;
	uint64_t ds = in->dst_stride ? in->dst_stride : in->len;
	uint64_t ss = in->src_stride ? in->src_stride : in->len;

	if (in->flags != SWAI_XFER_ASYNC || in->dtype || in->rop)
		interp_fail(it, "transfer flags", pc);
	if (in->op == SWAI_OP_DMA_GET) {
		if (!ldm_ok(it, in->dst, rows, in->len, ds, 1, false, pc))
			return;
		for (uint64_t r = 0; r < rows; r++) {
			uint64_t lo = in->src + r * ss, hi = lo + in->len;

			for (size_t i = 0; i < it->nput; i++)
				if (lo < it->put[i].hi && it->put[i].lo < hi)
					interp_fail(it, "GET of bytes a PUT of the job wrote", pc);
			memcpy(it->ldm + in->dst + r * ds, (const void *)(uintptr_t)lo, in->len);
		}
		ldm_mark(it, in->dst, rows, in->len, ds);
	} else if (in->op == SWAI_OP_DMA_PUT) {
		if (!ldm_ok(it, in->src, rows, in->len, ss, 1, true, pc))
			return;
		for (uint64_t r = 0; r < rows; r++) {
			uint64_t lo = in->dst + r * ds;

			if (it->nput == it->capput) {
				it->capput = it->capput ? 2 * it->capput : 64;
				it->put = realloc(it->put, it->capput * sizeof(*it->put));
			}
			it->put[it->nput].lo = lo;
			it->put[it->nput++].hi = lo + in->len;
			memcpy((void *)(uintptr_t)lo, it->ldm + in->src + r * ss, in->len);
		}
	} else {
		interp_fail(it, "unexpected transfer op", pc);
	}
	it->transfers++;
}

static float f32_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static void gemm(struct interp *it, const struct swai_insn_gemm *g, int pc)
{
	unsigned int es = swk_esize(g->dtype);
	int ta = g->flags & SWAI_GEMM_TRANS_A, tb = g->flags & SWAI_GEMM_TRANS_B;
	uint32_t ar = ta ? g->k : g->m, ac = ta ? g->m : g->k;
	uint32_t br = tb ? g->n : g->k, bc = tb ? g->k : g->n;
	float alpha = f32_of(g->alpha), beta = f32_of(g->beta);

	if (!es || g->flags & ~3u || g->epilogue > SWAI_EPI_MAX || !g->m || !g->n || !g->k ||
	    g->lda < ac || g->ldb < bc || g->ldc < g->n) {
		interp_fail(it, "illegal GEMM", pc);
		return;
	}
	if (!ldm_ok(it, g->a, ar, (uint64_t)ac * es, (uint64_t)g->lda * es, es, true, pc) ||
	    !ldm_ok(it, g->b, br, (uint64_t)bc * es, (uint64_t)g->ldb * es, es, true, pc) ||
	    !ldm_ok(it, g->c, g->m, (uint64_t)g->n * 4, (uint64_t)g->ldc * 4, 4, beta != 0.0f, pc))
		return;
	{
		uint64_t clo = g->c, chi = g->c + ((uint64_t)g->m - 1) * g->ldc * 4 + g->n * 4;
		uint64_t alo = g->a, ahi = g->a + ((uint64_t)ar - 1) * g->lda * es + ac * es;
		uint64_t blo = g->b, bhi = g->b + ((uint64_t)br - 1) * g->ldb * es + bc * es;

		if ((clo < ahi && alo < chi) || (clo < bhi && blo < chi))
			interp_fail(it, "GEMM output overlaps an input", pc);
	}
	for (uint32_t i = 0; i < g->m; i++)
		for (uint32_t j = 0; j < g->n; j++) {
			float *c = (float *)(it->ldm + g->c + ((uint64_t)i * g->ldc + j) * 4);
			double s = 0;
			float r;

			for (uint32_t l = 0; l < g->k; l++)
				s += (double)swk_load(g->dtype, it->ldm + g->a,
						      ta ? (size_t)l * g->lda + i :
							   (size_t)i * g->lda + l) *
				     swk_load(g->dtype, it->ldm + g->b,
					      tb ? (size_t)j * g->ldb + l : (size_t)l * g->ldb + j);
			r = (float)((double)alpha * s + (beta != 0.0f ? (double)beta * *c : 0));
			*c = g->epilogue == SWAI_EPI_GELU ? swk_gelu(r) : r;
		}
	ldm_mark(it, g->c, g->m, (uint64_t)g->n * 4, (uint64_t)g->ldc * 4);
	it->gemms++;
}

static void layernorm(struct interp *it, const struct swai_insn_layernorm *l, int pc)
{
	unsigned int es = swk_esize(l->dtype);

	if (!es || l->flags || l->rsvd0 || l->rsvd1 || !l->rows || !l->cols || l->ldx < l->cols ||
	    l->ldy < l->cols || !(f32_of(l->eps) >= 0)) {
		interp_fail(it, "illegal LAYERNORM", pc);
		return;
	}
	if (!ldm_ok(it, l->x, l->rows, (uint64_t)l->cols * es, (uint64_t)l->ldx * es, es, true, pc) ||
	    !ldm_ok(it, l->y, l->rows, (uint64_t)l->cols * es, (uint64_t)l->ldy * es, es, false, pc) ||
	    !ldm_ok(it, l->gamma, 1, (uint64_t)l->cols * 4, 0, 4, true, pc) ||
	    !ldm_ok(it, l->beta, 1, (uint64_t)l->cols * 4, 0, 4, true, pc))
		return;
	swk_ref_layernorm(l->rows, l->cols, f32_of(l->eps), l->dtype, it->ldm + l->x, l->ldx,
			  (const float *)(it->ldm + l->gamma), (const float *)(it->ldm + l->beta),
			  it->ldm + l->y, l->ldy);
	ldm_mark(it, l->y, l->rows, (uint64_t)l->cols * es, (uint64_t)l->ldy * es);
}

static void dropout(struct interp *it, const struct swai_insn_dropout *d, int pc)
{
	unsigned int es = swk_esize(d->dtype);
	float keep = f32_of(d->keep);

	if (!es || d->flags || d->rsvd0 || d->rsvd1 || d->rsvd2 || !d->n ||
	    !(keep > 0 && keep <= 1)) {
		interp_fail(it, "illegal DROPOUT", pc);
		return;
	}
	if (!ldm_ok(it, d->x, 1, (uint64_t)d->n * es, 0, es, true, pc) ||
	    !ldm_ok(it, d->y, 1, (uint64_t)d->n * es, 0, es, false, pc))
		return;
	swk_ref_dropout(d->n, d->dtype, keep, d->seed, d->offset, it->ldm + d->x, it->ldm + d->y);
	ldm_mark(it, d->y, 1, (uint64_t)d->n * es, 0);
}

static void cvt(struct interp *it, const struct swai_insn *in, int pc)
{
	unsigned int ef = swk_esize(in->dtype), et = swk_esize(in->rop);

	if (!ef || !et || in->flags || in->rows || in->dst_stride || in->src_stride || !in->len) {
		interp_fail(it, "illegal CVT", pc);
		return;
	}
	if (!ldm_ok(it, in->src, 1, in->len * ef, 0, ef, true, pc) ||
	    !ldm_ok(it, in->dst, 1, in->len * et, 0, et, false, pc))
		return;
	if (in->dst != in->src && in->dst < in->src + in->len * ef &&
	    in->src < in->dst + in->len * et)
		interp_fail(it, "CVT overlap", pc);
	if (in->dst == in->src && ef != et)
		interp_fail(it, "CVT in place with two sizes", pc);
	swk_ref_cvt(in->len, in->dtype, in->rop, it->ldm + in->src, it->ldm + in->dst);
	ldm_mark(it, in->dst, 1, in->len * et, 0);
}

static void reduce(struct interp *it, const struct swai_insn *in, int pc)
{
	if (in->dtype != SWAI_DT_F32 || in->rop != SWAI_ROP_SUM || in->flags || in->rows) {
		interp_fail(it, "unexpected REDUCE", pc);
		return;
	}
	if (!ldm_ok(it, in->src, 1, in->len * 4, 0, 4, true, pc) ||
	    !ldm_ok(it, in->dst, 1, in->len * 4, 0, 4, true, pc))
		return;
	for (uint64_t i = 0; i < in->len; i++) {
		float *d = (float *)(it->ldm + in->dst) + i;

		*d = *d + ((const float *)(it->ldm + in->src))[i];
	}
}

/* Run every job of @ps (each with a cleared LDM, as on the card); the number of errors. */
static int interp_run(struct interp *it, const struct swai_progs *ps, const struct swk_cfg *cfg)
{
	it->size = cfg->ldm_bytes;
	it->ldm = calloc(1, it->size);
	it->valid = calloc(1, it->size);
	for (int j = 0; j < ps->n; j++) {
		const struct swai_prog *p = &ps->p[j];

		memset(it->ldm, 0, it->size);
		memset(it->valid, 0, it->size);
		it->nput = 0;
		if (p->n > cfg->max_insns - cfg->reserve || p->n < 1)
			interp_fail(it, "program size", j);
		for (int pc = 0; pc < p->n; pc++) {
			const struct swai_insn *in = &p->in[pc];

			switch (in->op) {
			case SWAI_OP_DMA_GET:
			case SWAI_OP_DMA_PUT:
				xfer(it, in, pc);
				break;
			case SWAI_OP_GEMM:
				gemm(it, (const struct swai_insn_gemm *)in, pc);
				break;
			case SWAI_OP_LAYERNORM:
				layernorm(it, (const struct swai_insn_layernorm *)in, pc);
				break;
			case SWAI_OP_DROPOUT:
				dropout(it, (const struct swai_insn_dropout *)in, pc);
				break;
			case SWAI_OP_CVT:
				cvt(it, in, pc);
				break;
			case SWAI_OP_REDUCE:
				reduce(it, in, pc);
				break;
			default:
				interp_fail(it, "unexpected op", pc);
			}
		}
	}
	free(it->ldm);
	free(it->valid);
	free(it->put);
	it->put = NULL;
	it->nput = it->capput = 0;
	return it->errors;
}

#endif /* SWK_INTERP_H */
