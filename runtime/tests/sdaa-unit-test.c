// SPDX-License-Identifier: MIT
/*
 * sdaa-unit-test - host unit tests of libsdaa, no card needed: error names
 * and strings, last-error semantics (sticky errors, NotReady),
 * SDAA_VISIBLE_DEVICES and SDAA_LOG_LEVEL parsing, argument checks, the
 * error a host without the swai module gets, and the card-independent logic
 * of streams and copies: modeled host clock rules, event times, staging
 * chunks, the program buffer, fronts and their in-fences, stream/event
 * handles, and memset programs run by a small interpreter.  Prints TAP.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "splitmix64.h"
#include <unistd.h>

#include "sdaa_exec.h"
#include "sdaa_handle.h"


static const sdaaError_t all_errors[] = {
	sdaaSuccess, sdaaErrorInvalidValue, sdaaErrorMemoryAllocation,
	sdaaErrorInitializationError, sdaaErrorDriverNotLoaded,
	sdaaErrorInsufficientDriver, sdaaErrorNoPermission, sdaaErrorNoDevice,
	sdaaErrorInvalidDevice, sdaaErrorDeviceUnavailable, sdaaErrorUnknown,
	sdaaErrorInvalidDevicePointer, sdaaErrorCrossMemoryAllocation,
	sdaaErrorWrongMemoryTier, sdaaErrorHostMemoryAllocation,
	sdaaErrorMemlockLimit, sdaaErrorInvalidHostPointer,
	sdaaErrorInvalidMemcpyDirection, sdaaErrorInvalidResourceHandle,
	sdaaErrorNotReady, sdaaErrorTimeout, sdaaErrorNotSupported,
	sdaaErrorIllegalAddress, sdaaErrorLaunchTimeout, sdaaErrorIllegalInstruction,
	sdaaErrorMisalignedAddress, sdaaErrorLaunchFailure, sdaaErrorLdmOverrun,
	sdaaErrorForeignLocalAccess, sdaaErrorDmaFailure, sdaaErrorInvalidProgram,
	sdaaErrorDeviceReset, sdaaErrorPeerAccessUnsupported,
	sdaaErrorPeerAccessAlreadyEnabled, sdaaErrorPeerAccessNotEnabled,
};
#define NERR (int)(sizeof(all_errors) / sizeof(all_errors[0]))

static void test_error_strings(void)
{
	for (int i = 0; i < NERR; i++) {
		const char *name = sdaaGetErrorName(all_errors[i]);
		const char *text = sdaaGetErrorString(all_errors[i]);

		CHECK(!strncmp(name, "sdaa", 4));
		CHECK(strlen(text) > 0);
		for (int j = 0; j < i; j++) {
			CHECK(strcmp(name, sdaaGetErrorName(all_errors[j])));
			CHECK(strcmp(text, sdaaGetErrorString(all_errors[j])));
		}
	}
	CHECK(!strcmp(sdaaGetErrorName((sdaaError_t)12345), "unrecognized error code"));
	CHECK(!strcmp(sdaaGetErrorString((sdaaError_t)-1), "unrecognized error code"));
	/* The strings say what to do next. */
	CHECK(strstr(sdaaGetErrorString(sdaaErrorDriverNotLoaded), "modprobe swai"));
	CHECK(strstr(sdaaGetErrorString(sdaaErrorNoPermission), "render"));
	CHECK(strstr(sdaaGetErrorString(sdaaErrorMemlockLimit), "ulimit -l"));
	CHECK(strstr(sdaaGetErrorString(sdaaErrorPeerAccessNotEnabled),
		     "sdaaDeviceEnablePeerAccess"));
	/* Peer-access refusals are answers to a call, never sticky. */
	CHECK(!sdaa_error_is_sticky(sdaaErrorPeerAccessUnsupported));
	CHECK(!sdaa_error_is_sticky(sdaaErrorPeerAccessAlreadyEnabled));
	CHECK(!sdaa_error_is_sticky(sdaaErrorPeerAccessNotEnabled));
}

static void *other_thread(void *arg)
{
	(void)arg;
	/* A fresh thread has no last error, whatever the others did. */
	return (void *)(long)sdaaPeekAtLastError();
}

static void test_last_error(void)
{
	pthread_t t;
	void *seen;

	sdaaGetLastError();
	CHECK(sdaa_error(sdaaErrorInvalidDevice) == sdaaErrorInvalidDevice);
	CHECK(sdaa_error(sdaaSuccess) == sdaaSuccess);	/* does not clear */
	CHECK(sdaaPeekAtLastError() == sdaaErrorInvalidDevice);
	CHECK(sdaaPeekAtLastError() == sdaaErrorInvalidDevice);
	CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0);
	CHECK(pthread_join(t, &seen) == 0);
	CHECK((long)seen == sdaaSuccess);
	CHECK(sdaaGetLastError() == sdaaErrorInvalidDevice);
	CHECK(sdaaGetLastError() == sdaaSuccess);
}

static int parse(const char *s, int total, const int *want, int nwant)
{
	int out[SDAA_MAX_DEVICES];
	int n = sdaa_parse_visible(s, total, out, SDAA_MAX_DEVICES);

	if (n != nwant)
		return 0;
	return !n || !memcmp(out, want, sizeof(int) * (size_t)n);
}

static void test_visible_devices(void)
{
	CHECK(parse("0,1,2", 8, (int[]){ 0, 1, 2 }, 3));
	CHECK(parse("3, 1", 8, (int[]){ 3, 1 }, 2));
	CHECK(parse(" 4 ,5 ", 8, (int[]){ 4, 5 }, 2));
	CHECK(parse("7", 8, (int[]){ 7 }, 1));
	CHECK(parse("2,", 8, (int[]){ 2 }, 1));
	/* The list ends at the first invalid or repeated entry. */
	CHECK(parse("1,x,2", 8, (int[]){ 1 }, 1));
	CHECK(parse("1,8,2", 8, (int[]){ 1 }, 1));
	CHECK(parse("1,1,2", 8, (int[]){ 1 }, 1));
	CHECK(parse("1,99999999999999999999", 8, (int[]){ 1 }, 1));
	CHECK(parse("-1", 8, NULL, 0));
	CHECK(parse("", 8, NULL, 0));
	CHECK(parse("8", 8, NULL, 0));
	CHECK(parse("0", 0, NULL, 0));
	/* @max bounds the output. */
	{
		int out[2];

		CHECK(sdaa_parse_visible("0,1,2,3", 8, out, 2) == 2);
	}
}

static void test_log_level(void)
{
	CHECK(sdaa_log_parse(NULL) == SDAA_LOG_OFF);
	CHECK(sdaa_log_parse("") == SDAA_LOG_OFF);
	CHECK(sdaa_log_parse("0") == SDAA_LOG_OFF);
	CHECK(sdaa_log_parse("off") == SDAA_LOG_OFF);
	CHECK(sdaa_log_parse("error") == SDAA_LOG_ERROR);
	CHECK(sdaa_log_parse("WARN") == SDAA_LOG_WARN);
	CHECK(sdaa_log_parse("3") == SDAA_LOG_INFO);
	CHECK(sdaa_log_parse("debug") == SDAA_LOG_DEBUG);
	CHECK(sdaa_log_parse("loud") == SDAA_LOG_WARN);
	CHECK(sdaa_log_parse("44") == SDAA_LOG_WARN);
}

static void test_log_subsys(void)
{
	CHECK(sdaa_log_parse_subsys(NULL) == SDAA_SUB_ALL);
	CHECK(sdaa_log_parse_subsys("") == SDAA_SUB_ALL);
	CHECK(sdaa_log_parse_subsys("JOB") == SDAA_SUB_JOB);
	CHECK(sdaa_log_parse_subsys("job,mem") == (SDAA_SUB_JOB | SDAA_SUB_MEM));
	CHECK(sdaa_log_parse_subsys("ALL") == SDAA_SUB_ALL);
	CHECK(sdaa_log_parse_subsys("^KERNEL") == (SDAA_SUB_ALL & ~SDAA_SUB_KERNEL));
	CHECK(sdaa_log_parse_subsys("^INIT,MEM") == (SDAA_SUB_JOB | SDAA_SUB_KERNEL));
	CHECK(sdaa_log_parse_subsys("bogus") == 0);
	CHECK(sdaa_log_parse_subsys("bogus,INIT") == SDAA_SUB_INIT);
}

static void test_null_arguments(void)
{
	sdaaGetLastError();
	CHECK(sdaaGetDeviceCount(NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGetDevice(NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGetDeviceProperties(NULL, 0) == sdaaErrorInvalidValue);
	CHECK(sdaaRuntimeGetVersion(NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaDriverGetVersion(NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaMalloc(NULL, 64) == sdaaErrorInvalidValue);
	CHECK(sdaaMallocCross(NULL, 64) == sdaaErrorInvalidValue);
	CHECK(sdaaMemGetInfo(NULL, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaPointerGetAttributes(NULL, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGetLastError() == sdaaErrorInvalidValue);
	/* Freeing NULL is no error, as with free(). */
	CHECK(sdaaFree(NULL) == sdaaSuccess);
	CHECK(sdaaFreeCross(NULL) == sdaaSuccess);
	CHECK(sdaaFreeHost(NULL) == sdaaSuccess);
	CHECK(sdaaMallocHost(NULL, 64) == sdaaErrorInvalidValue);
}

static void test_versions(void)
{
	int v = -1;

	CHECK(sdaaRuntimeGetVersion(&v) == sdaaSuccess && v == SDAA_VERSION);
}

/* The host has no swai module: every device call says so, distinctly. */
static void test_no_driver(void)
{
	struct sdaaDeviceProp prop;
	int count = -1, dev = -1, v = -1;

	if (!access("/sys/module/swai", F_OK)) {
		printf("# swai is loaded on this host; checking only consistency\n");
		CHECK(sdaaGetDeviceCount(&count) == sdaaSuccess || count == 0);
		return;
	}
	sdaaGetLastError();
	CHECK(sdaaGetDeviceCount(&count) == sdaaErrorDriverNotLoaded);
	CHECK(count == 0);
	CHECK(sdaaSetDevice(0) == sdaaErrorDriverNotLoaded);
	CHECK(sdaaGetDevice(&dev) == sdaaErrorDriverNotLoaded);
	CHECK(sdaaGetDeviceProperties(&prop, 0) == sdaaErrorDriverNotLoaded);
	CHECK(sdaaDriverGetVersion(&v) == sdaaSuccess && v == 0);
	{
		void *p = (void *)1;
		size_t fr, tot;
		struct sdaaPointerAttributes a;

		CHECK(sdaaMalloc(&p, 64) == sdaaErrorDriverNotLoaded && !p);
		CHECK(sdaaMemGetInfo(&fr, &tot) == sdaaErrorDriverNotLoaded);
		/* A pointer libsdaa never gave out is unregistered, not an error. */
		CHECK(sdaaPointerGetAttributes(&a, &fr) == sdaaSuccess);
		CHECK(a.type == sdaaMemoryTypeUnregistered && a.card == -1);
		CHECK(sdaaFree(&fr) == sdaaErrorInvalidDevicePointer);
		CHECK(sdaaMallocHost(&p, 4096) == sdaaErrorDriverNotLoaded && !p);
		CHECK(sdaaFreeHost(&fr) == sdaaErrorInvalidHostPointer);
	}
	CHECK(sdaaGetLastError() == sdaaErrorInvalidHostPointer);
}


/* Every job error has its own runtime error; all but a reset are sticky. */
static void test_job_errors(void)
{
	static const struct { uint32_t code; sdaaError_t err; int sticky; } map[] = {
		{ DRM_SWAI_JOB_OK, sdaaSuccess, 0 },
		{ DRM_SWAI_JOB_ERR_ILLEGAL, sdaaErrorIllegalInstruction, 1 },
		{ DRM_SWAI_JOB_ERR_LDM, sdaaErrorLdmOverrun, 1 },
		{ DRM_SWAI_JOB_ERR_MMU, sdaaErrorIllegalAddress, 1 },
		{ DRM_SWAI_JOB_ERR_RESET, sdaaErrorDeviceReset, 0 },
		{ DRM_SWAI_JOB_ERR_PROGRAM, sdaaErrorInvalidProgram, 1 },
		{ DRM_SWAI_JOB_ERR_DMA, sdaaErrorDmaFailure, 1 },
		{ DRM_SWAI_JOB_ERR_ALIGN, sdaaErrorMisalignedAddress, 1 },
		{ DRM_SWAI_JOB_ERR_FOREIGN, sdaaErrorForeignLocalAccess, 1 },
		{ DRM_SWAI_JOB_ERR_TIMEOUT, sdaaErrorLaunchTimeout, 1 },
		{ DRM_SWAI_JOB_ERR_CANCELED, sdaaErrorLaunchFailure, 1 },
		{ 77, sdaaErrorLaunchFailure, 1 },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		CHECK_EQ(sdaa_job_error(map[i].code), map[i].err);
		CHECK_EQ(sdaa_error_is_sticky(map[i].err), map[i].sticky);
		/* A sticky error's string says the process must restart. */
		if (map[i].sticky)
			CHECK(strstr(sdaaGetErrorString(map[i].err), "restart"));
	}
	CHECK(strstr(sdaaGetErrorString(sdaaErrorForeignLocalAccess), "Global-HBM"));
	CHECK(strstr(sdaaGetErrorString(sdaaErrorIllegalAddress), "MMU fault"));
	CHECK(strstr(sdaaGetErrorString(sdaaErrorLaunchTimeout), "timeout"));
	CHECK(!sdaa_error_is_sticky(sdaaErrorNotReady));
	CHECK(!sdaa_error_is_sticky(sdaaErrorInvalidValue));
}

static void *sticky_thread(void *arg)
{
	int ok = 1;

	(void)arg;
	/* NotReady and Timeout are answers, never the last error. */
	sdaa_error(sdaaErrorNotReady);
	sdaa_error(sdaaErrorTimeout);
	ok &= sdaaPeekAtLastError() == sdaaSuccess;
	sdaa_error(sdaaErrorInvalidValue);
	ok &= sdaaGetLastError() == sdaaErrorInvalidValue;
	ok &= sdaaGetLastError() == sdaaSuccess;
	/* A sticky error stays, and later errors do not hide it. */
	sdaa_error(sdaaErrorIllegalInstruction);
	sdaa_error(sdaaErrorInvalidValue);
	ok &= sdaaGetLastError() == sdaaErrorIllegalInstruction;
	ok &= sdaaGetLastError() == sdaaErrorIllegalInstruction;
	ok &= sdaaPeekAtLastError() == sdaaErrorIllegalInstruction;
	return (void *)(long)ok;
}

static void test_sticky_last_error(void)
{
	pthread_t t;
	void *ok;

	/* In a thread of its own: the sticky error must not leak into others. */
	CHECK(pthread_create(&t, NULL, sticky_thread, NULL) == 0);
	CHECK(pthread_join(t, &ok) == 0);
	CHECK((long)ok == 1);
	CHECK(sdaaPeekAtLastError() != sdaaErrorIllegalInstruction);
}

static void test_model_rules(void)
{
	uint64_t h = 1000;

	/* A host wait moves H to the job's end plus the sync cost, never back. */
	CHECK_EQ(sdaa_model_after_wait(1000, 5000, 15000), 20000);
	CHECK_EQ(sdaa_model_after_wait(90000, 5000, 15000), 90000);
	CHECK_EQ(sdaa_model_after_wait(0, 0, 0), 0);
	sdaa_model_advance(&h, 5000, 15000);
	CHECK_EQ(h, 20000);
	sdaa_model_advance(&h, 1000, 15000);
	CHECK_EQ(h, 20000);
	/* An event is at the later of its record and its work's end. */
	CHECK_EQ(sdaa_model_event_time(7000, 0), 7000);
	CHECK_EQ(sdaa_model_event_time(7000, 9000), 9000);
	CHECK_EQ(sdaa_model_event_time(9000, 7000), 9000);
	CHECK(sdaa_model_elapsed_ms(1000000, 3500000) == 2.5f);
	CHECK(sdaa_model_elapsed_ms(3500000, 1000000) == -2.5f);
	CHECK(sdaa_model_elapsed_ms(5, 5) == 0.0f);
	/* 25 us of launch: exactly representable as float ms. */
	CHECK(sdaa_model_elapsed_ms(0, 25000) == 0.025f);
}

struct adv_arg {
	uint64_t *h;
	uint64_t base;
};

static void *advance_thread(void *p)
{
	struct adv_arg *a = p;

	for (uint64_t i = 0; i < 20000; i++)
		sdaa_model_advance(a->h, a->base + i, 10);
	return NULL;
}

/* Concurrent host waits: H ends at the largest end + sync. */
static void test_model_concurrent(void)
{
	uint64_t h = 0;
	struct adv_arg a[4];
	pthread_t t[4];

	for (int i = 0; i < 4; i++) {
		a[i] = (struct adv_arg){ &h, (uint64_t)i * 7 };
		CHECK(pthread_create(&t[i], NULL, advance_thread, &a[i]) == 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ(h, 3 * 7 + 19999 + 10);
}

static void test_chunks(void)
{
	uint64_t seed = 42;
	size_t off = 99;

	CHECK_EQ(sdaa_chunk(0, 4096, 0, &off), 0);
	CHECK_EQ(sdaa_chunk(10, 0, 0, &off), 0);
	CHECK_EQ(sdaa_chunk(1, 4096, 0, &off), 1);
	CHECK_EQ(off, 0);
	CHECK_EQ(sdaa_chunk(4096, 4096, 1, &off), 0);
	CHECK_EQ(sdaa_chunk(4097, 4096, 1, &off), 1);
	CHECK_EQ(off, 4096);
	/* Chunks tile the copy exactly, in order, none larger than the buffer. */
	for (int r = 0; r < 2000; r++) {
		size_t total = splitmix64(&seed) % (20 << 20);
		size_t chunk = 1 + splitmix64(&seed) % (5 << 20);
		size_t next = 0, len, i = 0;

		if (r < 8)
			total = (size_t)r * chunk;	/* exact multiples */
		while ((len = sdaa_chunk(total, chunk, i++, &off))) {
			CHECK_EQ(off, next);
			CHECK(len <= chunk);
			next += len;
		}
		CHECK_EQ(next, total);
		CHECK_EQ(i - 1, (total + chunk - 1) / chunk);
	}
}

/* The ring against a model: live entries never overlap, FIFO reclaim. */
static void test_progbuf(void)
{
	enum { SIZE = 4096, LIVE = 16 };
	struct sdaa_progbuf r;
	uint64_t seed = 7, job = 0, popped = 0;
	unsigned char owner[SIZE];
	size_t off;

	CHECK(sdaa_progbuf_init(&r, SIZE, LIVE) == 0);
	CHECK(sdaa_progbuf_alloc(&r, 0, &off) == -EINVAL);
	CHECK(sdaa_progbuf_alloc(&r, SIZE + 1, &off) == -EINVAL);
	CHECK(sdaa_progbuf_oldest(&r) == 0);
	memset(owner, 0, sizeof(owner));
	for (int i = 0; i < 20000; i++) {
		size_t len = 1 + splitmix64(&seed) % (i % 100 == 0 ? SIZE : 700);
		int ret;

		while ((ret = sdaa_progbuf_alloc(&r, len, &off)) == -EAGAIN) {
			uint64_t old = sdaa_progbuf_oldest(&r);

			CHECK_EQ(old, popped + 1);	/* oldest first */
			for (size_t b = 0; b < SIZE; b++)
				if (owner[b] == (unsigned char)old)
					owner[b] = 0;
			sdaa_progbuf_pop(&r);
			popped++;
		}
		CHECK(ret == 0);
		CHECK(off + len <= SIZE);
		for (size_t b = off; b < off + len; b++) {
			if (owner[b]) {
				CHECK(!owner[b]);
				break;
			}
			owner[b] = (unsigned char)(job + 1);
		}
		sdaa_progbuf_commit(&r, off, len, ++job);
		if (job % 255 == 0) {	/* keep owner tags unique per live entry */
			while (sdaa_progbuf_oldest(&r)) {
				for (size_t b = 0; b < SIZE; b++)
					if (owner[b] == (unsigned char)sdaa_progbuf_oldest(&r))
						owner[b] = 0;
				sdaa_progbuf_pop(&r);
				popped++;
			}
		}
	}
	/* Empty again: everything is free, allocation starts at 0. */
	while (sdaa_progbuf_oldest(&r))
		sdaa_progbuf_pop(&r);
	CHECK(sdaa_progbuf_alloc(&r, SIZE, &off) == 0 && off == 0);
	sdaa_progbuf_fini(&r);
}

static void test_fronts(void)
{
	struct sdaa_front a, b;
	struct drm_swai_sync out[SDAA_MAX_CG];
	uint64_t waited[SDAA_MAX_CG] = { 0 };
	uint32_t so[SDAA_MAX_CG] = { 11, 12, 13, 14, 15, 16, 17, 18 };
	int n;

	sdaa_front_init(&a);
	CHECK(sdaa_front_empty(&a));
	CHECK_EQ(sdaa_front_syncs(&a, 0, waited, so, out), 0);
	sdaa_front_set(&a, 2, 1, (struct sdaa_fence){ 5, 105 });
	CHECK(!sdaa_front_empty(&a));
	CHECK_EQ(a.card, 2);
	/* Merging keeps the newer job of each queue. */
	sdaa_front_set(&b, 2, 1, (struct sdaa_fence){ 3, 103 });
	b.q[3] = (struct sdaa_fence){ 9, 109 };
	sdaa_front_merge(&a, &b);
	CHECK_EQ(a.q[1].point, 5);
	CHECK_EQ(a.q[3].job, 109);
	sdaa_front_init(&b);
	sdaa_front_merge(&b, &a);
	CHECK_EQ(b.card, 2);
	CHECK_EQ(b.q[3].point, 9);
	/* A job on queue 1 needs a fence only for queue 3. */
	n = sdaa_front_syncs(&a, 1, waited, so, out);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].handle, 14);
	CHECK_EQ(out[0].point, 9);
	CHECK_EQ(out[0].flags, DRM_SWAI_SYNC_TIMELINE);
	/* On queue 0 it needs both; none for what the host waited for. */
	CHECK_EQ(sdaa_front_syncs(&a, 0, waited, so, out), 2);
	waited[3] = 9;
	waited[1] = 4;
	n = sdaa_front_syncs(&a, 0, waited, so, out);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].handle, 12);
	/* Setting collapses the front to one job. */
	sdaa_front_set(&a, 2, 0, (struct sdaa_fence){ 1, 200 });
	CHECK_EQ(a.q[3].point, 0);
	CHECK_EQ(sdaa_front_syncs(&a, 0, waited, so, out), 0);
}

static void test_handles(void)
{
	int x, y;
	uintptr_t h1 = sdaa_handle_new(SDAA_HANDLE_STREAM, &x);
	uintptr_t h2 = sdaa_handle_new(SDAA_HANDLE_EVENT, &y), h3;

	CHECK(h1 && h2 && h1 != h2);
	CHECK(h1 & 1);			/* never a real (aligned) pointer */
	CHECK(sdaa_handle_get(SDAA_HANDLE_STREAM, h1) == &x);
	CHECK(sdaa_handle_get(SDAA_HANDLE_EVENT, h2) == &y);
	/* A stream is not an event, and garbage is nothing. */
	CHECK(!sdaa_handle_get(SDAA_HANDLE_EVENT, h1));
	CHECK(!sdaa_handle_get(SDAA_HANDLE_STREAM, 0));
	CHECK(!sdaa_handle_get(SDAA_HANDLE_STREAM, (uintptr_t)&x));
	CHECK(!sdaa_handle_get(SDAA_HANDLE_STREAM, h1 + 16));
	CHECK(!sdaa_handle_get(SDAA_HANDLE_STREAM, ~(uintptr_t)0));
	CHECK(sdaa_handle_del(SDAA_HANDLE_STREAM, h1) == &x);
	/* Destroyed: gone, also after its slot is reused. */
	CHECK(!sdaa_handle_get(SDAA_HANDLE_STREAM, h1));
	CHECK(!sdaa_handle_del(SDAA_HANDLE_STREAM, h1));
	h3 = sdaa_handle_new(SDAA_HANDLE_STREAM, &y);
	CHECK(h3 && h3 != h1);
	CHECK(!sdaa_handle_get(SDAA_HANDLE_STREAM, h1));
	CHECK(sdaa_handle_get(SDAA_HANDLE_STREAM, h3) == &y);
	CHECK(sdaa_handle_del(SDAA_HANDLE_STREAM, h3) == &y);
	CHECK(sdaa_handle_del(SDAA_HANDLE_EVENT, h2) == &y);
	/* Many live at once. */
	{
		static uintptr_t hs[3000];

		for (int i = 0; i < 3000; i++)
			hs[i] = sdaa_handle_new(SDAA_HANDLE_EVENT, &hs[i]);
		for (int i = 0; i < 3000; i++)
			CHECK(sdaa_handle_get(SDAA_HANDLE_EVENT, hs[i]) == &hs[i]);
		for (int i = 0; i < 3000; i++)
			CHECK(sdaa_handle_del(SDAA_HANDLE_EVENT, hs[i]) == &hs[i]);
	}
}

/* Run a memset program on @mem (device addresses from @base) as the card would. */
static int run_program(const struct swai_insn *p, size_t n, unsigned char *mem,
		       uint64_t base, size_t size)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i].op == SWAI_OP_SIGNAL) {
			if (p[i].flags != SWAI_SIGNAL_SET || p[i].dst % 8 || p[i].len ||
			    p[i].rows || p[i].dst < base || p[i].dst + 8 > base + size)
				return 0;
			memcpy(mem + (p[i].dst - base), &p[i].src, 8);
		} else if (p[i].op == SWAI_OP_COPY) {
			if (p[i].rows != 1 || p[i].dst_stride || p[i].src_stride || p[i].flags ||
			    p[i].dst < base || p[i].src < base ||
			    p[i].dst + p[i].len > base + size || p[i].src + p[i].len > base + size)
				return 0;
			/* The card's COPY need not handle overlap: insist on none. */
			if (p[i].dst < p[i].src + p[i].len && p[i].src < p[i].dst + p[i].len)
				return 0;
			memcpy(mem + (p[i].dst - base), mem + (p[i].src - base), p[i].len);
		} else {
			return 0;
		}
	}
	return 1;
}

static void test_memset_program(void)
{
	enum { SCRATCH = 0, DST = 64, MAXN = 20000 };
	static unsigned char mem[DST + MAXN + 64 + 16];
	struct swai_insn prog[66];
	uint64_t base = 0x40000000;

	for (size_t n = 0; n <= MAXN; n += n < 300 ? 1 : 997) {
		for (unsigned int mis = 0; mis < 8; mis += 3) {
			unsigned char v = (unsigned char)(n * 7 + mis + 1);
			size_t k, bad = 0;

			memset(mem, 0xee, sizeof(mem));
			k = sdaa_memset_program(prog, base + DST + mis, base + SCRATCH, v, n);
			CHECK(k <= 66);
			CHECK(n || k == 0);
			CHECK(run_program(prog, k, mem, base, sizeof(mem)));
			for (size_t b = 0; b < n; b++)
				bad += mem[DST + mis + b] != v;
			/* Nothing outside the range (and the scratch word) changed. */
			for (size_t b = 8; b < DST + mis; b++)
				bad += mem[b] != 0xee;
			for (size_t b = DST + mis + n; b < sizeof(mem); b++)
				bad += mem[b] != 0xee;
			CHECK_EQ(bad, 0);
		}
	}
	/* Huge ranges stay within the instruction budget. */
	CHECK(sdaa_memset_program(prog, base, base - 64, 1, 1ULL << 40) <= 66);
	CHECK(sdaa_memset_program(prog, base, base - 64, 1, ~0ULL - base) <= 66);
}

/* Without a card: stream, event and copy calls fail cleanly and distinctly. */
static void test_no_driver_streams(void)
{
	sdaaStream_t s = (sdaaStream_t)1;
	sdaaEvent_t e = (sdaaEvent_t)1;
	char a[16], b[16];
	float ms = -1;

	CHECK(sdaaStreamCreate(NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaStreamCreateWithFlags(&s, 0x80) == sdaaErrorInvalidValue);
	CHECK(sdaaEventCreate(NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaEventCreateWithFlags(&e, 0x80) == sdaaErrorInvalidValue);
	CHECK(sdaaEventElapsedTime(NULL, e, e) == sdaaErrorInvalidValue);
	/* Handles that were never created are invalid, card or not. */
	CHECK(sdaaStreamDestroy(NULL) == sdaaErrorInvalidResourceHandle);
	CHECK(sdaaStreamDestroy((sdaaStream_t)0x1234) == sdaaErrorInvalidResourceHandle);
	CHECK(sdaaEventDestroy((sdaaEvent_t)0x5) == sdaaErrorInvalidResourceHandle);
	CHECK(sdaaEventElapsedTime(&ms, (sdaaEvent_t)8, (sdaaEvent_t)8) ==
	      sdaaErrorInvalidResourceHandle);
	CHECK(sdaaEventQuery((sdaaEvent_t)3) == sdaaErrorInvalidResourceHandle);
	CHECK(sdaaStreamQuery((sdaaStream_t)3) == sdaaErrorInvalidResourceHandle);
	CHECK(sdaaStreamWaitEvent(NULL, (sdaaEvent_t)3, 1) == sdaaErrorInvalidValue);
	CHECK(sdaaLaunchProgram(NULL, 1, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaMemcpy(NULL, a, 4, sdaaMemcpyDefault) == sdaaErrorInvalidValue);
	CHECK(sdaaMemset(NULL, 0, 4) == sdaaErrorInvalidValue);
	/* Zero bytes is nothing to do. */
	CHECK(sdaaMemcpy(a, b, 0, sdaaMemcpyHostToHost) == sdaaSuccess);
	/* Pageable memory is host memory: not a device-to-device copy. */
	CHECK(sdaaMemcpy(a, b, 4, sdaaMemcpyDeviceToDevice) == sdaaErrorInvalidMemcpyDirection);
	CHECK(sdaaMemcpy(a, b, 4, (enum sdaaMemcpyKind)9) == sdaaErrorInvalidMemcpyDirection);
	CHECK(sdaaMemset(a, 0, 4) == sdaaErrorInvalidValue);
	if (access("/sys/module/swai", F_OK)) {
		CHECK(sdaaStreamCreate(&s) == sdaaErrorDriverNotLoaded && !s);
		CHECK(sdaaEventCreate(&e) == sdaaErrorDriverNotLoaded && !e);
		CHECK(sdaaStreamSynchronize(NULL) == sdaaErrorDriverNotLoaded);
		CHECK(sdaaDeviceSynchronize() == sdaaErrorDriverNotLoaded);
		CHECK(sdaaMemcpy(a, b, 4, sdaaMemcpyHostToHost) == sdaaErrorDriverNotLoaded);
		{
			struct sdaaTimingParams tp;

			CHECK(sdaaDeviceGetTimingParams(&tp, 0) == sdaaErrorDriverNotLoaded);
		}
	}
	CHECK(sdaaDeviceGetTimingParams(NULL, 0) == sdaaErrorInvalidValue);
	/* NotReady never became the last error; the last one is still there. */
	CHECK(sdaaGetLastError() != sdaaSuccess);
	CHECK(sdaaGetLastError() == sdaaSuccess);
}

/* The compute kernels refuse bad arguments before they look for a card. */
static void test_kernel_arguments(void)
{
	float buf[64] = { 0 }, g[8] = { 0 }, b[8] = { 0 };
	struct sdaaKernelLimits lim;
	const sdaaOperation_t N = SDAA_OP_N;

	CHECK(sdaaGemm(N, N, 0, 4, 4, 1, buf, 4, buf + 16, 4, 0, buf + 32, 4, SDAA_R_32F,
		       SDAA_EPILOGUE_DEFAULT, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGemm(N, N, 4, 4, 4, 1, buf, 3, buf + 16, 4, 0, buf + 32, 4, SDAA_R_32F,
		       SDAA_EPILOGUE_DEFAULT, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGemm(SDAA_OP_T, N, 4, 4, 2, 1, buf, 3, buf + 16, 4, 0, buf + 32, 4,
		       SDAA_R_32F, SDAA_EPILOGUE_DEFAULT, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGemm(N, (sdaaOperation_t)2, 4, 4, 4, 1, buf, 4, buf + 16, 4, 0, buf + 32, 4,
		       SDAA_R_32F, SDAA_EPILOGUE_DEFAULT, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGemm(N, N, 4, 4, 4, 1, buf, 4, buf + 16, 4, 0, buf + 32, 4, (sdaaDataType_t)1,
		       SDAA_EPILOGUE_DEFAULT, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGemm(N, N, 4, 4, 4, 1, buf, 4, buf + 16, 4, 0, buf + 32, 4, SDAA_R_32F,
		       (sdaaEpilogue_t)7, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaGemm(N, N, 4, 4, 4, 1, buf, 4, buf + 16, 4, 0, buf + 10, 4, SDAA_R_32F,
		       SDAA_EPILOGUE_DEFAULT, NULL) == sdaaErrorInvalidValue);	/* C over B */
	CHECK(sdaaGemm(N, N, 4, 4, 4, 1, NULL, 4, buf + 16, 4, 0, buf + 32, 4, SDAA_R_32F,
		       SDAA_EPILOGUE_DEFAULT, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaLayerNorm(buf, buf, g, b, 0, 8, 1e-5f, SDAA_R_32F, NULL) ==
	      sdaaErrorInvalidValue);
	CHECK(sdaaLayerNorm(buf, buf, g, b, 2, 8, -1.0f, SDAA_R_32F, NULL) ==
	      sdaaErrorInvalidValue);
	CHECK(sdaaLayerNorm(buf, buf, g, b, 2, 8, NAN, SDAA_R_32F, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaLayerNorm(buf + 1, buf, g, b, 2, 8, 0, SDAA_R_32F, NULL) ==
	      sdaaErrorInvalidValue);
	CHECK(sdaaLayerNorm(buf, buf, NULL, b, 2, 8, 0, SDAA_R_32F, NULL) ==
	      sdaaErrorInvalidValue);
	CHECK(sdaaDropout(buf, buf, 8, 0.0f, 1, 0, SDAA_R_32F, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaDropout(buf, buf, 8, 1.01f, 1, 0, SDAA_R_32F, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaDropout(buf, buf, 8, NAN, 1, 0, SDAA_R_32F, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaDropout(buf, buf, 0, 0.5f, 1, 0, SDAA_R_32F, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaDropout(buf + 1, buf, 8, 0.5f, 1, 0, SDAA_R_16BF, NULL) ==
	      sdaaErrorInvalidValue);
	CHECK(sdaaConvert(buf, SDAA_R_16BF, buf, SDAA_R_32F, 8, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaConvert(buf, (sdaaDataType_t)3, buf + 16, SDAA_R_32F, 8, NULL) ==
	      sdaaErrorInvalidValue);
	CHECK(sdaaConvert(NULL, SDAA_R_16BF, buf, SDAA_R_32F, 8, NULL) == sdaaErrorInvalidValue);
	CHECK(sdaaDeviceGetKernelLimits(NULL, 0) == sdaaErrorInvalidValue);
	CHECK(sdaaDeviceGetKernelLimits(&lim, 0) != sdaaSuccess);	/* no card here */
	sdaaGetLastError();
}

static const struct tap_test tests[] = {
	{ "error names and strings are distinct and helpful", test_error_strings },
	{ "last error: per thread, Peek keeps, Get resets", test_last_error },
	{ "SDAA_VISIBLE_DEVICES parsing", test_visible_devices },
	{ "SDAA_LOG_LEVEL parsing", test_log_level },
	{ "NULL arguments are sdaaErrorInvalidValue", test_null_arguments },
	{ "runtime version", test_versions },
	{ "no swai module: sdaaErrorDriverNotLoaded", test_no_driver },
	{ "job errors: named, sticky except reset, strings say restart", test_job_errors },
	{ "last error: sticky stays, NotReady/Timeout never recorded", test_sticky_last_error },
	{ "modeled host clock and event time rules", test_model_rules },
	{ "modeled host clock under concurrent waits", test_model_concurrent },
	{ "staging chunks tile every copy", test_chunks },
	{ "program buffer: no overlap, oldest reclaimed first", test_progbuf },
	{ "SDAA_LOG_SUBSYS parsing", test_log_subsys },
	{ "fronts: merge, collapse, in-fences only for other queues", test_fronts },
	{ "stream/event handles: kinds, destroyed, reused slots", test_handles },
	{ "memset programs set exactly the range", test_memset_program },
	{ "streams/events/copies without a card", test_no_driver_streams },
	{ "compute kernels: argument errors", test_kernel_arguments },
};

TAP_MAIN(tests)
