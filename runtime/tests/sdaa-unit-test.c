// SPDX-License-Identifier: MIT
/*
 * sdaa-unit-test - host unit tests of libsdaa's device layer, no card
 * needed: error names and strings, last-error semantics, SDAA_VISIBLE_DEVICES
 * and SDAA_LOG_LEVEL parsing, argument checks, and the error a host without
 * the swai module gets.  Prints TAP.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include <unistd.h>

#include "sdaa_internal.h"


static const sdaaError_t all_errors[] = {
	sdaaSuccess, sdaaErrorInvalidValue, sdaaErrorMemoryAllocation,
	sdaaErrorInitializationError, sdaaErrorDriverNotLoaded,
	sdaaErrorInsufficientDriver, sdaaErrorNoPermission, sdaaErrorNoDevice,
	sdaaErrorInvalidDevice, sdaaErrorDeviceUnavailable, sdaaErrorUnknown,
	sdaaErrorInvalidDevicePointer, sdaaErrorCrossMemoryAllocation,
	sdaaErrorWrongMemoryTier, sdaaErrorHostMemoryAllocation,
	sdaaErrorMemlockLimit, sdaaErrorInvalidHostPointer,
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

static const struct tap_test tests[] = {
	{ "error names and strings are distinct and helpful", test_error_strings },
	{ "last error: per thread, Peek keeps, Get resets", test_last_error },
	{ "SDAA_VISIBLE_DEVICES parsing", test_visible_devices },
	{ "SDAA_LOG_LEVEL parsing", test_log_level },
	{ "NULL arguments are sdaaErrorInvalidValue", test_null_arguments },
	{ "runtime version", test_versions },
	{ "no swai module: sdaaErrorDriverNotLoaded", test_no_driver },
};

TAP_MAIN(tests)
