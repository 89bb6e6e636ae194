/* SPDX-License-Identifier: MIT */
/*
 * swai-sim-nic.h - swccl-sim's rows of the NIC trees (seed 001): an
 * AllReduce, Reduce or Broadcast of at most 48 bytes, offloaded to the NICs
 * (NIC) or driven by the hosts (HOST), on N ranks each on a card of its
 * own -- the trees libswccl runs (tools/card/swai-nic-run.h) on the card's
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
/*
 * The tree @algo of @coll (enum swai_coll) of @bytes of doubles on @N ranks,
 * branching degree @k: 0 with *out, or -1 with @why.
 */
int swai_sim_nic(const char *algo, int coll, int N, uint64_t bytes, unsigned k,
                 struct swai_sim_out *out, char *why, size_t n);

#endif /* SWAI_SIM_NIC_H */
