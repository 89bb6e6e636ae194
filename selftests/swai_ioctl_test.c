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
	for (int r = 0; r < 2; r++) {
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
	for (unsigned int nr = DRM_COMMAND_BASE + DRM_SWAI_NIC_WAIT + 1;
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

/*
 * The DRM core ioctls an accel node answers (uapi/drm/swai_accel.h): the
 * others assume a primary node; GET_MAGIC and GET_UNIQUE dereference its
 * master, which an accel file has not (Documentation/security.md).
 */
static bool core_allowed(unsigned int nr)
{
	static const unsigned long ok[] = {
		DRM_IOCTL_VERSION, DRM_IOCTL_GET_CAP, DRM_IOCTL_GEM_CLOSE,
		DRM_IOCTL_PRIME_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_DESTROY,
		DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE,
		DRM_IOCTL_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_RESET, DRM_IOCTL_SYNCOBJ_SIGNAL,
		DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, DRM_IOCTL_SYNCOBJ_QUERY,
		DRM_IOCTL_SYNCOBJ_TRANSFER, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
	};

	/* DRM_IOCTL_SYNCOBJ_EVENTFD: newer than bookworm's libdrm headers */
	if (nr == 0xcf)
		return true;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (_IOC_NR(ok[i]) == nr)
			return true;
	return false;
}

static bool core_sharing(unsigned int nr)
{
	return nr == _IOC_NR(DRM_IOCTL_GEM_FLINK) || nr == _IOC_NR(DRM_IOCTL_GEM_OPEN) ||
	       nr == _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE);
}

/* Each core ioctl that oopsed or warned before the allow-list, by name. */
TEST_F(card, refused_get_magic)
{
	struct drm_auth a = { 0 };

	EXPECT_EQ(ENOTTY, raw_ioctl(self->fd, DRM_IOCTL_GET_MAGIC, &a));
}

TEST_F(card, refused_get_unique)
{
	char buf[64];
	struct drm_unique u = { .unique_len = sizeof(buf), .unique = buf };

	EXPECT_EQ(ENOTTY, raw_ioctl(self->fd, DRM_IOCTL_GET_UNIQUE, &u));
}

TEST_F(card, refused_auth_and_master)
{
	struct drm_auth a = { 0 };

	EXPECT_EQ(ENOTTY, raw_ioctl(self->fd, DRM_IOCTL_AUTH_MAGIC, &a));
	EXPECT_EQ(ENOTTY, raw_ioctl(self->fd, DRM_IOCTL_SET_MASTER, NULL));
	EXPECT_EQ(ENOTTY, raw_ioctl(self->fd, DRM_IOCTL_DROP_MASTER, NULL));
}

TEST_F(card, refused_mode_setting)
{
	struct drm_mode_card_res r = { 0 };

	EXPECT_EQ(ENOTTY, raw_ioctl(self->fd, DRM_IOCTL_MODE_GETRESOURCES, &r));
}

TEST_F(card, refused_sharing)
{
	struct drm_prime_handle p = { .handle = 1 };
	struct drm_gem_flink f = { .handle = 1 };
	struct drm_gem_open o = { .name = 1 };

	/* Export is allowed (swai_share_test); a handle that is not there: */
	EXPECT_EQ(ENOENT, raw_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p));
	EXPECT_EQ(EOPNOTSUPP, raw_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p));
	EXPECT_EQ(EOPNOTSUPP, raw_ioctl(self->fd, DRM_IOCTL_GEM_FLINK, &f));
	EXPECT_EQ(EOPNOTSUPP, raw_ioctl(self->fd, DRM_IOCTL_GEM_OPEN, &o));
}

/* Every core number off the list, in every direction and size: -ENOTTY. */
TEST_F(card, core_range_sweep)
{
	static unsigned char buf[4096];
	static const unsigned int dirs[] = {
		_IOC_NONE, _IOC_READ, _IOC_WRITE, _IOC_READ | _IOC_WRITE,
	};
	static const unsigned int sizes[] = { 0, 8, 64, 4095 };
	int refused = 0;

	for (unsigned int nr = 0; nr < 0x100; nr++) {
		if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END)
			continue;
		if (core_allowed(nr))
			continue;
		for (size_t d = 0; d < 4; d++) {
			for (size_t z = 0; z < 4; z++) {
				unsigned long cmd = _IOC(dirs[d], DRM_IOCTL_BASE, nr, sizes[z]);
				int want = core_sharing(nr) ? EOPNOTSUPP : ENOTTY;

				memset(buf, 0, sizeof(buf));
				EXPECT_EQ(want, raw_ioctl(self->fd, cmd, buf)) {
					TH_LOG("core ioctl nr 0x%02x dir %u size %u", nr,
					       dirs[d], sizes[z]);
				}
				refused++;
			}
		}
	}
	TH_LOG("%d core ioctl encodings refused", refused);
}

/* The allowed ones work as DRM core defines them. */
TEST_F(card, allowed_core_ioctls)
{
	struct drm_get_cap cap = { .capability = DRM_CAP_SYNCOBJ };
	struct drm_gem_close cl = { .handle = 0x7fffffff };
	uint32_t h;

	EXPECT_EQ(0, raw_ioctl(self->fd, DRM_IOCTL_GET_CAP, &cap));
	EXPECT_EQ(1ULL, cap.value);
	EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &cl));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &h));
	EXPECT_EQ(0, drmSyncobjSignal(self->fd, &h, 1));
	EXPECT_EQ(0, drmSyncobjWait(self->fd, &h, 1, 0, 0, NULL));
	EXPECT_EQ(0, drmSyncobjReset(self->fd, &h, 1));
	EXPECT_EQ(0, drmSyncobjDestroy(self->fd, h));
}

/* A syncobj array longer than the uAPI's limit never reaches DRM core. */
TEST_F(card, syncobj_counts_bounded)
{
	static uint32_t handles[DRM_SWAI_SYNCOBJ_MAX_HANDLES + 1];
	static uint64_t points[DRM_SWAI_SYNCOBJ_MAX_HANDLES + 1];
	static const uint32_t counts[] = {
		DRM_SWAI_SYNCOBJ_MAX_HANDLES + 1, 0x00100000u, 0x40000000u, 0xffffffffu,
	};
	uint32_t h;

	ASSERT_EQ(0, drmSyncobjCreate(self->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &h));
	for (size_t i = 0; i <= DRM_SWAI_SYNCOBJ_MAX_HANDLES; i++)
		handles[i] = h;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct drm_syncobj_wait w = {
			.handles = (uintptr_t)handles, .count_handles = counts[c],
		};
		struct drm_syncobj_timeline_wait tw = {
			.handles = (uintptr_t)handles, .points = (uintptr_t)points,
			.count_handles = counts[c],
		};
		struct drm_syncobj_array a = {
			.handles = (uintptr_t)handles, .count_handles = counts[c],
		};
		struct drm_syncobj_timeline_array ta = {
			.handles = (uintptr_t)handles, .points = (uintptr_t)points,
			.count_handles = counts[c],
		};

		EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_WAIT, &w));
		EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw));
		EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_RESET, &a));
		EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &a));
		EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, &ta));
		EXPECT_EQ(EINVAL, raw_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &ta));
	}
	/*
	 * A size that ends inside count_handles: DRM core would zero-extend
	 * the three bytes given into a count of 16 million.
	 */
	{
		struct drm_syncobj_wait w = {
			.handles = (uintptr_t)handles, .count_handles = 0x00ffffffu,
		};
		unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
					 _IOC_NR(DRM_IOCTL_SYNCOBJ_WAIT),
					 offsetof(struct drm_syncobj_wait, count_handles) + 3);

		EXPECT_EQ(EINVAL, raw_ioctl(self->fd, cmd, &w));
	}
	/* the limit itself is fine: the same handle, 4096 times */
	EXPECT_EQ(0, drmSyncobjWait(self->fd, handles, DRM_SWAI_SYNCOBJ_MAX_HANDLES, 0, 0,
				    NULL));
	/* an argument the kernel cannot read: -EFAULT */
	EXPECT_EQ(EFAULT, raw_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_WAIT, (void *)8));
	EXPECT_EQ(0, drmSyncobjDestroy(self->fd, h));
}

TEST_HARNESS_MAIN
