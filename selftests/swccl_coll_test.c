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
 * AllToAll among the core groups of one card (DIRECT: one COPY a peer; in
 * place through the comm's scratch): every type's bytes, counts 0 to odd
 * large ones, Global, Local and host memory, chosen or forced.
 */
TEST_F_TIMEOUT(coll, alltoall_on_one_card, 300)
{
	static const size_t counts[] = { 0, 1, 7, 65539 };
	static const swcclAlgo_t how[] = { swcclAlgoAuto, swcclAlgoDirect };

	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
		for (int pl = PL_LOCAL; pl <= PL_HOST; pl++)
			for (int ip = 0; ip < 2; ip++) {
				struct run u = { .coll = A2A, .t = k & 1 ? swcclBfloat16 :
						 swcclInt32, .count = counts[k], .pl = pl,
						 .inplace = ip, .algo = how[ip] };
				swcclResult_t res = swcclSuccess;
				long w = run_one(&self->x, &u, &res, NULL);

				if (w == -1 && res == swcclInvalidUsage && pl == PL_LOCAL &&
				    strstr(swcclGetLastError(self->x.comm[0]), "peer access"))
					continue;	/* into Local-HBM needs peer access */
				EXPECT_EQ(0, w) {
					TH_LOG("alltoall %s count %zu %s: %ld wrong (%s)",
					       place_name[pl], counts[k], ip ? "in place" : "out",
					       w, swcclGetLastError(self->x.comm[0]));
				}
			}
}

/*
 * AllToAllv, a ring of Send/Recv, and several Sends and Recvs between one
 * pair in a group, among the core groups of one card.
 */
TEST_F(coll, alltoallv_on_one_card)
{
	struct vx *v = malloc(sizeof(*v));

	ASSERT_NE(NULL, v);
	ASSERT_EQ(0, vx_open(&self->x, v, PL_GLOBAL));
	EXPECT_EQ(0, vx_alltoallv(&self->x, v)) TH_LOG("%s", swcclGetLastError(self->x.comm[0]));
	EXPECT_EQ(0, vx_ring(&self->x, v)) TH_LOG("%s", swcclGetLastError(self->x.comm[0]));
	vx_close(&self->x, v);
	ASSERT_EQ(0, vx_open(&self->x, v, PL_GLOBAL));
	EXPECT_EQ(0, vx_joined(&self->x, v, false)) {
		TH_LOG("%s", swcclGetLastError(self->x.comm[0]));
	}
	vx_close(&self->x, v);
	free(v);
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
