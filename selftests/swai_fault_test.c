// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_fault_test - jobs that fail and how the driver recovers: illegal
 * instructions, MMU faults, another core group's Local-HBM, unreadable
 * programs and LDM overruns end only their job, with the card's error code,
 * and fail only their file's context, while another process's jobs complete
 * correctly; a hung program is ended by the job timeout, which resets only
 * its queue and lets every other job (even those queued behind it) finish;
 * the card-wide reset (sysfs and debugfs), the fault-injection knobs, the
 * reset counter, and files closed or processes killed with jobs in flight.
 */
#include <signal.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "swai_job.h"

/* An address no test maps: inside the 39-bit device VA space. */
#define UNMAPPED_VA (1ULL << 38)

FIXTURE(fault) {
	struct swai_card card[SWAI_MAX_CARDS];
	int fd;
	struct drm_swai_query_device q;
	struct arena a;
	struct bo host;
	unsigned int ncg;
	long long timeout_ms;	/* job_timeout_ms to restore */
};

FIXTURE_SETUP(fault)
{
	ASSERT_GT(swai_find_cards(self->card, SWAI_MAX_CARDS), 0);
	self->fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, swai_query(self->fd, &self->q));
	if (!(self->q.capabilities & DRM_SWAI_CAP_SUBMIT))
		SKIP(return, "card has no queues (DRM_SWAI_CAP_SUBMIT not set)");
	ASSERT_EQ(0, arena_init(self->fd, &self->a, MIB));
	ASSERT_EQ(0, host_bo(self->fd, MIB, &self->host));
	self->ncg = self->q.num_core_groups;
	self->timeout_ms = swai_sysfs_num(&self->card[0], "job_timeout_ms");
	ASSERT_GE(self->timeout_ms, 0);
}

FIXTURE_TEARDOWN(fault)
{
	char v[32];

	if (self->timeout_ms >= 0) {
		snprintf(v, sizeof(v), "%lld", self->timeout_ms);
		EXPECT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", v));
	}
	for (int k = 0; k < 3; k++) {
		static const char *const knob[] = {
			"inject_hang", "inject_mmu_fault", "inject_dma_fail",
		};

		debugfs_write(&self->card[0], knob[k], "off");
	}
	if (self->fd >= 0)
		close(self->fd);
}

/* A second file on the card, with its own program arena and host buffer. */
struct file2 {
	int fd;
	struct arena a;
	struct bo host;
};

static int file2_open(const struct swai_card *c, struct file2 *f)
{
	f->fd = open(c->node, O_RDWR | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	if (arena_init(f->fd, &f->a, MIB) || host_bo(f->fd, MIB, &f->host))
		return -ENOMEM;
	return 0;
}

/* Run @p alone on @queue of a fresh file; the job's error code or -errno. */
static int run_alone(const struct swai_card *c, const struct prog *p, __u32 queue,
		     struct drm_swai_job_wait *w)
{
	struct file2 f;
	long long id;
	int ret;

	ret = file2_open(c, &f);
	if (ret)
		return ret;
	id = run_prog(f.fd, &f.a, p, queue);
	ret = id < 0 ? (int)id : job_wait(f.fd, id, 20000, w);
	close(f.fd);
	return ret ? ret : (int)w->error;
}

/*
 * Another process that copies patterns between host buffers on every queue
 * and checks them; exits 0 if every job completed with the right data.
 */
static pid_t spawn_worker(const struct swai_card *c, unsigned int ncg, int jobs)
{
	pid_t pid = fork();

	if (pid)
		return pid;

	struct drm_swai_job_wait w;
	long long id[64];
	struct file2 f;
	int bad = 0;

	if (file2_open(c, &f))
		_exit(2);
	for (int j = 0; j < jobs && j < 64; j++) {
		struct prog p = { .n = 0 };
		__u64 off = (__u64)j * 8192;

		fill((char *)f.host.cpu + off, 4096, 1000 + j);
		p_copy(&p, f.host.va + off + 4096, f.host.va + off, 4096);
		p_end(&p);
		id[j] = run_prog(f.fd, &f.a, &p, j % ncg);
		if (id[j] < 0)
			_exit(3);
	}
	for (int j = 0; j < jobs && j < 64; j++) {
		char *b = (char *)f.host.cpu + (__u64)j * 8192;

		if (job_wait(f.fd, id[j], 30000, &w) || w.error || w.ctx_flags)
			bad = 4;
		else if (memcmp(b, b + 4096, 4096))
			bad = 5;
	}
	close(f.fd);
	_exit(bad);
}

static int worker_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static long long reset_count(const struct swai_card *c)
{
	return swai_sysfs_num(c, "reset_count");
}

/* An illegal instruction fails its job and context, nothing else. */
TEST_F(fault, illegal_instruction)
{
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	pid_t worker = spawn_worker(&self->card[0], self->ncg, 24);
	long long id;

	emit(&p, SWAI_OP_NOP);
	emit(&p, SWAI_OP_NOP);
	emit(&p, 0x7f);
	p_end(&p);
	id = run_prog(self->fd, &self->a, &p, 0);
	ASSERT_GT(id, 0);
	ASSERT_EQ(0, job_wait(self->fd, id, 20000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_ILLEGAL, w.error);
	EXPECT_EQ(2u, w.error_pc);
	EXPECT_EQ(DRM_SWAI_CTX_FAILED, w.ctx_flags);

	/* The context is failed: no more submits, but its records remain. */
	EXPECT_EQ(-ECANCELED, run_prog(self->fd, &self->a, &p, 1));
	EXPECT_EQ(0, job_wait(self->fd, id, 0, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_ILLEGAL, w.error);

	/* A field an op does not use must be 0. */
	p_reset(&p);
	emit(&p, SWAI_OP_NOP)->len = 1;
	p_end(&p);
	EXPECT_EQ(DRM_SWAI_JOB_ERR_ILLEGAL, run_alone(&self->card[0], &p, 1, &w));
	EXPECT_EQ(0u, w.error_pc);

	EXPECT_EQ(0, worker_status(worker));
}

/* An access to an unmapped VA: MMU error with the VA; others go on. */
TEST_F(fault, mmu_fault_reports_va)
{
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	pid_t worker = spawn_worker(&self->card[0], self->ncg, 24);
	long long id;

	p_copy(&p, self->host.va, self->host.va + 4096, 100);
	p_copy(&p, self->host.va, UNMAPPED_VA + 24, 100);
	p_end(&p);
	id = run_prog(self->fd, &self->a, &p, self->ncg - 1);
	ASSERT_GT(id, 0);
	ASSERT_EQ(0, job_wait(self->fd, id, 20000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_MMU, w.error);
	EXPECT_EQ(1u, w.error_pc);
	EXPECT_EQ(UNMAPPED_VA + 24, w.fault_va);
	EXPECT_EQ(DRM_SWAI_CTX_FAILED, w.ctx_flags);
	EXPECT_EQ(-ECANCELED, run_prog(self->fd, &self->a, &p, 0));
	EXPECT_EQ(0, worker_status(worker));
}

/* A core group may not touch another core group's Local-HBM. */
TEST_F(fault, foreign_local_hbm)
{
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	unsigned char zero[4096] = { 0 }, got[4096];
	struct file2 f;
	struct bo l1 = { 0 };

	if (self->ncg < 2 || self->q.local_per_cg < MIB)
		SKIP(return, "needs two core groups with Local-HBM");
	ASSERT_EQ(0, file2_open(&self->card[0], &f));
	ASSERT_EQ(0, dev_bo(f.fd, DRM_SWAI_MEM_LOCAL(1), MIB, &l1));
	fill(f.host.cpu, 4096, 9);

	p_copy(&p, l1.va + 100, f.host.va, 4096);
	p_end(&p);
	ASSERT_EQ(0, job_wait(f.fd, run_prog(f.fd, &f.a, &p, 0), 20000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_FOREIGN, w.error);
	EXPECT_GE(w.fault_va, l1.va);
	EXPECT_LT(w.fault_va, l1.va + l1.size);
	bo_read(&l1, 100, got, sizeof(got));
	EXPECT_EQ(0, memcmp(zero, got, sizeof(got)));
	close(f.fd);

	/* Its own core group may. */
	ASSERT_EQ(0, file2_open(&self->card[0], &f));
	ASSERT_EQ(0, dev_bo(f.fd, DRM_SWAI_MEM_LOCAL(1), MIB, &l1));
	fill(f.host.cpu, 4096, 9);
	p_reset(&p);
	p_copy(&p, l1.va + 100, f.host.va, 4096);
	p_end(&p);
	ASSERT_EQ(0, job_wait(f.fd, run_prog(f.fd, &f.a, &p, 1), 20000, &w));
	EXPECT_EQ(0u, w.error);
	bo_read(&l1, 100, got, sizeof(got));
	EXPECT_EQ(0, memcmp(f.host.cpu, got, sizeof(got)));
	close(f.fd);
}

/* A program the card cannot fetch, and an LDM range past the LDM. */
TEST_F(fault, program_and_ldm_errors)
{
	struct drm_swai_job_wait w;
	struct drm_swai_submit s;
	struct prog p = { .n = 0 };
	__u64 ldm = (__u64)self->q.cpes_per_cg * self->q.ldm_size;

	s = submit_args(0, UNMAPPED_VA, INSN_SIZE);
	ASSERT_EQ(0, submit_raw(self->fd, &s));
	ASSERT_EQ(0, job_wait(self->fd, s.job_id, 20000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_PROGRAM, w.error);
	EXPECT_EQ(DRM_SWAI_CTX_FAILED, w.ctx_flags);

	p_xfer(&p, SWAI_OP_DMA_GET, ldm - 10, self->host.va, 100, 0, 0, 0);
	p_end(&p);
	EXPECT_EQ(DRM_SWAI_JOB_ERR_LDM, run_alone(&self->card[0], &p, 0, &w));
	EXPECT_EQ(0u, w.error_pc);
	p_reset(&p);
	p_xfer(&p, SWAI_OP_DMA_GET, ldm - 100, self->host.va, 100, 0, 0, 0);
	p_end(&p);
	EXPECT_EQ(0, run_alone(&self->card[0], &p, 0, &w));
}

/*
 * A program that never finishes (a WAIT nobody satisfies) is ended by the
 * job timeout: only its queue is reset, the job ends TIMEOUT and fails its
 * context, its context's job behind it is canceled, and another file's jobs
 * -- one on another queue, one queued behind the hung job -- complete.
 */
TEST_F_TIMEOUT(fault, hung_job_times_out, 120)
{
	struct drm_swai_job_wait w;
	struct drm_swai_query_timing t;
	struct prog p = { .n = 0 };
	long long hung, behind_own, behind, other, resets = reset_count(&self->card[0]);
	struct file2 b;

	ASSERT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", "1500"));
	EXPECT_EQ(1500, swai_sysfs_num(&self->card[0], "job_timeout_ms"));
	ASSERT_EQ(0, file2_open(&self->card[0], &b));

	p_sem(&p, SWAI_OP_WAIT, 0, self->host.va, 1);
	p_end(&p);
	hung = run_prog(self->fd, &self->a, &p, 0);
	ASSERT_GT(hung, 0);
	p_reset(&p);
	p_end(&p);
	behind_own = run_prog(self->fd, &self->a, &p, 0);
	ASSERT_GT(behind_own, 0);

	fill(b.host.cpu, 65536, 77);
	p_reset(&p);
	p_copy(&p, b.host.va + 65536, b.host.va, 65536);
	p_end(&p);
	behind = run_prog(b.fd, &b.a, &p, 0);
	ASSERT_GT(behind, 0);
	if (self->ncg > 1) {
		p_reset(&p);
		p_copy(&p, b.host.va + 262144, b.host.va, 65536);
		p_end(&p);
		other = run_prog(b.fd, &b.a, &p, 1);
		/* Another queue is not held up by the hung one. */
		ASSERT_EQ(0, job_wait(b.fd, other, 20000, &w));
		EXPECT_EQ(0u, w.error);
		EXPECT_EQ(-ETIME, job_wait(self->fd, hung, 0, &w));
		EXPECT_EQ(0, memcmp(b.host.cpu, (char *)b.host.cpu + 262144, 65536));
	}

	ASSERT_EQ(0, job_wait(self->fd, hung, 30000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_TIMEOUT, w.error);
	EXPECT_EQ(DRM_SWAI_CTX_FAILED, w.ctx_flags);
	ASSERT_EQ(0, job_wait(self->fd, behind_own, 30000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_CANCELED, w.error);
	EXPECT_EQ(-ECANCELED, run_prog(self->fd, &self->a, &p, 0));

	ASSERT_EQ(0, job_wait(b.fd, behind, 30000, &w));
	EXPECT_EQ(0u, w.error) TH_LOG("job queued behind the hung one: error %u", w.error);
	EXPECT_EQ(0u, w.ctx_flags);
	EXPECT_EQ(0, memcmp(b.host.cpu, (char *)b.host.cpu + 65536, 65536));

	EXPECT_EQ(resets + 1, reset_count(&self->card[0]));
	ASSERT_EQ(0, query_timing(b.fd, &t));
	EXPECT_EQ((__u64)resets + 1, t.resets);

	/* The queue works again, for everyone else. */
	p_reset(&p);
	p_end(&p);
	ASSERT_EQ(0, job_wait(b.fd, run_prog(b.fd, &b.a, &p, 0), 20000, &w));
	EXPECT_EQ(0u, w.error);
	close(b.fd);
}

/* The card-wide reset of @knob ("sysfs" or "debugfs"), as above. */
static void card_reset_case(struct __test_metadata *_metadata,
			    FIXTURE_DATA(fault) *self, int debugfs)
{
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	long long hung, behind, resets = reset_count(&self->card[0]);
	struct file2 b;

	ASSERT_EQ(0, file2_open(&self->card[0], &b));
	p_sem(&p, SWAI_OP_WAIT, 0, self->host.va, 1);
	p_end(&p);
	hung = run_prog(self->fd, &self->a, &p, self->ncg - 1);
	ASSERT_GT(hung, 0);
	fill(b.host.cpu, 4096, 5);
	p_reset(&p);
	p_copy(&p, b.host.va + 4096, b.host.va, 4096);
	p_end(&p);
	behind = run_prog(b.fd, &b.a, &p, self->ncg - 1);
	ASSERT_GT(behind, 0);
	usleep(300 * 1000);
	EXPECT_EQ(-ETIME, job_wait(self->fd, hung, 0, &w));

	if (debugfs) {
		EXPECT_EQ(-EINVAL, debugfs_write(&self->card[0], "reset", "0"));
		ASSERT_EQ(0, debugfs_write(&self->card[0], "reset", "1"));
	} else {
		EXPECT_EQ(-EINVAL, card_attr_write(&self->card[0], "card_reset", "0"));
		ASSERT_EQ(0, card_attr_write(&self->card[0], "card_reset", "1"));
	}
	ASSERT_EQ(0, job_wait(self->fd, hung, 20000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_RESET, w.error);
	EXPECT_EQ(DRM_SWAI_CTX_FAILED, w.ctx_flags);
	ASSERT_EQ(0, job_wait(b.fd, behind, 20000, &w));
	EXPECT_EQ(0u, w.error);
	EXPECT_EQ(0u, w.ctx_flags);
	EXPECT_EQ(0, memcmp(b.host.cpu, (char *)b.host.cpu + 4096, 4096));
	EXPECT_EQ(resets + 1, reset_count(&self->card[0]));
	close(b.fd);
}

TEST_F(fault, card_reset_sysfs)
{
	card_reset_case(_metadata, self, 0);
}

TEST_F(fault, card_reset_debugfs)
{
	card_reset_case(_metadata, self, 1);
}

/* Each injection knob fails the next job of its queue, once. */
TEST_F_TIMEOUT(fault, injection_knobs, 120)
{
	static const struct { const char *knob; __u32 error; } k[] = {
		{ "inject_mmu_fault", DRM_SWAI_JOB_ERR_MMU },
		{ "inject_dma_fail", DRM_SWAI_JOB_ERR_DMA },
		{ "inject_hang", DRM_SWAI_JOB_ERR_TIMEOUT },
	};
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	char cg[16], path[PATH_MAX], buf[16];
	long long resets;
	FILE *f;

	ASSERT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", "1500"));
	p_copy(&p, self->host.va, self->host.va + 4096, 64);
	p_end(&p);
	snprintf(cg, sizeof(cg), "%u", self->ncg - 1);
	for (unsigned int i = 0; i < ARRAY_SIZE(k); i++) {
		/* Bad values are refused. */
		snprintf(buf, sizeof(buf), "%u", self->ncg);
		EXPECT_EQ(-EINVAL, debugfs_write(&self->card[0], k[i].knob, buf));
		EXPECT_EQ(-EINVAL, debugfs_write(&self->card[0], k[i].knob, "-2"));
		EXPECT_EQ(-EINVAL, debugfs_write(&self->card[0], k[i].knob, "abc"));

		resets = reset_count(&self->card[0]);
		ASSERT_EQ(0, debugfs_write(&self->card[0], k[i].knob, cg));
		snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/%s",
			 self->card[0].bdf, k[i].knob);
		f = fopen(path, "r");
		ASSERT_NE(NULL, f);
		ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
		fclose(f);
		EXPECT_EQ(self->ncg - 1, (unsigned int)atoi(buf));

		/* Another queue is not affected. */
		if (self->ncg > 1)
			EXPECT_EQ(0, run_alone(&self->card[0], &p, 0, &w));
		EXPECT_EQ((int)k[i].error, run_alone(&self->card[0], &p, self->ncg - 1, &w))
			TH_LOG("%s", k[i].knob);
		EXPECT_EQ(resets + (k[i].error == DRM_SWAI_JOB_ERR_TIMEOUT),
			  reset_count(&self->card[0]));
		/* One shot. */
		f = fopen(path, "r");
		ASSERT_NE(NULL, f);
		ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
		fclose(f);
		EXPECT_STREQ("off\n", buf);
		EXPECT_EQ(0, run_alone(&self->card[0], &p, self->ncg - 1, &w));

		/* -1: the next job on any queue. */
		ASSERT_EQ(0, debugfs_write(&self->card[0], k[i].knob, "-1"));
		EXPECT_EQ((int)k[i].error, run_alone(&self->card[0], &p, 0, &w));
		EXPECT_EQ(0, run_alone(&self->card[0], &p, 0, &w));
	}
}

TEST_F(fault, job_timeout_attribute)
{
	EXPECT_EQ(-EINVAL, card_attr_write(&self->card[0], "job_timeout_ms", "abc"));
	EXPECT_EQ(-EINVAL, card_attr_write(&self->card[0], "job_timeout_ms", "3600001"));
	EXPECT_EQ(-EINVAL, card_attr_write(&self->card[0], "job_timeout_ms", "-1"));
	EXPECT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", "0"));
	EXPECT_EQ(0, swai_sysfs_num(&self->card[0], "job_timeout_ms"));
	EXPECT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", "2500"));
	EXPECT_EQ(2500, swai_sysfs_num(&self->card[0], "job_timeout_ms"));
}

static unsigned int contexts(int fd)
{
	struct drm_swai_mem_info mi = { 0 };

	return ioctl(fd, DRM_IOCTL_SWAI_MEM_INFO, &mi) ? 0 : mi.contexts;
}

/* Wait up to @ms for the card to have @want contexts; how many it has. */
static unsigned int wait_contexts(int fd, unsigned int want, int ms)
{
	unsigned int n = contexts(fd);

	for (int t = 0; t < ms && n != want; t += 100) {
		usleep(100 * 1000);
		n = contexts(fd);
	}
	return n;
}

/* Jobs on every queue, one hung, a syncobj chain: then go away. */
static void submit_and_abandon(int fd, struct arena *a, struct bo *host,
			       unsigned int ncg)
{
	struct drm_swai_sync sync = { 0 };
	struct drm_swai_submit s;
	struct prog p = { .n = 0 };
	__u32 h = 0;

	drmSyncobjCreate(fd, 0, &h);
	p_sem(&p, SWAI_OP_WAIT, 0, host->va, 1);
	p_end(&p);
	run_prog(fd, a, &p, 0);
	for (int j = 0; j < 24; j++) {
		p_reset(&p);
		p_copy(&p, host->va + 65536, host->va + 4096, 65536);
		p_end(&p);
		s = submit_args(j % ncg, arena_put(a, &p), p.n * INSN_SIZE);
		s.out_sync = (struct drm_swai_sync){ .handle = h,
			.flags = DRM_SWAI_SYNC_TIMELINE, .point = j + 1 };
		if (j) {
			sync = (struct drm_swai_sync){ .handle = h,
				.flags = DRM_SWAI_SYNC_TIMELINE, .point = j };
			s.in_syncs = (uintptr_t)&sync;
			s.in_sync_count = 1;
		}
		submit_raw(fd, &s);
	}
}

/* A file closed with jobs in flight (one hung) leaves nothing behind. */
TEST_F_TIMEOUT(fault, close_with_jobs_in_flight, 120)
{
	unsigned int base = contexts(self->fd);
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	struct file2 b;

	ASSERT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", "1500"));
	ASSERT_EQ(0, file2_open(&self->card[0], &b));
	EXPECT_EQ(base + 1, contexts(self->fd));
	submit_and_abandon(b.fd, &b.a, &b.host, self->ncg);
	close(b.fd);

	/* Every queue still runs jobs; the context goes once its jobs end. */
	p_end(&p);
	for (unsigned int cg = 0; cg < self->ncg; cg++) {
		ASSERT_EQ(0, job_wait(self->fd, run_prog(self->fd, &self->a, &p, cg),
				      30000, &w));
		EXPECT_EQ(0u, w.error);
	}
	EXPECT_EQ(base, wait_contexts(self->fd, base, 20000));
}

/* Same for a process killed while its jobs run. */
TEST_F_TIMEOUT(fault, killed_process_with_jobs_in_flight, 120)
{
	unsigned int base = contexts(self->fd);
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	pid_t pid;

	ASSERT_EQ(0, card_attr_write(&self->card[0], "job_timeout_ms", "1500"));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct file2 b;

		if (file2_open(&self->card[0], &b))
			_exit(1);
		submit_and_abandon(b.fd, &b.a, &b.host, self->ncg);
		raise(SIGKILL);
		_exit(1);
	}
	EXPECT_EQ(128 + SIGKILL, worker_status(pid));

	p_end(&p);
	for (unsigned int cg = 0; cg < self->ncg; cg++) {
		ASSERT_EQ(0, job_wait(self->fd, run_prog(self->fd, &self->a, &p, cg),
				      30000, &w));
		EXPECT_EQ(0u, w.error);
	}
	EXPECT_EQ(base, wait_contexts(self->fd, base, 20000));
}

/*
 * Unbinding the card while a file has jobs in flight (one hung, one being
 * waited for by another process): the waiter is released, the file gets
 * -ENODEV, closing it frees everything, and the card binds again and runs
 * jobs on every queue.
 */
TEST_F_TIMEOUT(fault, unbind_with_jobs_in_flight, 120)
{
	int cards = swai_find_cards(self->card, SWAI_MAX_CARDS), n, i;
	struct swai_card now[SWAI_MAX_CARDS];
	char bdf[sizeof(self->card[0].bdf)];
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	struct file2 b;
	pid_t waiter;

	ASSERT_EQ(0, file2_open(&self->card[0], &b));
	submit_and_abandon(b.fd, &b.a, &b.host, self->ncg);
	waiter = fork();
	ASSERT_GE(waiter, 0);
	if (!waiter) {
		/* The hung job (id 1) ends with the card: RESET, or the card is gone. */
		int ret = job_wait(b.fd, 1, 60000, &w);

		_exit(ret == -ENODEV || (!ret && w.error == DRM_SWAI_JOB_ERR_RESET) ? 0 : 1);
	}
	usleep(300 * 1000);
	snprintf(bdf, sizeof(bdf), "%s", self->card[0].bdf);
	ASSERT_EQ(0, write_file("/sys/bus/pci/drivers/swai/unbind", bdf));
	EXPECT_EQ(cards - 1, swai_wait_cards(cards - 1, 5000));
	EXPECT_EQ(0, worker_status(waiter));
	EXPECT_EQ(-ENODEV, job_wait(b.fd, 2, 0, &w));
	EXPECT_EQ(-ENODEV, run_prog(b.fd, &b.a, &p, 0));
	close(b.fd);
	close(self->fd);
	self->fd = -1;

	ASSERT_EQ(0, write_file("/sys/bus/pci/drivers/swai/bind", bdf));
	ASSERT_EQ(cards, swai_wait_cards(cards, 5000));
	n = swai_find_cards(now, SWAI_MAX_CARDS);
	for (i = 0; i < n && strcmp(now[i].bdf, bdf); i++)
		;
	ASSERT_LT(i, n);
	self->card[0] = now[i];
	ASSERT_EQ(0, file2_open(&now[i], &b));
	p_end(&p);
	for (unsigned int cg = 0; cg < self->ncg; cg++) {
		ASSERT_EQ(0, job_wait(b.fd, run_prog(b.fd, &b.a, &p, cg), 20000, &w));
		EXPECT_EQ(0u, w.error);
	}
	close(b.fd);
}

TEST_HARNESS_MAIN
