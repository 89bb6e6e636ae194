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

#define NR_MAX 32

struct cctx {
	int n;
	int dev[NR_MAX];
	swcclComm_t comm[NR_MAX];
	sdaaStream_t st[NR_MAX];
};

enum place { PL_LOCAL, PL_GLOBAL, PL_HOST };
static const char *const place_name[] = { "local", "global", "host" };

/* The sweeps go to NCOLL; AllToAll runs between cards only, so apart. */
enum coll { AG, RS, AR, BC, RD, NCOLL, A2A = NCOLL };
static const char *const coll_name[] = { "allgather", "reducescatter", "allreduce",
					 "broadcast", "reduce", "alltoall" };

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

/* One collective as the tests run it (swccl_coll_test, swccl_xcard_test). */
struct run {
	enum coll coll;
	swcclAlgo_t algo;
	swcclDataType_t t;
	swcclRedOp_t op;
	int root;
	size_t count;
	enum place pl;
	bool inplace;
	bool random;		/* random f32 inputs: compare algorithms, not values */
};

static inline swcclResult_t call(struct cctx *x, const struct run *u, int r, void *s, void *d)
{
	swcclComm_t c = x->comm[r];
	sdaaStream_t st = x->st[r];

	switch (u->coll) {
	case AG: return swcclAllGather(s, d, u->count, u->t, c, st);
	case RS: return swcclReduceScatter(s, d, u->count, u->t, u->op, c, st);
	case AR: return swcclAllReduce(s, d, u->count, u->t, u->op, c, st);
	case BC: return swcclBroadcast(r == u->root || u->inplace ? s : NULL, d, u->count, u->t,
				       u->root, c, st);
	case A2A: return swcclAllToAll(s, d, u->count, u->t, c, st);
	default: return swcclReduce(s, r == u->root || u->inplace ? d : NULL, u->count, u->t,
				    u->op, u->root, c, st);
	}
}

/*
 * One collective; the number of wrong elements, or -1 if the library
 * refused (*res says why).  @out (rank 0's, or the root's, result) for
 * comparing algorithms.
 */
static inline long run_one(struct cctx *x, const struct run *u, swcclResult_t *res, uint8_t *out)
{
	int n = x->n, want = u->coll == RD ? u->root : 0;
	size_t es = tsize(u->t), sb = u->count * es, rb = sb, ne;
	void *send[NR_MAX], *recv[NR_MAX], *base[NR_MAX], *rbase[NR_MAX];
	uint8_t *hs[NR_MAX], *hr;
	long wrong = 0;

	if (u->coll == AG || u->coll == A2A)
		rb *= (size_t)n;
	if (u->coll == RS || u->coll == A2A)
		sb *= (size_t)n;
	hr = malloc(rb + 1);
	for (int r = 0; r < n; r++) {
		hs[r] = malloc(sb + 1);
		ne = sb / es;
		for (size_t i = 0; i < ne; i++) {
			if (u->coll == AG || u->coll == BC || u->coll == A2A)
				continue;
			if (u->random) {
				uint64_t seed = (uint64_t)r * 1000003 + i;
				float f = (float)(splitmix64(&seed) >> 11) / (float)(1ULL << 53) * 3.0f;

				memcpy(hs[r] + i * es, &f, 4);
			} else {
				tput(u->t, hs[r] + i * es, tval(u->t, r, i));
			}
		}
		if (u->coll == AG || u->coll == BC || u->coll == A2A)
			sdaa_test_fill(hs[r], sb, 77 + (uint64_t)r);
		if (u->inplace) {
			base[r] = balloc(x, r, u->pl, rb > sb ? rb : sb);
			rbase[r] = NULL;
			send[r] = recv[r] = base[r];
			if (u->coll == AG)
				send[r] = (uint8_t *)base[r] + (size_t)r * sb;
			if (u->coll == RS)
				recv[r] = (uint8_t *)base[r] + (size_t)r * rb;
			memset(hr, 0xa5, rb);
			if (u->coll != RS)
				sdaaMemcpy(base[r], hr, rb, sdaaMemcpyDefault);
		} else {
			base[r] = send[r] = balloc(x, r, u->pl, sb);
			rbase[r] = recv[r] = balloc(x, r, u->pl, rb);
			memset(hr, 0xa5, rb);
			if (recv[r])
				sdaaMemcpy(recv[r], hr, rb, sdaaMemcpyDefault);
		}
		if (!send[r] || !recv[r])
			return -2;
		if (sb && (u->coll != BC || r == u->root || !u->inplace))
			sdaaMemcpy(send[r], hs[r], sb, sdaaMemcpyDefault);
	}
	for (int r = 0; r < n; r++)
		swcclCommSetAlgo(x->comm[r], u->algo);
	swcclGroupStart();
	for (int r = 0; r < n; r++)
		call(x, u, r, send[r], recv[r]);
	*res = swcclGroupEnd();
	if (*res) {
		wrong = -1;
		goto out;
	}
	if (cctx_sync(x)) {
		wrong = -3;
		goto out;
	}
	for (int r = 0; r < n; r++) {
		size_t cnt = rb / es;

		if (u->coll == RD && r != u->root)
			continue;
		sdaaMemcpy(hr, recv[r], rb, sdaaMemcpyDefault);
		if (r == want && out)
			memcpy(out, hr, rb);
		if (u->random)
			continue;
		for (size_t i = 0; i < cnt; i++) {
			uint8_t e[8];
			const uint8_t *exp = e;

			if (u->coll == AG)
				exp = hs[i / u->count] + (i % u->count) * es;
			else if (u->coll == A2A)	/* block i / count is rank q's block r */
				exp = hs[i / u->count] + ((size_t)r * u->count + i % u->count) * es;
			else if (u->coll == BC)
				exp = hs[u->root] + i * es;
			else
				tput(u->t, e, tref(u->t, u->op, n,
						   u->coll == RS ? (size_t)r * u->count + i : i));
			if (memcmp(hr + i * es, exp, es)) {
				if (!wrong)
					fprintf(stderr, "# %s %s %s %s: rank %d element %zu differs\n",
						coll_name[u->coll], swcclAlgoName(u->algo),
						place_name[u->pl], u->inplace ? "in-place" : "out",
						r, i);
				wrong++;
			}
		}
	}
out:
	for (int r = 0; r < n; r++) {
		bfree(u->pl, base[r]);
		if (rbase[r])
			bfree(u->pl, rbase[r]);
		free(hs[r]);
	}
	free(hr);
	return wrong;
}

/*
 * An AllToAllv of int32 blocks and a ring of Send/Recv over @x's ranks
 * (swccl_xcard_test between cards, swccl_coll_test on one card): block
 * y -> z holds vcount(y, z) elements (some empty, the rest uneven) with a
 * gap after each, so that nothing may land between.
 */
struct vx {
	size_t sc[NR_MAX][NR_MAX], sd[NR_MAX][NR_MAX], rc[NR_MAX][NR_MAX], rd[NR_MAX][NR_MAX];
	size_t tot;			/* elements of every buffer */
	void *s[NR_MAX], *d[NR_MAX];
	enum place pl;
	swcclResult_t res;		/* the last group's */
};

static inline size_t vcount(int y, int z)
{
	return (size_t)((y * 5 + z * 3) % 4) * 37;
}

static inline int32_t vval(int r, size_t i)
{
	return (int32_t)(r * 100000 + (int)i);
}

/* Lay out @v on @x's ranks in @pl, inputs filled, outputs 0xa5: 0, or -1 (no memory). */
static inline int vx_open(struct cctx *x, struct vx *v, enum place pl)
{
	int32_t *h;

	memset(v, 0, sizeof(*v));
	v->tot = (size_t)NR_MAX * 120;
	v->pl = pl;
	h = malloc(v->tot * 4);
	if (!h)
		return -1;
	for (int r = 0; r < x->n; r++) {
		size_t so = 0, ro = 0;

		for (int q = 0; q < x->n; q++) {
			v->sc[r][q] = vcount(r, q);
			v->rc[r][q] = vcount(q, r);
			v->sd[r][q] = so;
			v->rd[r][q] = ro;
			so += v->sc[r][q] + 1;
			ro += v->rc[r][q] + 1;
		}
		v->s[r] = balloc(x, r, pl, v->tot * 4);
		v->d[r] = balloc(x, r, pl, v->tot * 4);
		if (!v->s[r] || !v->d[r])
			break;
		for (size_t i = 0; i < v->tot; i++)
			h[i] = vval(r, i);
		sdaaMemcpy(v->s[r], h, v->tot * 4, sdaaMemcpyDefault);
		memset(h, 0xa5, v->tot * 4);
		sdaaMemcpy(v->d[r], h, v->tot * 4, sdaaMemcpyDefault);
	}
	free(h);
	for (int r = 0; r < x->n; r++)
		if (!v->s[r] || !v->d[r])
			return -1;
	return 0;
}

static inline void vx_close(struct cctx *x, struct vx *v)
{
	for (int r = 0; r < x->n; r++) {
		bfree(v->pl, v->s[r]);
		bfree(v->pl, v->d[r]);
	}
}

/* The AllToAllv: its wrong elements (a gap overwritten counts), or -1 if refused. */
static inline long vx_alltoallv(struct cctx *x, struct vx *v)
{
	int32_t *h = malloc(v->tot * 4);
	long wrong = 0;

	swcclGroupStart();
	for (int r = 0; r < x->n; r++)
		swcclAllToAllv(v->s[r], v->sc[r], v->sd[r], v->d[r], v->rc[r], v->rd[r],
			       swcclInt32, x->comm[r], x->st[r]);
	v->res = swcclGroupEnd();
	if (!h || v->res || cctx_sync(x)) {
		free(h);
		return -1;
	}
	for (int r = 0; r < x->n; r++) {
		sdaaMemcpy(h, v->d[r], v->tot * 4, sdaaMemcpyDefault);
		for (int q = 0; q < x->n; q++) {
			for (size_t k = 0; k < v->rc[r][q]; k++)
				wrong += h[v->rd[r][q] + k] != vval(q, v->sd[q][r] + k);
			wrong += h[v->rd[r][q] + v->rc[r][q]] != (int32_t)0xa5a5a5a5;
		}
	}
	free(h);
	return wrong;
}

/* A ring of Send/Recv in one group, 1001 elements to r + 1: wrong elements, or -1. */
static inline long vx_ring(struct cctx *x, struct vx *v)
{
	int n = x->n;
	int32_t h[1001];
	long wrong = 0;

	swcclGroupStart();
	for (int r = 0; r < n; r++) {
		swcclSend(v->s[r], 1001, swcclInt32, (r + 1) % n, x->comm[r], x->st[r]);
		swcclRecv(v->d[r], 1001, swcclInt32, (r + n - 1) % n, x->comm[r], x->st[r]);
	}
	v->res = swcclGroupEnd();
	if (v->res || cctx_sync(x))
		return -1;
	for (int r = 0; r < n; r++) {
		sdaaMemcpy(h, v->d[r], sizeof(h), sdaaMemcpyDefault);
		for (size_t i = 0; i < 1001; i++)
			wrong += h[i] != vval((r + n - 1) % n, i);
	}
	return wrong;
}

/*
 * Several Sends and Recvs between one pair in one group, as NCCL pairs
 * them (the k-th Send to a peer meets its k-th Recv): rank 0 sends rank 1
 * blocks of 8, 13 and 2 elements, rank 1 sends rank 0 two of 5 and 21,
 * each taken into a place of its own; every other rank a Send of 0.
 * @swap: rank 1 takes its first two as 13 and 8 (refused).  Wrong
 * elements (a gap written counts), or -1 (v->res).
 */
static inline long vx_joined(struct cctx *x, struct vx *v, bool swap)
{
	static const size_t a[] = { 8, 13, 2 }, afrom[] = { 0, 100, 200 }, ato[] = { 10, 60, 90 };
	static const size_t b[] = { 5, 21 }, bfrom[] = { 7, 300 }, bto[] = { 0, 50 };
	int32_t h[400];
	long wrong = 0;

	swcclGroupStart();
	for (int r = 0; r < x->n; r++) {
		int32_t *s = v->s[r], *d = v->d[r];

		for (int k = 0; r == 0 && k < 3; k++) {
			swcclSend(s + afrom[k], a[k], swcclInt32, 1, x->comm[r], x->st[r]);
			if (k < 2)
				swcclRecv(d + bto[k], b[k], swcclInt32, 1, x->comm[r], x->st[r]);
		}
		for (int k = 0; r == 1 && k < 3; k++) {
			swcclRecv(d + ato[k], swap && k < 2 ? a[1 - k] : a[k], swcclInt32, 0,
				  x->comm[r], x->st[r]);
			if (k < 2)
				swcclSend(s + bfrom[k], b[k], swcclInt32, 0, x->comm[r], x->st[r]);
		}
		if (r > 1)
			swcclSend(s, 0, swcclInt32, 0, x->comm[r], x->st[r]);
	}
	v->res = swcclGroupEnd();
	if (v->res || cctx_sync(x))
		return -1;
	for (int r = 0; r < 2; r++) {
		sdaaMemcpy(h, v->d[r], sizeof(h), sdaaMemcpyDefault);
		for (int k = 0; k < (r ? 3 : 2); k++) {
			size_t to = r ? ato[k] : bto[k], n = r ? a[k] : b[k];
			size_t from = r ? afrom[k] : bfrom[k];

			for (size_t i = 0; i < n; i++)
				wrong += h[to + i] != vval(1 - r, from + i);
			wrong += h[to + n] != (int32_t)0xa5a5a5a5;
		}
	}
	return wrong;
}

#endif /* SWCCL_TEST_H */
