/* SPDX-License-Identifier: MIT */
/*
 * swccl-bench-try.h - how swccl-bench's parts call what must work: a
 * runtime or library call that fails stops the benchmark, saying which
 * call and why (CCL: with the communicator's last error).
 */
#ifndef SWCCL_BENCH_TRY_H
#define SWCCL_BENCH_TRY_H

#include <stdio.h>
#include <stdlib.h>

#include "sdaa_runtime.h"
#include "swccl.h"

#define TRY(call) do {							\
	sdaaError_t e_ = (call);					\
	if (e_ != sdaaSuccess) {					\
		fprintf(stderr, "swccl-bench: %s: %s (%s)\n", #call,	\
			sdaaGetErrorName(e_), sdaaGetErrorString(e_));	\
		exit(1);						\
	}								\
} while (0)

#define CCL(b, call) do {						\
	swcclResult_t r_ = (call);					\
	if (r_ != swcclSuccess) {					\
		fprintf(stderr, "swccl-bench: %s: %s: %s\n", #call,	\
			swcclGetErrorString(r_),			\
			swcclGetLastError((b)->comm[0]));		\
		exit(1);						\
	}								\
} while (0)

#endif /* SWCCL_BENCH_TRY_H */
