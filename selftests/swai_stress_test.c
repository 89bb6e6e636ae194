// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_stress_test - many jobs at once: several processes, each feeding
 * every queue with copies through device memory chained by timeline
 * syncobj points, and several threads of one process sharing a file; every
 * job completes, with the right data and job ids, and the card is left
 * without contexts of the workers.
 */
#include <pthread.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "swai_job.h"

#define PROCS	4
#define JOBS	48

FIXTURE(stress) {
	struct swai_card card[SWAI_MAX_CARDS];
	int fd;
	struct drm_swai_query_device q;
	unsigned int ncg;
};

FIXTURE_SETUP(stress)
{
	ASSERT_GT(swai_find_cards(self->card, SWAI_MAX_CARDS), 0);
	self->fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, swai_query(self->fd, &self->q));
	if (!(self->q.capabilities & DRM_SWAI_CAP_SUBMIT))
		SKIP(return, "card has no queues (DRM_SWAI_CAP_SUBMIT not set)");
	self->ncg = self->q.num_core_groups;
}

FIXTURE_TEARDOWN(stress)
{
	close(self->fd);
}

/*
 * One worker process: JOBS jobs over every queue, each copying its own
 * chunk host -> device memory -> host and counting on a semaphore; every
 * job signals its timeline point, every third also waits for the point
 * before.  Exit status 0 when everything checks out.
 */
static int worker(const struct swai_card *c, const struct drm_swai_query_device *q,
		  int proc)
{
	unsigned int ncg = q->num_core_groups;
	__u64 chunk = 8192 + 13 * proc;
	uint64_t pt;
	struct bo src, dst, mid[MAX_CG];
	struct drm_swai_job_wait w;
	struct drm_swai_sync in;
	struct drm_swai_submit s;
	long long id[JOBS];
	struct arena a = { .used = 0 };
	int fd, global;
	__u32 h;

	fd = open(c->node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || arena_init(fd, &a, MIB) || host_bo(fd, 2 * MIB, &src) ||
	    host_bo(fd, 2 * MIB, &dst) || drmSyncobjCreate(fd, 0, &h))
		return 10;
	global = q->global_size >= 4 * MIB;
	for (unsigned int cg = 0; cg < ncg; cg++)
		if (dev_bo(fd, global ? DRM_SWAI_MEM_GLOBAL : DRM_SWAI_MEM_LOCAL(cg),
			   JOBS * chunk, &mid[cg]))
			return 11;
	fill(src.cpu, JOBS * chunk, proc);

	for (int j = 0; j < JOBS; j++) {
		unsigned int cg = (j + proc) % ncg;
		__u64 off = j * chunk;
		struct prog p = { .n = 0 };

		p_copy(&p, mid[cg].va + off, src.va + off, chunk);
		p_copy(&p, dst.va + off, mid[cg].va + off, chunk);
		p_sem(&p, SWAI_OP_SIGNAL, 0, src.va + 2 * MIB - 8, 1);
		p_end(&p);
		s = submit_args(cg, arena_put(&a, &p), p.n * INSN_SIZE);
		s.out_sync = (struct drm_swai_sync){ .handle = h,
			.flags = DRM_SWAI_SYNC_TIMELINE, .point = j + 1 };
		if (j && j % 3 == 0) {
			in = (struct drm_swai_sync){ .handle = h,
				.flags = DRM_SWAI_SYNC_TIMELINE, .point = j };
			s.in_syncs = (uintptr_t)&in;
			s.in_sync_count = 1;
		}
		if (submit_raw(fd, &s))
			return 12;
		id[j] = s.job_id;
		if (id[j] != j + 1)
			return 13;
	}
	pt = JOBS;
	if (drmSyncobjTimelineWait(fd, &h, &pt, 1, (int64_t)(now_ns() + 60000000000ULL),
				   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL))
		return 14;
	for (int j = 0; j < JOBS; j++)
		if (job_wait(fd, id[j], 1000, &w) || w.error || w.state != DRM_SWAI_JOB_DONE)
			return 15;
	if (memcmp(src.cpu, dst.cpu, JOBS * chunk))
		return 16;
	if (sem_read(&src, 2 * MIB - 8) != JOBS)
		return 17;
	close(fd);
	return 0;
}

TEST_F_TIMEOUT(stress, processes_times_queues, 300)
{
	struct drm_swai_mem_info mi = { 0 };
	pid_t pid[PROCS];
	unsigned int base;

	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SWAI_MEM_INFO, &mi));
	base = mi.contexts;
	for (int i = 0; i < PROCS; i++) {
		pid[i] = fork();
		ASSERT_GE(pid[i], 0);
		if (!pid[i])
			_exit(worker(&self->card[0], &self->q, i));
	}
	for (int i = 0; i < PROCS; i++) {
		int st;

		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st));
		EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("worker %d failed at step %d", i,
						     WEXITSTATUS(st));
	}
	/*
	 * No worker's context is left.  Fewer than before is fine: a context of
	 * an earlier test's process may still have been on its way out (its
	 * teardown is deferred) when we counted.
	 */
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SWAI_MEM_INFO, &mi));
	EXPECT_GE(base, mi.contexts);
}

struct thread_arg {
	int fd;
	struct bo *host;
	unsigned int queue;
	long long id[JOBS];
	int err;
};

/* One thread: JOBS copies on its queue through the shared file. */
static void *submitter(void *p)
{
	struct thread_arg *t = p;
	struct arena a = { .used = 0 };

	if (arena_init(t->fd, &a, MIB)) {
		t->err = 1;
		return NULL;
	}
	for (int j = 0; j < JOBS; j++) {
		__u64 off = (t->queue * JOBS + j) * 1024ULL;
		struct prog p = { .n = 0 };

		p_copy(&p, t->host->va + MIB + off, t->host->va + off, 1024);
		p_end(&p);
		t->id[j] = run_prog(t->fd, &a, &p, t->queue);
		if (t->id[j] <= 0) {
			t->err = 2;
			return NULL;
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(stress, threads_share_a_file, 300)
{
	struct thread_arg t[MAX_CG];
	pthread_t th[MAX_CG];
	struct drm_swai_job_wait w;
	static char seen[MAX_CG * JOBS + 1];
	struct bo host;

	ASSERT_EQ(0, host_bo(self->fd, 2 * MIB, &host));
	fill(host.cpu, MIB, 3);
	for (unsigned int i = 0; i < self->ncg; i++) {
		t[i] = (struct thread_arg){ .fd = self->fd, .host = &host, .queue = i };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, submitter, &t[i]));
	}
	for (unsigned int i = 0; i < self->ncg; i++) {
		ASSERT_EQ(0, pthread_join(th[i], NULL));
		ASSERT_EQ(0, t[i].err);
	}
	/* Ids are unique, 1..n in the file, whatever the interleaving. */
	memset(seen, 0, sizeof(seen));
	for (unsigned int i = 0; i < self->ncg; i++) {
		for (int j = 0; j < JOBS; j++) {
			long long id = t[i].id[j];

			ASSERT_GE(id, 1);
			ASSERT_LE(id, (long long)self->ncg * JOBS);
			EXPECT_EQ(0, seen[id]);
			seen[id] = 1;
			if (j)
				EXPECT_GT(id, t[i].id[j - 1]);
			ASSERT_EQ(0, job_wait(self->fd, id, 60000, &w));
			EXPECT_EQ(0u, w.error);
			EXPECT_EQ(i, w.queue);
		}
	}
	EXPECT_EQ(0, memcmp(host.cpu, (char *)host.cpu + MIB, self->ncg * JOBS * 1024));
}

/*
 * A worker for recovery_under_load: rounds of jobs on every queue through a
 * fresh file each; every job must end (no wait runs out), a job that ended
 * well must have copied its data, and a failed job may only be a victim of
 * the recovery (TIMEOUT, RESET) or canceled behind one.
 */
static int recovery_worker(const struct swai_card *c, unsigned int ncg, int proc)
{
	for (int round = 0; round < 16; round++) {
		struct drm_swai_job_wait w;
		long long id[24];
		struct arena a = { .used = 0 };
		struct bo host;
		int fd, n = 0;

		fd = open(c->node, O_RDWR | O_CLOEXEC);
		if (fd < 0 || arena_init(fd, &a, MIB) || host_bo(fd, MIB, &host))
			return 20;
		fill(host.cpu, 24 * 8192, proc * 100 + round);
		for (int j = 0; j < 24; j++) {
			struct prog p = { .n = 0 };

			p_copy(&p, host.va + MIB / 2 + j * 8192, host.va + j * 8192, 8192);
			p_end(&p);
			id[n] = run_prog(fd, &a, &p, (j + proc) % ncg);
			if (id[n] == -ECANCELED)
				break;
			if (id[n] < 0)
				return 21;
			n++;
		}
		for (int j = 0; j < n; j++) {
			char *b = (char *)host.cpu + j * 8192;

			if (job_wait(fd, id[j], 60000, &w))
				return 22;
			if (!w.error && memcmp(b, b + MIB / 2, 8192))
				return 23;
			if (w.error && w.error != DRM_SWAI_JOB_ERR_TIMEOUT &&
			    w.error != DRM_SWAI_JOB_ERR_RESET &&
			    w.error != DRM_SWAI_JOB_ERR_CANCELED)
				return 24;
		}
		close(fd);
	}
	return 0;
}

/* Is a debugfs injection knob of @c disarmed? */
static int knob_off(const struct swai_card *c, const char *knob)
{
	char path[PATH_MAX], buf[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/%s", c->bdf, knob);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strcmp(buf, "off\n");
}

/*
 * Job timeouts (injected hangs on any queue) and card resets, again and
 * again while several processes keep every queue busy.
 */
TEST_F_TIMEOUT(stress, recovery_under_load, 300)
{
	long long timeout = swai_sysfs_num(&self->card[0], "job_timeout_ms");
	long long resets = swai_sysfs_num(&self->card[0], "reset_count");
	int alive = PROCS, card_resets = 0, hangs = 0;
	struct drm_swai_job_wait w;
	struct arena a = { .used = 0 };
	struct prog p = { .n = 0 };
	char v[32];
	pid_t pid[PROCS];

	ASSERT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", "1000"));
	for (int i = 0; i < PROCS; i++) {
		pid[i] = fork();
		ASSERT_GE(pid[i], 0);
		if (!pid[i])
			_exit(recovery_worker(&self->card[0], self->ncg, i));
	}
	for (int k = 0; alive; k++) {
		if (knob_off(&self->card[0], "inject_hang") && hangs < 8) {
			EXPECT_EQ(0, debugfs_write(&self->card[0], "inject_hang", "-1"));
			hangs++;
		}
		if (k % 4 == 3 && card_resets < 4) {
			EXPECT_EQ(0, card_attr_write(&self->card[0], "card_reset", "1"));
			card_resets++;
		}
		usleep(200 * 1000);
		for (int i = 0; i < PROCS; i++) {
			int st;

			if (!pid[i] || waitpid(pid[i], &st, WNOHANG) != pid[i])
				continue;
			EXPECT_TRUE(WIFEXITED(st));
			EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("worker %d failed at step %d", i,
							     WEXITSTATUS(st));
			pid[i] = 0;
			alive--;
		}
	}
	/* The first hang was armed before any job: it hit one. */
	EXPECT_GE(swai_sysfs_num(&self->card[0], "reset_count"), resets + card_resets + 1);
	debugfs_write(&self->card[0], "inject_hang", "off");
	snprintf(v, sizeof(v), "%lld", timeout);
	EXPECT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", v));

	/* Afterwards every queue works. */
	ASSERT_EQ(0, arena_init(self->fd, &a, MIB));
	p_end(&p);
	for (unsigned int cg = 0; cg < self->ncg; cg++) {
		ASSERT_EQ(0, job_wait(self->fd, run_prog(self->fd, &a, &p, cg), 20000, &w));
		EXPECT_EQ(0u, w.error);
	}
}

TEST_HARNESS_MAIN
