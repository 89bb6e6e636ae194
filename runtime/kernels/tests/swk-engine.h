/* SPDX-License-Identifier: MIT */
/*
 * swk-engine.h - the emitters' programs on the card's own engine
 * (tools/card/swai-engine.h), for the unit test: device addresses are host
 * pointers, core group 0 runs the jobs in order, each with a cleared LDM as
 * on the card, and the card's arithmetic computes (GEMM on BLAS, within the
 * tolerance of the host reference).  The card refuses what is illegal
 * (fields, alignment, LDM ranges, overlaps: the job ends with an error);
 * what the emitters promise beyond that is checked as the jobs run:
 *   - every transfer is asynchronous (SWAI_XFER_ASYNC);
 *   - no LDM byte is read before the job wrote it (jobs are self-contained:
 *     LDM does not survive a job);
 *   - no GET reads HBM bytes a PUT of the same job wrote (asynchronous
 *     transfers are not ordered on HBM).
 * Test-only, header-only.
 */
#ifndef SWK_ENGINE_H
#define SWK_ENGINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-arith.h"
#include "swai-engine.h"
#include "swk.h"

struct engine_run {
	struct swai_engine e;
	const struct swai_progs *ps;
	int next, job;
	uint8_t *ldm, *valid;		/* CG 0's LDM; 1 where this job wrote it */
	struct { uint64_t lo, hi; } *put;	/* HBM rows PUT by this job */
	size_t nput, capput;
	int errors;
	long gemms, transfers;
	char why[160];
};

static void er_fail(struct engine_run *er, const char *why, uint32_t pc)
{
	if (!er->errors)
		snprintf(er->why, sizeof(er->why), "%s at insn %u of job %d", why, pc, er->job);
	er->errors++;
}

static bool er_pending(void *opaque, unsigned int cg)
{
	struct engine_run *er = opaque;

	return cg == 0 && er->next < er->ps->n;
}

static void er_start(void *opaque, unsigned int cg)
{
	struct engine_run *er = opaque;
	const struct swai_prog *p = &er->ps->p[er->next];
	struct swai_engine_start st = { .tag = (uint64_t)er->next };

	er->job = er->next++;
	memset(er->valid, 0, er->e.ldm_bytes);
	er->nput = 0;
	swai_engine_begin(&er->e, cg, &st);
	swai_engine_load(&er->e, cg, (const uint8_t *)p->in, (uint32_t)p->n);
}

static void er_finish(void *opaque, unsigned int cg, const struct swai_engine_end *end)
{
	struct engine_run *er = opaque;

	(void)cg;
	if (end->status)
		er_fail(er, "the card ended the job with an error", end->pc);
}

static int er_locate(void *opaque, unsigned int cg, const struct swai_engine_job *j,
		     uint64_t va, uint64_t len, bool write, struct swai_place *p,
		     struct swai_fault *f)
{
	(void)opaque;
	(void)cg;
	(void)j;
	(void)write;
	(void)f;
	memset(p, 0, sizeof(*p));
	p->tier = SWAI_TIER_LOCAL;
	p->ptr = (uint8_t *)(uintptr_t)va;
	p->addr = va;
	p->run = len ? len : 1;
	return SWAI_JOB_OK;
}

/* LDM rows [off + r * ld, + len) all written by this job (when @read), then marked. */
static void er_ldm(struct engine_run *er, uint64_t off, uint64_t rows, uint64_t len, uint64_t ld,
		   bool read, bool write, uint32_t pc)
{
	for (uint64_t r = 0; r < rows; r++) {
		uint64_t a = off + r * ld;

		if (a + len > er->e.ldm_bytes)
			return;		/* the card reports it */
		for (uint64_t b = 0; read && b < len; b++)
			if (!er->valid[a + b]) {
				er_fail(er, "LDM read before written in the job", pc);
				return;
			}
		if (write)
			memset(er->valid + a, 1, len);
	}
}

static void er_xfer(struct engine_run *er, const struct swai_insn *in, uint32_t pc)
{
	uint64_t rows = in->rows ? in->rows : 1;
	uint64_t ds = in->dst_stride ? in->dst_stride : in->len;
	uint64_t ss = in->src_stride ? in->src_stride : in->len;

	er->transfers++;
	if (in->flags != SWAI_XFER_ASYNC)
		er_fail(er, "transfer without SWAI_XFER_ASYNC", pc);
	if (in->op == SWAI_OP_DMA_GET) {
		for (uint64_t r = 0; r < rows; r++) {
			uint64_t lo = in->src + r * ss, hi = lo + in->len;

			for (size_t i = 0; i < er->nput; i++)
				if (lo < er->put[i].hi && er->put[i].lo < hi)
					er_fail(er, "GET of bytes a PUT of the job wrote", pc);
		}
		er_ldm(er, in->dst, rows, in->len, ds, false, true, pc);
	} else if (in->op == SWAI_OP_DMA_PUT) {
		er_ldm(er, in->src, rows, in->len, ss, true, false, pc);
		for (uint64_t r = 0; r < rows; r++) {
			if (er->nput == er->capput) {
				er->capput = er->capput ? 2 * er->capput : 64;
				er->put = realloc(er->put, er->capput * sizeof(*er->put));
			}
			er->put[er->nput].lo = in->dst + r * ds;
			er->put[er->nput++].hi = in->dst + r * ds + in->len;
		}
	} else {
		er_fail(er, "unexpected transfer", pc);
	}
}

static void er_compute(struct engine_run *er, const uint8_t *raw, uint32_t pc)
{
	struct swai_cop c;
	bool reads_out;

	if (swai_isa_compute_prepare(raw, er->e.ldm_bytes, &c))
		return;		/* the card reports it */
	/* GEMM reads C only with beta != 0. */
	reads_out = c.u.op == SWAI_OP_GEMM && c.u.gemm.beta != 0;
	er->gemms += c.u.op == SWAI_OP_GEMM;
	for (unsigned int i = 0; i < c.nin; i++)
		er_ldm(er, c.in[i].off, 1, c.in[i].len, 0, true, false, pc);
	er_ldm(er, c.out.off, 1, c.out.len, 0, reads_out, true, pc);
}

static void er_insn(void *opaque, unsigned int cg, const struct swai_engine_job *j,
		    const uint8_t *raw)
{
	struct engine_run *er = opaque;
	struct swai_insn in;

	(void)cg;
	if (swai_isa_is_compute(raw[0])) {
		er_compute(er, raw, j->pc);
		return;
	}
	swai_isa_decode(raw, &in);
	switch (in.op) {
	case SWAI_OP_DMA_GET:
	case SWAI_OP_DMA_PUT:
		er_xfer(er, &in, j->pc);
		break;
	case SWAI_OP_REDUCE:
		er_ldm(er, in.src, 1, in.len * swai_isa_esize(in.dtype), 0, true, false, j->pc);
		er_ldm(er, in.dst, 1, in.len * swai_isa_esize(in.dtype), 0, true, true, j->pc);
		break;
	default:
		er_fail(er, "unexpected op", j->pc);
	}
}

static const struct swai_engine_ops er_ops = {
	.pending = er_pending, .start = er_start, .finish = er_finish, .locate = er_locate,
	.insn = er_insn,
};

/* Run every job of @ps on the engine; the number of errors (er->why: the first). */
static int engine_run(struct engine_run *er, const struct swai_progs *ps,
		      const struct swk_cfg *cfg)
{
	struct swai_timing_props tp;

	swai_timing_props_init(&tp);
	memset(er, 0, sizeof(*er));
	er->ps = ps;
	for (int j = 0; j < ps->n; j++)
		if (ps->p[j].n > cfg->max_insns - cfg->reserve || ps->p[j].n < 1)
			er_fail(er, "program size", 0);
	swai_engine_init(&er->e, &tp, cfg->ldm_bytes, &er_ops, er);
	er->ldm = calloc(SWAI_ENGINE_CGS, cfg->ldm_bytes);
	er->valid = calloc(1, cfg->ldm_bytes);
	if (!er->ldm || !er->valid || !swai_engine_attach(&er->e, er->ldm, &swai_arith)) {
		er_fail(er, "out of memory", 0);
	} else {
		swai_engine_reset(&er->e);
		while (swai_engine_step(&er->e))
			;
		if (er->next < ps->n || swai_engine_busy(&er->e, 0))
			er_fail(er, "jobs did not all run", 0);
	}
	swai_engine_detach(&er->e);
	free(er->ldm);
	free(er->valid);
	free(er->put);
	er->put = NULL;
	return er->errors;
}

#endif /* SWK_ENGINE_H */
