/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-coll-size.c - what nccl-tests' "size" of a collective means for a
 * schedule (swai-sched.h), and its bus bandwidth factor: the one place
 * swccl-sched, swccl-sim and the synthesizer convert sizes and busbw.
 */
#include "swai-sched.h"

double swai_coll_bus_factor(enum swai_coll c, int nranks)
{
    if (nranks < 1) {
        return 0;
    }
    if (c == SWAI_COLL_ALLREDUCE) {
        return 2.0 * (nranks - 1) / nranks;
    }
    if (c == SWAI_COLL_BROADCAST || c == SWAI_COLL_REDUCE) {
        return 1.0;
    }
    return (double)(nranks - 1) / nranks;
}

uint64_t swai_coll_block_bytes(enum swai_coll c, int nranks, uint64_t size)
{
    bool wide = c == SWAI_COLL_ALLGATHER || c == SWAI_COLL_REDUCESCATTER ||
                c == SWAI_COLL_ALLTOALL;

    return wide && nranks > 0 ? size / (uint64_t)nranks : size;
}
