// SPDX-License-Identifier: MIT
/*
 * swccl-bench-test - host unit test of swccl-bench's pure parts: exact
 * inputs and references, f16/bf16 rounding, nccl-tests' counts and busbw,
 * the paper's models, and the rows as table, JSON and gnuplot script.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "swccl-bench-model.h"
#include "swccl-bench-report.h"
#include "swccl-mlp-model.h"

static void half_and_bfloat_round_to_nearest_even(void)
{
	CHECK_EQ(bench_f32_to_f16(1.0f), 0x3c00);
	CHECK_EQ(bench_f32_to_f16(-3.0f), 0xc200);
	CHECK_EQ(bench_f32_to_f16(0.0f), 0);
	CHECK_EQ(bench_f32_to_f16(2048.0f), 0x6800);
	CHECK_EQ(bench_f32_to_f16(2049.0f), 0x6800);	/* tie to even */
	CHECK_EQ(bench_f32_to_f16(2051.0f), 0x6802);	/* tie to even, up */
	CHECK_EQ(bench_f32_to_f16(65520.0f), 0x7c00);	/* rounds to inf */
	CHECK_EQ(bench_f32_to_f16(5.9604645e-8f), 0x0001);	/* smallest subnormal */
	CHECK_EQ(bench_f32_to_bf16(1.0f), 0x3f80);
	CHECK_EQ(bench_f32_to_bf16(-8.0f), 0xc100);
	CHECK_EQ(bench_f32_to_bf16(257.0f), 0x4380);	/* 256: tie to even */
	CHECK_EQ(bench_f32_to_bf16(259.0f), 0x4382);	/* 260 */
}

/* Every input and reference is an integer the type holds exactly. */
static void inputs_and_results_are_exact(void)
{
	static const swcclDataType_t ts[] = { swcclFloat32, swcclFloat16, swcclBfloat16,
		swcclFloat64, swcclInt32, swcclInt64, swcclUint8 };

	for (size_t t = 0; t < sizeof(ts) / sizeof(ts[0]); t++)
		for (int op = 0; op < swcclNumOps; op++)
			for (int n = 1; n <= 8; n++)
				for (int c = 0; c < NCOLL; c++)
					for (size_t j = 0; j < 300; j++) {
						double e = bench_expect((enum bench_coll)c, ts[t],
							(swcclRedOp_t)op, n, 0, j), s = 0;
						bool copy = c == COLL_AG || c == COLL_BC ||
							    c == COLL_A2A ||
							    bench_coll_apart((enum bench_coll)c);

						CHECK(e == floor(e));
						CHECK(fabs(e) <= (ts[t] == swcclFloat16 ? 2048 : 256) ||
						      copy);
						if (ts[t] == swcclUint8)
							CHECK(e >= 0 && e <= 255);
						if (op != swcclAvg || copy)
							continue;
						for (int r = 0; r < n; r++) {
							double v = bench_input((enum bench_coll)c, ts[t],
								swcclAvg, r, n, j);
							CHECK(ts[t] != swcclUint8 || v >= 0);
							s += v;
						}
						CHECK(fmod(s, n) == 0);
					}
}

static void copies_carry_the_global_index(void)
{
	int distinct = 0;

	for (size_t j = 1; j < 1000; j++)
		distinct += bench_input(COLL_AG, swcclFloat32, swcclSum, 0, 4, j) !=
			bench_input(COLL_AG, swcclFloat32, swcclSum, 0, 4, j - 1);
	CHECK(distinct > 990);
	CHECK(bench_expect(COLL_AG, swcclUint8, swcclSum, 4, 0, 77) ==
	      bench_input(COLL_AG, swcclUint8, swcclSum, 3, 4, 77));
}

static void names_parse_both_ways(void)
{
	swcclDataType_t t;
	swcclRedOp_t op;
	swcclAlgo_t a;
	enum bench_coll c;

	CHECK(!bench_type_parse("bf16", &t) && t == swcclBfloat16);
	CHECK(!bench_type_parse("half", &t) && t == swcclFloat16);
	CHECK(!bench_type_parse("uint8", &t) && t == swcclUint8 && bench_type_size(t) == 1);
	CHECK(bench_type_parse("int8", &t) == -1);
	CHECK(!bench_op_parse("avg", &op) && op == swcclAvg);
	CHECK(!bench_algo_parse("csc1", &a) && a == swcclAlgoCsc1);
	CHECK(!strcmp(bench_algo_name(swcclAlgoRing), "RING"));
	CHECK(!bench_coll_parse("reducescatter", &c) && c == COLL_RS);
	CHECK(bench_coll_parse("alltoall", &c) == 0 && c == COLL_A2A);
	CHECK(bench_coll_parse("alltoallv", &c) == 0 && c == COLL_A2AV);
	CHECK(bench_coll_parse("sendrecv", &c) == 0 && c == COLL_SR);
	CHECK(bench_coll_parse("alltoallw", &c) == -1);
}

static void nccl_tests_counts_and_busbw(void)
{
	size_t count, param;

	/* alltoall: nccl-tests' size is a rank's whole input, count per peer; busbw (n-1)/n */
	CHECK_EQ(bench_counts(COLL_A2A, 1000, 4, 8, &count, &param), 992);
	CHECK_EQ(count, 248);
	CHECK_EQ(param, 31);
	CHECK(bench_busbw_factor(COLL_A2A, 8) == 7.0 / 8);
	/* every (x, y) block: what y expects from x is x's input block y */
	for (int x = 0; x < 5; x++)
		for (int y = 0; y < 5; y++)
			for (size_t k = 0; k < 3; k++)
				CHECK(bench_a2a_expect(swcclInt32, 5, 3, y, (size_t)x * 3 + k) ==
				      bench_input(COLL_A2A, swcclInt32, swcclSum, x, 5,
						  (size_t)y * 3 + k));
	/*
	 * alltoallv: the two ends of every block agree, and the blocks fit the
	 * buffers; drawn counts (--seed) have empty blocks, and others
	 */
	for (unsigned int seed = 0; seed < 3; seed++) {
		int empty = 0, full = 0;

		for (int n = 1; n <= 8; n++)
			for (int x = 0; x < n; x++) {
				size_t sc[8], sd[8], rc[8], rd[8], yc[8], yd[8], yr[8], yrd[8];

				bench_v_layout(x, n, 100, seed, sc, sd, rc, rd);
				CHECK(sd[n - 1] + sc[n - 1] <= (size_t)n * 100);
				CHECK(rd[n - 1] + rc[n - 1] <= (size_t)n * 100);
				for (int y = 0; y < n; y++) {
					bench_v_layout(y, n, 100, seed, yc, yd, yr, yrd);
					CHECK(sc[y] == yr[x]);
					empty += !sc[y];
					full += sc[y] > 50;
				}
			}
		CHECK(!seed || (empty > 20 && full > 20));
	}
	/* and blocks of two sources differ, so a misplaced one is caught */
	CHECK(bench_input(COLL_A2A, swcclInt32, swcclSum, 0, 5, 7) !=
	      bench_input(COLL_A2A, swcclInt32, swcclSum, 1, 5, 7));
	CHECK_EQ(bench_counts(COLL_AG, 1 << 20, 4, 4, &count, &param), 1 << 20);
	CHECK_EQ(count, 262144);
	CHECK_EQ(param, 65536);
	/* 125 doubles on 3 ranks: 41 each, 123 in all. */
	CHECK_EQ(bench_counts(COLL_RS, 1000, 8, 3, &count, &param), 984);
	CHECK_EQ(param, 41);
	CHECK_EQ(bench_counts(COLL_AR, 1000, 8, 3, &count, &param), 1000);
	CHECK_EQ(param, 125);
	CHECK(bench_busbw_factor(COLL_AG, 4) == 0.75);
	CHECK(bench_busbw_factor(COLL_RS, 4) == 0.75);
	CHECK(bench_busbw_factor(COLL_AR, 4) == 1.5);
	CHECK(bench_busbw_factor(COLL_BC, 4) == 1.0);
	CHECK(bench_busbw_factor(COLL_RD, 4) == 1.0);
	CHECK(fabs(bench_gbps(8e6, 195) - 41.0256) < 1e-3);
}

/* The paper's numbers come out of its equations with 8 MB = 8e6 B. */
static void paper_models(void)
{
	struct bench_paper p = { 100, 25, 15, 5 };

	CHECK(fabs(bench_eq3(&p, 8e6, 4) - 41.03) < 0.01);
	CHECK(fabs(bench_eq4(&p, 8e6, 4) - 69.57) < 0.01);
	CHECK(fabs(bench_eq3(&p, 8388608, 4) - 42.39) < 0.01);
	/* Eqs. (7), (8): both tend to n/(n-1) x 100 GB/s. */
	CHECK(fabs(bench_eq78(&p, 1e12, 4) - 133.33) < 0.01);
	CHECK(bench_eq4(&p, 1e11, 4) / bench_eq3(&p, 1e11, 4) < 1.001);
}

static struct bench_row sample(swcclAlgo_t a)
{
	return (struct bench_row){ .coll = COLL_AG, .type = swcclFloat32, .op = swcclSum,
		.algo = a, .nranks = 4, .bytes = 8000000, .count = 2000000, .time_us = 195,
		.wall_us = 9000, .algbw = 41.0256, .busbw = 30.77, .wrong = 0, .speedup = 1,
		.util = 0.31, .transfer_us = 60, .launches = 12, .host_syncs = 3,
		.paper_gbps = a == swcclAlgoRing ? 41.0256 : 0 };
}

static char *capture(void (*fn)(FILE *, const struct bench_row *, int),
		     const struct bench_row *rows, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, rows, n);
	fclose(f);
	return buf;
}

static void table1(FILE *f, const struct bench_row *r, int n)
{
	(void)n;
	bench_table_row(f, r);
}

static void json1(FILE *f, const struct bench_row *r, int n)
{
	(void)n;
	bench_json_row(f, r);
}

static void plot(FILE *f, const struct bench_row *r, int n)
{
	bench_plot_script(f, "out.png", r, n);
}

static void rows_as_table_json_and_plot(void)
{
	struct bench_row rows[2] = { sample(swcclAlgoRing), sample(swcclAlgoCsc1) };
	char *s;

	rows[1].speedup = 4.5;
	rows[1].wrong = -1;
	s = capture(table1, &rows[1], 1);
	CHECK(strstr(s, " CSC1 ") && strstr(s, "4.50x") && strstr(s, "N/A"));
	CHECK(strchr(s, '\n') == s + strlen(s) - 1);
	free(s);
	s = capture(json1, &rows[0], 1);
	CHECK(!strncmp(s, "{\"kind\":\"row\",\"coll\":\"allgather\",", 33));
	CHECK(strstr(s, "\"algo\":\"RING\"") && strstr(s, "\"wrong\":0,") &&
	      strstr(s, "\"paper_gbps\":41.0256}\n"));
	CHECK(strchr(s, '\n') == s + strlen(s) - 1);
	free(s);
	s = capture(json1, &rows[1], 1);
	CHECK(strstr(s, "\"paper_gbps\":null}") && strstr(s, "\"wrong\":-1"));
	free(s);
	s = capture(plot, rows, 2);
	CHECK(strstr(s, "$RING << EOD\n7.629395 41.0256 31.000 41.0256\nEOD\n"));
	CHECK(strstr(s, "$CSC1 << EOD") && strstr(s, "set output 'out.png'"));
	CHECK(strstr(s, "paper eq. (3)") && !strstr(s, "paper eq. (4)"));
	free(s);
}

/* Eqs. (9)-(11): 8 MB AllGather, V = 2e6 B per core group, 100 GB/s, 25 us launches. */
static void fusion_equations(void)
{
	struct bench_fusion_eq e = bench_eq9_11(2e6, 100000, 100000, 25);

	/* T1 = 20 + 20 + 60 + 80 + 75, T2 = 20 + 60 + 20 + 50, p = 80 / 180 */
	CHECK(fabs(e.t1_us - 255) < 1e-9);
	CHECK(fabs(e.t2_us - 150) < 1e-9);
	CHECK(fabs(e.p - 4.0 / 9) < 1e-12);
	/* the paper's "about 50 %" at 8 MB: Local-HBM at 75 GB/s */
	e = bench_eq9_11(2e6, 75000, 100000, 25);
	CHECK(fabs(e.p - 0.5) < 1e-12);
	/* the launches are not in p */
	CHECK(bench_eq9_11(2e6, 100000, 100000, 0).p == bench_eq9_11(2e6, 100000, 100000, 99).p);
}

static void fused_tables_and_shapes(void)
{
	struct bench_paper_overlap o;
	struct bench_fused_shape sh;

	CHECK(!bench_paper_overlap(0, 2048 << 10, &o) && o.comm_us == 32 && o.gain_us == 19 &&
	      o.pct == 59);
	CHECK(!bench_paper_overlap(0, 32768u << 10, &o) && o.comm_us == 356 && o.gain_us == 181);
	CHECK(!bench_paper_overlap(1, 8192 << 10, &o) && o.comm_us == 184 && o.pct == 32);
	CHECK(bench_paper_overlap(1, 3 << 20, &o) == -1);
	CHECK(bench_paper_overlap(0, 2000000, &o) == -1);
	/* AG: 2 MiB of bf16 activations, hidden 1024, 4 ranks: 1024 tokens */
	CHECK_EQ(bench_fused_shape(0, 2 << 20, 2, 1024, 256, 4, &sh), 2 << 20);
	CHECK(sh.rows == 256 && sh.tokens == 1024 && sh.n == 256);
	/* RS: the f32 partial sums whatever the input type */
	CHECK_EQ(bench_fused_shape(1, 2 << 20, 2, 1024, 256, 4, &sh), 2 << 20);
	CHECK(sh.rows == 128 && sh.tokens == 512);
	/* odd: rounded down to whole rows per rank, at least one */
	CHECK_EQ(bench_fused_shape(0, 100000, 4, 1000, 8, 3, &sh), 96000);
	CHECK(sh.rows == 8);
	CHECK_EQ(bench_fused_shape(0, 10, 4, 1000, 8, 3, &sh), 12000);
	CHECK(sh.rows == 1);
}

static void fused_row_json(FILE *f, const struct bench_row *unused, int n)
{
	struct bench_fused_row r = { .rs = 1, .nranks = 4, .type = swcclBfloat16,
		.bytes = 2 << 20, .rows = 128, .hidden = 1024, .n = 256,
		.stage_us = { 100, 50, 10 }, .unfused_us = 200, .fused_us = 150, .wrong = 0,
		.have_paper = n, .paper_comm_us = 54, .paper_gain_us = 19, .paper_pct = 35,
		.t1_us = 255, .t2_us = 150, .p = 0.4444 };

	(void)unused;
	bench_fused_derive(&r);
	if (n < 2)
		bench_fused_json_row(f, &r);
	else
		bench_fused_table_row(f, &r);
}

static void fused_rows(void)
{
	char *s = capture(fused_row_json, NULL, 1);

	CHECK(!strncmp(s, "{\"kind\":\"fused_row\",\"op\":\"fused-rs\",", 36));
	CHECK(strstr(s, "\"comm_us\":50.000,\"gain_us\":50.000,\"gain_pct\":100.000,"));
	CHECK(strstr(s, "\"stages_us\":{\"gemm\":100.000,\"reducescatter\":50.000,"));
	CHECK(strstr(s, "\"paper\":{\"comm_us\":54,\"gain_us\":19,\"gain_pct\":35},"));
	CHECK(strstr(s, "\"eq11_p\":0.4444}\n") && strchr(s, '\n') == s + strlen(s) - 1);
	free(s);
	s = capture(fused_row_json, NULL, 0);
	CHECK(strstr(s, "\"paper\":null,"));
	free(s);
	s = capture(fused_row_json, NULL, 2);
	CHECK(strstr(s, "  2048    128") && strstr(s, " 100.0 ") && strstr(s, " 54/19/35 "));
	free(s);
}

/* Table 5's arithmetic, and the paper's own numbers hold its relations. */
static void table5_arithmetic(void)
{
	const struct mlp_model *n = mlp_model_find("neox"), *l = mlp_model_find("llama");
	struct mlp_estimate e;

	CHECK(n && l && !mlp_model_find("gpt"));
	CHECK(n->hidden == 6144 && l->hidden == 8192 && n->seq == 2048 && l->layers == 80);
	/* per iteration = per layer x layers / pp, in the paper too */
	CHECK(fabs(n->paper_layer_s[0] * 44 / 16 - n->paper_iter_s[0]) < 0.01);
	CHECK(fabs(l->paper_layer_s[1] * 80 / 16 - l->paper_iter_s[1]) < 0.02);	/* rounded */
	/* the iterations the paper implies are the same for Ring and CSC */
	CHECK(fabs(mlp_paper_iterations(n, 0) / mlp_paper_iterations(n, 1) - 1) < 0.01);
	CHECK(fabs(mlp_paper_iterations(l, 0) / mlp_paper_iterations(l, 1) - 1) < 0.01);
	/* 1000 us per block: 192.25 micro-batches x 4 blocks = 0.769 s per layer */
	e = mlp_estimate(n, 1000);
	CHECK(fabs(e.micro - 192.25) < 1e-9);
	CHECK(fabs(e.layer_s - 0.769) < 1e-9);
	CHECK(fabs(e.iter_s - 0.769 * 44 / 16) < 1e-9);
	CHECK(fabs(e.iterations - 0.4e12 / (1538 * 2048.0)) < 1e-6);
	CHECK(fabs(e.days - e.iterations * e.iter_s / 86400) < 1e-9);
	CHECK(mlp_estimate(l, 0).days == 0);
}

static const struct tap_test tests[] = {
	{ "table5_arithmetic", table5_arithmetic },
	{ "fusion_equations", fusion_equations },
	{ "fused_tables_and_shapes", fused_tables_and_shapes },
	{ "fused_rows", fused_rows },
	{ "half_and_bfloat_round_to_nearest_even", half_and_bfloat_round_to_nearest_even },
	{ "inputs_and_results_are_exact", inputs_and_results_are_exact },
	{ "copies_carry_the_global_index", copies_carry_the_global_index },
	{ "names_parse_both_ways", names_parse_both_ways },
	{ "nccl_tests_counts_and_busbw", nccl_tests_counts_and_busbw },
	{ "paper_models", paper_models },
	{ "rows_as_table_json_and_plot", rows_as_table_json_and_plot },
};

TAP_MAIN(tests)
