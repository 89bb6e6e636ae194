// SPDX-License-Identifier: MIT
/*
 * swccl-bench-report.c - how swccl-bench prints its rows (nccl-tests'
 * columns plus the paper's figures) and plots them.
 */
#include "swccl-bench-report.h"

void bench_table_header(FILE *f)
{
	fprintf(f, "%12s %11s %8s %5s %10s %8s %8s %10s %7s %7s %6s %4s %4s %9s\n",
		"size(B)", "count", "type", "algo", "time(us)", "algbw", "busbw", "wall(us)",
		"#wrong", "vsRING", "util%", "lnch", "sync", "paper");
	fprintf(f, "%12s %11s %8s %5s %10s %8s %8s %10s %7s %7s %6s %4s %4s %9s\n",
		"", "(elems)", "", "", "(modeled)", "(GB/s)", "(GB/s)", "", "", "", "", "", "",
		"(GB/s)");
}

void bench_table_row(FILE *f, const struct bench_row *r)
{
	char wrong[24], speed[16], paper[16];

	if (r->wrong < 0)
		snprintf(wrong, sizeof(wrong), "N/A");
	else
		snprintf(wrong, sizeof(wrong), "%ld", r->wrong);
	if (r->speedup > 0)
		snprintf(speed, sizeof(speed), "%.2fx", r->speedup);
	else
		snprintf(speed, sizeof(speed), "-");
	if (r->paper_gbps > 0)
		snprintf(paper, sizeof(paper), "%.2f", r->paper_gbps);
	else
		snprintf(paper, sizeof(paper), "-");
	fprintf(f, "%12zu %11zu %8s %5s %10.1f %8.2f %8.2f %10.0f %7s %7s %6.1f %4d %4d %9s\n",
		r->bytes, r->count, bench_type_name(r->type), bench_algo_name(r->algo), r->time_us,
		r->algbw, r->busbw, r->wall_us, wrong, speed, 100 * r->util, r->launches,
		r->host_syncs, paper);
}

void bench_json_row(FILE *f, const struct bench_row *r)
{
	fprintf(f, "{\"kind\":\"row\",\"coll\":\"%s\",\"nodes\":%d,\"cards\":%d,\"ranks\":%d,"
		"\"bytes\":%zu,\"count\":%zu,\"type\":\"%s\",\"op\":\"%s\",\"algo\":\"%s\","
		"\"chosen\":\"%s\",\"time_us\":%.3f,\"algbw\":%.4f,\"busbw\":%.4f,\"wall_us\":%.1f,"
		"\"wrong\":%ld,",
		bench_coll_name(r->coll), r->nodes ? r->nodes : 1, r->cards ? r->cards : 1,
		r->nranks, r->bytes, r->count,
		bench_type_name(r->type),
		bench_op_name(r->op), bench_algo_name(r->algo), bench_algo_name(r->chosen),
		r->time_us, r->algbw, r->busbw, r->wall_us, r->wrong);
	if (r->speedup > 0)
		fprintf(f, "\"speedup\":%.4f,", r->speedup);
	else
		fprintf(f, "\"speedup\":null,");
	fprintf(f, "\"util\":%.4f,\"transfer_us\":%.3f,\"predicted_us\":%.3f,\"launches\":%d,"
		"\"host_syncs\":%d,\"internode_msgs\":%llu,\"internode_bytes\":%llu,", r->util,
		r->transfer_us, r->predicted_us, r->launches, r->host_syncs, r->internode_msgs,
		r->internode_bytes);
	if (r->paper_gbps > 0)
		fprintf(f, "\"paper_gbps\":%.4f}\n", r->paper_gbps);
	else
		fprintf(f, "\"paper_gbps\":null}\n");
}

void bench_plot_script(FILE *f, const char *png, const struct bench_row *rows, int n)
{
	int seen[swcclNumAlgos] = { 0 }, first = 1;
	const char *coll = n ? bench_coll_name(rows[0].coll) : "?";

	/* One datablock per algorithm: MiB, algbw, util %, paper model. */
	for (int a = 0; a < swcclNumAlgos; a++) {
		for (int i = 0; i < n; i++) {
			if (rows[i].algo != (swcclAlgo_t)a)
				continue;
			if (!seen[a])
				fprintf(f, "$%s << EOD\n", bench_algo_name((swcclAlgo_t)a));
			seen[a] = 1;
			fprintf(f, "%.6f %.4f %.3f %.4f\n", rows[i].bytes / 1048576.0,
				rows[i].algbw, 100 * rows[i].util, rows[i].paper_gbps);
		}
		if (seen[a])
			fprintf(f, "EOD\n");
	}
	fprintf(f, "set terminal pngcairo size 1200,480 font ',10'\n"
		"set output '%s'\n"
		"set multiplot layout 1,2 title 'swccl-bench %s, %d core groups (modeled time)'\n"
		"set logscale x 2\nset grid\nset key top left\n"
		"set xlabel 'size (MiB)'\nset ylabel 'algbw (GB/s)'\n"
		"set title 'bandwidth (paper Figs. 14, 15)'\n"
		"plot ", png, coll, n ? rows[0].nranks : 0);
	for (int a = 0; a < swcclNumAlgos; a++) {
		const char *name = bench_algo_name((swcclAlgo_t)a);

		if (!seen[a])
			continue;
		fprintf(f, "%s$%s using 1:2 with linespoints lw 2 lc %d title '%s'",
			first ? "" : ", ", name, a, name);
		first = 0;
		if (a == swcclAlgoRing || a == swcclAlgoCsc)
			fprintf(f, ", $%s using 1:($4 > 0 ? $4 : NaN) with lines dt 2 lc %d "
				"title '%s, paper eq. (%d)'", name, a, name, a == swcclAlgoRing ? 3 : 4);
	}
	fprintf(f, "\nset ylabel 'data transfer time / total (%%)'\nset yrange [0:100]\n"
		"set title 'bandwidth utilisation (paper Fig. 13)'\nplot ");
	first = 1;
	for (int a = 0; a < swcclNumAlgos; a++) {
		if (!seen[a])
			continue;
		fprintf(f, "%s$%s using 1:3 with linespoints lw 2 lc %d title '%s'",
			first ? "" : ", ", bench_algo_name((swcclAlgo_t)a), a,
			bench_algo_name((swcclAlgo_t)a));
		first = 0;
	}
	fprintf(f, "\nunset multiplot\n");
}

void bench_fused_derive(struct bench_fused_row *r)
{
	r->comm_us = r->stage_us[1];
	r->gain_us = r->unfused_us - r->fused_us;
	r->pct = r->comm_us > 0 ? 100 * r->gain_us / r->comm_us : 0;
}

void bench_fused_header(FILE *f, int rs)
{
	fprintf(f, "%10s %6s %8s %8s %8s %9s %9s %8s %8s %6s %6s %16s %19s\n", "size(KiB)", "rows",
		rs ? "GEMM" : "LN", rs ? "RS" : "AG", rs ? "Dropout" : "GEMM", "unfused", "fused",
		"comm", "gain", "gain%", "#wrong", "paper comm/gain/%", "eq (9)/(10)/(11)");
	fprintf(f, "%10s %6s %8s %8s %8s %9s %9s %8s %8s %6s %6s %16s %19s\n", "", "/rank",
		"(us)", "(us)", "(us)", "(us)", "(us)", "(us)", "(us)", "", "", "(us, us, %)",
		"(us, us, %)");
}

void bench_fused_table_row(FILE *f, const struct bench_fused_row *r)
{
	char wrong[24], paper[40];

	if (r->wrong < 0)
		snprintf(wrong, sizeof(wrong), "N/A");
	else
		snprintf(wrong, sizeof(wrong), "%ld", r->wrong);
	if (r->have_paper)
		snprintf(paper, sizeof(paper), "%.0f/%.0f/%.0f", r->paper_comm_us, r->paper_gain_us,
			 r->paper_pct);
	else
		snprintf(paper, sizeof(paper), "-");
	fprintf(f, "%10zu %6zu %8.1f %8.1f %8.1f %9.1f %9.1f %8.1f %8.1f %6.1f %6s %16s "
		"%6.0f/%5.0f/%5.1f\n", r->bytes >> 10, r->rows, r->stage_us[0], r->stage_us[1],
		r->stage_us[2], r->unfused_us, r->fused_us, r->comm_us, r->gain_us, r->pct, wrong,
		paper, r->t1_us, r->t2_us, 100 * r->p);
}

void bench_fused_json_row(FILE *f, const struct bench_fused_row *r)
{
	fprintf(f, "{\"kind\":\"fused_row\",\"op\":\"%s\",\"ranks\":%d,\"type\":\"%s\","
		"\"bytes\":%zu,\"rows_per_rank\":%zu,\"hidden\":%zu,\"%s\":%zu,"
		"\"stages_us\":{\"%s\":%.3f,\"%s\":%.3f,\"%s\":%.3f},"
		"\"unfused_us\":%.3f,\"fused_us\":%.3f,\"comm_us\":%.3f,\"gain_us\":%.3f,"
		"\"gain_pct\":%.3f,\"wall_unfused_us\":%.1f,\"wall_fused_us\":%.1f,"
		"\"predicted_unfused_us\":%.3f,\"predicted_fused_us\":%.3f,\"wrong\":%ld,",
		r->rs ? "fused-rs" : "fused-ag", r->nranks, bench_type_name(r->type), r->bytes,
		r->rows, r->hidden, r->rs ? "k" : "ffn", r->n, r->rs ? "gemm" : "layernorm",
		r->stage_us[0], r->rs ? "reducescatter" : "allgather", r->stage_us[1],
		r->rs ? "dropout" : "gemm", r->stage_us[2], r->unfused_us, r->fused_us, r->comm_us,
		r->gain_us, r->pct, r->wall_unfused_us, r->wall_fused_us, r->predicted_unfused_us,
		r->predicted_fused_us, r->wrong);
	if (r->have_paper)
		fprintf(f, "\"paper\":{\"comm_us\":%.0f,\"gain_us\":%.0f,\"gain_pct\":%.0f},",
			r->paper_comm_us, r->paper_gain_us, r->paper_pct);
	else
		fprintf(f, "\"paper\":null,");
	fprintf(f, "\"eq9_t1_us\":%.3f,\"eq10_t2_us\":%.3f,\"eq11_p\":%.4f}\n", r->t1_us,
		r->t2_us, r->p);
}
