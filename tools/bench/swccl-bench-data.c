// SPDX-License-Identifier: MIT
/*
 * swccl-bench-data.c - exact inputs and references for swccl-bench.
 *
 * Copies (AllGather, Broadcast) get a hash of the element's global index in
 * the type's exact integer range, so a misplaced or stale block is caught.
 * Reductions get per-rank hashed values in 0..15 (signed types: -8..7), for
 * prod in {1, 2} (signed: {-1, 1, 2}), so with up to 8 ranks every partial
 * result is an integer of magnitude <= 256: exact in bf16 (8 significant
 * bits), f16 and u8 (no wrap).  For avg the last rank's value is moved so
 * the sum is a multiple of the rank count: sum / n is then an exact integer,
 * the same for floats (divide) and integers (truncate).
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "splitmix64.h"
#include "swccl-bench-data.h"

static const char *const coll_names[NCOLL] = {
	"allgather", "reducescatter", "allreduce", "broadcast", "reduce", "barrier", "alltoall",
	"alltoallv", "sendrecv"
};

const char *bench_coll_name(enum bench_coll c)
{
	return c < NCOLL ? coll_names[c] : "?";
}

int bench_coll_parse(const char *s, enum bench_coll *c)
{
	for (int i = 0; i < NCOLL; i++) {
		if (!strcasecmp(s, coll_names[i])) {
			*c = (enum bench_coll)i;
			return 0;
		}
	}
	return -1;
}

struct type_info {
	swcclDataType_t t;
	const char *name, *alias;	/* nccl-tests' name, short name */
	size_t size;
	double range;			/* copies: values 0 .. range - 1 */
	int is_signed;
};

static const struct type_info types[] = {
	{ swcclFloat32, "float", "f32", 4, 16777216.0, 1 },
	{ swcclFloat16, "half", "f16", 2, 2048.0, 1 },
	{ swcclBfloat16, "bfloat16", "bf16", 2, 256.0, 1 },
	{ swcclFloat64, "double", "f64", 8, 1073741824.0, 1 },
	{ swcclInt32, "int32", "i32", 4, 1073741824.0, 1 },
	{ swcclInt64, "int64", "i64", 8, 1073741824.0, 1 },
	{ swcclUint8, "uint8", "u8", 1, 256.0, 0 },
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

static const struct type_info *type_of(swcclDataType_t t)
{
	for (size_t i = 0; i < NTYPES; i++)
		if (types[i].t == t)
			return &types[i];
	return NULL;
}

size_t bench_type_size(swcclDataType_t t)
{
	const struct type_info *ti = type_of(t);

	return ti ? ti->size : 0;
}

const char *bench_type_name(swcclDataType_t t)
{
	const struct type_info *ti = type_of(t);

	return ti ? ti->name : "?";
}

int bench_type_parse(const char *s, swcclDataType_t *t)
{
	for (size_t i = 0; i < NTYPES; i++) {
		if (!strcasecmp(s, types[i].name) || !strcasecmp(s, types[i].alias)) {
			*t = types[i].t;
			return 0;
		}
	}
	return -1;
}

static const char *const algo_names[swcclNumAlgos] = { "AUTO", "RING", "CSC", "CSC1", "MESH1",
							"MESH2", "HD", "NHR", "RB", "FILE",
							"NIC", "HOST", "DIRECT", "PLANE" };

const char *bench_algo_name(swcclAlgo_t a)
{
	return a < swcclNumAlgos ? algo_names[a] : "?";
}

int bench_algo_parse(const char *s, swcclAlgo_t *a)
{
	for (int i = 0; i < swcclNumAlgos; i++) {
		if (!strcasecmp(s, algo_names[i])) {
			*a = (swcclAlgo_t)i;
			return 0;
		}
	}
	return -1;
}

static const char *const op_names[swcclNumOps] = { "sum", "prod", "max", "min", "avg" };

const char *bench_op_name(swcclRedOp_t op)
{
	return op < swcclNumOps ? op_names[op] : "?";
}

int bench_op_parse(const char *s, swcclRedOp_t *op)
{
	for (int i = 0; i < swcclNumOps; i++) {
		if (!strcasecmp(s, op_names[i])) {
			*op = (swcclRedOp_t)i;
			return 0;
		}
	}
	return -1;
}

/* Round-to-nearest-even of the low @drop bits of @m (a carry may overflow). */
static uint32_t round_even(uint32_t m, int drop)
{
	uint32_t half, rest;

	if (drop <= 0)
		return m;
	if (drop > 31)
		return 0;
	half = 1u << (drop - 1);
	rest = m & ((1u << drop) - 1);
	m >>= drop;
	if (rest > half || (rest == half && (m & 1)))
		m++;
	return m;
}

uint16_t bench_f32_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	if ((u & 0x7fffffffu) > 0x7f800000u)	/* NaN: keep it quiet */
		return (uint16_t)((u >> 16) | 0x40);
	return (uint16_t)round_even(u, 16);	/* a carry rolls into the exponent */
}

uint16_t bench_f32_to_f16(float f)
{
	uint32_t u, sign, mant;
	int exp;

	memcpy(&u, &f, 4);
	sign = (u >> 16) & 0x8000;
	exp = (int)((u >> 23) & 0xff) - 127 + 15;
	mant = u & 0x7fffff;
	if (((u >> 23) & 0xff) == 0xff)		/* inf, NaN */
		return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0)				/* subnormal (or zero) */
		return (uint16_t)(sign | round_even(mant | 0x800000, 14 - exp));
	/* Normal: a mantissa carry correctly bumps the exponent (to inf too). */
	return (uint16_t)(sign | round_even(((uint32_t)exp << 23) | mant, 13));
}

void bench_store(void *buf, size_t i, swcclDataType_t t, double v)
{
	switch (t) {
	case swcclFloat32: ((float *)buf)[i] = (float)v; break;
	case swcclFloat64: ((double *)buf)[i] = v; break;
	case swcclFloat16: ((uint16_t *)buf)[i] = bench_f32_to_f16((float)v); break;
	case swcclBfloat16: ((uint16_t *)buf)[i] = bench_f32_to_bf16((float)v); break;
	case swcclInt32: ((int32_t *)buf)[i] = (int32_t)v; break;
	case swcclInt64: ((int64_t *)buf)[i] = (int64_t)v; break;
	case swcclUint8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
	default: break;
	}
}

static uint64_t hash(uint64_t a, uint64_t b)
{
	uint64_t s = a * 0x100000001b3ull ^ b;

	return splitmix64(&s);
}

/* A reduction input before the avg adjustment. */
static double red_value(swcclDataType_t t, swcclRedOp_t op, int r, size_t j)
{
	uint64_t h = hash(j, (uint64_t)r + 1);
	int is_signed = type_of(t) ? type_of(t)->is_signed : 0;

	if (op == swcclProd) {
		static const double sv[3] = { -1, 1, 2 }, uv[3] = { 1, 1, 2 };

		return is_signed ? sv[h % 3] : uv[h % 3];
	}
	return (double)(h % 16) - (is_signed ? 8 : 0);
}

double bench_input(enum bench_coll c, swcclDataType_t t, swcclRedOp_t op, int r, int nranks,
		   size_t j)
{
	const struct type_info *ti = type_of(t);
	double sum = 0, v;
	long m;

	if (c == COLL_AG || c == COLL_BC)
		return ti ? (double)(hash(j, 0) % (uint64_t)ti->range) : 0;
	/* AllToAll(v), SendRecv: each (source, place) its own value, so a block says whose. */
	if (c == COLL_A2A || c == COLL_A2AV || c == COLL_SR)
		return ti ? (double)(hash(j, (uint64_t)r + 1) % (uint64_t)ti->range) : 0;
	v = red_value(t, op, r, j);
	if (op != swcclAvg || r != nranks - 1)
		return v;
	for (int q = 0; q < nranks - 1; q++)
		sum += red_value(t, op, q, j);
	m = ((long)(sum + v) % nranks + nranks) % nranks;
	/* Move toward the middle of the range so u8 stays >= 0. */
	return (ti && !ti->is_signed) || v < 0 ? v + (double)((nranks - m) % nranks) : v - (double)m;
}

double bench_a2a_expect(swcclDataType_t t, int nranks, size_t per, int y, size_t j)
{
	return bench_input(COLL_A2A, t, swcclSum, (int)(j / per), nranks,
			   (size_t)y * per + j % per);
}

/* splitmix64's finaliser: every (seed, x, y) its own well-mixed draw */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t v_count(int x, int y, size_t per, unsigned int seed)
{
	uint64_t h;

	if (!per)
		return 0;
	if (!seed)
		return (per - 1) * (size_t)(1 + (x + 2 * y) % 3) / 3;
	h = mix(((uint64_t)seed << 32) + ((uint64_t)x << 16) + (uint64_t)y +
		0x9e3779b97f4a7c15ULL);
	return h % 4 == 0 ? 0 : (size_t)((h >> 2) % per);
}

void bench_v_layout(int x, int n, size_t per, unsigned int seed, size_t *sendcounts,
		    size_t *sdispls, size_t *recvcounts, size_t *rdispls)
{
	size_t s = 0, r = 0;

	for (int q = 0; q < n; q++) {
		sendcounts[q] = v_count(x, q, per, seed);
		recvcounts[q] = v_count(q, x, per, seed);
		sdispls[q] = s;
		rdispls[q] = r;
		s += sendcounts[q] + 1;
		r += recvcounts[q] + 1;
	}
}

double bench_expect(enum bench_coll c, swcclDataType_t t, swcclRedOp_t op, int nranks, int root,
		    size_t j)
{
	double acc;

	/* copies: the giver's element (AllToAll: see bench_a2a_expect) */
	if (c == COLL_AG || c == COLL_BC || c == COLL_A2A || c == COLL_A2AV || c == COLL_SR)
		return bench_input(c, t, op, root, nranks, j);
	/* Rank order 0 .. n-1, as the library documents (exact anyway). */
	acc = bench_input(c, t, op, 0, nranks, j);
	for (int r = 1; r < nranks; r++) {
		double v = bench_input(c, t, op, r, nranks, j);

		switch (op) {
		case swcclProd: acc *= v; break;
		case swcclMax: acc = fmax(acc, v); break;
		case swcclMin: acc = fmin(acc, v); break;
		default: acc += v; break;
		}
	}
	return op == swcclAvg ? acc / nranks : acc;
}
