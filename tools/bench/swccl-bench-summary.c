// SPDX-License-Identifier: MIT
/*
 * swccl-bench-summary.c - the paper's figures from swccl-bench's runs:
 *   - Ring-AG and CSC-AG at 8 MB against eqs. (3) and (4): 41.0 and 69.6
 *     GB/s.  The paper's 8 MB is 8e6 B: eq. (3) is exactly 41.0 with it
 *     (42.4 with 8 MiB), eq. (4) 69.6 (71.1 with 8 MiB).
 *   - CSC over Ring at the paper's "4 096 KB" for AG (2.15x) and "32 768 KB"
 *     for RS (1.2x), read as KiB, and our CSC1 beside them.
 *   - convergence at the largest size, where eqs. (7) and (8) coincide;
 *   - the bandwidth utilisation (Fig. 13) at the smallest and largest size.
 * Sizes the sweep did not cover are measured here (not checked, not rows).
 */
#include <math.h>
#include <stdio.h>

#include "swccl-bench.h"

#define PAPER_RING_AG_8MB 41.0
#define PAPER_CSC_AG_8MB 69.6
#define PAPER_AG_RATIO_4MB 2.15
#define PAPER_RS_RATIO_32MB 1.2

static int has_algo(const struct bench *b, swcclAlgo_t a)
{
	for (int i = 0; i < b->o.nalgos; i++)
		if (b->o.algos[i] == a)
			return 1;
	return 0;
}

/* The row of @algo at @bytes: from the sweep, else measured now; NULL if not run. */
static const struct bench_row *get(struct bench *b, size_t bytes, swcclAlgo_t a,
				   struct bench_row *tmp)
{
	size_t count, param;
	size_t real = bench_counts(b->o.coll, bytes, bench_type_size(b->o.type), b->o.nranks,
				   &count, &param);

	if (!has_algo(b, a) || bytes > b->cap)
		return NULL;
	for (int i = 0; i < b->nrows; i++)
		if (b->rows[i].bytes == real && b->rows[i].algo == a)
			return &b->rows[i];
	*tmp = bench_measure(b, bytes, a, 0);
	return tmp;
}

static void model_line(struct bench *b, swcclAlgo_t a, double paper, int eq)
{
	struct bench_row tmp;
	const struct bench_row *r = get(b, 8000000, a, &tmp);
	double eqv;

	if (!r)
		return;
	eqv = eq == 3 ? bench_eq3(&b->paper, (double)r->bytes, b->o.nranks) :
		bench_eq4(&b->paper, (double)r->bytes, b->o.nranks);
	if (b->o.json) {
		printf("{\"kind\":\"paper_model\",\"coll\":\"%s\",\"algo\":\"%s\",\"bytes\":%zu,"
		       "\"time_us\":%.3f,\"algbw\":%.4f,\"eq\":%d,\"eq_gbps\":%.4f,",
		       bench_coll_name(b->o.coll), bench_algo_name(a), r->bytes, r->time_us,
		       r->algbw, eq, eqv);
		if (paper > 0)
			printf("\"paper_gbps\":%.1f,\"deviation_pct\":%.3f}\n", paper,
			       100 * (r->algbw / paper - 1));
		else
			printf("\"paper_gbps\":null,\"deviation_pct\":null}\n");
		return;
	}
	printf("#   %-4s at %zu B: %7.1f us = %6.2f GB/s; eq. (%d) %6.2f GB/s", bench_algo_name(a),
	       r->bytes, r->time_us, r->algbw, eq, eqv);
	if (paper > 0)
		printf("; paper %.1f GB/s, deviation %+.1f%%", paper, 100 * (r->algbw / paper - 1));
	printf("\n");
}

static void ratio_line(struct bench *b, size_t bytes, swcclAlgo_t a, double paper)
{
	struct bench_row t1, t2;
	const struct bench_row *ring = get(b, bytes, swcclAlgoRing, &t1);
	const struct bench_row *r = get(b, bytes, a, &t2);

	if (!ring || !r)
		return;
	if (b->o.json) {
		printf("{\"kind\":\"paper_ratio\",\"coll\":\"%s\",\"bytes\":%zu,\"algo\":\"%s\","
		       "\"over\":\"RING\",\"ratio\":%.4f,", bench_coll_name(b->o.coll), r->bytes,
		       bench_algo_name(a), ring->time_us / r->time_us);
		if (paper > 0)
			printf("\"paper\":%.2f}\n", paper);
		else
			printf("\"paper\":null}\n");
		return;
	}
	printf("#   %4s / RING at %zu B (%zu KiB): %.2fx", bench_algo_name(a), r->bytes,
	       r->bytes >> 10, ring->time_us / r->time_us);
	if (paper > 0)
		printf("  (paper %.2fx)", paper);
	printf("\n");
}

/* CSC against Ring at the sweep's smallest and largest size, and eqs. (7)/(8). */
static void convergence(struct bench *b)
{
	const struct bench_row *lo[swcclNumAlgos] = { 0 }, *hi[swcclNumAlgos] = { 0 };
	double v;

	for (int i = 0; i < b->nrows; i++) {
		const struct bench_row *r = &b->rows[i];

		if (!lo[r->algo] || r->bytes < lo[r->algo]->bytes)
			lo[r->algo] = r;
		if (!hi[r->algo] || r->bytes > hi[r->algo]->bytes)
			hi[r->algo] = r;
	}
	if (!lo[swcclAlgoRing] || !lo[swcclAlgoCsc])
		return;
	v = (double)hi[swcclAlgoCsc]->bytes;
	if (b->o.json) {
		printf("{\"kind\":\"convergence\",\"coll\":\"%s\",\"small_bytes\":%zu,"
		       "\"small_ratio\":%.4f,\"bytes\":%zu,\"ratio\":%.4f,\"eq34_ratio\":%.4f,"
		       "\"eq78_gbps\":%.4f,\"ring_util\":%.4f,\"csc_util\":%.4f,"
		       "\"ring_util_small\":%.4f,\"csc_util_small\":%.4f}\n",
		       bench_coll_name(b->o.coll), lo[swcclAlgoCsc]->bytes,
		       lo[swcclAlgoRing]->time_us / lo[swcclAlgoCsc]->time_us,
		       hi[swcclAlgoCsc]->bytes,
		       hi[swcclAlgoRing]->time_us / hi[swcclAlgoCsc]->time_us,
		       bench_eq4(&b->paper, v, b->o.nranks) / bench_eq3(&b->paper, v, b->o.nranks),
		       bench_eq78(&b->paper, v, b->o.nranks), hi[swcclAlgoRing]->util,
		       hi[swcclAlgoCsc]->util, lo[swcclAlgoRing]->util, lo[swcclAlgoCsc]->util);
		return;
	}
	printf("#   convergence: CSC / RING %.2fx at %zu B -> %.2fx at %zu B "
	       "(eq. (4)/(3) there: %.2fx; eqs. (7) = (8): %.1f GB/s,\n"
	       "#     the limit %.1f GB/s as V grows)\n",
	       lo[swcclAlgoRing]->time_us / lo[swcclAlgoCsc]->time_us, lo[swcclAlgoCsc]->bytes,
	       hi[swcclAlgoRing]->time_us / hi[swcclAlgoCsc]->time_us, hi[swcclAlgoCsc]->bytes,
	       bench_eq4(&b->paper, v, b->o.nranks) / bench_eq3(&b->paper, v, b->o.nranks),
	       bench_eq78(&b->paper, v, b->o.nranks),
	       b->paper.bw_gbps * b->o.nranks / (b->o.nranks - 1));
	printf("#   utilisation (Fig. 13): RING %.0f%% -> %.0f%%, CSC %.0f%% -> %.0f%%",
	       100 * lo[swcclAlgoRing]->util, 100 * hi[swcclAlgoRing]->util,
	       100 * lo[swcclAlgoCsc]->util, 100 * hi[swcclAlgoCsc]->util);
	if (lo[swcclAlgoCsc1])
		printf(", CSC1 %.0f%% -> %.0f%%", 100 * lo[swcclAlgoCsc1]->util,
		       100 * hi[swcclAlgoCsc1]->util);
	printf("\n");
}

void bench_summary(struct bench *b)
{
	int ag = b->o.coll == COLL_AG;
	size_t rbytes = ag ? 4 << 20 : 32 << 20;

	if (!b->o.json)
		printf("#\n# The paper's figures (%s, modeled time; 8 MB = 8e6 B: eq. (3) gives "
		       "%.2f GB/s with 8e6 B, %.2f with 8 MiB)\n", bench_coll_name(b->o.coll),
		       bench_eq3(&b->paper, 8e6, b->o.nranks),
		       bench_eq3(&b->paper, 8388608.0, b->o.nranks));
	model_line(b, swcclAlgoRing, ag ? PAPER_RING_AG_8MB : 0, 3);
	model_line(b, swcclAlgoCsc, ag ? PAPER_CSC_AG_8MB : 0, 4);
	model_line(b, swcclAlgoCsc1, 0, 4);
	ratio_line(b, rbytes, swcclAlgoCsc, ag ? PAPER_AG_RATIO_4MB : PAPER_RS_RATIO_32MB);
	ratio_line(b, rbytes, swcclAlgoCsc1, 0);
	convergence(b);
	fflush(stdout);
}
