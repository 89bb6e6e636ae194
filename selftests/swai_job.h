/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_job.h - helpers of the swai job selftests: buffer objects the CPU
 * can reach (pinned host memory, or Local/Global-HBM mapped through BAR2),
 * hand-built core-group programs, DRM_IOCTL_SWAI_SUBMIT and JOB_WAIT, and
 * the sysfs/debugfs recovery knobs.  Include after swai_test.h.
 */
#ifndef SWAI_JOB_H
#define SWAI_JOB_H

#include <stdint.h>
#include <sys/mman.h>
#include <time.h>

#include "drm/swai_program.h"

#define MIB (1ULL << 20)
#define INSN_SIZE ((unsigned int)sizeof(struct swai_insn))
#define MAX_INSNS (SWAI_PROGRAM_MAX_BYTES / INSN_SIZE)
#define MAX_CG 4		/* core groups a card has at most */

/* A buffer object and where the CPU sees it. */
struct bo {
	__u32 handle;
	__u64 va;		/* device VA in the creating file's context */
	__u64 size;
	void *cpu;		/* CPU mapping (host memory, or BAR2) */
	int host;		/* pinned host memory (BO_USERPTR) */
};

static inline __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Pinned host memory of @size bytes (page multiple), zeroed; 0 or -errno. */
static inline int host_bo(int fd, __u64 size, struct bo *bo)
{
	struct drm_swai_bo_userptr u = { .size = size };
	void *p;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	memset(p, 0, size);
	u.addr = (__u64)(uintptr_t)p;
	if (ioctl(fd, DRM_IOCTL_SWAI_BO_USERPTR, &u)) {
		int e = -errno;

		munmap(p, size);
		return e;
	}
	*bo = (struct bo){ .handle = u.handle, .va = u.device_va, .size = size,
			   .cpu = p, .host = 1 };
	return 0;
}

/* Device memory in @placement, mapped for the CPU; 0 or -errno. */
static inline int dev_bo(int fd, __u32 placement, __u64 size, struct bo *bo)
{
	struct drm_swai_bo_create c = { .size = size, .placement = placement };
	struct drm_swai_bo_info i = { 0 };
	void *p;

	if (ioctl(fd, DRM_IOCTL_SWAI_BO_CREATE, &c))
		return -errno;
	i.handle = c.handle;
	if (ioctl(fd, DRM_IOCTL_SWAI_BO_INFO, &i))
		return -errno;
	p = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, i.mmap_offset);
	if (p == MAP_FAILED)
		return -errno;
	*bo = (struct bo){ .handle = c.handle, .va = c.device_va, .size = c.size,
			   .cpu = p };
	return 0;
}

static inline void bo_free(int fd, struct bo *bo)
{
	struct drm_gem_close c = { .handle = bo->handle };

	if (!bo->cpu)
		return;
	munmap(bo->cpu, bo->size);
	ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
	memset(bo, 0, sizeof(*bo));
}

/*
 * Programs: built in an array, then copied into a host BO used as a bump
 * arena, so that jobs in flight keep their own copy.
 */
struct prog {
	struct swai_insn insn[MAX_INSNS];
	unsigned int n;
};

struct arena {
	struct bo bo;
	__u64 used;
};

static inline int arena_init(int fd, struct arena *a, __u64 size)
{
	a->used = 0;
	return host_bo(fd, size, &a->bo);
}

/* Copy @p into the arena; its device VA, or 0 when the arena is full. */
static inline __u64 arena_put(struct arena *a, const struct prog *p)
{
	__u64 size = (__u64)p->n * INSN_SIZE, va;

	if (a->used + size > a->bo.size)
		a->used = 0;	/* wrap: old programs have been fetched */
	va = a->bo.va + a->used;
	memcpy((char *)a->bo.cpu + a->used, p->insn, size);
	a->used += (size + 63) & ~63ULL;
	return va;
}

static inline struct swai_insn *emit(struct prog *p, __u8 op)
{
	struct swai_insn *i = &p->insn[p->n++];

	memset(i, 0, sizeof(*i));
	i->op = op;
	return i;
}

static inline void p_xfer(struct prog *p, __u8 op, __u64 dst, __u64 src, __u64 len,
			  __u32 rows, __u64 dst_stride, __u64 src_stride)
{
	struct swai_insn *i = emit(p, op);

	i->dst = dst;
	i->src = src;
	i->len = len;
	i->rows = rows;
	i->dst_stride = dst_stride;
	i->src_stride = src_stride;
}

static inline void p_copy(struct prog *p, __u64 dst, __u64 src, __u64 len)
{
	p_xfer(p, SWAI_OP_COPY, dst, src, len, 0, 0, 0);
}

static inline void p_sem(struct prog *p, __u8 op, __u8 flags, __u64 sem, __u64 val)
{
	struct swai_insn *i = emit(p, op);

	i->flags = flags;
	i->dst = sem;
	i->src = val;
}

static inline void p_barrier(struct prog *p, __u64 sem, __u64 n)
{
	struct swai_insn *i = emit(p, SWAI_OP_BARRIER);

	i->dst = sem;
	i->len = n;
}

static inline void p_timestamp(struct prog *p, __u64 dst, __u8 flags)
{
	struct swai_insn *i = emit(p, SWAI_OP_TIMESTAMP);

	i->flags = flags;
	i->dst = dst;
}

static inline void p_end(struct prog *p)
{
	emit(p, SWAI_OP_END);
}

static inline void p_reset(struct prog *p)
{
	p->n = 0;
}

/* A submit with everything but the program zeroed; caller adjusts it. */
static inline struct drm_swai_submit submit_args(__u32 queue, __u64 va, __u32 size)
{
	struct drm_swai_submit s = {
		.program_va = va, .program_size = size, .queue = queue,
	};

	return s;
}

static inline int submit_raw(int fd, struct drm_swai_submit *s)
{
	return ioctl(fd, DRM_IOCTL_SWAI_SUBMIT, s) ? -errno : 0;
}

/* Put @p in @a and run it on @queue; the job id, or -errno. */
static inline long long run_prog(int fd, struct arena *a, const struct prog *p,
				 __u32 queue)
{
	struct drm_swai_submit s = submit_args(queue, arena_put(a, p), p->n * INSN_SIZE);
	int ret = submit_raw(fd, &s);

	return ret ? ret : (long long)s.job_id;
}

/* Wait up to @ms for job @id; 0 (done), -ETIME or another -errno. */
static inline int job_wait(int fd, __u64 id, int ms, struct drm_swai_job_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->job_id = id;
	w->timeout_abs_ns = ms ? (__s64)(now_ns() + (__u64)ms * 1000000ULL) : 0;
	return ioctl(fd, DRM_IOCTL_SWAI_JOB_WAIT, w) ? -errno : 0;
}

/* The error code job @id ended with, waiting up to @ms; -errno if it did not. */
static inline int job_error(int fd, __u64 id, int ms)
{
	struct drm_swai_job_wait w;
	int ret = job_wait(fd, id, ms, &w);

	return ret ? ret : (int)w.error;
}

static inline int query_timing(int fd, struct drm_swai_query_timing *t)
{
	memset(t, 0, sizeof(*t));
	return ioctl(fd, DRM_IOCTL_SWAI_QUERY_TIMING, t) ? -errno : 0;
}

/* Write @val to a file; 0 or -errno. */
static inline int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(val, f) < 0)
		ret = -EIO;
	if (fclose(f))
		ret = -errno;
	return ret;
}

static inline int card_attr_write(const struct swai_card *c, const char *attr,
				  const char *val)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", c->sysfs, attr);
	return write_file(path, val);
}

static inline int debugfs_write(const struct swai_card *c, const char *knob,
				const char *val)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/%s", c->bdf, knob);
	return write_file(path, val);
}

/* Fill @n bytes at @p with a pattern that depends on @seed. */
static inline void fill(void *p, size_t n, unsigned int seed)
{
	unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 131 + seed * 7 + (i >> 8));
}

/* CPU copies to and from BAR2 mappings byte by byte: any size and alignment. */
static inline void bo_write(struct bo *bo, __u64 off, const void *src, size_t n)
{
	volatile unsigned char *d = (unsigned char *)bo->cpu + off;
	const unsigned char *s = src;

	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

static inline void bo_read(struct bo *bo, __u64 off, void *dst, size_t n)
{
	const volatile unsigned char *s = (unsigned char *)bo->cpu + off;
	unsigned char *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

static inline __u64 sem_read(struct bo *bo, __u64 off)
{
	return __atomic_load_n((__u64 *)((char *)bo->cpu + off), __ATOMIC_ACQUIRE);
}

#endif /* SWAI_JOB_H */
