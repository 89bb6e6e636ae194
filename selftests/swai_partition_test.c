// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_partition_test - the Local/Global switch: DRM_IOCTL_SWAI_SET_PARTITION
 * moves HBM between the tiers as the query, sysfs and the runtime then
 * report; bad values and unprivileged callers are refused; the local_mb
 * module parameter sets it at load.  Every test restores the card's split.
 */
#include <sys/wait.h>

#include "sdaa_runtime.h"
#include "swai_test.h"
#include "kselftest_harness.h"

#define MIB (1ULL << 20)

static int set_split(int fd, unsigned long long local)
{
	struct drm_swai_set_partition p = { .local_per_cg = local };

	return ioctl(fd, DRM_IOCTL_SWAI_SET_PARTITION, &p) ? -errno : 0;
}

FIXTURE(split) {
	struct swai_card card[SWAI_MAX_CARDS];
	int n, fd;
	struct drm_swai_query_device q0;	/* card 0 before the test */
};

FIXTURE_SETUP(split)
{
	self->n = swai_find_cards(self->card, SWAI_MAX_CARDS);
	ASSERT_GT(self->n, 0);
	self->fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, swai_query(self->fd, &self->q0));
	ASSERT_TRUE(self->q0.capabilities & DRM_SWAI_CAP_PARTITION);
}

FIXTURE_TEARDOWN(split)
{
	EXPECT_EQ(0, set_split(self->fd, self->q0.local_per_cg));
	close(self->fd);
}

/* Every split moves exactly 4 x (hbm - local) into Global-HBM. */
TEST_F(split, moves_hbm_between_tiers)
{
	unsigned long long hbm = self->q0.hbm_per_cg;
	unsigned long long local[] = { 0, MIB, hbm / 4, hbm / 2, hbm - MIB, hbm };

	for (unsigned int i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
		struct drm_swai_query_device q;

		ASSERT_EQ(0, set_split(self->fd, local[i]));
		ASSERT_EQ(0, swai_query(self->fd, &q));
		EXPECT_EQ(local[i], q.local_per_cg);
		EXPECT_EQ(4 * (hbm - local[i]), q.global_size);
		EXPECT_EQ(hbm, q.hbm_per_cg);
		EXPECT_EQ((long long)local[i], swai_sysfs_num(&self->card[0], "local_per_cg"));
		EXPECT_EQ((long long)q.global_size,
			  swai_sysfs_num(&self->card[0], "global_size"));
	}
}

/*
 * Device 0's properties as a new process sees them: libsdaa reads the split
 * once per process, so each reading is made by a fresh child.
 */
static int fresh_props(struct sdaaDeviceProp *prop)
{
	int p[2], st;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		int ok = sdaaGetDeviceProperties(prop, 0) == sdaaSuccess &&
			 write(p[1], prop, sizeof(*prop)) == (ssize_t)sizeof(*prop);

		_exit(!ok);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], prop, sizeof(*prop)) != (ssize_t)sizeof(*prop))
		st = -1;
	else if (waitpid(pid, &st, 0) != pid)
		st = -1;
	close(p[0]);
	return st;
}

/* The paper's 4x: with no Local-HBM one core group reaches all of HBM. */
TEST_F(split, all_global_is_four_times_local)
{
	struct sdaaDeviceProp full, none;

	ASSERT_EQ(0, set_split(self->fd, self->q0.hbm_per_cg));
	ASSERT_EQ(0, fresh_props(&full));
	ASSERT_EQ(0, set_split(self->fd, 0));
	ASSERT_EQ(0, fresh_props(&none));
	EXPECT_EQ(self->q0.hbm_per_cg, full.totalLocalMem);
	EXPECT_EQ(0u, full.totalGlobalMem);
	EXPECT_EQ(0u, none.totalLocalMem);
	EXPECT_EQ(4 * full.totalLocalMem, none.totalGlobalMem);
}

TEST_F(split, bad_values_rejected)
{
	struct drm_swai_query_device q;
	struct drm_swai_set_partition p = { 0 };

	EXPECT_EQ(-EINVAL, set_split(self->fd, self->q0.hbm_per_cg + MIB));
	EXPECT_EQ(-EINVAL, set_split(self->fd, MIB / 2));
	EXPECT_EQ(-EINVAL, set_split(self->fd, 3 * MIB + 4096));
	EXPECT_EQ(-EINVAL, set_split(self->fd, ~0ULL));
	p.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_SET_PARTITION, &p));
	EXPECT_EQ(EINVAL, errno);
	p.flags = 0;
	p.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_SET_PARTITION, &p));
	EXPECT_EQ(EINVAL, errno);
	p.pad = 0;
	p.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_SET_PARTITION, &p));
	EXPECT_EQ(EINVAL, errno);
	/* Nothing changed. */
	ASSERT_EQ(0, swai_query(self->fd, &q));
	EXPECT_EQ(self->q0.local_per_cg, q.local_per_cg);
}

/*
 * The split is every process's: an unprivileged opener may not change it.
 * (A child drops privileges, so the fixture can still restore the split.)
 */
TEST_F(split, unprivileged_refused)
{
	struct drm_swai_query_device q;
	pid_t pid = fork();
	int st;

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		_exit(set_split(self->fd, 0) == -EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));
	ASSERT_EQ(0, swai_query(self->fd, &q));
	EXPECT_EQ(self->q0.local_per_cg, q.local_per_cg);
}

/* Each card has its own switch. */
TEST_F(split, cards_independent)
{
	struct drm_swai_query_device q, q1;
	int fd1;

	if (self->n < 2)
		SKIP(return, "one card only");
	fd1 = open(self->card[1].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd1, 0);
	ASSERT_EQ(0, swai_query(fd1, &q));
	ASSERT_EQ(0, set_split(self->fd, self->q0.local_per_cg == 0 ? MIB : 0));
	ASSERT_EQ(0, swai_query(fd1, &q1));
	EXPECT_EQ(q.local_per_cg, q1.local_per_cg);
	close(fd1);
}

static int run(const char *cmd)
{
	int rc = system(cmd);

	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* local_mb at load sets every card; a value the cards refuse is not fatal. */
TEST(module_parameter)
{
	struct swai_card c[SWAI_MAX_CARDS];
	int n = swai_find_cards(c, SWAI_MAX_CARDS);
	long long hbm_mb;

	ASSERT_GT(n, 0);
	hbm_mb = swai_sysfs_num(&c[0], "hbm_per_cg") >> 20;
	ASSERT_EQ(0, run("modprobe -r swai && modprobe swai local_mb=1"));
	ASSERT_EQ(n, swai_wait_cards(n, 5000));
	n = swai_find_cards(c, SWAI_MAX_CARDS);
	for (int i = 0; i < n; i++)
		EXPECT_EQ((long long)MIB, swai_sysfs_num(&c[i], "local_per_cg"));

	ASSERT_EQ(0, run("modprobe -r swai && modprobe swai local_mb=1000000"));
	ASSERT_EQ(n, swai_wait_cards(n, 5000));
	n = swai_find_cards(c, SWAI_MAX_CARDS);
	for (int i = 0; i < n; i++) {
		long long local = swai_sysfs_num(&c[i], "local_per_cg");

		EXPECT_GE(local, 0);
		EXPECT_LE(local, hbm_mb * (long long)MIB);
	}
	ASSERT_EQ(0, run("modprobe -r swai && modprobe swai"));
	ASSERT_EQ(n, swai_wait_cards(n, 5000));
}

TEST_HARNESS_MAIN
