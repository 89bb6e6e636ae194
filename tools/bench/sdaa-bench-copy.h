/* SPDX-License-Identifier: MIT */
/*
 * sdaa-bench-copy.h - what the copy benchmarks (sdaa-bandwidth, sdaa-p2p)
 * share: one copy timed by events, modeled and wall, and this machine's
 * memcpy, the baseline every wall figure is set against.
 */
#ifndef SDAA_BENCH_COPY_H
#define SDAA_BENCH_COPY_H

#include <stddef.h>

#include "sdaa_runtime.h"

/*
 * Modeled and wall ms of one sdaaMemcpyAsync on @s, timed by events after
 * the stream's earlier work; a failing call exits with @prog's message.
 */
void sdaa_bench_time_copy(const char *prog, void *dst, const void *src, size_t n,
			  enum sdaaMemcpyKind kind, sdaaStream_t s, double *model_ms,
			  double *wall_ms);
/* Best-of-@runs wall bandwidth of host memcpy of @n bytes, GB/s. */
double sdaa_bench_memcpy_gbps(size_t n, int runs);

#endif /* SDAA_BENCH_COPY_H */
