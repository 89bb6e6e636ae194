/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-fabric-test.c - host unit test of the card-to-card fabric (no
 * QEMU; datasheet §15): two cards of a three-card topology, card 0 the
 * harness's S and card 1 the peer P below, sharing one fake host memory
 * and one MMU context table, as two cards of one VM.  It checks the
 * fabric registers, copies to and from the peer's HBM with their exact
 * modeled times, link sharing, a wait on a signal sent over the fabric,
 * every refused target, leaving, and determinism.
 */
#include <errno.h>

#include "cp-harness.h"
#include "swai-cost.h"
#include "swai-fabric.h"
#include "tap.h"

#define VA_FAB      0x60000000ull   /* card 1's HBM, from physical 0 */
#define FAB_BYTES   (4 * MIB)
#define MBPS        10000u          /* the card 0 <-> card 1 link */
#define LAT_NS      2000u
#define END_NS(ps)  (((ps) + 999) / 1000)

static struct swai_fabric *F;
static struct swai_card P;
static uint8_t *p_hbm, *p_ldm;
static uint64_t p_ring, p_compl;
static unsigned p_sub;

/* n0.c0 -- n0.c1 joined by one link; n0.c2 joined to nothing. */
static struct swai_fabric *fabric(void)
{
    struct swai_topo t;
    struct swai_topo_link l = { .mbps = MBPS, .latency_ns = LAT_NS };
    struct swai_fabric *f;
    char why[160];

    swai_topo_init(&t);
    if (swai_topo_add_node(&t, "n0", 3, 4, why, sizeof(why)) < 0) {
        printf("Bail out! %s\n", why);
        exit(1);
    }
    l.a = swai_topo_find(&t, "n0.c0");
    l.b = swai_topo_find(&t, "n0.c1");
    snprintf(l.kind, sizeof(l.kind), "test");
    if (swai_topo_add_link(&t, &l, why, sizeof(why)) < 0 ||
        swai_topo_finish(&t)) {
        printf("Bail out! cannot build the topology\n");
        exit(1);
    }
    f = swai_fabric_new(&t, why, sizeof(why));
    if (!f) {
        printf("Bail out! %s\n", why);
        exit(1);
    }
    return f;
}

static void peer_free(void)
{
    if (F) {
        swai_card_leave_fabric(&S);
        swai_card_leave_fabric(&P);
        swai_fabric_free(F);
        F = NULL;
    }
    if (p_hbm) {
        swai_card_attach(&P, NULL, NULL);
    }
    free(p_hbm);
    free(p_ldm);
    p_hbm = p_ldm = NULL;
}

/*
 * The harness's card as fabric card 0 and P, the same geometry, as card
 * 1; S maps VA_FAB onto P's first FAB_BYTES.
 */
static void two_cards(void)
{
    struct swai_props p;
    char why[160];
    uint64_t i;

    peer_free();
    card();
    swai_card_props_init(&p);
    p.hbm_mb = 32;
    p.local_mb = 16;
    p.cpes = 8;
    p.ldm_kb = 64;
    swai_card_props_validate(&p);
    swai_card_init(&P, &p, &fake_ops, NULL);
    p_hbm = calloc(SWAI_NUM_CG, swai_layout_hbm_bytes(&P.layout));
    p_ldm = calloc(SWAI_NUM_CG, swai_card_ldm_bytes(&P));
    if (!p_hbm || !p_ldm || !swai_card_attach(&P, p_hbm, p_ldm)) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    /* One context table for both cards: the same VAs, each its own HBM. */
    wr(&P, SWAI_REG_MMU_CTX_TABLE_LO, (uint32_t)HOST_BASE);
    wr(&P, SWAI_REG_MMU_CTX_TABLE_HI, HOST_BASE >> 32);
    p_ring = host_alloc(RING_SIZE * 64);
    p_compl = host_alloc(RING_SIZE * 64);
    p_sub = 0;
    wr(&P, SWAI_QUEUE_REG(0, SWAI_Q_RING_LO), (uint32_t)p_ring);
    wr(&P, SWAI_QUEUE_REG(0, SWAI_Q_RING_HI), p_ring >> 32);
    wr(&P, SWAI_QUEUE_REG(0, SWAI_Q_RING_SIZE), RING_SIZE);
    wr(&P, SWAI_QUEUE_REG(0, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE);
    for (i = 0; i < FAB_BYTES; i += PG) {
        map(VA_FAB + i, i | SWAI_PTE_FABRIC | SWAI_PTE_CARD(1) |
            SWAI_PTE_WRITE | SWAI_PTE_VALID);
    }
    F = fabric();
    if (swai_card_join_fabric(&S, F, 0, why, sizeof(why)) ||
        swai_card_join_fabric(&P, F, 1, why, sizeof(why))) {
        printf("Bail out! %s\n", why);
        exit(1);
    }
}

/* A job on P's CG 0; its completion is at p_compl + 64 * index. */
static unsigned p_submit(const struct swai_insn *prog, unsigned n)
{
    unsigned idx = p_sub++;
    uint64_t d = p_ring + (idx % RING_SIZE) * 64;

    memset(host_mem + (d - HOST_BASE), 0, 64);
    put64(d + 0, 7000 + idx);
    put64(d + 8, ASID);
    put64(d + 16, prog_put(prog, n));
    put64(d + 24, n * SWAI_INSN_SIZE);
    put64(d + 40, p_compl + (idx % RING_SIZE) * 64);
    wr(&P, SWAI_QUEUE_REG(0, SWAI_Q_TAIL), (idx + 1) % RING_SIZE);
    return idx;
}

static struct compl p_compl_of(unsigned idx)
{
    uint64_t a = p_compl + (idx % RING_SIZE) * 64;
    struct compl c = {
        .seqno = get64(a),
        .status = (uint32_t)get64(a + 8),
        .fault_va = get64(a + 16),
        .start_ns = get64(a + 24),
        .end_ns = get64(a + 32),
        .bytes = get64(a + 48),
    };

    return c;
}

/* Both MPEs until neither can do anything, interleaved like two threads. */
static void run2(void)
{
    unsigned long n = 0;
    bool a, b;

    do {
        a = swai_card_step(&S);
        b = swai_card_step(&P);
        if (++n > 50000000ul) {
            printf("Bail out! the cards never went idle\n");
            exit(1);
        }
    } while (a || b);
}

static void test_registers(void)
{
    two_cards();
    CHECK(rd(&S, SWAI_REG_CAPS) & SWAI_CAP_FABRIC);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_ID), 0);
    CHECK_EQ(rd(&P, SWAI_REG_FABRIC_ID), 1);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_CARDS), 3);
    CHECK(rd(&S, SWAI_REG_FABRIC_TAG) != 0);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_TAG), rd(&P, SWAI_REG_FABRIC_TAG));
    wr(&S, SWAI_REG_FABRIC_PEER, 1);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER), 1);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER_PATH),
             SWAI_FABRIC_PATH_ROUTE | SWAI_FABRIC_PATH_JOINED | 1 << 8);
    CHECK_EQ(SWAI_FABRIC_PATH_HOPS(rd(&S, SWAI_REG_FABRIC_PEER_PATH)), 1);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER_MBPS), MBPS);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER_LAT_NS), LAT_NS);
    /* Itself, a card with no route, a card beyond the topology: nothing. */
    wr(&S, SWAI_REG_FABRIC_PEER, 0);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER_PATH), 0);
    wr(&S, SWAI_REG_FABRIC_PEER, 2);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER_PATH), 0);
    wr(&S, SWAI_REG_FABRIC_PEER, 300);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER_PATH), 0);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER_MBPS), 0);
    CHECK_EQ(rd(&S, SWAI_REG_ERROR), 0);
    /* A card on no fabric says so; a reset forgets FABRIC_PEER. */
    swai_card_leave_fabric(&P);
    CHECK_EQ(rd(&P, SWAI_REG_FABRIC_CARDS), 0);
    CHECK_EQ(rd(&P, SWAI_REG_FABRIC_TAG), 0);
    wr(&S, SWAI_REG_FABRIC_PEER, 1);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER_PATH), SWAI_FABRIC_PATH_ROUTE |
             1 << 8);
    swai_card_reset(&S);
    CHECK_EQ(rd(&S, SWAI_REG_FABRIC_PEER), 0);
    peer_free();
}

/* Local-HBM of card 0 -> card 1's HBM and back, bytes and modeled time. */
static void test_copy(void)
{
    const uint64_t n = 1 * MIB;
    uint64_t issue;
    unsigned j;
    struct compl c;

    two_cards();
    issue = swai_cost_issue_ps(&S.props.t, SWAI_OP_COPY);
    fill(VA_LOC(0), n, 3);
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_FAB + 4096,
                       .src = VA_LOC(0)), END);
    run2();
    c = compl(0, j);
    CHECK_EQ(c.status, SWAI_JOB_OK);
    CHECK(!memcmp(p_hbm + 4096, byte_at(VA_LOC(0)), n));
    CHECK_EQ(c.bytes, n);
    /* A write: the link's 10 GB/s bounds every chunk; no latency. */
    CHECK_EQ(c.end_ns - c.start_ns, END_NS(issue + xfer_ps(n, MBPS)));
    printf("# 1 MiB to the peer: %" PRIu64 " ns\n", c.end_ns - c.start_ns);

    /* A read pays the route's latency there and back once. */
    memset(byte_at(VA_LOC(1)), 0, n);
    j = SUBMIT(1, INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_LOC(1),
                       .src = VA_FAB + 4096), END);
    run2();
    c = compl(1, j);
    CHECK_EQ(c.status, SWAI_JOB_OK);
    CHECK(!memcmp(byte_at(VA_LOC(1)), byte_at(VA_LOC(0)), n));
    CHECK_EQ(c.end_ns - c.start_ns,
             END_NS(issue + 2 * LAT_NS * 1000ull + xfer_ps(n, MBPS)));

    /* DMA_PUT from LDM and DMA_GET back: the same bytes over the link. */
    fill(VA_LOC(2), 8192, 5);
    j = SUBMIT(2, INSN(.op = SWAI_OP_DMA_GET, .len = 8192, .dst = 0,
                       .src = VA_LOC(2)),
               INSN(.op = SWAI_OP_DMA_PUT, .len = 8192, .dst = VA_FAB + 65536,
                    .src = 0),
               INSN(.op = SWAI_OP_DMA_GET, .len = 8192, .dst = 8192,
                    .src = VA_FAB + 65536),
               INSN(.op = SWAI_OP_DMA_PUT, .len = 8192,
                    .dst = VA_LOC(2) + 65536, .src = 8192), END);
    run2();
    CHECK_EQ(compl(2, j).status, SWAI_JOB_OK);
    CHECK(!memcmp(p_hbm + 65536, byte_at(VA_LOC(2)), 8192));
    CHECK(!memcmp(byte_at(VA_LOC(2) + 65536), byte_at(VA_LOC(2)), 8192));
    peer_free();
}

/* Two CGs writing to the peer at once share the link's direction. */
static void test_link_shared(void)
{
    const uint64_t n = 1 * MIB;
    uint64_t alone, issue;
    unsigned j, k;

    two_cards();
    issue = swai_cost_issue_ps(&S.props.t, SWAI_OP_COPY);
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_FAB,
                       .src = VA_LOC(0)), END);
    run2();
    alone = compl(0, j).end_ns - compl(0, j).start_ns;
    CHECK_EQ(alone, END_NS(issue + xfer_ps(n, MBPS)));

    two_cards();
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_FAB,
                       .src = VA_LOC(0)), END);
    k = SUBMIT(1, INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_FAB + n,
                       .src = VA_LOC(1)), END);
    run2();
    /* Chunk by chunk in turn: the later one ends at twice the bytes. */
    CHECK_EQ(compl(1, k).end_ns - compl(1, k).start_ns,
             END_NS(issue + 2 * xfer_ps(n, MBPS)));
    CHECK(compl(0, j).end_ns - compl(0, j).start_ns > alone);

    /* The two directions are separate: card 1 writing back is not slowed. */
    two_cards();
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_FAB,
                       .src = VA_LOC(0)), END);
    k = SUBMIT(1, INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_LOC(1),
                       .src = VA_FAB + n), END);
    run2();
    CHECK_EQ(compl(0, j).end_ns - compl(0, j).start_ns, alone);
    peer_free();
}

/*
 * Card 1 waits on a semaphore in its own HBM that card 0 signals over the
 * fabric: it leaves the WAIT at the signal's modeled time plus the route's
 * latency, plus its wake-up -- not earlier, however the threads ran.
 */
static void test_signal(void)
{
    const uint64_t sem = 2 * MIB;  /* card 1's HBM-physical, its CG 0 Local */
    uint64_t wake;
    unsigned j, k;
    struct compl a, b;

    two_cards();
    wake = P.props.t.t_barrier_ns;
    memset(p_hbm + sem, 0, 8);
    k = p_submit((const struct swai_insn[]) {
        INSN(.op = SWAI_OP_WAIT, .dst = VA_LOC(0) + sem, .src = 1),
        END }, 2);
    run2();
    CHECK_EQ(p_compl_of(k).seqno, 0);   /* still waiting */
    CHECK(swai_card_polling(&P));
    /* Card 0 first moves 1 MiB, so its signal is well after P's start. */
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = MIB, .dst = VA_FAB + 4 * PG,
                       .src = VA_LOC(0)),
               INSN(.op = SWAI_OP_SIGNAL, .dst = VA_FAB + sem, .src = 1),
               END);
    run2();
    a = compl(0, j);
    b = p_compl_of(k);
    CHECK_EQ(a.status, SWAI_JOB_OK);
    CHECK_EQ(b.seqno, 7000 + k);
    CHECK_EQ(b.status, SWAI_JOB_OK);
    CHECK(b.end_ns >= a.end_ns + LAT_NS + wake);
    CHECK(b.end_ns <= a.end_ns + LAT_NS + wake + 1);
    printf("# signal at %" PRIu64 " ns, peer woke at %" PRIu64 " ns\n",
           a.end_ns, b.end_ns);

    /* Card 0 waiting on a semaphore it reads across the fabric. */
    memset(p_hbm + sem + 8, 0, 8);
    j = SUBMIT(1, INSN(.op = SWAI_OP_WAIT, .dst = VA_FAB + sem + 8, .src = 5),
               END);
    run2();
    CHECK(swai_card_polling(&S));
    k = p_submit((const struct swai_insn[]) {
        INSN(.op = SWAI_OP_SIGNAL, .dst = VA_LOC(0) + sem + 8, .src = 5,
             .flags = SWAI_SIGNAL_SET),
        END }, 2);
    run2();
    CHECK_EQ(compl(1, j).status, SWAI_JOB_OK);
    CHECK(compl(1, j).end_ns >= p_compl_of(k).end_ns + LAT_NS + wake);
    peer_free();
}

/*
 * A wait that an early signal released ends at that signal's time, even
 * when the waiting card only looks after the signaller has run far ahead
 * and written the semaphore again (so cards polling at different paces
 * still agree on modeled time).
 */
static void test_early_signal(void)
{
    const uint64_t sem = 2 * MIB + 64;
    uint64_t wake;
    unsigned j, k;
    struct compl a, b;

    two_cards();
    wake = P.props.t.t_barrier_ns;
    memset(p_hbm + sem, 0, 8);
    j = SUBMIT(0, INSN(.op = SWAI_OP_SIGNAL, .dst = VA_FAB + sem, .src = 1),
               INSN(.op = SWAI_OP_COPY, .len = MIB, .dst = VA_FAB + 4 * PG,
                    .src = VA_LOC(0)),
               INSN(.op = SWAI_OP_SIGNAL, .dst = VA_FAB + sem, .src = 1),
               END);
    run2();
    a = compl(0, j);
    CHECK_EQ(a.status, SWAI_JOB_OK);
    k = p_submit((const struct swai_insn[]) {
        INSN(.op = SWAI_OP_WAIT, .dst = VA_LOC(0) + sem, .src = 1),
        END }, 2);
    run2();
    b = p_compl_of(k);
    CHECK_EQ(b.status, SWAI_JOB_OK);
    printf("# first signal after %" PRIu64 " ns, last at %" PRIu64
           " ns; the wait for the first ended at %" PRIu64 " ns\n",
           a.start_ns, a.end_ns, b.end_ns);
    CHECK(b.end_ns < a.end_ns);
    CHECK(b.end_ns <= (a.start_ns > b.start_ns ? a.start_ns : b.start_ns) +
                      LAT_NS + wake + 100);
    peer_free();
}

/* Each target the fabric cannot serve faults as BAD_TARGET. */
static void test_bad_targets(void)
{
    static const struct {
        uint64_t pte;
        const char *what;
    } bad[] = {
        { SWAI_PTE_FABRIC | SWAI_PTE_CARD(0), "itself" },
        { SWAI_PTE_FABRIC | SWAI_PTE_CARD(2), "a card with no route" },
        { SWAI_PTE_FABRIC | SWAI_PTE_CARD(7), "beyond the topology" },
        { SWAI_PTE_FABRIC | SWAI_PTE_CARD(255), "the last index" },
        { SWAI_PTE_FABRIC | SWAI_PTE_CARD(1) | (128 * MIB), "beyond its HBM" },
        { SWAI_PTE_FABRIC | SWAI_PTE_HOST | SWAI_PTE_CARD(1), "host too" },
    };
    const uint64_t va = 0x70000000ull;
    unsigned i, j;

    two_cards();
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct compl c;

        map(va, bad[i].pte | SWAI_PTE_WRITE | SWAI_PTE_VALID);
        wr(&S, SWAI_REG_MMU_INVALIDATE, SWAI_MMU_INV_ALL);
        wr(&S, SWAI_REG_MMU_FAULT_STATUS, ~0u);
        j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = 64, .dst = va,
                           .src = VA_LOC(0)), END);
        run2();
        c = compl(0, j);
        CHECK_EQ(c.status, SWAI_JOB_ERR_MMU);
        CHECK_EQ(c.fault_va, va);
        CHECK_EQ(SWAI_MMU_FAULT_REASON(rd(&S, SWAI_REG_MMU_FAULT_STATUS)),
                 SWAI_MMU_R_BAD_TARGET);
        if (c.status != SWAI_JOB_ERR_MMU) {
            printf("# %s was served\n", bad[i].what);
        }
    }
    /* A card without a fabric refuses every fabric page. */
    swai_card_leave_fabric(&S);
    map(va, SWAI_PTE_FABRIC | SWAI_PTE_CARD(1) | SWAI_PTE_WRITE |
        SWAI_PTE_VALID);
    wr(&S, SWAI_REG_MMU_INVALIDATE, SWAI_MMU_INV_ALL);
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = 64, .dst = va,
                       .src = VA_LOC(0)), END);
    run2();
    CHECK_EQ(compl(0, j).status, SWAI_JOB_ERR_MMU);
    peer_free();
}

/* A card that left: its pages fault, the register says it is gone. */
static void test_leave_and_join(void)
{
    char why[160];
    unsigned j;

    two_cards();
    swai_card_leave_fabric(&P);
    wr(&S, SWAI_REG_FABRIC_PEER, 1);
    CHECK(!(rd(&S, SWAI_REG_FABRIC_PEER_PATH) & SWAI_FABRIC_PATH_JOINED));
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = 64, .dst = VA_FAB,
                       .src = VA_LOC(0)), END);
    run2();
    CHECK_EQ(compl(0, j).status, SWAI_JOB_ERR_MMU);
    /* Joining twice, or as a taken or missing card, is refused. */
    CHECK_EQ(swai_card_join_fabric(&S, F, 1, why, sizeof(why)), -EBUSY);
    CHECK_EQ(swai_card_join_fabric(&P, F, 0, why, sizeof(why)), -EBUSY);
    CHECK(strstr(why, "already") != NULL);
    CHECK_EQ(swai_card_join_fabric(&P, F, 3, why, sizeof(why)), -EINVAL);
    CHECK(strstr(why, "0..2") != NULL);
    /* Back as card 1 (a hot-plugged card): served again. */
    CHECK_EQ(swai_card_join_fabric(&P, F, 1, why, sizeof(why)), 0);
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = 64, .dst = VA_FAB,
                       .src = VA_LOC(0)), END);
    run2();
    CHECK_EQ(compl(0, j).status, SWAI_JOB_OK);
    peer_free();
}

/* Both cards busy on the link and on each other's signals, twice. */
static void workload(uint64_t t[6])
{
    const uint64_t sem = 3 * MIB;
    unsigned j, k, m;

    two_cards();
    memset(p_hbm + sem, 0, 8);
    m = p_submit((const struct swai_insn[]) {
        INSN(.op = SWAI_OP_COPY, .len = 512 * 1024, .dst = VA_LOC(0) + MIB,
             .src = VA_LOC(0)),
        INSN(.op = SWAI_OP_WAIT, .dst = VA_LOC(0) + sem, .src = 2),
        END }, 3);
    j = SUBMIT(0, INSN(.op = SWAI_OP_COPY, .len = 3 * 65536 + 100,
                       .dst = VA_FAB, .src = VA_LOC(0)),
               INSN(.op = SWAI_OP_SIGNAL, .dst = VA_FAB + sem, .src = 1),
               END);
    k = SUBMIT(3, INSN(.op = SWAI_OP_COPY, .len = 2 * 65536,
                       .dst = VA_LOC(3), .src = VA_FAB + 8192),
               INSN(.op = SWAI_OP_SIGNAL, .dst = VA_FAB + sem, .src = 1),
               END);
    run2();
    t[0] = compl(0, j).end_ns;
    t[1] = compl(3, k).end_ns;
    t[2] = p_compl_of(m).end_ns;
    t[3] = compl(0, j).status | compl(3, k).status | p_compl_of(m).status;
    t[4] = compl(3, k).start_ns;
    t[5] = p_compl_of(m).start_ns;
}

static void test_determinism(void)
{
    uint64_t a[6], b[6];

    workload(a);
    workload(b);
    CHECK_EQ(a[3], SWAI_JOB_OK);
    CHECK(!memcmp(a, b, sizeof(a)));
    /* The waiter ends after the later of the two signals arrives. */
    CHECK(a[2] >= (a[0] > a[1] ? a[0] : a[1]) + LAT_NS);
    printf("# ends: %" PRIu64 ", %" PRIu64 ", peer %" PRIu64 " ns\n", a[0],
           a[1], a[2]);
    peer_free();
    card_free();
}

/*
 * Two CGs of card 0 share the link to card 1; one of them first waits on
 * a semaphore in card 1's HBM that card 1 sets at the start of its job.
 * In modeled time the waiter is free before the other reaches the link,
 * so the two interleave from there -- however the cards' threads ran:
 * @order 0 steps them in turn, 1 card 0 first as far as it goes (it must
 * stop where card 1 would step first), 2 card 1 first.
 */
static void contended(uint64_t t[4], int order)
{
    const uint64_t sem = 2 * MIB + 128;
    const uint64_t n = 512 * 1024;
    unsigned j, k, m;

    two_cards();
    memset(p_hbm + sem, 0, 8);
    j = SUBMIT(0, INSN(.op = SWAI_OP_WAIT, .dst = VA_FAB + sem, .src = 1),
               INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_FAB + 4 * PG,
                    .src = VA_LOC(0)),
               END);
    k = SUBMIT(1, INSN(.op = SWAI_OP_COPY, .len = MIB,
                       .dst = VA_LOC(1) + 4 * MIB, .src = VA_LOC(1)),
               INSN(.op = SWAI_OP_COPY, .len = n, .dst = VA_FAB + 3 * MIB,
                    .src = VA_LOC(1)),
               END);
    m = p_submit((const struct swai_insn[]) {
        INSN(.op = SWAI_OP_SIGNAL, .dst = VA_LOC(0) + sem, .src = 1,
             .flags = SWAI_SIGNAL_SET),
        END }, 2);
    while (order && swai_card_step(order == 1 ? &S : &P)) {
    }
    run2();
    t[0] = compl(0, j).end_ns;
    t[1] = compl(1, k).end_ns;
    t[2] = p_compl_of(m).end_ns;
    t[3] = compl(0, j).status | compl(1, k).status | p_compl_of(m).status;
}

static void test_step_order(void)
{
    uint64_t a[4], b[4], c[4], alone;

    contended(a, 0);
    contended(b, 1);
    contended(c, 2);
    CHECK_EQ(a[3], SWAI_JOB_OK);
    printf("# in turn: %" PRIu64 ", %" PRIu64 ", card 1 %" PRIu64
           " ns; card 0 first: %" PRIu64 ", %" PRIu64 "; card 1 first: %"
           PRIu64 ", %" PRIu64 "\n", a[0], a[1], a[2], b[0], b[1], c[0],
           c[1]);
    CHECK(!memcmp(a, b, sizeof(a)));
    CHECK(!memcmp(a, c, sizeof(a)));
    /* The two copies met on the link: each took longer than alone. */
    alone = END_NS(swai_cost_issue_ps(&S.props.t, SWAI_OP_COPY) +
                   xfer_ps(512 * 1024, MBPS));
    CHECK(a[0] - a[2] > alone);
    peer_free();
    card_free();
}

static const struct tap_test tests[] = {
    { "fabric registers: identity, tag, routes", test_registers },
    { "copies to and from a peer card: bytes and exact times", test_copy },
    { "a link direction is shared, the two directions are not",
      test_link_shared },
    { "a wait on a signal over the fabric ends after its latency",
      test_signal },
    { "a wait ends at the signal that released it, not a later one",
      test_early_signal },
    { "every unreachable target faults BAD_TARGET", test_bad_targets },
    { "leaving and joining again", test_leave_and_join },
    { "same two-card workload, same times", test_determinism },
    { "cards step in modeled-time order, whatever runs first",
      test_step_order },
};

TAP_MAIN(tests)
