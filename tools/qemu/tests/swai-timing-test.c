/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-timing-test.c - host unit test of the timing model (no QEMU): the
 * properties and SWAI_REG_T_*, exact modeled times of simple programs with
 * the default parameters, sharing of the PCIe link and the ring between
 * CGs, launch and not_before, REDUCE, DIV and barrier costs, peer access
 * to another CG's Local-HBM, and determinism
 * (datasheet §14).  Expected times are written out from the formulas.
 */
#include "cp-harness.h"
#include "tap.h"

#define US          1000ull             /* ns */
#define PS(b, mbps) swai_timing_ps(b, mbps)
#define END_NS(ps)  (((ps) + 999) / 1000)   /* jobs end on a whole ns */

static void test_props(void)
{
    struct swai_timing_props t;
    struct swai_props p;
    static const struct {
        size_t off;
        const char *name;
        int bw;
    } f[] = {
#define F(m, n, bw) { offsetof(struct swai_timing_props, m), n, bw }
        F(ring_mbps, "ring-mbps", 1), F(ring_total_mbps, "ring-total-mbps", 1),
        F(local_mbps, "local-mbps", 1), F(pcie_mbps, "pcie-mbps", 1),
        F(ldm_mbps, "ldm-mbps", 1), F(t_launch_ns, "t-launch-ns", 0),
        F(t_sync_ns, "t-sync-ns", 0), F(t_step_ns, "t-step-ns", 0),
        F(t_barrier_ns, "t-barrier-ns", 0), F(t_dma_ns, "t-dma-ns", 0),
        F(t_nic_desc_ns, "t-nic-desc-ns", 0), F(t_nic_alu_ns, "t-nic-alu-ns", 0),
        F(nic_mbps, "nic-mbps", 1), F(t_nic_lat_ns, "nic-lat-ns", 0),
#undef F
    };
    unsigned i;

    swai_card_props_init(&p);
    CHECK_EQ(p.t.ring_mbps, 100000);
    CHECK_EQ(p.t.ring_total_mbps, 800000);
    CHECK_EQ(p.t.local_mbps, 100000);
    CHECK_EQ(p.t.pcie_mbps, 25000);
    CHECK_EQ(p.t.ldm_mbps, 1000000);
    CHECK_EQ(p.t.t_launch_ns, 25000);
    CHECK_EQ(p.t.t_sync_ns, 15000);
    CHECK_EQ(p.t.t_step_ns, 5000);
    CHECK_EQ(p.t.t_barrier_ns, 1000);
    CHECK_EQ(p.t.t_dma_ns, 1000);
    CHECK_EQ(p.t.f32_gflops, 2048);
    CHECK_EQ(p.t.bf16_gflops, 4096);
    CHECK_EQ(p.t.t_nic_desc_ns, 200);
    CHECK_EQ(p.t.t_nic_alu_ns, 10);
    CHECK_EQ(p.t.nic_mbps, 25000);
    CHECK_EQ(p.t.t_nic_lat_ns, 2600);
    CHECK(swai_card_props_validate(&p) == NULL);
    /* The compute rates: 1..SWAI_GFLOPS_MAX. */
    p.t.f32_gflops = 0;
    CHECK(strstr(swai_card_props_validate(&p), "f32-gflops") != NULL);
    p.t.f32_gflops = SWAI_GFLOPS_MAX + 1;
    CHECK(swai_card_props_validate(&p) != NULL);
    p.t.f32_gflops = SWAI_GFLOPS_MAX;
    p.t.bf16_gflops = 0;
    CHECK(strstr(swai_card_props_validate(&p), "bf16-gflops") != NULL);
    p.t.bf16_gflops = 1;
    CHECK(swai_card_props_validate(&p) == NULL);
    swai_card_props_init(&p);
    for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        uint32_t *v;
        const char *why;

        swai_card_props_init(&p);
        v = (uint32_t *)((char *)&p.t + f[i].off);
        *v = f[i].bw ? 0 : SWAI_T_NS_MAX + 1;
        why = swai_card_props_validate(&p);
        CHECK(why && strstr(why, f[i].name));
        *v = f[i].bw ? SWAI_MBPS_MAX + 1 : UINT32_MAX;
        CHECK(swai_card_props_validate(&p) != NULL);
        *v = f[i].bw ? SWAI_MBPS_MAX : 0;
        CHECK(swai_card_props_validate(&p) == NULL);
        *v = f[i].bw ? 1 : SWAI_T_NS_MAX;
        CHECK(swai_card_props_validate(&p) == NULL);
    }
    /* Registers show the properties; CAPS says both features are there. */
    t = (struct swai_timing_props){ 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                    21, 22, 23, 24, 25, 26 };
    card_t(8, 4, 1, 16, &t);
    CHECK_EQ(rd(&S, SWAI_REG_T_RING_MBPS), 11);
    CHECK_EQ(rd(&S, SWAI_REG_T_RING_TOTAL_MBPS), 12);
    CHECK_EQ(rd(&S, SWAI_REG_T_LOCAL_MBPS), 13);
    CHECK_EQ(rd(&S, SWAI_REG_T_PCIE_MBPS), 14);
    CHECK_EQ(rd(&S, SWAI_REG_T_LDM_MBPS), 15);
    CHECK_EQ(rd(&S, SWAI_REG_T_LAUNCH_NS), 16);
    CHECK_EQ(rd(&S, SWAI_REG_T_SYNC_NS), 17);
    CHECK_EQ(rd(&S, SWAI_REG_T_STEP_NS), 18);
    CHECK_EQ(rd(&S, SWAI_REG_T_BARRIER_NS), 19);
    CHECK_EQ(rd(&S, SWAI_REG_T_DMA_NS), 20);
    CHECK_EQ(rd(&S, SWAI_REG_T_F32_GFLOPS), 21);
    CHECK_EQ(rd(&S, SWAI_REG_T_BF16_GFLOPS), 22);
    CHECK_EQ(rd(&S, SWAI_REG_CAPS) & (SWAI_CAP_QUEUES | SWAI_CAP_TIMING),
             SWAI_CAP_QUEUES | SWAI_CAP_TIMING);
    /* Read-only. */
    wr(&S, SWAI_REG_T_RING_MBPS, 5);
    CHECK_EQ(rd(&S, SWAI_REG_T_RING_MBPS), 11);
    CHECK_EQ(rd(&S, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    wr(&S, SWAI_REG_ERROR, ~0u);
    wr(&S, SWAI_REG_CLOCK_LO, 5);
    CHECK_EQ(rd(&S, SWAI_REG_ERROR), SWAI_ERR_BAD_ACCESS);
    card_free();
}

static void test_arithmetic(void)
{
    struct swai_timing_props p;
    struct swai_timing t;
    uint64_t b[SWAI_RES_N] = { 0 };

    CHECK_EQ(PS(1, 1), 1000000);
    CHECK_EQ(PS(65536, 100000), 655360);
    CHECK_EQ(PS(65536, 75000), 873814);             /* rounded up */
    CHECK_EQ(PS(3, 1000000), 3);
    CHECK_EQ(PS(0, 7), 0);
    CHECK_EQ(PS(~0ull, 1), UINT64_MAX / 4);         /* saturates */
    CHECK_EQ(swai_timing_ns_to_ps(25000), 25000000);
    CHECK_EQ(swai_timing_ns_to_ps(~0ull), UINT64_MAX / 4);

    /* FIFO servers: the second user of a shared path queues. */
    swai_timing_props_init(&p);
    p.local_mbps = 75000;       /* slower than the ring: see which decides */
    p.ring_total_mbps = 400000; /* 64 KiB = 163840 ps on the whole ring */
    swai_timing_init(&t, &p);
    b[SWAI_RES_PCIE_RD] = 65536;
    CHECK_EQ(swai_timing_chunk(&t, 0, b), 2621440);
    CHECK_EQ(swai_timing_chunk(&t, 0, b), 2 * 2621440);
    CHECK_EQ(swai_timing_chunk(&t, 10000000, b), 10000000 + 2621440);
    /* The other direction is a path of its own. */
    b[SWAI_RES_PCIE_RD] = 0;
    b[SWAI_RES_PCIE_WR] = 65536;
    CHECK_EQ(swai_timing_chunk(&t, 0, b), 2621440);
    /* Private ports do not queue. */
    b[SWAI_RES_PCIE_WR] = 0;
    b[SWAI_RES_LOCAL_RD] = 65536;
    CHECK_EQ(swai_timing_chunk(&t, 0, b), 873814);
    CHECK_EQ(swai_timing_chunk(&t, 0, b), 873814);
    /* The slowest path of a chunk decides. */
    b[SWAI_RES_BUS_WR] = 65536;
    b[SWAI_RES_BUS_TOTAL] = 65536;
    CHECK_EQ(swai_timing_chunk(&t, 0, b), 873814);
    swai_timing_reset(&t);
    b[SWAI_RES_LOCAL_RD] = b[SWAI_RES_BUS_WR] = 0;
    CHECK_EQ(swai_timing_chunk(&t, 0, b), 163840);

    /* A late booking fills a gap an earlier one left on a shared path. */
    swai_timing_reset(&t);
    CHECK_EQ(swai_timing_chunk(&t, 1000000, b), 1163840);
    CHECK_EQ(swai_timing_chunk(&t, 0, b), 163840);
    /* ... but only a gap it fits in. */
    CHECK_EQ(swai_timing_chunk(&t, 900000, b), 1163840 + 163840);
    CHECK_EQ(t.cal[SWAI_RES_BUS_TOTAL].n, 2);      /* touching: merged */
}

/*
 * Four CGs read 4 MiB of Global-HBM each, launched at the same modeled
 * time: whether the card has already simulated CG 0's job to its end when
 * the others' doorbells ring (late arrival) or sees all four at once, every
 * job gets the same modeled times -- the ring has room for all four.
 */
static void late_or_together(bool late, uint64_t end[SWAI_NUM_CG])
{
    unsigned c, j[SWAI_NUM_CG];

    card();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        const struct swai_insn p[] = {
            INSN(.op = SWAI_OP_COPY, .len = 4 * MIB, .dst = VA_LOC(c),
                 .src = VA_GLOB + 4 * MIB * (c % 2)), END,
        };

        j[c] = submit_nb(c, p, 2, 0, 1000000);
        if (late && c == 0) {
            run();
        }
    }
    run();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        CHECK_JOB(c, j[c], SWAI_JOB_OK);
        end[c] = compl(c, j[c]).end_ns;
    }
    card_free();
}

static void test_late_arrival(void)
{
    uint64_t a[SWAI_NUM_CG], b[SWAI_NUM_CG];
    unsigned c;

    late_or_together(true, a);
    late_or_together(false, b);
    for (c = 0; c < SWAI_NUM_CG; c++) {
        CHECK_EQ(a[c], b[c]);
        /* 25 us launch + 5 us step + 4 MiB at 100 GB/s, after 1 ms. */
        CHECK_EQ(a[c], 1000000 + 25000 + 5000 + 41944);
    }
}

/* The example: 8e6 B Local -> Global = launch + step + bytes/bw. */
static void test_copy_8mb(void)
{
    unsigned j;
    struct compl c;

    card();
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = 8000000, .dst = VA_GLOB,
                       .src = VA_LOC(0)), END);
    run();
    c = compl(0, j);
    CHECK_EQ(c.status, SWAI_JOB_OK);
    CHECK_EQ(c.start_ns, 25 * US);
    /* min(Local 100 GB/s, ring 100 GB/s): 80 us, as the paper's eq. (3). */
    CHECK_EQ(xfer_ps(8000000, 100000), 80000000);
    CHECK_EQ(c.end_ns, 25 * US + 5 * US + 80 * US);
    CHECK_EQ(qreg(0, SWAI_Q_CLOCK_LO), c.end_ns);
    CHECK_EQ(rd(&S, SWAI_REG_CLOCK_LO), c.end_ns);
    CHECK_EQ(c.bytes, 8000000);
    CHECK(!memcmp(byte_at(VA_GLOB), byte_at(VA_LOC(0)), 4096));

    /* Global -> Global at 100 GB/s: exactly 80 us. */
    card();
    j = SUBMIT(1, INSN(.op = SWAI_OP_COPY, .len = 8000000,
                       .dst = VA_GLOB + 8000000, .src = VA_GLOB), END);
    run();
    CHECK_EQ(compl(1, j).end_ns, 25 * US + 5 * US + 80 * US);

    /* host -> Global at 25 GB/s (PCIe), DMA_GET host -> LDM. */
    card();
    j = SUBMIT(2, INSN(.op = SWAI_OP_COPY, .len = 1000000, .dst = VA_GLOB,
                       .src = VA_HOST),
               INSN(.op = SWAI_OP_DMA_GET, .len = 100000, .dst = 0,
                    .src = VA_HOST),
               INSN(.op = SWAI_OP_DMA_PUT, .len = 100000, .dst = VA_LOC(2),
                    .src = 0),
               INSN(.op = SWAI_OP_DMA_PUT, .len = 100000, .dst = VA_GLOB,
                    .src = 0), END);
    run();
    CHECK_EQ(compl(2, j).end_ns,
             END_NS(25000000 + 5000000 + xfer_ps(1000000, 25000) +
                    1000000 + xfer_ps(100000, 25000) +
                    1000000 + xfer_ps(100000, 100000) +
                    1000000 + xfer_ps(100000, 100000)));
    card_free();
}

/* Two CGs copying over PCIe at once share the link; directions do not. */
static void test_pcie_shared(void)
{
    uint64_t chunk = PS(SWAI_CHUNK, 25000), alone;
    unsigned j, k;

    card();
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = MIB, .dst = VA_LOC(0),
                       .src = VA_HOST), END);
    run();
    alone = compl(0, j).end_ns;
    CHECK_EQ(alone, END_NS(30000000 + 16 * chunk));

    card();
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = MIB, .dst = VA_LOC(0),
                       .src = VA_HOST), END);
    k = SUBMIT(1, INSN(.op = SWAI_OP_COPY, .len = MIB, .dst = VA_LOC(1),
                       .src = VA_HOST), END);
    run();
    /* Chunks alternate: CG 0 ends with the 31st, CG 1 with the 32nd. */
    CHECK_EQ(compl(0, j).end_ns, END_NS(30000000 + 31 * chunk));
    CHECK_EQ(compl(1, k).end_ns, END_NS(30000000 + 32 * chunk));

    card();
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = MIB, .dst = VA_LOC(0),
                       .src = VA_HOST), END);
    k = SUBMIT(1, INSN(.op = SWAI_OP_COPY, .len = MIB, .dst = VA_HOST + MIB,
                       .src = VA_LOC(1)), END);
    run();
    CHECK_EQ(compl(0, j).end_ns, alone);
    CHECK_EQ(compl(1, k).end_ns, alone);
    card_free();
}

/*
 * Four CGs reading Global at 100 GB/s each fit the 800 GB/s ring, and so do
 * four Global -> Global copies (each reads and writes at 100 GB/s).
 */
static void test_ring_shared(void)
{
    struct swai_timing_props t;
    uint64_t alone = END_NS(25000000 + 1000000 +
                            xfer_ps(512 * 1024, 100000));
    uint64_t end = 0;
    unsigned c, j[SWAI_NUM_CG];

    card();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        j[c] = SUBMIT(c, INSN(.op = SWAI_OP_DMA_GET, .len = 512 * 1024,
                              .dst = 0, .src = VA_GLOB), END);
    }
    run();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        CHECK_EQ(compl(c, j[c]).end_ns, alone);
    }
    card();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        j[c] = SUBMIT(c, INSN(.op = SWAI_OP_COPY, .len = 2000000,
                              .dst = VA_GLOB + 0x400000 + 2000000 * c,
                              .src = VA_GLOB), END);
    }
    run();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        CHECK_EQ(compl(c, j[c]).end_ns, 25000 + 5000 + 20000);
    }

    /* A ring of 200 GB/s in total: together they take twice as long. */
    swai_timing_props_init(&t);
    t.ring_total_mbps = 200000;
    card_t(32, 16, 8, 64, &t);
    for (c = 0; c < SWAI_NUM_CG; c++) {
        j[c] = SUBMIT(c, INSN(.op = SWAI_OP_DMA_GET, .len = 512 * 1024,
                              .dst = 0, .src = VA_GLOB), END);
    }
    run();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        uint64_t e = compl(c, j[c]).end_ns;

        CHECK(e > alone);
        end = e > end ? e : end;
    }
    CHECK_EQ(end, END_NS(26000000 + xfer_ps(4 * 512 * 1024, 200000)));
    card_free();
}

/* Launch cost, not_before, and launch overlapping the previous job. */
static void test_launch(void)
{
    const struct swai_insn p[] = {
        INSN(.op = SWAI_OP_COPY, .len = 750000, .dst = VA_GLOB,
             .src = VA_LOC(0)), END,
    };
    const struct swai_insn p1[] = {
        INSN(.op = SWAI_OP_COPY, .len = 750000, .dst = VA_GLOB,
             .src = VA_LOC(1)), END,
    };
    unsigned j, k;

    card();
    j = submit_nb(0, p, 2, 0, 1000000);
    run();
    CHECK_EQ(compl(0, j).start_ns, 1025000);
    CHECK_EQ(compl(0, j).end_ns, 1025000 + 12500);
    /* not_before 0: "now" is the card's CLOCK, the latest end. */
    k = submit_nb(3, p + 1, 1, 0, 0);
    run();
    CHECK_EQ(compl(3, k).start_ns, 1037500 + 25000);
    CHECK_EQ(compl(3, k).end_ns, 1062500);
    CHECK_EQ(rd(&S, SWAI_REG_CLOCK_LO), 1062500);
    CHECK_EQ(qreg(3, SWAI_Q_CLOCK_LO), 1062500);
    /* Two jobs launched together: the second's launch overlaps. */
    j = submit_nb(1, p1, 2, 0, 2000000);
    k = submit_nb(1, p1, 2, 0, 2000000);
    run();
    CHECK_JOB(1, j, SWAI_JOB_OK);
    CHECK_JOB(1, k, SWAI_JOB_OK);
    CHECK_EQ(compl(1, j).end_ns, 2037500);
    CHECK_EQ(compl(1, k).start_ns, 2037500);
    CHECK_EQ(compl(1, k).end_ns, 2050000);
    /* The same program, the same duration. */
    CHECK_EQ(compl(1, k).end_ns - compl(1, k).start_ns,
             compl(1, j).end_ns - compl(1, j).start_ns);
    card_free();
}

static void test_reduce_barrier_cost(void)
{
    unsigned j, k;

    card();
    /* 3 * 1000 * 4 B at 1 TB/s = 12 ns; 0 for SIGNAL/FENCE/TIMESTAMP. */
    j = SUBMIT(0, INSN(.op = SWAI_OP_REDUCE, .len = 1000, .dst = 0,
                       .src = 4096),
               INSN(.op = SWAI_OP_REDUCE, .len = 1000, .dtype = SWAI_DT_F64,
                    .dst = 0, .src = 8192),
               INSN(.op = SWAI_OP_SIGNAL, .dst = VA_HOST, .src = 1),
               INSN(.op = SWAI_OP_FENCE, .dst = VA_HOST, .src = 1),
               INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST), END);
    run();
    CHECK_EQ(compl(0, j).end_ns, 25000 + 12 + 24);
    /* A barrier of one: t_barrier, or t_sync with HOST. */
    k = SUBMIT(1, INSN(.op = SWAI_OP_BARRIER, .len = 1, .dst = VA_HOST + 8),
               INSN(.op = SWAI_OP_BARRIER, .len = 1, .dst = VA_HOST + 8,
                    .flags = SWAI_BARRIER_HOST),
               INSN(.op = SWAI_OP_WAIT, .dst = VA_HOST + 8, .src = 2), END);
    run();
    CHECK_EQ(compl(1, k).end_ns - compl(1, k).start_ns, 1000 + 15000 + 1000);
    card_free();
}

/* DIV: one read and one write per element at LDM bandwidth; U8 REDUCE. */
static void test_div_u8_cost(void)
{
    unsigned j;

    card();
    /* 2 * 100000 * 4 B at 1 TB/s = 800 ns; 2 * 3000 * 8 B = 48 ns. */
    j = SUBMIT(0, INSN(.op = SWAI_OP_DIV, .len = 100000, .dst = 0, .src = 3),
               INSN(.op = SWAI_OP_DIV, .len = 3000, .dtype = SWAI_DT_F64,
                    .dst = 400000, .src = 1),
               END);
    run();
    CHECK_JOB(0, j, SWAI_JOB_OK);
    CHECK_EQ(compl(0, j).end_ns - compl(0, j).start_ns, 800 + 48);
    /* U8 REDUCE: 3 * 200000 * 1 B = 600 ns; U8 DIV 2 * 7 B = 14 ps. */
    j = SUBMIT(1, INSN(.op = SWAI_OP_REDUCE, .len = 200000,
                       .dtype = SWAI_DT_U8, .dst = 0, .src = 250000),
               INSN(.op = SWAI_OP_DIV, .len = 7, .dtype = SWAI_DT_U8,
                    .dst = 1, .src = 9),
               END);
    run();
    CHECK_JOB(1, j, SWAI_JOB_OK);
    CHECK_EQ(compl(1, j).end_ns - compl(1, j).start_ns, 601);   /* rounds up */
    card_free();
}

/*
 * Peer access (SWAI_DESC_PEER): bytes to or from another CG's Local-HBM go
 * over the CG's ring port, the ring as a whole and the peer's Local port,
 * whichever is slowest; the CG's own Local-HBM uses none of the ring.
 */
static void test_peer_cost(void)
{
    struct swai_timing_props t;
    const uint64_t n = 1000000;
    struct swai_insn own = INSN(.op = SWAI_OP_COPY, .len = n,
                                .dst = VA_LOC(1) + 0x400000,
                                .src = VA_LOC(1) + 0x800000);
    struct swai_insn peer = INSN(.op = SWAI_OP_COPY, .len = n,
                                 .dst = VA_LOC(1), .src = VA_LOC(0));
    struct swai_insn get = INSN(.op = SWAI_OP_DMA_GET, .len = 500000,
                                .dst = 0, .src = VA_LOC(2));
    unsigned j, k;

    /* Defaults: 100 GB/s everywhere: the same as a Local -> Global COPY. */
    card();
    j = submit_nb(0, &peer, 1, SWAI_DESC_PEER, 0);
    k = submit_nb(3, &get, 1, SWAI_DESC_PEER, 0);
    run();
    CHECK_JOB(0, j, SWAI_JOB_OK);
    CHECK_EQ(compl(0, j).end_ns, 25000 + 5000 + 10000);
    CHECK_JOB(3, k, SWAI_JOB_OK);
    CHECK_EQ(compl(3, k).end_ns, 25000 + 1000 + 5000);

    /* A slow ring port: the peer copy pays it, the own-Local copy not. */
    swai_timing_props_init(&t);
    t.ring_mbps = 50000;
    card_t(32, 16, 8, 64, &t);
    j = submit_nb(0, &peer, 1, SWAI_DESC_PEER, 0);
    k = submit_nb(1, &own, 1, SWAI_DESC_PEER, 0);
    run();
    CHECK_EQ(compl(0, j).end_ns, END_NS(30000000 + xfer_ps(n, 50000)));
    CHECK_EQ(compl(1, k).end_ns, 25000 + 5000 + 10000);

    /* The ring as a whole is shared with Global traffic of other CGs. */
    t.ring_mbps = 100000;
    t.ring_total_mbps = 20000;
    card_t(32, 16, 8, 64, &t);
    j = submit_nb(0, &peer, 1, SWAI_DESC_PEER, 0);
    run();
    CHECK_EQ(compl(0, j).end_ns, END_NS(30000000 + xfer_ps(n, 20000)));

    /* A slow Local port: the peer's side is charged at local_mbps too. */
    t.ring_total_mbps = 800000;
    t.local_mbps = 25000;
    card_t(32, 16, 8, 64, &t);
    peer.src = VA_GLOB;
    j = submit_nb(0, &peer, 1, SWAI_DESC_PEER, 0);
    run();
    CHECK_EQ(compl(0, j).end_ns, END_NS(30000000 + xfer_ps(n, 25000)));
    card_free();
}

/* A mixed 4-CG workload: every figure the same on every run. */
static void workload(uint64_t out[SWAI_NUM_CG][6])
{
    uint64_t sem = VA_GLOB + 0x800000;
    unsigned c, i, j[SWAI_NUM_CG][2];

    card();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        const struct swai_insn p[] = {
            INSN(.op = SWAI_OP_COPY, .len = 300000 + 77777 * c,
                 .dst = VA_LOC(c), .src = VA_HOST + 0x1000 * c),
            INSN(.op = SWAI_OP_DMA_GET, .rows = 3, .len = 40000,
                 .src_stride = 50000, .dst = 0, .src = VA_GLOB + 0x10000 * c),
            INSN(.op = SWAI_OP_REDUCE, .len = 20000, .dtype = SWAI_DT_F32,
                 .dst = 0, .src = 80000),
            INSN(.op = SWAI_OP_BARRIER, .len = 4, .dst = sem),
            INSN(.op = SWAI_OP_DMA_PUT, .len = 120000,
                 .dst = VA_HOST + 0x100000 + 0x20000 * c, .src = 0),
            INSN(.op = SWAI_OP_COPY, .len = 500000 + 1000 * c,
                 .dst = VA_GLOB + 0x400000 + 0x100000 * c,
                 .src = VA_LOC(c)),
            INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST + 0x1f0000 + 8 * c),
            END,
        };

        j[c][0] = submit_nb(c, p, 8, 0, 0);
        j[c][1] = submit_nb(c, p + 1, 2, 0, 5000 * c);
    }
    run();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        for (i = 0; i < 2; i++) {
            struct compl r = compl(c, j[c][i]);

            CHECK_EQ(r.status, SWAI_JOB_OK);
            out[c][3 * i] = r.start_ns;
            out[c][3 * i + 1] = r.end_ns;
            out[c][3 * i + 2] = r.bytes;
        }
        out[c][2] ^= peek64(VA_HOST + 0x1f0000 + 8 * c) << 32;
    }
    card_free();
}

static void test_determinism(void)
{
    uint64_t a[SWAI_NUM_CG][6], b[SWAI_NUM_CG][6];
    unsigned c;

    workload(a);
    workload(b);
    CHECK(!memcmp(a, b, sizeof(a)));
    for (c = 0; c < SWAI_NUM_CG; c++) {
        printf("# CG %u: job 0 %" PRIu64 "..%" PRIu64 " ns, job 1 %" PRIu64
               "..%" PRIu64 " ns\n", c, a[c][0], a[c][1], a[c][3], a[c][4]);
        CHECK(a[c][1] > a[c][0] && a[c][4] > a[c][3]);
    }
}

static const struct tap_test tests[] = {
    { "timing properties, limits, registers", test_props },
    { "integer ps arithmetic and FIFO paths", test_arithmetic },
    { "8e6 B COPY and other exact times", test_copy_8mb },
    { "PCIe shared per direction", test_pcie_shared },
    { "ring shared by all CGs", test_ring_shared },
    { "launch, not_before, overlap", test_launch },
    { "REDUCE and barrier costs", test_reduce_barrier_cost },
    { "DIV and U8 REDUCE costs", test_div_u8_cost },
    { "peer Local-HBM access: ring and Local ports", test_peer_cost },
    { "same workload, same times", test_determinism },
    { "late doorbell, same times", test_late_arrival },
};

TAP_MAIN(tests)
