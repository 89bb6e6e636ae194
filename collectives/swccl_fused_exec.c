// SPDX-License-Identifier: MIT
/*
 * swccl_fused_exec.c - run a fused call of all ranks: the comm's buffers
 * for it (Global-HBM staging / exchange, a Local-HBM scratch per rank),
 * then either the fused jobs (fused_ag.c, fused_rs.c: one job per rank
 * unless the emitters split, no host sync) or the unfused sequence through
 * memory -- sdaaLayerNorm, swcclAllGather (CSC), sdaaGemm; sdaaGemm,
 * swcclReduceScatter (CSC), sdaaDropout -- the same calls an application
 * would make, which is what the fused results are compared with.
 *
 * The fused calls do not go through the cost model (swccl_sim.c does not
 * know the compute instructions): the card's timing model is the measure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_internal.h"

static const char *fname(const struct swccl_call *c)
{
	return swccl_coll_name(c->coll);
}

static swcclResult_t sdaa_fail(swcclComm_t comm0, const struct swccl_call *c, int r,
			       const char *what, sdaaError_t e)
{
	return swccl_fail(comm0, e == sdaaErrorNotSupported ? swcclInvalidUsage :
			  swcclUnhandledSdaaError, "%s #%llu (%s): %s on rank %d (CG %d): %s",
			  fname(c), (unsigned long long)c->seq, c->fz.fused ? "fused" : "unfused",
			  what, r, c->r[r].cg, sdaaGetErrorString(e));
}

/* The job geometry the kernel emitters need (the card's, once). */
static swcclResult_t limits(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0)
{
	struct sdaaKernelLimits lim;
	sdaaError_t e;

	if (sh->kinsns)
		return swcclSuccess;
	e = sdaaDeviceGetKernelLimits(&lim, c->r[0].dev);
	if (e)
		return sdaa_fail(comm0, c, 0, "sdaaDeviceGetKernelLimits", e);
	sh->kldm = lim.ldmBytes;
	sh->kinsns = lim.maxInsns;
	return swcclSuccess;
}

/* Every rank's Local-HBM scratch holds @need bytes (growing waits for the device). */
static swcclResult_t tmp_resources(struct swccl_shared *sh, struct swccl_call *c, size_t need,
				   swcclComm_t comm0)
{
	struct swccl_buf b;
	sdaaError_t e;

	for (int r = 0; r < c->nranks && need; r++) {
		if (sh->tmp_bytes[r] < need) {
			void *p;

			e = sdaaSetDevice(c->r[r].dev);
			if (!e && sh->tmp[r])
				e = sdaaDeviceSynchronize();
			if (!e && sh->tmp[r])
				e = sdaaFree(sh->tmp[r]);
			sh->tmp[r] = NULL;
			sh->tmp_bytes[r] = 0;
			if (!e)
				e = sdaaMalloc(&p, need);
			if (e)
				return swccl_fail(comm0, swcclUnhandledSdaaError, "%s: %zu bytes of "
						  "Local-HBM scratch on rank %d (CG %d): %s", fname(c),
						  need, r, c->r[r].cg, sdaaGetErrorString(e));
			sh->tmp[r] = p;
			sh->tmp_bytes[r] = need;
		}
		if (swccl_buffer(sh->comm[r], sh->tmp[r], need, "scratch", &b))
			return swcclInternalError;
		c->r[r].tmp = b.va;
		c->r[r].tmp_p = sh->tmp[r];
	}
	return swcclSuccess;
}

/* This call's half of the Global-HBM staging (AG) or exchange (RS). */
static swcclResult_t stage(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0)
{
	struct swccl_stage *s = &sh->stage[c->coll == SWCCL_FUSED_RS];
	size_t half = c->coll == SWCCL_FUSED_RS ? fused_rs_stage_bytes(c) :
		      fused_ag_stage_bytes(c);
	void *p;

	c->stage = 0;
	if (!half)
		return swcclSuccess;
	if (s->bytes < 2 * half) {
		if (s->buf && swccl_idle(sh)) {	/* room for the new one first */
			sdaaFreeCross(s->buf);
			s->buf = NULL;
			s->bytes = 0;
		}
		if (sdaaSetDevice(c->r[0].dev) || sdaaMallocCross(&p, 2 * half))
			return swccl_fail(comm0, swcclUnhandledSdaaError, "%s: cannot allocate %zu "
					  "bytes of Global-HBM staging", fname(c), 2 * half);
		if (swccl_retire(sh, s->buf)) {
			sdaaFreeCross(p);
			return swcclSystemError;
		}
		s->buf = p;
		s->bytes = 2 * half;
	}
	c->stage = (uint64_t)(uintptr_t)s->buf + (s->calls++ & 1) * half;
	return swcclSuccess;
}

static swcclResult_t run_fused(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0,
			       int *launches)
{
	struct swai_progs jobs[SWCCL_MAX_RANKS];
	swcclResult_t res = stage(sh, c, comm0);
	int r, e = 0;

	for (r = 0; r < c->nranks; r++)
		swai_progs_init(&jobs[r]);
	for (r = 0; r < c->nranks && !res && !e; r++)
		e = c->coll == SWCCL_FUSED_AG ?
		    fused_ag_jobs(c, r, sh->kldm, sh->kinsns, &jobs[r]) :
		    fused_rs_jobs(c, r, sh->kldm, sh->kinsns, &jobs[r]);
	if (e == -ENOMEM)
		res = swcclSystemError;
	else if (e)
		res = swccl_fail(comm0, swcclInvalidArgument, "%s: rowsPerRank %zu, hidden %zu, %s "
				 "%zu: %s", fname(c), c->fz.rows, c->fz.hidden,
				 c->coll == SWCCL_FUSED_AG ? "ffn" : "k", c->fz.n,
				 e == -E2BIG ? "a row does not fit the LDM (kernel emitter: E2BIG)" :
				 "the kernel emitters reject this shape");
	if (!res)
		swccl_launched(sh, c, "CSC fused");
	for (r = 0; r < c->nranks && !res; r++) {
		sdaaError_t err = sdaaSetDevice(c->r[r].dev);

		for (int j = 0; j < jobs[r].n && !err; j++)
			err = sdaaLaunchProgram(jobs[r].p[j].in, (size_t)jobs[r].p[j].n,
						c->r[r].stream);
		if (err) {
			res = sdaa_fail(comm0, c, r, "launch", err);
			swccl_fail_shared(sh, res, comm0->lasterr);	/* launched ranks wait */
		}
		*launches += jobs[r].n;
	}
	for (r = 0; r < c->nranks; r++)
		swai_progs_free(&jobs[r]);
	return res;
}

/* The CSC collective of the unfused sequence, as swcclAllGather/ReduceScatter run it. */
static swcclResult_t collective(struct swccl_shared *sh, const struct swccl_call *c,
				swcclComm_t comm0)
{
	struct swccl_call cc = *c;
	uint64_t es = c->coll == SWCCL_FUSED_AG ? c->esize : sizeof(float);
	uint64_t blk = (uint64_t)c->fz.rows * c->fz.hidden * es;

	cc.coll = c->coll == SWCCL_FUSED_AG ? SWCCL_ALLGATHER : SWCCL_REDUCESCATTER;
	cc.dtype = c->coll == SWCCL_FUSED_AG ? c->dtype : swcclFloat32;
	cc.esize = es;
	cc.op = swcclSum;
	cc.count = c->fz.rows * c->fz.hidden;
	cc.force = swcclAlgoCsc;
	for (int r = 0; r < c->nranks; r++) {
		struct swccl_rank *rk = &cc.r[r];
		struct swccl_buf whole = c->coll == SWCCL_FUSED_AG ? c->r[r].fb[FB_Y] :
			(struct swccl_buf){ .va = c->r[r].tmp, .tier = SWCCL_LOCAL,
					    .cg = c->r[r].cg };
		struct swccl_buf own = whole;

		whole.bytes = (size_t)(blk * (uint64_t)c->nranks);
		own.va += (uint64_t)r * blk;
		own.bytes = (size_t)blk;
		/* NCCL's in-place forms: AG sends its own slot, RS receives into it */
		rk->send = c->coll == SWCCL_FUSED_AG ? own : whole;
		rk->recv = c->coll == SWCCL_FUSED_AG ? whole : own;
	}
	return swccl_execute(sh, &cc, comm0);
}

static void *at(const void *p, size_t off)
{
	return (char *)(uintptr_t)p + off;
}

static swcclResult_t run_unfused(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0)
{
	sdaaDataType_t t = c->dtype == swcclBfloat16 ? SDAA_R_16BF : SDAA_R_32F;
	size_t rows = c->fz.rows, h = c->fz.hidden, n = c->fz.n;
	int m = (int)(rows * (size_t)c->nranks);
	bool ag = c->coll == SWCCL_FUSED_AG;
	swcclResult_t res = swcclSuccess;
	sdaaError_t e;
	int r;

	for (r = 0; r < c->nranks; r++) {
		const struct swccl_rank *rk = &c->r[r];

		e = sdaaSetDevice(rk->dev);
		if (!e && ag)
			e = sdaaLayerNorm(at(rk->fp[FB_Y], r * rows * h * c->esize), rk->fp[FB_X],
					  rk->fp[FB_GAMMA], rk->fp[FB_BETA], (int)rows, (int)h,
					  c->fz.eps, t, rk->stream);
		else if (!e)
			e = sdaaGemm(SDAA_OP_N, SDAA_OP_N, m, (int)h, (int)n, 1.0f, rk->fp[FB_X],
				     (int)n, rk->fp[FB_W], (int)h, 0.0f, rk->tmp_p, (int)h, t,
				     SDAA_EPILOGUE_DEFAULT, rk->stream);
		if (e)
			return sdaa_fail(comm0, c, r, ag ? "sdaaLayerNorm" : "sdaaGemm", e);
	}
	res = collective(sh, c, comm0);
	for (r = 0; r < c->nranks && !res; r++) {
		const struct swccl_rank *rk = &c->r[r];

		e = sdaaSetDevice(rk->dev);
		if (!e && ag)
			e = sdaaGemm(SDAA_OP_N, SDAA_OP_N, m, (int)n, (int)h, 1.0f, rk->fp[FB_Y],
				     (int)h, rk->fp[FB_W], (int)n, 0.0f, (float *)rk->fp[FB_OUT],
				     (int)n, t, c->fz.gelu ? SDAA_EPILOGUE_GELU :
				     SDAA_EPILOGUE_DEFAULT, rk->stream);
		else if (!e)
			e = sdaaDropout(at(rk->fp[FB_OUT], 0), at(rk->tmp_p, r * rows * h * 4),
					rows * h, c->fz.keep, c->fz.seed,
					c->fz.offset + (unsigned long long)(r * rows * h),
					SDAA_R_32F, rk->stream);
		if (e)
			res = sdaa_fail(comm0, c, r, ag ? "sdaaGemm" : "sdaaDropout", e);
	}
	return res;
}

swcclResult_t swccl_fused_execute(struct swccl_shared *sh, struct swccl_call *c,
				  swcclComm_t comm0)
{
	bool rs = c->coll == SWCCL_FUSED_RS;
	size_t blk = c->fz.rows * c->fz.hidden * sizeof(float);
	struct swcclCallInfo info = { .algo = swcclAlgoCsc, .fused = c->fz.fused };
	swcclResult_t res;
	int dev = 0;

	sdaaGetDevice(&dev);
	res = limits(sh, c, comm0);
	if (!res && rs)	/* fused: the own block; unfused: all of P_r */
		res = tmp_resources(sh, c, c->fz.fused ? blk : blk * (size_t)c->nranks, comm0);
	if (!res && c->fz.fused) {
		res = run_fused(sh, c, comm0, &info.launches);
	} else if (!res) {
		res = run_unfused(sh, c, comm0);
		info = comm0->last;	/* the collective's report, plus the compute jobs */
		info.launches += 2 * c->nranks;
		info.fused = 0;
	}
	sdaaSetDevice(dev);
	if (!res)
		for (int r = 0; r < c->nranks; r++)
			sh->comm[r]->last = info;
	return res;
}

/* At the comm's end, when nothing of it runs any more. */
void swccl_fused_free(struct swccl_shared *sh)
{
	int dev = 0;

	sdaaGetDevice(&dev);
	for (int i = 0; i < 2; i++)
		if (sh->stage[i].buf)
			sdaaFreeCross(sh->stage[i].buf);
	for (int r = 0; r < sh->nranks; r++) {
		if (!sh->tmp[r] || sdaaSetDevice(sh->comm[r]->dev))
			continue;
		/* the unfused sequence's last sdaaDropout may still read it */
		if (!sdaaDeviceSynchronize())
			sdaaFree(sh->tmp[r]);
	}
	sdaaSetDevice(dev);
}
