// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_host_test - pinned host memory through libsdaa and the driver:
 * sdaaMallocHost pins on every card at one device address, the driver counts
 * it, sdaaFreeHost unpins, wrong frees are named errors, and RLIMIT_MEMLOCK
 * is enforced with its own error.
 */
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "sdaa_runtime.h"
#include "swai_test.h"
#include "kselftest_harness.h"

#define MIB (1ULL << 20)

/* Host bytes pinned on card @i by all processes (the driver's count). */
static long long host_used(int i)
{
	struct swai_card c[SWAI_MAX_CARDS];
	struct drm_swai_mem_info mi = { 0 };
	int fd;

	if (swai_find_cards(c, SWAI_MAX_CARDS) <= i)
		return -1;
	fd = open(c[i].node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, DRM_IOCTL_SWAI_MEM_INFO, &mi))
		mi.region[DRM_SWAI_MEM_HOST].used = ~0ULL;
	close(fd);
	return (long long)mi.region[DRM_SWAI_MEM_HOST].used;
}

TEST(pinned_on_every_card)
{
	struct swai_card c[SWAI_MAX_CARDS];
	int cards = swai_find_cards(c, SWAI_MAX_CARDS);
	long long before[SWAI_MAX_CARDS];
	struct sdaaPointerAttributes a;
	void *h, *d, *d2;
	char *p;

	for (int i = 0; i < cards; i++)
		before[i] = host_used(i);
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&h, MIB + 100));
	p = h;
	memset(p, 0x5a, MIB + 100);		/* ordinary host memory */
	EXPECT_EQ(0, (uintptr_t)h % 4096);
	for (int i = 0; i < cards; i++)
		EXPECT_EQ(before[i] + (long long)(MIB + 4096), host_used(i));
	ASSERT_EQ(sdaaSuccess, sdaaHostGetDevicePointer(&d, h, 0));
	EXPECT_NE(NULL, d);
	ASSERT_EQ(sdaaSuccess, sdaaHostGetDevicePointer(&d2, p + 5000, 0));
	EXPECT_EQ((char *)d + 5000, (char *)d2);
	ASSERT_EQ(sdaaSuccess, sdaaPointerGetAttributes(&a, h));
	EXPECT_EQ(sdaaMemoryTypeHost, a.type);
	EXPECT_EQ(h, a.hostPointer);
	EXPECT_EQ(d, a.devicePointer);
	ASSERT_EQ(sdaaSuccess, sdaaPointerGetAttributes(&a, d));
	EXPECT_EQ(sdaaMemoryTypeHost, a.type);
	/* The device address of host memory is not device memory. */
	EXPECT_EQ(sdaaErrorWrongMemoryTier, sdaaFree(d));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaHostGetDevicePointer(&d2, h, 1));
	ASSERT_EQ(sdaaSuccess, sdaaFreeHost(h));
	for (int i = 0; i < cards; i++)
		EXPECT_EQ(before[i], host_used(i));
	EXPECT_EQ(sdaaErrorInvalidHostPointer, sdaaFreeHost(h));
	EXPECT_EQ(sdaaErrorInvalidHostPointer, sdaaHostGetDevicePointer(&d2, h, 0));
}

TEST(wrong_pointers)
{
	void *h;
	int x;

	ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&h, 8192));
	EXPECT_EQ(sdaaErrorInvalidHostPointer, sdaaFreeHost((char *)h + 4096));
	EXPECT_EQ(sdaaErrorInvalidHostPointer, sdaaFreeHost(&x));
	EXPECT_EQ(sdaaSuccess, sdaaFreeHost(h));
}

/* Many buffers at once get distinct device addresses. */
TEST(many_buffers)
{
	void *h[32], *d[32];

	for (int i = 0; i < 32; i++) {
		ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&h[i], 4096 * (i + 1)));
		ASSERT_EQ(sdaaSuccess, sdaaHostGetDevicePointer(&d[i], h[i], 0));
		for (int j = 0; j < i; j++)
			EXPECT_NE(d[j], d[i]);
	}
	for (int i = 0; i < 32; i++)
		EXPECT_EQ(sdaaSuccess, sdaaFreeHost(h[i]));
}

/*
 * Without CAP_IPC_LOCK, RLIMIT_MEMLOCK bounds what may be pinned.  Every card
 * pins the buffer, so a buffer is charged once per card.
 */
TEST(memlock_limit)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct cap[2];
	struct swai_card c[SWAI_MAX_CARDS];
	rlim_t lim = (rlim_t)swai_find_cards(c, SWAI_MAX_CARDS) * 128 * 1024;
	struct rlimit rl = { lim, lim };
	long long before = host_used(0);
	void *h = (void *)1;

	ASSERT_EQ(0, syscall(SYS_capget, &hdr, cap));
	cap[0].effective &= ~(1u << CAP_IPC_LOCK);
	cap[0].permitted &= ~(1u << CAP_IPC_LOCK);
	ASSERT_EQ(0, syscall(SYS_capset, &hdr, cap));
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &rl));
	EXPECT_EQ(sdaaSuccess, sdaaMallocHost(&h, 64 * 1024));
	EXPECT_EQ(sdaaSuccess, sdaaFreeHost(h));
	EXPECT_EQ(sdaaErrorMemlockLimit, sdaaMallocHost(&h, 4 * MIB));
	EXPECT_EQ(NULL, h);
	EXPECT_NE(NULL, strstr(sdaaGetErrorString(sdaaGetLastError()), "RLIMIT_MEMLOCK"));
	/* Nothing stayed pinned by the failed call. */
	EXPECT_EQ(before, host_used(0));
}

TEST_HARNESS_MAIN
