/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compute-harness.h - helpers of the compute and asynchronous-transfer
 * unit tests: overlay instructions, one job at a time on CG 0, staging
 * data through host memory.  Test-only, header-only; the tests run on a
 * little-endian host, where the overlay structures are their own encoding.
 */
#ifndef SWAI_COMPUTE_HARNESS_H
#define SWAI_COMPUTE_HARNESS_H

#include "cp-harness.h"

#define XCG     0

/* An overlay instruction (struct swai_insn_gemm etc.) as a swai_insn. */
#define OV(o) ({                                                        \
    struct swai_insn in_;                                               \
    _Static_assert(sizeof(o) == SWAI_INSN_SIZE, "48-byte overlay");     \
    memcpy(&in_, &(o), SWAI_INSN_SIZE);                                 \
    in_;                                                                \
})

#define GET(ldm, va, n)     INSN(.op = SWAI_OP_DMA_GET, .len = (n),     \
                                 .dst = (ldm), .src = (va))
#define PUT(va, ldm, n)     INSN(.op = SWAI_OP_DMA_PUT, .len = (n),     \
                                 .dst = (va), .src = (ldm))
#define AGET(ldm, va, n)    INSN(.op = SWAI_OP_DMA_GET, .len = (n),     \
                                 .dst = (ldm), .src = (va),             \
                                 .flags = SWAI_XFER_ASYNC)
#define APUT(va, ldm, n)    INSN(.op = SWAI_OP_DMA_PUT, .len = (n),     \
                                 .dst = (va), .src = (ldm),             \
                                 .flags = SWAI_XFER_ASYNC)

/* Run a program on CG XCG; its completion. */
static inline struct compl go(const struct swai_insn *p, unsigned n)
{
    unsigned j = submit_nb(XCG, p, n, 0, 0);

    run();
    return compl(XCG, j);
}

#define GO(...) ({                                                      \
    const struct swai_insn p_[] = { __VA_ARGS__ };                      \
    go(p_, sizeof(p_) / sizeof(p_[0]));                                 \
})

/* Modeled duration of a job, ns. */
static inline uint64_t dur(struct compl c)
{
    return c.end_ns - c.start_ns;
}

#endif /* SWAI_COMPUTE_HARNESS_H */
