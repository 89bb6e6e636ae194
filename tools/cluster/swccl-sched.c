// SPDX-License-Identifier: MIT
/*
 * swccl-sched - look at, check and convert schedules and topologies
 * (Documentation/cluster.md §5).
 *
 *   swccl-sched table  -c allreduce -a NHR -n 4 [--order bitrev]
 *   swccl-sched verify -c allgather -a HD -n 8     (or --in FILE)
 *   swccl-sched export -c allreduce -a RING -n 8 --format json|msccl
 *   swccl-sched pieces --max 1024                  (NHR reordering report)
 *   swccl-sched topo   -t mesh8 [--route 0,5]
 *   swccl-sched cost   -t mesh8 -c allreduce -n 8 -b 32M [-a ALGO|all]
 *   swccl-sched select -t mesh8 -c allreduce       (the cheapest per N, size)
 *
 * --in reads a schedule file (.json: this project's, .xml: MSCCL's)
 * instead of generating one.  Exit status 0, 1 on a failed check, 2 on bad
 * usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "swai-cli.h"
#include "swai-gen.h"
#include "swai-msccl.h"
#include "swai-sched-cost.h"
#include "swai-sched.h"
#include "swai-topo.h"

#define PROG "swccl-sched"

struct args {
	const char *cmd, *coll, *algo, *in, *format, *topo, *route;
	int nranks, root, max, shift, stride, split;
	bool levels;
	uint64_t bytes;
	enum swai_nhr_order order;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " table|verify|export|pieces|topo|cost|select [options]\n"
		"  -c, --coll NAME     allreduce reducescatter allgather broadcast reduce\n"
		"  -a, --algo NAME     RING MESH1 MESH2 HD NHR RB\n"
		"  -n, --ranks N       ranks (1..%d)\n"
		"  -r, --root R        root of broadcast/reduce\n"
		"      --order O       NHR AllReduce slice order: best identity bitrev\n"
		"      --split P       NHR AllReduce: each ReduceScatter message in P parts\n"
		"                      (default 1: whole, seed 000's table, what libswccl runs)\n"
		"      --stride S      RING: the ring of ranks 0, S, 2S, ... mod N (coprime)\n"
		"      --shift S       MESH1/MESH2: start each round's sends at the S-th peer\n"
		"                      (plane j of G core groups per card: j(N-1)/G)\n"
		"      --in FILE       a schedule file (.json or MSCCL .xml)\n"
		"      --format F      export as json (default) or msccl\n"
		"      --max N         pieces: report N = 2..N (default 1024)\n"
		"  -t, --topo T        topo: a preset name or a file; table, verify,\n"
		"                      export: group the ranks by its nodes (PLANE)\n"
		"      --route A,B     topo: the route from card A to card B\n"
		"      --levels        with -t: the AllReduce in HCCL's levels over the\n"
		"                      topology's nodes (swai_gen_levels)\n"
		"  -b, --bytes SIZE    cost: the message (nccl-tests' size; default 32M)\n",
		SWAI_SCHED_MAX_RANKS);
}

/* The schedule the arguments name: generated, or read from --in. */
static int get_sched(const struct args *a, struct swai_sched *s)
{
	struct swai_gen_opts o = { .root = a->root, .nhr_order = a->order, .shift = a->shift,
				   .stride = a->stride, .nhr_split = a->split };
	char why[512];
	int c, ret;

	if (a->in) {
		ret = swai_sched_load(s, a->in, why, sizeof(why));
		if (ret)
			fprintf(stderr, PROG ": %s\n", why);
		return ret ? -1 : 0;
	}
	c = a->coll ? swai_coll_parse(a->coll) : -1;
	if (c < 0 || !a->algo || a->nranks < 1) {
		fprintf(stderr, PROG ": give -c COLL -a ALGO -n N, or --in FILE\n");
		return -1;
	}
	if (a->topo) {
		/* -t: rank r on card r of the topology, grouped by its nodes (PLANE) */
		struct swai_topo t;
		int *node_of;

		if (swai_topo_load(&t, a->topo, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s\n", why);
			return -1;
		}
		node_of = calloc((size_t)a->nranks, sizeof(*node_of));
		for (int r = 0; node_of && r < a->nranks; r++)
			node_of[r] = swai_topo_card_node(&t, r);
		swai_topo_free(&t);
		if (!node_of) {
			fprintf(stderr, PROG ": out of memory\n");
			return -1;
		}
		o.node_of = node_of;
		ret = a->levels ? swai_gen_levels(s, a->algo, c, a->nranks, &o, why, sizeof(why)) :
		      swai_gen_build(s, a->algo, c, a->nranks, &o, why, sizeof(why));
		free(node_of);
	} else if (a->levels) {
		fprintf(stderr, PROG ": --levels needs -t TOPOLOGY (its nodes)\n");
		return -1;
	} else {
		ret = swai_gen_build(s, a->algo, c, a->nranks, &o, why, sizeof(why));
	}
	if (ret)
		fprintf(stderr, PROG ": %s\n", why);
	return ret ? -1 : 0;
}

static int cmd_pieces(const struct args *a)
{
	int *tree = malloc((size_t)a->max * sizeof(*tree)), most[20];
	static const char *const names[] = { "best", "identity", "bitrev" };

	if (!tree)
		return 1;
	printf("# NHR: pieces of the most fragmented message, per step "
	       "(ReduceScatter; AllGather mirrors it)\n");
	printf("%6s %-9s %s\n", "N", "order", "pieces per step (step 0 first), total");
	for (int N = 2; N <= a->max; N++) {
		for (int o = 0; o < 3; o++) {
			int S, sum = 0;

			if (swai_nhr_order(N, o, tree))
				return 1;
			S = swai_nhr_pieces(N, tree, most, 20);
			printf("%6d %-9s", N, names[o]);
			for (int k = 0; k < S; k++) {
				printf(" %d", most[k]);
				sum += most[k];
			}
			printf("  = %d\n", sum);
		}
	}
	free(tree);
	return 0;
}

static int cmd_topo(const struct args *a)
{
	struct swai_topo t;
	char why[512], *dump;

	if (swai_topo_load(&t, a->topo ? a->topo : "mesh8", why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	if (a->route) {
		struct swai_topo_route r;
		char pair[64], *comma;
		long x, y;

		snprintf(pair, sizeof(pair), "%s", a->route);
		comma = strchr(pair, ',');
		if (comma)
			*comma = 0;
		if (!comma || swai_cli_long(pair, 0, t.ncards - 1, &x) ||
		    swai_cli_long(comma + 1, 0, t.ncards - 1, &y)) {
			fprintf(stderr, PROG ": --route A,B: two cards of 0..%d\n",
				t.ncards - 1);
			swai_topo_free(&t);
			return 2;
		}
		if (swai_topo_route(&t, (int)x, (int)y, &r, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s\n", why);
			swai_topo_free(&t);
			return 1;
		}
		printf("%s -> %s: %d hops, %llu ns, %u MB/s:", t.devs[t.card_dev[x]].name,
		       t.devs[t.card_dev[y]].name, r.nhops,
		       (unsigned long long)r.latency_ns, r.mbps);
		for (int h = 0; h < r.nhops; h++) {
			const struct swai_topo_link *l = &t.links[r.hops[h].link];

			printf(" %s->%s", t.devs[r.hops[h].dir ? l->b : l->a].name,
			       t.devs[r.hops[h].dir ? l->a : l->b].name);
		}
		printf("\n");
		swai_topo_route_free(&r);
	} else {
		dump = swai_topo_dump(&t);
		printf("%s\n", dump ? dump : "(out of memory)");
		free(dump);
	}
	swai_topo_free(&t);
	return 0;
}

/* The modeled time of @algo (us), or a negative value if it cannot run. */
static double cost_of(const struct swai_topo *t, const char *algo, int c, int N,
		      uint64_t size, char *why, size_t n)
{
	struct swai_sched_cost_in in = { .bytes = swai_coll_block_bytes(c, N, size) };
	struct swai_sched_cost_out out;
	struct swai_gen_opts o = { 0 };
	struct swai_sched s;
	int ret, *node_of = calloc((size_t)N, sizeof(*node_of));

	if (!node_of) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	/* rank r on card r: PLANE's grouping is the topology's nodes */
	for (int r = 0; r < N; r++)
		node_of[r] = swai_topo_card_node(t, r);
	o.node_of = node_of;
	ret = swai_gen_build(&s, algo, c, N, &o, why, n);
	free(node_of);
	if (ret)
		return -1;
	ret = swai_sched_cost(&s, t, &in, &out, why, n);
	swai_sched_free(&s);
	return ret ? -1 : out.ps / 1e6;
}

static int cmd_cost(const struct args *a, bool select)
{
	int c = a->coll ? swai_coll_parse(a->coll) : -1;
	struct swai_topo t;
	char why[512];

	if (c < 0) {
		fprintf(stderr, PROG ": -c COLL\n");
		return 2;
	}
	if (swai_topo_load(&t, a->topo ? a->topo : "mesh8", why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	if (!select) {
		int N = a->nranks ? a->nranks : t.ncards;

		printf("# %s on %s, %d ranks, %llu bytes (modeled: card timing + link "
		       "calendars)\n", swai_coll_name(c), t.name, N,
		       (unsigned long long)a->bytes);
		printf("%-6s %12s %10s %10s\n", "algo", "time_us", "algbw", "busbw");
		for (int g = 0; swai_gens[g]; g++) {
			double us;

			if (a->algo && strcasecmp(a->algo, "all") &&
			    strcasecmp(a->algo, swai_gens[g]->name))
				continue;
			if (!(swai_gens[g]->colls & (1u << c)))
				continue;
			us = cost_of(&t, swai_gens[g]->name, c, N, a->bytes, why,
				     sizeof(why));
			if (us < 0) {
				printf("%-6s %12s  (%s)\n", swai_gens[g]->name, "-", why);
				continue;
			}
			printf("%-6s %12.2f %10.2f %10.2f\n", swai_gens[g]->name, us,
			       a->bytes / us / 1e3,
			       a->bytes / us / 1e3 * swai_coll_bus_factor(c, N));
		}
	} else {
		printf("# %s on %s: the cheapest algorithm per ranks and size\n",
		       swai_coll_name(c), t.name);
		printf("%6s", "size");
		for (int N = 2; N <= t.ncards && N <= 16; N++)
			printf(" %6s%-2d", "N=", N);
		printf("\n");
		for (uint64_t size = 1024; size <= (256ull << 20); size *= 4) {
			if (size >= (1u << 20))
				printf("%5lluM", (unsigned long long)(size >> 20));
			else
				printf("%5lluK", (unsigned long long)(size >> 10));
			for (int N = 2; N <= t.ncards && N <= 16; N++) {
				const char *best = "-";
				double bus = -1;

				for (int g = 0; swai_gens[g]; g++) {
					double us = cost_of(&t, swai_gens[g]->name, c, N,
							    size, why, sizeof(why));

					if (us >= 0 && (bus < 0 || us < bus)) {
						bus = us;
						best = swai_gens[g]->name;
					}
				}
				printf(" %8s", best);
			}
			printf("\n");
		}
	}
	swai_topo_free(&t);
	return 0;
}

static int run(const struct args *a)
{
	struct swai_sched s;
	char why[512], *out;
	int ret = 0;

	if (!strcmp(a->cmd, "pieces"))
		return cmd_pieces(a);
	if (!strcmp(a->cmd, "topo"))
		return cmd_topo(a);
	if (!strcmp(a->cmd, "cost") || !strcmp(a->cmd, "select"))
		return cmd_cost(a, !strcmp(a->cmd, "select"));
	if (strcmp(a->cmd, "table") && strcmp(a->cmd, "verify") &&
	    strcmp(a->cmd, "export")) {
		fprintf(stderr, PROG ": no command \"%s\"\n", a->cmd);
		usage(stderr);
		return 2;
	}
	if (get_sched(a, &s))
		return 1;
	if (!strcmp(a->cmd, "table")) {
		swai_sched_print_table(&s, stdout);
	} else if (!strcmp(a->cmd, "verify")) {
		ret = swai_sched_verify(&s, why, sizeof(why)) ? 1 : 0;
		if (ret)
			fprintf(stderr, PROG ": %s\n", why);
		else
			printf("%s %s on %d ranks: correct (%d rounds)\n", s.name,
			       swai_coll_name(s.coll), s.nranks, swai_sched_rounds(&s));
	} else {
		bool msccl = a->format && !strcmp(a->format, "msccl");

		if (a->format && !msccl && strcmp(a->format, "json")) {
			fprintf(stderr, PROG ": --format json or msccl\n");
			swai_sched_free(&s);
			return 2;
		}
		out = msccl ? swai_msccl_export(&s) : swai_sched_dump(&s);
		printf("%s%s", out ? out : "", msccl ? "" : "\n");
		ret = !out;
		free(out);
	}
	swai_sched_free(&s);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "coll", required_argument, NULL, 'c' },
		{ "algo", required_argument, NULL, 'a' },
		{ "ranks", required_argument, NULL, 'n' },
		{ "root", required_argument, NULL, 'r' },
		{ "order", required_argument, NULL, 'o' },
		{ "split", required_argument, NULL, 'P' },
		{ "in", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "max", required_argument, NULL, 'm' },
		{ "shift", required_argument, NULL, 's' },
		{ "stride", required_argument, NULL, 'S' },
		{ "topo", required_argument, NULL, 't' },
		{ "route", required_argument, NULL, 'R' },
		{ "levels", no_argument, NULL, 'L' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct args a = { .max = 1024, .bytes = 32ull << 20 };
	int c;

	while ((c = getopt_long(argc, argv, "c:a:n:r:t:b:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'c': a.coll = optarg; break;
		case 'a': a.algo = optarg; break;
		case 'n':
			a.nranks = (int)swai_cli_long_or_exit(PROG, "-n", optarg, 1,
							      SWAI_SCHED_MAX_RANKS);
			break;
		case 'r':
			a.root = (int)swai_cli_long_or_exit(PROG, "-r", optarg, 0,
							    SWAI_SCHED_MAX_RANKS - 1);
			break;
		case 'o':
			if (!strcmp(optarg, "best") || !strcmp(optarg, "identity") ||
			    !strcmp(optarg, "bitrev")) {
				a.order = !strcmp(optarg, "best") ? SWAI_NHR_BEST :
					  !strcmp(optarg, "identity") ? SWAI_NHR_IDENTITY :
					  SWAI_NHR_BITREV;
				break;
			}
			fprintf(stderr, PROG ": --order best, identity or bitrev\n");
			return 2;
		case 'P':
			a.split = (int)swai_cli_long_or_exit(PROG, "--split", optarg, 1, 64);
			break;
		case 'i': a.in = optarg; break;
		case 'f': a.format = optarg; break;
		case 'm':
			a.max = (int)swai_cli_long_or_exit(PROG, "--max", optarg, 2, 4096);
			break;
		case 's':
			a.shift = (int)swai_cli_long_or_exit(PROG, "--shift", optarg, 0,
							     SWAI_SCHED_MAX_RANKS - 1);
			break;
		case 'S':
			a.stride = (int)swai_cli_long_or_exit(PROG, "--stride", optarg, 1,
							      SWAI_SCHED_MAX_RANKS - 1);
			break;
		case 't': a.topo = optarg; break;
		case 'R': a.route = optarg; break;
		case 'L': a.levels = true; break;
		case 'b': a.bytes = swai_cli_size_or_exit(PROG, "-b", optarg); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	a.cmd = argv[optind];
	return run(&a);
}
