/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-cp-test.c - host unit test of the MPE command processor (no QEMU):
 * rings, doorbells, completions and queue interrupts; every job error and
 * fault injection, with other queues going on; BARRIER, SIGNAL and WAIT
 * across core groups; queue and device reset (datasheet §12, §13).
 */
#include "cp-harness.h"
#include "tap.h"

#define NOP     INSN(.op = SWAI_OP_NOP)

/* --- queues --- */

static void test_ring_wraps(void)
{
    unsigned i, j = 0, total = 0, round;

    card();
    for (round = 0; round < 3; round++) {
        for (i = 0; i < 40; i++, total++) {
            j = SUBMIT(0, NOP, NOP, END);
        }
        CHECK_EQ(qreg(0, SWAI_Q_STATUS), SWAI_Q_STATUS_ENABLED);
        run();
        CHECK_EQ(completed(0), seqno_of(0, j));
        CHECK_EQ(qreg(0, SWAI_Q_JOBS), total);
        CHECK_EQ(qreg(0, SWAI_Q_HEAD), total % RING_SIZE);
        CHECK_EQ(qreg(0, SWAI_Q_TAIL), total % RING_SIZE);
        CHECK_EQ(qreg(0, SWAI_Q_STATUS),
                 SWAI_Q_STATUS_ENABLED | SWAI_Q_STATUS_IDLE);
        for (i = total - 40; i < total; i++) {
            struct compl c = compl(0, i);

            CHECK_EQ(c.seqno, seqno_of(0, i));
            CHECK_EQ(c.status, SWAI_JOB_OK);
            CHECK_EQ(c.insns, 3);
            CHECK_EQ(c.error_pc, 0);
            CHECK_EQ(c.fault_va, 0);
            CHECK_EQ(c.bytes, 0);
            CHECK(c.end_ns >= c.start_ns);
            CHECK(c.wall_ns > 0);
        }
        /* One edge per burst: the cause stays pending until cleared. */
        CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(0)], round + 1);
        CHECK_EQ(rd(&S, SWAI_REG_IRQ_STATUS), SWAI_IRQ_QUEUE(0));
        wr(&S, SWAI_REG_IRQ_STATUS, SWAI_IRQ_QUEUE(0));
    }
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 0);
    CHECK_EQ(qreg(1, SWAI_Q_JOBS), 0);
    card_free();
}

/* Jobs of one queue end in order; each completion raises the cause. */
static void test_completion_irq_each(void)
{
    unsigned i, j;

    card();
    for (i = 0; i < 5; i++) {
        j = SUBMIT(2, END);
        run();
        CHECK_EQ(completed(2), seqno_of(2, j));
        CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(2)], i + 1);
        wr(&S, SWAI_REG_IRQ_STATUS, ~0u);
    }
    /* Masked cause: latched, not signalled. */
    wr(&S, SWAI_REG_IRQ_ENABLE, 0);
    SUBMIT(2, END);
    run();
    CHECK_EQ(rd(&S, SWAI_REG_IRQ_STATUS), SWAI_IRQ_QUEUE(2));
    CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(2)], 5);
    wr(&S, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_ALL);
    CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(2)], 6);
    card_free();
}

static void test_disabled_queue(void)
{
    unsigned j;

    card();
    wr(&S, SWAI_QUEUE_REG(1, SWAI_Q_CTRL), 0);
    j = SUBMIT(1, END);
    CHECK_EQ(run(), 0);
    CHECK_EQ(qreg(1, SWAI_Q_HEAD), 0);
    CHECK_EQ(qreg(1, SWAI_Q_STATUS), 0);        /* not idle: work pending */
    wr(&S, SWAI_QUEUE_REG(1, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE);
    run();
    CHECK_JOB(1, j, SWAI_JOB_OK);
    card_free();
}

/* No completion address: COMPLETED and the interrupt still happen. */
static void test_no_completion_record(void)
{
    unsigned j;

    card();
    j = SUBMIT(3, END);
    put64(ring_pa[3] + j * 64 + 40, 0);
    run();
    CHECK_EQ(completed(3), seqno_of(3, j));
    CHECK_EQ(get64(compl_of(3, j)), 0xeeeeeeeeeeeeeeeeull);
    CHECK_EQ(cb.notified[SWAI_MSIX_QUEUE(3)], 1);
    card_free();
}

static void test_bad_ring(void)
{
    unsigned j;

    card();
    /* Not a power of two. */
    wr(&S, SWAI_QUEUE_REG(0, SWAI_Q_RING_SIZE), 48);
    SUBMIT(0, END);
    j = SUBMIT(1, END);
    run();
    CHECK_EQ(qreg(0, SWAI_Q_STATUS),
             SWAI_Q_STATUS_ENABLED | SWAI_Q_STATUS_BAD_RING);
    CHECK_EQ(qreg(0, SWAI_Q_JOBS), 0);
    CHECK_JOB(1, j, SWAI_JOB_OK);                   /* others go on */
    /* A queue reset clears it; HEAD := TAIL drops the entry. */
    wr(&S, SWAI_QUEUE_REG(0, SWAI_Q_RING_SIZE), RING_SIZE);
    wr(&S, SWAI_QUEUE_REG(0, SWAI_Q_CTRL),
       SWAI_Q_CTRL_RESET | SWAI_Q_CTRL_ENABLE);
    CHECK_EQ(qreg(0, SWAI_Q_CTRL), SWAI_Q_CTRL_RESET | SWAI_Q_CTRL_ENABLE);
    run();
    CHECK_EQ(qreg(0, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE);
    CHECK_EQ(qreg(0, SWAI_Q_STATUS),
             SWAI_Q_STATUS_ENABLED | SWAI_Q_STATUS_IDLE);
    CHECK_EQ(qreg(0, SWAI_Q_HEAD), 1);
    CHECK_EQ(qreg(0, SWAI_Q_JOBS), 0);
    j = SUBMIT(0, END);
    run();
    CHECK_JOB(0, j, SWAI_JOB_OK);

    /* TAIL beyond the ring, too small a ring, too large a ring. */
    wr(&S, SWAI_QUEUE_REG(0, SWAI_Q_TAIL), RING_SIZE);
    run();
    CHECK(qreg(0, SWAI_Q_STATUS) & SWAI_Q_STATUS_BAD_RING);
    wr(&S, SWAI_QUEUE_REG(0, SWAI_Q_CTRL), SWAI_Q_CTRL_RESET);
    run();
    CHECK_EQ(qreg(0, SWAI_Q_STATUS), SWAI_Q_STATUS_IDLE);
    wr(&S, SWAI_QUEUE_REG(2, SWAI_Q_RING_SIZE), 1);
    SUBMIT(2, END);
    run();
    CHECK(qreg(2, SWAI_Q_STATUS) & SWAI_Q_STATUS_BAD_RING);
    wr(&S, SWAI_QUEUE_REG(3, SWAI_Q_RING_SIZE), 8192);
    SUBMIT(3, END);
    run();
    CHECK(qreg(3, SWAI_Q_STATUS) & SWAI_Q_STATUS_BAD_RING);

    /* The ring cannot be read. */
    j = SUBMIT(1, END);
    dma_fail_page = ring_pa[1];
    run();
    CHECK(qreg(1, SWAI_Q_STATUS) & SWAI_Q_STATUS_BAD_RING);
    CHECK_EQ(qreg(1, SWAI_Q_JOBS), 1);
    dma_fail_page = 0;
    card_free();
}

/* --- job errors --- */

static uint64_t fail_prog_va;     /* VA of the program expect_fail ran */

/*
 * Run one program on CG 0 while CG 1 copies; the program must fail with
 * 'status' at 'pc' and CG 1 must still complete its copy.
 */
static struct compl expect_fail(const struct swai_insn *p, unsigned n,
                                uint32_t flags, int status, uint32_t pc)
{
    struct swai_insn other[] = {
        INSN(.op = SWAI_OP_COPY, .len = 300000, .dst = VA_GLOB + 0x400000,
             .src = VA_LOC(1)),
        END,
    };
    unsigned j, k;
    struct compl c;

    fill(VA_LOC(1), 300000, 9);
    k = submit_nb(1, other, 2, 0, 0);
    j = submit_nb(0, p, n, flags, 0);
    fail_prog_va = last_prog_va;
    run();
    c = compl(0, j);
    CHECK_EQ(c.seqno, seqno_of(0, j));
    CHECK_EQ(c.status, status);
    CHECK_EQ(c.error_pc, pc);
    CHECK_JOB(1, k, SWAI_JOB_OK);
    CHECK(!memcmp(byte_at(VA_LOC(1)), byte_at(VA_GLOB + 0x400000), 4096));
    /* The failing queue goes on with its next job. */
    j = SUBMIT(0, NOP, END);
    run();
    CHECK_JOB(0, j, SWAI_JOB_OK);
    CHECK(ldm_is_clear());
    return c;
}

#define FAIL(st, pc, ...) ({                                            \
    const struct swai_insn p_[] = { __VA_ARGS__ };                      \
    expect_fail(p_, sizeof(p_) / sizeof(p_[0]), 0, st, pc);             \
})

static void test_illegal(void)
{
    uint64_t sem = VA_GLOB + 0x1000;

    card();
    FAIL(SWAI_JOB_ERR_ILLEGAL, 1, NOP, INSN(.op = SWAI_OP_MAX + 1), END);
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = 0xff));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_NOP, .len = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_END, .dst = 8));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_NOP, .flags = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_COPY, .flags = 2,
                                       .len = 8, .dst = VA_GLOB,
                                       .src = VA_HOST));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_DMA_GET, .dtype = 1,
                                       .len = 8, .src = VA_HOST));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_REDUCE, .rows = 1,
                                       .len = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_REDUCE, .len = 1,
                                       .dst_stride = 4));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_REDUCE, .len = 1,
                                       .dtype = SWAI_DT_MAX + 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_REDUCE, .len = 1,
                                       .rop = SWAI_ROP_MAXOP + 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_REDUCE, .len = 1,
                                       .flags = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_BARRIER, .dst = sem));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_BARRIER, .len = 1,
                                       .dst = sem, .src = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_BARRIER, .len = 1,
                                       .dst = sem, .flags = 2));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_SIGNAL, .dst = sem,
                                       .rows = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_WAIT, .dst = sem,
                                       .len = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_FENCE, .dst = sem,
                                       .flags = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_TIMESTAMP, .dst = sem,
                                       .src = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_TIMESTAMP, .dst = sem,
                                       .src_stride = 1));
    /* DIV: divisor 0, a rop, a bad dtype, transfer fields, flags. */
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_DIV, .len = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_DIV, .len = 1, .src = 2,
                                       .rop = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_DIV, .len = 1, .src = 2,
                                       .dtype = SWAI_DT_MAX + 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_DIV, .len = 1, .src = 2,
                                       .rows = 1));
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_DIV, .len = 1, .src = 2,
                                       .flags = 1));
    /* rows * len does not fit 64 bits. */
    FAIL(SWAI_JOB_ERR_ILLEGAL, 0, INSN(.op = SWAI_OP_COPY, .rows = 3,
                                       .len = 1ull << 63, .dst = VA_GLOB,
                                       .src = VA_HOST));
    card_free();
}

static void test_ldm_overrun(void)
{
    uint64_t ldm;
    struct compl c;

    card();
    ldm = swai_card_ldm_bytes(&S);
    CHECK_EQ(ldm, 8 * 64 * 1024);
    FAIL(SWAI_JOB_ERR_LDM, 0, INSN(.op = SWAI_OP_DMA_GET, .len = 8,
                                   .dst = ldm - 4, .src = VA_HOST));
    FAIL(SWAI_JOB_ERR_LDM, 1, NOP, INSN(.op = SWAI_OP_DMA_PUT, .len = 1,
                                        .dst = VA_HOST, .src = ldm));
    FAIL(SWAI_JOB_ERR_LDM, 0, INSN(.op = SWAI_OP_DMA_GET, .rows = 2,
                                   .len = 8, .dst_stride = ldm,
                                   .dst = 0, .src = VA_HOST));
    FAIL(SWAI_JOB_ERR_LDM, 0, INSN(.op = SWAI_OP_DMA_GET, .len = ~0ull,
                                   .dst = 8, .src = VA_HOST));
    FAIL(SWAI_JOB_ERR_LDM, 0, INSN(.op = SWAI_OP_REDUCE, .len = ldm / 4,
                                   .dst = 4, .src = 0));
    FAIL(SWAI_JOB_ERR_LDM, 0, INSN(.op = SWAI_OP_REDUCE, .len = 1ull << 62,
                                   .dtype = SWAI_DT_F64));
    /* Exactly the whole LDM is fine; nothing moves before the check. */
    fill(VA_HOST, ldm, 3);
    c = FAIL(SWAI_JOB_ERR_LDM, 1,
             INSN(.op = SWAI_OP_DMA_GET, .len = ldm, .dst = 0,
                  .src = VA_HOST),
             INSN(.op = SWAI_OP_DMA_GET, .len = 1, .dst = ldm,
                  .src = VA_HOST));
    CHECK_EQ(c.bytes, ldm);
    CHECK_EQ(c.insns, 1);
    card_free();
}

static void test_mmu_fault(void)
{
    uint32_t fs;
    struct compl c;

    card();
    fill(VA_HOST + HOST_DATA - 4096, 4096, 1);
    c = FAIL(SWAI_JOB_ERR_MMU, 0, INSN(.op = SWAI_OP_DMA_GET, .len = 64,
                                       .dst = 0, .src = 0x70000010));
    CHECK_EQ(c.fault_va, 0x70000010);
    fs = rd(&S, SWAI_REG_MMU_FAULT_STATUS);
    CHECK_EQ(fs, SWAI_MMU_FAULT_VALID | SWAI_MMU_R_NOT_PRESENT << 4 |
             ASID << 8);
    CHECK_EQ(rd(&S, SWAI_REG_MMU_FAULT_VA_LO), 0x70000010);
    CHECK(rd(&S, SWAI_REG_IRQ_STATUS) & SWAI_IRQ_MMU_FAULT);
    CHECK_EQ(cb.notified[SWAI_MSIX_MGMT], 1);
    wr(&S, SWAI_REG_MMU_FAULT_STATUS, SWAI_MMU_FAULT_VALID);

    /* A write to a read-only page. */
    c = FAIL(SWAI_JOB_ERR_MMU, 0, INSN(.op = SWAI_OP_COPY, .len = 8,
                                       .dst = VA_RO, .src = VA_HOST));
    CHECK_EQ(c.fault_va, VA_RO);
    CHECK_EQ(rd(&S, SWAI_REG_MMU_FAULT_STATUS),
             SWAI_MMU_FAULT_VALID | SWAI_MMU_FAULT_WRITE |
             SWAI_MMU_R_READ_ONLY << 4 | ASID << 8);
    wr(&S, SWAI_REG_MMU_FAULT_STATUS, SWAI_MMU_FAULT_VALID);

    /* Running off the end of the mapping: what was before it moved. */
    c = FAIL(SWAI_JOB_ERR_MMU, 0,
             INSN(.op = SWAI_OP_DMA_GET, .len = 200, .dst = 0,
                  .src = VA_HOST + HOST_DATA - 100));
    CHECK_EQ(c.fault_va, VA_HOST + HOST_DATA);
    CHECK_EQ(c.bytes, 100);
    wr(&S, SWAI_REG_MMU_FAULT_STATUS, SWAI_MMU_FAULT_VALID);

    /* A semaphore that does not translate. */
    c = FAIL(SWAI_JOB_ERR_MMU, 0, INSN(.op = SWAI_OP_WAIT, .dst = 0x70000000,
                                       .src = 1));
    CHECK_EQ(c.fault_va, 0x70000000);
    card_free();
}

static void test_foreign_local(void)
{
    struct compl c;

    card();
    c = FAIL(SWAI_JOB_ERR_FOREIGN, 0,
             INSN(.op = SWAI_OP_DMA_GET, .len = 8, .dst = 0,
                  .src = VA_LOC(1) + 0x100));
    CHECK_EQ(c.fault_va, VA_LOC(1) + 0x100);
    c = FAIL(SWAI_JOB_ERR_FOREIGN, 1,
             INSN(.op = SWAI_OP_COPY, .len = 8, .dst = VA_LOC(0),
                  .src = VA_GLOB),
             INSN(.op = SWAI_OP_COPY, .len = 8, .dst = VA_LOC(3),
                  .src = VA_GLOB));
    CHECK_EQ(c.fault_va, VA_LOC(3));
    FAIL(SWAI_JOB_ERR_FOREIGN, 0, INSN(.op = SWAI_OP_SIGNAL,
                                       .dst = VA_LOC(2), .src = 1));
    /* Not an MMU fault. */
    CHECK_EQ(rd(&S, SWAI_REG_MMU_FAULT_STATUS), 0);
    CHECK(!(rd(&S, SWAI_REG_IRQ_STATUS) & SWAI_IRQ_MMU_FAULT));
    card_free();
}

/* With SWAI_DESC_PEER the same accesses work and move the right bytes. */
static void test_peer_local(void)
{
    static uint8_t want[300000];
    unsigned j, k;

    card();
    fill(VA_LOC(1), 300000, 21);
    fill(VA_LOC(2), 4096, 22);
    memcpy(want, byte_at(VA_LOC(1)), sizeof(want));
    j = submit_nb(0, (const struct swai_insn[]){
                      INSN(.op = SWAI_OP_COPY, .len = 300000,
                           .dst = VA_LOC(3) + 5, .src = VA_LOC(1)),
                      INSN(.op = SWAI_OP_DMA_GET, .len = 4096, .dst = 8,
                           .src = VA_LOC(2)),
                      INSN(.op = SWAI_OP_DMA_PUT, .len = 4096,
                           .dst = VA_LOC(0) + 0x1000, .src = 8),
                      INSN(.op = SWAI_OP_SIGNAL, .dst = VA_LOC(2) + 0x2000,
                           .src = 7),
                      END,
                  }, 5, SWAI_DESC_PEER, 0);
    run();
    CHECK_JOB(0, j, SWAI_JOB_OK);
    CHECK_EQ(compl(0, j).bytes, 300000 + 2 * 4096);
    CHECK(!memcmp(byte_at(VA_LOC(3) + 5), want, sizeof(want)));
    CHECK(!memcmp(byte_at(VA_LOC(0) + 0x1000), byte_at(VA_LOC(2)), 4096));
    CHECK_EQ(peek64(VA_LOC(2) + 0x2000), 7);
    /* The flag is per job: the next job of the queue is private again. */
    k = SUBMIT(0, INSN(.op = SWAI_OP_DMA_GET, .len = 8, .dst = 0,
                       .src = VA_LOC(1)));
    run();
    CHECK_JOB(0, k, SWAI_JOB_ERR_FOREIGN);
    CHECK_EQ(compl(0, k).fault_va, VA_LOC(1));
    card_free();
}

static void test_misaligned(void)
{
    struct compl c;

    card();
    c = FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_SIGNAL,
                                         .dst = VA_GLOB + 4, .src = 1));
    CHECK_EQ(c.fault_va, VA_GLOB + 4);
    FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_BARRIER, .len = 2,
                                     .dst = VA_GLOB + 1));
    FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_WAIT, .dst = VA_HOST + 2));
    FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_FENCE, .dst = VA_HOST + 9));
    FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_TIMESTAMP,
                                     .dst = VA_HOST + 12));
    FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_REDUCE, .len = 4,
                                     .dst = 2, .src = 0));
    FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_REDUCE, .len = 4,
                                     .dtype = SWAI_DT_F16, .dst = 0,
                                     .src = 1));
    FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_REDUCE, .len = 4,
                                     .dtype = SWAI_DT_I64, .dst = 4,
                                     .src = 0));
    FAIL(SWAI_JOB_ERR_ALIGN, 0, INSN(.op = SWAI_OP_DIV, .len = 4,
                                     .dtype = SWAI_DT_F16, .dst = 3,
                                     .src = 2));
    /* U8 has no alignment; DIV's src is the divisor, not an offset. */
    FAIL(SWAI_JOB_ERR_ILLEGAL, 3, INSN(.op = SWAI_OP_REDUCE, .len = 4,
                                       .dtype = SWAI_DT_U8, .dst = 3,
                                       .src = 5),
         INSN(.op = SWAI_OP_DIV, .len = 4, .dst = 4, .src = 3), NOP,
         INSN(.op = SWAI_OP_MAX + 1));
    card_free();
}

/* Descriptor-level failures: program size, fetch, flags, context. */
static void test_bad_program(void)
{
    static struct swai_insn nops[SWAI_PROGRAM_MAX];
    uint64_t va;
    unsigned j, k;

    card();
    va = prog_put(nops, 2);
    j = submit_desc(0, ASID, 0, va, 0, 0);
    k = submit_desc(0, ASID, 0, va, 47, 0);
    run();
    CHECK_JOB(0, j, SWAI_JOB_ERR_PROGRAM);
    CHECK_JOB(0, k, SWAI_JOB_ERR_PROGRAM);
    j = submit_desc(0, ASID, 0, va, SWAI_PROGRAM_MAX_BYTES + 48, 0);
    k = submit_desc(0, ASID, 1u << 4, va, 96, 0);
    run();
    CHECK_JOB(0, j, SWAI_JOB_ERR_PROGRAM);
    CHECK_JOB(0, k, SWAI_JOB_ERR_PROGRAM);
    /* Not mapped, or an invalid context: the fetch fails. */
    j = submit_desc(0, ASID, 0, 0x70000000, 96, 0);
    k = submit_desc(0, 9, 0, va, 96, 0);
    run();
    CHECK_JOB(0, j, SWAI_JOB_ERR_PROGRAM);
    CHECK_EQ(compl(0, j).fault_va, 0x70000000);
    CHECK_JOB(0, k, SWAI_JOB_ERR_PROGRAM);
    CHECK_EQ(compl(0, k).fault_va, va);
    CHECK(rd(&S, SWAI_REG_MMU_FAULT_STATUS) & SWAI_MMU_FAULT_VALID);
    /* The largest program runs, off its end without END. */
    j = submit_nb(1, nops, SWAI_PROGRAM_MAX, 0, 0);
    run();
    CHECK_JOB(1, j, SWAI_JOB_OK);
    CHECK_EQ(compl(1, j).insns, SWAI_PROGRAM_MAX);
    card_free();
}

static void test_dma_failure(void)
{
    struct compl c;

    card();
    dma_fail_page = host_data + 0x5000;
    c = FAIL(SWAI_JOB_ERR_DMA, 0, INSN(.op = SWAI_OP_COPY, .len = 0x2000,
                                       .dst = VA_GLOB,
                                       .src = VA_HOST + 0x4000));
    CHECK_EQ(c.fault_va, VA_HOST + 0x5000);
    c = FAIL(SWAI_JOB_ERR_DMA, 0, INSN(.op = SWAI_OP_FENCE,
                                       .dst = VA_HOST + 0x5008, .src = 1));
    CHECK_EQ(c.fault_va, VA_HOST + 0x5008);
    dma_fail_page = 0;
    card_free();
}

/* --- fault injection --- */

static void test_inject_mmu(void)
{
    const struct swai_insn p[] = {
        NOP,
        INSN(.op = SWAI_OP_COPY, .len = 16, .dst = VA_GLOB, .src = VA_HOST),
        END,
    };
    const struct swai_insn nop[] = { NOP, END };
    struct compl c;

    card();
    poke64(VA_GLOB, 0x1234);
    c = expect_fail(p, 3, SWAI_DESC_INJECT_MMU_FAULT, SWAI_JOB_ERR_MMU, 1);
    CHECK_EQ(c.fault_va, VA_HOST);
    CHECK_EQ(c.bytes, 0);
    CHECK_EQ(peek64(VA_GLOB), 0x1234);              /* nothing moved */
    CHECK_EQ(rd(&S, SWAI_REG_MMU_FAULT_STATUS),
             SWAI_MMU_FAULT_VALID | SWAI_MMU_R_NOT_PRESENT << 4 | ASID << 8);
    CHECK_EQ(rd(&S, SWAI_REG_MMU_FAULT_VA_LO), (uint32_t)VA_HOST);
    wr(&S, SWAI_REG_MMU_FAULT_STATUS, SWAI_MMU_FAULT_VALID);
    /* No data access at all: the job still fails, at its end. */
    c = expect_fail(nop, 2, SWAI_DESC_INJECT_MMU_FAULT, SWAI_JOB_ERR_MMU, 1);
    CHECK_EQ(c.fault_va, fail_prog_va);
    CHECK(rd(&S, SWAI_REG_MMU_FAULT_STATUS) & SWAI_MMU_FAULT_VALID);
    card_free();
}

static void test_inject_dma(void)
{
    const struct swai_insn p[] = {
        INSN(.op = SWAI_OP_SIGNAL, .dst = VA_GLOB + 64, .src = 1),
        INSN(.op = SWAI_OP_DMA_PUT, .len = 16, .dst = VA_GLOB, .src = 0),
        END,
    };
    const struct swai_insn nop[] = { NOP, NOP, END };
    struct compl c;

    card();
    c = expect_fail(p, 3, SWAI_DESC_INJECT_DMA_FAIL, SWAI_JOB_ERR_DMA, 1);
    CHECK_EQ(c.fault_va, VA_GLOB);
    CHECK_EQ(peek64(VA_GLOB + 64), 1);              /* before: done */
    c = expect_fail(nop, 3, SWAI_DESC_INJECT_DMA_FAIL, SWAI_JOB_ERR_DMA, 2);
    CHECK_EQ(rd(&S, SWAI_REG_MMU_FAULT_STATUS), 0);
    card_free();
}

/* A hung job blocks its queue only; a queue reset recovers it. */
static void test_inject_hang_reset(void)
{
    const struct swai_insn p[] = {
        INSN(.op = SWAI_OP_SIGNAL, .dst = VA_GLOB, .src = 1), END,
    };
    unsigned j, k, l, m;

    card();
    j = submit_nb(2, p, 2, SWAI_DESC_INJECT_HANG, 0);
    k = SUBMIT(2, END);                 /* queued behind the hang */
    l = SUBMIT(2, END);
    m = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = 100000, .dst = VA_GLOB + 8,
                       .src = VA_HOST), END);
    run();
    CHECK_JOB(0, m, SWAI_JOB_OK);
    CHECK_EQ(qreg(2, SWAI_Q_JOBS), 0);
    CHECK_EQ(qreg(2, SWAI_Q_STATUS), SWAI_Q_STATUS_ENABLED);
    CHECK_EQ(qreg(2, SWAI_Q_HEAD), 1);
    CHECK(!swai_card_polling(&S));        /* a hang does not poll */
    CHECK_EQ(peek64(VA_GLOB), 0);       /* the program never ran */
    wr(&S, SWAI_QUEUE_REG(2, SWAI_Q_CTRL),
       SWAI_Q_CTRL_RESET | SWAI_Q_CTRL_ENABLE);
    run();
    CHECK_JOB(2, j, SWAI_JOB_ERR_RESET);
    CHECK_EQ(completed(2), seqno_of(2, j));
    CHECK_EQ(qreg(2, SWAI_Q_JOBS), 1);
    /* The entries behind it were dropped without completions. */
    CHECK_EQ(get64(compl_of(2, k)), 0xeeeeeeeeeeeeeeeeull);
    CHECK_EQ(get64(compl_of(2, l)), 0xeeeeeeeeeeeeeeeeull);
    CHECK_EQ(qreg(2, SWAI_Q_HEAD), 3);
    CHECK_EQ(qreg(2, SWAI_Q_STATUS),
             SWAI_Q_STATUS_ENABLED | SWAI_Q_STATUS_IDLE);
    j = SUBMIT(2, END);
    run();
    CHECK_JOB(2, j, SWAI_JOB_OK);
    /* Reset of an idle queue: nothing to complete. */
    wr(&S, SWAI_QUEUE_REG(2, SWAI_Q_CTRL), SWAI_Q_CTRL_RESET);
    run();
    CHECK_EQ(qreg(2, SWAI_Q_JOBS), 2);
    CHECK_EQ(qreg(2, SWAI_Q_CTRL), 0);
    card_free();
}

/* --- BARRIER, SIGNAL, WAIT across CGs --- */

static void test_barrier(void)
{
    uint64_t sem = VA_GLOB + 0x8000;
    unsigned c, j[SWAI_NUM_CG];

    card();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        const struct swai_insn p[] = {
            INSN(.op = SWAI_OP_COPY, .len = 50000 * (c + 1),
                 .dst = VA_GLOB + 0x100000 * (c + 1), .src = VA_LOC(c)),
            INSN(.op = SWAI_OP_BARRIER, .len = 4, .dst = sem),
            INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST + 64 * c),
            INSN(.op = SWAI_OP_BARRIER, .len = 4, .dst = sem),
            INSN(.op = SWAI_OP_BARRIER, .len = 4, .dst = sem,
                 .flags = SWAI_BARRIER_HOST),
            INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST + 64 * c + 8),
            END,
        };

        j[c] = submit_nb(c, p, 7, 0, 0);
    }
    run();
    for (c = 0; c < SWAI_NUM_CG; c++) {
        CHECK_JOB(c, j[c], SWAI_JOB_OK);
        /* All leave the first barrier together, after the last arrives. */
        CHECK_EQ(peek64(VA_HOST + 64 * c), peek64(VA_HOST));
        CHECK_EQ(peek64(VA_HOST + 64 * c + 8), peek64(VA_HOST) + 1000 +
                 15000);
    }
    CHECK_EQ(peek64(sem), 12);          /* a monotone counter */
    /* The slowest (CG 3: 200000 B at 100 GB/s) decides: 25 + 5 + 2 us. */
    CHECK_EQ(peek64(VA_HOST), 25000 + 5000 + 2000 + 1000);
    card_free();
}

/* A barrier of 2 out of a group: it does not wait for the others. */
static void test_barrier_partial(void)
{
    uint64_t sem = VA_HOST + 0x100;
    unsigned j, k;

    card();
    j = SUBMIT(0, INSN(.op = SWAI_OP_BARRIER, .len = 2, .dst = sem), END);
    run();
    CHECK(swai_card_polling(&S));
    CHECK_EQ(qreg(0, SWAI_Q_JOBS), 0);
    k = SUBMIT(3, INSN(.op = SWAI_OP_BARRIER, .len = 2, .dst = sem), END);
    run();
    CHECK_JOB(0, j, SWAI_JOB_OK);
    CHECK_JOB(3, k, SWAI_JOB_OK);
    CHECK_EQ(peek64(sem), 2);
    CHECK(!swai_card_polling(&S));
    card_free();
}

static void test_signal_wait(void)
{
    uint64_t sem = VA_GLOB + 0x200000, hsem = VA_HOST + 0x200;
    unsigned j, k, l;

    card();
    /* CG 1 waits for two signals of CG 0, which works in between. */
    j = SUBMIT(1, INSN(.op = SWAI_OP_WAIT, .dst = sem, .src = 2),
               INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST), END);
    k = SUBMIT(0, INSN(.op = SWAI_OP_SIGNAL, .dst = sem, .src = 1),
               INSN(.op = SWAI_OP_COPY, .len = 750000, .dst = VA_GLOB,
                    .src = VA_LOC(0)),
               INSN(.op = SWAI_OP_SIGNAL, .dst = sem, .src = 1),
               INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST + 8), END);
    run();
    CHECK_JOB(0, k, SWAI_JOB_OK);
    CHECK_JOB(1, j, SWAI_JOB_OK);
    /* 25 us launch, 5 us step + 750000 B at 100 GB/s = 7.5 us. */
    CHECK_EQ(peek64(VA_HOST + 8), 37500);
    CHECK_EQ(peek64(VA_HOST), 37500 + 1000);

    /* WAIT EQ: a value past the target does not release it. */
    poke64(sem, 0);
    j = SUBMIT(2, INSN(.op = SWAI_OP_WAIT, .flags = SWAI_WAIT_EQ, .dst = sem,
                       .src = 5), END);
    k = SUBMIT(3, INSN(.op = SWAI_OP_SIGNAL, .flags = SWAI_SIGNAL_SET,
                       .dst = sem, .src = 6), END);
    run();
    CHECK_JOB(3, k, SWAI_JOB_OK);
    CHECK_EQ(qreg(2, SWAI_Q_JOBS), 0);
    CHECK(swai_card_polling(&S));
    /* The host writes the semaphore (BAR2 or host memory): released. */
    poke64(sem, 5);
    run();
    CHECK_JOB(2, j, SWAI_JOB_OK);

    /* A semaphore in host memory, set by the host only. */
    l = SUBMIT(3, INSN(.op = SWAI_OP_WAIT, .dst = hsem, .src = 1),
               INSN(.op = SWAI_OP_TIMESTAMP, .dst = VA_HOST + 16), END);
    CHECK_EQ(run() > 0, 1);
    CHECK_EQ(qreg(3, SWAI_Q_JOBS), 1);
    CHECK(!swai_card_step(&S));
    poke64(hsem, 1);
    run();
    CHECK_JOB(3, l, SWAI_JOB_OK);
    /* Own clock + t_barrier: the host's write has no modeled time. */
    CHECK_EQ(peek64(VA_HOST + 16), compl(3, l).start_ns + 1000);
    card_free();
}

/* --- reset --- */

static void test_device_reset(void)
{
    unsigned j, k;

    card();
    j = SUBMIT(0, INSN(.op = SWAI_OP_DMA_GET, .len = 5000, .dst = 0,
                       .src = VA_HOST),
               INSN(.op = SWAI_OP_WAIT, .dst = VA_HOST + 0x10000, .src = 1),
               END);
    k = submit_nb(1, (struct swai_insn[]){ END }, 1, SWAI_DESC_INJECT_HANG, 0);
    fill(VA_HOST, 5000, 4);
    run();
    CHECK(!ldm_is_clear());             /* job 0 holds data in LDM */
    wr(&S, SWAI_REG_RESET, SWAI_RESET_MAGIC);
    swai_card_bh(&S);
    CHECK(ldm_is_clear());
    CHECK_EQ(get64(compl_of(0, j)), 0xeeeeeeeeeeeeeeeeull);
    CHECK_EQ(get64(compl_of(1, k)), 0xeeeeeeeeeeeeeeeeull);
    check_reset_state(&S, 32, 16, 8, 64);
    CHECK(!swai_card_step(&S));
    card_free();
}

/*
 * A device reset while a step moves data without the lock (another thread
 * in QEMU): the step drops its work, nothing completes, LDM is clean.
 */
static void reset_now(void)
{
    wr(&S, SWAI_REG_RESET, SWAI_RESET_MAGIC);
    swai_card_bh(&S);
}

static void test_reset_while_moving(void)
{
    unsigned j, op;

    for (op = 0; op < 2; op++) {
        card();
        fill(VA_HOST, 200000, 5);
        if (op == 0) {
            j = SUBMIT(1, INSN(.op = SWAI_OP_DMA_GET, .len = 200000,
                               .dst = 0, .src = VA_HOST), END);
        } else {
            j = SUBMIT(1, INSN(.op = SWAI_OP_REDUCE, .len = 60000, .dst = 0,
                               .src = 240000), END);
        }
        swai_card_step(&S);               /* fetch */
        CHECK_EQ(cb.unlocks, 0);
        fake_in_window = reset_now;
        CHECK(swai_card_step(&S));        /* first chunk, reset meanwhile */
        CHECK_EQ(cb.unlocks, 1);
        CHECK_EQ(cb.locks, 1);
        CHECK(fake_in_window == NULL);
        CHECK(ldm_is_clear());
        CHECK(!swai_card_step(&S));
        CHECK_EQ(get64(compl_of(1, j)), 0xeeeeeeeeeeeeeeeeull);
        check_reset_state(&S, 32, 16, 8, 64);
        /* The card works after it. */
        wr(&S, SWAI_QUEUE_REG(1, SWAI_Q_RING_LO), (uint32_t)ring_pa[1]);
        wr(&S, SWAI_QUEUE_REG(1, SWAI_Q_RING_HI), ring_pa[1] >> 32);
        wr(&S, SWAI_QUEUE_REG(1, SWAI_Q_RING_SIZE), RING_SIZE);
        wr(&S, SWAI_QUEUE_REG(1, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE);
        wr(&S, SWAI_REG_MMU_CTX_TABLE_LO, (uint32_t)HOST_BASE);
        wr(&S, SWAI_REG_MMU_CTX_TABLE_HI, HOST_BASE >> 32);
        submitted[1] = 0;
        j = SUBMIT(1, INSN(.op = SWAI_OP_COPY, .len = 5000, .dst = VA_GLOB,
                           .src = VA_HOST), END);
        run();
        CHECK_JOB(1, j, SWAI_JOB_OK);
        CHECK_EQ(compl(1, j).start_ns, 25000);  /* clocks restarted */
        CHECK(!memcmp(byte_at(VA_GLOB), byte_at(VA_HOST), 4096));
    }
    card_free();
}

static const struct tap_test tests[] = {
    { "ring wraps; completions, COMPLETED, JOBS, IRQ", test_ring_wraps },
    { "every completion raises the queue cause",
      test_completion_irq_each },
    { "a disabled queue fetches nothing", test_disabled_queue },
    { "completion address 0", test_no_completion_record },
    { "BAD_RING: size, TAIL, DMA; queue reset clears", test_bad_ring },
    { "illegal instructions and unused fields", test_illegal },
    { "LDM overruns", test_ldm_overrun },
    { "MMU faults: latched, reported, partial", test_mmu_fault },
    { "another CG's Local-HBM is FOREIGN", test_foreign_local },
    { "peer access (SWAI_DESC_PEER) to other CGs' Local", test_peer_local },
    { "misaligned semaphores and REDUCE operands", test_misaligned },
    { "bad program size, fetch, flags, context", test_bad_program },
    { "host DMA failure", test_dma_failure },
    { "inject MMU fault", test_inject_mmu },
    { "inject DMA failure", test_inject_dma },
    { "inject hang, queue reset", test_inject_hang_reset },
    { "BARRIER across 4 CGs, repeated, HOST flag", test_barrier },
    { "BARRIER of 2", test_barrier_partial },
    { "SIGNAL/WAIT across CGs, WAIT EQ, host release", test_signal_wait },
    { "device reset drops every job", test_device_reset },
    { "device reset while a step moves data unlocked",
      test_reset_while_moving },
};

TAP_MAIN(tests)
