/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-timing.h - the timing model of the SW-AI card: its parameters,
 * integer picosecond arithmetic and the shared paths' calendars
 * (datasheet §14).
 *
 * Every core group (CG) has a modeled clock.  Work advances it by what the
 * work would cost on the real card: fixed costs (launch, step, DMA command,
 * barrier; swai-cost.h) and bytes over the paths a transfer uses.  Paths
 * private to a CG (its Local-HBM port, its port onto the ring bus) cost
 * bytes / bandwidth; paths shared by all CGs (the ring bus as a whole, each
 * direction of the PCIe link) are booked on calendars: a chunk of a
 * transfer takes the first gap at or after the time it is ready.  The
 * engine (swai-engine.h) interleaves the CGs in modeled-time order, 64 KiB
 * at a time, which approximates fair sharing.
 *
 * Everything is integer picoseconds: no floating point and no wall-clock
 * input, so the same work in the same order always costs the same.
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

/*
 * The timing properties of the card, each stated once:
 * X(field, "property-name", default, kind), kind BW (MB/s = 10^6 B/s,
 * 1..SWAI_MBPS_MAX), NS (0..SWAI_T_NS_MAX) or GF (10^9 FLOP/s,
 * 1..SWAI_GFLOPS_MAX).  The QEMU device's -device properties, the
 * defaults and the checks are all generated from this list; datasheet
 * §14.5 gives where each default comes from (the ring bus, launch 25 us,
 * host sync 15 us and step 5 us are the SW-IntraCC paper's; the NIC's are
 * §16.6's).
 */
#define SWAI_TIMING_PROPS(X) \
    X(ring_mbps,       "ring-mbps",       100000,  BW) /* per CG, ring bus */ \
    X(ring_total_mbps, "ring-total-mbps", 800000,  BW) /* ring bus, all CGs */ \
    X(local_mbps,      "local-mbps",      100000,  BW) /* per CG, Local-HBM */ \
    X(pcie_mbps,       "pcie-mbps",       25000,   BW) /* host link, a way */ \
    X(ldm_mbps,        "ldm-mbps",        1000000, BW) /* per CG, in LDM */ \
    X(t_launch_ns,     "t-launch-ns",     25000,   NS) /* launch, a job */ \
    X(t_sync_ns,       "t-sync-ns",       15000,   NS) /* host sync */ \
    X(t_step_ns,       "t-step-ns",       5000,    NS) /* per COPY */ \
    X(t_barrier_ns,    "t-barrier-ns",    1000,    NS) /* BARRIER/WAIT wake */ \
    X(t_dma_ns,        "t-dma-ns",        1000,    NS) /* per DMA_GET/PUT */ \
    X(f32_gflops,      "f32-gflops",      2048,    GF) /* per CG, f32 GEMM */ \
    X(bf16_gflops,     "bf16-gflops",     4096,    GF) /* per CG, bf16 GEMM */ \
    X(t_nic_desc_ns,   "t-nic-desc-ns",   200,     NS) /* NIC descriptor */ \
    X(t_nic_alu_ns,    "t-nic-alu-ns",    10,      NS) /* NIC ALU, an element */ \
    X(nic_mbps,        "nic-mbps",        25000,   BW) /* NIC port, a way */ \
    X(t_nic_lat_ns,    "nic-lat-ns",      2600,    NS) /* NIC to NIC */

struct swai_timing_props {
#define SWAI_TIMING_FIELD(f, name, def, kind) uint32_t f;
    SWAI_TIMING_PROPS(SWAI_TIMING_FIELD)
#undef SWAI_TIMING_FIELD
};

/*
 * What a chunk of a transfer uses, in bytes.  A byte read from Global-HBM
 * goes over the CG's port onto the ring bus (BUS_RD) and the bus as a whole
 * (BUS_TOTAL); from the CG's Local-HBM over LOCAL_RD; from host memory over
 * PCIE_RD (host -> card).  Writes likewise.  Ports are full duplex: reading
 * and writing the same tier (a Global -> Global COPY) do not add up.  LDM
 * is never the bottleneck of a transfer and is not listed.
 */
enum swai_res {
    SWAI_RES_LOCAL_RD,
    SWAI_RES_LOCAL_WR,
    SWAI_RES_BUS_RD,
    SWAI_RES_BUS_WR,
    SWAI_RES_BUS_TOTAL,     /* shared */
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
 * The n intervals live at [s, s + n) of arrays twice that size: dropping
 * the oldest only moves s, and the arrays are compacted once per
 * SWAI_CAL_SLOTS drops instead of shifted at every booking.
 */
#define SWAI_CAL_SLOTS      1024

struct swai_cal {
    unsigned s, n;
    uint64_t a[2 * SWAI_CAL_SLOTS], b[2 * SWAI_CAL_SLOTS];
};

/*
 * Book d ps on @c in the first gap at or after @ready; the booking's end.
 * An empty calendar is all zeroes.  Also what a fabric link's direction
 * is booked on (tools/cluster/swai-sched-cost.c).
 */
uint64_t swai_cal_book(struct swai_cal *c, uint64_t ready, uint64_t d);
/* Where swai_cal_book would put it, without booking: its start. */
uint64_t swai_cal_fit(const struct swai_cal *c, uint64_t ready, uint64_t d);

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
/*
 * How long the chunk's bytes take on their paths at full speed, waiting
 * for nothing: max over used r of bytes[r] / bw[r] (the time a transfer
 * spends moving data, datasheet §14.4).
 */
uint64_t swai_timing_ideal_ps(const struct swai_timing *t,
                              const uint64_t bytes[SWAI_RES_N]);

#endif /* SWAI_TIMING_H */
