/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-async-test.c - host unit test of the CG sequencer's asynchronous
 * transfers (SWAI_XFER_ASYNC), the LDM scoreboard and DRAIN (datasheet
 * §14.7), with the default timing: Local and ring ports 100 GB/s (10 ps
 * a byte), 1 us per DMA command, LDM 1 TB/s.  A 200000-byte transfer
 * then takes 2 us after its command.  Buffers in LDM (2 MiB here) are
 * X(i) = i * 256 KiB, never sharing a 256-byte scoreboard granule.
 */
#include "compute-harness.h"
#include "tap.h"

#define B       200000ull
#define LOC     VA_LOC(XCG)
#define GLB     VA_GLOB
#define X(i)    ((uint64_t)(i) * 0x40000)

/* 8 CPEs x 256 KiB of LDM, the rest as card(). */
static void big_card(void)
{
    card_t(32, 16, 8, 256, NULL);
}

/* Duration of a job that must succeed. */
static uint64_t ok_dur(struct compl c)
{
    CHECK_EQ(c.status, 0);
    return dur(c);
}

/* A CVT of B bytes of f32 to f32 (B in, B out at 1 TB/s: 400 ns). */
#define CVT(d, s) INSN(.op = SWAI_OP_CVT, .dtype = SWAI_DT_F32,     \
                           .rop = SWAI_DT_F32, .len = B / 4,            \
                           .dst = (d), .src = (s))

static void test_ports(void)
{
    big_card();
    /* Synchronous: one after the other, 1 + 2 + 1 + 2 us. */
    CHECK_EQ(ok_dur(GO(PUT(LOC, 0, B), PUT(GLB, 0, B), END)), 6000);
    /* Different ports (Local write, ring write): they overlap. */
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B), APUT(GLB, 0, B), END)), 4000);
    /* The same port: the second waits for it (3 us), ends at 5. */
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B), APUT(LOC + B, 0, B), END)), 5000);
    /* Reading and writing Local are two ports. */
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B), AGET(X(1), LOC + B, B), END)), 4000);
    /* Everything ends by the end of the job, even with nothing after. */
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B))), 3000);
    card_free();
}

static void test_hazards(void)
{
    big_card();
    /* A compute waits for the GET filling its input (RAW): 3 + 0.4 us. */
    CHECK_EQ(ok_dur(GO(AGET(0, LOC, B), CVT(X(1), X(0)), END)), 3400);
    /* ... but not for one filling other bytes: done by 1.4, job by 3. */
    CHECK_EQ(ok_dur(GO(AGET(0, LOC, B), CVT(X(2), X(1)), END)), 3000);
    /* A GET into a buffer a PUT still reads waits for it (WAR). */
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B), AGET(0, GLB, B), END)), 5000);
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B), AGET(X(1), GLB, B), END)), 4000);
    /* A PUT of what a GET brings waits for it (RAW), also across ports. */
    CHECK_EQ(ok_dur(GO(AGET(0, GLB, B), APUT(LOC, 0, B), END)), 5000);
    /* A compute overwriting what a PUT reads waits for the PUT. */
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B), CVT(X(0), X(1)), END)), 3400);
    /* A PUT of a compute's output starts when the compute ends. */
    CHECK_EQ(ok_dur(GO(CVT(X(0), X(1)), APUT(LOC, 0, B), END)), 2400 + 1000);
    /* REDUCE and DIV take part: 3 us + 3 * 200000 B at 1 TB/s. */
    CHECK_EQ(ok_dur(GO(AGET(0, LOC, B),
                    INSN(.op = SWAI_OP_REDUCE, .dtype = SWAI_DT_F32,
                         .len = B / 4, .dst = X(1), .src = 0), END)), 3600);
    /* Granules are 256 bytes: a byte apart in one granule still waits. */
    CHECK_EQ(ok_dur(GO(AGET(0, LOC, 100),
                    INSN(.op = SWAI_OP_CVT, .dtype = SWAI_DT_F32,
                         .rop = SWAI_DT_F32, .len = 1, .dst = 1024,
                         .src = 128), END)),
             1000 + 1 + 1);
    card_free();
}

static void test_drain(void)
{
    struct compl c;
    unsigned j;

    big_card();
    /* DRAIN: the next PUT issues only after the first is done. */
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B), INSN(.op = SWAI_OP_DRAIN),
                    APUT(GLB, 0, B), END)), 6000);
    /* A synchronous transfer drains first. */
    CHECK_EQ(ok_dur(GO(APUT(LOC, 0, B), PUT(GLB, 0, B), END)), 6000);
    /* Semaphore instructions drain: the timestamp is after the PUT. */
    j = SUBMIT(XCG, APUT(LOC, 0, B),
               INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST), END);
    run();
    c = compl(XCG, j);
    CHECK_EQ(c.status, 0);
    CHECK_EQ(peek64(VA_HOST), c.start_ns + 3000);
    CHECK_EQ(c.end_ns, c.start_ns + 3000);
    card_free();
}

/* The same program on a fresh card twice: the same times and bytes. */
static void test_determinism(void)
{
    struct compl a[2][SWAI_NUM_CG];
    unsigned run_no, cg;

    for (run_no = 0; run_no < 2; run_no++) {
        unsigned idx[SWAI_NUM_CG];

        big_card();
        for (cg = 0; cg < SWAI_NUM_CG; cg++) {
            fill(VA_LOC(cg), B, cg);
            idx[cg] = SUBMIT(cg, AGET(0, VA_LOC(cg), B),
                             AGET(X(1), GLB + cg * B, B),
                             CVT(X(2), X(0)),
                             APUT(GLB + 0x400000 + cg * B, X(2), B),
                             APUT(VA_LOC(cg) + B, X(1), B),
                             INSN(.op = SWAI_OP_DRAIN),
                             APUT(VA_HOST + cg * 4096, 0, 4096), END);
        }
        run();
        for (cg = 0; cg < SWAI_NUM_CG; cg++) {
            a[run_no][cg] = compl(cg, idx[cg]);
            CHECK_EQ(a[run_no][cg].status, 0);
        }
        card_free();
    }
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        CHECK_EQ(a[0][cg].start_ns, a[1][cg].start_ns);
        CHECK_EQ(a[0][cg].end_ns, a[1][cg].end_ns);
        CHECK_EQ(a[0][cg].bytes, a[1][cg].bytes);
    }
}

/* Data moves in program order whatever the timing says. */
static void test_results(void)
{
    uint8_t want[4096], got[4096];

    big_card();
    fill(LOC, 4096, 7);
    peek(LOC, want, 4096);
    CHECK_EQ(GO(AGET(0, LOC, 4096), APUT(GLB, 0, 4096),
                AGET(0, GLB + 8192, 4096), APUT(VA_HOST, 0, 4096),
                END).status, 0);
    peek(GLB, got, 4096);
    CHECK(!memcmp(got, want, 4096));
    CHECK(ldm_is_clear());
    card_free();
}

static const struct tap_test tests[] = {
    { "async transfers: ports overlap or serialise", test_ports },
    { "LDM scoreboard: RAW, WAR, WAW with compute", test_hazards },
    { "DRAIN, synchronous transfers and semaphores drain", test_drain },
    { "asynchronous timing is deterministic", test_determinism },
    { "asynchronous transfers keep program order of data", test_results },
};

TAP_MAIN(tests)
