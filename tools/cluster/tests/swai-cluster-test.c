// SPDX-License-Identifier: MIT
/*
 * swai-cluster-test.c - the cluster's two contracts on the host: the
 * topology file (presets, routes, errors) and the schedule format with
 * its generators, checked against seed 000's tables and by running every
 * schedule on fingerprints (swai_sched_verify).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-gen.h"
#include "swai-links.h"
#include "swai-msccl.h"
#include "swai-sched-cost.h"
#include "swai-sched.h"
#include "swai-topo.h"
#include "tap.h"

/* The step table of a schedule, as text (malloc'd). */
static char *table(const struct swai_sched *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	swai_sched_print_table(s, f);
	fclose(f);
	return buf;
}

/* Line "step k: ..." of @tab contains exactly the transfers in @want. */
static int has_step(const char *tab, int k, const char *want)
{
	char head[32], line[4096];
	const char *p;
	size_t n;

	snprintf(head, sizeof(head), "step %d:", k);
	p = strstr(tab, head);
	if (!p)
		return 0;
	n = strcspn(p, "\n");
	if (n >= sizeof(line))
		return 0;
	memcpy(line, p + strlen(head), n - strlen(head));
	line[n - strlen(head)] = 0;
	if (strcmp(line, want))
		printf("# step %d: got \"%s\"\n#          want \"%s\"\n", k, line, want);
	return !strcmp(line, want);
}

static void build_ok(struct swai_sched *s, const char *algo, enum swai_coll c, int n,
		     const struct swai_gen_opts *o)
{
	char why[256];
	int ret = swai_gen_build(s, algo, c, n, o, why, sizeof(why));

	if (ret)
		printf("# %s %s n=%d: %s\n", algo, swai_coll_name(c), n, why);
	CHECK_EQ(ret, 0);
}

/* Seed 000 §4.6: D for N = 3..16, and the D values sum to N - 1. */
static void test_nhr_d_table(void)
{
	static const int D[14][4] = {
		{ 1, 1 }, { 2, 1 }, { 2, 1, 1 }, { 3, 1, 1 }, { 3, 2, 1 }, { 4, 2, 1 },
		{ 4, 2, 1, 1 }, { 5, 2, 1, 1 }, { 5, 3, 1, 1 }, { 6, 3, 1, 1 },
		{ 6, 3, 2, 1 }, { 7, 3, 2, 1 }, { 7, 4, 2, 1 }, { 8, 4, 2, 1 },
	};

	for (int N = 3; N <= 16; N++) {
		int S = swai_nhr_steps(N);

		for (int k = 0; k < 4; k++)
			CHECK_EQ(k < S ? swai_nhr_slices(N, k) : 0, D[N - 3][k]);
	}
	for (int N = 2; N <= 4096; N++) {
		int sum = 0, S = swai_nhr_steps(N);

		for (int k = 0; k < S; k++)
			sum += swai_nhr_slices(N, k);
		CHECK_EQ(sum, N - 1);
		CHECK((1 << S) >= N && (1 << (S - 1)) < N);
	}
}

/* Seed 000 §4.2 and §4.3: the N = 4 tables, standard and reordered. */
static void test_nhr_n4_tables(void)
{
	struct swai_gen_opts bitrev = { .nhr_order = SWAI_NHR_BITREV };
	struct swai_sched s;
	char *t;

	build_ok(&s, "NHR", SWAI_COLL_REDUCESCATTER, 4, NULL);
	t = table(&s);
	CHECK(t && has_step(t, 0, " 0->3[1,3] 1->0[0,2] 2->1[1,3] 3->2[0,2]"));
	CHECK(t && has_step(t, 1, " 0->2[2] 1->3[3] 2->0[0] 3->1[1]"));
	free(t);
	swai_sched_free(&s);

	build_ok(&s, "NHR", SWAI_COLL_ALLGATHER, 4, NULL);
	t = table(&s);
	CHECK(t && has_step(t, 0, " 0->2[0] 1->3[1] 2->0[2] 3->1[3]"));
	CHECK(t && has_step(t, 1, " 0->1[0,2] 1->2[1,3] 2->3[0,2] 3->0[1,3]"));
	free(t);
	swai_sched_free(&s);

	/* AllReduce with the data reordering: RS steps 0-1, AG steps 2-3 */
	build_ok(&s, "NHR", SWAI_COLL_ALLREDUCE, 4, &bitrev);
	t = table(&s);
	CHECK(t && has_step(t, 0, " 0->3[2,3] 1->0[0,1] 2->1[2,3] 3->2[0,1]"));
	CHECK(t && has_step(t, 1, " 0->2[1] 1->3[3] 2->0[0] 3->1[2]"));
	CHECK(t && has_step(t, 2, " 0->2[0] 1->3[2] 2->0[1] 3->1[3]"));
	CHECK(t && has_step(t, 3, " 0->1[0,1] 1->2[2,3] 2->3[0,1] 3->0[2,3]"));
	free(t);
	swai_sched_free(&s);
}

/* The digest's test vectors (identity order) for N = 3, 5 and 6. */
static void test_nhr_vectors(void)
{
	static const struct {
		int N;
		enum swai_coll c;
		int step;
		const char *line;
	} v[] = {
		{ 3, SWAI_COLL_REDUCESCATTER, 0, " 0->2[2] 1->0[0] 2->1[1]" },
		{ 3, SWAI_COLL_REDUCESCATTER, 1, " 0->1[1] 1->2[2] 2->0[0]" },
		{ 3, SWAI_COLL_ALLGATHER, 0, " 0->2[0] 1->0[1] 2->1[2]" },
		{ 3, SWAI_COLL_ALLGATHER, 1, " 0->1[0] 1->2[1] 2->0[2]" },
		{ 5, SWAI_COLL_REDUCESCATTER, 0,
		  " 0->4[2,4] 1->0[0,3] 2->1[1,4] 3->2[0,2] 4->3[1,3]" },
		{ 5, SWAI_COLL_REDUCESCATTER, 2, " 0->1[1] 1->2[2] 2->3[3] 3->4[4] 4->0[0]" },
		{ 5, SWAI_COLL_ALLGATHER, 2,
		  " 0->1[0,3] 1->2[1,4] 2->3[0,2] 3->4[1,3] 4->0[2,4]" },
		{ 6, SWAI_COLL_REDUCESCATTER, 0,
		  " 0->5[1,3,5] 1->0[0,2,4] 2->1[1,3,5] 3->2[0,2,4] 4->3[1,3,5] 5->4[0,2,4]" },
		{ 6, SWAI_COLL_ALLGATHER, 1,
		  " 0->2[0] 1->3[1] 2->4[2] 3->5[3] 4->0[4] 5->1[5]" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct swai_sched s;
		char *t;

		build_ok(&s, "NHR", v[i].c, v[i].N, NULL);
		t = table(&s);
		CHECK(t && has_step(t, v[i].step, v[i].line));
		free(t);
		swai_sched_free(&s);
	}
}

/* Every generator, every collective it has, N = 1..40: right results. */
static void test_generators_verify(void)
{
	for (int g = 0; swai_gens[g]; g++) {
		for (int c = 0; c < SWAI_COLL_N; c++) {
			if (!(swai_gens[g]->colls & (1u << c)))
				continue;
			for (int N = 1; N <= 40; N++) {
				struct swai_gen_opts o = { .root = N > 2 ? N / 2 + 1 : 0 };
				struct swai_sched s;
				char why[256];

				if (swai_gen_build(&s, swai_gens[g]->name, c, N, &o, why,
						   sizeof(why))) {
					/* only HD alone may refuse, off powers of two */
					CHECK(!strcmp(swai_gens[g]->name, "HD") &&
					      (N & (N - 1)));
					continue;
				}
				if (swai_sched_verify(&s, why, sizeof(why))) {
					printf("# %s\n", why);
					CHECK(0);
				}
				swai_sched_free(&s);
			}
		}
	}
}

/*
 * RING's stride (the planes of a card's core groups): every coprime stride
 * of N = 1..24, every collective, right results; every send goes from r
 * to r + stride, so planes of different strides never share a link
 * direction; a stride that shares a factor with N is refused.  HD's, NHR's
 * and RB's AllReduce relabelled by every stride: right too.
 */
static void test_ring_stride(void)
{
	for (int N = 1; N <= 24; N++) {
		for (int st = 1; st < (N > 1 ? N : 2); st++) {
			int a = N, b = st;

			while (b) {
				int t = a % b;

				a = b;
				b = t;
			}
			for (int c = 0; c < SWAI_COLL_N; c++) {
				struct swai_gen_opts o = { .root = N / 2, .stride = st };
				struct swai_sched s;
				char why[256];

				if (!(swai_gen_ring.colls & (1u << c)))
					continue;
				if (a != 1) {
					CHECK(swai_gen_build(&s, "RING", c, N, &o, why, sizeof(why)));
					continue;
				}
				CHECK_EQ(swai_gen_build(&s, "RING", c, N, &o, why, sizeof(why)), 0);
				if (swai_sched_verify(&s, why, sizeof(why))) {
					printf("# N %d stride %d: %s\n", N, st, why);
					CHECK(0);
				}
				for (int r = 0; r < N; r++)
					for (int k = 0; k < s.ranks[r].nsteps; k++)
						if (s.ranks[r].steps[k].op == SWAI_STEP_SEND)
							CHECK_EQ(s.ranks[r].steps[k].peer, (r + st) % N);
				swai_sched_free(&s);
			}
			/* HD, NHR and RB relabel their AllReduce by it: still right */
			for (int g = 0; a == 1 && swai_gens[g]; g++) {
				struct swai_gen_opts o = { .stride = st };
				struct swai_sched s;
				char why[256];

				if (!swai_gens[g]->relabels ||
				    swai_gen_build(&s, swai_gens[g]->name, SWAI_COLL_ALLREDUCE, N,
						   &o, why, sizeof(why)))
					continue;
				if (swai_sched_verify(&s, why, sizeof(why))) {
					printf("# %s N %d stride %d: %s\n", swai_gens[g]->name, N, st,
					       why);
					CHECK(0);
				}
				swai_sched_free(&s);
			}
		}
	}
}

/* The @i-th SEND of rank @r in @s: its peer, or -1. */
static int nth_send(const struct swai_sched *s, int r, int i)
{
	for (int k = 0; k < s->ranks[r].nsteps; k++)
		if (s->ranks[r].steps[k].op == SWAI_STEP_SEND && !i--)
			return s->ranks[r].steps[k].peer;
	return -1;
}

/*
 * MESH's shift (the planes of a card's core groups): the same messages in
 * another order, verified, and at N = 8 the 4 planes' shifts send each
 * round's i-th message over 4 different links.
 */
static void test_mesh_shift(void)
{
	static const char *const mesh[] = { "MESH1", "MESH2" };

	for (int g = 0; g < 2; g++)
		for (int c = 0; c < SWAI_COLL_N; c++)
			for (int N = 2; N <= 9; N++)
				for (int sh = 0; sh < N - 1; sh++) {
					struct swai_gen_opts o0 = { .root = N / 2 }, o = o0;
					struct swai_sched a, b;
					char why[256];
					int sends = 0;

					o.shift = sh;
					if (swai_gen_build(&a, mesh[g], c, N, &o0, why, sizeof(why)))
						continue;
					build_ok(&b, mesh[g], c, N, &o);
					if (swai_sched_verify(&b, why, sizeof(why))) {
						printf("# %s\n", why);
						CHECK(0);
					}
					for (int r = 0; r < N; r++) {
						CHECK_EQ(a.ranks[r].nsteps, b.ranks[r].nsteps);
						while (nth_send(&b, r, sends) >= 0)
							sends++;
					}
					CHECK(sends > 0 || c == SWAI_COLL_REDUCE);
					if (c == SWAI_COLL_ALLREDUCE && N > 2)
						CHECK_EQ(nth_send(&b, 0, 0), sh + 1);
					swai_sched_free(&a);
					swai_sched_free(&b);
				}
	for (int i = 0; i < 7; i++) {
		uint32_t used = 0;

		for (int j = 0; j < 4; j++) {
			struct swai_gen_opts o = { .shift = j * 7 / 4 };
			struct swai_sched s;

			build_ok(&s, "MESH2", SWAI_COLL_ALLREDUCE, 8, &o);
			used |= 1u << nth_send(&s, 2, i);
			swai_sched_free(&s);
		}
		CHECK_EQ(__builtin_popcount(used), 4);
	}
}

/*
 * The issue order by its definition, slowly: repeatedly the lowest-indexed
 * step whose dependencies are done and whose earlier steps of its kind to
 * its peer are done -- one that cannot block if any, else a receive.
 */
static bool ref_ready(const struct swai_sched_rank *rk, int i, const bool *done)
{
	const struct swai_step *st = &rk->steps[i];
	bool recv = st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE;

	for (uint32_t d = 0; d < st->ndeps; d++)
		if (!done[rk->deps[st->deps_at + d]])
			return false;
	for (int j = 0; j < i; j++) {
		const struct swai_step *o = &rk->steps[j];
		bool orecv = o->op == SWAI_STEP_RECV || o->op == SWAI_STEP_RECV_REDUCE;

		if (!done[j] && st->peer >= 0 && o->peer == st->peer && orecv == recv &&
		    (o->op == SWAI_STEP_SEND) == (st->op == SWAI_STEP_SEND))
			return false;
	}
	return true;
}

static void ref_order(const struct swai_sched_rank *rk, int *order, bool *done)
{
	for (int i = 0; i < rk->nsteps; i++)
		done[i] = false;
	for (int n = 0; n < rk->nsteps; n++) {
		int pick = -1;

		for (int pass = 0; pass < 2 && pick < 0; pass++)
			for (int i = 0; i < rk->nsteps && pick < 0; i++) {
				const struct swai_step *st = &rk->steps[i];
				bool recv = st->op == SWAI_STEP_RECV ||
					    st->op == SWAI_STEP_RECV_REDUCE;

				if (!done[i] && (pass || !recv) && ref_ready(rk, i, done))
					pick = i;
			}
		order[n] = pick;
		if (pick >= 0)
			done[pick] = true;
	}
}

static void test_issue_order(void)
{
	int order[4096], ref[4096];
	bool done[4096];
	long ranks = 0;

	for (int g = 0; swai_gens[g]; g++)
		for (int c = 0; c < SWAI_COLL_N; c++)
			for (int N = 1; N <= 24; N++) {
				struct swai_gen_opts o = { .root = N / 2, .shift = N / 3 };
				struct swai_sched s;
				char why[256];

				if (!(swai_gens[g]->colls & (1u << c)) ||
				    swai_gen_build(&s, swai_gens[g]->name, c, N, &o, why, sizeof(why)))
					continue;
				for (int r = 0; r < N; r++, ranks++) {
					CHECK_EQ(swai_sched_issue_order(&s.ranks[r], order), 0);
					ref_order(&s.ranks[r], ref, done);
					CHECK(!memcmp(order, ref,
						      (size_t)s.ranks[r].nsteps * sizeof(int)));
				}
				swai_sched_free(&s);
			}
	printf("# %ld ranks of every generator's schedules, N = 1..24\n", ranks);
}

/*
 * swai_sched_pin_order: an AllGather on 2 ranks whose rank 0 lists its
 * receive before its send.  Issued freely the send goes first (it waits on
 * nothing); pinned, every rank issues its steps as listed, and the
 * schedule is still right.
 */
static void test_pin_order(void)
{
	struct swai_sched s;
	int order[8];
	char why[256];

	CHECK_EQ(swai_sched_init(&s, "PIN", SWAI_COLL_ALLGATHER, 2, 0, 1), 0);
	swai_sched_copy(&s, 0, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, 1, 0);
	swai_sched_recv(&s, 0, 1, SWAI_BUF_OUT, 1, 1, 0);
	swai_sched_send(&s, 0, 1, SWAI_BUF_OUT, 0, 1, 0);
	swai_sched_copy(&s, 1, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 1, 1, 0);
	swai_sched_send(&s, 1, 0, SWAI_BUF_OUT, 1, 1, 0);
	swai_sched_recv(&s, 1, 0, SWAI_BUF_OUT, 0, 1, 0);
	CHECK_EQ(swai_sched_autodeps(&s), 0);
	CHECK_EQ(swai_sched_issue_order(&s.ranks[0], order), 0);
	CHECK(order[1] == 2 && order[2] == 1);
	CHECK_EQ(swai_sched_pin_order(&s), 0);
	for (int r = 0; r < 2; r++) {
		CHECK_EQ(swai_sched_issue_order(&s.ranks[r], order), 0);
		for (int i = 0; i < s.ranks[r].nsteps; i++)
			CHECK_EQ(order[i], i);
	}
	CHECK_EQ(swai_sched_verify(&s, why, sizeof(why)), 0);
	swai_sched_free(&s);
}

/* NHR AllReduce in every order, and at sizes the seed does not tabulate. */
static void test_nhr_large(void)
{
	static const int sizes[] = { 63, 64, 100, 127 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int ord = 0; ord < 3; ord++) {
			struct swai_gen_opts o = { .nhr_order = ord };
			struct swai_sched s;
			char why[256];

			build_ok(&s, "NHR", SWAI_COLL_ALLREDUCE, sizes[i], &o);
			if (swai_sched_verify(&s, why, sizeof(why))) {
				printf("# %s\n", why);
				CHECK(0);
			}
			CHECK_EQ(swai_sched_rounds(&s), 2 * swai_nhr_steps(sizes[i]));
			swai_sched_free(&s);
		}
	}
}

/*
 * NHR AllReduce with its ReduceScatter messages in parts (nhr_split): the
 * same result, P times the ReduceScatter's messages, the AllGather's alone,
 * and refused past the chunk limit.
 */
static void test_nhr_split(void)
{
	static const int sizes[] = { 2, 3, 5, 7, 12, 13, 32 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int N = sizes[i];
		long whole[2] = { 0 };

		for (int P = 1; P <= 4; P++) {
			struct swai_gen_opts o = { .nhr_split = P };
			struct swai_sched s;
			long rs = 0, ag = 0;
			char why[256];

			build_ok(&s, "NHR", SWAI_COLL_ALLREDUCE, N, &o);
			CHECK_EQ(s.chunks, (uint32_t)(N * P));
			if (swai_sched_verify(&s, why, sizeof(why))) {
				printf("# N = %d, split %d: %s\n", N, P, why);
				CHECK(0);
			}
			for (int r = 0; r < N; r++)
				for (int k = 0; k < s.ranks[r].nsteps; k++)
					if (s.ranks[r].steps[k].op == SWAI_STEP_SEND) {
						bool in_rs = s.ranks[r].steps[k].round <
							     (uint32_t)swai_nhr_steps(N);

						rs += in_rs;
						ag += !in_rs;
					}
			if (P == 1) {
				whole[0] = rs;
				whole[1] = ag;
			}
			CHECK_EQ(rs, whole[0] * P);
			CHECK_EQ(ag, whole[1]);
			swai_sched_free(&s);
		}
	}
	{
		struct swai_gen_opts o = { .nhr_split = 512 };
		struct swai_sched s;
		char why[256];

		CHECK(swai_gen_build(&s, "NHR", SWAI_COLL_ALLREDUCE, 65536, &o, why,
				     sizeof(why)) == -EINVAL);
		CHECK(strstr(why, "chunks") != NULL);
	}
}

/* Reordering: bit-reversal is contiguous for 8, 16, 32 and 12; 5 cannot be. */
static void test_nhr_pieces(void)
{
	static const int contiguous[] = { 4, 8, 12, 16, 32, 64 };
	int tree[1024], most[16];

	for (size_t i = 0; i < sizeof(contiguous) / sizeof(contiguous[0]); i++) {
		int N = contiguous[i], S;

		CHECK_EQ(swai_nhr_order(N, SWAI_NHR_BITREV, tree), 0);
		S = swai_nhr_pieces(N, tree, most, 16);
		for (int k = 0; k < S; k++)
			CHECK_EQ(most[k], 1);
	}
	/* odd N: about sqrt(N) pieces at most, where the identity has N/2 */
	for (int N = 255; N <= 511; N += 128) {
		int S, worst = 0;

		CHECK_EQ(swai_nhr_order(N, SWAI_NHR_BEST, tree), 0);
		S = swai_nhr_pieces(N, tree, most, 16);
		for (int k = 0; k < S; k++)
			worst = most[k] > worst ? most[k] : worst;
		CHECK(worst <= 2 * 23 + 1 && (N != 255 || worst <= 9));
	}
	CHECK_EQ(swai_nhr_order(5, SWAI_NHR_BEST, tree), 0);
	swai_nhr_pieces(5, tree, most, 16);
	CHECK_EQ(most[0], 2);
	/* the best order is never worse than identity or bit-reversal */
	for (int N = 2; N <= 200; N += N < 40 ? 1 : 37) {
		int w[3] = { 0 };

		for (int ord = 0; ord < 3; ord++) {
			int S;

			swai_nhr_order(N, ord, tree);
			S = swai_nhr_pieces(N, tree, most, 16);
			for (int k = 0; k < S; k++)
				w[ord] += most[k];
		}
		CHECK(w[SWAI_NHR_BEST] <= w[SWAI_NHR_IDENTITY] &&
		      w[SWAI_NHR_BEST] <= w[SWAI_NHR_BITREV]);
	}
}

/* A schedule missing a dependency is caught by the latest-first run. */
static void test_verify_catches(void)
{
	struct swai_sched s;
	char why[256];

	build_ok(&s, "RING", SWAI_COLL_ALLREDUCE, 4, NULL);
	for (int r = 0; r < s.nranks; r++)
		for (int i = 0; i < s.ranks[r].nsteps; i++)
			s.ranks[r].steps[i].ndeps = 0;
	CHECK(swai_sched_verify(&s, why, sizeof(why)) != 0);
	CHECK(strstr(why, "latest-first") != NULL);
	swai_sched_free(&s);

	/* double counting: one receive turned into a reduce of the same chunk */
	build_ok(&s, "MESH2", SWAI_COLL_ALLREDUCE, 3, NULL);
	for (int i = 0; i < s.ranks[1].nsteps; i++) {
		struct swai_step *st = &s.ranks[1].steps[i];

		if (st->op == SWAI_STEP_RECV && st->round == 1) {
			st->op = SWAI_STEP_RECV_REDUCE;
			st->src_buf = st->dst_buf;
			st->src_off = st->dst_off;
			break;
		}
	}
	CHECK(swai_sched_verify(&s, why, sizeof(why)) != 0);
	swai_sched_free(&s);

	/* an unmatched send is not well formed */
	build_ok(&s, "RING", SWAI_COLL_ALLGATHER, 3, NULL);
	s.ranks[0].steps[1].count = 2;
	CHECK_EQ(swai_sched_validate(&s, why, sizeof(why)), -EINVAL);
	swai_sched_free(&s);
}

static void test_gen_errors(void)
{
	struct swai_sched s;
	char why[256];

	CHECK_EQ(swai_gen_build(&s, "NOPE", SWAI_COLL_ALLREDUCE, 4, NULL, why,
				sizeof(why)), -EINVAL);
	CHECK(strstr(why, "NOPE") != NULL);
	CHECK_EQ(swai_gen_build(&s, "HD", SWAI_COLL_ALLGATHER, 6, NULL, why,
				sizeof(why)), -EINVAL);
	CHECK(strstr(why, "power-of-two") != NULL);
	CHECK_EQ(swai_gen_build(&s, "MESH2", SWAI_COLL_ALLGATHER, 4, NULL, why,
				sizeof(why)), -EINVAL);
	CHECK_EQ(swai_gen_build(&s, "RING", SWAI_COLL_BROADCAST, 4,
				&(struct swai_gen_opts){ .root = 4 }, why, sizeof(why)),
		 -EINVAL);
	CHECK_EQ(swai_gen_build(&s, "RING", SWAI_COLL_ALLREDUCE, 0, NULL, why,
				sizeof(why)), -EINVAL);
}

static void test_topo_presets(void)
{
	static const struct {
		const char *name;
		int cards, links;
	} p[] = {
		{ "mesh8", 8, 28 }, { "ring8", 8, 8 }, { "pcie8", 8, 8 },
		{ "ndv2", 8, 16 }, { "ndv2x2", 16, 36 }, { "dgx2x2", 32, 48 },
		{ "a2-cluster", 1024, 128 * 28 + 1024 + 16 * 8 },
	};

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		struct swai_topo t, u;
		char why[256], *dump;
		int ret = swai_topo_load(&t, p[i].name, why, sizeof(why));

		if (ret)
			printf("# %s: %s\n", p[i].name, why);
		CHECK_EQ(ret, 0);
		if (ret)
			continue;
		CHECK_EQ(t.ncards, p[i].cards);
		CHECK_EQ(t.nlinks, p[i].links);
		CHECK(t.source && t.description);
		/* what is written reads back the same */
		dump = swai_topo_dump(&t);
		CHECK(dump && !swai_topo_parse(&u, dump, why, sizeof(why)));
		CHECK_EQ(u.nlinks, t.nlinks);
		CHECK_EQ(u.ndevs, t.ndevs);
		CHECK_EQ(u.ecmp, t.ecmp);
		free(dump);
		swai_topo_free(&u);
		/* the others need relays (no NVLink between some GPU pairs) */
		if (!strcmp(p[i].name, "mesh8") || !strcmp(p[i].name, "pcie8")) {
			ret = swai_topo_check_connected(&t, why, sizeof(why));
			if (ret)
				printf("# %s: %s\n", p[i].name, why);
			CHECK_EQ(ret, 0);
		}
		swai_topo_free(&t);
	}
}

/* A clone is the same schedule, and its own memory. */
static void test_sched_clone(void)
{
	struct swai_sched a, b;
	char why[256], *da, *db;

	build_ok(&a, "NHR", SWAI_COLL_ALLREDUCE, 7, NULL);
	CHECK_EQ(swai_sched_clone(&b, &a), 0);
	da = swai_sched_dump(&a);
	swai_sched_free(&a);
	db = swai_sched_dump(&b);
	CHECK(da && db && !strcmp(da, db));
	CHECK_EQ(swai_sched_verify(&b, why, sizeof(why)), 0);
	free(da);
	free(db);
	swai_sched_free(&b);
}

/* K nodes after node 0's pattern: ndv2x2 again at 2, NDv2 x 4 at 4. */
/*
 * Direct writes (swai_sched_direct, the rule libswccl lowers by): RING
 * AllGather's receives land where nothing of the receiver still reads; a
 * receive into a range the receiver is still sending from, after a send its
 * sender does not wait for, cannot.
 */
static void test_sched_direct(void)
{
	struct swai_sched s;
	int **match;
	char why[256];
	int recvs = 0, direct = 0;

	CHECK_EQ(swai_gen_build(&s, "RING", SWAI_COLL_ALLGATHER, 4, NULL, why, sizeof(why)), 0);
	CHECK_EQ(swai_sched_match(&s, &match, why, sizeof(why)), 0);
	for (int r = 0; r < s.nranks; r++)
		for (int i = 0; i < s.ranks[r].nsteps; i++) {
			recvs += s.ranks[r].steps[i].op == SWAI_STEP_RECV;
			direct += swai_sched_direct(&s, match, r, i);
		}
	CHECK(recvs > 0);
	CHECK_EQ(direct, recvs);
	swai_sched_match_free(&s, match);
	swai_sched_free(&s);

	/* rank 1 sends OUT[0] to rank 2, then takes OUT[0] from rank 0 (which waits for nothing) */
	CHECK_EQ(swai_sched_init(&s, "T", SWAI_COLL_ALLGATHER, 3, 0, 1), 0);
	swai_sched_copy(&s, 1, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, 1, 0);
	swai_sched_send(&s, 1, 2, SWAI_BUF_OUT, 0, 1, 0);
	swai_sched_recv(&s, 1, 0, SWAI_BUF_OUT, 0, 1, 1);
	swai_sched_send(&s, 0, 1, SWAI_BUF_IN, 0, 1, 0);
	swai_sched_recv(&s, 2, 1, SWAI_BUF_OUT, 1, 1, 0);
	CHECK_EQ(s.err, 0);
	CHECK_EQ(swai_sched_autodeps(&s), 0);
	CHECK_EQ(swai_sched_match(&s, &match, why, sizeof(why)), 0);
	CHECK(!swai_sched_direct(&s, match, 1, 2));	/* its send of OUT[0] may still run */
	CHECK(swai_sched_direct(&s, match, 2, 0));	/* rank 2's OUT[1]: nothing before */
	CHECK(!swai_sched_direct(&s, match, 1, 1));	/* a send is never direct */
	swai_sched_match_free(&s, match);
	swai_sched_free(&s);
}

static void test_topo_scale(void)
{
	struct swai_topo in, out;
	char why[256];

	CHECK_EQ(swai_topo_load(&in, "ndv2x2", why, sizeof(why)), 0);
	CHECK_EQ(swai_topo_scale(&out, &in, 2, why, sizeof(why)), 0);
	CHECK_EQ(out.ncards, in.ncards);
	CHECK_EQ(out.nlinks, in.nlinks);
	CHECK_EQ(out.ndevs, in.ndevs);
	swai_topo_free(&out);
	CHECK_EQ(swai_topo_scale(&out, &in, 4, why, sizeof(why)), 0);
	CHECK_EQ(out.ncards, 32);
	CHECK_EQ(out.nlinks, 4 * 18);
	{
		struct swai_topo_route r;

		/* chassis 3's GPU 0 up the InfiniBand switch, down to chassis 1's GPU 1 */
		CHECK_EQ(swai_topo_route(&out, 24, 9, &r, why, sizeof(why)), 0);
		CHECK_EQ(r.nhops, 2);
		CHECK_EQ(r.mbps, 12500);
		swai_topo_route_free(&r);
	}
	swai_topo_free(&out);
	CHECK_EQ(swai_topo_scale(&out, &in, 0, why, sizeof(why)), -EINVAL);
	swai_topo_free(&in);
	/* a DGX-2 pair's crossing links have no pattern to repeat */
	CHECK_EQ(swai_topo_load(&in, "dgx2x2", why, sizeof(why)), 0);
	CHECK_EQ(swai_topo_scale(&out, &in, 3, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "two nodes") != NULL);
	swai_topo_free(&in);
	/*
	 * AMD x 3 from amdx2: every chassis gets its own 8 pair switches (node
	 * 0's, made again), all on the one top switch (between nodes: once).
	 */
	CHECK_EQ(swai_topo_load(&in, "amdx2", why, sizeof(why)), 0);
	CHECK_EQ(swai_topo_scale(&out, &in, 2, why, sizeof(why)), 0);
	CHECK_EQ(out.ndevs, in.ndevs);
	CHECK_EQ(out.nlinks, in.nlinks);
	swai_topo_free(&out);
	CHECK_EQ(swai_topo_scale(&out, &in, 3, why, sizeof(why)), 0);
	CHECK_EQ(out.ncards, 48);
	CHECK_EQ(out.ndevs, 48 + 1 + 3 * 8);
	CHECK_EQ(out.nlinks, 3 * (28 + 8 * 3));
	{
		struct swai_topo_route r;

		/* chassis 2's GPU 5 up its pair switch and the top, down to chassis 0's GPU 0 */
		CHECK_EQ(swai_topo_route(&out, 37, 0, &r, why, sizeof(why)), 0);
		CHECK_EQ(r.nhops, 4);
		CHECK_EQ(r.mbps, 25000);
		swai_topo_route_free(&r);
	}
	swai_topo_free(&out);
	swai_topo_free(&in);
}

static void test_topo_routes(void)
{
	struct swai_topo_route r;
	struct swai_topo t;
	char why[256];

	CHECK_EQ(swai_topo_load(&t, "pcie8", why, sizeof(why)), 0);
	CHECK_EQ(swai_topo_route(&t, 0, 5, &r, why, sizeof(why)), 0);
	CHECK_EQ(r.nhops, 2);
	CHECK_EQ(r.latency_ns, 2 * 1000 + 150);
	CHECK_EQ(r.mbps, 25000);
	/* the two directions of a hop are different resources */
	CHECK(swai_topo_resource(&t, &r.hops[0]) != swai_topo_resource(&t, &r.hops[1]));
	swai_topo_route_free(&r);
	swai_topo_free(&t);

	CHECK_EQ(swai_topo_load(&t, "ring8", why, sizeof(why)), 0);
	CHECK_EQ(swai_topo_route(&t, 0, 1, &r, why, sizeof(why)), 0);
	CHECK_EQ(r.nhops, 1);
	swai_topo_route_free(&r);
	/* cards do not forward: a ring's far cards need a schedule's relay */
	CHECK_EQ(swai_topo_route(&t, 0, 4, &r, why, sizeof(why)), -ENOENT);
	CHECK(strstr(why, "n0.c0") && strstr(why, "n0.c4"));
	swai_topo_free(&t);

	/* a Clos with ECMP: pairs across rails spread over the 8 spines */
	CHECK_EQ(swai_topo_load(&t, "a2-cluster", why, sizeof(why)), 0);
	CHECK(t.ecmp);
	{
		int used[8] = { 0 }, spines = 0;

		for (int d = 8; d < 8 + 64 * 8; d += 8) {
			CHECK_EQ(swai_topo_route(&t, 0, d + 1, &r, why, sizeof(why)), 0);
			CHECK_EQ(r.nhops, 4);
			CHECK_EQ(r.latency_ns, 4 * 1000 + 3 * 600);
			for (int s = 0; s < 8; s++) {
				char name[16];

				snprintf(name, sizeof(name), "spine%d", s & 7);
				used[s] |= swai_topo_find(&t, name) ==
					   (r.hops[1].dir ? t.links[r.hops[1].link].a :
					    t.links[r.hops[1].link].b);
			}
			swai_topo_route_free(&r);
		}
		for (int s = 0; s < 8; s++)
			spines += used[s];
		CHECK_EQ(spines, 8);
		/* the same pair takes the same way every time */
		CHECK_EQ(swai_topo_route(&t, 0, 9, &r, why, sizeof(why)), 0);
		{
			struct swai_topo_route r2;

			CHECK_EQ(swai_topo_route(&t, 0, 9, &r2, why, sizeof(why)), 0);
			CHECK(!memcmp(r.hops, r2.hops, (size_t)r.nhops * sizeof(*r.hops)));
			swai_topo_route_free(&r2);
		}
		swai_topo_route_free(&r);
	}
	swai_topo_free(&t);

	CHECK_EQ(swai_topo_load(&t, "ndv2x2", why, sizeof(why)), 0);
	/* between chassis: GPU 0 -> switch -> GPU 1 of the other chassis */
	CHECK_EQ(swai_topo_route(&t, 0, 9, &r, why, sizeof(why)), 0);
	CHECK_EQ(r.nhops, 2);
	CHECK_EQ(r.mbps, 12500);
	CHECK_EQ(r.latency_ns, 2600);
	swai_topo_route_free(&r);
	swai_topo_free(&t);
}

static void test_topo_errors(void)
{
	static const struct {
		const char *json, *want;
	} bad[] = {
		{ "{", "line 1" },
		{ "{\"swai_topology\": 1, \"name\": \"x\", \"routing\": \"random\"}", "routing" },
		{ "{\"swai_topology\": 2, \"name\": \"x\"}", "version" },
		{ "{\"swai_topology\": 1, \"name\": \"x\", \"nodes\": [{\"name\": \"n\", "
		  "\"cards\": 2}], \"linkz\": []}", "unknown key \"linkz\"" },
		{ "{\"swai_topology\": 1, \"name\": \"x\", \"nodes\": [{\"name\": \"n\"}]}",
		  "nodes[0]: needs \"cards\"" },
		{ "{\"swai_topology\": 1, \"name\": \"x\", \"nodes\": [{\"name\": \"n\", "
		  "\"cards\": 2}], \"links\": [{\"ends\": [\"n.c0\", \"n.c1\"]}]}",
		  "links[0]: no mbps" },
		{ "{\"swai_topology\": 1, \"name\": \"x\", \"nodes\": [{\"name\": \"n\", "
		  "\"cards\": 2}], \"links\": [{\"ends\": [\"n.c0\", \"n.c9\"], \"mbps\": 1}]}",
		  "no device \"n.c9\"" },
		{ "{\"swai_topology\": 1, \"name\": \"x\", \"nodes\": [{\"name\": \"n\", "
		  "\"cards\": 2}], \"links\": [{\"ends\": [\"n.c0\", \"n.c1\"], \"mbps\": 0}]}",
		  "links[0].mbps" },
		{ "{\"swai_topology\": 1, \"name\": \"x\", \"nodes\": [{\"name\": \"n\", "
		  "\"cards\": 2}, {\"name\": \"n\", \"cards\": 1}]}", "named twice" },
		{ "{\"swai_topology\": 1, \"name\": \"x\", \"nodes\": [{\"name\": \"n\", "
		  "\"cards\": 2}], \"links\": [{\"mesh\": [\"n.*\"], \"ring\": [\"n.*\"], "
		  "\"mbps\": 5}]}", "exactly one of" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct swai_topo t;
		char why[256] = "";

		CHECK_EQ(swai_topo_parse(&t, bad[i].json, why, sizeof(why)), -EINVAL);
		if (!strstr(why, bad[i].want)) {
			printf("# case %zu: \"%s\" lacks \"%s\"\n", i, why, bad[i].want);
			CHECK(0);
		}
	}
	{
		struct swai_topo t;
		char why[256];

		CHECK_EQ(swai_topo_load(&t, "no-such-preset", why, sizeof(why)), -ENOENT);
		CHECK(strstr(why, "no-such-preset") != NULL);
	}
}

/* Every generator's schedule survives JSON and MSCCL XML and still verifies. */
static void test_roundtrips(void)
{
	for (int g = 0; swai_gens[g]; g++) {
		for (int c = 0; c < SWAI_COLL_N; c++) {
			for (int N = 2; N <= 9 && (swai_gens[g]->colls & (1u << c)); N++) {
				struct swai_sched s, j, x;
				char why[256], *text, *xml;

				if (swai_gen_build(&s, swai_gens[g]->name, c, N, NULL, why,
						   sizeof(why)))
					continue;
				text = swai_sched_dump(&s);
				CHECK(text && !swai_sched_parse(&j, text, why, sizeof(why)));
				CHECK(!swai_sched_verify(&j, why, sizeof(why)));
				xml = swai_msccl_export(&s);
				CHECK(xml);
				if (swai_msccl_import(&x, xml, strlen(xml), why, sizeof(why)) ||
				    swai_sched_verify(&x, why, sizeof(why))) {
					printf("# %s %s N=%d: %s\n", s.name,
					       swai_coll_name(c), N, why);
					CHECK(0);
				} else {
					CHECK_EQ(x.ranks[0].nsteps, s.ranks[0].nsteps);
				}
				free(text);
				free(xml);
				swai_sched_free(&s);
				swai_sched_free(&j);
				swai_sched_free(&x);
			}
		}
	}
}

/* A schedule written the way MSCCL's tools write them: rcs chains. */
static void test_msccl_import(void)
{
	static const char xml[] =
		"<algo name=\"ring_ag\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"3\" "
		"ngpus=\"3\" coll=\"allgather\" inplace=\"0\">\n"
		"%s</algo>\n";
	char gpus[4096] = "", doc[8192], why[256];
	struct swai_sched s;

	for (int r = 0; r < 3; r++) {
		char g[1024];
		int next = (r + 1) % 3, prev = (r + 2) % 3;

		snprintf(g, sizeof(g),
			 " <gpu id=\"%d\" i_chunks=\"1\" o_chunks=\"3\" s_chunks=\"0\">\n"
			 "  <tb id=\"0\" send=\"%d\" recv=\"-1\" chan=\"0\">\n"
			 "   <step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" "
			 "dstoff=\"%d\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n"
			 "  </tb>\n"
			 "  <tb id=\"1\" send=\"%d\" recv=\"%d\" chan=\"0\">\n"
			 "   <step s=\"0\" type=\"rcs\" srcbuf=\"o\" srcoff=\"%d\" dstbuf=\"o\" "
			 "dstoff=\"%d\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n"
			 "   <step s=\"1\" type=\"r\" srcbuf=\"o\" srcoff=\"%d\" dstbuf=\"o\" "
			 "dstoff=\"%d\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n"
			 "  </tb>\n"
			 "  <tb id=\"2\" send=\"-1\" recv=\"-1\" chan=\"0\">\n"
			 "   <step s=\"0\" type=\"cpy\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" "
			 "dstoff=\"%d\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n"
			 "  </tb>\n"
			 " </gpu>\n", r, next, r, next, prev, prev, prev, (prev + 2) % 3,
			 (prev + 2) % 3, r);
		strcat(gpus, g);
	}
	snprintf(doc, sizeof(doc), xml, gpus);
	CHECK_EQ(swai_msccl_import(&s, doc, strlen(doc), why, sizeof(why)), 0);
	if (swai_sched_verify(&s, why, sizeof(why))) {
		printf("# %s\n", why);
		CHECK(0);
	}
	CHECK_EQ(s.ranks[0].nsteps, 5);
	swai_sched_free(&s);

	CHECK_EQ(swai_msccl_import(&s, "<algo", 5, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "not XML") != NULL);
	CHECK_EQ(swai_msccl_import(&s, "<x/>", 4, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "<algo>") != NULL);
	snprintf(doc, sizeof(doc), "<algo ngpus=\"2\" coll=\"alltoallv\"/>");
	CHECK_EQ(swai_msccl_import(&s, doc, strlen(doc), why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "coll") != NULL);
	CHECK_EQ(swai_sched_parse(&s, "{\"swai_schedule\": 1, \"name\": \"x\", "
				  "\"collective\": \"allreduce\", \"ranks\": 2, \"chunks\": 1, "
				  "\"steps\": [[{\"op\": \"send\", \"peer\": 5, \"src\": \"in:0\", "
				  "\"count\": 1, \"round\": 0}], []]}", why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "steps[0][0]: peer") != NULL);
}

static uint64_t cost_ps(const struct swai_topo *t, const char *algo, enum swai_coll c,
		       int N, uint64_t bytes)
{
	struct swai_sched_cost_in in = { .bytes = bytes };
	struct swai_sched_cost_out out = { 0 };
	struct swai_sched s;
	char why[256];

	if (swai_gen_build(&s, algo, c, N, NULL, why, sizeof(why)))
		return 0;
	if (swai_sched_cost(&s, t, &in, &out, why, sizeof(why)))
		printf("# %s: %s\n", algo, why);
	swai_sched_free(&s);
	return out.ps;
}

/* The cost model: the card's arithmetic, link calendars, seed 000's claim. */
static void test_cost(void)
{
	struct swai_timing_props p;
	struct swai_topo t, pcie;
	char why[256];
	uint64_t want, mb = 16ull << 20;

	swai_timing_props_init(&p);
	CHECK_EQ(swai_topo_load(&t, "mesh8", why, sizeof(why)), 0);
	CHECK_EQ(swai_topo_load(&pcie, "pcie8", why, sizeof(why)), 0);
	/*
	 * RING AllGather on 2 ranks: the local copy (a DMA command, in and
	 * out through Local-HBM of 4 CGs), a DMA command, the transfer at
	 * the link's rate, its latency, and the receiver's wake-up.
	 */
	want = swai_timing_ns_to_ps(p.t_dma_ns) + swai_timing_ps(2 * mb, 4 * p.local_mbps) +
	       swai_timing_ns_to_ps(p.t_dma_ns) + swai_timing_ps(mb, 28000) +
	       swai_timing_ns_to_ps(1000) + swai_timing_ns_to_ps(p.t_dma_ns) +
	       swai_timing_ns_to_ps(p.t_barrier_ns);
	CHECK_EQ(cost_ps(&t, "RING", SWAI_COLL_ALLGATHER, 2, mb), want);
	{
		/* two core groups of card 3: the ring bus, no link, no latency */
		static const int cg_of_3[2] = { 3, 3 };
		struct swai_sched_cost_in in = { .bytes = mb, .rank_card = cg_of_3 };
		struct swai_sched_cost_out out = { 0 };
		struct swai_sched s;

		CHECK_EQ(swai_gen_build(&s, "RING", SWAI_COLL_ALLGATHER, 2, NULL, why,
					sizeof(why)), 0);
		CHECK_EQ(swai_sched_cost(&s, &t, &in, &out, why, sizeof(why)), 0);
		CHECK_EQ(out.ps, want - swai_timing_ps(mb, 28000) - swai_timing_ns_to_ps(1000) +
			 swai_timing_ps(mb, p.ring_mbps));
		CHECK_EQ(out.link_bytes, 0);
		swai_sched_free(&s);
	}
	/* the same schedule costs the same, every time */
	CHECK_EQ(cost_ps(&t, "NHR", SWAI_COLL_ALLREDUCE, 7, 32 << 20),
		 cost_ps(&t, "NHR", SWAI_COLL_ALLREDUCE, 7, 32 << 20));
	/* seed 000: NHR is never slower than both Ring and HD */
	for (int N = 3; N <= 8; N++) {
		uint64_t nhr = cost_ps(&t, "NHR", SWAI_COLL_ALLREDUCE, N, 32 << 20);
		uint64_t ring = cost_ps(&t, "RING", SWAI_COLL_ALLREDUCE, N, 32 << 20);
		uint64_t hd = cost_ps(&t, "HD", SWAI_COLL_ALLREDUCE, N, 32 << 20);

		CHECK(nhr && nhr <= (ring < hd ? ring : hd));
	}
	/* one PCIe uplink per card: everyone-to-everyone pays for sharing it */
	CHECK(cost_ps(&pcie, "MESH1", SWAI_COLL_ALLREDUCE, 8, 32 << 20) >
	      3 * cost_ps(&pcie, "RING", SWAI_COLL_ALLREDUCE, 8, 32 << 20));
	/* on the full mesh the same schedule uses 7 links at once */
	CHECK(cost_ps(&t, "MESH2", SWAI_COLL_ALLREDUCE, 8, 32 << 20) <
	      cost_ps(&pcie, "MESH2", SWAI_COLL_ALLREDUCE, 8, 32 << 20) / 4);
	{
		struct swai_sched_cost_in in = { .bytes = 1 << 20 };
		struct swai_sched_cost_out out;
		struct swai_topo ring;
		struct swai_sched s;

		CHECK_EQ(swai_gen_build(&s, "MESH1", SWAI_COLL_ALLREDUCE, 8, NULL, why,
					sizeof(why)), 0);
		CHECK_EQ(swai_topo_load(&ring, "ring8", why, sizeof(why)), 0);
		CHECK_EQ(swai_sched_cost(&s, &ring, &in, &out, why, sizeof(why)), -ENOENT);
		CHECK(strstr(why, "no route") != NULL);
		swai_topo_free(&ring);
		swai_sched_free(&s);
		CHECK_EQ(swai_gen_build(&s, "RING", SWAI_COLL_ALLREDUCE, 9, NULL, why,
					sizeof(why)), 0);
		CHECK_EQ(swai_sched_cost(&s, &t, &in, &out, why, sizeof(why)), -EINVAL);
		CHECK(strstr(why, "9 ranks") != NULL);
		swai_sched_free(&s);
	}
	swai_topo_free(&t);
	swai_topo_free(&pcie);
}

/*
 * Two cards' transfers through one uplink (swai-links.h): an uplink as wide
 * as the ports carries them one after the other; one twice as wide, side
 * by side, as a Clos's 200 GB/s uplink carries eight 25 GB/s ports.
 */
static void test_link_lanes(void)
{
	static const char fmt[] =
		"{\"swai_topology\": 1, \"name\": \"two-switches\","
		" \"nodes\": [{\"name\": \"n0\", \"cards\": 2}, {\"name\": \"n1\", \"cards\": 2}],"
		" \"switches\": [{\"name\": \"a\", \"latency_ns\": 0}, {\"name\": \"b\", \"latency_ns\": 0}],"
		" \"link_defaults\": {\"mbps\": 25000, \"latency_ns\": 0},"
		" \"links\": [{\"star\": \"a\", \"members\": [\"n0.*\"]},"
		" {\"star\": \"b\", \"members\": [\"n1.*\"]},"
		" {\"ends\": [\"a\", \"b\"], \"mbps\": %d}]}";
	static const int up[] = { 25000, 50000, 49999, 800000 };
	uint64_t d = swai_timing_ps(1 << 20, 25000);
	char json[1024], why[256];

	for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		struct swai_topo_route r0, r1;
		struct swai_links l;
		struct swai_topo t;
		uint64_t s0, e0, s1, e1, s2, e2;

		snprintf(json, sizeof(json), fmt, up[i]);
		CHECK_EQ(swai_topo_parse(&t, json, why, sizeof(why)), 0);
		CHECK_EQ(swai_links_init(&l, &t), 0);
		CHECK_EQ(swai_topo_route(&t, 0, 2, &r0, why, sizeof(why)), 0);
		CHECK_EQ(swai_topo_route(&t, 1, 3, &r1, why, sizeof(why)), 0);
		CHECK_EQ(r0.nhops, 3);
		CHECK_EQ(swai_links_book(&l, &r0, 0, 1 << 20, &s0, &e0), 0);
		CHECK_EQ(swai_links_book(&l, &r1, 0, 1 << 20, &s1, &e1), 0);
		CHECK_EQ(s0, 0);
		CHECK_EQ(e0, d);
		/* 25 GB/s and 49.999 GB/s: one lane; 50: two; 800: both, lanes to spare */
		CHECK_EQ(s1, up[i] >= 50000 ? 0 : d);
		CHECK_EQ(e1, s1 + d);
		/* a third from card 0 waits for its own port, whatever the uplink */
		CHECK_EQ(swai_links_book(&l, &r0, 0, 1 << 20, &s2, &e2), 0);
		CHECK_EQ(s2, up[i] >= 50000 ? d : 2 * d);
		CHECK_EQ(swai_links_busiest(&l), 3u << 20);
		swai_links_reset(&l);
		CHECK_EQ(swai_links_book(&l, &r1, 5, 1 << 20, &s1, &e1), 0);
		CHECK_EQ(s1, 5);
		swai_topo_route_free(&r0);
		swai_topo_route_free(&r1);
		swai_links_free(&l);
		swai_topo_free(&t);
	}
}

/* Build @algo's AllToAll on @N ranks grouped by @node_of: verified; its inter-node sends. */
static uint64_t a2a_internode(const char *algo, int N, const int *node_of, uint64_t *chunks)
{
	struct swai_gen_opts o = { .node_of = node_of };
	struct swai_sched s;
	uint64_t msgs = 0;
	char why[256];

	*chunks = 0;
	if (swai_gen_build(&s, algo, SWAI_COLL_ALLTOALL, N, &o, why, sizeof(why))) {
		printf("# %s N=%d: %s\n", algo, N, why);
		CHECK(0);
		return 0;
	}
	if (swai_sched_verify(&s, why, sizeof(why))) {
		printf("# %s N=%d: %s\n", algo, N, why);
		CHECK(0);
	}
	swai_sched_internode(&s, node_of, &msgs, chunks);
	swai_sched_free(&s);
	return msgs;
}

/*
 * Seed 002: on n nodes of m ranks PLANE sends m n (n - 1) messages between
 * nodes, DIRECT m^2 n (n - 1), the same bytes; ranks packed by node or
 * spread over them (node r % n), and the seed's 2 x 4 and 8 x 4.
 */
static void test_alltoall_planes(void)
{
	int node_of[64];
	char why[256];

	for (int n = 1; n <= 6; n++)
		for (int m = 1; m <= 6; m++)
			for (int spread = 0; spread < 2; spread++) {
				uint64_t dc, pc, d, p;
				int N = n * m;

				for (int r = 0; r < N; r++)
					node_of[r] = spread ? r % n : r / m;
				d = a2a_internode("DIRECT", N, node_of, &dc);
				p = a2a_internode("PLANE", N, node_of, &pc);
				CHECK_EQ(d, (uint64_t)(m * m * n * (n - 1)));
				CHECK_EQ(p, (uint64_t)(m * n * (n - 1)));
				CHECK_EQ(dc, pc);
			}
	for (int r = 0; r < 32; r++)
		node_of[r] = r / 4;
	{
		uint64_t c;

		CHECK_EQ(a2a_internode("DIRECT", 8, node_of, &c), 32);
		CHECK_EQ(a2a_internode("PLANE", 8, node_of, &c), 8);
		CHECK_EQ(a2a_internode("DIRECT", 32, node_of, &c), 896);
		CHECK_EQ(a2a_internode("PLANE", 32, node_of, &c), 224);
	}
	/* unequal nodes: refused, naming them */
	{
		int uneven[5] = { 0, 0, 0, 1, 1 };
		struct swai_gen_opts o = { .node_of = uneven };
		struct swai_sched s;

		CHECK_EQ(swai_gen_build(&s, "PLANE", SWAI_COLL_ALLTOALL, 5, &o, why, sizeof(why)),
			 -EINVAL);
		CHECK(strstr(why, "node 0 has 3, node 1 has 2") != NULL);
		CHECK_EQ(swai_gen_build(&s, "PLANE", SWAI_COLL_ALLREDUCE, 4, &o, why, sizeof(why)),
			 -EINVAL);
	}
	/* the grouping from a topology: ndv2x2's 16 cards are 2 nodes of 8 */
	{
		struct swai_topo t;

		CHECK_EQ(swai_topo_load(&t, "ndv2x2", why, sizeof(why)), 0);
		CHECK_EQ(swai_topo_card_node(&t, 7), 0);
		CHECK_EQ(swai_topo_card_node(&t, 8), 1);
		CHECK_EQ(swai_topo_card_node(&t, 16), -1);
		swai_topo_free(&t);
	}
}

/* HCCL's levels: every algorithm over n nodes of m ranks, verified; the shape of each level. */
static void test_levels(void)
{
	static const char *const algos[] = { "RING", "MESH1", "MESH2", "HD", "NHR", "RB" };
	static const int shape[][2] = { { 2, 2 }, { 2, 4 }, { 3, 4 }, { 4, 2 }, { 5, 3 }, { 2, 8 } };
	int node_of[64];
	char why[256];

	for (size_t k = 0; k < sizeof(shape) / sizeof(shape[0]); k++) {
		int n = shape[k][0], m = shape[k][1], N = n * m;

		for (int r = 0; r < N; r++)
			node_of[r] = 10 + r / m;	/* any numbers: nodes by first rank */
		for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
			struct swai_gen_opts o = { .node_of = node_of };
			struct swai_sched s;
			int inside = 0, between = 0;

			if (swai_gen_levels(&s, algos[a], SWAI_COLL_ALLREDUCE, N, &o, why,
					    sizeof(why))) {
				CHECK(!strcmp(algos[a], "HD") && (n & (n - 1)));
				continue;
			}
			if (swai_sched_verify(&s, why, sizeof(why))) {
				fprintf(stderr, "# levels %s %dx%d: %s\n", algos[a], n, m, why);
				CHECK(0);
			}
			/* Inside a node: 2 (m - 1) messages a rank; between: the algorithm's. */
			for (int i = 0; i < s.ranks[0].nsteps; i++) {
				const struct swai_step *st = &s.ranks[0].steps[i];

				if (st->op == SWAI_STEP_SEND)
					*(node_of[st->peer] == node_of[0] ? &inside : &between) += 1;
			}
			CHECK_EQ(inside, 2 * (m - 1));
			CHECK(between > 0);
			CHECK_EQ(s.chunks % (uint32_t)m, 0);
			swai_sched_free(&s);
		}
	}
	/* Nodes of unequal sizes: a node of fewer ranks holds several planes' blocks. */
	for (int r = 0; r < 12; r++)
		node_of[r] = r < 8 ? 0 : 1;
	for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		struct swai_gen_opts o = { .node_of = node_of };
		struct swai_sched s;

		CHECK_EQ(swai_gen_levels(&s, algos[a], SWAI_COLL_ALLREDUCE, 12, &o, why,
					 sizeof(why)), 0);
		CHECK_EQ(swai_sched_verify(&s, why, sizeof(why)), 0);
		swai_sched_free(&s);
	}
	{
		struct swai_gen_opts o = { .node_of = node_of };
		struct swai_sched s, flat;
		int odd[11] = { 0, 0, 0, 1, 1, 1, 1, 1, 2, 3, 3 };

		o.node_of = odd;	/* 3 + 5 + 1 + 2 */
		CHECK_EQ(swai_gen_levels(&s, "NHR", SWAI_COLL_ALLREDUCE, 11, &o, why, sizeof(why)), 0);
		CHECK_EQ(swai_sched_verify(&s, why, sizeof(why)), 0);
		swai_sched_free(&s);
		o.node_of = node_of;
		CHECK_EQ(swai_gen_levels(&s, "NHR", SWAI_COLL_ALLGATHER, 8, &o, why, sizeof(why)),
			 -EINVAL);
		/* One node: one level, the algorithm itself. */
		CHECK_EQ(swai_gen_levels(&s, "NHR", SWAI_COLL_ALLREDUCE, 8, &o, why, sizeof(why)), 0);
		CHECK_EQ(swai_gen_build(&flat, "NHR", SWAI_COLL_ALLREDUCE, 8, &o, why, sizeof(why)),
			 0);
		CHECK_EQ(s.ranks[3].nsteps, flat.ranks[3].nsteps);
		swai_sched_free(&s);
		swai_sched_free(&flat);
	}
}

static const struct tap_test tests[] = {
	{ "levels: every algorithm over n nodes of m ranks, and of unequal sizes, verified",
	  test_levels },
	{ "cost: card arithmetic, link calendars, NHR <= min(Ring, HD)", test_cost },
	{ "link lanes: an uplink k times as wide as the ports carries k transfers at once", test_link_lanes },
	{ "schedules: JSON and MSCCL XML round trips verify", test_roundtrips },
	{ "MSCCL import: rcs chains, errors", test_msccl_import },
	{ "NHR: seed 000's D table, sum N-1 to 4096", test_nhr_d_table },
	{ "NHR: seed 000's N=4 tables, standard and reordered", test_nhr_n4_tables },
	{ "NHR: the digest's vectors for N=3,5,6", test_nhr_vectors },
	{ "generators: every collective, N=1..40, verified", test_generators_verify },
	{ "strides: RING's every coprime one right, one link direction each; HD/NHR/RB relabelled", test_ring_stride },
	{ "AllToAll: DIRECT and PLANE, seed 002's message counts", test_alltoall_planes },
	{ "MESH: shifted planes send the same messages over other links", test_mesh_shift },
	{ "issue order: the heap version is the definition's", test_issue_order },
	{ "pinned issue order: every rank as listed, still right", test_pin_order },
	{ "NHR AllReduce: N up to 127 in every order", test_nhr_large },
	{ "NHR AllReduce: ReduceScatter messages in 1..4 parts, same result (nhr_split)", test_nhr_split },
	{ "NHR reordering: contiguous where possible, ~sqrt(N) for odd N", test_nhr_pieces },
	{ "verify: missing dependencies, double counting, unmatched sends",
	  test_verify_catches },
	{ "generators: errors", test_gen_errors },
	{ "topology: presets load, round-trip, connected", test_topo_presets },
	{ "topology: routes through switches only", test_topo_routes },
	{ "topology: K nodes after node 0's pattern (NDv2 x 4, AMD x 3's own switches)",
	  test_topo_scale },
	{ "schedules: a clone is the same schedule in its own memory", test_sched_clone },
	{ "schedules: which receives a sender writes in place (direct)", test_sched_direct },
	{ "topology: errors name their place", test_topo_errors },
};

TAP_MAIN(tests)
