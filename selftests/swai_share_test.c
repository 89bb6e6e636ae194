// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_share_test - buffer objects shared as dma-bufs (uapi 1.4): export
 * with DRM_IOCTL_PRIME_HANDLE_TO_FD, import into another file, another
 * process or another card of the fabric with DRM_IOCTL_SWAI_BO_IMPORT, and
 * jobs that read and write the shared memory -- on the other card through
 * the fabric, never through host memory.  Also the fabric queries, every
 * refused import, read-only exports, lifetime after the exporter is gone,
 * and that a process reaches only what it was given.  The cross-card tests
 * skip without two cards on one fabric.
 */
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "swai_job.h"

#define SIZE (256 * 1024ULL)

/*
 * A region of the card that has room for SIZE: Global-HBM, else core group
 * 0's Local-HBM (the tests run under all-Global and all-Local splits too).
 */
static __u32 region(int fd)
{
	struct drm_swai_mem_info mi = { 0 };

	if (!ioctl(fd, DRM_IOCTL_SWAI_MEM_INFO, &mi) &&
	    mi.region[DRM_SWAI_MEM_GLOBAL].capacity >= 4 * SIZE)
		return DRM_SWAI_MEM_GLOBAL;
	return DRM_SWAI_MEM_LOCAL(0);
}

static int export_fd(int fd, __u32 handle, __u32 flags)
{
	struct drm_prime_handle p = { .handle = handle, .flags = flags };

	return ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) ? -errno : p.fd;
}

static int import_fd(int fd, int dmabuf, __u32 flags, __u64 va,
		     struct drm_swai_bo_import *out)
{
	struct drm_swai_bo_import i = { .fd = dmabuf, .flags = flags,
					.device_va = va };
	int ret = ioctl(fd, DRM_IOCTL_SWAI_BO_IMPORT, &i) ? -errno : 0;

	if (out)
		*out = i;
	return ret;
}

/* Run one COPY of @len bytes on @fd's core group 0; the job's error. */
static int copy_job(int fd, struct arena *a, __u64 dst, __u64 src, __u64 len)
{
	struct prog p = { .n = 0 };
	long long id;

	p_copy(&p, dst, src, len);
	p_end(&p);
	id = run_prog(fd, a, &p, 0);
	return id < 0 ? (int)id : job_error(fd, (__u64)id, 20000);
}

FIXTURE(share) {
	struct swai_card card[SWAI_MAX_CARDS];
	int ncards;
	int a, b;		/* two files on card 0 */
	struct arena arena_a, arena_b;
};

FIXTURE_SETUP(share)
{
	struct drm_swai_query_device q;

	self->ncards = swai_find_cards(self->card, SWAI_MAX_CARDS);
	ASSERT_GT(self->ncards, 0) TH_LOG("no swai card bound");
	self->a = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	self->b = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->a, 0);
	ASSERT_GE(self->b, 0);
	ASSERT_EQ(0, swai_query(self->a, &q));
	if (!(q.capabilities & DRM_SWAI_CAP_PRIME))
		SKIP(return, "no DRM_SWAI_CAP_PRIME: swai.ko older than uapi 1.4");
	ASSERT_EQ(0, arena_init(self->a, &self->arena_a, 64 * 1024));
	ASSERT_EQ(0, arena_init(self->b, &self->arena_b, 64 * 1024));
}

FIXTURE_TEARDOWN(share)
{
	close(self->a);
	close(self->b);
}

/* A second card on the fabric of card 0, or -1. */
static int fabric_peer(struct _test_data_share *self, int *fd)
{
	struct drm_swai_query_device q0, q;

	if (self->ncards < 2 || swai_query(self->a, &q0) || !q0.fabric_cards)
		return -1;
	*fd = open(self->card[1].node, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return -1;
	if (swai_query(*fd, &q) || q.fabric_tag != q0.fabric_tag) {
		close(*fd);
		return -1;
	}
	return 1;
}

TEST_F(share, fabric_queries)
{
	struct drm_swai_query_device q0, q1;
	struct drm_swai_query_peer p = { 0 };
	int fd;

	if (fabric_peer(self, &fd) < 0)
		SKIP(return, "needs two cards on one fabric");
	ASSERT_EQ(0, swai_query(self->a, &q0));
	ASSERT_EQ(0, swai_query(fd, &q1));
	EXPECT_TRUE(q0.capabilities & DRM_SWAI_CAP_FABRIC);
	EXPECT_NE(0u, q0.fabric_tag);
	EXPECT_NE(q0.fabric_id, q1.fabric_id);
	EXPECT_LT(q1.fabric_id, q0.fabric_cards);
	p.fabric_card = q1.fabric_id;
	ASSERT_EQ(0, ioctl(self->a, DRM_IOCTL_SWAI_QUERY_PEER, &p));
	EXPECT_EQ(DRM_SWAI_PEER_ROUTE | DRM_SWAI_PEER_PRESENT, p.flags);
	EXPECT_GE(p.hops, 1u);
	EXPECT_GT(p.mbps, 0u);
	TH_LOG("card %u -> card %u: %u hop(s), %u MB/s, %u ns", q0.fabric_id,
	       q1.fabric_id, p.hops, p.mbps, p.latency_ns);
	/* Itself, beyond the fabric, dirty pad or reserved: -EINVAL. */
	p = (struct drm_swai_query_peer){ .fabric_card = q0.fabric_id };
	EXPECT_EQ(-1, ioctl(self->a, DRM_IOCTL_SWAI_QUERY_PEER, &p));
	EXPECT_EQ(EINVAL, errno);
	p = (struct drm_swai_query_peer){ .fabric_card = q0.fabric_cards };
	EXPECT_EQ(-1, ioctl(self->a, DRM_IOCTL_SWAI_QUERY_PEER, &p));
	EXPECT_EQ(EINVAL, errno);
	p = (struct drm_swai_query_peer){ .fabric_card = q1.fabric_id, .pad = 1 };
	EXPECT_EQ(-1, ioctl(self->a, DRM_IOCTL_SWAI_QUERY_PEER, &p));
	EXPECT_EQ(EINVAL, errno);
	p = (struct drm_swai_query_peer){ .fabric_card = q1.fabric_id };
	p.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->a, DRM_IOCTL_SWAI_QUERY_PEER, &p));
	EXPECT_EQ(EINVAL, errno);
	/* A card of the topology that is not plugged in: a route, not present. */
	for (__u32 c = 0; c < q0.fabric_cards; c++) {
		if (c == q0.fabric_id || c < (__u32)self->ncards)
			continue;
		p = (struct drm_swai_query_peer){ .fabric_card = c };
		ASSERT_EQ(0, ioctl(self->a, DRM_IOCTL_SWAI_QUERY_PEER, &p));
		EXPECT_FALSE(p.flags & DRM_SWAI_PEER_PRESENT);
		break;
	}
	close(fd);
}

/* Another file of the same card: the same memory, read and written by jobs. */
TEST_F(share, import_same_card)
{
	struct drm_swai_bo_import imp;
	struct bo src = { 0 }, mine = { 0 };
	int dmabuf;

	ASSERT_EQ(0, dev_bo(self->a, region(self->a), SIZE, &src));
	ASSERT_EQ(0, dev_bo(self->b, region(self->b), SIZE, &mine));
	fill(src.cpu, SIZE, 1);
	dmabuf = export_fd(self->a, src.handle, DRM_CLOEXEC | DRM_RDWR);
	ASSERT_GE(dmabuf, 0);
	ASSERT_EQ(0, import_fd(self->b, dmabuf, 0, 0, &imp));
	EXPECT_EQ(SIZE, imp.size);
	EXPECT_EQ(region(self->a) << 8, imp.result);
	EXPECT_EQ(region(self->a), DRM_SWAI_IMPORT_PLACEMENT(imp.result));
	EXPECT_NE(0ULL, imp.device_va);
	/* b's job reads a's object ... */
	EXPECT_EQ(0, copy_job(self->b, &self->arena_b, mine.va, imp.device_va, SIZE));
	EXPECT_EQ(0, memcmp(mine.cpu, src.cpu, SIZE));
	/* ... and writes it. */
	fill(mine.cpu, SIZE, 2);
	EXPECT_EQ(0, copy_job(self->b, &self->arena_b, imp.device_va, mine.va, 4096));
	EXPECT_EQ(0, memcmp(mine.cpu, src.cpu, 4096));
	/* BO_INFO: an import, no mmap offset of its own. */
	{
		struct drm_swai_bo_info i = { .handle = imp.handle };

		ASSERT_EQ(0, ioctl(self->b, DRM_IOCTL_SWAI_BO_INFO, &i));
		EXPECT_EQ((__u32)DRM_SWAI_MEM_IMPORT, i.placement);
		EXPECT_EQ(imp.device_va, i.device_va);
	}
	/* The dma-buf maps to the CPU too: the same bytes. */
	{
		void *p = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, dmabuf, 0);

		ASSERT_NE(MAP_FAILED, p);
		EXPECT_EQ(0, memcmp(p, src.cpu, SIZE));
		munmap(p, SIZE);
	}
	close(dmabuf);
	bo_free(self->a, &src);
	bo_free(self->b, &mine);
}

/* A dma-buf exported without DRM_RDWR maps read-only: writes fault. */
TEST_F(share, read_only_export)
{
	struct drm_swai_bo_import imp;
	struct bo src = { 0 }, mine = { 0 };
	int dmabuf;

	ASSERT_EQ(0, dev_bo(self->a, region(self->a), SIZE, &src));
	ASSERT_EQ(0, dev_bo(self->b, region(self->b), SIZE, &mine));
	fill(src.cpu, SIZE, 3);
	dmabuf = export_fd(self->a, src.handle, DRM_CLOEXEC);
	ASSERT_GE(dmabuf, 0);
	ASSERT_EQ(0, import_fd(self->b, dmabuf, 0, 0, &imp));
	EXPECT_EQ((__u32)DRM_SWAI_IMPORT_READ_ONLY, imp.result & 0xff);
	EXPECT_EQ(0, copy_job(self->b, &self->arena_b, mine.va, imp.device_va, SIZE));
	EXPECT_EQ(0, memcmp(mine.cpu, src.cpu, SIZE));
	EXPECT_EQ(DRM_SWAI_JOB_ERR_MMU,
		  copy_job(self->b, &self->arena_b, imp.device_va, mine.va, 64));
	close(dmabuf);
	bo_free(self->a, &src);
	bo_free(self->b, &mine);
}

/* A buffer on card 1 used by a job on card 0, over the fabric. */
TEST_F(share, import_other_card)
{
	struct drm_swai_bo_import imp;
	struct bo far = { 0 }, mine = { 0 };
	struct drm_swai_job_wait w;
	struct prog p = { .n = 0 };
	long long id;
	int fd, dmabuf;

	if (fabric_peer(self, &fd) < 0)
		SKIP(return, "needs two cards on one fabric");
	ASSERT_EQ(0, dev_bo(fd, region(fd), SIZE, &far));
	ASSERT_EQ(0, dev_bo(self->a, region(self->a), SIZE, &mine));
	fill(mine.cpu, SIZE, 4);
	dmabuf = export_fd(fd, far.handle, DRM_CLOEXEC | DRM_RDWR);
	ASSERT_GE(dmabuf, 0);
	ASSERT_EQ(0, import_fd(self->a, dmabuf, 0, 0, &imp));
	EXPECT_EQ((__u32)DRM_SWAI_IMPORT_FABRIC, imp.result & 0xff);
	/* Card 0 writes card 1's HBM, then reads it back into its own. */
	p_copy(&p, imp.device_va, mine.va, SIZE);
	p_copy(&p, mine.va + SIZE / 2, imp.device_va, SIZE / 2);
	p_end(&p);
	id = run_prog(self->a, &self->arena_a, &p, 0);
	ASSERT_GE(id, 0);
	ASSERT_EQ(0, job_wait(self->a, (__u64)id, 20000, &w));
	EXPECT_EQ(0u, w.error);
	EXPECT_EQ(0, memcmp(far.cpu, mine.cpu, SIZE / 2));
	EXPECT_EQ(0, memcmp((char *)mine.cpu + SIZE / 2, mine.cpu, SIZE / 2));
	TH_LOG("%llu KiB to card 1 and half back: %llu ns modeled", SIZE * 3 / 2048,
	       (unsigned long long)(w.end_ns - w.start_ns));
	/* The probe says the page is on another card. */
	{
		struct drm_swai_va_probe pr = { .va = imp.device_va };

		ASSERT_EQ(0, ioctl(self->a, DRM_IOCTL_SWAI_VA_PROBE, &pr));
		EXPECT_EQ(DRM_SWAI_PROBE_MAPPED | DRM_SWAI_PROBE_FABRIC, pr.result);
	}
	close(dmabuf);
	bo_free(fd, &far);
	bo_free(self->a, &mine);
	close(fd);
}

TEST_F(share, refused_imports)
{
	struct drm_swai_bo_import imp;
	struct bo src = { 0 }, host = { 0 };
	int dmabuf, pipefd[2];

	ASSERT_EQ(0, dev_bo(self->a, region(self->a), SIZE, &src));
	dmabuf = export_fd(self->a, src.handle, DRM_CLOEXEC | DRM_RDWR);
	ASSERT_GE(dmabuf, 0);
	EXPECT_EQ(-EBADF, import_fd(self->b, 999, 0, 0, NULL));
	EXPECT_EQ(-EBADF, import_fd(self->b, -1, 0, 0, NULL));
	ASSERT_EQ(0, pipe(pipefd));
	EXPECT_EQ(-EOPNOTSUPP, import_fd(self->b, pipefd[0], 0, 0, NULL));
	EXPECT_EQ(-EOPNOTSUPP, import_fd(self->b, self->a, 0, 0, NULL));
	close(pipefd[0]);
	close(pipefd[1]);
	EXPECT_EQ(-EINVAL, import_fd(self->b, dmabuf, 0x80, 0, NULL));
	{
		struct drm_swai_bo_import r = { .fd = dmabuf };

		r.reserved[0] = 1;
		EXPECT_EQ(-1, ioctl(self->b, DRM_IOCTL_SWAI_BO_IMPORT, &r));
		EXPECT_EQ(EINVAL, errno);
	}
	/* Fixed VAs: misaligned is -EINVAL, on a mapping -EEXIST. */
	EXPECT_EQ(-EINVAL, import_fd(self->b, dmabuf, DRM_SWAI_IMPORT_FIXED_VA,
				     0x123000, NULL));
	ASSERT_EQ(0, import_fd(self->b, dmabuf, 0, 0, &imp));
	EXPECT_EQ(-EEXIST, import_fd(self->b, dmabuf, DRM_SWAI_IMPORT_FIXED_VA,
				     imp.device_va, NULL));
	/* An import, and pinned host memory, cannot be exported again. */
	EXPECT_EQ(-EOPNOTSUPP, export_fd(self->b, imp.handle, DRM_CLOEXEC));
	ASSERT_EQ(0, host_bo(self->a, 4096, &host));
	EXPECT_EQ(-EOPNOTSUPP, export_fd(self->a, host.handle, DRM_CLOEXEC));
	/* PRIME_FD_TO_HANDLE cannot map: refused. */
	{
		struct drm_prime_handle ph = { .fd = dmabuf };

		EXPECT_EQ(-1, ioctl(self->b, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph));
		EXPECT_EQ(EOPNOTSUPP, errno);
	}
	close(dmabuf);
	bo_free(self->a, &host);
	bo_free(self->a, &src);
}

/* Send @fd over @sock (SCM_RIGHTS). */
static int send_fd(int sock, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);

	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -errno;
}

static int recv_fd(int sock)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *h;
	int fd;

	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	h = CMSG_FIRSTHDR(&m);
	if (!h || h->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(h), sizeof(int));
	return fd;
}

/*
 * A child process exports a buffer, sends the dma-buf and is killed; the
 * parent imports it afterwards and the memory is still there, until the
 * parent lets go of it.
 */
TEST_F(share, across_processes_exporter_killed)
{
	struct drm_swai_bo_import imp;
	struct bo mine = { 0 };
	int sv[2], dmabuf, status;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
		struct bo b;
		int e;

		if (fd < 0 || dev_bo(fd, region(fd), SIZE, &b))
			_exit(1);
		fill(b.cpu, SIZE, 9);
		e = export_fd(fd, b.handle, DRM_CLOEXEC | DRM_RDWR);
		if (e < 0 || send_fd(sv[1], e))
			_exit(2);
		pause();	/* killed with its file, its object, its mapping */
		_exit(3);
	}
	close(sv[1]);
	dmabuf = recv_fd(sv[0]);
	ASSERT_GE(dmabuf, 0);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	close(sv[0]);

	ASSERT_EQ(0, import_fd(self->b, dmabuf, 0, 0, &imp));
	close(dmabuf);	/* the import alone keeps the memory */
	ASSERT_EQ(0, dev_bo(self->b, region(self->b), SIZE, &mine));
	EXPECT_EQ(0, copy_job(self->b, &self->arena_b, mine.va, imp.device_va, SIZE));
	{
		unsigned char *want = malloc(SIZE);

		ASSERT_NE(NULL, want);
		fill(want, SIZE, 9);
		EXPECT_EQ(0, memcmp(want, mine.cpu, SIZE));
		free(want);
	}
	bo_free(self->b, &mine);
}

/*
 * What a process was not given it cannot reach: the exporter's device VA
 * means nothing in another file, and only a file's own and imported objects
 * translate there.
 */
TEST_F(share, isolation)
{
	struct drm_swai_va_probe pr;
	struct drm_swai_bo_import imp;
	struct bo src = { 0 };
	int dmabuf;

	ASSERT_EQ(0, dev_bo(self->a, region(self->a), SIZE, &src));
	pr = (struct drm_swai_va_probe){ .va = src.va };
	ASSERT_EQ(0, ioctl(self->b, DRM_IOCTL_SWAI_VA_PROBE, &pr));
	EXPECT_EQ(0u, pr.result);
	dmabuf = export_fd(self->a, src.handle, DRM_CLOEXEC | DRM_RDWR);
	ASSERT_GE(dmabuf, 0);
	ASSERT_EQ(0, import_fd(self->b, dmabuf, 0, 0, &imp));
	pr = (struct drm_swai_va_probe){ .va = imp.device_va };
	ASSERT_EQ(0, ioctl(self->b, DRM_IOCTL_SWAI_VA_PROBE, &pr));
	EXPECT_EQ(DRM_SWAI_PROBE_MAPPED, pr.result);
	/* Closing the import unmaps it. */
	{
		struct drm_gem_close c = { .handle = imp.handle };

		ASSERT_EQ(0, ioctl(self->b, DRM_IOCTL_GEM_CLOSE, &c));
	}
	pr = (struct drm_swai_va_probe){ .va = imp.device_va };
	ASSERT_EQ(0, ioctl(self->b, DRM_IOCTL_SWAI_VA_PROBE, &pr));
	EXPECT_EQ(0u, pr.result);
	close(dmabuf);
	bo_free(self->a, &src);
}

/* Many imports and closes in a loop leave no object behind. */
TEST_F(share, no_leak)
{
	struct drm_swai_mem_info before = { 0 }, after = { 0 };
	struct bo src = { 0 };

	ASSERT_EQ(0, ioctl(self->a, DRM_IOCTL_SWAI_MEM_INFO, &before));
	ASSERT_EQ(0, dev_bo(self->a, region(self->a), SIZE, &src));
	for (int i = 0; i < 200; i++) {
		int dmabuf = export_fd(self->a, src.handle, DRM_CLOEXEC | DRM_RDWR);
		struct drm_swai_bo_import imp;
		struct drm_gem_close c;

		ASSERT_GE(dmabuf, 0);
		ASSERT_EQ(0, import_fd(self->b, dmabuf, 0, 0, &imp));
		close(dmabuf);
		c = (struct drm_gem_close){ .handle = imp.handle };
		ASSERT_EQ(0, ioctl(self->b, DRM_IOCTL_GEM_CLOSE, &c));
	}
	bo_free(self->a, &src);
	ASSERT_EQ(0, ioctl(self->a, DRM_IOCTL_SWAI_MEM_INFO, &after));
	EXPECT_EQ(before.region[region(self->a)].used, after.region[region(self->a)].used);
	EXPECT_EQ(before.objects, after.objects);
}

TEST_HARNESS_MAIN
