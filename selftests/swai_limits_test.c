// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_limits_test - one process cannot exhaust kernel memory through
 * queued jobs: a file has at most DRM_SWAI_MAX_LIVE_JOBS unfinished jobs
 * (-EAGAIN beyond), and what a submit allocates is charged to the caller's
 * memory cgroup, so a cgroup's limit stops it first (-ENOMEM, or its OOM
 * killer) while the rest of the machine goes on.
 *
 * The jobs wait on a gate: a job that WAITs on a semaphore in host memory
 * until the CPU writes it (the queue's timeout is off meanwhile).
 */
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "swai_job.h"
#include "kselftest_harness.h"

#define CGROUP "/sys/fs/cgroup"

FIXTURE(limits) {
	struct swai_card card[SWAI_MAX_CARDS];
	long long timeout_ms;
	int fd;
	struct arena a;
	struct bo sem;
	uint32_t gate_sync;
};

FIXTURE_SETUP(limits)
{
	ASSERT_GT(swai_find_cards(self->card, SWAI_MAX_CARDS), 0);
	self->timeout_ms = swai_sysfs_num(&self->card[0], "job_timeout_ms");
	ASSERT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", "0"));
	self->fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, arena_init(self->fd, &self->a, 1 << 20));
	ASSERT_EQ(0, host_bo(self->fd, 4096, &self->sem));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &self->gate_sync));
}

FIXTURE_TEARDOWN(limits)
{
	char v[32];

	*(volatile uint64_t *)self->sem.cpu = 1;	/* whatever is still gated */
	snprintf(v, sizeof(v), "%lld", self->timeout_ms);
	card_attr_write(&self->card[0], "job_timeout_ms", v);
	close(self->fd);
}

/* The gate on queue 0: runs until the CPU writes 1 to the semaphore. */
static long long gate(int fd, struct arena *a, struct bo *sem, uint32_t out)
{
	struct prog p = { .n = 0 };
	struct drm_swai_submit s;

	*(volatile uint64_t *)sem->cpu = 0;
	p_sem(&p, SWAI_OP_WAIT, 0, sem->va, 1);
	p_end(&p);
	s = submit_args(0, arena_put(a, &p), p.n * INSN_SIZE);
	s.out_sync.handle = out;
	return submit_raw(fd, &s) ? -1 : (long long)s.job_id;
}

/* Jobs behind the gate on queue 1 until a submit fails: how many, and why. */
static long long pile_up(int fd, struct arena *a, uint32_t gate_sync, long long max, int *err)
{
	struct drm_swai_sync in = { .handle = gate_sync };
	struct prog p = { .n = 0 };
	long long n;
	__u64 va;

	p_end(&p);
	va = arena_put(a, &p);
	for (n = 0; n < max; n++) {
		struct drm_swai_submit s = submit_args(1, va, INSN_SIZE);

		s.in_syncs = (uintptr_t)&in;
		s.in_sync_count = 1;
		*err = submit_raw(fd, &s);
		if (*err)
			return n;
	}
	*err = 0;
	return n;
}

TEST_F_TIMEOUT(limits, live_jobs_capped, 300)
{
	long long g = gate(self->fd, &self->a, &self->sem, self->gate_sync), n;
	int err;

	ASSERT_GT(g, 0);
	n = pile_up(self->fd, &self->a, self->gate_sync, DRM_SWAI_MAX_LIVE_JOBS + 10, &err);
	/* the gate itself is one of the file's live jobs */
	EXPECT_EQ(DRM_SWAI_MAX_LIVE_JOBS - 1, n);
	EXPECT_EQ(-EAGAIN, err);
	/* a second file is not affected */
	{
		int fd2 = open(self->card[0].node, O_RDWR | O_CLOEXEC);
		struct drm_swai_query_device q;

		ASSERT_GE(fd2, 0);
		EXPECT_EQ(0, swai_query(fd2, &q));
		close(fd2);
	}
	/* open the gate: everything drains and submitting works again */
	*(volatile uint64_t *)self->sem.cpu = 1;
	EXPECT_EQ(0, job_error(self->fd, (uint64_t)g, 60000));
	EXPECT_EQ(0, drmSyncobjWait(self->fd, &self->gate_sync, 1, INT64_MAX, 0, NULL));
	for (int tries = 0; tries < 600; tries++) {
		n = pile_up(self->fd, &self->a, self->gate_sync, 1, &err);
		if (!err)
			break;
		usleep(100000);		/* the drained jobs are freed shortly */
	}
	EXPECT_EQ(0, err);
	TH_LOG("%d live jobs allowed, the next -EAGAIN", DRM_SWAI_MAX_LIVE_JOBS);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -errno;
}

/*
 * A process in a cgroup of 2 MiB piles up gated jobs: the cgroup's limit
 * stops it long before the per-file cap (-ENOMEM, or the cgroup's OOM
 * killer), and everything outside goes on.
 */
TEST_F_TIMEOUT(limits, memcg_charged, 300)
{
	struct stat st;
	char pid[32];
	int status;
	long long g, got, *res;
	pid_t child;

	if (stat(CGROUP "/cgroup.controllers", &st) &&
	    mount("none", CGROUP, "cgroup2", 0, NULL))
		SKIP(return, "no cgroup2 (%s)", strerror(errno));
	if (write_str(CGROUP "/cgroup.subtree_control", "+memory") ||
	    (mkdir(CGROUP "/swai-limits", 0755) && errno != EEXIST))
		SKIP(return, "no memory controller");
	ASSERT_EQ(0, write_str(CGROUP "/swai-limits/memory.max", "2097152"));
	g = gate(self->fd, &self->a, &self->sem, self->gate_sync);
	ASSERT_GT(g, 0);
	/*
	 * The child's results go through a page the parent has already
	 * touched: once the child is at its cgroup's limit, any page it
	 * faulted in (a pipe buffer, a new stack page) would call the OOM
	 * killer, which is not what this test is about.
	 */
	res = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	memset(res, 0, 4096);
	res[0] = -1;
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		int fd, err = 0, handle_fd;
		struct arena a;
		uint32_t sync;

		/* everything but the submits is set up before joining the cgroup */
		fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
		if (fd < 0 || arena_init(fd, &a, 1 << 16) ||
		    drmSyncobjHandleToFD(self->fd, self->gate_sync, &handle_fd) ||
		    drmSyncobjFDToHandle(fd, handle_fd, &sync))
			_exit(3);
		snprintf(pid, sizeof(pid), "%d", getpid());
		if (write_str(CGROUP "/swai-limits/cgroup.procs", pid))
			_exit(2);
		res[0] = pile_up(fd, &a, sync, DRM_SWAI_MAX_LIVE_JOBS, &err);
		res[1] = err;
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	got = res[0];
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("the cgroup stopped the process after %lld jobs: %s", got,
		       strerror((int)-res[1]));
		EXPECT_EQ(-ENOMEM, res[1]);
		EXPECT_LT(got, DRM_SWAI_MAX_LIVE_JOBS - 1);
	} else {
		/* or its OOM killer took it, before the per-file cap */
		ASSERT_TRUE(WIFSIGNALED(status)) TH_LOG("child status %#x", status);
		EXPECT_EQ(SIGKILL, WTERMSIG(status));
		EXPECT_LT(got, DRM_SWAI_MAX_LIVE_JOBS - 1);
		TH_LOG("the cgroup's OOM killer stopped the process");
	}
	munmap(res, 4096);
	/* outside the cgroup nothing changed: the gate opens, its jobs end */
	*(volatile uint64_t *)self->sem.cpu = 1;
	EXPECT_EQ(0, job_error(self->fd, (uint64_t)g, 60000));
	for (int tries = 0; tries < 100 && rmdir(CGROUP "/swai-limits"); tries++)
		usleep(100000);
}

TEST_HARNESS_MAIN
