/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-alu.h - the NIC's ALU (datasheet §16.4, seed 001 §3.1): what one
 * combine of two reduce payloads computes.
 *
 * Up to 48 bytes of 32- or 64-bit elements, each with a 32-bit location
 * (used by MAXLOC/MINLOC) and one error bit.  Float add, max and min are
 * the card's REDUCE (swai-reduce.h: IEEE round to nearest even;
 * maximumNumber/minimumNumber, -0 < +0), so a value reduced on the NIC and
 * on the CPEs agree.  Integers wrap.  A tie of MAXLOC/MINLOC keeps the
 * smaller location, as MPI_MAXLOC does.  An element's error bit is set when
 * a combine overflows (float: infinite from finite operands; signed: the
 * sign flips; unsigned: the carry) or is invalid (float: NaN from non-NaN
 * operands), and stays set up the tree.
 */
#ifndef SWAI_NIC_ALU_H
#define SWAI_NIC_ALU_H

#include <stdbool.h>
#include <stdint.h>

#if __has_include(<drm/swai_nic.h>)
#include <drm/swai_nic.h>
#else
#include "swai_nic.h"       /* the copy build-qemu.sh puts beside it */
#endif

/* A reduce payload: what a descriptor and a packet carry. */
struct swai_nic_vec {
    unsigned count;                         /* elements */
    uint8_t data[SWAI_NIC_DATA_MAX];        /* little endian */
    uint32_t loc[SWAI_NIC_ELEMS_MAX];
    uint16_t errvec;                        /* bit i: element i */
};

/* Whether the ALU does @op on @dtype elements of @width bytes. */
bool swai_nic_alu_valid(unsigned op, unsigned dtype, unsigned width);
/* acc = acc op in, element by element over acc->count (op valid). */
void swai_nic_alu(struct swai_nic_vec *acc, const struct swai_nic_vec *in,
                  unsigned op, unsigned dtype, unsigned width);

#endif /* SWAI_NIC_ALU_H */
