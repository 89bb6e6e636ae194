// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_ioctl_test - bad ioctls are rejected with the errno the uAPI promises
 * (uapi/drm/swai_accel.h) and leave the device working.
 */
#include <stddef.h>
#include <sys/mman.h>
#include <termios.h>

#include "swai_test.h"
#include "kselftest_harness.h"

#define QUERY_NR (DRM_COMMAND_BASE + DRM_SWAI_QUERY_DEVICE)

FIXTURE(card) {
	struct swai_card card[SWAI_MAX_CARDS];
	int fd;
};

FIXTURE_SETUP(card)
{
	ASSERT_GT(swai_find_cards(self->card, SWAI_MAX_CARDS), 0)
		TH_LOG("no swai card bound: is swai.ko loaded?");
	self->fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(card)
{
	struct drm_swai_query_device q;

	/* Whatever a test threw at it, the card still answers. */
	EXPECT_EQ(0, swai_query(self->fd, &q));
	EXPECT_EQ(4u, q.num_core_groups);
	close(self->fd);
}

static int raw_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

TEST_F(card, valid_query)
{
	struct drm_swai_query_device q;

	ASSERT_EQ(0, swai_query(self->fd, &q));
	ASSERT_NE(0ULL, q.hbm_per_cg);
}

TEST_F(card, nonzero_flags)
{
	struct drm_swai_query_device q = { .flags = 1 };

	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_DEVICE, &q));
	q.flags = 0x80000000u;
	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_DEVICE, &q));
}

TEST_F(card, nonzero_pad)
{
	struct drm_swai_query_device q = { .pad = 1 };

	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_DEVICE, &q));
}

TEST_F(card, nonzero_reserved)
{
	for (int r = 0; r < 4; r++) {
		struct drm_swai_query_device q = { 0 };

		q.reserved[r] = 1ULL << (r * 16);
		EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_DEVICE, &q)) {
			TH_LOG("reserved[%d] not checked", r);
		}
	}
}

/* DRM core would zero-extend a short struct; the uAPI promises -EINVAL. */
TEST_F(card, short_struct)
{
	char buf[sizeof(struct drm_swai_query_device)] = { 0 };

	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
			DRM_IOCTL_BASE, QUERY_NR, 64), buf));
	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
			DRM_IOCTL_BASE, QUERY_NR, sizeof(buf) - 8), buf));
}

TEST_F(card, oversized_struct)
{
	char buf[512] = { 0 };

	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
			DRM_IOCTL_BASE, QUERY_NR, 256), buf));
	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
			DRM_IOCTL_BASE, QUERY_NR,
			sizeof(struct drm_swai_query_device) + 8), buf));
}

TEST_F(card, wrong_direction)
{
	struct drm_swai_query_device q = { 0 };

	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOR(QUERY_NR,
			struct drm_swai_query_device), &q));
	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOW(QUERY_NR,
			struct drm_swai_query_device), &q));
	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IO(QUERY_NR), NULL));
}

TEST_F(card, unknown_driver_ioctl)
{
	struct drm_swai_query_device q = { 0 };

	/* Every number past the last ioctl of the uAPI header. */
	for (unsigned int nr = DRM_COMMAND_BASE + DRM_SWAI_JOB_WAIT + 1;
	     nr < DRM_COMMAND_END; nr += 7) {
		EXPECT_EQ(ENOTTY, raw_ioctl(self->fd, DRM_IOWR(nr,
				struct drm_swai_query_device), &q)) {
			TH_LOG("driver ioctl nr 0x%x not rejected", nr);
		}
	}
}

/* An accel node is no terminal: a foreign ioctl type is not ours. */
TEST_F(card, foreign_ioctl_type)
{
	struct termios t;

	EXPECT_EQ(ENOTTY, raw_ioctl(self->fd, TCGETS, &t));
	EXPECT_FALSE(isatty(self->fd));
}

TEST_F(card, bad_pointers)
{
	void *guard = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, guard);
	ASSERT_NE(MAP_FAILED, page);
	EXPECT_EQ(EFAULT, raw_ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_DEVICE, NULL));
	EXPECT_EQ(EFAULT, raw_ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_DEVICE, guard));
	/* A struct that runs off the end of the mapping into a hole. */
	ASSERT_EQ(0, munmap(page + 4096, 4096));
	memset(page, 0, 4096);
	EXPECT_EQ(EFAULT, raw_ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_DEVICE,
				    page + 4096 - 64));
	/* Read-only memory: the kernel cannot write the answer back. */
	ASSERT_EQ(0, mprotect(page, 4096, PROT_READ));
	EXPECT_EQ(EFAULT, raw_ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_DEVICE, page));
	munmap(guard, 4096);
	munmap(page, 4096);
}

/* Core DRM ioctls still reach DRM core through the driver's wrapper. */
TEST_F(card, core_ioctls_pass)
{
	drmVersionPtr v = drmGetVersion(self->fd);

	ASSERT_NE(NULL, v);
	drmFreeVersion(v);
}

TEST_HARNESS_MAIN
