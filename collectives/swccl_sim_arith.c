// SPDX-License-Identifier: MIT
/*
 * swccl_sim_arith.c - REDUCE and DIV on host memory for the simulator's
 * functional mode (host unit tests), with the card's arithmetic
 * (datasheet §13.5): f16/bf16 through f32, round to nearest even (bf16
 * by runtime/kernels/swk_ref.c's converters); integers wrap; max/min keep a
 * non-NaN operand.
 */
#include <math.h>
#include <string.h>

#include "swccl_internal.h"
#include "swk.h"

static double op_f(double a, double b, int rop)
{
	switch (rop) {
	case SWAI_ROP_SUM: return a + b;
	case SWAI_ROP_PROD: return a * b;
	case SWAI_ROP_MAX: return isnan(b) ? a : isnan(a) ? b : a < b ? b : a;
	default: return isnan(b) ? a : isnan(a) ? b : b < a ? b : a;
	}
}

#define INT_OP(T)							\
	static T op_##T(T a, T b, int rop)				\
	{								\
		switch (rop) {						\
		case SWAI_ROP_SUM: return (T)(a + b);			\
		case SWAI_ROP_PROD: return (T)(a * b);			\
		case SWAI_ROP_MAX: return a < b ? b : a;		\
		default: return b < a ? b : a;				\
		}							\
	}
INT_OP(uint8_t)
INT_OP(uint32_t)
INT_OP(uint64_t)

static int32_t smax32(int32_t a, int32_t b, int rop)
{
	return rop == SWAI_ROP_MAX ? (a < b ? b : a) : (b < a ? b : a);
}

static int64_t smax64(int64_t a, int64_t b, int rop)
{
	return rop == SWAI_ROP_MAX ? (a < b ? b : a) : (b < a ? b : a);
}

void swccl_sim_reduce(void *dst, const void *src, uint64_t n, int dt, int rop,
		      const char **error)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	for (uint64_t i = 0; i < n; i++) {
		switch (dt) {
		case SWAI_DT_F32: {
			float a, b;

			memcpy(&a, d + 4 * i, 4);
			memcpy(&b, s + 4 * i, 4);
			a = rop == SWAI_ROP_SUM ? a + b : rop == SWAI_ROP_PROD ? a * b :
			    (float)op_f(a, b, rop);
			memcpy(d + 4 * i, &a, 4);
			break;
		}
		case SWAI_DT_F64: {
			double a, b;

			memcpy(&a, d + 8 * i, 8);
			memcpy(&b, s + 8 * i, 8);
			a = op_f(a, b, rop);
			memcpy(d + 8 * i, &a, 8);
			break;
		}
		case SWAI_DT_BF16: {
			uint16_t a, b;
			float x, y;

			memcpy(&a, d + 2 * i, 2);
			memcpy(&b, s + 2 * i, 2);
			x = swk_f32_from_bf16(a);
			y = swk_f32_from_bf16(b);
			x = rop == SWAI_ROP_SUM ? x + y : rop == SWAI_ROP_PROD ? x * y :
			    (float)op_f(x, y, rop);
			a = swk_bf16_from_f32(x);
			memcpy(d + 2 * i, &a, 2);
			break;
		}
		case SWAI_DT_I32: {
			uint32_t a, b;

			memcpy(&a, d + 4 * i, 4);
			memcpy(&b, s + 4 * i, 4);
			a = rop <= SWAI_ROP_PROD ? op_uint32_t(a, b, rop) :
			    (uint32_t)smax32((int32_t)a, (int32_t)b, rop);
			memcpy(d + 4 * i, &a, 4);
			break;
		}
		case SWAI_DT_I64: {
			uint64_t a, b;

			memcpy(&a, d + 8 * i, 8);
			memcpy(&b, s + 8 * i, 8);
			a = rop <= SWAI_ROP_PROD ? op_uint64_t(a, b, rop) :
			    (uint64_t)smax64((int64_t)a, (int64_t)b, rop);
			memcpy(d + 8 * i, &a, 8);
			break;
		}
		case SWAI_DT_U8:
			d[i] = op_uint8_t(d[i], s[i], rop);
			break;
		default:
			*error = "the simulator has no arithmetic for this type";
			return;
		}
	}
}

void swccl_sim_div(void *dst, uint64_t n, int dt, uint64_t div, const char **error)
{
	uint8_t *d = dst;

	for (uint64_t i = 0; i < n; i++) {
		switch (dt) {
		case SWAI_DT_F32: {
			float a;

			memcpy(&a, d + 4 * i, 4);
			a = (float)(a / (double)div);
			memcpy(d + 4 * i, &a, 4);
			break;
		}
		case SWAI_DT_F64: {
			double a;

			memcpy(&a, d + 8 * i, 8);
			a /= (double)div;
			memcpy(d + 8 * i, &a, 8);
			break;
		}
		case SWAI_DT_BF16: {
			uint16_t a;

			memcpy(&a, d + 2 * i, 2);
			a = swk_bf16_from_f32((float)(swk_f32_from_bf16(a) / (double)div));
			memcpy(d + 2 * i, &a, 2);
			break;
		}
		case SWAI_DT_I32: {
			int32_t a;

			memcpy(&a, d + 4 * i, 4);
			a = (int32_t)(a / (int64_t)div);
			memcpy(d + 4 * i, &a, 4);
			break;
		}
		case SWAI_DT_I64: {
			int64_t a;

			memcpy(&a, d + 8 * i, 8);
			a /= (int64_t)div;
			memcpy(d + 8 * i, &a, 8);
			break;
		}
		case SWAI_DT_U8:
			d[i] = (uint8_t)(d[i] / div);
			break;
		default:
			*error = "the simulator has no arithmetic for this type";
			return;
		}
	}
}
