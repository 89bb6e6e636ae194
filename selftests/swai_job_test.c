// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_job_test - core-group programs through DRM_IOCTL_SWAI_SUBMIT and
 * DRM_IOCTL_SWAI_JOB_WAIT: argument checking, data moved by COPY, DMA_GET
 * and DMA_PUT between every pair of tiers at odd sizes and alignments,
 * SIGNAL/WAIT/BARRIER across queues, TIMESTAMP, binary and timeline
 * syncobjs as in- and out-fences with the modeled times they imply, job
 * waits with absolute timeouts, QUERY_TIMING and fdinfo; DIV and u8
 * REDUCE; peer access (DRM_SWAI_SUBMIT_PEER) to other core groups'
 * Local-HBM, and its absence (DRM_SWAI_JOB_ERR_FOREIGN).  Failures,
 * timeouts and recovery are in swai_fault_test, load in swai_stress_test.
 */
#include <signal.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "swai_job.h"

FIXTURE(job) {
	struct swai_card card[SWAI_MAX_CARDS];
	int fd;
	struct drm_swai_query_device q;
	struct drm_swai_query_timing t;
	struct arena a;
	struct bo host;		/* 1 MiB of pinned host memory for data */
	unsigned int ncg;
};

FIXTURE_SETUP(job)
{
	ASSERT_GT(swai_find_cards(self->card, SWAI_MAX_CARDS), 0);
	self->fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, swai_query(self->fd, &self->q));
	if (!(self->q.capabilities & DRM_SWAI_CAP_SUBMIT))
		SKIP(return, "card has no queues (DRM_SWAI_CAP_SUBMIT not set)");
	ASSERT_TRUE(self->q.capabilities & DRM_SWAI_CAP_TIMING);
	ASSERT_EQ(0, query_timing(self->fd, &self->t));
	ASSERT_EQ(0, arena_init(self->fd, &self->a, MIB));
	ASSERT_EQ(0, host_bo(self->fd, MIB, &self->host));
	self->ncg = self->q.num_core_groups;
}

FIXTURE_TEARDOWN(job)
{
	close(self->fd);
}

/* Wait for job @id and expect it to have succeeded; returns its report. */
#define WAIT_OK(id, w) do { \
	ASSERT_GT((id), 0); \
	ASSERT_EQ(0, job_wait(self->fd, (id), 20000, (w))); \
	ASSERT_EQ((__u32)DRM_SWAI_JOB_DONE, (w)->state); \
	ASSERT_EQ(0u, (w)->error) TH_LOG("job %lld failed: error %u pc %u va 0x%llx", \
		(long long)(id), (w)->error, (w)->error_pc, (unsigned long long)(w)->fault_va); \
} while (0)

TEST_F(job, submit_rejects_bad_arguments)
{
	struct drm_swai_sync sync = { 0 };
	struct drm_swai_submit s;
	struct prog p = { .n = 0 };
	__u32 h, h2;
	__u64 va;

	p_end(&p);
	va = arena_put(&self->a, &p);
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &h));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &h2));

#define BAD(err, ...) do { \
	s = submit_args(0, va, INSN_SIZE); \
	sync = (struct drm_swai_sync){ 0 }; \
	__VA_ARGS__; \
	EXPECT_EQ(-(err), submit_raw(self->fd, &s)) TH_LOG("case: %s", #__VA_ARGS__); \
} while (0)
	BAD(EINVAL, s.flags = 2);
	BAD(EINVAL, s.flags = DRM_SWAI_SUBMIT_PEER | 0x80000000u);
	BAD(EINVAL, s.reserved[0] = 1);
	BAD(EINVAL, s.reserved[1] = 1ULL << 63);
	BAD(EINVAL, s.queue = self->ncg);
	BAD(EINVAL, s.queue = ~0u);
	BAD(EINVAL, s.program_size = 0);
	BAD(EINVAL, s.program_size = INSN_SIZE + 1);
	BAD(EINVAL, s.program_size = INSN_SIZE - 8);
	BAD(EINVAL, s.program_size = SWAI_PROGRAM_MAX_BYTES + INSN_SIZE);
	BAD(EINVAL, s.program_size = ~0u - 15);
	BAD(EINVAL, s.program_va = va + 4);
	BAD(EINVAL, s.program_va = va + 1);
	BAD(EINVAL, s.program_va = 1ULL << 39);
	BAD(EINVAL, s.program_va = (1ULL << 39) - 8);
	BAD(EINVAL, s.program_va = ~0ULL - 7);
	BAD(EINVAL, s.in_sync_count = DRM_SWAI_MAX_IN_SYNCS + 1);
	BAD(EINVAL, s.in_sync_count = ~0u);
	BAD(EFAULT, s.in_sync_count = 1; s.in_syncs = 0);
	BAD(EFAULT, s.in_sync_count = 1; s.in_syncs = 8);
	BAD(EINVAL, s.in_sync_count = 1; s.in_syncs = (uintptr_t)&sync;
	    sync.handle = h; sync.flags = 2);
	BAD(EINVAL, s.in_sync_count = 1; s.in_syncs = (uintptr_t)&sync;
	    sync.handle = h; sync.point = 1);
	BAD(ENOENT, s.in_sync_count = 1; s.in_syncs = (uintptr_t)&sync);
	BAD(ENOENT, s.in_sync_count = 1; s.in_syncs = (uintptr_t)&sync;
	    sync.handle = h + 1000);
	/* A syncobj that never got a fence, a timeline point never submitted. */
	BAD(EINVAL, s.in_sync_count = 1; s.in_syncs = (uintptr_t)&sync;
	    sync.handle = h);
	BAD(EINVAL, s.in_sync_count = 1; s.in_syncs = (uintptr_t)&sync;
	    sync.handle = h; sync.flags = DRM_SWAI_SYNC_TIMELINE; sync.point = 5);
	BAD(EINVAL, s.out_sync.flags = DRM_SWAI_SYNC_TIMELINE);
	BAD(EINVAL, s.out_sync.point = 1);
	BAD(EINVAL, s.out_sync.handle = h; s.out_sync.flags = 4);
	BAD(EINVAL, s.out_sync.handle = h; s.out_sync.point = 3);
	BAD(EINVAL, s.out_sync.handle = h; s.out_sync.flags = DRM_SWAI_SYNC_TIMELINE);
	BAD(ENOENT, s.out_sync.handle = h + 1000);
#undef BAD

	/* Nothing above consumed a job id or touched the syncobjs. */
	s = submit_args(0, va, INSN_SIZE);
	s.out_sync.handle = h2;
	ASSERT_EQ(0, submit_raw(self->fd, &s));
	EXPECT_EQ(1ULL, s.job_id);
	EXPECT_EQ(0, drmSyncobjWait(self->fd, &h2, 1, (int64_t)(now_ns() + 10000000000ULL),
				    0, NULL));
	EXPECT_EQ(-EINVAL, drmSyncobjWait(self->fd, &h, 1, 0, 0, NULL));
	drmSyncobjDestroy(self->fd, h);
	drmSyncobjDestroy(self->fd, h2);
}

TEST_F(job, job_wait_and_timing_reject_bad_arguments)
{
	struct drm_swai_query_timing t;
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	long long id;

	p_end(&p);
	id = run_prog(self->fd, &self->a, &p, 0);
	ASSERT_EQ(1, id);

	EXPECT_EQ(-ENOENT, job_wait(self->fd, 0, 0, &w));
	EXPECT_EQ(-ENOENT, job_wait(self->fd, 2, 0, &w));
	EXPECT_EQ(-ENOENT, job_wait(self->fd, ~0ULL, 0, &w));
	memset(&w, 0, sizeof(w));
	w.job_id = 1;
	w.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_JOB_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);
	w.flags = 0;
	w.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_JOB_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);

	memset(&t, 0, sizeof(t));
	t.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_TIMING, &t));
	EXPECT_EQ(EINVAL, errno);
	memset(&t, 0, sizeof(t));
	t.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_TIMING, &t));
	EXPECT_EQ(EINVAL, errno);
	memset(&t, 0, sizeof(t));
	t.reserved[2] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_QUERY_TIMING, &t));
	EXPECT_EQ(EINVAL, errno);

	/* Job ids belong to the file: another file has no job 1. */
	int fd2 = open(self->card[0].node, O_RDWR | O_CLOEXEC);

	ASSERT_GE(fd2, 0);
	EXPECT_EQ(-ENOENT, job_wait(fd2, 1, 0, &w));
	close(fd2);
	EXPECT_EQ(0, job_error(self->fd, 1, 20000));
}

/* The paper's figures are the card's defaults; the clock moves forward. */
TEST_F(job, query_timing)
{
	struct drm_swai_query_timing t2;
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	long long id;

	EXPECT_EQ(100000u, self->t.ring_mbps);
	EXPECT_EQ(25000u, self->t.launch_ns);
	EXPECT_EQ(15000u, self->t.sync_ns);
	EXPECT_EQ(5000u, self->t.step_ns);
	EXPECT_NE(0u, self->t.ring_total_mbps);
	EXPECT_NE(0u, self->t.local_mbps);
	EXPECT_NE(0u, self->t.pcie_mbps);
	EXPECT_NE(0u, self->t.ldm_mbps);
	/* 32 CPEs x 2 GHz x 512-bit FMA: 2048 GFLOP/s f32, bf16 twice. */
	EXPECT_EQ(2048u, self->t.f32_gflops);
	EXPECT_EQ(4096u, self->t.bf16_gflops);
	EXPECT_EQ(0u, self->t.pad);
	EXPECT_EQ(self->t.resets, (__u64)swai_sysfs_num(&self->card[0], "reset_count"));

	p_copy(&p, self->host.va + 4096, self->host.va, 65536);
	p_end(&p);
	id = run_prog(self->fd, &self->a, &p, 0);
	WAIT_OK(id, &w);
	ASSERT_EQ(0, query_timing(self->fd, &t2));
	EXPECT_GE(t2.clock_ns, w.end_ns);
	EXPECT_GE(t2.clock_ns, self->t.clock_ns);
	EXPECT_GE(w.start_ns, self->t.launch_ns);
	EXPECT_GT(w.end_ns, w.start_ns);
	EXPECT_EQ(65536ULL, w.bytes);
}

TEST_F(job, ids_count_from_one_and_jobs_end)
{
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };

	p_sem(&p, SWAI_OP_NOP, 0, 0, 0);
	p_end(&p);
	for (unsigned int i = 0; i < 2 * self->ncg; i++)
		ASSERT_EQ((long long)i + 1, run_prog(self->fd, &self->a, &p, i % self->ncg));
	for (unsigned int i = 0; i < 2 * self->ncg; i++) {
		WAIT_OK(i + 1, &w);
		EXPECT_EQ(i % self->ncg, w.queue);
		EXPECT_LE(w.start_ns, w.end_ns);
		EXPECT_EQ(0u, w.ctx_flags);
	}
	/* A finished job can be asked about again, without waiting. */
	EXPECT_EQ(0, job_wait(self->fd, 1, 0, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_DONE, w.state);
}

/* The largest program the uAPI allows runs. */
TEST_F(job, largest_program)
{
	static struct prog p;
	struct drm_swai_job_wait w;
	long long id;

	p.n = 0;
	while (p.n < MAX_INSNS - 1)
		emit(&p, SWAI_OP_NOP);
	p_end(&p);
	ASSERT_EQ((unsigned int)SWAI_PROGRAM_MAX_BYTES, p.n * INSN_SIZE);
	id = run_prog(self->fd, &self->a, &p, self->ncg - 1);
	WAIT_OK(id, &w);
}

/* Tiers a test can use on this card, with a CPU mapping of 1 MiB each. */
struct tiers {
	struct bo bo[3];
	const char *name[3];
	int n;
};

static void get_tiers(int fd, const struct drm_swai_query_device *q, __u32 cg,
		      struct bo *host, struct tiers *t)
{
	t->n = 0;
	t->bo[t->n] = *host;
	t->name[t->n++] = "host";
	if (q->local_per_cg >= MIB && !dev_bo(fd, DRM_SWAI_MEM_LOCAL(cg), MIB, &t->bo[t->n]))
		t->name[t->n++] = "local";
	if (q->global_size >= MIB && !dev_bo(fd, DRM_SWAI_MEM_GLOBAL, MIB, &t->bo[t->n]))
		t->name[t->n++] = "global";
}

/* COPY between every pair of tiers, odd sizes and alignments, exact bytes. */
TEST_F_TIMEOUT(job, copy_every_tier_pair, 180)
{
	static const struct { __u64 len, src, dst; } c[] = {
		{ 1, 0, 0 }, { 7, 3, 5 }, { 4095, 1, 4093 }, { 65537, 13, 4099 },
		{ 200003, 4097, 1 },
	};
	static unsigned char ref[MIB / 2], got[MIB / 2];
	__u32 cg = self->ncg > 1 ? 1 : 0;
	struct drm_swai_job_wait w;
	struct tiers t;

	get_tiers(self->fd, &self->q, cg, &self->host, &t);
	for (int s = 0; s < t.n; s++) {
		for (int d = 0; d < t.n; d++) {
			struct bo *src = &t.bo[s], *dst = &t.bo[d];
			__u64 dbase = s == d ? MIB / 2 : 0;	/* same BO: other half */
			struct prog p = { .n = 0 };
			__u64 expect = 0;
			long long id;

			fill(ref, sizeof(ref), s * 3 + d);
			bo_write(src, 0, ref, sizeof(ref));
			memset(got, 0, sizeof(got));
			bo_write(dst, dbase, got, sizeof(got));
			for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
				p_copy(&p, dst->va + dbase + c[i].dst, src->va + c[i].src,
				       c[i].len);
				expect += c[i].len;
			}
			p_end(&p);
			id = run_prog(self->fd, &self->a, &p, cg);
			WAIT_OK(id, &w);
			EXPECT_EQ(expect, w.bytes);

			/* Later copies overwrite earlier ones: build the reference. */
			static unsigned char want[MIB / 2];

			memset(want, 0, sizeof(want));
			for (unsigned int i = 0; i < ARRAY_SIZE(c); i++)
				memcpy(want + c[i].dst, ref + c[i].src, c[i].len);
			bo_read(dst, dbase, got, sizeof(got));
			EXPECT_EQ(0, memcmp(want, got, sizeof(got)))
				TH_LOG("COPY %s -> %s wrong", t.name[s], t.name[d]);
		}
	}
	for (int i = 1; i < t.n; i++)
		bo_free(self->fd, &t.bo[i]);
}

/* Strided DMA_GET into LDM and strided DMA_PUT out of it, every tier pair. */
TEST_F_TIMEOUT(job, dma_get_put_strided, 180)
{
	enum { ROWS = 5, LEN = 333, SSTRIDE = 1000, DSTRIDE = 517, LDM = 100 };
	static unsigned char ref[8192], got[8192], want[8192];
	__u32 cg = 0;
	struct drm_swai_job_wait w;
	struct tiers t;

	get_tiers(self->fd, &self->q, cg, &self->host, &t);
	for (int s = 0; s < t.n; s++) {
		for (int d = 0; d < t.n; d++) {
			struct bo *src = &t.bo[s], *dst = &t.bo[d];
			__u64 soff = 11, doff = MIB / 2 + 3;
			struct prog p = { .n = 0 };
			long long id;

			fill(ref, sizeof(ref), 40 + s * 3 + d);
			bo_write(src, soff, ref, sizeof(ref));
			memset(got, 0, sizeof(got));
			bo_write(dst, doff, got, sizeof(got));
			p_xfer(&p, SWAI_OP_DMA_GET, LDM, src->va + soff, LEN, ROWS, 0, SSTRIDE);
			p_xfer(&p, SWAI_OP_DMA_PUT, dst->va + doff, LDM, LEN, ROWS, DSTRIDE, 0);
			p_end(&p);
			id = run_prog(self->fd, &self->a, &p, cg);
			WAIT_OK(id, &w);
			EXPECT_EQ(2ULL * ROWS * LEN, w.bytes);

			memset(want, 0, sizeof(want));
			for (int r = 0; r < ROWS; r++)
				memcpy(want + r * DSTRIDE, ref + r * SSTRIDE, LEN);
			bo_read(dst, doff, got, sizeof(got));
			EXPECT_EQ(0, memcmp(want, got, sizeof(got)))
				TH_LOG("DMA %s -> LDM -> %s wrong", t.name[s], t.name[d]);
		}
	}
	for (int i = 1; i < t.n; i++)
		bo_free(self->fd, &t.bo[i]);
}

/* REDUCE in LDM: i32 sum of two vectors. */
TEST_F(job, reduce_sum_i32)
{
	enum { N = 1000 };
	__s32 *a = (__s32 *)self->host.cpu, *b = a + N, *out = b + N;
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	struct swai_insn *r;
	long long id;

	for (int i = 0; i < N; i++) {
		a[i] = i * 3 - 500;
		b[i] = 7 - i;
		out[i] = 0;
	}
	p_xfer(&p, SWAI_OP_DMA_GET, 0, self->host.va, N * 4, 0, 0, 0);
	p_xfer(&p, SWAI_OP_DMA_GET, 65536, self->host.va + N * 4, N * 4, 0, 0, 0);
	r = emit(&p, SWAI_OP_REDUCE);
	r->dtype = SWAI_DT_I32;
	r->rop = SWAI_ROP_SUM;
	r->len = N;
	r->dst = 0;
	r->src = 65536;
	p_xfer(&p, SWAI_OP_DMA_PUT, self->host.va + 2 * N * 4, 0, N * 4, 0, 0, 0);
	p_end(&p);
	id = run_prog(self->fd, &self->a, &p, 0);
	WAIT_OK(id, &w);
	for (int i = 0; i < N; i++) {
		ASSERT_EQ(a[i] + b[i], out[i]) TH_LOG("element %d", i);
	}
}

/* DIV (the average after a SUM) in every integer type, and u8 REDUCE. */
TEST_F(job, div_and_u8_reduce)
{
	enum { N = 777 };
	__s64 *a = (__s64 *)self->host.cpu, *q = a + N;
	unsigned char *u = (unsigned char *)(q + N), *v = u + N, *uo = v + N;
	__u64 va = self->host.va, uva = va + 2 * N * 8;
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	struct swai_insn *r;

	for (int i = 0; i < N; i++) {
		a[i] = (i - 300) * 1000003LL;
		u[i] = (unsigned char)(i * 7);
		v[i] = (unsigned char)(i * 13 + 5);
	}
	p_xfer(&p, SWAI_OP_DMA_GET, 0, va, N * 8, 0, 0, 0);
	r = emit(&p, SWAI_OP_DIV);
	r->dtype = SWAI_DT_I64;
	r->len = N;
	r->src = 4;
	p_xfer(&p, SWAI_OP_DMA_PUT, va + N * 8, 0, N * 8, 0, 0, 0);
	p_xfer(&p, SWAI_OP_DMA_GET, 65536, uva, N, 0, 0, 0);
	p_xfer(&p, SWAI_OP_DMA_GET, 65536 + N, uva + N, N, 0, 0, 0);
	r = emit(&p, SWAI_OP_REDUCE);
	r->dtype = SWAI_DT_U8;
	r->rop = SWAI_ROP_SUM;
	r->len = N;
	r->dst = 65536;
	r->src = 65536 + N;
	p_xfer(&p, SWAI_OP_DMA_PUT, uva + 2 * N, 65536, N, 0, 0, 0);
	p_end(&p);
	WAIT_OK(run_prog(self->fd, &self->a, &p, 0), &w);
	for (int i = 0; i < N; i++) {
		ASSERT_EQ(a[i] / 4, q[i]) TH_LOG("i64 element %d", i);
		ASSERT_EQ((unsigned char)(u[i] + v[i]), uo[i]) TH_LOG("u8 element %d", i);
	}

	/* A divisor of 0 is an illegal instruction. */
	p_reset(&p);
	r = emit(&p, SWAI_OP_DIV);
	r->len = 1;
	p_end(&p);
	EXPECT_EQ(DRM_SWAI_JOB_ERR_ILLEGAL, job_error(self->fd, run_prog(self->fd, &self->a, &p, 0),
						      20000));
}

/* Submit @p on @queue with submit @flags; the job id or -errno. */
static long long run_prog_flags(int fd, struct arena *a, const struct prog *p, __u32 queue,
				__u32 flags)
{
	struct drm_swai_submit s = submit_args(queue, arena_put(a, p), p->n * INSN_SIZE);
	int ret;

	s.flags = flags;
	ret = submit_raw(fd, &s);
	return ret ? ret : (long long)s.job_id;
}

/*
 * Peer access: with DRM_SWAI_SUBMIT_PEER a job on core group 0 writes,
 * reads and copies other core groups' Local-HBM, bytes exact, and the copy
 * costs what the ring and the Local ports allow; without the flag the same
 * access still fails with FOREIGN (last: it fails the file).
 */
TEST_F_TIMEOUT(job, peer_access_local, 120)
{
	enum { N = 100003, BIG = 1000000 };
	static unsigned char ref[N], got[N];
	__u32 other = self->ncg > 2 ? 2 : 0;
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	struct bo l0, l1, lo;
	__u64 bw, want;

	if (self->ncg < 2 || self->q.local_per_cg < 4 * MIB)
		SKIP(return, "needs 2 core groups with 4 MiB of Local-HBM");
	ASSERT_TRUE(self->q.capabilities & DRM_SWAI_CAP_PEER);
	ASSERT_EQ(0, dev_bo(self->fd, DRM_SWAI_MEM_LOCAL(0), 2 * MIB, &l0));
	ASSERT_EQ(0, dev_bo(self->fd, DRM_SWAI_MEM_LOCAL(1), 2 * MIB, &l1));
	lo = l0;
	if (other) {
		ASSERT_EQ(0, dev_bo(self->fd, DRM_SWAI_MEM_LOCAL(other), MIB, &lo));
	}
	fill(ref, sizeof(ref), 77);
	memcpy(self->host.cpu, ref, N);
	memset(got, 0, sizeof(got));
	bo_write(&l1, 0, got, sizeof(got));
	bo_write(&lo, 4099, got, sizeof(got));

	/* host -> CG 1's Local, CG 1's -> CG 2's (or 0's), via LDM back. */
	p_copy(&p, l1.va + 7, self->host.va, N);
	p_copy(&p, lo.va + 4099, l1.va + 7, N);
	p_xfer(&p, SWAI_OP_DMA_GET, 0, lo.va + 4099, 4096, 0, 0, 0);
	p_xfer(&p, SWAI_OP_DMA_PUT, l1.va + MIB, 0, 4096, 0, 0, 0);
	p_sem(&p, SWAI_OP_SIGNAL, SWAI_SIGNAL_SET, l1.va + MIB + 8192, 42);
	p_end(&p);
	WAIT_OK(run_prog_flags(self->fd, &self->a, &p, 0, DRM_SWAI_SUBMIT_PEER), &w);
	EXPECT_EQ(2ULL * N + 2 * 4096, w.bytes);
	bo_read(&l1, 7, got, N);
	EXPECT_EQ(0, memcmp(ref, got, N));
	memset(got, 0, sizeof(got));
	bo_read(&lo, 4099, got, N);
	EXPECT_EQ(0, memcmp(ref, got, N));
	bo_read(&l1, MIB, got, 4096);
	EXPECT_EQ(0, memcmp(ref, got, 4096));
	EXPECT_EQ(42ULL, *(volatile __u64 *)((char *)l1.cpu + MIB + 8192));

	/* 10^6 B own Local -> peer Local: the step plus the slowest path. */
	p_reset(&p);
	p_copy(&p, l1.va, l0.va, BIG);
	p_end(&p);
	WAIT_OK(run_prog_flags(self->fd, &self->a, &p, 0, DRM_SWAI_SUBMIT_PEER), &w);
	bw = self->t.ring_mbps;
	bw = self->t.local_mbps < bw ? self->t.local_mbps : bw;
	bw = self->t.ring_total_mbps < bw ? self->t.ring_total_mbps : bw;
	want = self->t.step_ns + BIG * 1000ULL / bw;
	EXPECT_GE(w.end_ns - w.start_ns, want);
	EXPECT_LE(w.end_ns - w.start_ns, want + 16);	/* per-chunk rounding */

	/* Without the flag: FOREIGN at the first peer access, nothing written. */
	p_reset(&p);
	p_copy(&p, l0.va, self->host.va, 64);
	p_copy(&p, l1.va + 3 * MIB / 2, self->host.va, 64);
	p_end(&p);
	ASSERT_EQ(0, job_wait(self->fd, run_prog(self->fd, &self->a, &p, 0), 20000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_ERR_FOREIGN, w.error);
	EXPECT_EQ(1u, w.error_pc);
	EXPECT_EQ(l1.va + 3 * MIB / 2, w.fault_va);
	bo_read(&l1, 3 * MIB / 2, got, 64);
	EXPECT_EQ(0, got[0] | got[63]);
	if (other)
		bo_free(self->fd, &lo);
	bo_free(self->fd, &l1);
	bo_free(self->fd, &l0);
}

/*
 * A job on one queue WAITs on a semaphore a job on another queue SIGNALs:
 * it stays pending until then, and in modeled time it leaves the WAIT
 * after the SIGNAL.
 */
TEST_F(job, signal_wait_across_queues)
{
	__u64 sem = self->host.va, ts = self->host.va + 64;
	__u64 *cpu_ts = (__u64 *)((char *)self->host.cpu + 64);
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	long long waiter, signaller;

	if (self->ncg < 2)
		SKIP(return, "needs two core groups");
	p_sem(&p, SWAI_OP_WAIT, 0, sem, 2);
	p_timestamp(&p, ts, 0);
	p_sem(&p, SWAI_OP_WAIT, SWAI_WAIT_EQ, sem, 2);
	p_end(&p);
	waiter = run_prog(self->fd, &self->a, &p, 1);
	ASSERT_GT(waiter, 0);

	usleep(200 * 1000);
	EXPECT_EQ(-ETIME, job_wait(self->fd, waiter, 0, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_PENDING, w.state);

	p_reset(&p);
	p_timestamp(&p, ts + 8, 0);
	p_sem(&p, SWAI_OP_SIGNAL, 0, sem, 1);
	p_sem(&p, SWAI_OP_SIGNAL, 0, sem, 1);
	p_end(&p);
	signaller = run_prog(self->fd, &self->a, &p, 0);
	WAIT_OK(signaller, &w);
	WAIT_OK(waiter, &w);
	EXPECT_EQ(2ULL, sem_read(&self->host, 0));
	/* Left the WAIT at the modeled time of the SIGNAL + the wake-up cost. */
	EXPECT_GE(cpu_ts[0], cpu_ts[1] + self->t.barrier_ns);

	/* SET stores; the CPU can release a WAIT too. */
	p_reset(&p);
	p_sem(&p, SWAI_OP_WAIT, SWAI_WAIT_EQ, sem, 42);
	p_end(&p);
	waiter = run_prog(self->fd, &self->a, &p, 1);
	p_reset(&p);
	p_sem(&p, SWAI_OP_SIGNAL, SWAI_SIGNAL_SET, sem, 41);
	p_end(&p);
	WAIT_OK(run_prog(self->fd, &self->a, &p, 0), &w);
	EXPECT_EQ(41ULL, sem_read(&self->host, 0));
	usleep(100 * 1000);
	EXPECT_EQ(-ETIME, job_wait(self->fd, waiter, 0, &w));
	__atomic_store_n((__u64 *)self->host.cpu, 42, __ATOMIC_RELEASE);
	WAIT_OK(waiter, &w);
}

/* A BARRIER of every core group releases them all at one modeled time. */
TEST_F(job, barrier_all_queues_twice)
{
	__u64 sem = self->host.va + 128, ts = self->host.va + 256;
	__u64 *cpu_ts = (__u64 *)((char *)self->host.cpu + 256);
	struct drm_swai_job_wait w;
	long long id[MAX_CG];

	for (int round = 1; round <= 2; round++) {
		for (unsigned int cg = 0; cg < self->ncg; cg++) {
			struct prog p = { .n = 0 };

			/* Different amounts of work before the barrier. */
			p_copy(&p, self->host.va + 65536 * (cg + 1), self->host.va + 4096,
			       4096 * (cg + 1));
			p_barrier(&p, sem, self->ncg);
			p_timestamp(&p, ts + 8 * cg, 0);
			p_end(&p);
			id[cg] = run_prog(self->fd, &self->a, &p, cg);
		}
		for (unsigned int cg = 0; cg < self->ncg; cg++)
			WAIT_OK(id[cg], &w);
		EXPECT_EQ((__u64)round * self->ncg, sem_read(&self->host, 128));
		for (unsigned int cg = 1; cg < self->ncg; cg++) {
			EXPECT_EQ(cpu_ts[0], cpu_ts[cg]) TH_LOG("round %d cg %u", round, cg);
		}
	}
}

/* TIMESTAMP: modeled time within the job and increasing, wall time too. */
TEST_F(job, timestamps_are_monotone)
{
	__u64 ts = self->host.va + 512;
	__u64 *c = (__u64 *)((char *)self->host.cpu + 512);
	struct drm_swai_job_wait w1, w2;
	struct prog p = { .n = 0 };
	long long id1, id2;

	p_timestamp(&p, ts, 0);
	p_copy(&p, self->host.va + 65536, self->host.va + 131072, 65536);
	p_timestamp(&p, ts + 8, 0);
	p_timestamp(&p, ts + 16, SWAI_TIMESTAMP_WALL);
	p_copy(&p, self->host.va + 65536, self->host.va + 131072, 65536);
	p_timestamp(&p, ts + 24, SWAI_TIMESTAMP_WALL);
	p_timestamp(&p, ts + 32, 0);
	p_end(&p);
	id1 = run_prog(self->fd, &self->a, &p, 0);
	WAIT_OK(id1, &w1);
	EXPECT_LE(w1.start_ns, c[0]);
	EXPECT_GT(c[1], c[0]);
	EXPECT_GT(c[4], c[1]);
	EXPECT_LE(c[4], w1.end_ns);
	EXPECT_GE(c[3], c[2]);
	EXPECT_NE(0ULL, c[2]);

	p_reset(&p);
	p_timestamp(&p, ts + 40, 0);
	p_end(&p);
	id2 = run_prog(self->fd, &self->a, &p, 0);
	WAIT_OK(id2, &w2);
	/* The next job of the queue starts after the previous one ended. */
	EXPECT_GE(w2.start_ns, w1.end_ns);
	EXPECT_GE(c[5], w2.start_ns);
}

/* not_before_ns delays the modeled start by itself plus the launch cost. */
TEST_F(job, not_before_delays_start)
{
	struct drm_swai_job_wait w;
	struct drm_swai_query_timing t;
	struct drm_swai_submit s;
	struct prog p = { .n = 0 };

	p_end(&p);
	ASSERT_EQ(0, query_timing(self->fd, &t));
	s = submit_args(self->ncg - 1, arena_put(&self->a, &p), INSN_SIZE);
	s.not_before_ns = t.clock_ns + 10000000;	/* 10 ms of modeled time later */
	ASSERT_EQ(0, submit_raw(self->fd, &s));
	WAIT_OK(s.job_id, &w);
	EXPECT_GE(w.start_ns, s.not_before_ns + t.launch_ns);
}

/*
 * A binary syncobj: job B waits for job A of another queue in real time,
 * and starts in modeled time after A's end plus the host sync and launch
 * costs.
 */
TEST_F(job, binary_syncobj_orders_jobs)
{
	struct drm_swai_job_wait wa, wb;
	struct drm_swai_sync in = { 0 };
	struct drm_swai_submit s;
	struct prog p = { .n = 0 };
	__u32 h;

	if (self->ncg < 2)
		SKIP(return, "needs two core groups");
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &h));
	p_sem(&p, SWAI_OP_WAIT, 0, self->host.va, 1);
	p_copy(&p, self->host.va + 65536, self->host.va + 4096, 100000);
	p_end(&p);
	s = submit_args(0, arena_put(&self->a, &p), p.n * INSN_SIZE);
	s.out_sync.handle = h;
	ASSERT_EQ(0, submit_raw(self->fd, &s));
	__u64 a = s.job_id;

	p_reset(&p);
	p_end(&p);
	in.handle = h;
	s = submit_args(1, arena_put(&self->a, &p), INSN_SIZE);
	s.in_syncs = (uintptr_t)&in;
	s.in_sync_count = 1;
	ASSERT_EQ(0, submit_raw(self->fd, &s));
	__u64 b = s.job_id;

	usleep(200 * 1000);
	EXPECT_EQ(-ETIME, job_wait(self->fd, b, 0, &wb));
	EXPECT_EQ(-ETIME, drmSyncobjWait(self->fd, &h, 1, (int64_t)(now_ns() + 50000000),
					  0, NULL));
	__atomic_store_n((__u64 *)self->host.cpu, 1, __ATOMIC_RELEASE);
	EXPECT_EQ(0, drmSyncobjWait(self->fd, &h, 1, (int64_t)(now_ns() + 20000000000ULL),
				    0, NULL));
	WAIT_OK(a, &wa);
	WAIT_OK(b, &wb);
	EXPECT_GE(wb.start_ns, wa.end_ns + self->t.sync_ns + self->t.launch_ns);
	drmSyncobjDestroy(self->fd, h);
}

/* Timeline points as out-fences and in-fences, waited for with absolute timeouts. */
TEST_F(job, timeline_syncobj_points)
{
	struct drm_swai_job_wait wa, wb, wc;
	struct drm_swai_sync in = { 0 };
	struct drm_swai_submit s;
	struct prog p = { .n = 0 };
	uint64_t pt;
	__u64 a = 0, b = 0;
	__u32 h;

	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &h));
	p_copy(&p, self->host.va + 65536, self->host.va + 4096, 50000);
	p_end(&p);
	for (int i = 1; i <= 2; i++) {
		s = submit_args(i % self->ncg, arena_put(&self->a, &p), p.n * INSN_SIZE);
		s.out_sync = (struct drm_swai_sync){ .handle = h,
			.flags = DRM_SWAI_SYNC_TIMELINE, .point = i };
		ASSERT_EQ(0, submit_raw(self->fd, &s));
		if (i == 1)
			a = s.job_id;
		else
			b = s.job_id;
	}

	pt = 2;
	EXPECT_EQ(0, drmSyncobjTimelineWait(self->fd, &h, &pt, 1,
					    (int64_t)(now_ns() + 20000000000ULL),
					    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL));
	pt = 0;
	EXPECT_EQ(0, drmSyncobjQuery(self->fd, &h, &pt, 1));
	EXPECT_EQ(2ULL, pt);
	/* Point 3 was never submitted: waiting for it times out. */
	pt = 3;
	EXPECT_EQ(-ETIME, drmSyncobjTimelineWait(self->fd, &h, &pt, 1,
						 (int64_t)(now_ns() + 100000000),
						 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL));

	/* Job c waits for point 2 of the timeline. */
	p_reset(&p);
	p_end(&p);
	in = (struct drm_swai_sync){ .handle = h, .flags = DRM_SWAI_SYNC_TIMELINE, .point = 2 };
	s = submit_args(0, arena_put(&self->a, &p), INSN_SIZE);
	s.in_syncs = (uintptr_t)&in;
	s.in_sync_count = 1;
	s.out_sync = (struct drm_swai_sync){ .handle = h, .flags = DRM_SWAI_SYNC_TIMELINE,
		.point = 3 };
	ASSERT_EQ(0, submit_raw(self->fd, &s));
	WAIT_OK(a, &wa);
	WAIT_OK(b, &wb);
	WAIT_OK(s.job_id, &wc);
	EXPECT_GE(wc.start_ns, wb.end_ns + self->t.sync_ns + self->t.launch_ns);
	pt = 3;
	EXPECT_EQ(0, drmSyncobjTimelineWait(self->fd, &h, &pt, 1,
					    (int64_t)(now_ns() + 20000000000ULL), 0, NULL));
	drmSyncobjDestroy(self->fd, h);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* JOB_WAIT: poll, absolute timeout, signal interruption, then done. */
TEST_F(job, job_wait_timeouts_and_signals)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	__u64 t0;
	long long id;

	p_sem(&p, SWAI_OP_WAIT, 0, self->host.va + 1024, 1);
	p_end(&p);
	id = run_prog(self->fd, &self->a, &p, 0);
	ASSERT_GT(id, 0);

	EXPECT_EQ(-ETIME, job_wait(self->fd, id, 0, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_PENDING, w.state);
	EXPECT_EQ(0u, w.queue);
	t0 = now_ns();
	EXPECT_EQ(-ETIME, job_wait(self->fd, id, 300, &w));
	EXPECT_GE(now_ns() - t0, 290000000ULL);
	/* A deadline in the past is a poll. */
	memset(&w, 0, sizeof(w));
	w.job_id = id;
	w.timeout_abs_ns = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_JOB_WAIT, &w));
	EXPECT_EQ(ETIME, errno);

	/* Without SA_RESTART a signal ends the wait with EINTR. */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ualarm(100000, 0);
	EXPECT_EQ(-EINTR, job_wait(self->fd, id, 5000, &w));

	__atomic_store_n((__u64 *)((char *)self->host.cpu + 1024), 1, __ATOMIC_RELEASE);
	EXPECT_EQ(0, job_wait(self->fd, id, 20000, &w));
	EXPECT_EQ((__u32)DRM_SWAI_JOB_DONE, w.state);
	EXPECT_EQ(0u, w.error);
}

/* fdinfo counts the time the card spent on the file's jobs per core group. */
TEST_F(job, fdinfo_engine_time)
{
	char path[64], line[256];
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	long long busy[MAX_CG] = { 0 };
	unsigned int cg, seen = 0;
	FILE *f;

	p_copy(&p, self->host.va + 65536, self->host.va, 262144);
	p_end(&p);
	WAIT_OK(run_prog(self->fd, &self->a, &p, self->ncg - 1), &w);
	EXPECT_GT(w.wall_ns, 0ULL);

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		long long v;

		if (sscanf(line, "drm-engine-cg%u: %lld ns", &cg, &v) == 2 &&
		    cg < MAX_CG) {
			busy[cg] = v;
			seen++;
		}
	}
	fclose(f);
	EXPECT_EQ(self->ncg, seen);
	EXPECT_GE(busy[self->ncg - 1], (long long)w.wall_ns);
}

TEST_HARNESS_MAIN
