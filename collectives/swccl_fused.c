// SPDX-License-Identifier: MIT
/*
 * swccl_fused.c - swcclLayerNormAllGatherGemm and
 * swcclGemmReduceScatterDropout: the arguments, checked per rank, then the
 * same host rendezvous as every collective (swccl_enqueue.c), which hands
 * the call of all ranks to swccl_fused_exec.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_internal.h"

static const char *const call_name[] = { "swcclLayerNormAllGatherGemm",
					 "swcclGemmReduceScatterDropout" };

/* Fused unless the call or SWCCL_FUSION=0 says otherwise; -1: not a swcclFusion_t. */
static int fusion_on(swcclFusion_t f)
{
	const char *e;

	switch (f) {
	case swcclFusionOn: return 1;
	case swcclFusionOff: return 0;
	case swcclFusionAuto:
		e = getenv("SWCCL_FUSION");
		return !(e && *e && !strtol(e, NULL, 0));
	default: return -1;
	}
}

static swcclResult_t post(struct swccl_op *op, swcclFusion_t fusion)
{
	int on = fusion_on(fusion);

	if (on < 0)
		return swccl_fail(op->comm, swcclInvalidArgument, "%s: fusion %d is not a "
				  "swcclFusion_t", call_name[op->coll - SWCCL_FUSED_AG], fusion);
	op->f.fz.fused = on;
	op->dtype = op->f.type;
	op->op = swcclSum;
	op->count = op->f.fz.rows * op->f.fz.hidden;
	return swccl_enqueue(op);
}

SWCCL_EXPORT swcclResult_t swcclLayerNormAllGatherGemm(const swcclLnAgGemmArgs *a,
						       swcclComm_t comm, sdaaStream_t stream)
{
	struct swccl_op op = { .comm = comm, .coll = SWCCL_FUSED_AG, .stream = stream };

	if (!comm)
		return swcclInvalidArgument;
	if (!a)
		return swccl_fail(comm, swcclInvalidArgument, "%s: args is NULL", call_name[0]);
	op.f.type = a->type;
	op.f.fz = (struct swccl_fused){ .rows = a->rowsPerRank, .hidden = a->hidden,
					.n = a->ffn, .eps = a->eps, .gelu = a->gelu };
	op.f.p[FB_X] = a->x;
	op.f.p[FB_Y] = a->gathered;
	op.f.p[FB_GAMMA] = a->gamma;
	op.f.p[FB_BETA] = a->beta;
	op.f.p[FB_W] = a->w;
	op.f.p[FB_OUT] = a->out;
	return post(&op, a->fusion);
}

SWCCL_EXPORT swcclResult_t swcclGemmReduceScatterDropout(const swcclGemmRsDropoutArgs *a,
							 swcclComm_t comm, sdaaStream_t stream)
{
	struct swccl_op op = { .comm = comm, .coll = SWCCL_FUSED_RS, .stream = stream };

	if (!comm)
		return swcclInvalidArgument;
	if (!a)
		return swccl_fail(comm, swcclInvalidArgument, "%s: args is NULL", call_name[1]);
	op.f.type = a->type;
	op.f.fz = (struct swccl_fused){ .rows = a->rowsPerRank, .hidden = a->hidden, .n = a->k,
					.keep = a->keep, .seed = a->seed, .offset = a->offset };
	op.f.p[FB_X] = a->a;
	op.f.p[FB_W] = a->w;
	op.f.p[FB_OUT] = a->out;
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

swcclResult_t swccl_fused_check(swcclComm_t comm, enum swccl_coll coll,
				const struct swccl_fused_op *f, struct swccl_rank *rk)
{
	const char *fn = call_name[coll - SWCCL_FUSED_AG];
	const struct swccl_fused *z = &f->fz;
	size_t es = swccl_type_size(f->type), n = (size_t)comm->sh->nranks, m;
	bool ag = coll == SWCCL_FUSED_AG, ovf = false;
	struct fbuf fb[FB_N] = { { 0 } };
	swcclResult_t r;

	if (f->type != swcclFloat32 && f->type != swcclBfloat16)
		return swccl_fail(comm, swcclInvalidArgument, "%s: type %s (%d): the fused calls "
				  "take swcclFloat32 or swcclBfloat16", fn,
				  swccl_type_name(f->type), f->type);
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
		r = swccl_buffer(comm, f->p[i], fb[i].bytes, fb[i].name, &rk->fb[i]);
		if (r)
			return r;
		rk->fp[i] = f->p[i];
		if (rk->fb[i].va % fb[i].align)
			return swccl_fail(comm, swcclInvalidArgument, "%s: %s %p is not aligned to "
					  "its %zu-byte elements", fn, fb[i].name, f->p[i],
					  fb[i].align);
	}
	for (int i = 0; i < FB_N; i++)
		for (int j = 0; j < FB_N && fb[i].out; j++)
			if (j != i && fb[j].name && overlap(&rk->fb[i], &rk->fb[j]))
				return swccl_fail(comm, swcclInvalidArgument, "%s: %s [%p, +%zu) "
						  "overlaps %s [%p, +%zu)", fn, fb[i].name, f->p[i],
						  fb[i].bytes, fb[j].name, f->p[j], fb[j].bytes);
	return swcclSuccess;
}

bool swccl_fused_same(const struct swccl_call *c, const struct swccl_fused_op *f)
{
	const struct swccl_fused *a = &c->fz, *b = &f->fz;

	return a->rows == b->rows && a->hidden == b->hidden && a->n == b->n &&
	       !memcmp(&a->eps, &b->eps, sizeof(a->eps)) &&
	       !memcmp(&a->keep, &b->keep, sizeof(a->keep)) && a->gelu == b->gelu &&
	       a->seed == b->seed && a->offset == b->offset && a->fused == b->fused;
}
