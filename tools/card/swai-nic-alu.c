/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-alu.c - the NIC's ALU (swai-nic-alu.h).
 */
#include <math.h>

#include "swai-isa.h"
#include "swai-le.h"
#include "swai-nic-alu.h"
#include "swai-reduce.h"

bool swai_nic_alu_valid(unsigned op, unsigned dtype, unsigned width)
{
    if ((width != 4 && width != 8) || dtype > SWAI_NIC_T_MAX ||
        op > SWAI_NIC_OP_MAXOP) {
        return false;
    }
    /* Logical and bitwise operations are on integers only. */
    return dtype != SWAI_NIC_T_FLOAT || op <= SWAI_NIC_OP_MINLOC;
}

static bool is_max(unsigned op)
{
    return op == SWAI_NIC_OP_MAX || op == SWAI_NIC_OP_MAXLOC;
}

static bool has_loc(unsigned op)
{
    return op == SWAI_NIC_OP_MAXLOC || op == SWAI_NIC_OP_MINLOC;
}

/*
 * Float elements through the card's REDUCE, so both agree bit for bit.
 * Returns -1 if the result is a's, 1 if b's, 0 if a tie (same value).
 */
static int float_op(uint8_t *a, const uint8_t *b, unsigned op, unsigned width,
                    bool *err)
{
    unsigned dt = width == 4 ? SWAI_DT_F32 : SWAI_DT_F64;
    uint64_t ab = swai_ld_le(a, width), bb = swai_ld_le(b, width), rb;
    double x = width == 4 ? bits_f32((uint32_t)ab) : bits_f64(ab);
    double y = width == 4 ? bits_f32((uint32_t)bb) : bits_f64(bb);
    double r;

    swai_reduce(a, b, 1, dt, op == SWAI_NIC_OP_SUM ? SWAI_ROP_SUM :
                is_max(op) ? SWAI_ROP_MAX : SWAI_ROP_MIN);
    rb = swai_ld_le(a, width);
    r = width == 4 ? bits_f32((uint32_t)rb) : bits_f64(rb);
    if (op == SWAI_NIC_OP_SUM) {
        *err = (isinf(r) && isfinite(x) && isfinite(y)) ||
               (isnan(r) && !isnan(x) && !isnan(y));
        return -1;
    }
    if ((isnan(x) && isnan(y)) || (x == y && !signbit(x) == !signbit(y))) {
        return 0;
    }
    return rb == ab ? -1 : 1;
}

static int int_op(uint8_t *a, const uint8_t *b, unsigned op, unsigned dtype,
                  unsigned width, bool *err)
{
    unsigned bits = 8 * width;
    uint64_t m = bits == 64 ? UINT64_MAX : UINT32_MAX;
    uint64_t sign = 1ull << (bits - 1);
    uint64_t x = swai_ld_le(a, width), y = swai_ld_le(b, width), r = x;
    int side = -1;
    bool lt;

    switch (op) {
    case SWAI_NIC_OP_SUM:
        r = (x + y) & m;
        *err = dtype == SWAI_NIC_T_SINT ? ((x ^ r) & (y ^ r) & sign) != 0
                                        : r < x;
        break;
    case SWAI_NIC_OP_LAND:
        r = x && y;
        break;
    case SWAI_NIC_OP_LOR:
        r = x || y;
        break;
    case SWAI_NIC_OP_LXOR:
        r = !x != !y;
        break;
    case SWAI_NIC_OP_BAND:
        r = x & y;
        break;
    case SWAI_NIC_OP_BOR:
        r = x | y;
        break;
    case SWAI_NIC_OP_BXOR:
        r = x ^ y;
        break;
    default:                    /* MAX, MIN and their LOC forms */
        if (x == y) {
            side = 0;
            break;
        }
        /* Signed compare via the bias; unsigned as is. */
        lt = dtype == SWAI_NIC_T_SINT ? (x ^ sign) < (y ^ sign) : x < y;
        side = is_max(op) == lt ? 1 : -1;
        r = side > 0 ? y : x;
        break;
    }
    swai_st_le(a, width, r);
    return side;
}

void swai_nic_alu(struct swai_nic_vec *acc, const struct swai_nic_vec *in,
                  unsigned op, unsigned dtype, unsigned width)
{
    unsigned i;

    acc->errvec |= in->errvec;
    for (i = 0; i < acc->count && i * width < SWAI_NIC_DATA_MAX; i++) {
        uint8_t *a = acc->data + i * width;
        const uint8_t *b = in->data + i * width;
        bool err = false;
        int side;

        side = dtype == SWAI_NIC_T_FLOAT ? float_op(a, b, op, width, &err)
                                         : int_op(a, b, op, dtype, width, &err);
        if (err) {
            acc->errvec |= (uint16_t)(1u << i);
        }
        if (has_loc(op) && (side > 0 || (side == 0 && in->loc[i] < acc->loc[i]))) {
            acc->loc[i] = in->loc[i];
        }
    }
}
