/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cp-harness.h - a card that runs jobs, for the command-processor unit
 * tests: the fake glue plus HBM and LDM buffers, one MMU context mapping
 * every tier, a ring per CG, and helpers to submit programs, run the MPE
 * until it is idle and read completions.  Test-only, header-only.
 *
 * Context ASID maps (all 4 KiB pages):
 *   VA_PROG    host pages holding the programs (read-only)
 *   VA_HOST    HOST_DATA bytes of host memory (read/write)
 *   VA_RO      one host page, read-only
 *   VA_GLOB    the first MAP_BYTES of Global-HBM, in device-address order
 *   VA_LOC(c)  the first MAP_BYTES of CG c's Local-HBM
 */
#ifndef SWAI_CP_HARNESS_H
#define SWAI_CP_HARNESS_H

#include "fake-glue.h"
#include "swai-isa.h"
#include "swai-float.h"

#define PG          4096ull
#define ASID        1
#define VA_PROG     0x00100000ull
#define PROG_POOL   (1024 * 1024)
#define VA_HOST     0x20000000ull
#define HOST_DATA   (2 * 1024 * 1024)
#define VA_RO       0x30000000ull
#define VA_GLOB     0x40000000ull
#define VA_LOC(c)   (0x80000000ull + (uint64_t)(c) * 0x10000000ull)
#define MAP_BYTES   (16 * MIB)
#define RING_SIZE   64

static struct swai_card S;
static uint8_t *hbm_buf, *ldm_buf;
static uint64_t host_next, prog_next, prog_pa, host_data, ro_page;
static uint64_t last_prog_va;      /* where prog_put put the last one */
static uint64_t ring_pa[SWAI_NUM_CG], compl_pa[SWAI_NUM_CG];
static unsigned submitted[SWAI_NUM_CG];

/* --- fake host memory --- */

static inline void put64(uint64_t addr, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        host_mem[addr - HOST_BASE + i] = (uint8_t)(v >> (8 * i));
    }
}

static inline uint64_t get64(uint64_t addr)
{
    uint64_t v = 0;
    int i;

    for (i = 7; i >= 0; i--) {
        v = v << 8 | host_mem[addr - HOST_BASE + i];
    }
    return v;
}

static inline uint64_t host_alloc(uint64_t bytes)
{
    uint64_t a = host_next;

    bytes = (bytes + PG - 1) & ~(PG - 1);
    if (a + bytes > HOST_BASE + HOST_SIZE) {
        printf("Bail out! fake host memory exhausted\n");
        exit(1);
    }
    host_next += bytes;
    return a;
}

/* --- MMU context --- */

static inline uint64_t slot_of(uint64_t va, int level)
{
    uint64_t e = get64(HOST_BASE + ASID * 16);
    int l;

    for (l = 0; l < level; l++) {
        e = get64((e & SWAI_PTE_ADDR_MASK) + ((va >> (30 - 9 * l)) & 511) * 8);
    }
    return (e & SWAI_PTE_ADDR_MASK) + ((va >> (30 - 9 * level)) & 511) * 8;
}

static inline void map(uint64_t va, uint64_t pte)
{
    int level;

    for (level = 0; level < 2; level++) {
        uint64_t slot = slot_of(va, level);

        if (!(get64(slot) & SWAI_PTE_VALID)) {
            put64(slot, host_alloc(PG) | SWAI_PTE_VALID);
        }
    }
    put64(slot_of(va, 2), pte);
}

/* HBM-physical address behind a VA of the data windows (or ~0). */
static inline uint64_t hbm_phys(uint64_t va)
{
    uint64_t h = swai_layout_hbm_bytes(&S.layout);
    struct swai_loc loc;
    unsigned c;

    if (va >= VA_GLOB && va < VA_GLOB + MAP_BYTES) {
        swai_layout_translate(&S.layout, 0, SWAI_GLOBAL_BASE + (va - VA_GLOB), &loc);
        return loc.phys;
    }
    for (c = 0; c < SWAI_NUM_CG; c++) {
        if (va >= VA_LOC(c) && va < VA_LOC(c) + MAP_BYTES) {
            return c * h + (va - VA_LOC(c));
        }
    }
    return ~0ull;
}

/* The byte behind a data VA, in HBM or fake host memory. */
static inline uint8_t *byte_at(uint64_t va)
{
    if (va >= VA_HOST && va < VA_HOST + HOST_DATA) {
        return host_mem + (host_data - HOST_BASE) + (va - VA_HOST);
    }
    if (va >= VA_RO && va < VA_RO + PG) {
        return host_mem + (ro_page - HOST_BASE) + (va - VA_RO);
    }
    return hbm_buf + hbm_phys(va);
}

static inline void peek(uint64_t va, void *buf, uint64_t n)
{
    uint64_t i;

    for (i = 0; i < n; i++) {
        ((uint8_t *)buf)[i] = *byte_at(va + i);
    }
}

static inline void poke(uint64_t va, const void *buf, uint64_t n)
{
    uint64_t i;

    for (i = 0; i < n; i++) {
        *byte_at(va + i) = ((const uint8_t *)buf)[i];
    }
}

static inline uint64_t peek64(uint64_t va)
{
    uint8_t b[8];
    uint64_t v = 0;
    int i;

    peek(va, b, 8);
    for (i = 7; i >= 0; i--) {
        v = v << 8 | b[i];
    }
    return v;
}

static inline void poke64(uint64_t va, uint64_t v)
{
    uint8_t b[8];
    int i;

    for (i = 0; i < 8; i++) {
        b[i] = (uint8_t)(v >> (8 * i));
    }
    poke(va, b, 8);
}

/* A repeatable pattern, different for every seed. */
static inline void fill(uint64_t va, uint64_t n, unsigned seed)
{
    uint64_t i;

    for (i = 0; i < n; i++) {
        *byte_at(va + i) = (uint8_t)(i * 131 + seed * 17 + (i >> 8) + 1);
    }
}

/* --- the card --- */

static inline void card_free(void)
{
    swai_card_attach(&S, NULL, NULL);
    free(hbm_buf);
    free(ldm_buf);
    hbm_buf = ldm_buf = NULL;
}

/* A card with the given geometry and timing (NULL: the defaults). */
static inline void card_t(uint32_t hbm, uint32_t local, uint32_t cpes,
                          uint32_t ldm, const struct swai_timing_props *t)
{
    struct swai_props p;
    const char *why;
    uint64_t i;
    unsigned c;

    card_free();
    swai_card_props_init(&p);
    p.hbm_mb = hbm;
    p.local_mb = local;
    p.cpes = cpes;
    p.ldm_kb = ldm;
    if (t) {
        p.t = *t;
    }
    why = swai_card_props_validate(&p);
    if (why) {
        printf("Bail out! valid props rejected: %s\n", why);
        exit(1);
    }
    memset(&cb, 0, sizeof(cb));
    memset(host_mem, 0, sizeof(host_mem));
    memset(submitted, 0, sizeof(submitted));
    dma_fail_page = 0;
    fake_wall = 0;
    swai_card_init(&S, &p, &fake_ops, NULL);
    hbm_buf = calloc(SWAI_NUM_CG, swai_layout_hbm_bytes(&S.layout));
    ldm_buf = calloc(SWAI_NUM_CG, swai_card_ldm_bytes(&S));
    if (!hbm_buf || !ldm_buf) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    if (!swai_card_attach(&S, hbm_buf, ldm_buf)) {
        printf("Bail out! out of memory\n");
        exit(1);
    }

    /* Page 0: the context table; the rest is allocated in order. */
    host_next = HOST_BASE + PG;
    put64(HOST_BASE + ASID * 16, host_alloc(PG) | SWAI_PTE_VALID);
    wr(&S, SWAI_REG_MMU_CTX_TABLE_LO, (uint32_t)HOST_BASE);
    wr(&S, SWAI_REG_MMU_CTX_TABLE_HI, HOST_BASE >> 32);
    prog_pa = host_alloc(PROG_POOL);
    prog_next = VA_PROG;
    for (i = 0; i < PROG_POOL; i += PG) {
        map(VA_PROG + i, (prog_pa + i) | SWAI_PTE_HOST | SWAI_PTE_VALID);
    }
    host_data = host_alloc(HOST_DATA);
    for (i = 0; i < HOST_DATA; i += PG) {
        map(VA_HOST + i, (host_data + i) | SWAI_PTE_HOST | SWAI_PTE_WRITE |
            SWAI_PTE_VALID);
    }
    ro_page = host_alloc(PG);
    map(VA_RO, ro_page | SWAI_PTE_HOST | SWAI_PTE_VALID);
    for (i = 0; i < MAP_BYTES && i < swai_layout_global_bytes(&S.layout); i += PG) {
        struct swai_loc loc;

        swai_layout_translate(&S.layout, 0, SWAI_GLOBAL_BASE + i, &loc);
        map(VA_GLOB + i, loc.phys | SWAI_PTE_WRITE | SWAI_PTE_VALID);
    }
    for (c = 0; c < SWAI_NUM_CG; c++) {
        for (i = 0; i < MAP_BYTES && i < swai_layout_local_bytes(&S.layout); i += PG) {
            map(VA_LOC(c) + i, (c * swai_layout_hbm_bytes(&S.layout) + i) |
                SWAI_PTE_WRITE | SWAI_PTE_VALID);
        }
        ring_pa[c] = host_alloc(RING_SIZE * 64);
        compl_pa[c] = host_alloc(RING_SIZE * 64);
        wr(&S, SWAI_QUEUE_REG(c, SWAI_Q_RING_LO), (uint32_t)ring_pa[c]);
        wr(&S, SWAI_QUEUE_REG(c, SWAI_Q_RING_HI), ring_pa[c] >> 32);
        wr(&S, SWAI_QUEUE_REG(c, SWAI_Q_RING_SIZE), RING_SIZE);
        wr(&S, SWAI_QUEUE_REG(c, SWAI_Q_CTRL), SWAI_Q_CTRL_ENABLE);
    }
    wr(&S, SWAI_REG_IRQ_ENABLE, SWAI_IRQ_ALL);
    quiesce(&S);
}

/* 32 MiB per controller, half Local; 8 CPEs x 64 KiB LDM per CG. */
static inline void card(void)
{
    card_t(32, 16, 8, 64, NULL);
}

/* --- times --- */

/* A transfer's time at one bandwidth, 64 KiB chunk by chunk, in ps. */
static inline uint64_t xfer_ps(uint64_t bytes, uint32_t mbps)
{
    uint64_t t = 0;

    while (bytes) {
        uint64_t n = bytes < SWAI_CHUNK ? bytes : SWAI_CHUNK;

        t += swai_timing_ps(n, mbps);
        bytes -= n;
    }
    return t;
}

/* --- jobs --- */

#define INSN(...)   ((struct swai_insn){ __VA_ARGS__ })
#define END         INSN(.op = SWAI_OP_END)

static inline void encode(uint8_t *p, const struct swai_insn *in)
{
    uint64_t f[6];
    int i, k;

    p[0] = in->op;
    p[1] = in->flags;
    p[2] = in->dtype;
    p[3] = in->rop;
    for (i = 0; i < 4; i++) {
        p[4 + i] = (uint8_t)(in->rows >> (8 * i));
    }
    f[0] = in->len;
    f[1] = in->dst;
    f[2] = in->src;
    f[3] = in->dst_stride;
    f[4] = in->src_stride;
    for (k = 0; k < 5; k++) {
        for (i = 0; i < 8; i++) {
            p[8 + 8 * k + i] = (uint8_t)(f[k] >> (8 * i));
        }
    }
}

/* Put a program into the pool; returns its VA. */
static inline uint64_t prog_put(const struct swai_insn *p, unsigned n)
{
    uint64_t va = prog_next;
    unsigned i;

    if (prog_next + n * SWAI_INSN_SIZE > VA_PROG + PROG_POOL) {
        printf("Bail out! program pool exhausted\n");
        exit(1);
    }
    for (i = 0; i < n; i++) {
        encode(host_mem + (prog_pa - HOST_BASE) + (va - VA_PROG) +
               i * SWAI_INSN_SIZE, &p[i]);
    }
    prog_next += (n * SWAI_INSN_SIZE + 63) & ~63ull;
    last_prog_va = va;
    return va;
}

/* Where job 'idx' of queue cg reports (one slot per ring entry). */
static inline uint64_t compl_of(unsigned cg, unsigned idx)
{
    return compl_pa[cg] + (idx % RING_SIZE) * 64;
}

/* Queue a raw descriptor; returns the job's index on its queue. */
static inline unsigned submit_desc(unsigned cg, uint32_t asid, uint32_t flags,
                                   uint64_t prog_va, uint32_t size,
                                   uint64_t not_before)
{
    unsigned idx = submitted[cg]++;
    uint64_t d = ring_pa[cg] + (idx % RING_SIZE) * 64;

    memset(host_mem + (d - HOST_BASE), 0, 64);
    put64(d + 0, 1000 * (cg + 1) + idx);            /* seqno */
    put64(d + 8, (uint64_t)flags << 32 | asid);
    put64(d + 16, prog_va);
    put64(d + 24, size);
    put64(d + 32, not_before);
    put64(d + 40, compl_of(cg, idx));
    memset(host_mem + (compl_of(cg, idx) - HOST_BASE), 0xee, 64);
    wr(&S, SWAI_QUEUE_REG(cg, SWAI_Q_TAIL), (idx + 1) % RING_SIZE);
    return idx;
}

static inline unsigned submit_nb(unsigned cg, const struct swai_insn *p,
                                 unsigned n, uint32_t flags, uint64_t nb)
{
    return submit_desc(cg, ASID, flags, prog_put(p, n), n * SWAI_INSN_SIZE,
                       nb);
}

#define SUBMIT(cg, ...) ({                                              \
    const struct swai_insn p_[] = { __VA_ARGS__ };             \
    submit_nb(cg, p_, sizeof(p_) / sizeof(p_[0]), 0, 0);                \
})

/* Run the MPE until it has nothing to do; returns the steps taken. */
static inline unsigned long run(void)
{
    unsigned long n = 0;

    while (swai_card_step(&S)) {
        if (++n > 50000000ul) {
            printf("Bail out! the MPE never went idle\n");
            exit(1);
        }
    }
    return n;
}

struct compl {
    uint64_t seqno;
    uint32_t status, error_pc;
    uint64_t fault_va, start_ns, end_ns, wall_ns, bytes;
    uint32_t insns;
};

static inline struct compl compl(unsigned cg, unsigned idx)
{
    uint64_t a = compl_of(cg, idx);
    struct compl c = {
        .seqno = get64(a),
        .status = (uint32_t)get64(a + 8),
        .error_pc = (uint32_t)(get64(a + 8) >> 32),
        .fault_va = get64(a + 16),
        .start_ns = get64(a + 24),
        .end_ns = get64(a + 32),
        .wall_ns = get64(a + 40),
        .bytes = get64(a + 48),
        .insns = (uint32_t)get64(a + 56),
    };

    return c;
}

static inline uint64_t qreg(unsigned cg, unsigned r)
{
    return rd(&S, SWAI_QUEUE_REG(cg, r));
}

static inline uint64_t completed(unsigned cg)
{
    return qreg(cg, SWAI_Q_COMPLETED_HI) << 32 | qreg(cg, SWAI_Q_COMPLETED_LO);
}

static inline uint64_t seqno_of(unsigned cg, unsigned idx)
{
    return 1000 * (cg + 1) + idx;
}

/* The job ended with 'status' (and the seqno matches). */
#define CHECK_JOB(cg, idx, st) do {                                     \
    struct compl c_ = compl(cg, idx);                                   \
    CHECK_EQ(c_.seqno, seqno_of(cg, idx));                              \
    CHECK_EQ(c_.status, st);                                            \
} while (0)

static inline int ldm_is_clear(void)
{
    uint64_t i, n = SWAI_NUM_CG * swai_card_ldm_bytes(&S);

    for (i = 0; i < n; i++) {
        if (ldm_buf[i]) {
            return 0;
        }
    }
    return 1;
}

#endif /* SWAI_CP_HARNESS_H */
