/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sdaa_test.h - helpers of the libsdaa selftests that run work on the card
 * (streams, copies, launches).  Include after kselftest_harness.h.
 */
#ifndef SDAA_TEST_H
#define SDAA_TEST_H

#include <stdint.h>
#include <sys/wait.h>

#include "sdaa_runtime.h"
#include "drm/swai_accel.h"
#include "drm/swai_program.h"
#include "splitmix64.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)

/* Can device @dev's card run jobs?  Tests of work skip cleanly if not. */
static inline int sdaa_test_can_submit(int dev)
{
	struct sdaaDeviceProp p;

	return sdaaGetDeviceProperties(&p, dev) == sdaaSuccess &&
	       (p.capabilities & DRM_SWAI_CAP_SUBMIT);
}

#define NEED_SUBMIT() do {						\
	if (!sdaa_test_can_submit(0))					\
		SKIP(return, "the card cannot run jobs (no DRM_SWAI_CAP_SUBMIT)"); \
} while (0)

/* The logical device of core group @cg of device 0's card, -1 if hidden. */
static inline int sdaa_test_cg_device(int cg)
{
	struct sdaaDeviceProp p0, p;
	int n;

	if (sdaaGetDeviceProperties(&p0, 0) || sdaaGetDeviceCount(&n))
		return -1;
	for (int d = 0; d < n; d++)
		if (!sdaaGetDeviceProperties(&p, d) && p.card == p0.card && p.coreGroup == cg)
			return d;
	return -1;
}

/* Deterministic bytes: the same @seed gives the same contents. */
static inline void sdaa_test_fill(void *p, size_t n, uint64_t seed)
{
	unsigned char *b = p;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v = splitmix64(&seed);

		memcpy(b + i, &v, 8);
	}
	for (; i < n; i++)
		b[i] = (unsigned char)splitmix64(&seed);
}

/* The first index where @a and @b differ, or -1. */
static inline long sdaa_test_diff(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return (long)i;
	return -1;
}

/*
 * Tests that run much work under TCG need more than the harness's 30 s:
 * TEST_F_TIMEOUT(card, name, seconds) with this empty fixture.
 */
FIXTURE(card) {
	int unused;
};

FIXTURE_SETUP(card)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(card)
{
}

/* Instructions of the SW-AI ISA (uapi/drm/swai_program.h). */
static inline struct swai_insn insn_copy(uint64_t dst, uint64_t src, uint64_t len)
{
	return (struct swai_insn){ .op = SWAI_OP_COPY, .rows = 1, .len = len,
				   .dst = dst, .src = src };
}

static inline struct swai_insn insn_get(uint64_t ldm, uint64_t va, uint64_t len)
{
	return (struct swai_insn){ .op = SWAI_OP_DMA_GET, .rows = 1, .len = len,
				   .dst = ldm, .src = va };
}

static inline struct swai_insn insn_put(uint64_t va, uint64_t ldm, uint64_t len)
{
	return (struct swai_insn){ .op = SWAI_OP_DMA_PUT, .rows = 1, .len = len,
				   .dst = va, .src = ldm };
}

static inline struct swai_insn insn_reduce(uint64_t dst, uint64_t src, uint64_t n,
					   uint8_t dtype, uint8_t rop)
{
	return (struct swai_insn){ .op = SWAI_OP_REDUCE, .dtype = dtype, .rop = rop,
				   .len = n, .dst = dst, .src = src };
}

/* LDM[@dst][i] /= @divisor (>= 1), @n elements of @dtype. */
static inline struct swai_insn insn_div(uint64_t dst, uint64_t n, uint8_t dtype,
					uint64_t divisor)
{
	return (struct swai_insn){ .op = SWAI_OP_DIV, .dtype = dtype, .len = n,
				   .dst = dst, .src = divisor };
}

static inline struct swai_insn insn_signal(uint64_t sem, uint64_t add)
{
	return (struct swai_insn){ .op = SWAI_OP_SIGNAL, .dst = sem, .src = add };
}

static inline struct swai_insn insn_wait(uint64_t sem, uint64_t atleast)
{
	return (struct swai_insn){ .op = SWAI_OP_WAIT, .dst = sem, .src = atleast };
}

static inline uint64_t va_of(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/*
 * Zeroed semaphores (a page) in pinned host memory, which every core group
 * reaches in every split; the device pointer, the host one in *@host.
 */
static inline uint64_t *sdaa_test_sem(void **host)
{
	void *d;

	if (sdaaMallocHost(host, 4096) || sdaaHostGetDevicePointer(&d, *host, 0))
		return NULL;
	memset(*host, 0, 4096);
	return d;
}

/* Run @fn(@arg) in @n child processes; return how many failed. */
static inline int sdaa_test_fork(int n, int (*fn)(int idx, void *arg), void *arg)
{
	pid_t pid[64];
	int bad = 0, st;

	for (int i = 0; i < n && i < 64; i++) {
		pid[i] = fork();
		if (!pid[i])
			_exit(fn(i, arg) ? 1 : 0);
	}
	for (int i = 0; i < n && i < 64; i++) {
		if (pid[i] < 0 || waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad++;
	}
	return bad;
}

#endif /* SDAA_TEST_H */
