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

/*
 * Eqs. (9)-(11), the fused AllGather's data movement before (T1: LayerNorm
 * writes V to Local, CSC-AG writes V to Global and reads 3V, the GEMM loads
 * 4V from Local, 3 launches) and after fusion (T2: V to Global, 3V read
 * from Global by the GEMM, V from Local, 2 launches), and the gain p.
 * V = bytes per core group (the paper's V_AG: a quarter of the AllGather's
 * data), bandwidths in MB/s, times in us.  swccl-bench evaluates the same
 * forms for the fused ReduceScatter with V = its bytes / 4.
 */
struct bench_fusion_eq {
	double t1_us, t2_us, p;
};
struct bench_fusion_eq bench_eq9_11(double v_bytes, double local_mbps, double ring_mbps,
				    double launch_us);

/* The paper's Table 3 (AG) / Table 4 (RS) row at @bytes (2048 .. 32768 KiB). */
struct bench_paper_overlap {
	double comm_us, gain_us, pct;
};
/* 0 and *row if the paper has @bytes, else -1. */
int bench_paper_overlap(int rs, size_t bytes, struct bench_paper_overlap *row);

/*
 * The workload of swccl-bench fused-ag / fused-rs at a size of @bytes:
 * AG: the gathered activations (tokens x hidden of @esize), RS: the f32
 * partial sums (tokens x hidden) each rank reduces; tokens = rows x nranks
 * (rows per rank >= 1).  @n: the GEMM's other dimension (AG: ffn columns
 * of the rank, RS: its k).  Returns the bytes the shape really has.
 */
struct bench_fused_shape {
	size_t rows, tokens, hidden, n;
};
size_t bench_fused_shape(int rs, size_t bytes, size_t esize, size_t hidden, size_t n, int nranks,
			 struct bench_fused_shape *s);

#endif /* SWCCL_BENCH_MODEL_H */
