/* SPDX-License-Identifier: MIT */
/*
 * swccl-bench-report.h - swccl-bench's rows: the table, JSON lines, the
 * gnuplot script of Figs. 13-15.
 */
#ifndef SWCCL_BENCH_REPORT_H
#define SWCCL_BENCH_REPORT_H

#include <stdio.h>

#include "swccl-bench-data.h"

/* One measurement: a collective at one size with one algorithm. */
struct bench_row {
	enum bench_coll coll;
	swcclDataType_t type;
	swcclRedOp_t op;
	swcclAlgo_t algo;
	swcclAlgo_t chosen;	/* what ran: algo, or AUTO's choice */
	int nranks, cards;	/* cards: 1 for a comm of one card's core groups */
	int nodes;		/* nodes of a cluster (swai-cluster); 1 */
	size_t bytes, count;
	double time_us;		/* modeled: max over ranks from a common start */
	double wall_us;		/* emulator time between the same events */
	double algbw, busbw;	/* GB/s of modeled time */
	long wrong;		/* elements not bitwise as expected; -1: not checked */
	double speedup;		/* RING's time / ours at this size; 0: no RING row */
	double util;		/* transfer_us / time_us (Fig. 13) */
	double transfer_us, predicted_us;
	int launches, host_syncs;
	double paper_gbps;	/* eq. (3) for RING, eq. (4) for CSC; 0: none */
	/* messages and bytes between nodes, all ranks (swcclCallInfo; seed 002) */
	unsigned long long internode_msgs, internode_bytes;
};

void bench_table_header(FILE *f);
void bench_table_row(FILE *f, const struct bench_row *r);
void bench_json_row(FILE *f, const struct bench_row *r);

/*
 * A self-contained gnuplot script (data inline) drawing @rows of one
 * collective into @png: algbw against size per algorithm with the paper's
 * model dashed (Figs. 14, 15) and the bandwidth utilisation (Fig. 13).
 */
void bench_plot_script(FILE *f, const char *png, const struct bench_row *rows, int n);

/*
 * One size of swccl-bench fused-ag / fused-rs.  Stages of the unfused
 * sequence, each timed on its own: AG: LayerNorm, CSC AllGather, GEMM;
 * RS: GEMM, CSC ReduceScatter, Dropout.  comm = the CSC collective's time
 * (the paper's "communication time"), gain = unfused - fused (its
 * "overlap gain"), pct = gain / comm (as Tables 3 and 4: 19 / 32 = 59 %).
 */
struct bench_fused_row {
	int rs, nranks;
	swcclDataType_t type;
	size_t bytes, rows, hidden, n;
	double stage_us[3];	/* modeled: before, the collective, after */
	double unfused_us;	/* the unfused library call (SWCCL fusion off) */
	double fused_us;
	double comm_us, gain_us, pct;
	double wall_unfused_us, wall_fused_us;
	double predicted_unfused_us, predicted_fused_us;	/* libswccl's cost model */
	long wrong;		/* elements where fused != unfused (bitwise); -1: not checked */
	int have_paper;
	double paper_comm_us, paper_gain_us, paper_pct;
	double t1_us, t2_us, p;	/* eqs. (9)-(11) */
};

/* Fill comm/gain/pct from the stages and the totals. */
void bench_fused_derive(struct bench_fused_row *r);
void bench_fused_header(FILE *f, int rs);
void bench_fused_table_row(FILE *f, const struct bench_fused_row *r);
void bench_fused_json_row(FILE *f, const struct bench_fused_row *r);

#endif /* SWCCL_BENCH_REPORT_H */
