// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_mem_test - device memory through the driver: buffer objects in
 * Local- and Global-HBM mapped into each process's own device address space,
 * CPU access through the BAR2 aperture, capacity per tier under several
 * Local/Global splits, exhaustion and recovery, isolation from a second
 * process, cleanup after a killed process, fdinfo, and ioctl fuzzing.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "splitmix64.h"

#define MIB (1ULL << 20)

static int bo_create(int fd, __u32 placement, __u64 size, __u32 flags,
		     struct drm_swai_bo_create *out)
{
	struct drm_swai_bo_create c = {
		.size = size, .placement = placement, .flags = flags,
	};
	int ret = ioctl(fd, DRM_IOCTL_SWAI_BO_CREATE, &c) ? -errno : 0;

	if (out)
		*out = c;
	return ret;
}

static int bo_close(int fd, __u32 handle)
{
	struct drm_gem_close c = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c) ? -errno : 0;
}

static int mem_info(int fd, struct drm_swai_mem_info *mi)
{
	memset(mi, 0, sizeof(*mi));
	return ioctl(fd, DRM_IOCTL_SWAI_MEM_INFO, mi) ? -errno : 0;
}

/* 1 if @va translates in @fd's context, 0 if not, -errno on error. */
static int probe(int fd, __u64 va, __u32 flags)
{
	struct drm_swai_va_probe p = { .va = va, .flags = flags };

	if (ioctl(fd, DRM_IOCTL_SWAI_VA_PROBE, &p))
		return -errno;
	return !!(p.result & DRM_SWAI_PROBE_MAPPED);
}

static int set_split(int fd, __u64 local)
{
	struct drm_swai_set_partition p = { .local_per_cg = local };

	return ioctl(fd, DRM_IOCTL_SWAI_SET_PARTITION, &p) ? -errno : 0;
}

/* Allocate @placement in @step pieces until it is full; close them all. */
static __u64 fill_region(int fd, __u32 placement, __u64 step)
{
	static __u32 handles[1 << 14];
	struct drm_swai_bo_create c;
	__u64 total = 0;
	int n = 0;

	while (n < (int)(sizeof(handles) / sizeof(handles[0])) &&
	       !bo_create(fd, placement, step, DRM_SWAI_BO_SEGMENT, &c)) {
		handles[n++] = c.handle;
		total += c.size;
	}
	while (n)
		bo_close(fd, handles[--n]);
	return total;
}

/* A region of @q with at least @size bytes: Global if it has room, else Local 0. */
static __u32 roomy_region(const struct drm_swai_query_device *q, __u64 size)
{
	return q->global_size >= size ? DRM_SWAI_MEM_GLOBAL : DRM_SWAI_MEM_LOCAL(0);
}

FIXTURE(mem) {
	struct swai_card card[SWAI_MAX_CARDS];
	int fd;
	struct drm_swai_query_device q;
	struct drm_swai_mem_info base;
};

FIXTURE_SETUP(mem)
{
	ASSERT_GT(swai_find_cards(self->card, SWAI_MAX_CARDS), 0);
	self->fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, swai_query(self->fd, &self->q));
	ASSERT_TRUE(self->q.capabilities & DRM_SWAI_CAP_MEMORY);
	ASSERT_EQ(0, mem_info(self->fd, &self->base));
}

FIXTURE_TEARDOWN(mem)
{
	struct drm_swai_mem_info mi;

	/* Whatever the test did, the card's memory is back where it was. */
	EXPECT_EQ(0, mem_info(self->fd, &mi));
	for (int r = 0; r < DRM_SWAI_MEM_SLOTS; r++)
		EXPECT_EQ(self->base.region[r].used, mi.region[r].used);
	EXPECT_EQ(self->base.objects, mi.objects);
	EXPECT_EQ(0, set_split(self->fd, self->q.local_per_cg));
	close(self->fd);
}

TEST_F(mem, regions_match_geometry)
{
	const struct drm_swai_mem_info *mi = &self->base;

	for (unsigned int cg = 0; cg < self->q.num_core_groups; cg++)
		EXPECT_EQ(self->q.local_per_cg, mi->region[DRM_SWAI_MEM_LOCAL(cg)].capacity);
	EXPECT_EQ(self->q.global_size, mi->region[DRM_SWAI_MEM_GLOBAL].capacity);
	for (int r = DRM_SWAI_MEM_REGIONS; r < DRM_SWAI_MEM_SLOTS; r++)
		EXPECT_EQ(0ULL, mi->region[r].capacity);
	EXPECT_GE(mi->contexts, 1u);
	EXPECT_GT(mi->asid, 0u);
	EXPECT_LT(mi->asid, 64u);
}

/* debugfs shows what MEM_INFO shows, for administrators. */
TEST_F(mem, debugfs_memory_matches)
{
	char path[128], line[256], name[32];
	unsigned long long cap, used, largest;
	int regions = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/memory",
		 self->card[0].bdf);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f) TH_LOG("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s %llu %llu %llu", name, &cap, &used, &largest) != 4)
			continue;
		regions++;
		if (!strcmp(name, "global"))
			EXPECT_EQ(self->q.global_size, cap);
		if (!strcmp(name, "local0"))
			EXPECT_EQ(self->q.local_per_cg, cap);
	}
	fclose(f);
	EXPECT_EQ(6, regions);		/* local0..3, global, host */
}

/* An object is mapped in its creator's context, page by page, and no further. */
TEST_F(mem, create_maps_into_own_context)
{
	__u32 where = roomy_region(&self->q, 128 * 1024);
	struct drm_swai_bo_create c;
	struct drm_swai_bo_info info = { 0 };
	struct drm_swai_mem_info mi;

	ASSERT_EQ(0, bo_create(self->fd, where, 100000, 0, &c));
	EXPECT_EQ(106496ULL, c.size);			/* 13 x 8 KiB */
	EXPECT_NE(0ULL, c.device_va);
	info.handle = c.handle;
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SWAI_BO_INFO, &info));
	EXPECT_EQ(where, info.placement);
	EXPECT_EQ(c.size, info.size);
	EXPECT_EQ(c.device_va, info.device_va);
	EXPECT_NE(0ULL, info.mmap_offset);
	for (__u64 off = 0; off < c.size; off += 4096) {
		EXPECT_EQ(1, probe(self->fd, c.device_va + off, DRM_SWAI_PROBE_WRITE));
	}
	EXPECT_EQ(0, probe(self->fd, c.device_va + c.size, 0));
	EXPECT_EQ(0, probe(self->fd, c.device_va - 4096, 0));
	ASSERT_EQ(0, mem_info(self->fd, &mi));
	EXPECT_EQ(self->base.region[where].used + c.size, mi.region[where].used);
	EXPECT_EQ(c.size, mi.region[where].used_by_caller);
	EXPECT_EQ(self->base.objects + 1, mi.objects);
	ASSERT_EQ(0, bo_close(self->fd, c.handle));
	EXPECT_EQ(0, probe(self->fd, c.device_va, 0));
	EXPECT_EQ(-EINVAL, bo_close(self->fd, c.handle));
}

/* A runtime driving several cards picks the device VA itself. */
TEST_F(mem, fixed_device_va)
{
	__u32 where = roomy_region(&self->q, 256 * 1024);
	struct drm_swai_bo_create c = {
		.size = 128 * 1024, .placement = where, .flags = DRM_SWAI_BO_FIXED_VA,
		.device_va = 5ULL << 30,
	}, d;

	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SWAI_BO_CREATE, &c));
	EXPECT_EQ(5ULL << 30, c.device_va);
	EXPECT_EQ(1, probe(self->fd, (5ULL << 30) + c.size - 4096, 0));
	/* Overlapping a mapping of the caller's. */
	d = (struct drm_swai_bo_create){ .size = 8192, .placement = where,
		.flags = DRM_SWAI_BO_FIXED_VA, .device_va = (5ULL << 30) + 65536 };
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_BO_CREATE, &d));
	EXPECT_EQ(EEXIST, errno);
	/* Unaligned, below 1 MiB, beyond the 39-bit space. */
	d.device_va = (6ULL << 30) + 4096;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_BO_CREATE, &d));
	EXPECT_EQ(EINVAL, errno);
	d.device_va = 65536;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_BO_CREATE, &d));
	EXPECT_EQ(EINVAL, errno);
	d.device_va = (1ULL << 39) - 65536;	/* 128 KiB do not fit */
	d.size = 128 * 1024;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_BO_CREATE, &d));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, bo_close(self->fd, c.handle));
	EXPECT_EQ(0, probe(self->fd, 5ULL << 30, 0));
}

TEST_F(mem, segment_objects_are_whole_mib)
{
	struct drm_swai_bo_create c;

	if (self->q.local_per_cg < MIB)
		SKIP(return, "no Local-HBM in this split");
	ASSERT_EQ(0, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(1), 5000, DRM_SWAI_BO_SEGMENT, &c));
	EXPECT_EQ(MIB, c.size);
	EXPECT_EQ(0, bo_close(self->fd, c.handle));
}

/* CPU access through BAR2: what is written is read back, new memory is zero. */
TEST_F(mem, mmap_roundtrip_and_zeroed)
{
	__u32 places[] = { DRM_SWAI_MEM_LOCAL(0), DRM_SWAI_MEM_LOCAL(3), DRM_SWAI_MEM_GLOBAL };

	for (unsigned int i = 0; i < 3; i++) {
		struct drm_swai_bo_create c;
		struct drm_swai_bo_info info = { 0 };
		__u64 size = 256 * 1024;
		__u32 *p;

		if (places[i] == DRM_SWAI_MEM_GLOBAL ? !self->q.global_size :
		    self->q.local_per_cg < size)
			continue;
		/* Dirty a range, free it, and take it again: it must come back zero. */
		for (int round = 0; round < 2; round++) {
			ASSERT_EQ(0, bo_create(self->fd, places[i], size, 0, &c));
			info.handle = c.handle;
			ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SWAI_BO_INFO, &info));
			p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
				 self->fd, info.mmap_offset);
			ASSERT_NE(MAP_FAILED, p);
			for (__u64 k = 0; k < size / 4; k += 257) {
				ASSERT_EQ(0u, p[k]) {
					TH_LOG("placement %u word %llu", places[i],
					       (unsigned long long)k);
				}
			}
			for (__u64 k = 0; k < size / 4; k++)
				p[k] = (__u32)(k * 2654435761u + i);
			for (__u64 k = 0; k < size / 4; k += 97)
				ASSERT_EQ((__u32)(k * 2654435761u + i), p[k]);
			munmap(p, size);
			ASSERT_EQ(0, bo_close(self->fd, c.handle));
		}
	}
}

/* The paper's first claim: with Local size 0 one core group reaches 4x. */
TEST_F(mem, capacity_per_split)
{
	__u64 hbm = self->q.hbm_per_cg, local_all, global_all;
	struct drm_swai_bo_create c;

	ASSERT_EQ(0, set_split(self->fd, hbm));
	local_all = fill_region(self->fd, DRM_SWAI_MEM_LOCAL(0), 4 * MIB);
	/* All Local: Global-HBM is empty. */
	EXPECT_EQ(-EINVAL, bo_create(self->fd, DRM_SWAI_MEM_GLOBAL, MIB, 0, NULL));
	ASSERT_EQ(0, set_split(self->fd, 0));
	global_all = fill_region(self->fd, DRM_SWAI_MEM_GLOBAL, 4 * MIB);
	EXPECT_EQ(hbm, local_all);
	EXPECT_EQ(4 * hbm, global_all);
	/* The split cannot move while memory is allocated. */
	ASSERT_EQ(0, bo_create(self->fd, DRM_SWAI_MEM_GLOBAL, MIB, 0, &c));
	EXPECT_EQ(-EBUSY, set_split(self->fd, hbm));
	EXPECT_EQ(0, bo_close(self->fd, c.handle));
	EXPECT_EQ(0, set_split(self->fd, hbm / 2));
}

/* Full is -ENOSPC, and a free makes room again. */
TEST_F(mem, exhaustion_and_recovery)
{
	struct drm_swai_bo_create big, small;
	__u64 cap = self->q.local_per_cg;

	if (cap < 2 * MIB)
		SKIP(return, "Local-HBM too small in this split");
	ASSERT_EQ(0, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(2), cap, 0, &big));
	EXPECT_EQ(-ENOSPC, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(2), 8192, 0, NULL));
	/* Other regions are not affected. */
	EXPECT_EQ(0, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(1), 8192, 0, &small));
	EXPECT_EQ(0, bo_close(self->fd, small.handle));
	ASSERT_EQ(0, bo_close(self->fd, big.handle));
	EXPECT_EQ(0, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(2), cap, 0, &big));
	EXPECT_EQ(0, bo_close(self->fd, big.handle));
}

TEST_F(mem, bad_arguments)
{
	struct drm_swai_bo_create c = { .size = 4096, .placement = DRM_SWAI_MEM_GLOBAL };
	struct drm_swai_bo_info info = { .handle = 0x7777 };
	struct drm_swai_va_probe p = { .va = 0, .flags = 0x10 };

	EXPECT_EQ(-EINVAL, bo_create(self->fd, 5, 4096, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_create(self->fd, 0xffffffffu, 4096, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(0), 0, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(0), ~0ULL, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(0),
				     self->q.hbm_per_cg + MIB, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_create(self->fd, DRM_SWAI_MEM_LOCAL(0), 4096, 0x80, NULL));
	c.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_BO_CREATE, &c));
	EXPECT_EQ(EINVAL, errno);
	c.pad = 0;
	c.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_BO_CREATE, &c));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_BO_INFO, &info));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_SWAI_VA_PROBE, &p));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, probe(self->fd, 1ULL << 45, 0));	/* beyond the VA space */
}

/*
 * A second process (its own open file, so its own context) cannot reach the
 * first one's memory: not by handle, not by mmap offset, not by device VA.
 */
TEST_F(mem, isolation_between_processes)
{
	struct drm_swai_bo_create c;
	struct drm_swai_bo_info info = { 0 };
	int st;
	pid_t pid;

	ASSERT_EQ(0, bo_create(self->fd, roomy_region(&self->q, 64 * 1024), 64 * 1024, 0, &c));
	info.handle = c.handle;
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SWAI_BO_INFO, &info));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd = open(self->card[0].node, O_RDWR | O_CLOEXEC), bad = 0;
		struct drm_swai_bo_info other = { .handle = c.handle };
		struct drm_gem_close cl = { .handle = c.handle };
		struct drm_gem_flink fl = { .handle = c.handle };

		if (fd < 0)
			_exit(100);
		bad |= probe(fd, c.device_va, 0) != 0;
		bad |= probe(fd, c.device_va + 4096, DRM_SWAI_PROBE_WRITE) != 0;
		bad |= (!ioctl(fd, DRM_IOCTL_SWAI_BO_INFO, &other)) << 1;
		bad |= (mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
			     info.mmap_offset) != MAP_FAILED) << 2;
		bad |= (!ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl)) << 3;
		bad |= (!ioctl(self->fd, DRM_IOCTL_GEM_FLINK, &fl)) << 4;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));
	/* Still the owner's, still mapped. */
	EXPECT_EQ(1, probe(self->fd, c.device_va, 0));
	EXPECT_EQ(0, bo_close(self->fd, c.handle));
}

/* A process killed with memory allocated leaves nothing behind. */
TEST_F(mem, killed_process_leaves_nothing)
{
	struct drm_swai_mem_info mi;
	int ready[2], st;
	pid_t pid;
	char ch;

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);

		for (__u32 r = 0; r < DRM_SWAI_MEM_REGIONS; r++)
			bo_create(fd, r, 3 * MIB, 0, NULL);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &ch, 1));
	ASSERT_EQ(0, mem_info(self->fd, &mi));
	EXPECT_EQ(self->base.contexts + 1, mi.contexts);
	EXPECT_GT(mi.objects, self->base.objects);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(0, mem_info(self->fd, &mi));
	EXPECT_EQ(self->base.contexts, mi.contexts);
	EXPECT_EQ(self->base.objects, mi.objects);
	EXPECT_EQ(self->base.contexts, swai_sysfs_num(&self->card[0], "contexts"));
	close(ready[0]);
	close(ready[1]);
}

/* /proc/PID/fdinfo carries the standard DRM keys, per region. */
TEST_F(mem, fdinfo_reports_usage)
{
	__u32 where = roomy_region(&self->q, 2 * MIB);
	struct drm_swai_bo_create c;
	char path[64], buf[4096], want[64];
	ssize_t n;
	int fd;

	ASSERT_EQ(0, bo_create(self->fd, where, 2 * MIB, 0, &c));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	fd = open(path, O_RDONLY);
	ASSERT_GE(fd, 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	ASSERT_GT(n, 0);
	buf[n] = '\0';
	EXPECT_NE(NULL, strstr(buf, "drm-driver:\tswai"));
	EXPECT_NE(NULL, strstr(buf, "drm-client-id:"));
	/* drm_print_memory_stats() prints the largest exact unit. */
	snprintf(want, sizeof(want), "drm-total-%s:\t2 MiB",
		 where == DRM_SWAI_MEM_GLOBAL ? "global" : "local0");
	EXPECT_NE(NULL, strstr(buf, want)) TH_LOG("fdinfo:\n%s", buf);
	EXPECT_EQ(0, bo_close(self->fd, c.handle));
}

/*
 * Random arguments to every memory ioctl for a fixed budget: each call
 * succeeds or fails with an errno of the uAPI, never worse; what succeeded
 * is freed and the teardown checks nothing leaked.
 */
TEST_F(mem, ioctl_fuzzing)
{
	static const unsigned long cmds[] = {
		DRM_IOCTL_SWAI_BO_CREATE, DRM_IOCTL_SWAI_BO_INFO,
		DRM_IOCTL_SWAI_MEM_INFO, DRM_IOCTL_SWAI_VA_PROBE,
		DRM_IOCTL_SWAI_BO_USERPTR,
	};
	uint64_t seed = 0x5a1a5a1a;
	int bad = 0;

	for (int i = 0; i < 20000; i++) {
		union {
			__u64 w[64];
			struct drm_swai_bo_create c;
			struct drm_swai_bo_userptr u;
		} arg;
		unsigned long cmd = cmds[splitmix64(&seed) % 5];
		int e;

		for (int k = 0; k < 64; k++)
			arg.w[k] = splitmix64(&seed);
		/* Mostly plausible values, so the checks past the first are hit. */
		if (splitmix64(&seed) % 2) {
			arg.w[0] %= 4 * MIB;
			arg.w[1] %= 8;
			arg.w[2] = arg.w[3] = arg.w[4] = arg.w[5] = 0;
			if (splitmix64(&seed) % 2)
				arg.w[1] &= 0xffffffffULL;
		}
		if (!ioctl(self->fd, cmd, &arg)) {
			if (cmd == DRM_IOCTL_SWAI_BO_CREATE)
				bo_close(self->fd, arg.c.handle);
			if (cmd == DRM_IOCTL_SWAI_BO_USERPTR)
				bo_close(self->fd, arg.u.handle);
			continue;
		}
		e = errno;
		if (e != EINVAL && e != ENOSPC && e != ENOENT && e != EFAULT &&
		    e != ENOMEM && e != EEXIST) {
			bad++;
			TH_LOG("cmd %lx gave errno %d", cmd, e);
		}
	}
	EXPECT_EQ(0, bad);
}

/* Each open file is a hardware context; they run out cleanly and come back. */
TEST_F(mem, contexts_run_out_cleanly)
{
	int fds[80], n = 0, err = 0, again;

	while (n < 80) {
		fds[n] = open(self->card[0].node, O_RDWR | O_CLOEXEC);
		if (fds[n] < 0) {
			err = errno;
			break;
		}
		n++;
	}
	EXPECT_LT(n, 80);
	EXPECT_EQ(ENOSPC, err);
	while (n)
		close(fds[--n]);
	again = open(self->card[0].node, O_RDWR | O_CLOEXEC);
	EXPECT_GE(again, 0);
	close(again);
}

TEST_HARNESS_MAIN
