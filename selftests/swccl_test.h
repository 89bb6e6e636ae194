/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swccl_test.h - helpers of the libswccl selftests: a communicator over
 * the core groups of card 0, buffers in each placement, inputs whose
 * reductions are exact in every type (so the expected result is known
 * bit for bit), and the reference results.  Include after sdaa_test.h.
 */
#ifndef SWCCL_TEST_H
#define SWCCL_TEST_H

#include <math.h>
#include <stdbool.h>

#include "swccl.h"

#define NR_MAX 8

struct cctx {
	int n;
	int dev[NR_MAX];
	swcclComm_t comm[NR_MAX];
	sdaaStream_t st[NR_MAX];
};

enum place { PL_LOCAL, PL_GLOBAL, PL_HOST };
static const char *const place_name[] = { "local", "global", "host" };

enum coll { AG, RS, AR, BC, RD, NCOLL };
static const char *const coll_name[] = { "allgather", "reducescatter", "allreduce",
					 "broadcast", "reduce" };

/* The core groups of device 0's card; 0, or why the test cannot run. */
static inline const char *cctx_devices(struct cctx *x)
{
	struct sdaaDeviceProp p;
	size_t fr, tot;

	if (!sdaa_test_can_submit(0))
		return "the card cannot run jobs (no DRM_SWAI_CAP_SUBMIT)";
	if (sdaaGetDeviceProperties(&p, 0))
		return "no device";
	x->n = 0;
	for (int cg = 0; cg < p.coreGroupsPerCard && x->n < NR_MAX; cg++) {
		int d = sdaa_test_cg_device(cg);

		if (d >= 0)
			x->dev[x->n++] = d;
	}
	if (x->n < 2)
		return "fewer than 2 core groups visible";
	/* The tests put buffers (up to 8 MB a rank) in both tiers. */
	if (sdaaSetDevice(x->dev[0]) || sdaaMemGetInfo(&fr, &tot) || tot < (64u << 20))
		return "needs 64 MiB of Local-HBM per core group";
	if (sdaaMemGetInfoCross(&fr, &tot) || tot < (128u << 20))
		return "needs 128 MiB of Global-HBM";
	return NULL;
}

static inline int cctx_open(struct cctx *x)
{
	if (swcclCommInitAll(x->comm, x->n, x->dev))
		return -1;
	for (int r = 0; r < x->n; r++)
		if (sdaaSetDevice(x->dev[r]) || sdaaStreamCreate(&x->st[r]))
			return -1;
	return 0;
}

static inline void cctx_close(struct cctx *x)
{
	for (int r = 0; r < x->n; r++) {
		sdaaSetDevice(x->dev[r]);
		sdaaStreamSynchronize(x->st[r]);
		sdaaStreamDestroy(x->st[r]);
		swcclCommDestroy(x->comm[r]);
	}
}

static inline int cctx_sync(struct cctx *x)
{
	for (int r = 0; r < x->n; r++)
		if (sdaaSetDevice(x->dev[r]) || sdaaStreamSynchronize(x->st[r]))
			return -1;
	return 0;
}

static inline void *balloc(struct cctx *x, int r, enum place pl, size_t n)
{
	void *p = NULL;

	sdaaSetDevice(x->dev[r]);
	if (!n)
		n = 8;
	if (pl == PL_LOCAL ? sdaaMalloc(&p, n) : pl == PL_GLOBAL ? sdaaMallocCross(&p, n) :
	    sdaaMallocHost(&p, n))
		return NULL;
	return p;
}

static inline void bfree(enum place pl, void *p)
{
	if (pl == PL_LOCAL)
		sdaaFree(p);
	else if (pl == PL_GLOBAL)
		sdaaFreeCross(p);
	else
		sdaaFreeHost(p);
}

static inline size_t tsize(swcclDataType_t t)
{
	return t == swcclUint8 ? 1 : t == swcclFloat16 || t == swcclBfloat16 ? 2 :
	       t == swcclInt32 || t == swcclFloat32 ? 4 : 8;
}

static inline bool tfloat(swcclDataType_t t)
{
	return t == swcclFloat16 || t == swcclBfloat16 || t == swcclFloat32 || t == swcclFloat64;
}

/* Store @v (exactly representable) as type @t. */
static inline void tput(swcclDataType_t t, void *p, double v)
{
	switch (t) {
	case swcclUint8: { uint8_t x = (uint8_t)(int64_t)v; memcpy(p, &x, 1); break; }
	case swcclInt32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
	case swcclInt64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
	case swcclFloat16: { _Float16 x = (_Float16)v; memcpy(p, &x, 2); break; }
	case swcclFloat32: { float x = (float)v; memcpy(p, &x, 4); break; }
	case swcclFloat64: memcpy(p, &v, 8); break;
	case swcclBfloat16: {
		float f = (float)v;
		uint32_t u;
		uint16_t h;

		memcpy(&u, &f, 4);
		h = (uint16_t)(u >> 16);
		memcpy(p, &h, 2);
		break;
	}
	default: break;
	}
}

/*
 * Rank r's element i: small integers, so that sums, products (at most
 * 3^N), max, min and averages (a multiple of 1/N) are exact in every type,
 * f16 and bf16 included, whatever the order -- the expected value is known.
 */
static inline double tval(swcclDataType_t t, int r, size_t i)
{
	static const double sv[] = { -2, -1, 1, 2, 3 }, uv[] = { 1, 2, 3, 4, 5 };
	size_t k = (i + 2 * (size_t)r + i / 7) % 5;

	return t == swcclUint8 ? uv[k] : sv[k];
}

/* The reduction of tval(t, 0..n-1, i) with @op, as the card computes it. */
static inline double tref(swcclDataType_t t, swcclRedOp_t op, int n, size_t i)
{
	double a = tval(t, 0, i);

	for (int r = 1; r < n; r++) {
		double b = tval(t, r, i);

		a = op == swcclProd ? a * b : op == swcclMax ? fmax(a, b) :
		    op == swcclMin ? fmin(a, b) : a + b;
		if (t == swcclUint8)
			a = fmod(a, 256);
	}
	if (op == swcclAvg)
		a = tfloat(t) ? a / n : trunc(a / n);
	return a;
}

#endif /* SWCCL_TEST_H */
