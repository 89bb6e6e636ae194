// SPDX-License-Identifier: MIT
/*
 * swai-synth-test.c - the synthesizer on the host (ASan/UBSan): the MTEG's
 * slots and edges, a Takahashi-Matsuyama tree on a line of three cards
 * (and a second one that finds the first one's edges taken), MTEGCCA's
 * schedules verified on fingerprints, with and without switches,
 * AllToAll's relayed paths, AllGather's packing LP (CLP), and the MILP
 * (CBC) on instances whose optimum is known.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-milp.h"
#include "swai-mteg.h"
#include "swai-mteg-trees.h"
#include "tap.h"

/* a -- b at 50 GB/s, b -- c at 25 GB/s, no latency: L = 1 and 2 slots. */
static const char *line3 =
	"{\"swai_topology\": 1, \"name\": \"line3\", \"nodes\": [{\"name\": \"n\", \"cards\": 3}],"
	" \"link_defaults\": {\"mbps\": 50000, \"latency_ns\": 0},"
	" \"links\": [{\"ends\": [\"n.c0\", \"n.c1\"]},"
	"            {\"ends\": [\"n.c1\", \"n.c2\"], \"mbps\": 25000}]}";

static void test_mteg(void)
{
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];

	CHECK_EQ(swai_topo_parse(&t, line3, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 10, 0, why, sizeof(why)), 0);
	CHECK_EQ(m.nedges, 4);
	/* tau = 1 MiB / 50 GB/s */
	CHECK_EQ(m.tau_ps, swai_timing_ps(1 << 20, 50000));
	for (int i = 0; i < m.nedges; i++)
		CHECK_EQ(m.e[i].L, m.e[i].mbps == 50000 ? 1 : 2);
	/* every edge into a card is listed under it */
	for (int v = 0; v < 3; v++)
		for (int k = m.in_off[v]; k < m.in_off[v + 1]; k++)
			CHECK_EQ(m.e[m.in[k]].v, v);
	CHECK_EQ(m.in_off[3], 4);
	swai_mteg_free(&m);
	/* latency counts whole slots: 1 us at tau = 1 MiB / 50 GB/s is one more */
	t.links[0].latency_ns = 1000;
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 10, 0, why, sizeof(why)), 0);
	CHECK_EQ(m.e[0].L, 2);
	swai_mteg_free(&m);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 0, 0, why, sizeof(why)), -EINVAL);
	swai_topo_free(&t);
}

static void test_tm_tree(void)
{
	struct swai_mteg_hop hops[9];
	int nhops, arrive[3];
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];

	CHECK_EQ(swai_topo_parse(&t, line3, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 6, SWAI_MTEG_SEED, why, sizeof(why)), 0);
	/* from a at slot 0: b at 1, c two slots later */
	CHECK_EQ(swai_mteg_tree(&m, 0, hops, &nhops, arrive), 0);
	CHECK_EQ(nhops, 2);
	CHECK_EQ(arrive[0], 0);
	CHECK_EQ(arrive[1], 1);
	CHECK_EQ(arrive[2], 3);
	/* the same again: a -> b in slot 0 is taken, so it waits a slot */
	CHECK_EQ(swai_mteg_tree(&m, 0, hops, &nhops, arrive), 0);
	CHECK_EQ(arrive[1], 2);
	CHECK_EQ(arrive[2], 4);
	for (int i = 0; i < nhops; i++)
		CHECK_EQ(hops[i].t, m.e[hops[i].e].u == 0 ? 1 : 2);
	/* each later copy waits a slot more, until c is out of the 6 slots */
	CHECK_EQ(swai_mteg_tree(&m, 0, hops, &nhops, arrive), 0);
	CHECK_EQ(arrive[2], 5);
	CHECK_EQ(swai_mteg_tree(&m, 0, hops, &nhops, arrive), 0);
	CHECK_EQ(arrive[2], 6);
	CHECK_EQ(swai_mteg_tree(&m, 0, hops, &nhops, arrive), -ENOSPC);
	CHECK_EQ(nhops, 0);
	swai_mteg_free(&m);
	swai_topo_free(&t);
}

static void test_ea(void)
{
	struct swai_mteg_hop hops[9], last;
	struct swai_mteg_result res, tm;
	int nhops, arrive[3];
	struct swai_sched s;
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];

	CHECK_EQ(swai_topo_parse(&t, line3, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 8, 0, why, sizeof(why)), 0);
	/* b at 1; c two slots later, its 25 GB/s link busy both */
	CHECK_EQ(swai_mteg_tree_ea(&m, 0, hops, &nhops, arrive), 0);
	CHECK_EQ(nhops, 2);
	CHECK_EQ(arrive[1], 1);
	CHECK_EQ(arrive[2], 3);
	/* again: a -> b waits a slot, b -> c until its link is free at 3 */
	CHECK_EQ(swai_mteg_tree_ea(&m, 0, hops, &nhops, arrive), 0);
	CHECK_EQ(arrive[1], 2);
	CHECK_EQ(arrive[2], 5);
	/* from c: b's link to a is free, c -> b is not taken either way */
	CHECK_EQ(swai_mteg_tree_ea(&m, 2, hops, &nhops, arrive), 0);
	CHECK_EQ(arrive[1], 2);
	CHECK_EQ(arrive[0], 3);
	/* the fourth copy from a reaches c at 7 (b -> c busy to 6): the fifth not in 8 */
	CHECK_EQ(swai_mteg_tree_ea(&m, 0, hops, &nhops, arrive), 0);
	CHECK_EQ(arrive[2], 7);
	last = hops[nhops - 1];
	CHECK_EQ(swai_mteg_tree_ea(&m, 0, hops, &nhops, arrive), -ENOSPC);
	CHECK_EQ(nhops, 0);
	/* cut to the 7 slots the plan ends by: what is taken stays taken */
	CHECK_EQ(swai_mteg_trim(&m, 9), -EINVAL);
	CHECK_EQ(swai_mteg_trim(&m, 7), 0);
	CHECK_EQ(m.H, 7);
	CHECK(!swai_mteg_edge_free(&m, &m.e[last.e], last.t));
	CHECK_EQ(swai_mteg_tree_ea(&m, 0, hops, &nhops, arrive), -ENOSPC);
	swai_mteg_free(&m);

	/*
	 * List timing (swai_mteg_retime) on the same line: four trees, every
	 * hop of the one with the longest way below first.  a -> b -> c and
	 * c -> b -> a (3 slots below) and b -> c (2) leave at 0; a -> b alone
	 * (1) waits for a's link, goes at 1; a's chunk waits at b for b's
	 * link to c until 2, lands at 4.
	 */
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 8, 0, why, sizeof(why)), 0);
	{
		static const int path[4][2][2] = {
			{ { 0, 1 }, { 1, 2 } }, { { 0, 1 } }, { { 2, 1 }, { 1, 0 } }, { { 1, 2 } },
		};
		static const int when[4][2] = { { 0, 2 }, { 1 }, { 0, 2 }, { 0 } };
		int nh[4] = { 2, 1, 2, 1 }, slots = 8;
		struct swai_mteg_hop plan[8] = { { 0 } };

		for (int i = 0; i < 4; i++)
			for (int k = 0; k < nh[i]; k++)
				for (int e = 0; e < m.nedges; e++)
					if (m.e[e].u == path[i][k][0] && m.e[e].v == path[i][k][1])
						plan[2 * i + k].e = e;
		CHECK_EQ(swai_mteg_retime(&m, 4, 2, plan, nh, &slots), 0);
		CHECK_EQ(slots, 4);
		for (int i = 0; i < 4; i++)
			for (int k = 0; k < nh[i]; k++)
				CHECK_EQ(plan[2 * i + k].t, when[i][k]);
		/* no sooner than 4: the plan as it was */
		plan[0].t = 7;
		CHECK_EQ(swai_mteg_retime(&m, 4, 2, plan, nh, &slots), 0);
		CHECK_EQ(slots, 4);
		CHECK_EQ(plan[0].t, 7);
	}
	swai_mteg_free(&m);
	swai_topo_free(&t);

	/*
	 * NDv2 x 2, 64 MiB: 8 chunks down one InfiniBand link, then across the
	 * chassis -- ours meets the bound; the seed's MTEGCCA does not.  Each
	 * chunk crosses the switch once (16 hops between the chassis, not more).
	 */
	CHECK_EQ(swai_topo_load(&t, "ndv2x2", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_ALLGATHER, 0, 4 << 20, 1, 0, 0, &s, &res, why,
				 sizeof(why)), 0);
	CHECK(res.completion_us == res.lower_bound_us);
	{
		int across = 0;

		for (int r = 0; r < s.nranks; r++)
			for (int k = 0; k < s.ranks[r].nsteps; k++)
				across += s.ranks[r].steps[k].op == SWAI_STEP_SEND &&
					  t.devs[t.card_dev[r]].node !=
					  t.devs[t.card_dev[s.ranks[r].steps[k].peer]].node;
		CHECK_EQ(across, 16);
	}
	swai_sched_free(&s);
	CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_ALLGATHER, 0, 4 << 20, 1, 0, SWAI_MTEG_TM, &s, &tm,
				 why, sizeof(why)), 0);
	CHECK(tm.completion_us > res.completion_us);
	swai_sched_free(&s);
	swai_topo_free(&t);
}

static void test_synth_presets(void)
{
	static const char *const presets[] = { "mesh8", "ring8", "ndv2", "pcie8", "ndv2x2",
					       "dgx1", "amd", "dgx2x2" };

	for (size_t p = 0; p < sizeof(presets) / sizeof(presets[0]); p++)
		for (int k = 0; k < 8; k++)
			for (uint32_t chunks = 1; chunks <= 4; chunks *= 2) {
				static const enum swai_coll colls[] = {
					SWAI_COLL_ALLGATHER, SWAI_COLL_BROADCAST,
					SWAI_COLL_REDUCESCATTER, SWAI_COLL_ALLREDUCE
				};
				enum swai_coll c = colls[k & 3];
				struct swai_mteg_result res;
				struct swai_sched s;
				struct swai_topo t;
				char why[256];
				int ret;
				/*
				 * The seed's TM trees sweep every (card, slot): not at 16+
				 * cards.  Ours searches at 1 and 2 chunks (seconds under
				 * ASan at 4).
				 */
				unsigned flags = k & 4 ? SWAI_MTEG_TM :
						 chunks == 4 ? SWAI_MTEG_QUICK : 0;

				if (flags && p >= 6)
					continue;
				CHECK_EQ(swai_topo_load(&t, presets[p], why, sizeof(why)), 0);
				ret = swai_mteg_synth(&t, c, 3, 1 << 20, chunks, 0, flags, &s, &res,
						      why, sizeof(why));
				if (ret)
					printf("# %s %s: %s\n", presets[p], swai_coll_name(c), why);
				CHECK_EQ(ret, 0);
				if (!ret) {
					ret = swai_sched_verify(&s, why, sizeof(why));
					if (ret)
						printf("# %s %s: %s\n", presets[p],
						       swai_coll_name(c), why);
					CHECK_EQ(ret, 0);
					CHECK(res.completion_us >= res.lower_bound_us);
					CHECK(res.slots <= res.H);
					swai_sched_free(&s);
				}
				swai_topo_free(&t);
			}
	/* what it does not take yet, it says */
	{
		struct swai_mteg_result res;
		struct swai_sched s;
		struct swai_topo t;
		char why[256];

		CHECK_EQ(swai_topo_load(&t, "pcie8", why, sizeof(why)), 0);
		CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_REDUCE, 0, 1 << 20, 1, 0, 0, &s, &res,
					 why, sizeof(why)), -EINVAL);
		CHECK(strstr(why, "alltoall, reducescatter and allreduce") != NULL);
		CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_BROADCAST, 8, 1 << 20, 1, 0, 0, &s, &res,
					 why, sizeof(why)), -EINVAL);
		CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_ALLGATHER, 0, 1 << 20, 1, 2, 0, &s, &res,
					 why, sizeof(why)), -ENOSPC);
		CHECK(strstr(why, "--slots") != NULL);
		swai_topo_free(&t);
	}
}

/*
 * AllToAll's demands: earliest-arrival paths, relayed through SCRATCH where
 * no link joins two cards (line3's a and c, a DGX-1's two-hop pairs), one
 * hop a message where every pair has its link (mesh8, at the bound).
 */
static void test_alltoall(void)
{
	static const char *const presets[] = { "mesh8", "ring8", "ndv2", "pcie8", "ndv2x2",
					       "dgx1", "amd" };
	struct swai_mteg_hop hops[3];
	struct swai_mteg_result res;
	int nhops, arrive;
	struct swai_sched s;
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];

	CHECK_EQ(swai_topo_parse(&t, line3, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 8, 0, why, sizeof(why)), 0);
	/* a -> c through b: a -> b at 0 (1 slot), b -> c at 1 (2 slots) */
	CHECK_EQ(swai_mteg_path_ea(&m, 0, 2, hops, &nhops, &arrive), 0);
	CHECK_EQ(nhops, 2);
	CHECK_EQ(m.e[hops[0].e].u, 0);
	CHECK_EQ(m.e[hops[1].e].v, 2);
	CHECK_EQ(hops[1].t, 1);
	CHECK_EQ(arrive, 3);
	/* a second chunk: b -> c is busy until 3 */
	CHECK_EQ(swai_mteg_path_ea(&m, 0, 2, hops, &nhops, &arrive), 0);
	CHECK_EQ(hops[1].t, 3);
	CHECK_EQ(arrive, 5);
	/* b -> a is free: one hop; a path that cannot end by H takes nothing */
	CHECK_EQ(swai_mteg_path_ea(&m, 1, 0, hops, &nhops, &arrive), 0);
	CHECK_EQ(nhops, 1);
	CHECK_EQ(arrive, 1);
	CHECK_EQ(swai_mteg_path_ea(&m, 0, 2, hops, &nhops, &arrive), 0);
	CHECK_EQ(arrive, 7);
	CHECK_EQ(swai_mteg_path_ea(&m, 0, 2, hops, &nhops, &arrive), -ENOSPC);
	CHECK_EQ(nhops, 0);
	/*
	 * The flow bound: b -> c carries a's and b's chunks for c, 2 slots
	 * each -- 4 slots a chunk a demand, where the volume argument says 3
	 * (12 link-slots over 4 links).
	 */
	CHECK_EQ(swai_mteg_flow_bound(&m, 1), 4);
	CHECK_EQ(swai_mteg_flow_bound(&m, 2), 8);
	CHECK(swai_mteg_lower_bound(&m, SWAI_COLL_ALLTOALL, 0, 1) >= 4);
	swai_mteg_free(&m);
	CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_ALLTOALL, 0, 1 << 20, 2, 0, 0, &s, &res, why,
				 sizeof(why)), 0);
	CHECK_EQ(swai_sched_verify(&s, why, sizeof(why)), 0);
	CHECK_EQ(s.scratch_chunks, 4u);	/* b relays a's two chunks to c and c's two to a */
	CHECK(res.completion_us >= res.lower_bound_us);
	swai_sched_free(&s);
	/* seed 003's MTEGCCA is of broadcasts */
	CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_ALLTOALL, 0, 1 << 20, 1, 0, SWAI_MTEG_TM, &s, &res,
				 why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "broadcasts") != NULL);
	swai_topo_free(&t);

	for (size_t p = 0; p < sizeof(presets) / sizeof(presets[0]); p++)
		for (uint32_t chunks = 1; chunks <= 4; chunks *= 2) {
			int ret;

			CHECK_EQ(swai_topo_load(&t, presets[p], why, sizeof(why)), 0);
			ret = swai_mteg_synth(&t, SWAI_COLL_ALLTOALL, 0, 1 << 20, chunks, 0, 0, &s,
					      &res, why, sizeof(why));
			if (ret)
				printf("# %s alltoall: %s\n", presets[p], why);
			CHECK_EQ(ret, 0);
			if (ret) {
				swai_topo_free(&t);
				continue;
			}
			ret = swai_sched_verify(&s, why, sizeof(why));
			if (ret)
				printf("# %s alltoall: %s\n", presets[p], why);
			CHECK_EQ(ret, 0);
			CHECK(res.completion_us >= res.lower_bound_us);
			if (!strcmp(presets[p], "mesh8")) {
				CHECK(res.completion_us == res.lower_bound_us);
				CHECK_EQ(s.scratch_chunks, 0u);
			}
			if (!strcmp(presets[p], "dgx1"))
				CHECK(s.scratch_chunks > 0);
			swai_sched_free(&s);
			swai_topo_free(&t);
		}

	/* rerouted, AMD's demands end no later and stay paths from their source to their card */
	{
		struct swai_mteg_plan pl;
		int slots, again, src, dst;

		CHECK_EQ(swai_topo_load(&t, "amd", why, sizeof(why)), 0);
		CHECK_EQ(swai_mteg_plan(&t, SWAI_COLL_ALLTOALL, 0, 1 << 16, 1, 0, 0, &pl, &res, why,
					sizeof(why)), 0);
		slots = again = res.slots;
		CHECK_EQ(swai_mteg_reroute(&pl.m, pl.ntrees, pl.room, pl.hops, pl.nhops, &again,
					   3, 1000), 0);
		CHECK(again <= slots);
		for (int i = 0; i < pl.ntrees; i++) {
			const struct swai_mteg_hop *h = &pl.hops[(size_t)i * pl.room];

			swai_mteg_demand(pl.m.ncards, 1, (size_t)i, &src, &dst);
			CHECK_EQ(pl.nhops[i] > 0, src != dst);
			for (int k = 0; k < pl.nhops[i]; k++) {
				CHECK_EQ(pl.m.e[h[k].e].u, k ? pl.m.e[h[k - 1].e].v : src);
				CHECK(!k || h[k].t >= h[k - 1].t + pl.m.e[h[k - 1].e].L);
			}
			CHECK(!pl.nhops[i] || pl.m.e[h[pl.nhops[i] - 1].e].v == dst);
		}
		swai_mteg_plan_free(&pl);
		swai_topo_free(&t);
	}
}

/* Four cards in a ring at 50 GB/s, no latency: every link 1 slot. */
static const char *ring4 =
	"{\"swai_topology\": 1, \"name\": \"ring4\", \"nodes\": [{\"name\": \"n\", \"cards\": 4}],"
	" \"link_defaults\": {\"mbps\": 50000, \"latency_ns\": 0},"
	" \"links\": [{\"ends\": [\"n.c0\", \"n.c1\"]}, {\"ends\": [\"n.c1\", \"n.c2\"]},"
	"            {\"ends\": [\"n.c2\", \"n.c3\"]}, {\"ends\": [\"n.c3\", \"n.c0\"]}]}";

/* Two nodes of two cards, each pair behind a switch, the switches joined at a top one. */
static const char *pairs2 =
	"{\"swai_topology\": 1, \"name\": \"pairs2\","
	" \"nodes\": [{\"name\": \"a\", \"cards\": 2}, {\"name\": \"b\", \"cards\": 2}],"
	" \"switches\": [{\"name\": \"top\", \"latency_ns\": 0},"
	"                {\"name\": \"asw\", \"latency_ns\": 0}, {\"name\": \"bsw\", \"latency_ns\": 0}],"
	" \"link_defaults\": {\"mbps\": 50000, \"latency_ns\": 0},"
	" \"links\": [{\"ends\": [\"a.c0\", \"a.c1\"]}, {\"ends\": [\"b.c0\", \"b.c1\"]},"
	"            {\"ends\": [\"a.c0\", \"asw\"]}, {\"ends\": [\"a.c1\", \"asw\"]},"
	"            {\"ends\": [\"b.c0\", \"bsw\"]}, {\"ends\": [\"b.c1\", \"bsw\"]},"
	"            {\"ends\": [\"asw\", \"top\"], \"mbps\": 25000},"
	"            {\"ends\": [\"bsw\", \"top\"], \"mbps\": 25000}]}";

/*
 * One chunk's trees (source 0 or every card) checked on the MTEG itself --
 * a schedule's verify does not look at links: each card takes the chunk
 * once, from a card that holds it, by slot H; no link direction carries
 * two chunks in one slot.
 */
static void check_hops(const struct swai_mteg *m, enum swai_coll coll,
		       const struct swai_mteg_hop *hops, const int *nhops)
{
	int N = m->ncards, ntrees = coll == SWAI_COLL_ALLGATHER ? N : 1, arrive[16];
	unsigned char *used = calloc((size_t)m->nres * (size_t)(m->H + 1), 1);

	CHECK(used && N <= 16);
	for (int k = 0; used && N <= 16 && k < ntrees; k++) {
		const struct swai_mteg_hop *h = &hops[(size_t)k * N * N];

		for (int v = 0; v < N; v++)
			arrive[v] = v == k ? 0 : -1;
		for (int j = 0; j < nhops[k]; j++) {
			const struct swai_mteg_edge *e = &m->e[h[j].e];

			CHECK(arrive[e->v] < 0);
			arrive[e->v] = h[j].t + e->L;
			CHECK(arrive[e->v] <= m->H);
		}
		for (int j = 0; j < nhops[k]; j++) {
			const struct swai_mteg_edge *e = &m->e[h[j].e];

			CHECK(arrive[e->u] >= 0 && arrive[e->u] <= h[j].t);
			for (int x = 0; x < e->nhops; x++)
				for (int b = 0; b < e->busy[x]; b++) {
					unsigned char *u = &used[(size_t)e->res[x] * (m->H + 1) +
								 (size_t)(h[j].t + e->at[x] + b)];

					CHECK(!*u);
					*u = 1;
				}
		}
		for (int v = 0; v < N; v++)
			CHECK(arrive[v] >= 0);
	}
	free(used);
}

/*
 * The MILP of @coll on @text's MTEG of @H slots, without a start; its
 * result, and its hops as a schedule verified on fingerprints.
 */
static struct swai_milp_result milp_on(const char *text, enum swai_coll coll, int H)
{
	struct swai_milp_result res = { .status = -2 };
	struct swai_mteg_hop *hops;
	struct swai_sched s;
	struct swai_topo t;
	struct swai_mteg m;
	int *nhops, ntrees;
	char why[256];

	CHECK_EQ(swai_topo_parse(&t, text, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, H, 0, why, sizeof(why)), 0);
	ntrees = coll == SWAI_COLL_ALLGATHER ? t.ncards : 1;
	hops = malloc((size_t)ntrees * t.ncards * t.ncards * sizeof(*hops));
	nhops = calloc((size_t)ntrees, sizeof(*nhops));
	CHECK(hops && nhops);
	if (hops && nhops) {
		CHECK_EQ(swai_milp_solve(&m, coll, 0, 1, 10, NULL, NULL, hops, nhops, &res, why,
					 sizeof(why)), 0);
		for (int k = 0; res.status == 0 && k < ntrees; k++)
			CHECK_EQ(nhops[k], t.ncards - 1);   /* one arrival a card */
		if (res.status == 0)
			check_hops(&m, coll, hops, nhops);
	}
	if (res.status == 0) {
		CHECK_EQ(swai_mteg_schedule(&m, "MILP", coll, 0, 1, hops, nhops, &s, why,
					    sizeof(why)), 0);
		CHECK_EQ(swai_sched_verify(&s, why, sizeof(why)), 0);
		swai_sched_free(&s);
	}
	free(hops);
	free(nhops);
	swai_mteg_free(&m);
	swai_topo_free(&t);
	return res;
}

static void test_milp_optimum(void)
{
	struct swai_milp_result res;

	/* line3 from c0: b at 1, c two slots later -- nothing faster, at any H */
	res = milp_on(line3, SWAI_COLL_BROADCAST, 6);
	CHECK_EQ(res.status, 0);
	CHECK_EQ(res.slots, 3);
	CHECK(res.bound_slots > 2.5);
	CHECK(res.ncols > 0 && res.nrows > 0);
	/* ... and in 2 slots c cannot have it */
	res = milp_on(line3, SWAI_COLL_BROADCAST, 2);
	CHECK_EQ(res.status, -1);
	/*
	 * ring4 AllGather: a card takes in 3 chunks over 2 links, so 2 slots at
	 * least; and 2 do: both neighbours' chunks in slot 0, the far card's
	 * from one neighbour in slot 1.
	 */
	res = milp_on(ring4, SWAI_COLL_ALLGATHER, 6);
	CHECK_EQ(res.status, 0);
	CHECK_EQ(res.slots, 2);
	/*
	 * pairs2 AllGather: a pair takes in the other's two blocks through the
	 * one link from the top switch (2 slots each), and it is 3 slots from a
	 * source to there (its switch link and the pair's way up) and 3 on to a
	 * card: the cut over that link bounds it at 3 + 2 + 3 = 8 slots, where
	 * the cards' own switch links (1 slot each) would say 6.  The optimum,
	 * 9, takes one slot more: the second block lands on one card of the
	 * pair and the other then needs it.
	 */
	res = milp_on(pairs2, SWAI_COLL_ALLGATHER, 12);
	CHECK_EQ(res.status, 0);
	CHECK_EQ(res.slots, 9);
	{
		struct swai_topo t;
		struct swai_mteg m;
		char why[256];

		CHECK_EQ(swai_topo_parse(&t, pairs2, why, sizeof(why)), 0);
		CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 12, 0, why, sizeof(why)), 0);
		CHECK_EQ(swai_mteg_cut_bound(&m, SWAI_COLL_ALLGATHER, 0, 1), 8);
		swai_mteg_free(&m);
		swai_topo_free(&t);
	}
}

/*
 * pairs2 as one node of four cards: a pair behind the top switch.  A
 * Broadcast from c0 of 3 chunks (1 MiB, a slot at 50 GB/s): each card of
 * the far pair has two links in (its switch's and its partner's) and the
 * node holds the root, so the cheap cuts give 7 slots; the pair together
 * takes every chunk through the one 25 GB/s link from the top switch, 2
 * slots a chunk, which gives 10.  CBC proves 11 (in a second).
 */
static void test_subset_bound(void)
{
	static const char *pair1 =
		"{\"swai_topology\": 1, \"name\": \"pair1\","
		" \"nodes\": [{\"name\": \"n\", \"cards\": 4}],"
		" \"switches\": [{\"name\": \"top\", \"latency_ns\": 0},"
		"                {\"name\": \"asw\", \"latency_ns\": 0}, {\"name\": \"bsw\", \"latency_ns\": 0}],"
		" \"link_defaults\": {\"mbps\": 50000, \"latency_ns\": 0},"
		" \"links\": [{\"ends\": [\"n.c0\", \"n.c1\"]}, {\"ends\": [\"n.c2\", \"n.c3\"]},"
		"            {\"ends\": [\"n.c0\", \"asw\"]}, {\"ends\": [\"n.c1\", \"asw\"]},"
		"            {\"ends\": [\"n.c2\", \"bsw\"]}, {\"ends\": [\"n.c3\", \"bsw\"]},"
		"            {\"ends\": [\"asw\", \"top\"], \"mbps\": 25000},"
		"            {\"ends\": [\"bsw\", \"top\"], \"mbps\": 25000}]}";
	struct swai_milp_result res = { .status = -2 };
	struct swai_mteg_hop *hops = malloc(4 * 16 * sizeof(*hops));
	int nhops[4], cut, sets;
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];

	CHECK_EQ(swai_topo_parse(&t, pair1, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 12, 0, why, sizeof(why)), 0);
	cut = swai_mteg_cut_bound(&m, SWAI_COLL_BROADCAST, 0, 3);
	sets = swai_mteg_subset_bound(&m, SWAI_COLL_BROADCAST, 0, 3);
	CHECK_EQ(cut, 7);
	CHECK_EQ(sets, 10);
	CHECK_EQ(swai_mteg_lower_bound(&m, SWAI_COLL_BROADCAST, 0, 3), 10);
	CHECK(hops != NULL);
	if (hops) {
		CHECK_EQ(swai_milp_solve(&m, SWAI_COLL_BROADCAST, 0, 3, 30, NULL, NULL, hops,
					 nhops, &res, why, sizeof(why)), 0);
		CHECK_EQ(res.status, 0);
		CHECK_EQ(res.slots, 11);
	}
	free(hops);
	swai_mteg_free(&m);
	swai_topo_free(&t);
}

/*
 * MTEGCCA's trees on ndv2 as the MIP start, with so little time that CBC
 * cannot prove much: it still ends with a solution, no later than theirs.
 */
static void test_milp_start(void)
{
	struct swai_milp_result res;
	struct swai_mteg_result mr;
	struct swai_mteg_plan p;
	struct swai_mteg_hop *hops;
	struct swai_sched s;
	struct swai_topo t;
	char why[256];
	int *nhops;

	CHECK_EQ(swai_topo_load(&t, "ndv2", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_ALLGATHER, 0, 1 << 17, 1, 0, 0, &s, &mr, why,
				 sizeof(why)), 0);
	swai_sched_free(&s);
	CHECK_EQ(swai_mteg_plan(&t, SWAI_COLL_ALLGATHER, 0, 1 << 17, 1, mr.slots, 0, &p, &mr, why,
				sizeof(why)), 0);
	CHECK_EQ(p.m.H, mr.slots);
	hops = malloc((size_t)p.ntrees * 64 * sizeof(*hops));
	nhops = calloc((size_t)p.ntrees, sizeof(*nhops));
	CHECK(hops && nhops);
	if (hops && nhops) {
		CHECK_EQ(swai_milp_solve(&p.m, SWAI_COLL_ALLGATHER, 0, 1, 0.05, p.hops, p.nhops,
					 hops, nhops, &res, why, sizeof(why)), 0);
		CHECK(res.status == 0 || res.status == 1);
		CHECK(res.slots >= 1 && res.slots <= mr.slots);
		CHECK(res.bound_slots <= res.slots + 1e-6);
		CHECK(res.solve_s < 3);
		check_hops(&p.m, SWAI_COLL_ALLGATHER, hops, nhops);
		CHECK_EQ(swai_mteg_schedule(&p.m, "MILP", SWAI_COLL_ALLGATHER, 0, 1, hops, nhops, &s,
					    why, sizeof(why)), 0);
		CHECK_EQ(swai_sched_verify(&s, why, sizeof(why)), 0);
		swai_sched_free(&s);
		/* a start that does not reach every card is refused by name */
		nhops[3] = 0;
		CHECK_EQ(swai_milp_solve(&p.m, SWAI_COLL_ALLGATHER, 0, 1, 1, hops, nhops, hops,
					 nhops, &res, why, sizeof(why)), -EINVAL);
		CHECK(strstr(why, "MIP start") != NULL);
	}
	free(hops);
	free(nhops);
	swai_mteg_plan_free(&p);
	swai_topo_free(&t);
}

/* What it will not build, it says before it builds it. */
static void test_milp_refusals(void)
{
	struct swai_milp_result res;
	struct swai_mteg_hop hop;
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];
	int nhops[1024];

	CHECK_EQ(swai_topo_load(&t, "mesh8", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 16, 400, 0, why, sizeof(why)), 0);
	CHECK_EQ(swai_milp_solve(&m, SWAI_COLL_ALLGATHER, 0, 16, 1, NULL, NULL, &hop, nhops, &res,
				 why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "columns") != NULL && strstr(why, "heuristic") != NULL);
	CHECK_EQ(swai_milp_solve(&m, SWAI_COLL_ALLREDUCE, 0, 1, 1, NULL, NULL, &hop, nhops, &res,
				 why, sizeof(why)), -EINVAL);
	CHECK_EQ(swai_milp_solve(&m, SWAI_COLL_BROADCAST, 8, 1, 1, NULL, NULL, &hop, nhops, &res,
				 why, sizeof(why)), -EINVAL);
	CHECK_EQ(swai_milp_solve(&m, SWAI_COLL_BROADCAST, 0, 1, 0, NULL, NULL, &hop, nhops, &res,
				 why, sizeof(why)), -EINVAL);
	swai_mteg_free(&m);
	swai_topo_free(&t);
}


/*
 * The packing LP (swai_mteg_pack): on a DGX-1 every card takes in 7 blocks
 * through links worth 3 chunks a slot, and the LP finds that cut among all
 * of them; the plan that follows it beats earliest-arrival trees alone
 * (681.6 us at 64 MiB, 16 chunks); a quota that shuts a card out is
 * dropped; too large an LP is refused.
 */
static void test_pack(void)
{
	struct swai_mteg_hop hops[9];
	struct swai_mteg_result res;
	int nhops, arrive[3];
	struct swai_sched s;
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];
	double T, *x;

	CHECK_EQ(swai_topo_load(&t, "dgx1", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 512 << 10, 128, 0, why, sizeof(why)), 0);
	x = calloc((size_t)m.ncards * (size_t)m.nedges, sizeof(*x));
	CHECK_EQ(swai_mteg_pack(&m, 16, x, &T), 0);
	CHECK(T > 112.0 / 3 - 1e-6 && T < 112.0 / 3 + 1e-6);
	for (int src = 0; src < m.ncards; src++)
		for (int v = 0; v < m.ncards; v++) {
			double in = 0;

			for (int k = m.in_off[v]; k < m.in_off[v + 1]; k++)
				in += x[(size_t)src * (size_t)m.nedges + (size_t)m.in[k]];
			CHECK(v == src || in > 1 - 1e-6);
		}
	/* Broadcast's: card 3's block alone, spanning trees from it; less load than all eight */
	{
		double Tb;

		memset(x, 0, (size_t)m.ncards * (size_t)m.nedges * sizeof(*x));
		CHECK_EQ(swai_mteg_pack_root(&m, 16, 3, x, &Tb), 0);
		/* its 16 chunks out over the root's links: 16 / 3 slots of the busiest */
		CHECK(Tb > 16.0 / 3 - 1e-6 && Tb < 16.0 / 3 + 1e-6 && Tb < T);
		for (int v = 0; v < m.ncards; v++) {
			double in = 0;

			for (int k = m.in_off[v]; k < m.in_off[v + 1]; k++)
				in += x[3 * (size_t)m.nedges + (size_t)m.in[k]];
			CHECK(v == 3 || in > 1 - 1e-6);
		}
	}
	free(x);
	CHECK_EQ(swai_mteg_lower_bound(&m, SWAI_COLL_ALLGATHER, 0, 16), 38);
	swai_mteg_free(&m);
	CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_ALLGATHER, 0, 8 << 20, 16, 0, 0, &s, &res, why,
				 sizeof(why)), 0);
	CHECK(res.completion_us <= 1.05 * res.lower_bound_us);
	CHECK(res.completion_us >= res.lower_bound_us);
	CHECK_EQ(swai_sched_verify(&s, why, sizeof(why)), 0);
	swai_sched_free(&s);

	/*
	 * Timed again and rerouted, a plan ends no later, and every hop leaves
	 * a card that holds its chunk.
	 */
	{
		struct swai_mteg_plan pl;
		int slots, again;

		CHECK_EQ(swai_mteg_plan(&t, SWAI_COLL_ALLGATHER, 0, 8 << 20, 4, 0, 0, &pl, &res, why,
					sizeof(why)), 0);
		slots = again = res.slots;
		CHECK_EQ(swai_mteg_retime(&pl.m, pl.ntrees, pl.room, pl.hops, pl.nhops, &again), 0);
		CHECK(again <= slots);
		slots = again;
		CHECK_EQ(swai_mteg_reroute(&pl.m, pl.ntrees, pl.room, pl.hops, pl.nhops, &again,
					   2, 1000), 0);
		CHECK(again <= slots);
		/* a kick plans 3 trees again: the seed moves on, every tree is whole */
		{
			uint64_t seed = 1, was = seed;
			int kicked = 0;

			CHECK_EQ(swai_mteg_kick(&pl.m, pl.ntrees, pl.room, pl.hops, pl.nhops, 3,
						&seed, &kicked), 0);
			CHECK(seed != was && kicked > 0);
			for (int i = 0; i < pl.ntrees; i++)
				CHECK_EQ(pl.nhops[i], 7);
			again = kicked;
		}
		for (int i = 0; i < pl.ntrees; i++) {
			int held[8];

			for (int v = 0; v < 8; v++)
				held[v] = v == i / 4 ? 0 : -1;
			for (int k = 0; k < pl.nhops[i]; k++) {
				const struct swai_mteg_hop *h = &pl.hops[(size_t)i * pl.room + (size_t)k];

				CHECK(held[pl.m.e[h->e].u] >= 0 && h->t >= held[pl.m.e[h->e].u]);
				held[pl.m.e[h->e].v] = h->t + pl.m.e[h->e].L;
				CHECK(held[pl.m.e[h->e].v] <= again);
			}
		}
		swai_mteg_plan_free(&pl);
	}
	swai_topo_free(&t);

	/* a quota of nothing anywhere: the tree goes on without it */
	CHECK_EQ(swai_topo_parse(&t, line3, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 8, 0, why, sizeof(why)), 0);
	m.left = calloc((size_t)m.ncards * (size_t)m.nedges, sizeof(*m.left));
	CHECK_EQ(swai_mteg_tree_ea(&m, 0, hops, &nhops, arrive), 0);
	CHECK_EQ(arrive[2], 3);
	CHECK_EQ(m.left[m.nedges * 0 + hops[0].e], -1);
	swai_mteg_free(&m);
	swai_topo_free(&t);

	CHECK_EQ(swai_topo_load(&t, "dgx2x2", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 64, 0, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_pack(&m, 4, NULL, &T), -E2BIG);
	swai_mteg_free(&m);
	swai_topo_free(&t);
}

/*
 * Trees that share the links evenly (swai_mteg_mwu_trees): on a DGX-1 at
 * 16 chunks a block, every tree spans the cards from its source, each hop
 * leaving a card already in it, and the busiest link carries at most one
 * chunk-slot more than the packing LP's busiest rounded up (every card
 * takes in 112 chunks over links of 3 chunks a slot: 37.3); list timing
 * then ends them by slot 40, where the earliest-arrival trees planned one
 * after another end at 65.
 */
static void test_mwu(void)
{
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];
	struct swai_mteg_trees p = { .coll = SWAI_COLL_ALLGATHER, .nsrc = 8, .chunks = 16 };
	size_t room = swai_mteg_room(SWAI_COLL_ALLGATHER, 8);
	long load[256] = { 0 }, most = 0;
	int slots;

	CHECK_EQ(swai_topo_load(&t, "dgx1", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 512 << 10, 128, 0, why, sizeof(why)), 0);
	CHECK(m.nres <= 256);
	p.hops = calloc(128 * room, sizeof(*p.hops));
	p.nhops = calloc(128, sizeof(*p.nhops));
	CHECK_EQ(swai_mteg_mwu_trees(&m, &p, 10, 2, 40, false), 0);
	for (int i = 0; i < 128; i++) {
		bool in[8] = { false };

		in[i / 16] = true;
		CHECK_EQ(p.nhops[i], 7);
		for (int k = 0; k < p.nhops[i]; k++) {
			const struct swai_mteg_edge *e = &m.e[p.hops[(size_t)i * room + (size_t)k].e];

			CHECK(in[e->u] && !in[e->v]);
			in[e->v] = true;
			for (int x = 0; x < e->nhops; x++)
				load[e->res[x]] += e->busy[x];
		}
	}
	for (int r = 0; r < m.nres; r++)
		most = load[r] > most ? load[r] : most;
	CHECK(most <= 39);
	slots = m.H + 1;
	CHECK_EQ(swai_mteg_retime(&m, 128, room, p.hops, p.nhops, &slots), 0);
	CHECK(slots <= 40);
	free(p.hops);
	free(p.nhops);
	swai_mteg_free(&m);
	swai_topo_free(&t);
}

/*
 * Node 0's own plan on every node (swai_mteg_replicate): on AMD x 2 in 2
 * chunks every tree spans the 32 cards from its source, enters the other
 * chassis once, over the edge from its source to the card in its place
 * there, and each chassis' part is a tree of direct links; one node
 * (DGX-1) and cards joined only through a switch (DGX-2 x 2) are refused.
 */
static void test_replicate(void)
{
	struct swai_mteg_trees p = { .coll = SWAI_COLL_ALLGATHER, .nsrc = 32, .chunks = 2 };
	size_t room = swai_mteg_room(SWAI_COLL_ALLGATHER, 32);
	struct swai_mteg_hop *hops = NULL;
	struct swai_mteg_result r;
	struct swai_mteg_plan sub;
	struct swai_topo t, one;
	struct swai_mteg m;
	int *nhops = NULL;
	char why[256];

	CHECK_EQ(swai_topo_load(&t, "amdx2", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 64 << 10, 256, 0, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_replicate_nodes(&m, &p), 16);
	/* node 0 alone, 2 nodes x 2 chunks of 64 KiB a block, on its direct links */
	swai_topo_init(&one);
	CHECK_EQ(swai_topo_scale(&one, &t, 1, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_plan(&one, SWAI_COLL_ALLGATHER, 0, 4 * (64 << 10), 4, 0,
				SWAI_MTEG_DIRECT, &sub, &r, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_replicate(&m, &p, &sub, &hops, &nhops), 0);
	swai_mteg_plan_free(&sub);
	swai_topo_free(&one);
	for (int i = 0; i < 64; i++) {
		int src = i / 2, across = 0;
		bool in[32] = { false };

		in[src] = true;
		CHECK_EQ(nhops[i], 31);
		for (int k = 0; k < nhops[i]; k++) {
			const struct swai_mteg_edge *e = &m.e[hops[(size_t)i * room + (size_t)k].e];

			CHECK(in[e->u] && !in[e->v]);
			in[e->v] = true;
			if (m.node_of[e->u] != m.node_of[e->v]) {
				across++;
				CHECK(e->u == src && e->v % 16 == src % 16);
			} else {
				CHECK_EQ(e->nlinks, 1);
			}
		}
		CHECK_EQ(across, 1);
	}
	swai_mteg_free(&m);
	swai_topo_free(&t);
	free(hops);
	free(nhops);
	CHECK_EQ(swai_topo_load(&t, "dgx2x2", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 64 << 10, 256, 0, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_replicate_nodes(&m, &p), -ENOTSUP);
	swai_mteg_free(&m);
	swai_topo_free(&t);
	p.nsrc = 8;
	CHECK_EQ(swai_topo_load(&t, "dgx1", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 64 << 10, 256, 0, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_replicate_nodes(&m, &p), -ENOTSUP);
	swai_mteg_free(&m);
	swai_topo_free(&t);
}

/* Four cards on one switch, 30 us a link: a chunk's hop costs far more than its slot. */
static const char *star4 =
	"{\"swai_topology\": 1, \"name\": \"star4\", \"nodes\": [{\"name\": \"n\", \"cards\": 4}],"
	" \"switches\": [{\"name\": \"sw\", \"latency_ns\": 0}],"
	" \"link_defaults\": {\"mbps\": 50000, \"latency_ns\": 30000},"
	" \"links\": [{\"star\": \"sw\", \"members\": [\"n.*\"]}]}";

/*
 * The fan-out cap: without it the source sends all three copies through
 * its one port, a slot apart (a star: each copy is a whole hop earlier
 * than a relay); capped at 1, a card whose offer from the source was
 * overtaken comes through a card that holds the chunk instead.
 */
static void test_fanout(void)
{
	struct swai_mteg_hop hops[16];
	int nhops, arrive[4], from0;
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];

	CHECK_EQ(swai_topo_parse(&t, star4, why, sizeof(why)), 0);
	for (int cap = 0; cap <= 1; cap++) {
		CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 64, 0, why, sizeof(why)), 0);
		m.fanout = cap;
		CHECK_EQ(swai_mteg_tree_ea(&m, 0, hops, &nhops, arrive), 0);
		CHECK_EQ(nhops, 3);
		from0 = 0;
		for (int k = 0; k < nhops; k++)
			from0 += m.e[hops[k].e].u == 0;
		CHECK_EQ(from0, cap ? 1 : 3);
		CHECK(arrive[1] > 0 && arrive[2] > 0 && arrive[3] > 0);
		swai_mteg_free(&m);
	}
	swai_topo_free(&t);
}

/* Two nodes of 3 and 2 cards, every card on one switch. */
static const char *uneven =
	"{\"swai_topology\": 1, \"name\": \"uneven\","
	" \"nodes\": [{\"name\": \"a\", \"cards\": 3}, {\"name\": \"b\", \"cards\": 2}],"
	" \"switches\": [{\"name\": \"sw\", \"latency_ns\": 0}],"
	" \"link_defaults\": {\"mbps\": 50000, \"latency_ns\": 700},"
	" \"links\": [{\"star\": \"sw\", \"members\": [\"a.*\", \"b.*\"]}]}";

/*
 * Nodes alike (swai-mteg-nodes.c), on AMD x 2 in chunks of 512 KiB (2.6 us
 * a slot): each source's block goes once into the other chassis, to its
 * counterpart, and every card of both is reached from it; the relaxation
 * with the other chassis merged bounds the AllGather at 74 slots, and the
 * cuts at 92: a chassis takes in 64 chunks through the 8 links from the
 * top switch, 8 slots each, the first there 18 slots after it left its
 * source and the last landing 18 after it started (through the 16 links
 * into the cards, 69); one chassis has neither.
 */
static void test_nodes(void)
{
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];
	double *x;
	int cut;

	CHECK_EQ(swai_topo_load(&t, "amdx2", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 512 << 10, 256, 0, why, sizeof(why)), 0);
	x = calloc((size_t)m.ncards * (size_t)m.nedges, sizeof(*x));
	CHECK_EQ(swai_mteg_pack_nodes(&m, 4, x), 0);
	for (int src = 0; src < m.ncards; src++) {
		const double *xs = &x[(size_t)src * (size_t)m.nedges];
		int crossings = 0;

		for (int e = 0; e < m.nedges; e++) {
			if (m.node_of[m.e[e].u] == m.node_of[m.e[e].v] || xs[e] == 0)
				continue;
			crossings++;
			CHECK_EQ(m.e[e].u, src);
			CHECK_EQ(m.e[e].v, (src + 16) % 32);
			CHECK(xs[e] == 1);
		}
		CHECK_EQ(crossings, 1);
		for (int v = 0; v < m.ncards; v++) {
			double in = 0;

			for (int k = m.in_off[v]; k < m.in_off[v + 1]; k++)
				in += xs[m.in[k]];
			CHECK(v == src || in > 1 - 1e-6);
		}
	}
	free(x);
	cut = swai_mteg_cut_bound(&m, SWAI_COLL_ALLGATHER, 0, 4);
	CHECK_EQ(cut, 92);
	CHECK_EQ(swai_mteg_node_bound(&m, 4), 74);
	CHECK_EQ(swai_mteg_lower_bound(&m, SWAI_COLL_ALLGATHER, 0, 4), 92);
	swai_mteg_free(&m);
	swai_topo_free(&t);

	CHECK_EQ(swai_topo_load(&t, "amd", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 64, 0, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_pack_nodes(&m, 4, NULL), -ENOTSUP);
	CHECK_EQ(swai_mteg_node_bound(&m, 4), 0);
	swai_mteg_free(&m);
	swai_topo_free(&t);

	/*
	 * Nodes of 3 and 2 cards on one switch: not alike, so no quotas; the
	 * relaxation still bounds a plan (the 2 blocks from outside come in
	 * over node 0's 3 ports) and no plan beats it.
	 */
	CHECK_EQ(swai_topo_parse(&t, uneven, why, sizeof(why)), 0);
	{
		struct swai_mteg_plan pl;
		struct swai_mteg_result res;
		int nb;

		CHECK_EQ(swai_mteg_plan(&t, SWAI_COLL_ALLGATHER, 0, 1 << 20, 4, 0, 0, &pl, &res,
					why, sizeof(why)), 0);
		CHECK_EQ(swai_mteg_pack_nodes(&pl.m, 4, NULL), -ENOTSUP);
		nb = swai_mteg_node_bound(&pl.m, 4);
		CHECK(nb > 0 && nb <= res.slots);
		swai_mteg_plan_free(&pl);
	}
	swai_topo_free(&t);

	/* NDv2 x 3: the bound is a bound (the cuts are tight there) */
	CHECK_EQ(swai_topo_load_nodes(&t, "ndv2x2", 3, why, sizeof(why)), 0);
	{
		struct swai_mteg_plan pl;
		struct swai_mteg_result res;
		int nb;

		CHECK_EQ(swai_mteg_plan(&t, SWAI_COLL_ALLGATHER, 0, 1 << 20, 1, 0, 0, &pl, &res,
					why, sizeof(why)), 0);
		nb = swai_mteg_node_bound(&pl.m, 1);
		CHECK(nb > 0 && nb <= res.slots);
		swai_mteg_plan_free(&pl);
	}
	swai_topo_free(&t);
}

/*
 * --card (SWAI_MTEG_CARD): line3's edges also hold their sender's engine
 * from the COPY's issue to the landing, a slot is at most a quarter of a
 * wake-up, the launch is before slot 0; backwards (a reduction) the receiver's engine
 * reduces before the links and the sender's engine holds on after them; on
 * dgx1 every card's own copy comes first, a card sends one chunk at a time,
 * the schedules verify and pin the plan's order, a reduction's sums wait
 * landed for engines that never do two things at once, and AllReduce pays
 * one launch.
 */
/*
 * In the card's slots a rank runs its steps in the plan's order: every step
 * that is not a receive waits for the receive listed before it.
 */
static void check_plan_order(const struct swai_sched *s)
{
	for (int r = 0; r < s->nranks; r++) {
		const struct swai_sched_rank *rk = &s->ranks[r];
		int last = -1;

		for (int i = 0; i < rk->nsteps; i++) {
			const struct swai_step *st = &rk->steps[i];
			bool recv = st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE;
			bool held = last < 0;

			for (uint32_t d = 0; d < st->ndeps; d++)
				held |= rk->deps[st->deps_at + d] == (uint32_t)last;
			CHECK(recv || held);
			last = recv ? i : last;
		}
	}
}

/*
 * A ReduceScatter on dgx1 in the card's slots, timed with its reductions
 * apart from their COPYs (swai_mteg_fold_time): some landed sums wait, and
 * in the time the plan runs in no engine does two things at once -- a
 * hop's COPY holds its sender's engine from T - t - L - wait for the
 * links and the issue, its reduction the receiver's up to T - t.
 */
static void check_folds(const struct swai_topo *t)
{
	struct swai_mteg_result res;
	struct swai_mteg_plan pl;
	char why[256];
	int waited = 0;

	CHECK_EQ(swai_mteg_plan(t, SWAI_COLL_ALLGATHER, 0, 128 << 10, 1, 0,
				SWAI_MTEG_CARD | SWAI_MTEG_TRANSPOSE, &pl, &res, why, sizeof(why)), 0);
	CHECK(pl.wait != NULL);
	for (int i = 0; pl.wait && i < pl.ntrees; i++) {
		for (int j = 0; j < pl.nhops[i]; j++) {
			const struct swai_mteg_hop *h = &pl.hops[(size_t)i * pl.room + (size_t)j];
			const struct swai_mteg_edge *e = &pl.m.e[h->e];
			int w = pl.wait[(size_t)i * pl.room + (size_t)j];
			int end = res.slots - h->t, copy = end - e->L - w;

			CHECK(w >= 0);
			waited += w > 0;
			for (int k = 0; k < pl.ntrees; k++) {
				for (int l = 0; l < pl.nhops[k]; l++) {
					const struct swai_mteg_hop *g = &pl.hops[(size_t)k * pl.room +
										  (size_t)l];
					const struct swai_mteg_edge *f = &pl.m.e[g->e];
					int fend = res.slots - g->t;
					int fcopy = fend - f->L - pl.wait[(size_t)k * pl.room + (size_t)l];
					int R = e->busy[e->nlinks], fR = f->busy[f->nlinks];
					int S = e->busy[e->nlinks + 1], fS = f->busy[f->nlinks + 1];

					if (g == h)
						continue;
					/* reductions on u, COPYs on v: apart on one card */
					if (e->u == f->u)
						CHECK(end <= fend - fR || fend <= end - R);
					if (e->v == f->v)
						CHECK(copy + S <= fcopy || fcopy + fS <= copy);
					if (e->u == f->v)
						CHECK(end <= fcopy || fcopy + fS <= end - R);
				}
			}
		}
	}
	CHECK(waited > 0);
	swai_mteg_plan_free(&pl);
}

static void test_card(void)
{
	static const enum swai_coll colls[] = {
		SWAI_COLL_ALLGATHER, SWAI_COLL_BROADCAST, SWAI_COLL_ALLTOALL,
		SWAI_COLL_REDUCESCATTER, SWAI_COLL_ALLREDUCE
	};
	struct swai_timing_props p;
	struct swai_mteg_result res, plain;
	struct swai_mteg_plan pl;
	struct swai_sched s;
	struct swai_topo t;
	struct swai_mteg m;
	char why[256];

	swai_timing_props_init(&p);
	CHECK_EQ(swai_topo_parse(&t, line3, why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 4096, SWAI_MTEG_CARD, why, sizeof(why)), 0);
	CHECK_EQ(m.nres, swai_topo_nresources(&t) + 3);
	CHECK(4 * m.tau_ps <= swai_timing_ns_to_ps(p.t_barrier_ns) + 3);
	CHECK_EQ(m.fixed_ps, swai_timing_ns_to_ps(p.t_launch_ns));
	for (int i = 0; i < m.nedges; i++) {
		const struct swai_mteg_edge *e = &m.e[i];
		int k = e->nhops - 1;

		CHECK_EQ(e->nlinks, 1);
		CHECK_EQ(e->nhops, 2);
		CHECK_EQ(e->res[k], m.nres - 3 + e->u);
		CHECK_EQ(e->at[k], 0);
		/* the link after the step; the engine to the landing; the wake-up after */
		CHECK((uint64_t)e->at[0] * m.tau_ps >= swai_timing_ns_to_ps(p.t_step_ns));
		CHECK_EQ(e->busy[k], e->at[0] + e->busy[0]);
		CHECK(e->L > e->busy[k]);
	}
	swai_mteg_free(&m);
	/* backwards, u's engine reduces first, then the links, then v's engine sends */
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 4096, SWAI_MTEG_CARD | SWAI_MTEG_TRANSPOSE, why,
				 sizeof(why)), 0);
	for (int i = 0; i < m.nedges; i++) {
		const struct swai_mteg_edge *e = &m.e[i];

		CHECK_EQ(e->nlinks, 1);
		CHECK_EQ(e->nhops, 3);
		CHECK_EQ(e->res[1], m.nres - 3 + e->u);
		CHECK_EQ(e->res[2], m.nres - 3 + e->v);
		CHECK_EQ(e->at[1], 0);
		CHECK((uint64_t)e->busy[1] * m.tau_ps >= swai_timing_ns_to_ps(p.t_barrier_ns));
		CHECK_EQ(e->at[0], e->busy[1]);
		CHECK_EQ(e->at[2], e->busy[1]);
		/* the send's issue: the last slots backwards, after the links */
		CHECK((uint64_t)(e->L - e->at[0] - e->busy[0]) * m.tau_ps >=
		      swai_timing_ns_to_ps(p.t_step_ns));
		CHECK_EQ(e->at[2] + e->busy[2], e->L);
	}
	swai_mteg_free(&m);
	CHECK_EQ(swai_mteg_build(&m, &t, 1 << 20, 64, SWAI_MTEG_CARD | SWAI_MTEG_SEED, why,
				 sizeof(why)), -EINVAL);
	swai_topo_free(&t);

	CHECK_EQ(swai_topo_load(&t, "dgx1", why, sizeof(why)), 0);
	CHECK_EQ(swai_mteg_plan(&t, SWAI_COLL_ALLGATHER, 0, 128 << 10, 1, 0, SWAI_MTEG_CARD, &pl,
				&res, why, sizeof(why)), 0);
	check_hops(&pl.m, SWAI_COLL_ALLGATHER, pl.hops, pl.nhops);
	CHECK(pl.m.hold != NULL);
	for (int i = 0; pl.m.hold && i < pl.ntrees; i++)
		for (int j = 0; j < pl.nhops[i]; j++) {
			const struct swai_mteg_hop *h = &pl.hops[(size_t)i * pl.room + (size_t)j];

			CHECK(h->t >= pl.m.hold[pl.m.e[h->e].u]);
		}
	CHECK_EQ((int64_t)(res.completion_us * 1e6 + 0.5),
		 (int64_t)((uint64_t)res.slots * pl.m.tau_ps + pl.m.fixed_ps));
	CHECK(res.lower_bound_us * 1e6 >= (double)pl.m.fixed_ps);
	swai_mteg_plan_free(&pl);
	/* the card's costs only add to what GPUs' slots promise */
	CHECK_EQ(swai_mteg_plan(&t, SWAI_COLL_ALLGATHER, 0, 128 << 10, 1, 0, 0, &pl, &plain, why,
				sizeof(why)), 0);
	CHECK(res.lower_bound_us > plain.completion_us);
	swai_mteg_plan_free(&pl);
	for (size_t c = 0; c < sizeof(colls) / sizeof(colls[0]); c++) {
		int ret = swai_mteg_synth(&t, colls[c], 2, 128 << 10, 2, 0, SWAI_MTEG_CARD, &s,
					  &res, why, sizeof(why));

		CHECK_EQ(ret, 0);
		if (!ret) {
			CHECK_EQ(swai_sched_verify(&s, why, sizeof(why)), 0);
			check_plan_order(&s);
			swai_sched_free(&s);
		}
	}
	check_folds(&t);
	/*
	 * AllReduce is ReduceScatter's slots (on blocks of a rank's data / 8),
	 * then AllGather's, after one launch; the bound below the plan.
	 */
	CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_REDUCESCATTER, 0, 16 << 10, 1, 0, SWAI_MTEG_CARD,
				 &s, &plain, why, sizeof(why)), 0);
	swai_sched_free(&s);
	CHECK_EQ(swai_mteg_synth(&t, SWAI_COLL_ALLREDUCE, 0, 128 << 10, 1, 0, SWAI_MTEG_CARD, &s,
				 &res, why, sizeof(why)), 0);
	swai_sched_free(&s);
	CHECK(res.lower_bound_us <= res.completion_us);
	CHECK(res.slots > plain.slots);
	{
		double launch_us = (double)swai_timing_ns_to_ps(p.t_launch_ns) / 1e6;
		double tau_us = (plain.completion_us - launch_us) / plain.slots;

		CHECK(fabs(res.completion_us - launch_us - res.slots * tau_us) < 1e-3);
	}
	swai_topo_free(&t);
}

static const struct tap_test tests[] = {
	{ "MTEG: slot length, slots per link, edges by card", test_mteg },
	{ "TM tree on a line: arrivals, taken edges, too few slots", test_tm_tree },
	{ "MTEG-EA and MTEGCCA: AllGather, Broadcast, ReduceScatter, AllReduce on 8 presets verify",
	  test_synth_presets },
	{ "MTEG-EA: earliest arrivals on a line, list timing by the way below, a chunk enters a "
	  "node once, tight on NDv2 x 2",
	  test_ea },
	{ "AllToAll: earliest paths relayed on a line, its flow bound, 7 presets verify, mesh8 at "
	  "the bound, AMD's paths rerouted",
	  test_alltoall },
	{ "MWU trees: DGX-1's span every card, its busiest link within a slot of the packing's, "
	  "timed by slot 40",
	  test_mwu },
	{ "node 0's plan on every node: AMD x 2's trees span, cross once to their place, direct "
	  "links inside; one node and DGX-2 x 2 refused",
	  test_replicate },
	{ "packing LP: DGX-1's cut, a Broadcast's (the root's trees alone), quotas followed and "
	  "dropped, too large refused; a plan timed again and rerouted", test_pack },
	{ "fan-out cap through a switch: a star without it, a relay with it", test_fanout },
	{ "nodes: AMD x 2's blocks cross once, to their counterparts; its merged-chassis bound 74 "
	  "slots, the cuts' 92 through the top switch; uneven nodes and NDv2 x 3 bounded, never "
	  "above a plan",
	  test_nodes },
	{ "--card: a send holds its card's engine, backwards the reduction's too, slots of at "
	  "most a quarter wake-up, the launch first; on dgx1 the copy first, one send at a time, five "
	  "collectives verify in the plan's order, sums wait for a free engine", test_card },
	{ "MILP: line3 Broadcast 3 slots (2 infeasible), ring4 AllGather 2, pairs2 AllGather 9 "
	  "over its cut bound of 8 through the top switch, schedules verify",
	  test_milp_optimum },
	{ "MILP: MTEGCCA's trees as MIP start on ndv2, a solution within 0.05 s, a bad start",
	  test_milp_start },
	{ "MILP: too many columns, bad collective, root, time limit refused", test_milp_refusals },
	{ "subset cuts: a pair behind one link bounds a Broadcast at 10 slots (cheap cuts 7, CBC 11)",
	  test_subset_bound },
};

TAP_MAIN(tests)
