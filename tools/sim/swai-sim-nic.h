/* SPDX-License-Identifier: MIT */
/*
 * swai-sim-nic.h - swccl-sim's rows of the NIC trees (seed 001): an
 * AllReduce, Reduce or Broadcast, offloaded to the NICs (NIC) or driven by
 * the hosts (HOST), on N ranks each on a card of its own, one tree a
 * 48-byte piece (a descriptor's data), the pieces one after another, each
 * a host sync after the one before -- as libswccl runs and models them
 * (collectives/swccl_nic_piece.c) -- on the card's
 * own NIC engines (swai_nic_model), not on SimGrid: a tree's packets are
 * 190 bytes and never share a link long enough to matter, and the engines
 * are the emulator's, so these rows are the emulator's time exactly
 * (libswccl's predicted_us for the same call, inputs in host memory).
 */
#ifndef SWAI_SIM_NIC_H
#define SWAI_SIM_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swai-sim.h"

/* Is @algo one of the NIC trees (NIC, HOST)? */
bool swai_sim_nic_algo(const char *algo);

/* A type the NIC's ALU reduces (seed 001's Fig. 6: double float int64 uint64). */
struct swai_sim_nic_type {
    const char *name;
    unsigned dtype, width;      /* SWAI_NIC_T_*, bytes */
};

/* @name's type (double float int64 uint64 int32 uint32), or NULL. */
const struct swai_sim_nic_type *swai_sim_nic_type(const char *name);

/*
 * The trees @algo of @coll (enum swai_coll) of @bytes of @type on @N ranks,
 * branching degree @k: 0 with *out, or -1 with @why.
 */
int swai_sim_nic(const char *algo, int coll, int N, uint64_t bytes, unsigned k,
                 const struct swai_sim_nic_type *type, struct swai_sim_out *out,
                 char *why, size_t n);

#endif /* SWAI_SIM_NIC_H */
