// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_memory_test - libsdaa's device memory on real cards: sdaaMalloc in
 * Local-HBM of the current core group, sdaaMallocCross in Global-HBM, unique
 * pointers across core groups and cards, small allocations without system
 * calls, exhaustion per tier with its own error, recovery, and clear errors
 * for wrong, double and wrong-tier frees.
 */
#include "sdaa_runtime.h"
#include "swai_test.h"
#include "kselftest_harness.h"

#define MIB (1ULL << 20)

/* Live buffer objects on card 0 (from the driver, for the no-ioctl check). */
static unsigned int card_objects(void)
{
	struct swai_card c[SWAI_MAX_CARDS];
	struct drm_swai_mem_info mi = { 0 };
	int fd;

	if (swai_find_cards(c, SWAI_MAX_CARDS) < 1)
		return ~0u;
	fd = open(c[0].node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, DRM_IOCTL_SWAI_MEM_INFO, &mi))
		mi.objects = ~0u;
	close(fd);
	return mi.objects;
}

TEST(malloc_local_and_cross)
{
	struct sdaaDeviceProp prop;
	struct sdaaPointerAttributes a;
	void *l = NULL, *g = NULL;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (!prop.totalLocalMem || !prop.totalGlobalMem)
		SKIP(return, "this split has an empty tier");
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&l, 1000));
	ASSERT_EQ(sdaaSuccess, sdaaMallocCross(&g, 1000));
	EXPECT_NE(NULL, l);
	EXPECT_NE(NULL, g);
	EXPECT_EQ(0, (uintptr_t)l % 256);
	ASSERT_EQ(sdaaSuccess, sdaaPointerGetAttributes(&a, l));
	EXPECT_EQ(sdaaMemoryTypeLocal, a.type);
	EXPECT_EQ(0, a.device);
	EXPECT_EQ(prop.coreGroup, a.coreGroup);
	EXPECT_EQ(prop.card, a.card);
	ASSERT_EQ(sdaaSuccess, sdaaPointerGetAttributes(&a, (char *)g + 999));
	EXPECT_EQ(sdaaMemoryTypeCross, a.type);
	EXPECT_EQ(-1, a.coreGroup);
	EXPECT_EQ(sdaaSuccess, sdaaFree(l));
	EXPECT_EQ(sdaaSuccess, sdaaFreeCross(g));
}

/* Every device gets its own core group's memory; pointers never collide. */
TEST(pointers_unique_across_devices)
{
	void *p[64] = { 0 };
	int n;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&n));
	if (n > 64)
		n = 64;
	for (int d = 0; d < n; d++) {
		struct sdaaDeviceProp prop;
		struct sdaaPointerAttributes a;

		ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, d));
		if (prop.totalLocalMem < MIB)
			SKIP(return, "no Local-HBM in this split");
		ASSERT_EQ(sdaaSuccess, sdaaSetDevice(d));
		ASSERT_EQ(sdaaSuccess, sdaaMalloc(&p[d], 4096));
		ASSERT_EQ(sdaaSuccess, sdaaPointerGetAttributes(&a, p[d]));
		EXPECT_EQ(d, a.device);
		EXPECT_EQ(prop.card, a.card);
		EXPECT_EQ(prop.coreGroup, a.coreGroup);
		for (int e = 0; e < d; e++)
			EXPECT_NE(p[e], p[d]);
	}
	for (int d = 0; d < n; d++)
		EXPECT_EQ(sdaaSuccess, sdaaFree(p[d]));
}

/* The point of the second level: small allocations cost no ioctl. */
TEST(small_allocations_share_blocks)
{
	static void *p[4000];
	unsigned int before = card_objects(), during;
	struct sdaaDeviceProp prop;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (prop.totalLocalMem < 4 * MIB)
		SKIP(return, "Local-HBM too small in this split");
	for (int i = 0; i < 4000; i++)
		ASSERT_EQ(sdaaSuccess, sdaaMalloc(&p[i], 64 + (i % 7) * 100));
	during = card_objects();
	/* 4000 x <= 700 B fit in two 2 MiB blocks. */
	EXPECT_LE(during - before, 2u);
	for (int i = 0; i < 4000; i++)
		ASSERT_EQ(sdaaSuccess, sdaaFree(p[i]));
}

TEST(exhaustion_per_tier_and_recovery)
{
	struct sdaaDeviceProp prop;
	size_t fr, total, fr2;
	void *big, *more;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (prop.totalLocalMem < 8 * MIB)
		SKIP(return, "Local-HBM too small in this split");
	ASSERT_EQ(sdaaSuccess, sdaaMemGetInfo(&fr, &total));
	EXPECT_EQ(prop.totalLocalMem, total);
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&big, fr - 2 * MIB));
	ASSERT_EQ(sdaaSuccess, sdaaMemGetInfo(&fr2, &total));
	EXPECT_LE(fr2, 2 * MIB);
	EXPECT_EQ(sdaaErrorMemoryAllocation, sdaaMalloc(&more, 4 * MIB));
	EXPECT_EQ(NULL, more);
	EXPECT_NE(NULL, strstr(sdaaGetErrorString(sdaaGetLastError()), "Local-HBM"));
	if (prop.totalGlobalMem) {
		EXPECT_EQ(sdaaErrorCrossMemoryAllocation,
			  sdaaMallocCross(&more, prop.totalGlobalMem + MIB));
	}
	ASSERT_EQ(sdaaSuccess, sdaaFree(big));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&more, 4 * MIB));
	EXPECT_EQ(sdaaSuccess, sdaaFree(more));
}

/* Wrong pointers, double frees and the other tier's free are named errors. */
TEST(bad_frees)
{
	struct sdaaDeviceProp prop;
	void *l, *g;
	int x;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (!prop.totalLocalMem || !prop.totalGlobalMem)
		SKIP(return, "this split has an empty tier");
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&l, 512));
	ASSERT_EQ(sdaaSuccess, sdaaMallocCross(&g, 512));
	EXPECT_EQ(sdaaErrorWrongMemoryTier, sdaaFreeCross(l));
	EXPECT_EQ(sdaaErrorWrongMemoryTier, sdaaFree(g));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaFree((char *)l + 16));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaFree(&x));
	EXPECT_EQ(sdaaSuccess, sdaaFree(l));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaFree(l));
	EXPECT_EQ(sdaaSuccess, sdaaFreeCross(g));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaFreeCross(g));
	/* Nothing was corrupted: allocation still works. */
	EXPECT_EQ(sdaaSuccess, sdaaMalloc(&l, 512));
	EXPECT_EQ(sdaaSuccess, sdaaFree(l));
}

/*
 * The paper's 4x through the runtime: with no Local-HBM, one core group's
 * sdaaMallocCross reaches the whole card, four times its controller.
 */
TEST(all_global_one_cg_gets_four_times)
{
	struct sdaaDeviceProp prop;
	void *p;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (prop.totalLocalMem)
		SKIP(return, "only with Local-HBM size 0 (local-mb=0)");
	EXPECT_EQ(4 * prop.hbmPerCoreGroup, prop.totalGlobalMem);
	ASSERT_EQ(sdaaSuccess, sdaaMallocCross(&p, prop.totalGlobalMem - 2 * MIB));
	EXPECT_GT((unsigned long long)prop.totalGlobalMem - 2 * MIB,
		  3ULL * prop.hbmPerCoreGroup);
	{
		void *l;

		/* ... while its Local-HBM has nothing. */
		EXPECT_EQ(sdaaErrorMemoryAllocation, sdaaMalloc(&l, 4096));
	}
	EXPECT_EQ(sdaaSuccess, sdaaFreeCross(p));
}

TEST(zero_size_is_null)
{
	void *p = (void *)1;

	EXPECT_EQ(sdaaSuccess, sdaaMalloc(&p, 0));
	EXPECT_EQ(NULL, p);
}

TEST_HARNESS_MAIN
