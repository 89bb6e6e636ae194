// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_device_test - libsdaa's device layer on real cards: one logical
 * device per core group, properties equal to the driver's answer,
 * per-thread current device, SDAA_VISIBLE_DEVICES, and a distinct error for
 * each way of having no device (no module, no permission, none visible).
 *
 * The kselftest harness runs every test in a fresh fork of a process that
 * never called libsdaa, so each test sees the runtime initialise anew with
 * the environment it sets up first.
 */
#include <pthread.h>
#include <sys/stat.h>

#include "sdaa_runtime.h"
#include "swai_test.h"
#include "kselftest_harness.h"

static int cards_and_queries(struct swai_card *c, struct drm_swai_query_device *q)
{
	int n = swai_find_cards(c, SWAI_MAX_CARDS);

	for (int i = 0; i < n; i++) {
		int fd = open(c[i].node, O_RDWR | O_CLOEXEC);

		if (fd < 0 || swai_query(fd, &q[i]))
			return -1;
		close(fd);
	}
	return n;
}

TEST(device_count_is_core_groups)
{
	struct swai_card c[SWAI_MAX_CARDS];
	struct drm_swai_query_device q[SWAI_MAX_CARDS];
	int n = cards_and_queries(c, q), want = 0, count = -1;

	ASSERT_GT(n, 0);
	for (int i = 0; i < n; i++)
		want += (int)q[i].num_core_groups;
	if (swai_expect("SWAI_EXPECT_CARDS") > 0)
		ASSERT_EQ(4 * swai_expect("SWAI_EXPECT_CARDS"), want);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&count));
	ASSERT_EQ(want, count);
}

TEST(properties_match_driver)
{
	struct swai_card c[SWAI_MAX_CARDS];
	struct drm_swai_query_device q[SWAI_MAX_CARDS];
	int n = cards_and_queries(c, q), count, dev = 0;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&count));
	for (int i = 0; i < n; i++) {
		for (unsigned int g = 0; g < q[i].num_core_groups; g++, dev++) {
			struct sdaaDeviceProp p;
			char name[64];

			ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&p, dev));
			snprintf(name, sizeof(name), "SW-AI card %d CG %u", c[i].minor, g);
			EXPECT_STREQ(name, p.name);
			EXPECT_EQ(c[i].minor, p.card);
			EXPECT_EQ((int)g, p.coreGroup);
			EXPECT_EQ((int)q[i].num_core_groups, p.coreGroupsPerCard);
			EXPECT_EQ((int)q[i].cpes_per_cg, p.cpeCount);
			EXPECT_EQ(q[i].ldm_size, p.ldmPerCpe);
			EXPECT_EQ(q[i].local_per_cg, p.totalLocalMem);
			EXPECT_EQ(q[i].global_size, p.totalGlobalMem);
			EXPECT_EQ(q[i].hbm_per_cg, p.hbmPerCoreGroup);
			EXPECT_EQ((int)(q[i].pci_bdf >> 8), p.pciBusID);
			EXPECT_EQ(1, p.major);
			EXPECT_EQ(q[i].capabilities, p.capabilities);
		}
	}
	ASSERT_EQ(count, dev);
}

static void *thread_device(void *arg)
{
	int d = -1;

	(void)arg;
	if (sdaaGetDevice(&d) != sdaaSuccess || d != 0)
		return (void *)1L;
	/* Setting it here does not change the creating thread's device. */
	return (void *)(long)(sdaaSetDevice(1) != sdaaSuccess);
}

TEST(current_device_is_per_thread)
{
	pthread_t t;
	void *bad;
	int count, d = -1;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&count));
	ASSERT_GE(count, 4);
	ASSERT_EQ(sdaaSuccess, sdaaGetDevice(&d));
	ASSERT_EQ(0, d);
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(count - 1));
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_device, NULL));
	ASSERT_EQ(0, pthread_join(t, &bad));
	ASSERT_EQ(NULL, bad);
	ASSERT_EQ(sdaaSuccess, sdaaGetDevice(&d));
	ASSERT_EQ(count - 1, d);
}

TEST(invalid_device_numbers)
{
	struct sdaaDeviceProp p;
	int count;

	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&count));
	sdaaGetLastError();
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaSetDevice(-1));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaSetDevice(count));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaGetDeviceProperties(&p, count));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaPeekAtLastError());
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaGetLastError());
	EXPECT_EQ(sdaaSuccess, sdaaGetLastError());
}

TEST(visible_devices_select_and_reorder)
{
	struct sdaaDeviceProp p;
	int count;

	ASSERT_EQ(0, setenv("SDAA_VISIBLE_DEVICES", "3,1", 1));
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&count));
	ASSERT_EQ(2, count);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&p, 0));
	EXPECT_EQ(3, p.coreGroup);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&p, 1));
	EXPECT_EQ(1, p.coreGroup);
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaSetDevice(2));
}

TEST(visible_devices_stop_at_invalid)
{
	int count;

	ASSERT_EQ(0, setenv("SDAA_VISIBLE_DEVICES", "2,999,0", 1));
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&count));
	ASSERT_EQ(1, count);
}

TEST(visible_devices_empty_is_no_device)
{
	int count = -1;

	ASSERT_EQ(0, setenv("SDAA_VISIBLE_DEVICES", "", 1));
	ASSERT_EQ(sdaaErrorNoDevice, sdaaGetDeviceCount(&count));
	ASSERT_EQ(0, count);
	ASSERT_EQ(sdaaErrorNoDevice, sdaaSetDevice(0));
}

/* A user outside the 'render' group gets a permission error, not "no device". */
TEST(no_permission)
{
	int count = -1;

	ASSERT_EQ(0, setgid(65534));
	ASSERT_EQ(0, setuid(65534));
	ASSERT_EQ(sdaaErrorNoPermission, sdaaGetDeviceCount(&count));
	ASSERT_EQ(0, count);
}

TEST(driver_version)
{
	int v = -1;

	ASSERT_EQ(sdaaSuccess, sdaaDriverGetVersion(&v));
	ASSERT_EQ(1000 * DRM_SWAI_UAPI_MAJOR + 10 * DRM_SWAI_UAPI_MINOR, v);
}

/* Run @fn with stderr captured; return how many bytes it printed there. */
static ssize_t stderr_bytes(void (*fn)(void))
{
	char buf[4096];
	int p[2], saved = dup(2);
	ssize_t n;

	if (saved < 0 || pipe(p))
		return -1;
	dup2(p[1], 2);
	close(p[1]);
	fn();
	dup2(saved, 2);
	close(saved);
	n = read(p[0], buf, sizeof(buf));
	close(p[0]);
	return n;
}

static void call_with_no_visible_device(void)
{
	int count;

	setenv("SDAA_VISIBLE_DEVICES", "", 1);
	sdaaGetDeviceCount(&count);
	fflush(stderr);
}

/* Quiet unless asked: a failing call prints nothing by default. */
TEST(quiet_by_default)
{
	unsetenv("SDAA_LOG_LEVEL");
	ASSERT_EQ(0, stderr_bytes(call_with_no_visible_device));
}

TEST(log_level_info_explains)
{
	setenv("SDAA_LOG_LEVEL", "info", 1);
	ASSERT_GT(stderr_bytes(call_with_no_visible_device), 0);
}

/* Without the module every call says so (and then the module comes back). */
TEST(driver_not_loaded)
{
	struct swai_card c[SWAI_MAX_CARDS];
	int cards = swai_find_cards(c, SWAI_MAX_CARDS), count = -1, rc;

	ASSERT_GT(cards, 0);
	rc = system("modprobe -r swai");
	ASSERT_EQ(0, WEXITSTATUS(rc));
	EXPECT_EQ(sdaaErrorDriverNotLoaded, sdaaGetDeviceCount(&count));
	EXPECT_EQ(0, count);
	EXPECT_NE(NULL, strstr(sdaaGetErrorString(sdaaGetLastError()), "modprobe swai"));
	rc = system("modprobe swai");
	ASSERT_EQ(0, WEXITSTATUS(rc));
	ASSERT_EQ(cards, swai_wait_cards(cards, 5000));
}

TEST_HARNESS_MAIN
