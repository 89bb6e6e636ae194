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
#include "swk-interp.h"
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
		struct swai_prog prog[SWCCL_MAX_RANKS], *pp[SWCCL_MAX_RANKS];
		struct swccl_sim_result res;

		for (int r = 0; r < c->nranks; r++) {
			swai_prog_init(&prog[r]);
			a->build(c, s, r, &prog[r]);
			pp[r] = &prog[r];
		}
		swccl_sim_step(c, pp, &mem, &res);
		err = res.error;
		for (int r = 0; r < c->nranks; r++)
			swai_prog_free(&prog[r]);
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

/*
 * The fused calls' programs on host memory: every rank's jobs up to the
 * barrier, then every rank's jobs after it (the interpreter of kernels/
 * runs the emitters' instructions; SIGNAL and BARRIER are ours).  The
 * results must be bitwise those of the unfused sequence run the same way.
 */
#define FLDM (64u << 10)
#define FINSNS 60			/* small: the emitters split, jobs pack */

static void run_phases(struct swai_progs *jobs, int nr, int *barriers, int *errors)
{
	struct swk_cfg cfg = { .ldm_bytes = FLDM, .max_insns = FINSNS };

	for (int phase = 0; phase < 2; phase++)
		for (int r = 0; r < nr; r++) {
			struct swai_progs ps;
			int seen = 0;

			swai_progs_init(&ps);
			for (int j = 0; j < jobs[r].n; j++) {
				struct swai_prog *p = NULL;

				CHECK(jobs[r].p[j].n <= FINSNS);
				for (int i = 0; i < jobs[r].p[j].n; i++) {
					const struct swai_insn *in = &jobs[r].p[j].in[i];

					if (in->op == SWAI_OP_BARRIER) {
						seen++;
						p = NULL;	/* the rest is another phase */
						continue;
					}
					if (in->op == SWAI_OP_SIGNAL || seen != phase)
						continue;
					if (!p)
						p = swai_progs_add(&ps);
					*swai_prog_add(p) = *in;
				}
			}
			if (phase == 0)
				barriers[r] = seen;
			if (ps.n) {
				struct interp it = { 0 };

				*errors += interp_run(&it, &ps, &cfg);
				if (it.errors)
					printf("# rank %d phase %d: %s\n", r, phase, it.why);
			}
			swai_progs_free(&ps);
		}
}

static void run_unit(const struct swai_progs *ps, int *errors)
{
	struct swk_cfg cfg = { .ldm_bytes = FLDM, .max_insns = FINSNS };
	struct interp it = { 0 };

	*errors += interp_run(&it, ps, &cfg);
}

static void fill(void *p, size_t n, int dt, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		swk_store((uint8_t)dt, p, i, (float)((splitmix64(seed) % 2001) / 1000.0 - 1.0));
}

static struct swccl_call fcall(enum swccl_coll coll, int nr, swcclDataType_t t, size_t rows,
			       size_t hidden, size_t n)
{
	struct swccl_call c = { .coll = coll, .dtype = t, .esize = swccl_type_size(t),
				.nranks = nr, .seq = 7, .ldm = FLDM };

	c.fz = (struct swccl_fused){ .rows = rows, .hidden = hidden, .n = n, .eps = 1e-5f,
				     .gelu = 1, .keep = 0.75f, .seed = 42, .offset = 1000,
				     .fused = true };
	c.sem.barrier = 0x100;
	for (int r = 0; r < nr; r++)
		c.sem.progress[r] = 0x200 + 8 * (uint64_t)r;
	return c;
}

#define VA(p) ((uint64_t)(uintptr_t)(p))

static int splits;	/* rank jobs that needed more than one job: packing tested */

static void fused_ag(int nr, swcclDataType_t t, size_t rows, size_t h, size_t ffn)
{
	struct swccl_call c = fcall(SWCCL_FUSED_AG, nr, t, rows, h, ffn);
	size_t es = c.esize, m = rows * (size_t)nr;
	int dt = swccl_type_dt(t), err = 0, bars[SWCCL_MAX_RANKS];
	uint8_t *x[4], *w[4], *y[4], *yref;
	float *gamma = malloc(h * 4), *beta = malloc(h * 4), *out[4], *oref = malloc(m * ffn * 4);
	uint8_t *stage = calloc(1, 2 * fused_ag_stage_bytes(&c) + 1);
	struct swai_progs jobs[4];
	uint64_t seed = 1;

	yref = malloc(m * h * es);
	fill(gamma, h, SWAI_DT_F32, &seed);
	fill(beta, h, SWAI_DT_F32, &seed);
	c.stage = VA(stage) + fused_ag_stage_bytes(&c);	/* the second half */
	for (int r = 0; r < nr; r++) {
		x[r] = malloc(rows * h * es);
		w[r] = malloc(h * ffn * es);
		y[r] = malloc(m * h * es);
		out[r] = malloc(m * ffn * 4);
		fill(x[r], rows * h, dt, &seed);
		fill(w[r], h * ffn, dt, &seed);
		memset(y[r], 0xee, m * h * es);
		c.r[r].fb[FB_X].va = VA(x[r]);
		c.r[r].fb[FB_Y].va = VA(y[r]);
		c.r[r].fb[FB_GAMMA].va = VA(gamma);
		c.r[r].fb[FB_BETA].va = VA(beta);
		c.r[r].fb[FB_W].va = VA(w[r]);
		c.r[r].fb[FB_OUT].va = VA(out[r]);
		swai_progs_init(&jobs[r]);
		CHECK_EQ(fused_ag_jobs(&c, r, FLDM, FINSNS, &jobs[r]), 0);
		splits += jobs[r].n > 1;
	}
	run_phases(jobs, nr, bars, &err);
	CHECK_EQ(err, 0);
	/* the unfused sequence: LayerNorm per rank, AllGather (copies), GEMM per rank */
	for (int r = 0; r < nr; r++) {
		struct swk_ln ln = { .rows = (uint32_t)rows, .cols = (uint32_t)h, .eps = 1e-5f,
				     .dtype = (uint8_t)dt, .x = VA(x[r]), .gamma = VA(gamma),
				     .beta = VA(beta), .ldx = (uint32_t)h };
		struct swk_cfg cfg = { .ldm_bytes = FLDM, .max_insns = FINSNS };
		struct swai_progs ps;

		ln.y.va[0] = VA(yref + r * rows * h * es);
		ln.y.ld = (uint32_t)h;
		swai_progs_init(&ps);
		CHECK_EQ(swk_layernorm(&ps, &ln, &cfg), 0);
		run_unit(&ps, &err);
		swai_progs_free(&ps);
	}
	for (int r = 0; r < nr; r++) {
		struct swk_gemm g = { .m = (uint32_t)m, .n = (uint32_t)ffn, .k = (uint32_t)h,
				      .alpha = 1, .dtype = (uint8_t)dt, .epilogue = SWAI_EPI_GELU };
		struct swk_cfg cfg = { .ldm_bytes = FLDM, .max_insns = FINSNS };
		struct swai_progs ps;

		g.a.va[0] = VA(yref);
		g.a.ld = g.c.ld = (uint32_t)h;
		g.b.va[0] = VA(w[r]);
		g.b.ld = g.c.ld = (uint32_t)ffn;
		g.c.va[0] = VA(oref);
		swai_progs_init(&ps);
		CHECK_EQ(swk_gemm(&ps, &g, &cfg), 0);
		run_unit(&ps, &err);
		swai_progs_free(&ps);
		CHECK_EQ(err, 0);
		CHECK_EQ(bars[r], 1);
		CHECK(!memcmp(y[r], yref, m * h * es));
		CHECK(!memcmp(out[r], oref, m * ffn * 4));
		/* the last instruction reports the call done */
		CHECK(jobs[r].p[jobs[r].n - 1].in[jobs[r].p[jobs[r].n - 1].n - 1].src ==
		      (7ULL << 8 | SWCCL_STEP_DONE));
	}
	for (int r = 0; r < nr; r++) {
		swai_progs_free(&jobs[r]);
		free(x[r]);
		free(w[r]);
		free(y[r]);
		free(out[r]);
	}
	free(gamma);
	free(beta);
	free(oref);
	free(yref);
	free(stage);
}

static void fused_rs(int nr, swcclDataType_t t, size_t rows, size_t h, size_t k)
{
	struct swccl_call c = fcall(SWCCL_FUSED_RS, nr, t, rows, h, k);
	size_t es = c.esize, m = rows * (size_t)nr, blk = rows * h;
	int dt = swccl_type_dt(t), err = 0, bars[SWCCL_MAX_RANKS];
	uint8_t *a[4], *w[4];
	float *out[4], *tmp[4], *p[4], *acc = malloc(blk * 4), *want = malloc(blk * 4);
	uint8_t *stage = calloc(1, fused_rs_stage_bytes(&c) + 1);
	struct swai_progs jobs[4];
	uint64_t seed = 2;

	c.stage = VA(stage);
	for (int r = 0; r < nr; r++) {
		a[r] = malloc(m * k * es);
		w[r] = malloc(k * h * es);
		out[r] = malloc(blk * 4);
		tmp[r] = malloc(blk * 4);
		p[r] = malloc(m * h * 4);
		fill(a[r], m * k, dt, &seed);
		fill(w[r], k * h, dt, &seed);
		c.r[r].fb[FB_X].va = VA(a[r]);
		c.r[r].fb[FB_W].va = VA(w[r]);
		c.r[r].fb[FB_OUT].va = VA(out[r]);
		c.r[r].tmp = VA(tmp[r]);
		swai_progs_init(&jobs[r]);
		CHECK_EQ(fused_rs_jobs(&c, r, FLDM, FINSNS, &jobs[r]), 0);
	}
	run_phases(jobs, nr, bars, &err);
	CHECK_EQ(err, 0);
	/* unfused: the whole P_r per rank, then the rank-order sum and the dropout */
	for (int r = 0; r < nr; r++) {
		struct swk_gemm g = { .m = (uint32_t)m, .n = (uint32_t)h, .k = (uint32_t)k,
				      .alpha = 1, .dtype = (uint8_t)dt };
		struct swk_cfg cfg = { .ldm_bytes = FLDM, .max_insns = FINSNS };
		struct swai_progs ps;

		g.a.va[0] = VA(a[r]);
		g.a.ld = (uint32_t)k;
		g.b.va[0] = VA(w[r]);
		g.b.ld = g.c.ld = (uint32_t)h;
		g.c.va[0] = VA(p[r]);
		swai_progs_init(&ps);
		CHECK_EQ(swk_gemm(&ps, &g, &cfg), 0);
		run_unit(&ps, &err);
		swai_progs_free(&ps);
	}
	CHECK_EQ(err, 0);
	for (int r = 0; r < nr; r++) {
		memcpy(acc, p[0] + r * blk, blk * 4);
		for (int j = 1; j < nr; j++)
			for (size_t i = 0; i < blk; i++)
				acc[i] = acc[i] + p[j][r * blk + i];
		swk_ref_dropout(blk, SWAI_DT_F32, 0.75f, 42, 1000 + r * blk, acc, want);
		CHECK_EQ(bars[r], 1);
		CHECK(!memcmp(out[r], want, blk * 4));
	}
	for (int r = 0; r < nr; r++) {
		swai_progs_free(&jobs[r]);
		free(a[r]);
		free(w[r]);
		free(out[r]);
		free(tmp[r]);
		free(p[r]);
	}
	free(acc);
	free(want);
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

static const struct tap_test tests[] = {
	{ "fused calls: bitwise the unfused sequence, one barrier", test_fused },
	{ "shard arithmetic", test_shards },
	{ "cost model: eqs. (3)-(8) and our closed forms", test_cost_model },
	{ "programs of every collective x algorithm give exact results", test_programs },
	{ "rank-order reduction: bitwise identical across algorithms", test_bitwise },
};

TAP_MAIN(tests)
