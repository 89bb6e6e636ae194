// SPDX-License-Identifier: MIT
/*
 * swccl_dtype.c - swccl data types and reduction operators as the card's
 * REDUCE instruction knows them.
 */
#include "swccl_call.h"

size_t swccl_type_size(swcclDataType_t t)
{
	switch (t) {
	case swcclUint8: return 1;
	case swcclFloat16: case swcclBfloat16: return 2;
	case swcclInt32: case swcclFloat32: return 4;
	case swcclInt64: case swcclFloat64: return 8;
	default: return 0;
	}
}

/* SWAI_DT_* of @t, -1 if the card has no such type. */
int swccl_type_dt(swcclDataType_t t)
{
	switch (t) {
	case swcclUint8: return SWAI_DT_U8;
	case swcclInt32: return SWAI_DT_I32;
	case swcclInt64: return SWAI_DT_I64;
	case swcclFloat16: return SWAI_DT_F16;
	case swcclFloat32: return SWAI_DT_F32;
	case swcclFloat64: return SWAI_DT_F64;
	case swcclBfloat16: return SWAI_DT_BF16;
	default: return -1;
	}
}

const char *swccl_type_name(swcclDataType_t t)
{
	switch (t) {
	case swcclUint8: return "uint8";
	case swcclInt32: return "int32";
	case swcclInt64: return "int64";
	case swcclFloat16: return "half";
	case swcclFloat32: return "float";
	case swcclFloat64: return "double";
	case swcclBfloat16: return "bfloat16";
	default: return "?";
	}
}

const char *swccl_op_name(swcclRedOp_t op)
{
	static const char *const n[] = { "sum", "prod", "max", "min", "avg" };

	return (unsigned)op < swcclNumOps ? n[op] : "?";
}
