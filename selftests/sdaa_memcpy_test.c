// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_memcpy_test - sdaaMemcpy, sdaaMemcpyAsync and sdaaMemset on a real
 * card against host references: every pair of places (pageable and pinned
 * host memory, pinned memory by its device address, Local-HBM of two core
 * groups, Global-HBM), odd sizes and alignments, bytes around the
 * destination untouched; copies larger than the staging and bounce buffers;
 * copies between cards; memset of every tier; argument errors.
 */
#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"

#define BUF (2 * MIB + 64 * KIB)
#define GUARD 16
#define BASE 64			/* every test offset is at least this */

enum { PAGEABLE, PINNED, PINNED_DEV, LOCAL0, LOCAL1, GLOBAL, NT };
static const char *const tier_name[NT] = {
	"pageable", "pinned", "pinned(dev ptr)", "Local CG a", "Local CG b", "Global",
};

struct tiers {
	char *p[NT];		/* NULL: not on this card/split */
	void *pinned;
};

static int is_device(int t)
{
	return t == LOCAL0 || t == LOCAL1 || t == GLOBAL;
}

/* Buffers of every tier; Local b is another core group's, if one is visible. */
static void tiers_get(struct tiers *t)
{
	struct sdaaDeviceProp prop;
	void *dev;
	int other = -1, n;

	memset(t, 0, sizeof(*t));
	sdaaGetDeviceProperties(&prop, 0);
	t->p[PAGEABLE] = malloc(BUF);
	if (sdaaMallocHost(&t->pinned, BUF) == sdaaSuccess) {
		t->p[PINNED] = t->pinned;
		if (sdaaHostGetDevicePointer(&dev, t->pinned, 0) == sdaaSuccess)
			t->p[PINNED_DEV] = dev;
	}
	if (prop.totalLocalMem >= 4 * BUF)
		sdaaMalloc((void **)&t->p[LOCAL0], BUF);
	if (prop.totalGlobalMem >= 4 * BUF)
		sdaaMallocCross((void **)&t->p[GLOBAL], BUF);
	sdaaGetDeviceCount(&n);
	for (int d = 1; d < n && other < 0; d++) {
		struct sdaaDeviceProp p;

		if (!sdaaGetDeviceProperties(&p, d) && p.card == prop.card &&
		    p.coreGroup != prop.coreGroup)
			other = d;
	}
	if (other >= 0 && prop.totalLocalMem >= 4 * BUF) {
		sdaaSetDevice(other);
		sdaaMalloc((void **)&t->p[LOCAL1], BUF);
		sdaaSetDevice(0);
	}
}

static void tiers_put(struct tiers *t)
{
	free(t->p[PAGEABLE]);
	sdaaFreeHost(t->pinned);
	sdaaFree(t->p[LOCAL0]);
	sdaaFree(t->p[LOCAL1]);
	sdaaFreeCross(t->p[GLOBAL]);
}

/* Put @n bytes of @src at @dst of tier @t (the host writes host tiers itself). */
static sdaaError_t put(struct tiers *ts, int t, size_t off, const void *src, size_t n)
{
	if (!is_device(t)) {
		memcpy((t == PINNED_DEV ? ts->p[PINNED] : ts->p[t]) + off, src, n);
		return sdaaSuccess;
	}
	return sdaaMemcpy(ts->p[t] + off, src, n, sdaaMemcpyHostToDevice);
}

static sdaaError_t get(struct tiers *ts, int t, size_t off, void *dst, size_t n)
{
	if (!is_device(t)) {
		memcpy(dst, (t == PINNED_DEV ? ts->p[PINNED] : ts->p[t]) + off, n);
		return sdaaSuccess;
	}
	return sdaaMemcpy(dst, ts->p[t] + off, n, sdaaMemcpyDeviceToHost);
}

/*
 * Copy @n bytes from tier @a at offset @oa to tier @b at @ob (async on
 * @s when @async) and check the destination and its guard bytes.
 */
static int round_trip(struct __test_metadata *_metadata, struct tiers *ts, int a, int b,
		      size_t n, size_t oa, size_t ob, int async, sdaaStream_t s)
{
	static unsigned char ref[BUF], win[BUF], guard[BUF];
	size_t w = n + 2 * GUARD;
	long bad;

	sdaa_test_fill(ref, n, n * 131 + oa * 7 + ob + (size_t)a * 17 + (size_t)b);
	memset(guard, 0xc3, w);
	EXPECT_EQ(sdaaSuccess, put(ts, b, ob - GUARD, guard, w));
	EXPECT_EQ(sdaaSuccess, put(ts, a, oa, ref, n));
	if (async) {
		EXPECT_EQ(sdaaSuccess, sdaaMemcpyAsync(ts->p[b] + ob, ts->p[a] + oa, n,
						       sdaaMemcpyDefault, s));
		EXPECT_EQ(sdaaSuccess, sdaaStreamSynchronize(s));
	} else {
		EXPECT_EQ(sdaaSuccess, sdaaMemcpy(ts->p[b] + ob, ts->p[a] + oa, n,
						  sdaaMemcpyDefault));
	}
	EXPECT_EQ(sdaaSuccess, get(ts, b, ob - GUARD, win, w));
	bad = sdaa_test_diff(win + GUARD, ref, n);
	if (bad < 0 && (sdaa_test_diff(win, guard, GUARD) >= 0 ||
			sdaa_test_diff(win + GUARD + n, guard, GUARD) >= 0))
		bad = -2;
	if (bad != -1)
		TH_LOG("%s+%zu -> %s+%zu, %zu bytes%s: %s at %ld", tier_name[a], oa,
		       tier_name[b], ob, n, async ? " (async)" : "",
		       bad == -2 ? "guard bytes changed" : "wrong byte", bad);
	return bad == -1;
}

static void all_pairs(struct __test_metadata *_metadata, int async)
{
	static const size_t sizes[] = { 1, 7, 64, 4097, 65539, MIB + 5 };
	static const size_t offs[][2] = { { 0, 0 }, { 3, 5 } };
	struct tiers ts;
	sdaaStream_t s = NULL;
	int failures = 0;

	tiers_get(&ts);
	if (async)
		ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&s));
	for (int a = 0; a < NT; a++) {
		for (int b = 0; b < NT; b++) {
			/* Within one buffer, the destination goes past the source. */
			int same = a == b || (a == PINNED_DEV && b == PINNED) ||
				   (a == PINNED && b == PINNED_DEV);
			size_t shift = same ? MIB + 8192 : 0;

			if (!ts.p[a] || !ts.p[b])
				continue;
			for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
				for (size_t o = 0; o < 2; o++)
					failures += !round_trip(_metadata, &ts, a, b, sizes[i],
								BASE + offs[o][0],
								BASE + offs[o][1] + shift,
								async, s);
		}
	}
	EXPECT_EQ(0, failures);
	if (s)
		EXPECT_EQ(sdaaSuccess, sdaaStreamDestroy(s));
	tiers_put(&ts);
}

TEST_F_TIMEOUT(card, every_pair_of_tiers_sync, 300)
{
	NEED_SUBMIT();
	all_pairs(_metadata, 0);
}

TEST_F_TIMEOUT(card, every_pair_of_tiers_async, 300)
{
	NEED_SUBMIT();
	all_pairs(_metadata, 1);
}

/*
 * Larger than the staging (2 x 4 MiB) and bounce (2 x 8 MiB) buffers, all
 * queued on one stream before one synchronize: pageable -> Local a ->
 * Local b -> Global -> pageable.
 */
TEST_F_TIMEOUT(card, large_chain_on_one_stream, 120)
{
	size_t n = 21 * MIB + 3;
	struct sdaaDeviceProp prop;
	char *src, *dst, *l0, *l1 = NULL, *g = NULL;
	sdaaStream_t s;
	int other = sdaa_test_cg_device(1);

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (prop.totalLocalMem < 2 * n + 8 * MIB)
		SKIP(return, "Local-HBM too small in this split");
	src = malloc(n);
	dst = malloc(n);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	sdaa_test_fill(src, n, 99);
	memset(dst, 0, n);
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&l0, n));
	if (other >= 0 && other != 0) {
		ASSERT_EQ(sdaaSuccess, sdaaSetDevice(other));
		ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&l1, n));
		ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	}
	if (prop.totalGlobalMem >= 2 * n + 32 * MIB)
		ASSERT_EQ(sdaaSuccess, sdaaMallocCross((void **)&g, n));
	ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&s));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(l0 + 1, src + 1, n - 1, sdaaMemcpyHostToDevice, s));
	if (l1)
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(l1, l0, n, sdaaMemcpyDeviceToDevice, s));
	if (g)
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(g, l1 ? l1 : l0, n,
						       sdaaMemcpyDeviceToDevice, s));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(dst + 1, (g ? g : l1 ? l1 : l0) + 1, n - 1,
					       sdaaMemcpyDeviceToHost, s));
	ASSERT_EQ(sdaaSuccess, sdaaStreamSynchronize(s));
	EXPECT_EQ(-1, sdaa_test_diff(dst + 1, src + 1, n - 1));
	EXPECT_EQ(sdaaSuccess, sdaaStreamDestroy(s));
	sdaaFree(l0);
	sdaaFree(l1);
	sdaaFreeCross(g);
	free(src);
	free(dst);
}

/* Set a window of each tier to @v, then check it and the guards around it. */
TEST_F_TIMEOUT(card, memset_every_tier, 120)
{
	static const size_t sizes[] = { 1, 2, 7, 8, 9, 15, 16, 17, 100, 4097, MIB + 3 };
	static unsigned char win[BUF];
	struct tiers ts;
	int failures = 0;

	NEED_SUBMIT();
	tiers_get(&ts);
	for (int t = PINNED; t < NT; t++) {
		if (!ts.p[t])
			continue;
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			for (size_t off = BASE; off < BASE + 6; off += 5) {
				size_t n = sizes[i], w = n + 2 * GUARD;
				unsigned char v = (unsigned char)(0x11 * (i + 1) + off);
				long bad = -1;

				ASSERT_EQ(sdaaSuccess, sdaaMemset(ts.p[t] + off - GUARD, 0xc3, w));
				ASSERT_EQ(sdaaSuccess, sdaaMemset(ts.p[t] + off, v, n));
				ASSERT_EQ(sdaaSuccess, get(&ts, t, off - GUARD, win, w));
				for (size_t b = 0; b < w && bad < 0; b++)
					if (win[b] != (b < GUARD || b >= GUARD + n ? 0xc3 : v))
						bad = (long)b;
				if (bad >= 0) {
					TH_LOG("memset %s+%zu, %zu bytes: wrong byte %ld",
					       tier_name[t], off, n, bad);
					failures++;
				}
			}
		}
	}
	EXPECT_EQ(0, failures);
	{
		sdaaStream_t s;

		/* Async on a stream: ordered with the copy after it. */
		if (ts.p[LOCAL0]) {
			ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&s));
			ASSERT_EQ(sdaaSuccess, sdaaMemsetAsync(ts.p[LOCAL0], 0x77, 4099, s));
			ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(win, ts.p[LOCAL0], 4099,
							       sdaaMemcpyDeviceToHost, s));
			ASSERT_EQ(sdaaSuccess, sdaaStreamSynchronize(s));
			for (size_t b = 0; b < 4099; b++)
				if (win[b] != 0x77)
					failures++;
			EXPECT_EQ(0, failures);
			EXPECT_EQ(sdaaSuccess, sdaaStreamDestroy(s));
		}
	}
	tiers_put(&ts);
}

/* Between two cards: through pinned memory, both ways, any tiers. */
TEST_F_TIMEOUT(card, between_cards, 120)
{
	struct sdaaDeviceProp p0, p;
	int n, other = -1;
	size_t len = 5 * MIB + 77;
	char *a, *b, *src, *dst;

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&p0, 0));
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&n));
	for (int d = 1; d < n && other < 0; d++)
		if (!sdaaGetDeviceProperties(&p, d) && p.card != p0.card)
			other = d;
	if (other < 0)
		SKIP(return, "one card only");
	if (!sdaa_test_can_submit(other))
		SKIP(return, "the second card cannot run jobs");
	src = malloc(len);
	dst = malloc(len);
	sdaa_test_fill(src, len, 5);
	/* Whichever tier each card's split has: Local first. */
	ASSERT_EQ(sdaaSuccess, p0.totalLocalMem ? sdaaMalloc((void **)&a, len) :
						  sdaaMallocCross((void **)&a, len));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(other));
	ASSERT_EQ(sdaaSuccess, p.totalGlobalMem ? sdaaMallocCross((void **)&b, len) :
						  sdaaMalloc((void **)&b, len));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(a, src, len, sdaaMemcpyHostToDevice));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(b + 3, a, len - 3, sdaaMemcpyDeviceToDevice));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(dst, b + 3, len - 3, sdaaMemcpyDefault));
	EXPECT_EQ(-1, sdaa_test_diff(dst, src, len - 3));
	if (sdaaFree(a))
		sdaaFreeCross(a);
	if (sdaaFreeCross(b))
		sdaaFree(b);
	free(src);
	free(dst);
}

TEST(argument_errors)
{
	struct sdaaDeviceProp prop;
	char host[64];
	void *d;

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (!prop.totalLocalMem)
		SKIP(return, "no Local-HBM in this split");
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&d, 4096));
	sdaaGetLastError();
	/* The kind must match where the pointers live. */
	EXPECT_EQ(sdaaErrorInvalidMemcpyDirection,
		  sdaaMemcpy(host, d, 64, sdaaMemcpyHostToDevice));
	EXPECT_EQ(sdaaErrorInvalidMemcpyDirection,
		  sdaaMemcpy(d, host, 64, sdaaMemcpyDeviceToDevice));
	EXPECT_EQ(sdaaErrorInvalidMemcpyDirection,
		  sdaaMemcpy(d, host, 64, sdaaMemcpyHostToHost));
	EXPECT_EQ(sdaaErrorInvalidMemcpyDirection, sdaaGetLastError());
	/* Past the end of the device memory's block (2 MiB). */
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaMemcpy(d, host, 64 * MIB, sdaaMemcpyDefault));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaMemset(d, 0, 64 * MIB));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaMemcpy(NULL, host, 1, sdaaMemcpyDefault));
	/* memset is for device (and pinned) memory. */
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaMemset(host, 0, sizeof(host)));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle,
		  sdaaMemcpyAsync(d, host, 8, sdaaMemcpyDefault, (sdaaStream_t)0x1234));
	/* Zero bytes: nothing happens, nothing fails. */
	EXPECT_EQ(sdaaSuccess, sdaaMemcpy(d, host, 0, sdaaMemcpyDefault));
	EXPECT_EQ(sdaaSuccess, sdaaMemset(d, 0, 0));
	EXPECT_EQ(sdaaSuccess, sdaaFree(d));
}

TEST_HARNESS_MAIN
