// SPDX-License-Identifier: MIT
/*
 * swccl-unit-test - libswccl on the host, under ASan/UBSan: shard
 * arithmetic, the cost model against the paper's closed forms, and every
 * (collective, algorithm)'s programs executed by the simulator on host
 * memory (tiny LDM, so chunking is exercised) with exact and bitwise
 * cross-algorithm checks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_internal.h"
#include "splitmix64.h"
#include "tap.h"

/* The datasheet's defaults, but a ring that never limits (the paper's model). */
static struct sdaaTimingParams paper(void)
{
	return (struct sdaaTimingParams){ .ringMBps = 100000, .ringTotalMBps = 800000,
		.localMBps = 100000, .pcieMBps = 25000, .ldmMBps = 1000000, .launchNs = 25000,
		.syncNs = 15000, .stepNs = 5000, .barrierNs = 1000, .dmaNs = 1000 };
}

static void test_shards(void)
{
	for (size_t n = 0; n < 300; n++)
		for (int parts = 1; parts <= 16; parts++) {
			size_t next = 0, lo, len, min = (size_t)-1, max = 0;

			for (int i = 0; i < parts; i++) {
				swccl_shard(n, parts, i, &lo, &len);
				CHECK_EQ(lo, next);
				next = lo + len;
				min = len < min ? len : min;
				max = len > max ? len : max;
			}
			CHECK_EQ(next, n);
			CHECK(max - min <= 1);
		}
}

static const struct swccl_algo *find(enum swccl_coll coll, swcclAlgo_t a)
{
	for (int i = 0; swccl_algos[i]; i++)
		if (swccl_algos[i]->coll == coll && swccl_algos[i]->algo == a)
			return swccl_algos[i];
	return NULL;
}

/* A call of 4 ranks on fake device addresses (the cost model only). */
static struct swccl_call call4(enum swccl_coll coll, size_t count, enum swccl_tier t,
			       bool inplace)
{
	struct swccl_call c = { .coll = coll, .dtype = swcclFloat32, .op = swcclSum, .count = count,
				.esize = 4, .nranks = 4, .seq = 1, .ldm = 8 << 20, .tp = paper(),
				.scratch = 0x9000000000ULL };
	size_t b = count * 4, big = coll == SWCCL_ALLGATHER || coll == SWCCL_REDUCESCATTER ? 4 * b : b;

	c.sem.barrier = 0x100;
	for (int r = 0; r < 4; r++) {
		uint64_t base = 0x1000000000ULL * (uint64_t)(r + 1);

		c.sem.flag[r] = 0x200 + 8 * (uint64_t)r;
		c.sem.progress[r] = 0x300 + 8 * (uint64_t)r;
		c.r[r].cg = r;
		c.r[r].send = (struct swccl_buf){ base, t, r, coll == SWCCL_REDUCESCATTER ? big : b };
		c.r[r].recv = (struct swccl_buf){ base + 0x100000000ULL, t, r,
						  coll == SWCCL_ALLGATHER ? big : b };
		if (inplace && coll == SWCCL_ALLGATHER) {
			c.r[r].recv.va = base;
			c.r[r].send = (struct swccl_buf){ base + (uint64_t)r * b, t, r, b };
		}
		if (inplace && coll == SWCCL_REDUCESCATTER)
			c.r[r].recv = (struct swccl_buf){ base + (uint64_t)r * b, t, r, b };
	}
	return c;
}

static double model(enum swccl_coll coll, swcclAlgo_t a, size_t count, enum swccl_tier t,
		    bool inplace, struct swccl_plan *p)
{
	struct swccl_call c = call4(coll, count, t, inplace);

	CHECK_EQ(swccl_plan_algo(find(coll, a), &c, p), swcclSuccess);
	if (getenv("V"))
		printf("# %s %s count %zu: %.3f us\n", swccl_coll_name(coll), swcclAlgoName(a), count, p->us);
	return p->us;
}

/* The paper's eqs. (3) and (4) at 8 MB, and our closed forms. */
static void test_cost_model(void)
{
	struct swccl_plan p;
	size_t count = 2000000 / 4;	/* 8e6 bytes over 4 ranks */

	CHECK(fabs(model(SWCCL_ALLGATHER, swcclAlgoRing, count, SWCCL_GLOBAL, true, &p) - 195) < 1e-6);
	CHECK_EQ(p.launches, 12);
	CHECK_EQ(p.host_syncs, 3);
	CHECK(fabs(p.transfer_us - 60) < 1e-6);
	CHECK(fabs(model(SWCCL_ALLGATHER, swcclAlgoCsc, count, SWCCL_GLOBAL, true, &p) - 116) < 1e-6);
	CHECK_EQ(p.launches, 4);
	CHECK_EQ(p.host_syncs, 1);
	CHECK(fabs(model(SWCCL_ALLGATHER, swcclAlgoCsc1, count, SWCCL_GLOBAL, true, &p) - 102) < 1e-6);
	CHECK_EQ(p.host_syncs, 0);
	/* Local, out of place: CSC writes first (+25 us) and copies its own shard (+25). */
	CHECK(fabs(model(SWCCL_ALLGATHER, swcclAlgoCsc, count, SWCCL_LOCAL, false, &p) - 166) < 1e-6);
	CHECK(fabs(model(SWCCL_ALLGATHER, swcclAlgoCsc1, count, SWCCL_LOCAL, false, &p) - 139) < 1e-6);
	/* ReduceScatter: the round trips of Algorithm 2 against one pass in LDM. */
	CHECK(fabs(model(SWCCL_REDUCESCATTER, swcclAlgoCsc, count, SWCCL_GLOBAL, true, &p) -
		   (25 + 15 + 3 * (3 * 21 + 6) + 1)) < 1e-6);
	CHECK(fabs(model(SWCCL_REDUCESCATTER, swcclAlgoCsc1, count, SWCCL_GLOBAL, true, &p) -
		   (25 + 1 + 4 * 21 + 3 * 6 + 21 + 1)) < 1e-6);
	CHECK(model(SWCCL_REDUCESCATTER, swcclAlgoRing, count, SWCCL_GLOBAL, true, &p) > 300);
	/*
	 * The card's default ring (400 GB/s for all Global bytes, reads and
	 * writes): four Global->Global COPYs at once get 50 GB/s each.
	 */
	{
		struct swccl_call c = call4(SWCCL_ALLGATHER, count, SWCCL_GLOBAL, true);

		c.tp.ringTotalMBps = 400000;
		CHECK_EQ(swccl_plan_algo(find(SWCCL_ALLGATHER, swcclAlgoCsc), &c, &p), swcclSuccess);
		CHECK(fabs(p.us - (25 + 15 + 3 * 45 + 1)) < 1e-6);
	}
	/*
	 * Small sizes: eqs. (5)/(6), 3 (L + S + O) / (L + S + 3 O) = 2.4 (+ our
	 * final 1 us barrier); large: eqs. (7)/(8), they meet.
	 */
	CHECK(model(SWCCL_ALLGATHER, swcclAlgoRing, 16, SWCCL_GLOBAL, true, &p) /
	      model(SWCCL_ALLGATHER, swcclAlgoCsc, 16, SWCCL_GLOBAL, true, &p) > 2.35);
	CHECK(model(SWCCL_ALLGATHER, swcclAlgoRing, 64 << 20, SWCCL_GLOBAL, true, &p) /
	      model(SWCCL_ALLGATHER, swcclAlgoCsc, 64 << 20, SWCCL_GLOBAL, true, &p) < 1.1);
}

/* Run every step of @a through the simulator on host memory. */
static const char *execute(const struct swccl_algo *a, struct swccl_call *c)
{
	struct swccl_sim_mem mem;
	const char *err = NULL;

	for (int r = 0; r < c->nranks; r++)
		mem.ldm[r] = calloc(1, c->ldm);
	for (int s = 0; s < a->steps(c) && !err; s++) {
		struct swccl_prog prog[SWCCL_MAX_RANKS], *pp[SWCCL_MAX_RANKS];
		struct swccl_sim_result res;

		for (int r = 0; r < c->nranks; r++) {
			prog_init(&prog[r]);
			a->build(c, s, r, &prog[r]);
			pp[r] = &prog[r];
		}
		swccl_sim_step(c, pp, &mem, &res);
		err = res.error;
		for (int r = 0; r < c->nranks; r++)
			prog_free(&prog[r]);
	}
	for (int r = 0; r < c->nranks; r++)
		free(mem.ldm[r]);
	return err;
}

static double ival(int r, size_t i)
{
	return (double)((int)((i * 7 + (size_t)r * 3) % 11) - 5);
}

/* One collective on host memory; 0 if right.  @out: rank root's result. */
static int run(enum swccl_coll coll, swcclAlgo_t al, int nr, size_t count, bool inplace,
	       bool peer, enum swccl_tier tier, bool random, uint8_t *out)
{
	static uint64_t sems[64];
	struct swccl_call c = { .coll = coll, .dtype = random ? swcclFloat32 : swcclInt32,
				.op = random ? swcclSum : swcclMax, .root = nr - 1, .count = count,
				.esize = 4, .nranks = nr, .ldm = 4096 + 64, .tp = paper(),
				.peer = peer, .seq = 1 };
	const struct swccl_algo *a = find(coll, al);
	size_t b = count * 4, sb = coll == SWCCL_REDUCESCATTER ? nr * b : b;
	size_t rb = coll == SWCCL_ALLGATHER ? nr * b : b;
	uint8_t *buf[SWCCL_MAX_RANKS], *rbuf[SWCCL_MAX_RANKS], *scratch;
	int bad = 0;

	memset(sems, 0, sizeof(sems));
	c.sem.barrier = (uint64_t)(uintptr_t)&sems[0];
	for (int r = 0; r < nr; r++) {
		c.sem.flag[r] = (uint64_t)(uintptr_t)&sems[1 + r];
		c.sem.progress[r] = (uint64_t)(uintptr_t)&sems[20 + r];
		buf[r] = malloc((sb > rb ? sb : rb) + 4);
		rbuf[r] = inplace ? buf[r] : malloc(rb + 4);
		memset(rbuf[r], 0xa5, rb);
		for (size_t i = 0; i < sb / 4; i++) {
			uint64_t seed = (uint64_t)r * 7919 + i;
			float f = (float)(splitmix64(&seed) >> 40) / 16777216.0f;
			int32_t v = (int32_t)ival(r, i);
			uint8_t *dst = buf[r] + i * 4 +
				       (inplace && coll == SWCCL_ALLGATHER ? (size_t)r * b : 0);

			if (random)
				memcpy(dst, &f, 4);
			else
				memcpy(dst, &v, 4);
		}
		c.r[r].cg = r;
		c.r[r].send = (struct swccl_buf){ (uint64_t)(uintptr_t)buf[r] +
			(inplace && coll == SWCCL_ALLGATHER ? (uint64_t)r * b : 0), tier, r, sb };
		c.r[r].recv = (struct swccl_buf){ (uint64_t)(uintptr_t)rbuf[r] +
			(inplace && coll == SWCCL_REDUCESCATTER ? (uint64_t)r * b : 0), tier, r, rb };
	}
	if (!a || a->unsupported(&c)) {
		bad = -1;
		goto out;
	}
	c.scratch_bytes = a->scratch(&c);
	scratch = calloc(1, c.scratch_bytes + 8);
	c.scratch = (uint64_t)(uintptr_t)scratch;
	if (execute(a, &c))
		bad = 1;
	free(scratch);
	for (int r = 0; r < nr && !bad; r++) {
		const int32_t *got = (const int32_t *)(uintptr_t)c.r[r].recv.va;

		if (coll == SWCCL_REDUCE && r != c.root)
			continue;
		if (r == (coll == SWCCL_REDUCE || coll == SWCCL_BROADCAST ? c.root : 0) && out)
			memcpy(out, got, rb);
		if (random)
			continue;
		for (size_t i = 0; i < rb / 4; i++) {
			double want;

			if (coll == SWCCL_ALLGATHER)
				want = ival((int)(i / count), i % count);
			else if (coll == SWCCL_BROADCAST)
				want = ival(c.root, i);
			else {
				size_t e = coll == SWCCL_REDUCESCATTER ? (size_t)r * count + i : i;

				want = ival(0, e);
				for (int j = 1; j < nr; j++)
					want = fmax(want, ival(j, e));
			}
			bad |= got[i] != (int32_t)want;
		}
	}
out:
	for (int r = 0; r < nr; r++) {
		free(buf[r]);
		if (!inplace)
			free(rbuf[r]);
	}
	return bad;
}

static void test_programs(void)
{
	static const size_t counts[] = { 0, 1, 5, 1023, 2500 };
	static const enum swccl_tier tiers[] = { SWCCL_LOCAL, SWCCL_GLOBAL, SWCCL_HOST };

	for (int coll = 0; coll < SWCCL_NCOLLS; coll++)
		for (int al = 1; al < swcclNumAlgos; al++)
			for (int nr = 1; nr <= 4; nr++)
				for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
					for (int v = 0; v < 12; v++) {
						int r = run(coll, al, nr, counts[k], v & 1, v & 2,
							    tiers[v / 4], false, NULL);

						if (r > 0)
							printf("# %s %s nr %d count %zu variant %d\n",
							       swccl_coll_name(coll),
							       swcclAlgoName(al), nr, counts[k], v);
						CHECK(r <= 0);
					}
}

/* Random floats: the same bits from every algorithm (rank-order reduction). */
static void test_bitwise(void)
{
	for (int coll = SWCCL_REDUCESCATTER; coll <= SWCCL_REDUCE; coll++) {
		size_t n = 3001;
		uint8_t *ref, *got;

		if (coll == SWCCL_BROADCAST)
			continue;
		ref = malloc(4 * n * 4);
		got = malloc(4 * n * 4);
		CHECK_EQ(run(coll, swcclAlgoCsc1, 4, n, false, true, SWCCL_GLOBAL, true, ref), 0);
		for (int al = 1; al < swcclNumAlgos; al++) {
			CHECK_EQ(run(coll, al, 4, n, false, true, SWCCL_GLOBAL, true, got), 0);
			CHECK(!memcmp(ref, got, 4 * n));
		}
		free(ref);
		free(got);
	}
}

static const struct tap_test tests[] = {
	{ "shard arithmetic", test_shards },
	{ "cost model: eqs. (3)-(8) and our closed forms", test_cost_model },
	{ "programs of every collective x algorithm give exact results", test_programs },
	{ "rank-order reduction: bitwise identical across algorithms", test_bitwise },
};

TAP_MAIN(tests)
