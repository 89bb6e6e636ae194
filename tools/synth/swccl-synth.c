// SPDX-License-Identifier: MIT
/*
 * swccl-synth - topology-aware schedule synthesis (seed 003's MTEG; ours,
 * MTEG-EA, or with --tm the seed's MTEGCCA; tools/synth/swai-mteg.h;
 * Documentation/cluster.md §10):
 *
 *   swccl-synth -t ndv2 -c allgather --size 1M [--chunks C] [--slots H] [--json]
 *               [-o FILE.json] [--msccl FILE.xml] [--card] [--model] [--milp[=SECONDS]]
 *   swccl-synth -t ndv2x2 --nodes 4 ...   (NDv2 x 4: node 0's pattern, 4 times)
 *
 * Prints what the synthesizer took (solve_s), the completion time its
 * slots promise (completion_us), a lower bound (lower_bound_us, swai-mteg-
 * bound.c: the farthest pair; every card's and node's cut), and with
 * --model the schedule cost model's time for it and for RING.  With
 * --milp, seed 003's MILP solved by CBC on the heuristic's slots, from its
 * trees (swai-milp.h): the optimum, or the best CBC reached in the time
 * limit, and the heuristic's gap to it; -o/--msccl then write the MILP's
 * schedule.  With --card, in the emulated card's slots (SWAI_MTEG_CARD):
 * its completion is then what the cards take.  A schedule is verified
 * before it is written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swai-cli.h"
#include "swai-gen.h"
#include "swai-milp.h"
#include "swai-msccl.h"
#include "swai-mteg.h"
#include "swai-sched-cost.h"
#include "swai-topo.h"

#define PROG "swccl-synth"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-t TOPOLOGY] [-c COLL] [--size S] [-r ROOT]\n"
		"                   [--chunks C] [--slots H] [-o FILE.json] [--msccl FILE.xml]\n"
		"                   [--card] [--model] [--milp[=SECONDS]] [--json]\n"
		"  -t, --topology T   a topology file or preset (default ndv2)\n"
		"      --preset P     the same as -t P\n"
		"      --chassis K    K chassis of preset P: P's \"x2\" preset (its chassis and the\n"
		"                     links between them) scaled to K, as --nodes K:\n"
		"                     --preset ndv2 --chassis 4 is TE-CCL's NDv2 x 4\n"
		"      --nodes K      K nodes after the pattern of the topology's node 0 (its\n"
		"                     cards, links, links to switches): -t ndv2x2 --nodes 4\n"
		"                     is TE-CCL's NDv2 x 4\n"
		"  -c, --coll NAME    allgather (default), broadcast, alltoall (every block a\n"
		"                     demand of its own, by its earliest path), or by the\n"
		"                     reverse-tree argument reducescatter and allreduce\n"
		"                     (reducescatter's trees, then allgather's)\n"
		"      --size S       nccl-tests' size: AllGather's output, AllToAll's input\n"
		"                     (default 1M)\n"
		"      --chunks C     chunks a source's block is cut into (default 1); auto: the\n"
		"                     best of 1, 2, 4, 8 and 16 (up to the first too large for\n"
		"                     the improvement passes, once one had them)\n"
		"      --slots H      the time-expanded graph's slots (default: grow until it fits)\n"
		"  -o FILE.json       write the schedule (the project's format)\n"
		"      --msccl FILE   write it as MSCCL's XML too\n"
		"      --seed-rule    seed 003's rule: a chunk takes a link in its first slot\n"
		"                     only (a slow link starts a chunk every slot); default: for\n"
		"                     the slots its bytes take\n"
		"      --tm           seed 003's MTEGCCA exactly (Takahashi-Matsuyama trees, one\n"
		"                     source after another); default ours, MTEG-EA: earliest-\n"
		"                     arrival trees, sources interleaved, late trees promoted\n"
		"      --card         in the emulated card's slots (swccl-bench -g 1, one core\n"
		"                     group a rank): a card sends one chunk at a time, each a\n"
		"                     COPY's issue (t-step) to its landing, a wake-up after,\n"
		"                     a reduction's receiver then reducing it in, and a job's\n"
		"                     launch first -- the card's default timing\n"
		"      --model        the schedule cost model's time, and RING's beside it\n"
		"                     (AllToAll: DIRECT's)\n"
		"      --milp[=S]     seed 003's MILP by CBC on the heuristic's slots, from its\n"
		"                     trees, for at most S seconds (default 60): the optimum, its\n"
		"                     gap to it (with --model its schedule's time too); -o and\n"
		"                     --msccl write the MILP's schedule\n"
		"      --json         one JSON object\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The cost model's time of @s on @t (us), or -1. */
static double model_us(const struct swai_sched *s, const struct swai_topo *t, uint64_t bytes)
{
	struct swai_sched_cost_out out;
	char why[256];

	if (swai_sched_cost(s, t, &(struct swai_sched_cost_in){ .bytes = bytes }, &out, why,
			    sizeof(why)))
		return -1;
	return (double)out.ps / 1e6;
}

/*
 * --chassis K on a preset of one chassis: K > 1 chassis follow its "x2"
 * preset's node 0 and links between chassis (ndv2 -> ndv2x2, amd ->
 * amdx2), as --nodes K; one chassis is the preset itself.
 */
static const char *chassis_pattern(const char *topo, int chassis, char *buf, size_t n,
				   int *nodes)
{
	struct swai_topo two;
	char why[256];

	*nodes = 0;
	if (chassis == 1)
		return topo;
	*nodes = chassis;
	snprintf(buf, n, "%sx2", topo);
	if (strchr(topo, '/') || swai_topo_load(&two, buf, why, sizeof(why)))
		return topo;    /* a file, or already a pattern of chassis */
	swai_topo_free(&two);
	return buf;
}

/*
 * The synthesis, or with *@chunks 0 (--chunks auto) the best of 1, 2, 4, 8
 * and 16 chunks a block -- the seed's mu is an input; cutting a block
 * finer pipelines it through relays, at more slots to plan -- into
 * *@chunks.  The counts are compared without the planner's last search
 * (SWAI_MTEG_QUICK), which then runs on the best one only: it costs a
 * second or two where it runs, five times over otherwise (NDv2 x 10 at 1
 * MiB: 2.1 s).  Past the first count too large for ours' improvement
 * passes, where a smaller one had them, the doubling stops: the plans
 * only grow, and each larger one is placed only, then slower than the
 * improved (AMD x 10 at 64 MiB: 1 and 2 chunks improved, 411.0 and 360.7
 * us; 4 chunks placed only, 564.7 us in 15 s; 8 and 16 took two minutes
 * more).
 */
static int synth(const struct swai_topo *t, enum swai_coll coll, int root, uint64_t block,
		 uint32_t *chunks, int H, unsigned flags, struct swai_sched *s,
		 struct swai_mteg_result *res, char *why, size_t n)
{
	struct swai_mteg_result r;
	struct swai_sched try;
	bool improved = false;	/* a count had ours' improvement passes */
	double bound_s = 0;
	int ret = -EINVAL;

	if (*chunks)
		return swai_mteg_synth(t, coll, root, block, *chunks, H, flags, s, res, why, n);
	for (uint32_t c = 1; c <= 16 && c <= block; c *= 2) {
		int got = swai_mteg_synth(t, coll, root, block, c, H, flags | SWAI_MTEG_QUICK, &try,
					  &r, why, n);

		bound_s += got ? 0 : r.bound_s;
		if (got == -ENOMEM)
			return got;
		if (got)
			continue;
		if (r.unimproved && improved) {
			swai_sched_free(&try);
			break;
		}
		improved |= !r.unimproved;
		if (!ret && r.completion_us >= res->completion_us) {
			swai_sched_free(&try);
			continue;
		}
		if (!ret)
			swai_sched_free(s);
		*s = try;
		*res = r;
		*chunks = c;
		ret = 0;
	}
	/*
	 * The best count planned again and searched (the same plan first:
	 * never worse), unless within 1 % of its bound, where the search stops.
	 */
	if (!ret && !(flags & SWAI_MTEG_TM) && res->completion_us >
	    (1 + SWAI_MTEG_NEAR_PCT / 100.0) * res->lower_bound_us &&
	    !swai_mteg_synth(t, coll, root, block, *chunks, H, flags, &try, &r, why, n)) {
		bound_s += r.bound_s;
		if (r.completion_us <= res->completion_us) {
			swai_sched_free(s);
			*s = try;
			*res = r;
		} else {
			swai_sched_free(&try);
		}
	}
	res->bound_s = bound_s;     /* every chunk count's */
	return ret;
}

/* nccl-tests' algbw: the collective's size over its time, GB/s. */
static double algbw(uint64_t bytes, double us)
{
	return us > 0 ? (double)bytes / us / 1e3 : 0;
}

/*
 * --milp: the heuristic again on its @H, the MTEG then cut to @slots (where
 * it ended, so its trees fit: the MIP start), CBC on that MTEG; with @s,
 * the solution's schedule, verified.
 */
static int run_milp(const struct swai_topo *t, enum swai_coll coll, int root, uint64_t block,
		    uint32_t chunks, unsigned flags, int H, int slots, long limit, struct swai_sched *s,
		    struct swai_milp_result *r, double *tau_us, char *why, size_t n)
{
	struct swai_mteg_result res;
	struct swai_mteg_plan p;
	struct swai_mteg_hop *hops;
	int *nhops, ret;

	/*
	 * Planned as before (its order's first tries need the room), then the
	 * graph cut to where it ended: the MILP's H.
	 */
	ret = swai_mteg_plan(t, coll, root, block, chunks, H, flags, &p, &res, why, n);
	if (!ret && swai_mteg_trim(&p.m, slots)) {
		snprintf(why, n, "out of memory");
		swai_mteg_plan_free(&p);
		ret = -ENOMEM;
	}
	if (ret)
		return ret;
	*tau_us = (double)p.m.tau_ps / 1e6;
	hops = malloc((size_t)p.ntrees * (size_t)t->ncards * (size_t)t->ncards * sizeof(*hops));
	nhops = calloc((size_t)p.ntrees, sizeof(*nhops));
	ret = hops && nhops ? 0 : -ENOMEM;
	if (ret)
		snprintf(why, n, "out of memory");
	if (!ret)
		ret = swai_milp_solve(&p.m, coll, root, chunks, (double)limit, p.hops, p.nhops,
				      hops, nhops, r, why, n);
	if (!ret && r->status != 0 && r->status != 1) {
		snprintf(why, n, "CBC ended without a solution (status %d), the heuristic's start "
			 "refused", r->status);
		ret = -EPROTO;
	}
	if (!ret && s)
		ret = swai_mteg_schedule(&p.m, "MILP", coll, root, chunks, hops, nhops, s, why, n);
	if (!ret && s && swai_sched_verify(s, why, n)) {
		swai_sched_free(s);
		ret = -EPROTO;
	}
	free(hops);
	free(nhops);
	swai_mteg_plan_free(&p);
	return ret;
}

/* The MILP's figures, and the heuristic's (@algo) gap to them: JSON fields or a line. */
static void print_milp(bool json, const char *algo, const struct swai_milp_result *r,
		       int mteg_slots, double tau_us, long limit, double model)
{
	double gap = r->slots ? 100.0 * (mteg_slots - r->slots) / r->slots : 0;

	if (json) {
		printf(",\"milp_slots\":%d,\"milp_us\":%.3f,\"milp_proven\":%s,"
		       "\"milp_bound_us\":%.3f,\"milp_s\":%.3f,\"milp_cols\":%d,\"milp_rows\":%d,"
		       "\"gap_pct\":%.1f", r->slots, r->slots * tau_us,
		       r->status ? "false" : "true", r->bound_slots * tau_us, r->solve_s, r->ncols,
		       r->nrows, gap);
		if (model >= 0)
			printf(",\"milp_model_us\":%.3f", model);
		return;
	}
	printf("MILP (CBC, %d columns, %d rows, %.2f s): %s %d slots = %.2f us",
	       r->ncols, r->nrows, r->solve_s, r->status ? "best found" : "optimum", r->slots,
	       r->slots * tau_us);
	if (r->status)
		printf(", not proven in %ld s (CBC's bound %.2f slots = %.2f us)", limit,
		       r->bound_slots, r->bound_slots * tau_us);
	printf("; %s %.1f %% above\n", algo, gap);
	if (model >= 0)
		printf("cost model: the MILP's schedule %.2f us\n", model);
}

static int write_file(const char *path, char *text)
{
	FILE *f = text ? fopen(path, "w") : NULL;
	int bad = !f || fputs(text, f) < 0;

	if (f && fclose(f))
		bad = 1;
	if (bad)
		fprintf(stderr, PROG ": %s: %s\n", path, text ? strerror(errno) : "out of memory");
	free(text);
	return bad;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "coll", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },
		{ "root", required_argument, NULL, 'r' },
		{ "chunks", required_argument, NULL, 'C' },
		{ "slots", required_argument, NULL, 'H' },
		{ "msccl", required_argument, NULL, 'x' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "preset", required_argument, NULL, 't' },
		{ "chassis", required_argument, NULL, 'K' },
		{ "seed-rule", no_argument, NULL, 'S' },
		{ "tm", no_argument, NULL, 'T' },
		{ "card", no_argument, NULL, 'D' },
		{ "model", no_argument, NULL, 'm' },
		{ "milp", optional_argument, NULL, 'M' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *topo = "ndv2", *coll_name = "allgather", *out = NULL, *xml = NULL, *algo, *base;
	uint64_t size = 1 << 20, block;
	int root = 0, H = 0, nodes = 0, chassis = 0, c, coll, ret;
	long milp = 0;
	uint32_t chunks = 1;
	unsigned flags = 0;
	bool json = false, model = false;
	struct swai_mteg_result res;
	struct swai_milp_result mr;
	struct swai_sched s, ring, ms;
	struct swai_topo t;
	double t0, solve, mine = -1, ring_us = -1, tau_us = 0, milp_model = -1;
	char why[512], pattern[128];

	while ((c = getopt_long(argc, argv, "t:c:r:o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 't': topo = optarg; break;
		case 'c': coll_name = optarg; break;
		case 's': size = swai_cli_size_or_exit(PROG, "--size", optarg); break;
		case 'r': root = (int)swai_cli_long_or_exit(PROG, "-r", optarg, 0, 65535); break;
		case 'C': chunks = !strcmp(optarg, "auto") ? 0 :
				   (uint32_t)swai_cli_long_or_exit(PROG, "--chunks", optarg, 1, 64);
			break;
		case 'H': H = (int)swai_cli_long_or_exit(PROG, "--slots", optarg, 1, 1 << 16); break;
		case 'o': out = optarg; break;
		case 'x': xml = optarg; break;
		case 'N': nodes = (int)swai_cli_long_or_exit(PROG, "--nodes", optarg, 1, 4096); break;
		case 'K': chassis = (int)swai_cli_long_or_exit(PROG, "--chassis", optarg, 1, 4096);
			break;
		case 'm': model = true; break;
		case 'M': milp = optarg ? swai_cli_long_or_exit(PROG, "--milp", optarg, 1, 86400) : 60;
			break;
		case 'S': flags |= SWAI_MTEG_SEED; break;
		case 'T': flags |= SWAI_MTEG_TM; break;
		case 'D': flags |= SWAI_MTEG_CARD; break;
		case 'j': json = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	algo = flags & SWAI_MTEG_TM ? "MTEGCCA" : "MTEG-EA";
	coll = swai_coll_parse(coll_name);
	if (coll < 0)
		swai_cli_bad(PROG, "-c", coll_name, "allgather, broadcast, alltoall, reducescatter "
			     "or allreduce");
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (coll == SWAI_COLL_REDUCE) {
		fprintf(stderr, PROG ": %s: the synthesizer makes allgather, broadcast, alltoall, "
			"reducescatter and allreduce\n", coll_name);
		return 2;
	}
	if (coll == SWAI_COLL_ALLTOALL && (flags & SWAI_MTEG_TM)) {
		fprintf(stderr, PROG ": --tm: seed 003's MTEGCCA is of broadcasts; alltoall's "
			"demands are planned by ours (MTEG-EA) only\n");
		return 2;
	}
	base = coll == SWAI_COLL_ALLTOALL ? "DIRECT" : "RING";
	if (milp && coll != SWAI_COLL_ALLGATHER && coll != SWAI_COLL_BROADCAST) {
		fprintf(stderr, PROG ": --milp: seed 003's model is of broadcasts (allgather, "
			"broadcast); %s is planned by %s only\n", coll_name,
			coll == SWAI_COLL_ALLTOALL ? "its demands' paths" : "the reverse-tree argument");
		return 2;
	}
	if ((flags & SWAI_MTEG_CARD) && (flags & SWAI_MTEG_SEED || milp)) {
		fprintf(stderr, PROG ": --card plans by the card's costs, by bytes: not with "
			"--seed-rule or --milp (the MILP has no engine held from slot 0)\n");
		return 2;
	}
	if (chassis && nodes) {
		fprintf(stderr, PROG ": --chassis or --nodes, not both\n");
		return 2;
	}
	if (chassis)
		topo = chassis_pattern(topo, chassis, pattern, sizeof(pattern), &nodes);
	if (swai_topo_load_nodes(&t, topo, nodes, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	block = swai_coll_block_bytes((enum swai_coll)coll, t.ncards, size);
	t0 = now_s();
	ret = synth(&t, (enum swai_coll)coll, root, block, &chunks, H, flags, &s, &res, why,
		    sizeof(why));
	/* what planning took: the bounds (an LP where it is worth one) are not planning */
	solve = now_s() - t0 - (ret ? 0 : res.bound_s);
	if (ret) {
		fprintf(stderr, PROG ": %s on %s: %s%s\n", coll_name, t.name, why,
			ret == -ENOMEM ? " (too large an instance for this machine's memory: fewer "
			"cards, chassis or chunks)" : "");
		swai_topo_free(&t);
		return 1;
	}
	if (swai_sched_verify(&s, why, sizeof(why))) {
		fprintf(stderr, PROG ": the synthesized schedule is wrong: %s\n", why);
		swai_sched_free(&s);
		swai_topo_free(&t);
		return 1;
	}
	if (model) {
		mine = model_us(&s, &t, block);
		if (!swai_gen_build(&ring, base, (enum swai_coll)coll, t.ncards,
				    &(struct swai_gen_opts){ .root = root }, why, sizeof(why))) {
			ring_us = model_us(&ring, &t, block);
			swai_sched_free(&ring);
		}
	}
	if (milp) {
		ret = run_milp(&t, (enum swai_coll)coll, root, block, chunks, flags, res.H, res.slots, milp,
			       out || xml || model ? &ms : NULL, &mr, &tau_us, why, sizeof(why));
		if (ret) {
			fprintf(stderr, PROG ": the MILP on %s: %s\n", t.name, why);
			swai_sched_free(&s);
			swai_topo_free(&t);
			return 1;
		}
		if (model)
			milp_model = model_us(&ms, &t, block);
		if (out || xml) {
			swai_sched_free(&s);
			s = ms;
		} else if (model) {
			swai_sched_free(&ms);
		}
	}
	if (json) {
		printf("{\"kind\":\"synth\",\"topology\":\"%s\",\"coll\":\"%s\",\"ranks\":%d,"
		       "\"bytes\":%llu,\"chunks\":%u,\"slots_H\":%d,\"slots\":%d,\"solve_s\":%.6f,"
		       "\"completion_us\":%.3f,\"lower_bound_us\":%.3f,\"bound_s\":%.6f,"
		       "\"algbw_gbps\":%.3f,\"algo\":\"%s\"", t.name, coll_name, t.ncards,
		       (unsigned long long)size, chunks, res.H, res.slots, solve, res.completion_us,
		       res.lower_bound_us, res.bound_s, algbw(size, res.completion_us), algo);
		if (model && mine >= 0)
			printf(",\"model_us\":%.3f", mine);
		if (model && ring_us >= 0)
			printf(",\"%s_model_us\":%.3f", coll == SWAI_COLL_ALLTOALL ? "direct" : "ring",
			       ring_us);
		if (milp)
			print_milp(true, algo, &mr, res.slots, tau_us, milp, milp_model);
		printf("}\n");
	} else {
		printf("# swccl-synth %s on %s (%d cards), %llu bytes, %u chunk(s) a block: %s\n"
		       "solve %.4f s, %d of %d slots: completion %.2f us (algbw %.2f GB/s), "
		       "lower bound %.2f us (%.1f %% above)\n", coll_name, t.name, t.ncards,
		       (unsigned long long)size, chunks, algo, solve, res.slots, res.H,
		       res.completion_us, algbw(size, res.completion_us), res.lower_bound_us,
		       res.lower_bound_us > 0 ? 100 * (res.completion_us / res.lower_bound_us - 1) : 0);
		if (model && ring_us >= 0)
			printf("cost model: this schedule %.2f us, %s %.2f us\n", mine, base, ring_us);
		else if (model)
			printf("cost model: this schedule %.2f us (%s does not fit %s)\n", mine, base,
			       t.name);
		if (milp)
			print_milp(false, algo, &mr, res.slots, tau_us, milp, milp_model);
	}
	ret = 0;
	if (out)
		ret |= write_file(out, swai_sched_dump(&s));
	if (xml)
		ret |= write_file(xml, swai_msccl_export(&s));
	swai_sched_free(&s);
	swai_topo_free(&t);
	return ret;
}
