// SPDX-License-Identifier: MIT
/*
 * swccl-sim - the project's schedules at scale, on SimGrid
 * (tools/sim/swai-sim.h; Documentation/cluster.md §8):
 *
 *   swccl-sim --topology a2-cluster --coll allreduce --size 32M \
 *             --ranks 3,5,6,7,12,100,255,1000,1024 -a RING,HD,NHR [--json]
 *   swccl-sim -t mesh8 -c allgather --in my.xml -n 8 -b 1M -e 64M -f 4
 *   swccl-sim ... --model      (the schedule cost model's time beside)
 *   swccl-sim -t a2-cluster -n 16,32,64,128,256 -a NIC,HOST -b 16 -e 48 --step 8
 *                              (seed 001's NIC trees: swai-sim-nic.h)
 *   swccl-sim ... --plot F.png (time against ranks, or busbw against size)
 *
 * One row per (ranks, size, algorithm), as nccl-tests prints them: time,
 * algbw, busbw, the transfers replayed and what simulating it took here
 * (sim_wall_s); with --baseline also what the same transfers take SimGrid
 * alone on this machine (base_wall_s, swai_sim_in.bare): this machine's
 * speed varies, the ratio of the two much less.  Ranks sit on the
 * topology's cards 0..N-1.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "swai-cli.h"
#include "swai-gen.h"
#include "swai-sched-cost.h"
#include "swai-sim.h"
#include "swai-sim-nic.h"
#include "swai-topo.h"

#define PROG "swccl-sim"
#define MAX_LIST 64
#define MAX_ROWS 4096

struct args {
	const char *topo, *coll, *in, *plot;
	const struct swai_sim_nic_type *type;
	const char *algos[MAX_LIST];
	int nalgos, ranks[MAX_LIST], nranks, root, nodes, branch, nhr_split;
	uint64_t minb, maxb, factor, step;
	bool json, model, spread, card, baseline, levels;
	bool named;		/* -a or --in named them: each must simulate something */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-t TOPOLOGY] [-c COLL] [-a ALGO[,ALGO...]|all | --in FILE]\n"
		"                 [-n N[,N...]] [-b MIN] [-e MAX] [-f FACTOR] [--size S]\n"
		"                 [-r ROOT] [--place packed|spread] [--model] [--json]\n"
		"  -t, --topology T   a topology file or preset (default mesh8)\n"
		"      --nodes K      K nodes after the pattern of its node 0 (swai_topo_scale:\n"
		"                     -t ndv2x2 --nodes 10 is NDv2 x 10)\n"
		"  -c, --coll NAME    allreduce (default) reducescatter allgather broadcast reduce\n"
		"  -a, --algo LIST    generators (RING MESH1 MESH2 HD NHR RB) or all (default);\n"
		"                     NIC, HOST: seed 001's trees (a tree a 48-byte piece),\n"
		"                     offloaded or host-driven, on the NIC engines\n"
		"      --branch K     the NIC trees' branching degree (default 4)\n"
		"  -d, --type T       the NIC trees' data: double (default) float int64\n"
		"                     uint64 int32 uint32; past 48 bytes a tree a piece\n"
		"      --in FILE      a schedule file instead (.json, or MSCCL .xml)\n"
		"      --levels       AllReduce in HCCL's levels: a ReduceScatter inside each\n"
		"                     node, the algorithm between nodes on each plane, an\n"
		"                     AllGather inside each node (a smaller node's ranks\n"
		"                     hold several planes' blocks)\n"
		"      --nhr-split P  NHR AllReduce: each ReduceScatter message in P parts\n"
		"                     (default 1, as libswccl runs it; swccl-sched --split)\n"
		"  -n, --ranks LIST   rank counts (default: every card of the topology)\n"
		"  -b, -e, -f         sizes from MIN to MAX times FACTOR (nccl-tests' size)\n"
		"      --step S       sizes from MIN to MAX plus S (instead of -f)\n"
		"      --size S       one size (default 32M)\n"
		"  -r, --root R       root of broadcast/reduce (default 0)\n"
		"      --place P      packed: rank r on card r (a node's cards first, default);\n"
		"                     spread: card 0 of every node first, then card 1 ...\n"
		"                     (one rank a node: HCCL's level between servers)\n"
		"      --model        also the schedule cost model's time (small N only)\n"
		"      --card         each rank as one core group of a card runs its lowered\n"
		"                     program (launch, a COPY a send, waits): what the emulator\n"
		"                     measures with swccl-bench -g 1 (Documentation/cluster.md §8)\n"
		"      --baseline     also simulate each row's transfers as plainly as SimGrid's\n"
		"                     actors can (base_wall_s): what SimGrid costs for them here\n"
		"      --json         one JSON object per row\n"
		"      --plot F.png   plot the rows with gnuplot: time against ranks (several\n"
		"                     -n), else busbw against size, one line per algorithm\n");
}

/* Split @v at commas into @out (at most MAX_LIST). */
static int split(char *v, const char **out)
{
	int n = 0;

	for (char *tok = strtok(v, ","); tok; tok = strtok(NULL, ","))
		if (n < MAX_LIST)
			out[n++] = tok;
	return n;
}

/* A size (-b, -e, --size, --step): a byte at least (0 would never grow), or exit. */
static uint64_t size_arg(const char *opt, const char *v)
{
	uint64_t b = swai_cli_size_or_exit(PROG, opt, v);

	if (!b)
		swai_cli_bad(PROG, opt, v, "want a size of 1 byte or more");
	return b;
}

static void parse(int argc, char **argv, struct args *a)
{
	static const struct option lopts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "coll", required_argument, NULL, 'c' },
		{ "algo", required_argument, NULL, 'a' },
		{ "in", required_argument, NULL, 'i' },
		{ "ranks", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "root", required_argument, NULL, 'r' },
		{ "model", no_argument, NULL, 'm' },
		{ "card", no_argument, NULL, 'C' },
		{ "baseline", no_argument, NULL, 'B' },
		{ "place", required_argument, NULL, 'p' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'j' },
		{ "plot", required_argument, NULL, 'P' },
		{ "branch", required_argument, NULL, 'k' },
		{ "type", required_argument, NULL, 'd' },
		{ "levels", no_argument, NULL, 'L' },
		{ "nhr-split", required_argument, NULL, 'H' },
		{ "step", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *list[MAX_LIST];
	int c;

	while ((c = getopt_long(argc, argv, "t:c:a:n:b:e:f:r:d:h", lopts, NULL)) != -1) {
		switch (c) {
		case 't': a->topo = optarg; break;
		case 'c': a->coll = optarg; break;
		case 'a': a->nalgos = split(optarg, a->algos); break;
		case 'i': a->in = optarg; break;
		case 'n':
			a->nranks = split(optarg, list);
			for (int i = 0; i < a->nranks; i++)
				a->ranks[i] = (int)swai_cli_long_or_exit(PROG, "-n", list[i], 1,
									 SWAI_SCHED_MAX_RANKS);
			break;
		case 's': a->minb = a->maxb = size_arg("--size", optarg); break;
		case 'b': a->minb = size_arg("-b", optarg); break;
		case 'e': a->maxb = size_arg("-e", optarg); break;
		case 'f': a->factor = (uint64_t)swai_cli_long_or_exit(PROG, "-f", optarg, 2, 1024); break;
		case 'r': a->root = (int)swai_cli_long_or_exit(PROG, "-r", optarg, 0,
							      SWAI_SCHED_MAX_RANKS - 1); break;
		case 'm': a->model = true; break;
		case 'C': a->card = true; break;
		case 'B': a->baseline = true; break;
		case 'L': a->levels = true; break;
		case 'H':
			a->nhr_split = (int)swai_cli_long_or_exit(PROG, "--nhr-split", optarg, 1, 64);
			break;
		case 'N': a->nodes = (int)swai_cli_long_or_exit(PROG, "--nodes", optarg, 1, 4096); break;
		case 'p':
			if (strcmp(optarg, "packed") && strcmp(optarg, "spread"))
				swai_cli_bad(PROG, "--place", optarg, "packed or spread");
			a->spread = !strcmp(optarg, "spread");
			break;
		case 'j': a->json = true; break;
		case 'P': a->plot = optarg; break;
		case 'k': a->branch = (int)swai_cli_long_or_exit(PROG, "--branch", optarg, 1, 255); break;
		case 'd':
			a->type = swai_sim_nic_type(optarg);
			if (!a->type)
				swai_cli_bad(PROG, "--type", optarg,
					     "double, float, int64, uint64, int32 or uint32");
			break;
		case 'S': a->step = size_arg("--step", optarg); break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(2);
	}
	if (!a->minb && !a->maxb)
		a->minb = a->maxb = 32ull << 20;
	if (!a->maxb)
		a->maxb = a->minb;
	if (!a->minb)
		a->minb = a->maxb;
	if (a->minb > a->maxb) {
		char b[32];

		snprintf(b, sizeof(b), "%" PRIu64, a->minb);
		swai_cli_bad(PROG, "-b", b, "the smallest size is above the largest (-e)");
	}
	if (!a->factor)
		a->factor = 2;
	if (!a->type)
		a->type = swai_sim_nic_type("double");
	if (a->levels && a->in) {
		fprintf(stderr, PROG ": --levels composes a generator's schedule (-a ALGO); --in "
			"reads a whole one: give one of them\n");
		exit(2);
	}
}

/* The rows so far, for --plot. */
static struct row {
	char algo[32];
	int ranks;
	uint64_t size;
	double us, busbw;
} rows[MAX_ROWS];
static int nrows;

/*
 * --plot: one line per algorithm -- time against ranks when several rank
 * counts were asked for (seed 000's figure), else busbw against size.
 */
static int plot(const struct args *a, const struct swai_topo *t, int coll)
{
	bool by_ranks = a->nranks > 1;
	FILE *gp = popen("gnuplot", "w");
	int rc;

	if (!gp) {
		fprintf(stderr, PROG ": --plot: cannot run gnuplot\n");
		return 1;
	}
	fprintf(gp, "set terminal pngcairo size 900,560\nset output '%s'\n"
		"set title '%s on %s%s (swccl-sim, SimGrid)'\nset key left top\n"
		"set logscale x 2\nset xlabel '%s'\nset ylabel '%s'\n", a->plot,
		swai_coll_name((enum swai_coll)coll), t->name,
		a->levels ? ", the algorithms between the servers" : "", by_ranks ? "ranks" : "size (B)",
		by_ranks ? "time (us)" : "busbw (GB/s)");
	fprintf(gp, "plot");
	for (int g = 0; g < a->nalgos; g++)
		fprintf(gp, "%s '-' using 1:2 with linespoints title '%s'", g ? "," : "",
			a->in ? "schedule" : a->algos[g]);
	fprintf(gp, "\n");
	for (int g = 0; g < a->nalgos; g++) {
		for (int i = 0; i < nrows; i++)
			if (a->in || !strcasecmp(rows[i].algo, a->algos[g])) {
				if (by_ranks && rows[i].size != a->minb)
					continue;
				fprintf(gp, "%g %g\n", by_ranks ? (double)rows[i].ranks :
					(double)rows[i].size, by_ranks ? rows[i].us : rows[i].busbw);
			}
		fprintf(gp, "e\n");
	}
	rc = pclose(gp);
	if (rc) {
		fprintf(stderr, PROG ": --plot: gnuplot failed (status %d)\n", rc);
		return 1;
	}
	if (!a->json)
		printf("# wrote %s\n", a->plot);
	return 0;
}

/*
 * The schedule of row (@algo or --in, @coll, @N) into *s, the ranks
 * grouped by the nodes of their cards (PLANE); 0, or -1 said.
 */
static int schedule(const struct args *a, const char *algo, int coll, int N,
		    const int *node_of, struct swai_sched *s, char *why, size_t n)
{
	struct swai_gen_opts o = { .root = a->root, .nhr_order = SWAI_NHR_BEST,
				   .nhr_split = a->nhr_split, .node_of = node_of };

	if (a->in)
		return swai_sched_load(s, a->in, why, n) ? -1 : 0;
	if (a->levels)
		return swai_gen_levels(s, algo, (enum swai_coll)coll, N, &o, why, n) ? -1 : 0;
	return swai_gen_build(s, algo, (enum swai_coll)coll, N, &o, why, n) ? -1 : 0;
}

/*
 * --place spread: rank r on card r / nodes of node r % nodes (nodes of
 * equal size); else, and where nodes differ, rank r on card r.
 */
static void place(const struct args *a, const struct swai_topo *t, int N, int *card)
{
	int nn = t->nnodes, per = nn ? t->nodes[0].ncards : 0;
	bool even = nn > 0;

	for (int i = 1; i < nn; i++)
		even &= t->nodes[i].ncards == per && t->nodes[i].first == t->nodes[0].first +
			i * per;
	for (int r = 0; r < N; r++)
		card[r] = a->spread && even ? (r % nn) * per + r / nn : r;
}

/* What a row's schedule sends between nodes (swai_sched_internode); none: -1. */
struct internode {
	long long msgs, bytes;
};

static void print_row(const struct args *a, const struct swai_topo *t, const char *algo,
		      int coll, int N, uint64_t size, const struct swai_sim_out *out,
		      double model_us, double base_s, const struct internode *in,
		      const char *type)
{
	double bw = size / out->us / 1e3;

	if (a->json) {
		printf("{\"kind\":\"row\",\"topology\":\"%s\",\"coll\":\"%s\",\"algo\":\"%s\","
		       "\"ranks\":%d,\"bytes\":%llu,\"time_us\":%.3f,\"algbw\":%.4f,"
		       "\"busbw\":%.4f,\"transfers\":%llu,\"sim_wall_s\":%.3f", t->name,
		       swai_coll_name((enum swai_coll)coll), algo, N, (unsigned long long)size,
		       out->us, bw, bw * swai_coll_bus_factor((enum swai_coll)coll, N),
		       (unsigned long long)out->transfers, out->wall_s);
		if (model_us >= 0)
			printf(",\"model_us\":%.3f", model_us);
		if (base_s >= 0)
			printf(",\"base_wall_s\":%.3f", base_s);
		if (in)
			printf(",\"internode_msgs\":%lld,\"internode_bytes\":%lld", in->msgs,
			       in->bytes);
		if (type)
			printf(",\"type\":\"%s\"", type);
		if (a->levels && !type)
			printf(",\"levels\":true");
		printf("}\n");
	} else {
		printf("%6d %12llu %-6s %12.2f %9.2f %9.2f %10llu %9.3f", N,
		       (unsigned long long)size, algo, out->us, bw,
		       bw * swai_coll_bus_factor((enum swai_coll)coll, N),
		       (unsigned long long)out->transfers, out->wall_s);
		if (model_us >= 0)
			printf(" %12.2f", model_us);
		if (base_s >= 0)
			printf(" %9.3f", base_s);
		printf("\n");
	}
	fflush(stdout);
	if (nrows < MAX_ROWS) {
		struct row *w = &rows[nrows++];

		snprintf(w->algo, sizeof(w->algo), "%s", algo);
		w->ranks = N;
		w->size = size;
		w->us = out->us;
		w->busbw = bw * swai_coll_bus_factor((enum swai_coll)coll, N);
	}
}

/* Simulate @in, or exit naming the row (@what: which of its runs). */
static void simulate(const struct swai_topo *t, const struct swai_sim_in *in,
		     struct swai_sim_out *out, const char *what)
{
	char why[512];

	if (swai_sim_run(in, out, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s %s on %d ranks of %s%s: %s\n", in->s->name,
			swai_coll_name(in->s->coll), in->s->nranks, t->name, what, why);
		exit(1);	/* the schedule goes with the process */
	}
}

/* A row of seed 001's NIC trees (swai-sim-nic.h); false: a skip row instead. */
static bool nic_row(const struct args *a, const struct swai_topo *t, const char *algo,
		    int coll, int N, uint64_t size)
{
	struct swai_sim_out out;
	char why[256];

	if (swai_sim_nic(algo, coll, N, size, a->branch ? (unsigned)a->branch : 4, a->type, &out,
			 why, sizeof(why))) {
		printf(a->json ? "{\"kind\":\"skip\",\"algo\":\"%s\",\"ranks\":%d,\"why\":\"%s\"}\n" :
		       "# %s on %d ranks: %s\n", algo, N, why);
		return false;
	}
	print_row(a, t, algo, coll, N, size, &out, -1, -1, NULL, a->type->name);
	return true;
}

/* A row of @algo (a generator or a schedule file); false: a skip row, with why. */
static bool row(const struct args *a, const struct swai_topo *t, const char *algo,
		int coll, int N, uint64_t size)
{
	static int card[SWAI_SCHED_MAX_RANKS], node_of[SWAI_SCHED_MAX_RANKS];
	struct swai_sched_cost_out co;
	struct internode in;
	uint64_t msgs, chunks;
	struct swai_sim_out out, base;
	struct swai_sched s;
	char why[512];
	double model_us = -1;
	uint64_t bytes;

	if (!a->in && swai_sim_nic_algo(algo))
		return nic_row(a, t, algo, coll, N, size);
	place(a, t, N, card);
	for (int r = 0; r < N; r++)
		node_of[r] = swai_topo_card_node(t, card[r]);
	if (schedule(a, algo, coll, N, node_of, &s, why, sizeof(why))) {
		printf(a->json ? "{\"kind\":\"skip\",\"algo\":\"%s\",\"ranks\":%d,\"why\":\"%s\"}\n" :
		       "# %s on %d ranks: %s\n", algo, N, why);
		return false;
	}
	N = s.nranks;
	coll = s.coll;
	bytes = swai_coll_block_bytes((enum swai_coll)coll, N, size);
	place(a, t, N, card);
	for (int r = 0; r < N; r++)
		node_of[r] = swai_topo_card_node(t, card[r]);
	swai_sched_internode(&s, node_of, &msgs, &chunks);
	in = (struct internode){ (long long)msgs,
				 (long long)(chunks * (bytes / (s.chunks ? s.chunks : 1))) };
	simulate(t, &(struct swai_sim_in){ .s = &s, .t = t, .bytes = bytes, .rank_card = card,
					   .as_card = a->card }, &out, "");
	if (a->model && !swai_sched_cost(&s, t, &(struct swai_sched_cost_in){ .bytes = bytes,
					 .rank_card = card }, &co, why, sizeof(why)))
		model_us = (double)co.ps / 1e6;
	if (a->baseline)
		simulate(t, &(struct swai_sim_in){ .s = &s, .t = t, .bytes = bytes,
						   .rank_card = card, .bare = true },
			 &base, ", baseline");
	print_row(a, t, s.name, s.coll, N, size, &out, model_us, a->baseline ? base.wall_s : -1,
		  &in, NULL);
	swai_sched_free(&s);
	return true;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct swai_topo t;
	char why[512];
	int coll, c, rows[MAX_LIST] = { 0 }, total = 0;
	bool failed = false;

	parse(argc, argv, &a);
	coll = swai_coll_parse(a.coll ? a.coll : "allreduce");
	if (coll < 0)
		swai_cli_bad(PROG, "-c", a.coll, "allreduce, reducescatter, allgather, broadcast "
			     "or reduce");
	if (swai_topo_load_nodes(&t, a.topo ? a.topo : "mesh8", a.nodes, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	if (!a.nranks) {
		a.ranks[0] = t.ncards;
		a.nranks = 1;
	}
	for (int i = 0; i < a.nranks; i++)
		if (a.ranks[i] > t.ncards) {
			fprintf(stderr, PROG ": %d ranks, but %s has %d cards\n", a.ranks[i],
				t.name, t.ncards);
			return 2;
		}
	a.named = a.in || (a.nalgos && !(a.nalgos == 1 && !strcasecmp(a.algos[0], "all")));
	if (a.in) {
		a.nalgos = 1;
		a.algos[0] = a.in;
	} else if (!a.nalgos || (a.nalgos == 1 && !strcasecmp(a.algos[0], "all"))) {
		a.nalgos = 0;
		for (int g = 0; swai_gens[g]; g++)
			if (swai_gens[g]->colls & (1u << coll))
				a.algos[a.nalgos++] = swai_gens[g]->name;
	}
	if (!a.json)
		printf("# swccl-sim %s on %s, ranks %s%s (SimGrid CM02, links from the topology file)\n"
		       "%6s %12s %-6s %12s %9s %9s %10s %9s%s%s\n", swai_coll_name(coll), t.name,
		       a.spread ? "spread over the nodes" : "packed",
		       a.levels ? ", the algorithms in levels (between the nodes)" : "",
		       "ranks", "size(B)", "algo", "time(us)", "algbw", "busbw", "transfers",
		       "wall(s)", a.model ? "     model_us" : "", a.baseline ? "   base(s)" : "");
	for (int i = 0; i < a.nranks; i++)
		for (uint64_t size = a.minb; size <= a.maxb;
		     size = a.step ? size + a.step : size * a.factor) {
			for (int g = 0; g < a.nalgos; g++)
				rows[g] += row(&a, &t, a.algos[g], coll, a.ranks[i], size);
			if (size > UINT64_MAX / a.factor)
				break;
		}
	/*
	 * As swccl-bench: what the user named and got no row for is a failure
	 * (its reason is on its skip rows), not a run that looks fine.
	 */
	for (int g = 0; g < a.nalgos; g++) {
		total += rows[g];
		if (a.named && !rows[g]) {
			fprintf(stderr, PROG ": %s: nothing was simulated (%s at every size and "
				"rank count asked for: the reason is on its rows above)\n",
				a.algos[g], swai_coll_name(coll));
			failed = true;
		}
	}
	if (!total && !a.named)
		fprintf(stderr, PROG ": no algorithm makes %s on these rank counts: nothing was "
			"simulated\n", swai_coll_name(coll));
	c = a.plot ? plot(&a, &t, coll) : 0;
	swai_topo_free(&t);
	return failed || !total ? 1 : c;
}
