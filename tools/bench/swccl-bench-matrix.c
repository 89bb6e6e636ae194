// SPDX-License-Identifier: MIT
/*
 * swccl-bench matrix - seed 002's application (its Figs. 8 and 9): Z =
 * (B x C) x D on N cards, C too large for one card.
 *
 *   swccl-bench matrix [-a ALGO] [--cards N] [--rows A] [--inner B]
 *                      [--cols C] [--out D] [--json]
 *
 * B is A x B, C is B x C split by columns over the N ranks, D is C x D.
 * Rank g computes E_g = B x C_g (A x C/N: the GEMM on its card), so E =
 * B x C lies in column blocks; an AllToAll turns them into row blocks --
 * rank g's block for rank y is E_g's rows [y A/N, (y + 1) A/N), contiguous
 * in row-major E_g -- so that rank y holds F_y, rows [y A/N, ...) of E, as
 * N blocks of A/N x C/N; and F_y x D is the sum over x of block x times
 * rows [x C/N, ...) of D (GEMMs accumulating): rank y's rows of Z.  The
 * seed's case is the default: A = 200, C = 800 over 8 GPUs (blocks of
 * 25 x 100).  Inputs are small integers, so every product and sum is an
 * exact f32: each rank's Z is compared with the host's, element by element.
 * One row: the AllToAll's algorithm, its modeled time (the latest rank's),
 * its messages between nodes, and the wrong elements of all ranks.  Under
 * tools/vm/swai-cluster, one process per card, as for the collectives.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-cli.h"
#include "swccl-bench-try.h"
#include "swccl-bench.h"

struct mx {
	int a, b, c, d, json;
	swcclAlgo_t algo;
	void *B[BENCH_MAX_RANKS], *C[BENCH_MAX_RANKS], *D[BENCH_MAX_RANKS], *Z[BENCH_MAX_RANKS];
};

/* Element (i, j) of B (0), C (1) or D (2): -2 .. 2, a hash of where it is. */
static float val(int which, int i, int j)
{
	unsigned h = (unsigned)i * 7919u + (unsigned)j * 104729u + (unsigned)which * 15485863u;

	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	return (float)((int)(h % 5) - 2);
}

static void usage(void)
{
	fprintf(stderr, "usage: swccl-bench matrix [-a ALGO] [--cards N] [--rows A] [--inner B] "
		"[--cols C] [--out D] [--json]\n"
		"  seed 002's Z = (B x C) x D: E = B x C by columns, an AllToAll, F x D by rows;\n"
		"  A and C multiples of the ranks (default 200 x 64 x 800 x 32, the seed's A and C)\n");
	exit(2);
}

static void parse(struct bench *bn, struct mx *m, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "algo", required_argument, NULL, 'a' }, { "cards", required_argument, NULL, 'C' },
		{ "rows", required_argument, NULL, 'A' }, { "inner", required_argument, NULL, 'B' },
		{ "cols", required_argument, NULL, 'K' }, { "out", required_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o, li = 0;

	optind = 2;	/* after "matrix" */
	while ((o = getopt_long(argc, argv, "a:j", lo, &li)) != -1) {
		int v = 0;

		if (o == 'C' || o == 'A' || o == 'B' || o == 'K' || o == 'D')
			v = (int)swai_cli_long_or_exit("swccl-bench matrix", lo[li].name, optarg, 1,
						       4096);
		switch (o) {
		case 'a': if (bench_algo_parse(optarg, &m->algo)) usage(); break;
		case 'C': bn->o.cards = v; break;
		case 'A': m->a = v; break;
		case 'B': m->b = v; break;
		case 'K': m->c = v; break;
		case 'D': m->d = v; break;
		case 'j': m->json = 1; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
}

/* Rank @r (global @g): B, C_g and D on its card, and E_g = B x C_g queued. */
static void compute_e(struct bench *bn, struct mx *m, int r, int g, int n)
{
	int c1 = m->c / n;
	size_t sb = (size_t)m->a * m->b, sc = (size_t)m->b * c1, sd = (size_t)m->c * m->d;
	float *hb = malloc(sb * 4), *hc = malloc(sc * 4), *hd = malloc(sd * 4);

	if (!hb || !hc || !hd)
		exit(1);
	for (size_t i = 0; i < sb; i++)
		hb[i] = val(0, (int)(i / (size_t)m->b), (int)(i % (size_t)m->b));
	for (size_t i = 0; i < sc; i++)
		hc[i] = val(1, (int)(i / (size_t)c1), g * c1 + (int)(i % (size_t)c1));
	for (size_t i = 0; i < sd; i++)
		hd[i] = val(2, (int)(i / (size_t)m->d), (int)(i % (size_t)m->d));
	TRY(sdaaSetDevice(bn->dev[r]));
	TRY(sdaaMalloc(&m->B[r], sb * 4));
	TRY(sdaaMalloc(&m->C[r], sc * 4));
	TRY(sdaaMalloc(&m->D[r], sd * 4));
	TRY(sdaaMalloc(&m->Z[r], (size_t)(m->a / n) * m->d * 4));
	TRY(sdaaMemcpy(m->B[r], hb, sb * 4, sdaaMemcpyHostToDevice));
	TRY(sdaaMemcpy(m->C[r], hc, sc * 4, sdaaMemcpyHostToDevice));
	TRY(sdaaMemcpy(m->D[r], hd, sd * 4, sdaaMemcpyHostToDevice));
	TRY(sdaaGemm(SDAA_OP_N, SDAA_OP_N, m->a, c1, m->b, 1.0f, m->B[r], m->b, m->C[r], c1,
		     0.0f, bn->send[r], c1, SDAA_R_32F, SDAA_EPILOGUE_DEFAULT, bn->s[r]));
	TRY(sdaaStreamSynchronize(bn->s[r]));
	free(hb);
	free(hc);
	free(hd);
}

/* Rank @r (global @g): Z_g = F_g x D, block by block; its elements not the host's. */
static long compute_z(struct bench *bn, struct mx *m, int r, int g, int n)
{
	int a1 = m->a / n, c1 = m->c / n;
	float *z = malloc((size_t)a1 * m->d * 4);
	double *e = malloc((size_t)m->c * sizeof(double));
	long wrong = 0;

	if (!z || !e)
		exit(1);
	TRY(sdaaSetDevice(bn->dev[r]));
	for (int x = 0; x < n; x++)
		TRY(sdaaGemm(SDAA_OP_N, SDAA_OP_N, a1, m->d, c1, 1.0f,
			     (char *)bn->recv[r] + (size_t)x * a1 * c1 * 4, c1,
			     (char *)m->D[r] + (size_t)x * c1 * m->d * 4, m->d, x ? 1.0f : 0.0f,
			     m->Z[r], m->d, SDAA_R_32F, SDAA_EPILOGUE_DEFAULT, bn->s[r]));
	TRY(sdaaStreamSynchronize(bn->s[r]));
	TRY(sdaaMemcpy(z, m->Z[r], (size_t)a1 * m->d * 4, sdaaMemcpyDeviceToHost));
	/* The host's rows of Z = (B x C) x D, exact in double and in f32 alike. */
	for (int i = 0; i < a1; i++) {
		for (int k = 0; k < m->c; k++) {
			e[k] = 0;
			for (int t = 0; t < m->b; t++)
				e[k] += (double)val(0, g * a1 + i, t) * val(1, t, k);
		}
		for (int j = 0; j < m->d; j++) {
			double want = 0;

			for (int k = 0; k < m->c; k++)
				want += e[k] * val(2, k, j);
			wrong += z[(size_t)i * m->d + j] != (float)want;
		}
	}
	free(e);
	free(z);
	TRY(sdaaFree(m->B[r]));
	TRY(sdaaFree(m->C[r]));
	TRY(sdaaFree(m->D[r]));
	TRY(sdaaFree(m->Z[r]));
	return wrong;
}

int bench_matrix_main(int argc, char **argv)
{
	struct bench bn = { .o = { .coll = COLL_A2A, .type = swcclFloat32, .iters = 1 } };
	struct mx m = { .a = 200, .b = 64, .c = 800, .d = 32 };
	struct swcclCallInfo info;
	double us = 0, wall = 0;
	long wrong = 0;
	int n;

	parse(&bn, &m, argc, argv);
	if (bench_launched() && bench_launch(&bn))
		return 1;
	if (!bn.world) {
		bn.o.cards = bn.o.cards ? bn.o.cards : 8;
		bn.o.per_card = 1;
		bn.o.nranks = bn.o.cards;
	}
	n = bn.world ? bn.world : bn.o.nranks;
	if (m.a % n || m.c % n) {
		fprintf(stderr, "swccl-bench matrix: A (%d) and C (%d) must be multiples of the %d "
			"ranks\n", m.a, m.c, n);
		return 2;
	}
	bn.o.minb = bn.o.maxb = (size_t)m.a * (m.c / n) * 4;	/* E_g: the AllToAll's input */
	bench_setup(&bn);
	if (bn.cap < bn.o.maxb) {
		fprintf(stderr, "swccl-bench matrix: E_g (%zu B) does not fit\n", bn.o.maxb);
		return 1;
	}
	for (int r = 0; r < bn.o.nranks; r++)
		compute_e(&bn, &m, r, bn.base + r, n);
	/* The AllToAll of every rank, timed on each rank's stream, modeled. */
	for (int r = 0; r < bn.o.nranks; r++) {
		TRY(sdaaSetDevice(bn.dev[r]));
		TRY(sdaaEventRecord(bn.starts[r], bn.s[r]));
		CCL(&bn, swcclCommSetAlgo(bn.comm[r], m.algo));
	}
	CCL(&bn, swcclGroupStart());
	for (int r = 0; r < bn.o.nranks; r++)
		CCL(&bn, swcclAllToAll(bn.send[r], bn.recv[r], (size_t)(m.a / n) * (m.c / n),
				       swcclFloat32, bn.comm[r], bn.s[r]));
	CCL(&bn, swcclGroupEnd());
	for (int r = 0; r < bn.o.nranks; r++) {
		float t = 0, w = 0;

		TRY(sdaaSetDevice(bn.dev[r]));
		TRY(sdaaEventRecord(bn.stop[r], bn.s[r]));
		TRY(sdaaEventSynchronize(bn.stop[r]));
		TRY(sdaaEventElapsedTime(&t, bn.starts[r], bn.stop[r]));
		TRY(sdaaEventElapsedTimeWall(&w, bn.starts[r], bn.stop[r]));
		us = t * 1e3 > us ? t * 1e3 : us;
		wall = w * 1e3 > wall ? w * 1e3 : wall;
	}
	CCL(&bn, swcclCommLastCallInfo(bn.comm[0], &info));
	for (int r = 0; r < bn.o.nranks; r++)
		wrong += compute_z(&bn, &m, r, bn.base + r, n);
	bench_across(&bn, m.algo, &us, &wall, &wrong);
	if (wrong)
		bn.failed = 1;
	if (m.json)
		printf("{\"kind\":\"matrix\",\"ranks\":%d,\"nodes\":%d,\"a\":%d,\"b\":%d,\"c\":%d,"
		       "\"d\":%d,\"block\":\"%dx%d\",\"algo\":\"%s\",\"chosen\":\"%s\","
		       "\"alltoall_us\":%.3f,\"wall_us\":%.1f,\"internode_msgs\":%llu,"
		       "\"internode_bytes\":%llu,\"wrong\":%ld}\n", n, bn.nodes ? bn.nodes : 1,
		       m.a, m.b, m.c, m.d, m.a / n, m.c / n, bench_algo_name(m.algo),
		       bench_algo_name(info.algo), us, wall, info.internode_msgs,
		       info.internode_bytes, wrong);
	else
		printf("# seed 002's Z = (B x C) x D: %d x %d x %d x %d on %d ranks (%d nodes), "
		       "blocks of %d x %d\n# AllToAll by %s: %.3f us modeled, %llu messages "
		       "between nodes; Z: %ld elements wrong\n", m.a, m.b, m.c, m.d, n,
		       bn.nodes ? bn.nodes : 1, m.a / n, m.c / n, bench_algo_name(info.algo), us,
		       info.internode_msgs, wrong);
	bench_teardown(&bn);
	return bn.world ? bench_launch_end(bn.failed) : bn.failed;
}
