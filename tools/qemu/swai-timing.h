/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-timing.h - the timing model of the SW-AI card (QEMU-independent).
 *
 * Every core group (CG) has a modeled clock.  Work advances it by what the
 * work would cost on the real card: fixed costs (launch, step, DMA command,
 * barrier) and bytes over the paths a transfer uses.  Paths private to a CG
 * (its Local-HBM port, its ring port) cost bytes / bandwidth; paths shared
 * by all CGs (the ring as a whole, each direction of the PCIe link) are FIFO
 * servers: a chunk of a transfer starts on a shared path when both the CG
 * and the path are free.  The command processor interleaves the CGs in
 * modeled-time order, 64 KiB at a time, which approximates fair sharing.
 *
 * Everything is integer picoseconds: no floating point and no wall-clock
 * input, so the same work in the same order always costs the same.
 * Documentation/datasheet.md §14 is the contract.
 */
#ifndef SWAI_TIMING_H
#define SWAI_TIMING_H

#include <stdint.h>

#define SWAI_PS_PER_NS      1000ull
#define SWAI_CHUNK          65536ull    /* bytes per shared-path reservation */

/* Property limits (swai_timing_props_validate). */
#define SWAI_MBPS_MIN       1
#define SWAI_MBPS_MAX       100000000u  /* 100 TB/s */
#define SWAI_T_NS_MAX       1000000000u /* 1 s */
#define SWAI_GFLOPS_MAX     1000000u    /* 1 PFLOP/s per CG */

/* The timing properties of -device swai, MB/s (10^6 B/s) and ns. */
struct swai_timing_props {
    uint32_t ring_mbps;         /* per CG port to Global-HBM */
    uint32_t ring_total_mbps;   /* the ring as a whole, all CGs */
    uint32_t local_mbps;        /* per CG, its Local-HBM */
    uint32_t pcie_mbps;         /* host link, each direction */
    uint32_t ldm_mbps;          /* per CG, REDUCE in LDM */
    uint32_t t_launch_ns;       /* host launch, per job */
    uint32_t t_sync_ns;         /* host-mediated synchronisation */
    uint32_t t_step_ns;         /* per COPY */
    uint32_t t_barrier_ns;      /* on-card BARRIER/WAIT wake-up */
    uint32_t t_dma_ns;          /* per DMA_GET/DMA_PUT */
    uint32_t f32_gflops;        /* per CG, peak f32 GEMM, 10^9 FLOP/s */
    uint32_t bf16_gflops;       /* per CG, GEMM with bf16 operands */
};

/*
 * What a chunk of a transfer uses, in bytes.  A byte read from Global-HBM
 * goes over the CG's ring port (RING_RD) and the shared ring (RING_TOTAL);
 * from the CG's Local-HBM over LOCAL_RD; from host memory over PCIE_RD
 * (host -> card).  Writes likewise.  Ports are full duplex: reading and
 * writing the same tier (a Global -> Global COPY) do not add up.  LDM is
 * never the bottleneck of a transfer and is not listed.
 */
enum swai_res {
    SWAI_RES_LOCAL_RD,
    SWAI_RES_LOCAL_WR,
    SWAI_RES_RING_RD,
    SWAI_RES_RING_WR,
    SWAI_RES_RING_TOTAL,    /* shared */
    SWAI_RES_PCIE_RD,       /* shared, host -> card */
    SWAI_RES_PCIE_WR,       /* shared, card -> host */
    SWAI_RES_N,
};

/*
 * A shared path's calendar: the modeled-time intervals [a, b) it is busy,
 * sorted and disjoint (touching intervals are merged).  A chunk takes the
 * first gap that fits at or after the time it is ready, so a job whose
 * doorbell arrives after another CG has been simulated far ahead still uses
 * the capacity that CG left free: results then depend on the order of
 * submission only where a path is oversubscribed, never on wall time.  When
 * the calendar is full the two oldest intervals merge (their gap is lost).
 */
#define SWAI_CAL_SLOTS      1024

struct swai_cal {
    unsigned n;
    uint64_t a[SWAI_CAL_SLOTS], b[SWAI_CAL_SLOTS];
};

struct swai_timing {
    uint32_t mbps[SWAI_RES_N];
    struct swai_cal cal[SWAI_RES_N];    /* used for shared paths only */
};

void swai_timing_props_init(struct swai_timing_props *p);
/* NULL when usable, else a static message naming the property. */
const char *swai_timing_props_validate(const struct swai_timing_props *p);

/* Bind the bandwidths; all shared paths free at time 0. */
void swai_timing_init(struct swai_timing *t, const struct swai_timing_props *p);
void swai_timing_reset(struct swai_timing *t);

/* ps to move 'bytes' at 'mbps', rounded up; saturates instead of wrapping. */
uint64_t swai_timing_ps(uint64_t bytes, uint32_t mbps);
/* ns -> ps, saturating. */
uint64_t swai_timing_ns_to_ps(uint64_t ns);
/* ps for 'flops' at 'gflops' 10^9 FLOP/s, rounded up; saturating. */
uint64_t swai_timing_flops_ps(uint64_t flops, uint32_t gflops);

/*
 * Reserve one chunk that a CG starts at 'start_ps' and that moves
 * bytes[r] over each resource r; returns when it ends:
 * max over used r of (max(start, free[r]) + bytes[r] / bw[r]), where free
 * is start for the CG's private ports.  Shared paths stay busy until their
 * own part is done.
 */
uint64_t swai_timing_chunk(struct swai_timing *t, uint64_t start_ps,
                           const uint64_t bytes[SWAI_RES_N]);

#endif /* SWAI_TIMING_H */
