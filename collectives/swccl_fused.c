// SPDX-License-Identifier: MIT
/*
 * swccl_fused.c - swcclLayerNormAllGatherGemm and
 * swcclGemmReduceScatterDropout: the API, each rank's argument checks, and
 * planning the call of all ranks -- its buffers on the card (a Global-HBM
 * staging or exchange, a Local-HBM scratch per rank), and either the fused
 * jobs (fused_ag.c, fused_rs.c: one job per rank unless the emitters split,
 * no host sync) or the unfused sequence through memory (fused_seq.c), costed
 * on the card's model like any schedule.
 */
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_algo.h"
#include "swccl_fused.h"
#include "swccl_kind.h"
#include "swccl_plan.h"

static const char *name(const struct swccl_call *c)
{
	return c->coll == SWCCL_ALLGATHER ? "LayerNormAllGatherGemm" : "GemmReduceScatterDropout";
}

static const char *api_name(const struct swccl_op *op)
{
	return op->coll == SWCCL_ALLGATHER ? "swcclLayerNormAllGatherGemm" :
					     "swcclGemmReduceScatterDropout";
}

/* Fused unless the call or SWCCL_FUSION=0 says otherwise; -1: not a swcclFusion_t. */
static int fusion_on(swcclFusion_t f)
{
	switch (f) {
	case swcclFusionOn: return 1;
	case swcclFusionOff: return 0;
	case swcclFusionAuto: return swccl_param_long(SWCCL_PARAM_FUSION) != 0;
	default: return -1;
	}
}

static swcclResult_t post(struct swccl_op *op, swcclFusion_t fusion)
{
	int on = fusion_on(fusion);

	if (on < 0)
		return swccl_fail(op->comm, swcclInvalidArgument, "%s: fusion %d is not a "
				  "swcclFusion_t", api_name(op), fusion);
	op->fz.fused = on;
	op->op = swcclSum;
	op->count = op->fz.rows * op->fz.hidden;
	return swccl_submit(op);
}

SWCCL_EXPORT swcclResult_t swcclLayerNormAllGatherGemm(const swcclLnAgGemmArgs *a,
						       swcclComm_t comm, sdaaStream_t stream)
{
	struct swccl_op op = { .comm = comm, .kind = &swccl_kind_fused,
			       .coll = SWCCL_ALLGATHER, .stream = stream };

	if (!comm)
		return swcclInvalidArgument;
	if (!a)
		return swccl_fail(comm, swcclInvalidArgument, "%s: args is NULL", api_name(&op));
	op.dtype = a->type;
	op.fz = (struct swccl_fused){ .rows = a->rowsPerRank, .hidden = a->hidden,
				      .n = a->ffn, .eps = a->eps, .gelu = a->gelu };
	op.fp[FB_X] = a->x;
	op.fp[FB_Y] = a->gathered;
	op.fp[FB_GAMMA] = a->gamma;
	op.fp[FB_BETA] = a->beta;
	op.fp[FB_W] = a->w;
	op.fp[FB_OUT] = a->out;
	return post(&op, a->fusion);
}

SWCCL_EXPORT swcclResult_t swcclGemmReduceScatterDropout(const swcclGemmRsDropoutArgs *a,
							 swcclComm_t comm, sdaaStream_t stream)
{
	struct swccl_op op = { .comm = comm, .kind = &swccl_kind_fused,
			       .coll = SWCCL_REDUCESCATTER, .stream = stream };

	if (!comm)
		return swcclInvalidArgument;
	if (!a)
		return swccl_fail(comm, swcclInvalidArgument, "%s: args is NULL", api_name(&op));
	op.dtype = a->type;
	op.fz = (struct swccl_fused){ .rows = a->rowsPerRank, .hidden = a->hidden, .n = a->k,
				      .keep = a->keep, .seed = a->seed, .offset = a->offset };
	op.fp[FB_X] = a->a;
	op.fp[FB_W] = a->w;
	op.fp[FB_OUT] = a->out;
	return post(&op, a->fusion);
}

/* The buffers of a call: argument name, bytes, element size, output? */
struct fbuf {
	const char *name;
	size_t bytes, align;
	int out;
};

static struct fbuf in(const char *name, size_t bytes, size_t align)
{
	return (struct fbuf){ .name = name, .bytes = bytes, .align = align };
}

static size_t mul(size_t a, size_t b, bool *ovf)
{
	size_t r;

	*ovf |= __builtin_mul_overflow(a, b, &r);
	return r;
}

static bool overlap(const struct swccl_buf *a, const struct swccl_buf *b)
{
	return a->va < b->va + b->bytes && b->va < a->va + a->bytes;
}

static swcclResult_t check(const struct swccl_op *op, struct swccl_rank *rk)
{
	swcclComm_t comm = op->comm;
	const char *fn = api_name(op);
	const struct swccl_fused *z = &op->fz;
	size_t es = swccl_type_size(op->dtype), n = (size_t)comm->sh->nranks, m;
	bool ag = op->coll == SWCCL_ALLGATHER, ovf = false;
	struct fbuf fb[FB_N] = { { 0 } };
	swcclResult_t r;

	r = swccl_stream_check(comm, op->stream);
	if (r)
		return r;
	if (op->dtype != swcclFloat32 && op->dtype != swcclBfloat16)
		return swccl_fail(comm, swcclInvalidArgument, "%s: type %s (%d): the fused calls "
				  "take swcclFloat32 or swcclBfloat16", fn,
				  swccl_type_name(op->dtype), op->dtype);
	if (!z->rows || !z->hidden || !z->n)
		return swccl_fail(comm, swcclInvalidArgument, "%s: rowsPerRank %zu, hidden %zu, "
				  "%s %zu: all must be > 0", fn, z->rows, z->hidden,
				  ag ? "ffn" : "k", z->n);
	m = mul(z->rows, n, &ovf);
	if (ovf || m > INT32_MAX || z->hidden > INT32_MAX || z->n > INT32_MAX)
		return swccl_fail(comm, swcclInvalidArgument, "%s: rowsPerRank x ranks %zu x %zu, "
				  "hidden %zu, %s %zu: each must be < 2^31", fn, z->rows, n,
				  z->hidden, ag ? "ffn" : "k", z->n);
	if (ag && (!(z->eps >= 0) || isinf(z->eps)))
		return swccl_fail(comm, swcclInvalidArgument, "%s: eps %g must be finite and >= 0",
				  fn, z->eps);
	if (ag && z->gelu != 0 && z->gelu != 1)
		return swccl_fail(comm, swcclInvalidArgument, "%s: gelu %d must be 0 or 1", fn,
				  z->gelu);
	if (!ag && !(z->keep > 0 && z->keep <= 1))
		return swccl_fail(comm, swcclInvalidArgument, "%s: keep %g must be in (0, 1]", fn,
				  z->keep);
	if (ag) {
		fb[FB_X] = in("x", mul(mul(z->rows, z->hidden, &ovf), es, &ovf), es);
		fb[FB_Y] = in("gathered", mul(mul(m, z->hidden, &ovf), es, &ovf), es);
		fb[FB_Y].out = 1;
		fb[FB_GAMMA] = in("gamma", mul(z->hidden, 4, &ovf), 4);
		fb[FB_BETA] = in("beta", mul(z->hidden, 4, &ovf), 4);
		fb[FB_W] = in("w", mul(mul(z->hidden, z->n, &ovf), es, &ovf), es);
		fb[FB_OUT] = in("out", mul(mul(m, z->n, &ovf), 4, &ovf), 4);
	} else {
		fb[FB_X] = in("a", mul(mul(m, z->n, &ovf), es, &ovf), es);
		fb[FB_W] = in("w", mul(mul(z->n, z->hidden, &ovf), es, &ovf), es);
		fb[FB_OUT] = in("out", mul(mul(z->rows, z->hidden, &ovf), 4, &ovf), 4);
	}
	fb[FB_OUT].out = 1;
	if (ovf)
		return swccl_fail(comm, swcclInvalidArgument, "%s: buffer sizes overflow", fn);
	for (int i = 0; i < FB_N; i++) {
		if (!fb[i].name)
			continue;
		r = swccl_buffer(comm, op->fp[i], fb[i].bytes, fb[i].name, &rk->fb[i]);
		if (r)
			return r;
		rk->fp[i] = op->fp[i];
		if (rk->fb[i].va % fb[i].align)
			return swccl_fail(comm, swcclInvalidArgument, "%s: %s %p is not aligned to "
					  "its %zu-byte elements", fn, fb[i].name, op->fp[i],
					  fb[i].align);
	}
	for (int i = 0; i < FB_N; i++)
		for (int j = 0; j < FB_N && fb[i].out; j++)
			if (j != i && fb[j].name && overlap(&rk->fb[i], &rk->fb[j]))
				return swccl_fail(comm, swcclInvalidArgument, "%s: %s [%p, +%zu) "
						  "overlaps %s [%p, +%zu)", fn, fb[i].name, op->fp[i],
						  fb[i].bytes, fb[j].name, op->fp[j], fb[j].bytes);
	return swcclSuccess;
}

static void init(struct swccl_call *c, const struct swccl_op *op)
{
	c->coll = op->coll;
	c->count = op->count;
	c->dtype = op->dtype;
	c->op = swcclSum;
	c->esize = swccl_type_size(op->dtype);
	c->fz = op->fz;
}

static bool same(const struct swccl_call *c, const struct swccl_op *op)
{
	const struct swccl_fused *a = &c->fz, *b = &op->fz;

	return c->coll == op->coll && c->dtype == op->dtype && a->rows == b->rows &&
	       a->hidden == b->hidden && a->n == b->n &&
	       !memcmp(&a->eps, &b->eps, sizeof(a->eps)) &&
	       !memcmp(&a->keep, &b->keep, sizeof(a->keep)) && a->gelu == b->gelu &&
	       a->seed == b->seed && a->offset == b->offset && a->fused == b->fused;
}

static swcclResult_t sdaa_fail(swcclComm_t comm0, const struct swccl_call *c, const char *what,
			       sdaaError_t e)
{
	return swccl_fail(comm0, e == sdaaErrorNotSupported ? swcclInvalidUsage :
			  swcclUnhandledSdaaError, "%s #%llu (%s): %s: %s", name(c),
			  (unsigned long long)c->seq, c->fz.fused ? "fused" : "unfused", what,
			  sdaaGetErrorString(e));
}

/* The card's job geometry for the emitters (once per comm). */
static swcclResult_t limits(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0)
{
	struct sdaaKernelLimits lim;
	sdaaError_t e;

	if (!sh->kinsns) {
		e = sdaaDeviceGetKernelLimits(&lim, c->r[0].dev);
		if (e)
			return sdaa_fail(comm0, c, "sdaaDeviceGetKernelLimits", e);
		sh->kinsns = lim.maxInsns;
		sh->ldm = lim.ldmBytes;
	}
	c->kinsns = sh->kinsns;
	c->ldm = sh->ldm;
	return swcclSuccess;
}

/* The call's memory on the card: scratch (RS), staging (fused), scratch (unfused CSC). */
static swcclResult_t resources(struct swccl_shared *sh, struct swccl_call *c, swcclComm_t comm0,
			       struct swccl_call *coll)
{
	bool rs = c->coll == SWCCL_REDUCESCATTER;
	size_t blk = c->fz.rows * c->fz.hidden * sizeof(float);
	swcclResult_t r = swcclSuccess;

	/* Fused: the own block; unfused: all of P_r. */
	if (rs)
		r = swccl_tmp(sh, c, c->fz.fused ? blk : blk * (size_t)c->nranks, comm0);
	if (!r && c->fz.fused) {
		c->stage_bytes = rs ? fused_rs_stage_bytes(c) : fused_ag_stage_bytes(c);
		r = swccl_stage(sh, rs, c->stage_bytes, &c->stage);
		if (r)
			return swccl_fail(comm0, r, "%s: cannot allocate %zu bytes of Global-HBM "
					  "staging", name(c), 2 * c->stage_bytes);
	} else if (!r) {
		const struct swccl_algo *a = swccl_algo_find(c->coll, swcclAlgoCsc);

		fused_seq_collective(c, coll);
		r = swccl_scratch(sh, a->scratch(coll));
		if (r)
			return swccl_fail(comm0, r, "%s: cannot allocate %zu bytes of Global-HBM "
					  "scratch", name(c), a->scratch(coll));
		c->scratch = coll->scratch = (uint64_t)(uintptr_t)sh->scratch;
		c->scratch_bytes = coll->scratch_bytes = sh->scratch_bytes;
	}
	return r;
}

static swcclResult_t schedule(struct swccl_call *c, const struct swccl_call *coll,
			      struct swccl_sched *s, swcclComm_t comm0)
{
	int e = 0, p;

	if (!c->fz.fused) {
		e = fused_seq_schedule(c, coll, s);
	} else {
		p = swccl_sched_phase(s);
		for (int r = 0; r < c->nranks && !e; r++)
			e = p < 0 ? -ENOMEM : c->coll == SWCCL_ALLGATHER ?
			    fused_ag_jobs(c, r, swccl_sched_jobs(s, p, r)) :
			    fused_rs_jobs(c, r, swccl_sched_jobs(s, p, r));
	}
	if (e == -ENOMEM || s->nomem)
		return swcclSystemError;
	if (e)
		return swccl_fail(comm0, swcclInvalidArgument, "%s: rowsPerRank %zu, hidden %zu, "
				  "%s %zu: %s", name(c), c->fz.rows, c->fz.hidden,
				  c->coll == SWCCL_ALLGATHER ? "ffn" : "k", c->fz.n,
				  e == -E2BIG ? "a row does not fit the LDM (kernel emitter: E2BIG)" :
				  "the kernel emitters reject this shape");
	return swcclSuccess;
}

static swcclResult_t plan(struct swccl_shared *sh, struct swccl_call *c, struct swccl_plan *p,
			  swcclComm_t comm0)
{
	struct swccl_call coll;
	swcclResult_t r;

	r = limits(sh, c, comm0);
	if (!r)
		r = resources(sh, c, comm0, &coll);
	if (r)
		return r;
	p->algo = swcclAlgoCsc;
	p->fused = c->fz.fused;
	p->how = c->fz.fused ? "CSC fused" : "unfused";
	swccl_sched_init(&p->sched, c->nranks, false);
	r = schedule(c, &coll, &p->sched, comm0);
	if (!r && !swccl_plan_lookup(sh, c, p)) {
		r = swccl_plan_cost(sh, c, &p->sched, 0, p, comm0);
		if (!r)
			swccl_plan_store(sh, c, p);
	}
	swccl_sched_count(&p->sched, &p->launches, &p->host_syncs);
	swccl_log(SWCCL_LOG_INFO, SWCCL_FUSED, "%s #%llu: %s, %d jobs, %.3f us", name(c),
		  (unsigned long long)c->seq, p->how, p->launches, p->us);
	return r;
}

/* Both fused calls: coll says which collective a call carries. */
const struct swccl_kind swccl_kind_fused = {
	.name = name, .check = check, .init = init, .same = same, .plan = plan,
};
