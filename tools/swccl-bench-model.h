/* SPDX-License-Identifier: MIT */
/*
 * swccl-bench-model.h - nccl-tests' size and bandwidth conventions and the
 * SW-IntraCC paper's bandwidth models (eqs. (3), (4), (7), (8)), for
 * swccl-bench.
 */
#ifndef SWCCL_BENCH_MODEL_H
#define SWCCL_BENCH_MODEL_H

#include <stddef.h>

#include "swccl-bench-data.h"

/*
 * nccl-tests' counts for a size of @bytes: @count the elements the "size"
 * column stands for (AllGather: the gathered output, ReduceScatter: the
 * full input, both rounded down to a multiple of @nranks), @param the count
 * argument of the call (per-rank for AG/RS).  Returns the bytes actually
 * moved (count * esize).
 */
size_t bench_counts(enum bench_coll c, size_t bytes, size_t esize, int nranks, size_t *count,
		    size_t *param);
/* busbw / algbw: (n-1)/n for AG and RS, 2(n-1)/n for AllReduce, 1 otherwise. */
double bench_busbw_factor(enum bench_coll c, int nranks);
/* GB/s (1e9 bytes/s) of @bytes in @us microseconds. */
double bench_gbps(double bytes, double us);

/* The paper's parameters: ring GB/s per CG and t_LAUNCH, t_SYNC, t_OTHERS in us. */
struct bench_paper {
	double bw_gbps, launch_us, sync_us, others_us;
};
/* Eq. (3), Ring-AG, generalised to n ranks: n-1 steps of launch + sync + V/n + others. */
double bench_eq3(const struct bench_paper *p, double bytes, int nranks);
/* Eq. (4), CSC-AG: one launch and sync, n-1 reads of V/n. */
double bench_eq4(const struct bench_paper *p, double bytes, int nranks);
/* Eqs. (7) = (8): both at large V, launch and sync amortised. */
double bench_eq78(const struct bench_paper *p, double bytes, int nranks);

#endif /* SWCCL_BENCH_MODEL_H */
