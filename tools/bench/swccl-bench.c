// SPDX-License-Identifier: MIT
/*
 * swccl-bench - nccl-tests for libswccl: collectives among the core groups
 * of one SW-AI card, per size and algorithm, in modeled card time (what the
 * hardware would take: events on the ranks' streams, the latest rank's end
 * from a common start) and wall time (what the emulator took), checked
 * bitwise; and the SW-IntraCC paper's figures (eqs. (3)-(8), Figs. 13-15).
 *
 *   swccl-bench allgather|reducescatter|allreduce|broadcast|reduce|barrier
 *     [-b MIN] [-e MAX] [-f FACTOR] [-d TYPE] [-o OP] [-n ITERS] [-w WARMUP]
 *     [-c CHECK] [-a ALGO|AUTO|all|F.json|F.xml] [-r ROOT] [-g NRANKS | --cards N [-g G]]
 *     [--place global|local|host] [--json] [--plot FILE.png] [--no-summary]
 *
 *   swccl-bench fused-ag|fused-rs [...]   (swccl-bench-fused.c: Tables 3, 4)
 *   swccl-bench overhead [...]   (swccl-bench-overhead.c: host cost of a call)
 *   swccl-bench matrix [...]     (swccl-bench-matrix.c: seed 002's matrix chain)
 *
 * Sizes (K/M/G = 2^10/2^20/2^30, or plain bytes such as 8000000) follow
 * nccl-tests: AllGather's size is the gathered output, ReduceScatter's the
 * full input.  algbw = bytes / modeled time (GB = 1e9 B); busbw = algbw x
 * (n-1)/n (AG, RS), 2(n-1)/n (AllReduce), 1 (Broadcast, Reduce).
 * --place global (default, the paper's setting): every rank's buffer in
 * Global-HBM (sdaaMallocCross), in place; --place local: Local-HBM of each
 * rank's core group, out of place; --place host: pinned host memory
 * (sdaaMallocHost), out of place -- where MPI's buffers are in seed 001's
 * comparison of the NIC's offload with software.  A barrier (swcclBarrier) has
 * no sizes: a row per algorithm, the NIC's tree offloaded (NIC) and driven
 * by the hosts (HOST), and AUTO.  Ranks are core groups 0..n-1 of the card
 * of device 0 (default all 4).  Run it in the VM:
 *   tools/vm/swai-vm --cards 1 -- swccl-bench allgather -b 1M -e 64M -f 2 -a all
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <drm/swai_accel.h>

#include "swai-cli.h"
#include "swccl-bench.h"

/* -a F.json or -a F.xml: a schedule file (swccl-synth's, MSCCL's) to run as FILE. */
static bool sched_file(const char *a)
{
	size_t n = strlen(a);

	return (n > 5 && !strcasecmp(a + n - 5, ".json")) ||
	       (n > 4 && !strcasecmp(a + n - 4, ".xml"));
}

static void usage(void)
{
	fprintf(stderr,
		"usage: swccl-bench allgather|reducescatter|allreduce|broadcast|reduce|barrier|\n"
		"                   alltoall|alltoallv|sendrecv\n"
		"         [-b MIN] [-e MAX] [-f FACTOR] [-d TYPE] [-o OP] [-n ITERS] [-w WARMUP]\n"
		"         [-c CHECK | --verify] [-a ALGO|AUTO|all|F.json] [-r ROOT] [-g NRANKS | --cards N [-g G]]\n"
		"         [--place global|local|host] [--seed S] [--parts K] [--json]\n"
		"         [--plot FILE.png] [--no-summary]\n"
		"algos: RING CSC CSC1 (the core groups of one card), RING MESH1 MESH2 HD NHR RB\n"
		"       NIC HOST (over the cards' NICs, 48 B a tree: offloaded, software)\n"
		"       FILE (the schedule SWCCL_SCHED_FILE names; -a F.json or -a F.xml runs\n"
		"       the schedule file F as FILE)\n"
		"       DIRECT PLANE (alltoall, alltoallv: pairwise; seed 002's planes, grouped\n"
		"       by the nodes -- hosts, or SWCCL_TOPO's -- the rows' internode_msgs);\n"
		"       alltoallv's blocks hold (n-1)(1 + (x + 2y) mod 3)/3, or with --seed S\n"
		"       counts drawn from S in [0, n), a quarter empty, gaps between; sendrecv\n"
		"       (to rank + 1, from rank - 1, in one group; --parts K: as K Sends and K\n"
		"       Recvs of consecutive pieces, paired in order) is an alltoallv of one\n"
		"       block a rank; --verify checks\n"
		"       them block by block: every (x, y) block arrived at y from x, or a line\n"
		"       naming it (-c 3: every block named)\n"
		"       (--cards N: cards 0..N-1 of one fabric, all their core groups ranks,\n"
		"       run in levels: CSC on each card, the algorithm between the cards\n"
		"       plane by plane; -g G: core groups 0..G-1 of each, -g 1 one rank a card)\n"
		"types: float half bfloat16 double int32 int64 uint8 (or f32 f16 bf16 f64 i32 i64 u8)\n"
		"ops: sum prod max min avg\n"
		"       swccl-bench fused-ag|fused-rs ... (the paper's Tables 3, 4): "
		"swccl-bench fused-ag --help\n"
		"       swccl-bench overhead [-b BYTES] [-n ITERS] [-g NRANKS] [--json]\n"
		"       swccl-bench matrix ... (seed 002's (B x C) x D over an AllToAll): "
		"swccl-bench matrix --help\n");
	exit(2);
}

static size_t parse_size(const char *opt, const char *s)
{
	return swai_cli_size_or_exit("swccl-bench", opt, s);
}

static int parse_int(const char *opt, const char *s, int min)
{
	return (int)swai_cli_long_or_exit("swccl-bench", opt, s, min, 1 << 20);
}

static void parse(struct bench_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "minbytes", required_argument, NULL, 'b' },
		{ "maxbytes", required_argument, NULL, 'e' },
		{ "stepfactor", required_argument, NULL, 'f' },
		{ "datatype", required_argument, NULL, 'd' },
		{ "op", required_argument, NULL, 'o' },
		{ "iters", required_argument, NULL, 'n' },
		{ "warmup_iters", required_argument, NULL, 'w' },
		{ "check", required_argument, NULL, 'c' },
		{ "verify", no_argument, NULL, 'V' },
		{ "algo", required_argument, NULL, 'a' },
		{ "cards", required_argument, NULL, 'C' },
		{ "root", required_argument, NULL, 'r' },
		{ "ngpus", required_argument, NULL, 'g' },
		{ "place", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "plot", required_argument, NULL, 'P' },
		{ "no-summary", no_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 's' },
		{ "parts", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	*o = (struct bench_opts){ .minb = 1 << 20, .maxb = 64 << 20, .factor = 2,
		.type = swcclFloat32, .op = swcclSum, .iters = 5, .warmup = 1, .check = 1,
		.nranks = 4, .global = 1, .summary = 1 };
	o->algos[o->nalgos++] = swcclAlgoAuto;
	while ((c = getopt_long(argc, argv, "b:e:f:d:o:n:w:c:a:r:g:p:jh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->minb = parse_size("-b", optarg); break;
		case 'e': o->maxb = parse_size("-e", optarg); break;
		case 'f': o->factor = parse_int("-f", optarg, 2); break;
		case 'd': if (bench_type_parse(optarg, &o->type)) usage(); break;
		case 'o': if (bench_op_parse(optarg, &o->op)) usage(); break;
		case 'n': o->iters = parse_int("-n", optarg, 1); break;
		case 'w': o->warmup = parse_int("-w", optarg, 0); break;
		case 'c': o->check = parse_int("-c", optarg, 0); break;
		case 'V': o->check = 2; break;
		case 'r': o->root = parse_int("-r", optarg, 0); break;
		case 'g': o->nranks = o->per_card = parse_int("-g", optarg, 1); break;
		case 'j': o->json = 1; break;
		case 'P': o->plot = optarg; break;
		case 'S': o->summary = 0; break;
		case 's': o->seed = (unsigned int)parse_int("--seed", optarg, 1); break;
		case 'K': o->parts = parse_int("--parts", optarg, 1); break;
		case 'p':
			if (!strcmp(optarg, "global"))
				o->global = 1;
			else if (!strcmp(optarg, "local"))
				o->global = 0;
			else if (!strcmp(optarg, "host"))
				o->global = 0, o->host = 1;
			else
				usage();
			break;
		case 'a':
			o->nalgos = 0;
			o->all = !strcasecmp(optarg, "all");
			if (!o->all && sched_file(optarg)) {
				/* libswccl reads it when the comms are made, after this */
				setenv("SWCCL_SCHED_FILE", optarg, 1);
				o->algos[o->nalgos++] = swcclAlgoFile;
			} else if (!o->all && bench_algo_parse(optarg, &o->algos[o->nalgos++])) {
				usage();
			}
			break;
		case 'C': o->cards = parse_int("--cards", optarg, 2); break;
		default: usage();
		}
	}
	/*
	 * -a all: the algorithms of the comm's kind, between cards or within
	 * one; between cards also AUTO, whose row says what the cost chose.
	 */
	for (int a = swcclAlgoRing; o->all && a < swcclNumAlgos; a++) {
		bool xcard = a == swcclAlgoRing || a >= swcclAlgoMesh1;
		const char *file = getenv("SWCCL_SCHED_FILE");

		/* FILE only when there is a schedule file to run */
		if (a == swcclAlgoFile && (!file || !*file))
			continue;
		if (o->cards || bench_launched() ? xcard : a <= swcclAlgoCsc1)
			o->algos[o->nalgos++] = (swcclAlgo_t)a;
	}
	if (o->all && (o->cards || bench_launched()))
		o->algos[o->nalgos++] = swcclAlgoAuto;
	/* --cards: the ranks are known once the cards' core groups are (pick_cards). */
	if (o->cards) {
		/* Without -g: every core group of each card (pick_cards counts them). */
		o->nranks = o->cards * (o->per_card ? o->per_card : 4);
	} else {
		o->per_card = 0;
	}
	if (optind != argc - 1 || bench_coll_parse(argv[optind], &o->coll) ||
	    o->nranks > BENCH_MAX_RANKS || o->root >= o->nranks || !o->maxb ||
	    o->minb > o->maxb)
		usage();
	if (!o->minb)
		o->minb = 1;
	/* -a all: AllToAll's schedules (and FILE's) for AllToAll, the others' for the rest */
	for (int a = 0, k = 0; o->all && a < o->nalgos; a++) {
		bool a2a = o->algos[a] == swcclAlgoDirect || o->algos[a] == swcclAlgoPlane;
		bool any = o->algos[a] == swcclAlgoAuto || o->algos[a] == swcclAlgoFile;

		if (any || a2a == (o->coll == COLL_A2A || bench_coll_apart(o->coll)))
			o->algos[k++] = o->algos[a];
		if (a == o->nalgos - 1)
			o->nalgos = k;
	}
	if (o->coll == COLL_BAR) {	/* one row an algorithm: no sizes */
		o->minb = o->maxb = 8;
		if (o->all) {
			o->algos[0] = swcclAlgoNic;
			o->algos[1] = swcclAlgoHost;
			o->algos[2] = swcclAlgoAuto;
			o->nalgos = 3;
		}
	}
}

static void sweep(struct bench *b)
{
	const struct bench_opts *o = &b->o;

	if (!o->json) {
		bench_banner(b);
		bench_table_header(stdout);
	}
	for (size_t bytes = o->minb; bytes <= o->maxb; bytes *= (size_t)o->factor) {
		int first = b->nrows;

		for (int a = 0; a < o->nalgos; a++) {
			struct bench_row r;
			struct sdaaDeviceProp p0;

			/* -a all: NIC and HOST only on cards with a NIC port on a network */
			if (o->all && (o->algos[a] == swcclAlgoNic || o->algos[a] == swcclAlgoHost) &&
			    (sdaaGetDeviceProperties(&p0, b->dev[0]) ||
			     !(p0.capabilities & DRM_SWAI_CAP_NIC)))
				continue;
			/* A barrier is the NIC's tree (NIC, HOST) or the hosts' (AUTO). */
			if (o->coll == COLL_BAR && o->algos[a] != swcclAlgoAuto &&
			    o->algos[a] != swcclAlgoNic && o->algos[a] != swcclAlgoHost)
				continue;
			r = bench_measure(b, bytes, o->algos[a], o->check);

			if (r.wrong != -2)	/* -2: the algorithm has no such call */
				bench_add_row(b, r);
		}
		bench_speedups(b->rows + first, b->nrows - first);
		for (int i = first; i < b->nrows; i++) {
			if (o->json)
				bench_json_row(stdout, &b->rows[i]);
			else
				bench_table_row(stdout, &b->rows[i]);
		}
		fflush(stdout);
	}
}

/* Write FILE.gp beside @png; render it with gnuplot, or print it for the host. */
static void plot(struct bench *b, const char *png)
{
	size_t n = strlen(png);
	char *gp = malloc(n + 4), cmd[4200];
	FILE *f;

	if (!gp)
		exit(1);
	memcpy(gp, png, n + 1);
	if (n > 4 && !strcmp(gp + n - 4, ".png"))
		gp[n - 4] = 0;
	strcat(gp, ".gp");
	f = fopen(gp, "w");
	if (f) {
		bench_plot_script(f, png, b->rows, b->nrows);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "command -v gnuplot >/dev/null && gnuplot '%s'", gp);
	if (f && system(cmd) == 0) {
		fprintf(stderr, "swccl-bench: wrote %s (script %s)\n", png, gp);
	} else {
		/* In the VM there is no gnuplot: tools/swccl-plot.sh picks this up. */
		fflush(stdout);
		printf("#### swccl-bench gnuplot %s begin\n", png);
		bench_plot_script(stdout, png, b->rows, b->nrows);
		printf("#### swccl-bench gnuplot end\n");
		fprintf(stderr, "swccl-bench: no gnuplot here; %s%s has the script, "
			"render it on the host (gnuplot, or tools/swccl-plot.sh on this output)\n",
			f ? "" : "(not written) ", gp);
	}
	free(gp);
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };

	for (int i = 1; i < argc; i++)
		if (!strncasecmp(argv[i], "fused-", 6))
			return bench_fused_main(argc, argv);
	if (argc > 1 && !strcasecmp(argv[1], "overhead"))
		return bench_overhead_main(argc, argv);
	if (argc > 1 && !strcasecmp(argv[1], "matrix"))
		return bench_matrix_main(argc, argv);
	parse(&b.o, argc, argv);
	/* Under swai-cluster (torchrun's environment): one process per card. */
	if (bench_launched() && bench_launch(&b))
		return 1;
	bench_setup(&b);
	sweep(&b);
	/* -a NAME that refused every size measured nothing: a failure, its reasons above */
	if (!b.o.all && b.o.nalgos && !b.nrows) {
		if (!b.base && b.o.coll == COLL_BAR)
			fprintf(stderr, "swccl-bench: a barrier is NIC's, HOST's or AUTO's, not %s: "
				"nothing was measured\n", bench_algo_name(b.o.algos[0]));
		else if (!b.base)
			fprintf(stderr, "swccl-bench: %s ran %s at no size from %zu to %zu bytes: "
				"nothing was measured\n", bench_algo_name(b.o.algos[0]),
				bench_coll_name(b.o.coll), b.o.minb, b.o.maxb);
		b.failed = 1;
	}
	if (b.o.summary && !b.world && (b.o.coll == COLL_AG || b.o.coll == COLL_RS))
		bench_summary(&b);
	if (b.o.plot && !b.base)
		plot(&b, b.o.plot);
	bench_teardown(&b);
	return b.world ? bench_launch_end(b.failed ? 1 : 0) : b.failed ? 1 : 0;
}
