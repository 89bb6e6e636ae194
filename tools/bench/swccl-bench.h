/* SPDX-License-Identifier: MIT */
/*
 * swccl-bench.h - the parts of swccl-bench: the card side (swccl-bench-run.c:
 * communicator, buffers, timed runs, checks) and the paper's summary
 * (swccl-bench-summary.c).
 */
#ifndef SWCCL_BENCH_H
#define SWCCL_BENCH_H

#include <stdbool.h>

#include "swccl-bench-model.h"
#include "swccl-bench-report.h"

#define BENCH_MAX_RANKS 32

struct bench_opts {
	enum bench_coll coll;
	size_t minb, maxb;
	int factor, iters, warmup, check, root, nranks, json, global, summary;
	int host;		/* --place host: pinned host memory, out of place */
	int cards;		/* --cards N: ranks on cards 0..N-1 ... */
	int per_card;		/* ... with -g G core groups each (0: all a card has) */
	int all;		/* -a all: every algorithm of the comm's kind */
	unsigned int seed;	/* --seed: AllToAllv's counts drawn (bench_v_layout) */
	int parts;		/* --parts: sendrecv's Sends and Recvs a peer a group */
	swcclDataType_t type;
	swcclRedOp_t op;
	swcclAlgo_t algos[swcclNumAlgos];
	int nalgos;
	const char *plot;
};

struct bench {
	struct bench_opts o;
	int dev[BENCH_MAX_RANKS];
	swcclComm_t comm[BENCH_MAX_RANKS];
	sdaaStream_t s[BENCH_MAX_RANKS];
	sdaaEvent_t start, stop[BENCH_MAX_RANKS];
	sdaaEvent_t starts[BENCH_MAX_RANKS];	/* --cards: one per card */
	void *send[BENCH_MAX_RANKS], *recv[BENCH_MAX_RANKS];
	size_t cap;			/* largest size the buffers hold */
	char *img, *back, *want;	/* host images of one rank's buffer */
	char cardname[64];
	struct sdaaTimingParams tp;
	struct bench_paper paper;
	struct bench_row *rows;
	int nrows, maxrows, failed;
	/*
	 * Under a launcher (swccl-bench-launch.c): this process is one rank
	 * (base) of world ranks, one per card of nodes nodes; 0: all ranks
	 * are this process's.
	 */
	int world, base, nodes;
	double *xv;		/* pinned: the ranks' figures, combined (across()) */
};

/* swccl-bench-launch.c: under a launcher, one process per card of the node. */
bool bench_launched(void);
/* Fork the node's processes; in each, b is its rank's. 0, or -1. */
int bench_launch(struct bench *b);
/* The node's status: @status, or 1 if one of its other processes failed. */
int bench_launch_end(int status);

/* The ranks of the communicator (all processes'). */
int bench_world(const struct bench *b);

void bench_setup(struct bench *b);
void bench_teardown(struct bench *b);
void bench_banner(const struct bench *b);
/* One size with one algorithm: -w warmups, -n timed runs, then a check if @check. */
struct bench_row bench_measure(struct bench *b, size_t bytes, swcclAlgo_t algo, int check);
/*
 * Under a launcher: the job's figures from every process's (the latest
 * times, the sum of wrong elements), over the NICs; then @keep again.
 * Any pointer may be NULL; nothing without a launcher.
 */
void bench_across(struct bench *b, swcclAlgo_t keep, double *time_us, double *wall_us,
		  long *wrong);
void bench_add_row(struct bench *b, struct bench_row r);
/* Fill in speedup over the RING row among @rows of one size. */
void bench_speedups(struct bench_row *rows, int n);
void bench_summary(struct bench *b);
/* swccl-bench fused-ag | fused-rs (swccl-bench-fused.c) */
int bench_fused_main(int argc, char **argv);
/* swccl-bench overhead (swccl-bench-overhead.c): host cost of a small call. */
int bench_overhead_main(int argc, char **argv);
/* swccl-bench matrix (swccl-bench-matrix.c): seed 002's Z = (B x C) x D. */
int bench_matrix_main(int argc, char **argv);

#endif /* SWCCL_BENCH_H */
