// SPDX-License-Identifier: GPL-2.0-only
/*
 * swccl_xcard_test - libswccl between cards of one fabric: communicators of
 * one rank per card (core group 0 of cards 0..N-1) for N = 2 .. the cards
 * there are; every collective x algorithm (RING, MESH1, MESH2, HD, NHR, RB
 * and the cost model's choice) with an odd count, exact results; a type
 * and operator sweep, in place and out of place, in Global- and Local-HBM;
 * the same bits when a call is repeated (a reduction's order is its
 * schedule's); and what a communicator across cards refuses.  Skips
 * without two cards on one fabric.
 */
#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"
#include "swccl_test.h"

static const swcclAlgo_t xalgos[] = { swcclAlgoAuto, swcclAlgoRing, swcclAlgoMesh1,
				      swcclAlgoMesh2, swcclAlgoHd, swcclAlgoNhr, swcclAlgoRb };

/* @want if the card of @dev has that tier (16 MiB at least), else the other. */
static enum place pick(int dev, enum place want)
{
	size_t fr, tot = 0;

	sdaaSetDevice(dev);
	if (want == PL_GLOBAL ? sdaaMemGetInfoCross(&fr, &tot) : sdaaMemGetInfo(&fr, &tot))
		tot = 0;
	sdaaGetLastError();
	if (tot >= (16u << 20))
		return want;
	return want == PL_GLOBAL ? PL_LOCAL : PL_GLOBAL;
}

/* Core group 0 (or the first visible) of each card; how many cards. */
static int card_devices(int *dev, int max)
{
	struct sdaaDeviceProp p;
	int card[64], n = 0, nd;

	if (sdaaGetDeviceCount(&nd))
		return 0;
	for (int d = 0; d < nd && n < max; d++) {
		bool seen = false;

		if (sdaaGetDeviceProperties(&p, d))
			return 0;
		for (int k = 0; k < n; k++)
			seen |= card[k] == p.card;
		if (!seen) {
			card[n] = p.card;
			dev[n++] = d;
		}
	}
	return n;
}

/* A comm of the first @n cards, or a reason to skip. */
static const char *open_cards(struct cctx *x, int n)
{
	int dev[NR_MAX], can = 0;

	if (!sdaa_test_can_submit(0))
		return "the card cannot run jobs";
	if (card_devices(dev, NR_MAX) < n)
		return "fewer cards than the test wants";
	if (sdaaDeviceCanAccessPeer(&can, dev[0], dev[1]) || !can)
		return "the cards are not on one fabric";
	x->n = n;
	memcpy(x->dev, dev, sizeof(int) * (size_t)n);
	return cctx_open(x) ? "swcclCommInitAll failed" : NULL;
}

/* Every collective x algorithm on @n cards, exact. */
static void sweep(struct __test_metadata *_metadata, int n)
{
	struct cctx x;
	const char *why = open_cards(&x, n);

	if (why)
		SKIP(return, "%s", why);
	for (int coll = 0; coll < NCOLL; coll++)
		for (size_t a = 0; a < sizeof(xalgos) / sizeof(xalgos[0]); a++) {
			struct run u = { .coll = coll, .algo = xalgos[a], .t = swcclInt32,
					 .op = swcclSum, .root = n - 1, .count = 1001,
					 .pl = pick(x.dev[0], PL_GLOBAL) };
			swcclResult_t res = swcclSuccess;
			struct swcclCallInfo info;
			long w = run_one(&x, &u, &res, NULL);

			/*
			 * Not every generator has every collective, or every N (HD's
			 * AllGather: powers of two; Documentation/cluster.md §4).
			 */
			if (w == -1 && res == swcclInvalidUsage) {
				TH_LOG("%d cards: %s %s: n/a (%s)", n, coll_name[coll],
				       swcclAlgoName(xalgos[a]), swcclGetLastError(x.comm[0]));
				continue;
			}
			EXPECT_EQ(0, w) {
				TH_LOG("%d cards: %s %s: %ld wrong (%s: %s)", n, coll_name[coll],
				       swcclAlgoName(xalgos[a]), w, swcclGetErrorString(res),
				       swcclGetLastError(x.comm[0]));
			}
			if (!w && !swcclCommLastCallInfo(x.comm[0], &info) && coll == AR)
				TH_LOG("%d cards: allreduce of 1001 int32 by %s (%s): predicted "
				       "%.1f us", n, swcclAlgoName(info.algo),
				       swcclAlgoName(xalgos[a]), info.predicted_us);
		}
	cctx_close(&x);
}

TEST(cards_2) { sweep(_metadata, 2); }
TEST(cards_3) { sweep(_metadata, 3); }
TEST(cards_4) { sweep(_metadata, 4); }
TEST(cards_5) { sweep(_metadata, 5); }
TEST(cards_6) { sweep(_metadata, 6); }
TEST(cards_7) { sweep(_metadata, 7); }
TEST(cards_8) { sweep(_metadata, 8); }

/*
 * AllToAll (issue 14) on 2 .. every card: DIRECT, PLANE and the cost
 * model's choice, odd counts, every type's width, in place and not, in
 * Global- and Local-HBM; PLANE's grouping is the fabric topology's nodes
 * (one node on mesh8: it is DIRECT's exchange in one round), refused with
 * the reason where they hold unequal shares of the cards.  Every (x, y)
 * block is checked where it lands.
 */
TEST(alltoall)
{
	static const swcclAlgo_t a2a[] = { swcclAlgoAuto, swcclAlgoDirect, swcclAlgoPlane };
	static const swcclDataType_t ts[] = { swcclInt32, swcclUint8, swcclFloat64,
					      swcclBfloat16 };
	int dev[NR_MAX], most = card_devices(dev, NR_MAX);

	for (int n = 2; n <= most; n++) {
		struct cctx x;
		const char *why = open_cards(&x, n);

		if (why)
			SKIP(return, "%s", why);
		for (size_t a = 0; a < sizeof(a2a) / sizeof(a2a[0]); a++)
			for (size_t k = 0; k < sizeof(ts) / sizeof(ts[0]); k++) {
				struct run u = { .coll = A2A, .algo = a2a[a], .t = ts[k],
						 .count = 333 + k,
						 .pl = pick(x.dev[0], k & 1 ? PL_LOCAL : PL_GLOBAL),
						 .inplace = (k + a) & 1 };
				swcclResult_t res = swcclSuccess;
				long w = run_one(&x, &u, &res, NULL);

				/* The topology's nodes may hold unequal shares of n cards. */
				if (w == -1 && a2a[a] == swcclAlgoPlane && res == swcclInvalidUsage &&
				    strstr(swcclGetLastError(x.comm[0]), "same number of ranks on "
					   "every node")) {
					TH_LOG("%d cards: PLANE n/a (%s)", n,
					       swcclGetLastError(x.comm[0]));
					continue;
				}
				EXPECT_EQ(0, w) {
					TH_LOG("%d cards: alltoall %s %s %s: %ld wrong (%s)", n,
					       swcclAlgoName(a2a[a]), u.inplace ? "in place" : "out",
					       place_name[u.pl], w, swcclGetLastError(x.comm[0]));
				}
			}
		cctx_close(&x);
	}
}

/*
 * AllToAllv (blocks of 0 .. 111 int32, a gap after each, so nothing may
 * land between) and a ring of Send/Recv in a group, on every card there
 * is, each block checked (swccl_test.h), and several Sends and Recvs
 * between one pair in a group; then what they refuse: counts whose two
 * ends differ, in all or one by one, a block over another.
 */
TEST(alltoallv_and_sendrecv)
{
	int dev[NR_MAX], n = card_devices(dev, NR_MAX);
	struct vx *v = malloc(sizeof(*v));
	struct cctx x;
	const char *why = open_cards(&x, n < 2 ? 2 : n);

	if (why) {
		free(v);
		SKIP(return, "%s", why);
	}
	ASSERT_NE(NULL, v);
	ASSERT_EQ(0, vx_open(&x, v, pick(x.dev[0], PL_GLOBAL)));
	EXPECT_EQ(0, vx_alltoallv(&x, v)) TH_LOG("%d cards: %s", n, swcclGetLastError(x.comm[0]));
	EXPECT_EQ(0, vx_ring(&x, v)) TH_LOG("%d cards: %s", n, swcclGetLastError(x.comm[0]));
	/* Refused, saying why: two ends that disagree on a block's size ... */
	v->rc[1][0]++;
	EXPECT_EQ(-1, vx_alltoallv(&x, v));
	EXPECT_EQ(swcclInvalidUsage, v->res);
	EXPECT_NE(NULL, strstr(swcclGetLastError(x.comm[0]), "which receives")) {
		TH_LOG("%s", swcclGetLastError(x.comm[0]));
	}
	v->rc[1][0]--;
	/* Several Sends and Recvs with one peer in a group, each where it goes ... */
	vx_close(&x, v);
	ASSERT_EQ(0, vx_open(&x, v, pick(x.dev[0], PL_GLOBAL)));
	EXPECT_EQ(0, vx_joined(&x, v, false)) TH_LOG("%s", swcclGetLastError(x.comm[0]));
	/* ... but refused when their counts differ one by one (8, 13 taken as 13, 8) ... */
	EXPECT_EQ(-1, vx_joined(&x, v, true));
	EXPECT_EQ(swcclInvalidUsage, v->res);
	EXPECT_NE(NULL, strstr(swcclGetLastError(x.comm[0]), "differ one by one")) {
		TH_LOG("%s", swcclGetLastError(x.comm[0]));
	}
	/* ... and a block over another (in place) */
	EXPECT_EQ(swcclInvalidArgument, swcclAllToAllv(v->s[0], v->sc[0], v->sd[0], v->s[0],
						       v->rc[0], v->rd[0], swcclInt32, x.comm[0],
						       x.st[0]));
	EXPECT_EQ(swcclInvalidArgument, swcclSend(v->s[0], 8, swcclInt32, n, x.comm[0], x.st[0]));
	vx_close(&x, v);
	free(v);
	cctx_close(&x);
}

/* Whether the fabric joins every pair of the @n devices' cards. */
static bool fabric_full(const int *dev, int n)
{
	int can = 0;

	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++)
			if (a != b && (sdaaDeviceCanAccessPeer(&can, dev[a], dev[b]) || !can))
				return false;
	return true;
}

/*
 * A fabric that joins only some pairs (tools/vm/swai-vm --topology ring8):
 * the comm forms, the algorithms whose schedules need a missing link are
 * refused naming it, and the choice falls on one that runs, exactly.
 */
TEST(partial_fabric)
{
	int dev[NR_MAX], n = card_devices(dev, NR_MAX);
	struct cctx x = { .n = n };

	if (!sdaa_test_can_submit(0) || n < 3)
		SKIP(return, "fewer than 3 cards that can run jobs");
	if (fabric_full(dev, n))
		SKIP(return, "the fabric joins every pair of cards (try --topology ring8)");
	memcpy(x.dev, dev, sizeof(int) * (size_t)n);
	ASSERT_EQ(0, cctx_open(&x)) TH_LOG("%s", swcclGetLastError(NULL));
	for (int coll = 0; coll < NCOLL; coll++) {
		int ran = 0;

		for (size_t a = 0; a < sizeof(xalgos) / sizeof(xalgos[0]); a++) {
			struct run u = { .coll = coll, .algo = xalgos[a], .t = swcclInt32,
					 .op = swcclSum, .root = 1, .count = 999,
					 .pl = pick(x.dev[0], PL_LOCAL) };
			swcclResult_t res = swcclSuccess;
			long w = run_one(&x, &u, &res, NULL);

			if (w == -1 && res == swcclInvalidUsage) {
				TH_LOG("%s %s: n/a (%s)", coll_name[coll], swcclAlgoName(xalgos[a]),
				       swcclGetLastError(x.comm[0]));
				if (xalgos[a] == swcclAlgoMesh1)
					EXPECT_NE(NULL, strstr(swcclGetLastError(x.comm[0]),
							       "does not join"));
				continue;
			}
			EXPECT_EQ(0, w) {
				TH_LOG("%s %s: %ld wrong (%s: %s)", coll_name[coll],
				       swcclAlgoName(xalgos[a]), w, swcclGetErrorString(res),
				       swcclGetLastError(x.comm[0]));
			}
			ran += !w;
		}
		/* AUTO and the ring itself, at least, on a ring of all the cards */
		EXPECT_LE(2, ran) TH_LOG("%s: %d algorithms ran", coll_name[coll], ran);
	}
	cctx_close(&x);
}

/* Device of core group @cg of the @k-th card, or -1. */
static int card_cg_device(int k, int cg)
{
	int dev[NR_MAX], nd;
	struct sdaaDeviceProp p, q;

	if (card_devices(dev, NR_MAX) <= k || sdaaGetDeviceProperties(&p, dev[k]) ||
	    sdaaGetDeviceCount(&nd))
		return -1;
	for (int d = 0; d < nd; d++)
		if (!sdaaGetDeviceProperties(&q, d) && q.card == p.card && q.coreGroup == cg)
			return d;
	return -1;
}

/*
 * Every collective x algorithm between the cards on the open comm @x,
 * exact, in and out of place; @what names the layout.
 */
static void sweep_layout(struct __test_metadata *_metadata, struct cctx *x, const char *what)
{
	for (int coll = 0; coll < NCOLL; coll++)
		for (size_t a = 0; a < sizeof(xalgos) / sizeof(xalgos[0]); a++) {
			struct run u = { .coll = coll, .algo = xalgos[a], .t = swcclInt32,
					 .op = coll == AR && a % 2 ? swcclMax : swcclSum,
					 .root = x->n - 2, .count = 1001 + (size_t)a,
					 .pl = pick(x->dev[0], PL_GLOBAL), .inplace = (coll + a) % 2 };
			swcclResult_t res = swcclSuccess;
			long w = run_one(x, &u, &res, NULL);

			if (w == -1 && res == swcclInvalidUsage) {
				TH_LOG("%s: %s %s: n/a (%s)", what, coll_name[coll],
				       swcclAlgoName(xalgos[a]), swcclGetLastError(x->comm[0]));
				continue;
			}
			EXPECT_EQ(0, w) {
				TH_LOG("%s: %s %s: %ld wrong (%s: %s)", what, coll_name[coll],
				       swcclAlgoName(xalgos[a]), w, swcclGetErrorString(res),
				       swcclGetLastError(x->comm[0]));
			}
		}
}

/*
 * Ranks at core groups @cg[r] of the @card[r]-th card; SKIP unless they
 * are all there, on one fabric.
 */
static int open_layout(struct __test_metadata *_metadata, struct cctx *x, const int *card,
		       const int *cg)
{
	int can = 0;

	for (int r = 0; r < x->n; r++) {
		x->dev[r] = card_cg_device(card[r], cg[r]);
		if (x->dev[r] < 0)
			return -1;
	}
	if (sdaaDeviceCanAccessPeer(&can, card_cg_device(0, 0), card_cg_device(1, 0)) || !can)
		return -1;
	if (cctx_open(x)) {
		TH_LOG("%s", swcclGetLastError(NULL));
		return 1;
	}
	return 0;
}

/*
 * A comm of @g core groups on each of @k cards (HCCL's levels), ranks card
 * by card or (@interleave) slot by slot.
 */
static void hier(struct __test_metadata *_metadata, int k, int g, bool interleave)
{
	struct cctx x = { .n = k * g };
	int card[NR_MAX], cg[NR_MAX], r;
	struct sdaaDeviceProp p;
	struct vx *v;
	char what[64];

	if (!sdaa_test_can_submit(0))
		SKIP(return, "the card cannot run jobs");
	for (r = 0; r < k * g; r++) {
		card[r] = interleave ? r % k : r / g;
		cg[r] = interleave ? r / k : r % g;
	}
	r = open_layout(_metadata, &x, card, cg);
	if (r < 0)
		SKIP(return, "fewer than %d cards of %d core groups on one fabric", k, g);
	if (!sdaaGetDeviceProperties(&p, x.dev[0]) && p.totalGlobalMem < (16u << 20)) {
		cctx_close(&x);
		SKIP(return, "no Global-HBM: the core groups of a card meet there (CSC)");
	}
	ASSERT_EQ(0, r);
	snprintf(what, sizeof(what), "%d cards x %d CGs%s", k, g,
		 interleave ? " interleaved" : "");
	sweep_layout(_metadata, &x, what);
	/* AllToAll in levels: seed 002's planes, a card a node; in place and out */
	for (int a = 0; a < 4; a++) {
		struct run u = { .coll = A2A, .algo = a < 2 ? swcclAlgoAuto : swcclAlgoDirect,
				 .t = a % 2 ? swcclBfloat16 : swcclInt32, .count = 333 + (size_t)a,
				 .pl = pick(x.dev[0], PL_GLOBAL), .inplace = a % 2 };
		swcclResult_t res = swcclSuccess;
		long w = run_one(&x, &u, &res, NULL);

		/* the planes' AllToAll needs every pair of cards joined */
		if (w == -1 && res == swcclInvalidUsage && !fabric_full(x.dev, x.n)) {
			TH_LOG("%s: alltoall: n/a (%s)", what, swcclGetLastError(x.comm[0]));
			continue;
		}
		EXPECT_EQ(0, w) {
			TH_LOG("%s: alltoall %s %s: %ld wrong (%s)", what, swcclAlgoName(u.algo),
			       a % 2 ? "in place" : "out", w, swcclGetLastError(x.comm[0]));
		}
	}
	/* AllToAllv and a ring of Send/Recv in levels: blocks of their own sizes, some empty */
	v = malloc(sizeof(*v));
	ASSERT_NE(NULL, v);
	if (!vx_open(&x, v, pick(x.dev[0], PL_GLOBAL))) {
		long w = vx_alltoallv(&x, v);

		if (w == -1 && v->res == swcclInvalidUsage && !fabric_full(x.dev, x.n)) {
			TH_LOG("%s: alltoallv: n/a (%s)", what, swcclGetLastError(x.comm[0]));
		} else {
			EXPECT_EQ(0, w) TH_LOG("%s: alltoallv: %ld wrong (%s)", what, w,
					       swcclGetLastError(x.comm[0]));
			w = vx_ring(&x, v);
			EXPECT_EQ(0, w) TH_LOG("%s: send/recv ring: %ld wrong (%s)", what, w,
					       swcclGetLastError(x.comm[0]));
		}
	}
	vx_close(&x, v);
	free(v);
	cctx_close(&x);
}

TEST(levels_2x4) { hier(_metadata, 2, 4, false); }
TEST(levels_3x2_interleaved) { hier(_metadata, 3, 2, true); }
TEST(levels_4x4) { hier(_metadata, 4, 4, false); }
TEST(levels_8x4) { hier(_metadata, 8, 4, true); }

/* Uneven cards have no levels: the algorithm runs over all the ranks at once. */
TEST(uneven_cards)
{
	static const struct { int n, card[4], cg[4]; } lay[] = {
		{ 4, { 0, 0, 0, 1 }, { 0, 1, 2, 0 } },
		{ 3, { 1, 0, 1 }, { 3, 2, 1 } },
	};

	if (!sdaa_test_can_submit(0))
		SKIP(return, "the card cannot run jobs");
	for (size_t i = 0; i < sizeof(lay) / sizeof(lay[0]); i++) {
		struct cctx x = { .n = lay[i].n };
		int r = open_layout(_metadata, &x, lay[i].card, lay[i].cg);
		char what[32];

		if (r < 0)
			SKIP(return, "fewer than 2 cards of 4 core groups on one fabric");
		ASSERT_EQ(0, r);
		snprintf(what, sizeof(what), "uneven layout %zu", i);
		sweep_layout(_metadata, &x, what);
		cctx_close(&x);
	}
}

/* Types and operators, in place, Local-HBM, on every card there is. */
TEST(types_and_ops)
{
	static const struct { swcclDataType_t t; swcclRedOp_t op; } to[] = {
		{ swcclFloat32, swcclSum }, { swcclFloat64, swcclMax }, { swcclInt64, swcclMin },
		{ swcclFloat16, swcclSum }, { swcclBfloat16, swcclProd }, { swcclUint8, swcclMax },
		{ swcclFloat32, swcclAvg },
	};
	int dev[NR_MAX];
	struct cctx x;
	const char *why = open_cards(&x, card_devices(dev, NR_MAX) < 2 ? 2 :
					    card_devices(dev, NR_MAX));

	if (why)
		SKIP(return, "%s", why);
	for (size_t k = 0; k < sizeof(to) / sizeof(to[0]); k++)
		for (int coll = RS; coll < NCOLL; coll++)
			for (int ip = 0; ip < 2; ip++) {
				struct run u = { .coll = coll, .algo = swcclAlgoNhr,
						 .t = to[k].t, .op = to[k].op, .root = 1,
						 .count = 777,
						 .pl = pick(x.dev[0], ip ? PL_LOCAL : PL_GLOBAL),
						 .inplace = ip };
				swcclResult_t res = swcclSuccess;
				long w;

				if (coll == BC)
					continue;
				/* NHR's partners are not all neighbours on a ring */
				u.algo = !fabric_full(x.dev, x.n) ? swcclAlgoAuto :
					 coll == RD ? swcclAlgoRing : swcclAlgoNhr;
				w = run_one(&x, &u, &res, NULL);
				EXPECT_EQ(0, w) {
					TH_LOG("%s %s %s op %d: %ld wrong (%s)", coll_name[coll],
					       ip ? "in place, Local" : "Global",
					       swcclAlgoName(u.algo), to[k].op, w,
					       swcclGetLastError(x.comm[0]));
				}
			}
	cctx_close(&x);
}

/* Random floats: a call repeated gives the same bits. */
TEST(bitwise_reproducible)
{
	size_t n = 12345, bytes = n * 4;
	uint8_t *a = malloc(bytes), *b = malloc(bytes);
	struct cctx x;
	const char *why = open_cards(&x, 2);

	if (why)
		SKIP(return, "%s", why);
	for (size_t k = 0; k < sizeof(xalgos) / sizeof(xalgos[0]); k++) {
		struct run u = { .coll = AR, .algo = xalgos[k], .t = swcclFloat32,
				 .op = swcclSum, .count = n, .pl = pick(x.dev[0], PL_GLOBAL),
				 .random = true };
		swcclResult_t res = swcclSuccess;

		ASSERT_EQ(0, run_one(&x, &u, &res, a));
		ASSERT_EQ(0, run_one(&x, &u, &res, b));
		EXPECT_EQ(-1, sdaa_test_diff(a, b, bytes)) TH_LOG("%s", swcclAlgoName(u.algo));
	}
	cctx_close(&x);
	free(a);
	free(b);
}

/* What a comm across cards refuses, with a message. */
TEST(refused)
{
	int dev[NR_MAX], n = card_devices(dev, NR_MAX), both[2];
	swcclComm_t c[2];
	struct cctx x;
	const char *why = open_cards(&x, 2);

	if (why)
		SKIP(return, "%s", why);
	cctx_close(&x);
	(void)n;
	/* One core group twice, on one card of two. */
	both[0] = dev[0];
	{
		int three[3] = { dev[0], dev[1], dev[0] };
		swcclComm_t c3[3];

		EXPECT_EQ(swcclInvalidUsage, swcclCommInitAll(c3, 3, three));
		EXPECT_NE(NULL, strstr(swcclGetLastError(NULL), "both CG")) {
			TH_LOG("%s", swcclGetLastError(NULL));
		}
	}
	/* The core groups' algorithms are not for cards, and the reverse. */
	both[1] = dev[1];
	ASSERT_EQ(swcclSuccess, swcclCommInitAll(c, 2, both));
	{
		struct cctx y = { .n = 2, .dev = { dev[0], dev[1] }, .comm = { c[0], c[1] } };
		struct run u = { .coll = AR, .algo = swcclAlgoCsc1, .t = swcclInt32,
				 .op = swcclSum, .count = 10, .pl = pick(dev[0], PL_GLOBAL) };
		swcclResult_t res;

		for (int r = 0; r < 2; r++) {
			sdaaSetDevice(dev[r]);
			ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&y.st[r]));
		}
		EXPECT_EQ(-1, run_one(&y, &u, &res, NULL));
		EXPECT_EQ(swcclInvalidUsage, res);
		cctx_close(&y);
	}
}

/*
 * A rank whose stream is stuck behind other work: after SWCCL_TIMEOUT the
 * comm fails with a message naming, per rank, the card, core group and the
 * peer it waits on; once the stream moves on, the collective completes
 * (well inside the driver's job timeout) and nothing is left sticky.
 */
TEST(timeout_names_card_and_peer)
{
	struct cctx x;
	const char *why;
	void *g[2], *semh;
	uint64_t *sem;
	struct swai_insn w;
	swcclResult_t err = swcclSuccess;
	char want[96];

	setenv("SWCCL_TIMEOUT", "1", 1);
	why = open_cards(&x, 2);
	if (why) {
		unsetenv("SWCCL_TIMEOUT");
		SKIP(return, "%s", why);
	}
	sem = sdaa_test_sem(&semh);
	ASSERT_NE(NULL, sem);
	for (int r = 0; r < 2; r++) {
		g[r] = balloc(&x, r, pick(x.dev[r], PL_GLOBAL), 8192);
		ASSERT_NE(NULL, g[r]);
		swcclCommSetAlgo(x.comm[r], swcclAlgoRing);
	}
	w = insn_wait(va_of(sem), 1);
	sdaaSetDevice(x.dev[1]);
	ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(&w, 1, x.st[1]));
	swcclGroupStart();
	for (int r = 0; r < 2; r++)
		swcclAllReduce(g[r], g[r], 1024, swcclFloat, swcclSum, x.comm[r], x.st[r]);
	ASSERT_EQ(swcclSuccess, swcclGroupEnd());
	for (int i = 0; i < 500 && !err; i++) {
		usleep(10000);
		swcclCommGetAsyncError(x.comm[0], &err);
	}
	EXPECT_EQ(swcclTimeout, err);
	TH_LOG("%s", swcclGetLastError(x.comm[0]));
	EXPECT_NE(NULL, strstr(swcclGetLastError(x.comm[0]), "CG 0) has not started"));
	/* rank 0 may not write to rank 1 before rank 1's stream reaches the call */
	snprintf(want, sizeof(want), "CG 0) waits for rank 1 (card");
	EXPECT_NE(NULL, strstr(swcclGetLastError(x.comm[0]), want));
	EXPECT_NE(NULL, strstr(swcclGetLastError(x.comm[0]), "to start this call"));
	*(volatile uint64_t *)semh = 1;		/* the stuck stream moves on */
	EXPECT_EQ(0, cctx_sync(&x));		/* and the collective completes */
	for (int r = 0; r < 2; r++)
		bfree(pick(x.dev[r], PL_GLOBAL), g[r]);
	cctx_close(&x);
	unsetenv("SWCCL_TIMEOUT");
}

TEST_HARNESS_MAIN
