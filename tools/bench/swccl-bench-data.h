/* SPDX-License-Identifier: MIT */
/*
 * swccl-bench-data.h - the data swccl-bench feeds the collectives and the
 * results it expects, exactly (no tolerance): every input is a small integer
 * chosen so that every partial reduction, in any type (u8, f16, bf16 too),
 * is exactly representable, so the reference computed on the host in double
 * is the bitwise result whatever order the card reduced in.
 */
#ifndef SWCCL_BENCH_DATA_H
#define SWCCL_BENCH_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swccl.h"

enum bench_coll { COLL_AG, COLL_RS, COLL_AR, COLL_BC, COLL_RD, COLL_BAR, COLL_A2A, COLL_A2AV,
		  COLL_SR, NCOLL };

/* Poison byte of every output element the collective must overwrite. */
#define BENCH_POISON 0xee

const char *bench_coll_name(enum bench_coll c);
int bench_coll_parse(const char *s, enum bench_coll *c);
/* Element size in bytes, 0 for an unknown type. */
size_t bench_type_size(swcclDataType_t t);
const char *bench_type_name(swcclDataType_t t);
int bench_type_parse(const char *s, swcclDataType_t *t);
/* "AUTO", "RING", "CSC", "CSC1" (as swcclAlgoName, without linking libswccl). */
const char *bench_algo_name(swcclAlgo_t a);
int bench_algo_parse(const char *s, swcclAlgo_t *a);
const char *bench_op_name(swcclRedOp_t op);
int bench_op_parse(const char *s, swcclRedOp_t *op);

/* @v (exactly representable) stored as element @i of a @t array. */
void bench_store(void *buf, size_t i, swcclDataType_t t, double v);
/* IEEE binary16 / bfloat16 bits of @f, rounded to nearest even. */
uint16_t bench_f32_to_f16(float f);
uint16_t bench_f32_to_bf16(float f);

/*
 * Element @j of rank @r's input (the global index: for AllGather and
 * Broadcast, the element's place in the full output; for the reductions,
 * its place in the full send buffer).
 */
double bench_input(enum bench_coll c, swcclDataType_t t, swcclRedOp_t op, int r, int nranks,
		   size_t j);
/* The correct output at global index @j (AG/BC: the input; else the reduction). */
/*
 * AllToAll: element @j of what rank @y receives (block j / @per is rank
 * x's block y), that is, rank x's input element y * per + j % per.
 */
/* Collectives whose output is never their input's buffer (AllToAllv, SendRecv). */
static inline bool bench_coll_apart(enum bench_coll c)
{
	return c == COLL_A2AV || c == COLL_SR;
}
double bench_a2a_expect(swcclDataType_t t, int nranks, size_t per, int y, size_t j);
/*
 * AllToAllv's blocks as swccl-bench lays them out for rank @x of @n, @per
 * elements a peer at most: the block x -> y holds (per - 1)(1 + (x + 2y)
 * mod 3) / 3 elements -- or with a @seed (not 0) a count drawn from it in
 * [0, per - 1], a quarter of the blocks empty, the same in every process --
 * and every block is followed by a gap of one element (so displacements
 * matter, and nothing may land in a gap).
 */
void bench_v_layout(int x, int n, size_t per, unsigned int seed, size_t *sendcounts,
		    size_t *sdispls, size_t *recvcounts, size_t *rdispls);
double bench_expect(enum bench_coll c, swcclDataType_t t, swcclRedOp_t op, int nranks, int root,
		    size_t j);

#endif /* SWCCL_BENCH_DATA_H */
