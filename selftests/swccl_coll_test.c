// SPDX-License-Identifier: GPL-2.0-only
/*
 * swccl_coll_test - libswccl's collectives give exact results: every
 * collective x algorithm x type x operator, in place and out of place, in
 * Local-HBM, Global-HBM and pinned host memory, odd counts, and the same
 * bits whatever the algorithm (rank-order reduction).
 */
#include <pthread.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"
#include "swccl_test.h"

#ifdef SWAI_OP_DIV	/* the platform has U8 and DIV (issue 5) */
#define HAVE_U8_DIV 1
#else
#define HAVE_U8_DIV 0
#endif

static const swcclDataType_t types[] = { swcclFloat32, swcclFloat16, swcclBfloat16,
					 swcclFloat64, swcclInt32, swcclInt64, swcclUint8 };
static const swcclAlgo_t algos[] = { swcclAlgoRing, swcclAlgoCsc, swcclAlgoCsc1 };

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

static swcclResult_t call(struct cctx *x, const struct run *u, int r, void *s, void *d)
{
	swcclComm_t c = x->comm[r];
	sdaaStream_t st = x->st[r];

	switch (u->coll) {
	case AG: return swcclAllGather(s, d, u->count, u->t, c, st);
	case RS: return swcclReduceScatter(s, d, u->count, u->t, u->op, c, st);
	case AR: return swcclAllReduce(s, d, u->count, u->t, u->op, c, st);
	case BC: return swcclBroadcast(r == u->root || u->inplace ? s : NULL, d, u->count, u->t,
				       u->root, c, st);
	default: return swcclReduce(s, r == u->root || u->inplace ? d : NULL, u->count, u->t,
				    u->op, u->root, c, st);
	}
}

/*
 * One collective; the number of wrong elements, or -1 if the library
 * refused (*res says why).  @out (rank 0's, or the root's, result) for
 * comparing algorithms.
 */
static long run_one(struct cctx *x, const struct run *u, swcclResult_t *res, uint8_t *out)
{
	int n = x->n, want = u->coll == RD ? u->root : 0;
	size_t es = tsize(u->t), sb = u->count * es, rb = sb, ne;
	void *send[NR_MAX], *recv[NR_MAX], *base[NR_MAX], *rbase[NR_MAX];
	uint8_t *hs[NR_MAX], *hr;
	long wrong = 0;

	if (u->coll == AG)
		rb *= (size_t)n;
	if (u->coll == RS)
		sb *= (size_t)n;
	hr = malloc(rb + 1);
	for (int r = 0; r < n; r++) {
		hs[r] = malloc(sb + 1);
		ne = sb / es;
		for (size_t i = 0; i < ne; i++) {
			if (u->coll == AG || u->coll == BC)
				continue;
			if (u->random) {
				uint64_t seed = (uint64_t)r * 1000003 + i;
				float f = (float)(splitmix64(&seed) >> 11) / (float)(1ULL << 53) * 3.0f;

				memcpy(hs[r] + i * es, &f, 4);
			} else {
				tput(u->t, hs[r] + i * es, tval(u->t, r, i));
			}
		}
		if (u->coll == AG || u->coll == BC)
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

/* Run @u with each algorithm; all must be right and bitwise the same. */
static void all_algos(struct __test_metadata *_metadata, struct cctx *x, struct run u)
{
	size_t bytes = u.count * tsize(u.t) * (size_t)x->n + 1;
	uint8_t *ref = malloc(bytes), *got = malloc(bytes);
	bool have = false;

	for (int a = 0; a < 3; a++) {
		swcclResult_t res = swcclSuccess;
		long w;

		u.algo = algos[a];
		w = run_one(x, &u, &res, have ? got : ref);
		if (w == -1 && res == swcclInvalidUsage && u.algo == swcclAlgoRing &&
		    u.pl == PL_LOCAL)
			continue;	/* RING into Local-HBM needs peer access */
		ASSERT_EQ(0, w) {
			TH_LOG("%s %s %s %s count %zu %s: %ld wrong (%s: %s)", coll_name[u.coll],
			       swcclAlgoName(u.algo), swcclGetErrorString(res),
			       place_name[u.pl], u.count, u.inplace ? "in-place" : "out-of-place",
			       w, swcclGetErrorString(res), swcclGetLastError(x->comm[0]));
		}
		if (have) {
			size_t rb = u.count * tsize(u.t) * (u.coll == AG ? (size_t)x->n : 1);

			EXPECT_EQ(-1, sdaa_test_diff(ref, got, rb)) {
				TH_LOG("%s %s differs bitwise from the first algorithm",
				       coll_name[u.coll], swcclAlgoName(u.algo));
			}
		}
		have = true;
	}
	free(ref);
	free(got);
}

FIXTURE(coll) {
	struct cctx x;
};

FIXTURE_SETUP(coll)
{
	const char *why = cctx_devices(&self->x);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, cctx_open(&self->x));
}

FIXTURE_TEARDOWN(coll)
{
	if (self->x.comm[0])
		cctx_close(&self->x);
}

/* Every type and operator, count 7, out of place in Local-HBM, in place in Global-HBM. */
TEST_F_TIMEOUT(coll, types_ops_all_algorithms, 600)
{
	for (int c = 0; c < NCOLL; c++)
		for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++)
			for (int op = 0; op < swcclNumOps; op++) {
				bool red = c == RS || c == AR || c == RD;

				if (!red && op)
					break;
				if (!HAVE_U8_DIV && red &&
				    (types[ti] == swcclUint8 || op == swcclAvg))
					continue;
				for (int ip = 0; ip < 2; ip++) {
					/* in place: the integer and float paths once each */
					if (ip && types[ti] != swcclFloat32 &&
					    types[ti] != swcclInt32 && types[ti] != swcclUint8)
						continue;
					all_algos(_metadata, &self->x, (struct run){
						.coll = c, .t = types[ti], .op = op,
						.root = c >= BC ? self->x.n - 1 - ip : 0,
						.count = 7, .inplace = ip,
						.pl = ip ? PL_GLOBAL : PL_LOCAL });
				}
			}
}

/* Counts 0, 1 and large odd ones: shard edges, LDM chunking, empty shards. */
TEST_F_TIMEOUT(coll, odd_counts, 600)
{
	static const size_t counts[] = { 0, 1, 3, 65539 };

	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
		for (int c = 0; c < NCOLL; c++)
			for (int ip = 0; ip < 2; ip++)
				all_algos(_metadata, &self->x, (struct run){
					.coll = c, .t = swcclFloat32, .op = swcclSum,
					.root = 1, .count = counts[k], .inplace = ip,
					.pl = ip ? PL_GLOBAL : PL_LOCAL });
	/* A million-odd elements once, AllReduce (4 MB a rank). */
	all_algos(_metadata, &self->x, (struct run){ .coll = AR, .t = swcclFloat32,
		  .op = swcclMax, .count = 1000003, .pl = PL_GLOBAL, .inplace = true });
}

/* Global-HBM out of place and pinned host memory. */
TEST_F_TIMEOUT(coll, placements, 300)
{
	for (int c = 0; c < NCOLL; c++) {
		all_algos(_metadata, &self->x, (struct run){ .coll = c, .t = swcclInt32,
			  .op = swcclMin, .count = 1001, .pl = PL_GLOBAL });
		all_algos(_metadata, &self->x, (struct run){ .coll = c, .t = swcclFloat64,
			  .op = swcclProd, .count = 333, .pl = PL_HOST, .inplace = c & 1 });
		all_algos(_metadata, &self->x, (struct run){ .coll = c, .t = swcclBfloat16,
			  .op = swcclSum, .count = 4099, .pl = PL_LOCAL, .inplace = true });
	}
}

/*
 * Random f32 values (sums round): every algorithm gives the same bits, and
 * they are the host's ((x0 + x1) + x2) + x3 -- rank order.
 */
TEST_F_TIMEOUT(coll, rank_order_bitwise, 300)
{
	for (int c = RS; c <= AR; c++) {
		struct run u = { .coll = c, .t = swcclFloat32, .op = swcclSum, .count = 5003,
				 .pl = PL_GLOBAL, .random = true };
		size_t tot = u.count * (c == RS ? (size_t)self->x.n : 1);
		float *got = malloc(tot * 4 + 4);
		swcclResult_t res;

		all_algos(_metadata, &self->x, u);
		u.algo = swcclAlgoCsc1;
		ASSERT_EQ(0, run_one(&self->x, &u, &res, (uint8_t *)got));
		for (size_t i = 0; i < u.count; i++) {
			float a = 0;

			for (int r = 0; r < self->x.n; r++) {
				uint64_t seed = (uint64_t)r * 1000003 + i;
				float f = (float)(splitmix64(&seed) >> 11) / (float)(1ULL << 53) * 3.0f;

				a = r ? a + f : f;
			}
			ASSERT_EQ(0, memcmp(&a, &got[i], 4)) {
				TH_LOG("%s element %zu: %a, rank order gives %a", coll_name[c], i,
				       (double)got[i], (double)a);
			}
		}
		free(got);
	}
}

TEST_HARNESS_MAIN
