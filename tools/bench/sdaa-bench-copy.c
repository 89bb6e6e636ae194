// SPDX-License-Identifier: MIT
/*
 * sdaa-bench-copy.c - timed copies and the memcpy baseline
 * (sdaa-bench-copy.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdaa-bench-copy.h"

static void try(const char *prog, const char *what, sdaaError_t e)
{
	if (e == sdaaSuccess)
		return;
	fprintf(stderr, "%s: %s: %s (%s)\n", prog, what, sdaaGetErrorName(e),
		sdaaGetErrorString(e));
	exit(1);
}

void sdaa_bench_time_copy(const char *prog, void *dst, const void *src, size_t n,
			  enum sdaaMemcpyKind kind, sdaaStream_t s, double *model_ms,
			  double *wall_ms)
{
	sdaaEvent_t a, b;
	float m, w;

	try(prog, "sdaaEventCreate", sdaaEventCreate(&a));
	try(prog, "sdaaEventCreate", sdaaEventCreate(&b));
	try(prog, "sdaaStreamSynchronize", sdaaStreamSynchronize(s));
	try(prog, "sdaaEventRecord", sdaaEventRecord(a, s));
	try(prog, "sdaaMemcpyAsync", sdaaMemcpyAsync(dst, src, n, kind, s));
	try(prog, "sdaaEventRecord", sdaaEventRecord(b, s));
	try(prog, "sdaaEventSynchronize", sdaaEventSynchronize(b));
	try(prog, "sdaaEventElapsedTime", sdaaEventElapsedTime(&m, a, b));
	try(prog, "sdaaEventElapsedTimeWall", sdaaEventElapsedTimeWall(&w, a, b));
	*model_ms = m;
	*wall_ms = w;
	try(prog, "sdaaEventDestroy", sdaaEventDestroy(a));
	try(prog, "sdaaEventDestroy", sdaaEventDestroy(b));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double sdaa_bench_memcpy_gbps(size_t n, int runs)
{
	char *a = malloc(n), *b = malloc(n);
	double best = 1e30;

	if (!a || !b) {
		fprintf(stderr, "out of host memory for a %zu-byte memcpy\n", n);
		exit(1);
	}
	memset(a, 1, n);
	memset(b, 2, n);
	for (int r = 0; r < runs; r++) {
		double t = now_s();

		memcpy(b, a, n);
		t = now_s() - t;
		if (t < best)
			best = t;
	}
	if (b[n - 1] != 1)
		exit(1);
	free(a);
	free(b);
	return (double)n / best / 1e9;
}
