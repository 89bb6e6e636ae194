// SPDX-License-Identifier: MIT
/*
 * swccl-unit-test - libswccl on the host, under ASan/UBSan: shard
 * arithmetic, the cost model (the card's engine) against the paper's
 * closed forms, every (collective, algorithm)'s programs and the fused
 * calls run by the card's engine on host memory (tiny LDM, so chunking is
 * exercised) with exact, bitwise cross-algorithm and host-reference
 * checks, the plan cache and the logging subsystems.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"
#include "swai-arith.h"
#include "swccl_algo.h"
#include "swccl_fused.h"
#include "swccl_kind.h"
#include "swccl_nic.h"
#include "swccl_plan.h"
#include "swk.h"
#include "tap.h"

/* What the test calls are (the library's kinds need libsdaa to check arguments). */
static const char *tname(const struct swccl_call *c)
{
	static const char *const n[] = { "AllGather", "ReduceScatter", "AllReduce",
					 "Broadcast", "Reduce" };

	return c->fz.rows ? "fused" : n[c->coll];
}

static const struct swccl_kind kind_coll = { .name = tname }, kind_fused = { .name = tname };

/* The datasheet's defaults, but a ring that never limits (the paper's model). */
static struct sdaaTimingParams paper(void)
{
	return (struct sdaaTimingParams){ .ringMBps = 100000, .ringTotalMBps = 800000,
		.localMBps = 100000, .pcieMBps = 25000, .ldmMBps = 1000000, .launchNs = 25000,
		.syncNs = 15000, .stepNs = 5000, .barrierNs = 1000, .dmaNs = 1000,
		.f32Gflops = 2048, .bf16Gflops = 4096 };
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

/* A call of 4 ranks on fake device addresses (the cost model only). */
static struct swccl_call call4(enum swccl_coll coll, size_t count, enum swccl_tier t,
			       bool inplace)
{
	struct swccl_call c = { .kind = &kind_coll, .coll = coll, .dtype = swcclFloat32,
				.op = swcclSum, .count = count, .esize = 4, .nranks = 4, .seq = 1,
				.ldm = 8 << 20, .tp = paper(), .scratch = 0x9000000000ULL };
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
			c.r[r].recv = (struct swccl_buf){ base, t, r, big };
			c.r[r].send = (struct swccl_buf){ base + (uint64_t)r * b, t, r, b };
		}
		if (inplace && coll == SWCCL_REDUCESCATTER)
			c.r[r].recv = (struct swccl_buf){ base + (uint64_t)r * b, t, r, b };
	}
	return c;
}

/* Run @s for @c on a fresh model (with the arithmetic: on host memory); NULL or why not. */
static const char *model_run(const struct swccl_call *c, const struct swccl_sched *s,
			     size_t scratch, bool data, struct swccl_cost *cost)
{
	static char why[256];
	struct swccl_model *m = swccl_model_new(c, data ? &swai_arith : NULL);
	struct swccl_cost dummy;
	int e;

	if (!m)
		return "no memory for the model";
	e = swccl_model_run(m, c, s, scratch, cost ? cost : &dummy, why, sizeof(why));
	swccl_model_free(m);
	return e ? why : NULL;
}

/* The modeled time of @a on @c; launches and host syncs in @p. */
static double cost(const struct swccl_algo *a, const struct swccl_call *c, struct swccl_plan *p)
{
	struct swccl_cost k = { 0 };
	const char *err;

	memset(p, 0, sizeof(*p));
	swccl_sched_init(&p->sched, c->nranks, a->props & SWCCL_ALGO_HOST_SYNC);
	swccl_sched_algo(&p->sched, c, a);
	swccl_sched_count(&p->sched, &p->launches, &p->host_syncs);
	err = model_run(c, &p->sched, a->scratch(c), false, &k);
	if (err)
		printf("# %s %s: %s\n", c->kind->name(c), a->name, err);
	CHECK(!err);
	swccl_sched_free(&p->sched);
	p->us = k.us;
	p->transfer_us = k.transfer_us;
	return k.us;
}

static double model(enum swccl_coll coll, swcclAlgo_t a, size_t count, enum swccl_tier t,
		    bool inplace, struct swccl_plan *p)
{
	struct swccl_call c = call4(coll, count, t, inplace);
	double us = cost(swccl_algo_find(coll, a), &c, p);

	if (getenv("V"))
		printf("# %s %s count %zu: %.3f us\n", c.kind->name(&c), swcclAlgoName(a), count, us);
	return us;
}

/* The paper's eqs. (3) and (4) at 8 MB, and the card's times of our algorithms. */
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
	 * A ring bus of 400 GB/s for all Global bytes, reads and writes: four
	 * Global->Global COPYs at once get 50 GB/s each, 45 us a shard -- less
	 * the part of a shard a core group that finished first copies while the
	 * others still end theirs (the calendars share the bus chunk by chunk).
	 */
	{
		struct swccl_call c = call4(SWCCL_ALLGATHER, count, SWCCL_GLOBAL, true);

		c.tp.ringTotalMBps = 400000;
		cost(swccl_algo_find(SWCCL_ALLGATHER, swcclAlgoCsc), &c, &p);
		if (getenv("V"))
			printf("# CSC AG on a 400 GB/s ring: %.3f us\n", p.us);
		CHECK(p.us <= 25 + 15 + 3 * 45 + 1 && p.us > 25 + 15 + 3 * 45 + 1 - 1.5);
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

/* Run every step of @a for @c on the engine, on host memory. */
static const char *execute(const struct swccl_algo *a, struct swccl_call *c)
{
	struct swccl_sched s;
	const char *err;

	swccl_sched_init(&s, c->nranks, a->props & SWCCL_ALGO_HOST_SYNC);
	swccl_sched_algo(&s, c, a);
	err = model_run(c, &s, 0, true, NULL);
	swccl_sched_free(&s);
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
	struct swccl_call c = { .kind = &kind_coll, .coll = coll,
				.dtype = random ? swcclFloat32 : swcclInt32,
				.op = random ? swcclSum : swcclMax, .root = nr - 1, .count = count,
				.esize = 4, .nranks = nr, .ldm = 4096 + 64, .tp = paper(),
				.peer = peer, .seq = 1 };
	const struct swccl_algo *a = swccl_algo_find(coll, al);
	bool a2a = coll == SWCCL_ALLTOALL;
	size_t b = count * 4, sb = coll == SWCCL_REDUCESCATTER || a2a ? nr * b : b;
	size_t rb = coll == SWCCL_ALLGATHER || a2a ? nr * b : b;
	uint8_t *buf[SWCCL_MAX_RANKS], *rbuf[SWCCL_MAX_RANKS], *scratch;
	const char *err;
	int bad = 0;

	if (!a)
		return 0;	/* between cards only: sdaa/swccl selftests in the VM */
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
	err = execute(a, &c);
	if (err) {
		printf("# %s: %s\n", a->name, err);
		bad = 1;
	}
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
			else if (a2a)	/* block j is rank j's block r */
				want = ival((int)(i / count), (size_t)r * count + i % count);
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
							printf("# %d %s nr %d count %zu variant %d\n",
							       coll, swcclAlgoName(al), nr, counts[k], v);
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
			if (!swccl_algo_find(coll, al))
				continue;	/* between cards only (swai-vm selftests) */
			CHECK_EQ(run(coll, al, 4, n, false, true, SWCCL_GLOBAL, true, got), 0);
			CHECK(!memcmp(ref, got, 4 * n));
		}
		free(ref);
		free(got);
	}
}

/*
 * The fused calls on host memory: every rank's fused jobs on the engine,
 * barriers and all, against the unfused sequence run the same way (bitwise)
 * and against the independent host reference (runtime/kernels/swk_ref.c).
 */
#define FLDM (64u << 10)
#define FINSNS 60			/* small: the emitters split, jobs pack */

static uint64_t fsems[64];

static void fill(void *p, size_t n, int dt, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		swk_store((uint8_t)dt, p, i, (float)((splitmix64(seed) % 2001) / 1000.0 - 1.0));
}

#define VA(p) ((uint64_t)(uintptr_t)(p))

static struct swccl_buf fbuf(const void *p, size_t bytes, int r)
{
	return (struct swccl_buf){ VA(p), SWCCL_LOCAL, r, bytes };
}

static struct swccl_call fcall(enum swccl_coll coll, int nr, swcclDataType_t t, size_t rows,
			       size_t hidden, size_t n, bool fused)
{
	struct swccl_call c = { .kind = &kind_fused, .coll = coll, .dtype = t,
				.esize = swccl_type_size(t), .nranks = nr, .seq = 7,
				.ldm = FLDM, .kinsns = FINSNS, .tp = paper() };

	c.fz = (struct swccl_fused){ .rows = rows, .hidden = hidden, .n = n, .eps = 1e-5f,
				     .gelu = 1, .keep = 0.75f, .seed = 42, .offset = 1000,
				     .fused = fused };
	memset(fsems, 0, sizeof(fsems));
	c.sem.barrier = VA(&fsems[0]);
	for (int r = 0; r < nr; r++) {
		c.sem.flag[r] = VA(&fsems[1 + r]);
		c.sem.progress[r] = VA(&fsems[20 + r]);
		c.r[r].cg = r;
	}
	return c;
}

static int splits;	/* rank jobs that needed more than one job: packing tested */

/* The call's schedule, fused or not, run on the engine; 0 if it ran. */
static int frun(struct swccl_call *c)
{
	struct swccl_call coll;
	struct swccl_sched s;
	uint8_t *scratch = NULL;
	const char *err;
	int e = 0, p;

	swccl_sched_init(&s, c->nranks, false);
	if (c->fz.fused) {
		p = swccl_sched_phase(&s);
		for (int r = 0; r < c->nranks && !e; r++) {
			struct swai_progs *js = swccl_sched_jobs(&s, p, r);

			e = c->coll == SWCCL_ALLGATHER ? fused_ag_jobs(c, r, js) :
							 fused_rs_jobs(c, r, js);
			splits += js->n > 1;
			for (int j = 0; j < js->n; j++)
				CHECK(js->p[j].n <= FINSNS);
			/* the last instruction reports the call done */
			CHECK(js->p[js->n - 1].in[js->p[js->n - 1].n - 1].src ==
			      (7ULL << 8 | SWCCL_STEP_DONE));
		}
	} else {
		fused_seq_collective(c, &coll);
		coll.scratch_bytes = swccl_algo_find(coll.coll, swcclAlgoCsc)->scratch(&coll);
		scratch = calloc(1, coll.scratch_bytes + 8);
		coll.scratch = c->scratch = VA(scratch);
		c->scratch_bytes = coll.scratch_bytes;
		e = fused_seq_schedule(c, &coll, &s);
	}
	CHECK_EQ(e, 0);
	err = e ? "no schedule" : model_run(c, &s, 0, true, NULL);
	if (err)
		printf("# %s %s: %s\n", c->kind->name(c), c->fz.fused ? "fused" : "unfused", err);
	swccl_sched_free(&s);
	free(scratch);
	c->scratch = 0;
	c->scratch_bytes = 0;
	return err ? -1 : 0;
}

static void fused_ag(int nr, swcclDataType_t t, size_t rows, size_t h, size_t ffn)
{
	size_t es = swccl_type_size(t), m = rows * (size_t)nr;
	int dt = swccl_type_dt(t);
	uint8_t *x[4], *w[4], *y[2][4];
	float *gamma = malloc(h * 4), *beta = malloc(h * 4), *out[2][4];
	float *ref = malloc(m * ffn * 4), *tol = malloc(m * ffn * 4);
	uint8_t *yref = malloc(m * h * es), *stage = NULL;
	uint64_t seed = 1;

	fill(gamma, h, SWAI_DT_F32, &seed);
	fill(beta, h, SWAI_DT_F32, &seed);
	for (int r = 0; r < nr; r++) {
		x[r] = malloc(rows * h * es);
		w[r] = malloc(h * ffn * es);
		fill(x[r], rows * h, dt, &seed);
		fill(w[r], h * ffn, dt, &seed);
	}
	for (int f = 0; f < 2; f++) {
		struct swccl_call c = fcall(SWCCL_ALLGATHER, nr, t, rows, h, ffn, f);

		if (f) {
			c.stage_bytes = fused_ag_stage_bytes(&c);
			stage = calloc(1, 2 * c.stage_bytes + 1);
			c.stage = VA(stage) + c.stage_bytes;	/* the second half */
		}
		for (int r = 0; r < nr; r++) {
			y[f][r] = malloc(m * h * es);
			out[f][r] = malloc(m * ffn * 4);
			memset(y[f][r], 0xee, m * h * es);
			c.r[r].fb[FB_X] = fbuf(x[r], rows * h * es, r);
			c.r[r].fb[FB_Y] = fbuf(y[f][r], m * h * es, r);
			c.r[r].fb[FB_GAMMA] = (struct swccl_buf){ VA(gamma), SWCCL_GLOBAL, -1, h * 4 };
			c.r[r].fb[FB_BETA] = (struct swccl_buf){ VA(beta), SWCCL_GLOBAL, -1, h * 4 };
			c.r[r].fb[FB_W] = fbuf(w[r], h * ffn * es, r);
			c.r[r].fb[FB_OUT] = fbuf(out[f][r], m * ffn * 4, r);
		}
		CHECK_EQ(frun(&c), 0);
	}
	/* the host reference: LayerNorm exactly, the GEMM within the tolerance */
	for (int r = 0; r < nr; r++)
		swk_ref_layernorm((uint32_t)rows, (uint32_t)h, 1e-5f, (uint8_t)dt, x[r], (uint32_t)h,
				  gamma, beta, yref + r * rows * h * es, (uint32_t)h);
	for (int r = 0; r < nr; r++) {
		int far = 0;

		CHECK(!memcmp(y[0][r], y[1][r], m * h * es));
		CHECK(!memcmp(out[0][r], out[1][r], m * ffn * 4));
		CHECK(!memcmp(y[1][r], yref, m * h * es));
		swk_ref_gemm(0, 0, (uint32_t)m, (uint32_t)ffn, (uint32_t)h, 1.0f, yref, (uint32_t)h,
			     w[r], (uint32_t)ffn, 0.0f, ref, (uint32_t)ffn, (uint8_t)dt,
			     SWAI_EPI_GELU, tol);
		for (size_t i = 0; i < m * ffn; i++)
			far += !(fabsf(out[1][r][i] - ref[i]) <= tol[i]);
		CHECK_EQ(far, 0);
	}
	for (int r = 0; r < nr; r++) {
		free(x[r]);
		free(w[r]);
		for (int f = 0; f < 2; f++) {
			free(y[f][r]);
			free(out[f][r]);
		}
	}
	free(gamma);
	free(beta);
	free(ref);
	free(tol);
	free(yref);
	free(stage);
}

static void fused_rs(int nr, swcclDataType_t t, size_t rows, size_t h, size_t k)
{
	size_t es = swccl_type_size(t), m = rows * (size_t)nr, blk = rows * h;
	int dt = swccl_type_dt(t);
	uint8_t *a[4], *w[4], *stage = NULL;
	float *out[2][4], *tmp[4], *p = malloc(m * h * 4), *acc = malloc(blk * 4);
	float *want = malloc(blk * 4), *sum[4], *tol = malloc(m * h * 4);
	uint64_t seed = 2;

	for (int r = 0; r < nr; r++) {
		a[r] = malloc(m * k * es);
		w[r] = malloc(k * h * es);
		tmp[r] = malloc(m * h * 4);
		sum[r] = malloc(m * h * 4);
		fill(a[r], m * k, dt, &seed);
		fill(w[r], k * h, dt, &seed);
	}
	for (int f = 0; f < 2; f++) {
		struct swccl_call c = fcall(SWCCL_REDUCESCATTER, nr, t, rows, h, k, f);

		if (f) {
			c.stage_bytes = fused_rs_stage_bytes(&c);
			stage = calloc(1, c.stage_bytes + 1);
			c.stage = VA(stage);
		}
		for (int r = 0; r < nr; r++) {
			out[f][r] = malloc(blk * 4);
			c.r[r].fb[FB_X] = fbuf(a[r], m * k * es, r);
			c.r[r].fb[FB_W] = fbuf(w[r], k * h * es, r);
			c.r[r].fb[FB_OUT] = fbuf(out[f][r], blk * 4, r);
			c.r[r].tmp = fbuf(tmp[r], (f ? blk : m * h) * 4, r);
		}
		CHECK_EQ(frun(&c), 0);
	}
	/* the host reference: P_r = A_r W_r, the rank-order sum, the dropout */
	for (int r = 0; r < nr; r++)
		swk_ref_gemm(0, 0, (uint32_t)m, (uint32_t)h, (uint32_t)k, 1.0f, a[r], (uint32_t)k,
			     w[r], (uint32_t)h, 0.0f, sum[r], (uint32_t)h, (uint8_t)dt, 0, tol);
	for (int r = 0; r < nr; r++) {
		int far = 0;

		CHECK(!memcmp(out[0][r], out[1][r], blk * 4));
		memcpy(acc, sum[0] + r * blk, blk * 4);
		for (int j = 1; j < nr; j++)
			for (size_t i = 0; i < blk; i++)
				acc[i] = acc[i] + sum[j][r * blk + i];
		swk_ref_dropout(blk, SWAI_DT_F32, 0.75f, 42, 1000 + r * blk, acc, want);
		for (size_t i = 0; i < blk; i++)
			far += !(fabsf(out[1][r][i] - want[i]) <= 1e-3f * (1 + fabsf(want[i])));
		CHECK_EQ(far, 0);
	}
	for (int r = 0; r < nr; r++) {
		free(a[r]);
		free(w[r]);
		free(tmp[r]);
		free(sum[r]);
		for (int f = 0; f < 2; f++)
			free(out[f][r]);
	}
	free(p);
	free(acc);
	free(want);
	free(tol);
	free(stage);
}

static void test_fused(void)
{
	fused_ag(4, swcclFloat32, 37, 72, 40);
	fused_ag(4, swcclBfloat16, 37, 72, 40);
	fused_ag(3, swcclBfloat16, 5, 130, 9);
	fused_ag(1, swcclFloat32, 8, 16, 16);
	fused_rs(4, swcclFloat32, 37, 72, 40);
	fused_rs(4, swcclBfloat16, 21, 33, 70);
	fused_rs(2, swcclBfloat16, 3, 300, 5);
	fused_rs(1, swcclFloat32, 8, 16, 16);
	fused_ag(4, swcclFloat32, 150, 96, 80);		/* more than one job per rank */
	CHECK(splits >= 4);
	CHECK(SWCCL_FUSED_RESERVE <= 8);
}

/* A call shape is planned once; another shape, or a forced algorithm, is another plan. */
static void test_plan_cache(void)
{
	struct swccl_shared sh = { .plans = swccl_plan_cache_new() };
	struct swccl_call c = call4(SWCCL_ALLREDUCE, 256, SWCCL_GLOBAL, true);
	struct swccl_plan p = { .algo = swcclAlgoCsc1, .us = 42.5, .transfer_us = 1 }, q;

	CHECK(!swccl_plan_lookup(&sh, &c, &q));
	swccl_plan_store(&sh, &c, &p);
	memset(&q, 0, sizeof(q));
	CHECK(swccl_plan_lookup(&sh, &c, &q));
	CHECK_EQ(q.algo, swcclAlgoCsc1);
	CHECK(q.us == 42.5);
	c.seq = 99;				/* the sequence number is not the shape */
	c.tp.hostClockNs = 12345;		/* nor the clocks */
	CHECK(swccl_plan_lookup(&sh, &c, &q));
	c.count++;
	CHECK(!swccl_plan_lookup(&sh, &c, &q));
	c.count--;
	c.want = swcclAlgoRing;
	CHECK(!swccl_plan_lookup(&sh, &c, &q));
	c.want = swcclAlgoAuto;
	c.r[2].recv.va += 4;			/* a buffer elsewhere */
	CHECK(!swccl_plan_lookup(&sh, &c, &q));
	/* At most SWCCL_PLAN_CACHE (64) shapes, the least recently used goes. */
	for (size_t n = 1; n <= 64; n++) {
		struct swccl_call d = call4(SWCCL_ALLREDUCE, 1000 + n, SWCCL_GLOBAL, true);

		swccl_plan_store(&sh, &d, &p);
	}
	c = call4(SWCCL_ALLREDUCE, 256, SWCCL_GLOBAL, true);
	CHECK(!swccl_plan_lookup(&sh, &c, &q));
	swccl_plan_cache_free(sh.plans);
}

static void test_subsys(void)
{
	CHECK_EQ(swccl_subsys_parse("ALL"), SWCCL_SUBSYS_ALL);
	CHECK_EQ(swccl_subsys_parse("plan,launch"), SWCCL_PLAN | SWCCL_LAUNCH);
	CHECK_EQ(swccl_subsys_parse("^INIT"), SWCCL_SUBSYS_ALL & ~SWCCL_INIT);
	CHECK_EQ(swccl_subsys_parse("nonsense"), 0);
}

/*
 * A call over the NICs, piece by piece (swccl_nic_piece.c), on 64-bit
 * words -- the givers' sum (XOR for AllGather and Broadcast, whose other
 * ranks give zeros) written to the keepers -- is the collective.
 */
static void test_nic_pieces(void)
{
	enum { R = 5, C = 23 };
	static uint64_t in[R][R * C], out[R][R * C];
	uint64_t seed = 7;

	for (int coll = SWCCL_ALLGATHER; coll <= SWCCL_REDUCE; coll++)
		for (int n = 1; n <= R; n++)
			for (size_t count = 0; count <= C; count += 1 + count / 3) {
				struct swccl_call c = { .coll = coll, .nranks = n, .count = count,
							.esize = 8, .root = n - 1 };
				bool bits = coll == SWCCL_ALLGATHER || coll == SWCCL_BROADCAST;
				size_t np = swccl_nic_pieces(&c), inw = swccl_nic_in_bytes(&c) / 8;
				int bad = 0;

				for (int r = 0; r < n; r++)
					for (size_t i = 0; i < R * C; i++) {
						in[r][i] = splitmix64(&seed) >> 8;
						out[r][i] = 0;
					}
				for (size_t i = 0; i < np; i++) {
					struct swccl_nic_piece p;
					uint64_t v[6];

					swccl_nic_piece(&c, i, &p);
					CHECK(p.count <= 6 && p.root >= 0 && p.root < n);
					for (unsigned int e = 0; e < p.count; e++) {
						v[e] = 0;
						for (int g = 0; g < n; g++)
							if (p.all_give || g == p.root)
								v[e] = bits ? v[e] ^ in[g][p.in_off / 8 + e] :
								       v[e] + in[g][p.in_off / 8 + e];
					}
					for (int k = 0; k < n; k++)
						if (p.all_keep || k == p.root)
							memcpy(&out[k][p.out_off / 8], v, p.count * 8);
				}
				for (int r = 0; r < n; r++)
					for (size_t i = 0; i < (coll == SWCCL_ALLGATHER ? n * count : count); i++) {
						uint64_t want = 0;

						if (coll == SWCCL_ALLGATHER)
							want = in[i / count][i % count];
						else if (coll == SWCCL_BROADCAST)
							want = in[c.root][i];
						else
							for (int g = 0; g < n; g++)
								want += in[g][(coll == SWCCL_REDUCESCATTER ?
									       (size_t)r * count : 0) + i];
						if (coll == SWCCL_REDUCE && r != c.root)
							want = 0;
						bad += out[r][i] != want;
					}
				CHECK_EQ(bad, 0);
				CHECK(inw == (coll == SWCCL_REDUCESCATTER ? n * count : count));
			}
}

static const struct tap_test tests[] = {
	{ "fused calls: bitwise the unfused sequence and the host reference", test_fused },
	{ "shard arithmetic", test_shards },
	{ "cost model: the card's times, eqs. (3)-(8)", test_cost_model },
	{ "programs of every collective x algorithm give exact results", test_programs },
	{ "rank-order reduction: bitwise identical across algorithms", test_bitwise },
	{ "plan cache: one plan per call shape", test_plan_cache },
	{ "SWCCL_DEBUG_SUBSYS", test_subsys },
	{ "NIC calls as 48-byte trees: every collective's result", test_nic_pieces },
};

TAP_MAIN(tests)
