// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * swai-nic-test.c - the NIC collective engine (tools/card/swai-nic.h), its
 * ALU and seed 001's trees (tools/card/swai-nic-tree.h), on a network
 * of NICs in this process that delivers packets in a random order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-le.h"
#include "swai-nic-tree.h"
#include "tap.h"

#define NODES   64
#define MEM     4096

struct hnode {
    struct swai_nic *nic;
    uint8_t mem[MEM];
    unsigned ncqe, nbad, last_status;
    uint64_t end_ps;            /* the latest descriptor end */
};

static struct hnode H[NODES];
static unsigned nnodes;
static struct swai_nic_pkt pend[1 << 14];
static unsigned npend;
static uint64_t rng = 1;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int h_send(void *o, const struct swai_nic_pkt *p)
{
    (void)o;
    if (p->dst >= nnodes || npend == sizeof(pend) / sizeof(pend[0])) {
        return SWAI_NIC_E_ROUTE;
    }
    pend[npend++] = *p;
    return 0;
}

static int h_write(void *o, unsigned vport, uint64_t a, const void *b, size_t l)
{
    struct hnode *h = o;

    (void)vport;
    if (a > MEM || l > MEM - a) {
        return SWAI_NIC_E_FAULT;
    }
    memcpy(h->mem + a, b, l);
    return 0;
}

static int h_read(void *o, unsigned vport, uint64_t a, void *b, size_t l)
{
    struct hnode *h = o;

    (void)vport;
    if (a > MEM || l > MEM - a) {
        return SWAI_NIC_E_FAULT;
    }
    memcpy(b, h->mem + a, l);
    return 0;
}

static void h_cqe(void *o, const struct swai_nic_cqe *e)
{
    struct hnode *h = o;

    h->ncqe++;
    h->last_status = e->status;
    h->nbad += e->status != SWAI_NIC_OK;
    if (e->time_ps > h->end_ps) {
        h->end_ps = e->time_ps;
    }
}

static const struct swai_nic_ops hops = { h_send, h_write, h_read, h_cqe };

static void net_up(unsigned n)
{
    struct swai_timing_props tp;
    unsigned i;

    swai_timing_props_init(&tp);
    nnodes = n;
    npend = 0;
    for (i = 0; i < n; i++) {
        memset(&H[i], 0, sizeof(H[i]));
        H[i].nic = swai_nic_new(i, &tp, &hops, &H[i]);
    }
}

static void net_down(void)
{
    unsigned i;

    for (i = 0; i < nnodes; i++) {
        swai_nic_free(H[i].nic);
    }
    nnodes = 0;
}

/*
 * Deliver everything pending in a random order, except that packets from
 * one NIC to another arrive in the order they were sent, as the NIC's
 * reliable transport keeps them (datasheet §16.5).
 */
static void net_run(void)
{
    while (npend) {
        unsigned i = (unsigned)(rnd() % npend), j;
        struct swai_nic_pkt p;

        for (j = 0; j < i; j++) {
            if (pend[j].src == pend[i].src && pend[j].dst == pend[i].dst) {
                break;
            }
        }
        p = pend[j];
        memmove(pend + j, pend + j + 1, (npend - j - 1) * sizeof(p));
        npend--;
        swai_nic_receive(H[p.dst].nic, &p, p.time_ps);
    }
}

/* --- the ALU ---------------------------------------------------------- */

static struct swai_nic_vec vec_f64(const double *x, unsigned n)
{
    struct swai_nic_vec v = { .count = n };
    unsigned i;

    for (i = 0; i < n; i++) {
        swai_st_le(v.data + 8 * i, 8, f64_bits(x[i]));
    }
    return v;
}

static double f64_at(const uint8_t *p, unsigned i)
{
    return bits_f64(swai_ld_le(p + 8 * i, 8));
}

static void test_alu_float(void)
{
    double a[] = { 1.5, -0.0, NAN, 1e308, 2.0, 3.0 };
    double b[] = { 2.25, 0.0, 4.0, 1e308, NAN, 3.0 };
    struct swai_nic_vec x = vec_f64(a, 6), y = vec_f64(b, 6);
    struct swai_nic_vec s = x;
    unsigned i;

    swai_nic_alu(&s, &y, SWAI_NIC_OP_SUM, SWAI_NIC_T_FLOAT, 8);
    CHECK(f64_at(s.data, 0) == 3.75);
    CHECK(isnan(f64_at(s.data, 2)));
    CHECK(isinf(f64_at(s.data, 3)));
    /* Overflow (element 3) sets its bit; NaN in, NaN out is no new error. */
    CHECK_EQ(s.errvec, 1u << 3);
    /* maximumNumber: NaN ignored, -0 < +0; a tie keeps the smaller loc. */
    for (i = 0; i < 6; i++) {
        x.loc[i] = 10 + i;
        y.loc[i] = 5 + i;
    }
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_MAXLOC, SWAI_NIC_T_FLOAT, 8);
    CHECK(f64_at(s.data, 0) == 2.25 && s.loc[0] == 5);
    CHECK(f64_at(s.data, 1) == 0.0 && !signbit(f64_at(s.data, 1)) && s.loc[1] == 6);
    CHECK(f64_at(s.data, 2) == 4.0 && s.loc[2] == 7);
    CHECK(f64_at(s.data, 4) == 2.0 && s.loc[4] == 14);
    CHECK(f64_at(s.data, 5) == 3.0 && s.loc[5] == 10);   /* tie: min(15, 10) */
    CHECK_EQ(s.errvec, 0);
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_MINLOC, SWAI_NIC_T_FLOAT, 8);
    CHECK(signbit(f64_at(s.data, 1)) && s.loc[1] == 11);
    /* f32 through the same definitions. */
    {
        struct swai_nic_vec p = { .count = 2 }, q = { .count = 2 };

        swai_st_le(p.data, 4, f32_bits(1.0f));
        swai_st_le(p.data + 4, 4, f32_bits(3e38f));
        swai_st_le(q.data, 4, f32_bits(0.5f));
        swai_st_le(q.data + 4, 4, f32_bits(3e38f));
        swai_nic_alu(&p, &q, SWAI_NIC_OP_SUM, SWAI_NIC_T_FLOAT, 4);
        CHECK(bits_f32((uint32_t)swai_ld_le(p.data, 4)) == 1.5f);
        CHECK(isinf(bits_f32((uint32_t)swai_ld_le(p.data + 4, 4))));
        CHECK_EQ(p.errvec, 2);
    }
}

static void test_alu_int(void)
{
    struct swai_nic_vec x = { .count = 3 }, y = { .count = 3 }, s;

    /* s32: INT32_MAX + 1 overflows; -1 vs 1 signed and unsigned. */
    swai_st_le(x.data, 4, 0x7fffffff);
    swai_st_le(y.data, 4, 1);
    swai_st_le(x.data + 4, 4, 0xffffffff);
    swai_st_le(y.data + 4, 4, 1);
    swai_st_le(x.data + 8, 4, 6);
    swai_st_le(y.data + 8, 4, 3);
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_SUM, SWAI_NIC_T_SINT, 4);
    CHECK_EQ(swai_ld_le(s.data, 4), 0x80000000u);
    CHECK_EQ(s.errvec, 1);                  /* -1 + 1 is no signed overflow */
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_SUM, SWAI_NIC_T_UINT, 4);
    CHECK_EQ(s.errvec, 2);                  /* 0xffffffff + 1 carries */
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_MAX, SWAI_NIC_T_SINT, 4);
    CHECK_EQ(swai_ld_le(s.data + 4, 4), 1);
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_MAX, SWAI_NIC_T_UINT, 4);
    CHECK_EQ(swai_ld_le(s.data + 4, 4), 0xffffffffu);
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_LAND, SWAI_NIC_T_UINT, 4);
    CHECK_EQ(swai_ld_le(s.data + 8, 4), 1);
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_LXOR, SWAI_NIC_T_UINT, 4);
    CHECK_EQ(swai_ld_le(s.data + 8, 4), 0);
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_BAND, SWAI_NIC_T_UINT, 4);
    CHECK_EQ(swai_ld_le(s.data + 8, 4), 2);
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_BXOR, SWAI_NIC_T_UINT, 4);
    CHECK_EQ(swai_ld_le(s.data + 8, 4), 5);
    s = x;
    swai_nic_alu(&s, &y, SWAI_NIC_OP_BOR, SWAI_NIC_T_UINT, 4);
    CHECK_EQ(swai_ld_le(s.data + 8, 4), 7);
    /* 64-bit: min with location, signed. */
    {
        struct swai_nic_vec p = { .count = 1, .loc = { 4 } };
        struct swai_nic_vec q = { .count = 1, .loc = { 2 } };

        swai_st_le(p.data, 8, (uint64_t)-5);
        swai_st_le(q.data, 8, 7);
        swai_nic_alu(&p, &q, SWAI_NIC_OP_MINLOC, SWAI_NIC_T_SINT, 8);
        CHECK_EQ(swai_ld_le(p.data, 8), (uint64_t)-5);
        CHECK_EQ(p.loc[0], 4);
    }
    CHECK(!swai_nic_alu_valid(SWAI_NIC_OP_BXOR, SWAI_NIC_T_FLOAT, 8));
    CHECK(!swai_nic_alu_valid(SWAI_NIC_OP_SUM, SWAI_NIC_T_SINT, 2));
    CHECK(swai_nic_alu_valid(SWAI_NIC_OP_LOR, SWAI_NIC_T_SINT, 8));
}

/* --- descriptors -------------------------------------------------------- */

static struct swai_nic_desc good(void)
{
    struct swai_nic_desc d = {
        .kind = SWAI_NIC_KIND_REDUCE, .flags = SWAI_NIC_F_CP | SWAI_NIC_F_SWPMP,
        .vport = 3, .dst_vport = 3, .branch = 2, .child = 1,
        .rtype = SWAI_NIC_OP_SUM, .dtype = SWAI_NIC_T_FLOAT, .width = 8,
        .src = 0, .dst = 1, .cpcnt = 2, .addr = 64,
    };

    d.v.count = 6;
    d.v.data[0] = 0x11;
    d.v.loc[5] = 9;
    return d;
}

static void test_desc(void)
{
    uint8_t raw[SWAI_NIC_DESC_SIZE];
    struct swai_nic_desc d = good(), e;
    const char *why;
    struct { struct swai_nic_desc d; const char *what; } bad[16];
    unsigned n = 0, i;

    d.key = 0xbeef;
    swai_nic_desc_encode(raw, &d);
    CHECK_EQ(swai_nic_desc_decode(&e, raw, &why), 0);
    CHECK(!memcmp(&d, &e, sizeof(d)));
    raw[SWAI_NIC_D_WIDTH] = 3;
    CHECK_EQ(swai_nic_desc_decode(&e, raw, &why), -EINVAL);
    CHECK(why && strstr(why, "ALU"));
#define BAD(field, val, msg) do { bad[n].d = good(); bad[n].d.field = val; \
    bad[n++].what = msg; } while (0)
    BAD(kind, 0, "kind");
    BAD(kind, 9, "kind");
    BAD(flags, 1u << 12, "flags");
    BAD(vport, SWAI_NIC_VPORTS, "port");
    BAD(dst_vport, 200, "port");
    BAD(child, 255, "child");
    BAD(rtype, SWAI_NIC_OP_BXOR, "ALU");
    BAD(width, 2, "ALU");
    BAD(v.count, 7, "48 bytes");
    BAD(v.errvec, 1u << 6, "error bits");
    BAD(flags, SWAI_NIC_F_CP, "SWPMP");
    BAD(flags, SWAI_NIC_F_SWPMP | SWAI_NIC_F_SWPFLAG, "SWPFLAG");
    BAD(kind, SWAI_NIC_KIND_PUT, "combines");
#undef BAD
    for (i = 0; i < n; i++) {
        why = swai_nic_desc_check(&bad[i].d);
        if (!why || !strstr(why, bad[i].what)) {
            printf("# case %u: got \"%s\", want \"%s\"\n", i, why ? why : "(none)",
                   bad[i].what);
            tap_failed = 1;
        }
    }
    d = good();
    d.kind = SWAI_NIC_KIND_PUT;
    d.branch = 0;
    CHECK(swai_nic_desc_check(&d) != NULL);         /* SWPMP on a PUT */
    d.flags = SWAI_NIC_F_CP;
    CHECK(swai_nic_desc_check(&d) == NULL);
    d.dst = SWAI_NIC_NODE_NONE;
    CHECK(swai_nic_desc_check(&d) != NULL);
}

/* --- trees ---------------------------------------------------------------- */

/* Rank r's data: a few doubles whose sum depends on the order of adding. */
static struct swai_nic_vec rank_data(unsigned r, unsigned count, unsigned dtype,
                                     unsigned width, unsigned salt)
{
    struct swai_nic_vec v = { .count = count };
    unsigned i;

    for (i = 0; i < count; i++) {
        uint64_t x = (r + 1) * 2654435761u + i * 40503u + salt;

        if (dtype == SWAI_NIC_T_FLOAT && width == 8) {
            swai_st_le(v.data + 8 * i, 8, f64_bits(ldexp((double)(x % 1000003), (int)(x % 60) - 30)));
        } else if (dtype == SWAI_NIC_T_FLOAT) {
            swai_st_le(v.data + 4 * i, 4, f32_bits(ldexpf((float)(x % 10007), (int)(x % 30) - 15)));
        } else {
            swai_st_le(v.data + width * i, width, x * 0x9e3779b97f4a7c15ull);
        }
        v.loc[i] = r;
    }
    return v;
}

/* The documented result: res(v) = children's results in order, then own. */
static struct swai_nic_vec tree_ref(const struct swai_nic_tree *t, unsigned v,
                                    const struct swai_nic_vec *data)
{
    unsigned n = t->nranks, c, first = t->k * v + 1;
    struct swai_nic_vec acc = data[(v + t->root) % n];
    bool any = false;

    for (c = first; c < n && c < first + t->k; c++) {
        struct swai_nic_vec r = tree_ref(t, c, data);

        if (!any) {
            acc = r;
            any = true;
        } else {
            swai_nic_alu(&acc, &r, t->rtype, t->dtype, t->width);
        }
    }
    if (any) {
        swai_nic_alu(&acc, &data[(v + t->root) % n], t->rtype, t->dtype, t->width);
    }
    return acc;
}

/* Post every rank's descriptors of @t, deliver at random; 0 if all ran. */
static int run_tree(const struct swai_nic_tree *t, const struct swai_nic_vec *data,
                    uint64_t *end_ps)
{
    struct swai_nic_desc d[SWAI_NIC_TREE_MAX_DESCS];
    const char *why;
    unsigned r, i;
    int m;

    *end_ps = 0;
    for (r = 0; r < t->nranks; r++) {
        unsigned node = t->node[r];

        m = swai_nic_tree_build(t, r, data ? &data[r] : NULL, d,
                                SWAI_NIC_TREE_MAX_DESCS, &why);
        if (m < 0) {
            printf("# build: %s\n", why);
            return -1;
        }
        for (i = 0; i < (unsigned)m; i++) {
            if (swai_nic_post(H[node].nic, &d[i], 5000000ull)) {
                return -1;
            }
        }
        /* Deliver a few now and then, as NICs run at once. */
        if (rnd() % 3 == 0) {
            net_run();
        }
    }
    net_run();
    for (r = 0; r < t->nranks; r++) {
        struct hnode *h = &H[t->node[r]];

        if (h->nbad || swai_nic_queued(h->nic, t->vport)) {
            printf("# rank %u: %u errors (last %u), %u queued\n", r, h->nbad,
                   h->last_status, swai_nic_queued(h->nic, t->vport));
            return -1;
        }
        if (h->end_ps > *end_ps) {
            *end_ps = h->end_ps;
        }
    }
    return 0;
}

static void check_allreduce(unsigned n, unsigned k, unsigned root, unsigned rtype,
                            unsigned dtype, unsigned width, unsigned count)
{
    uint16_t node[NODES];
    struct swai_nic_vec data[NODES], want;
    struct swai_nic_tree t = {
        SWAI_NIC_TREE_ALLREDUCE, n, k, root, 2, rtype, dtype, width, count,
        node, 128,
    };
    uint64_t end0 = 0, end;
    unsigned r, round, bad = 0;

    for (r = 0; r < n; r++) {
        node[r] = (uint16_t)(n - 1 - r);        /* ranks are not node numbers */
        data[r] = rank_data(r, count, dtype, width, rtype);
    }
    want = tree_ref(&t, 0, data);
    for (round = 0; round < 3; round++) {
        net_up(n);
        if (run_tree(&t, data, &end)) {
            bad++;
        }
        for (r = 0; r < n; r++) {
            if (memcmp(H[node[r]].mem + 128, want.data, count * width)) {
                bad++;
            }
        }
        /* The same modeled times whatever the order of delivery. */
        if (round && end != end0) {
            bad++;
        }
        end0 = end;
        net_down();
    }
    if (bad) {
        printf("# allreduce n=%u k=%u root=%u op=%u type=%u/%u count=%u: %u bad\n",
               n, k, root, rtype, dtype, width, count, bad);
        tap_failed = 1;
    }
}

static void test_tree_allreduce(void)
{
    unsigned n, k;

    for (n = 1; n <= 40; n += (n < 10 ? 1 : 7)) {
        for (k = 1; k <= 8; k++) {
            check_allreduce(n, k, n / 3, SWAI_NIC_OP_SUM, SWAI_NIC_T_FLOAT, 8, 6);
        }
    }
    check_allreduce(16, 15, 0, SWAI_NIC_OP_SUM, SWAI_NIC_T_FLOAT, 4, 12);
    check_allreduce(33, 2, 5, SWAI_NIC_OP_SUM, SWAI_NIC_T_SINT, 8, 6);
    check_allreduce(33, 4, 0, SWAI_NIC_OP_MAXLOC, SWAI_NIC_T_FLOAT, 8, 6);
    check_allreduce(20, 3, 7, SWAI_NIC_OP_MINLOC, SWAI_NIC_T_UINT, 4, 12);
    check_allreduce(20, 3, 7, SWAI_NIC_OP_BXOR, SWAI_NIC_T_UINT, 8, 1);
    check_allreduce(64, 63, 0, SWAI_NIC_OP_SUM, SWAI_NIC_T_FLOAT, 8, 2);
}

/* Seed 001's f64 sum, in plain C, equals the tree's (the ALU's order). */
static void test_tree_order(void)
{
    uint16_t node[7] = { 0, 1, 2, 3, 4, 5, 6 };
    struct swai_nic_vec data[7];
    struct swai_nic_tree t = {
        SWAI_NIC_TREE_ALLREDUCE, 7, 2, 0, 0, SWAI_NIC_OP_SUM,
        SWAI_NIC_T_FLOAT, 8, 1, node, 0,
    };
    double x[7] = { 1e16, 1.0, -1e16, 1.0, 3.0, 1e-3, 7.0 }, want;
    uint64_t end;
    unsigned r;

    for (r = 0; r < 7; r++) {
        data[r] = vec_f64(&x[r], 1);
    }
    /* v0: children 1, 2; v1: 3, 4; v2: 5, 6. */
    want = (((x[3] + x[4]) + x[1]) + ((x[5] + x[6]) + x[2])) + x[0];
    net_up(7);
    CHECK_EQ(run_tree(&t, data, &end), 0);
    for (r = 0; r < 7; r++) {
        CHECK(f64_at(H[r].mem, 0) == want);
    }
    /*
     * Depth 2, posted at 5 us: up 2 hops and down 2, each 7.6 ns of wire
     * (190 B at 25 GB/s) and 2.6 us; 20 ns of ALU at the leaf's parent and
     * the root; 8 descriptors of 0.2 us on the way (the leaf's REDUCE, its
     * parent's, the root's, the root's two BCASTs, its sibling's parent's
     * two, the leaf's last).
     */
    CHECK_EQ(swai_nic_tree_depth(7, 2), 2);
    CHECK_EQ(end, 5000000ull + 8 * 200000 + 4 * (7600 + 2600000) + 2 * 20000);
    net_down();
}

static void test_tree_reduce_bcast_barrier(void)
{
    uint16_t node[13];
    struct swai_nic_vec data[13], want;
    struct swai_nic_tree t = {
        SWAI_NIC_TREE_REDUCE, 13, 3, 4, 1, SWAI_NIC_OP_SUM,
        SWAI_NIC_T_SINT, 4, 12, node, 256,
    };
    uint64_t end;
    unsigned r;

    for (r = 0; r < 13; r++) {
        node[r] = (uint16_t)r;
        data[r] = rank_data(r, 12, SWAI_NIC_T_SINT, 4, 1);
    }
    want = tree_ref(&t, 0, data);
    net_up(13);
    CHECK_EQ(run_tree(&t, data, &end), 0);
    CHECK(!memcmp(H[4].mem + 256, want.data, 48));
    CHECK(H[5].mem[256] == 0);              /* only the root gets it */
    net_down();

    t.coll = SWAI_NIC_TREE_BCAST;
    net_up(13);
    CHECK_EQ(run_tree(&t, data, &end), 0);
    for (r = 0; r < 13; r++) {
        CHECK(!memcmp(H[r].mem + 256, data[4].data, 48));
    }
    net_down();

    t.coll = SWAI_NIC_TREE_BARRIER;
    t.count = 0;
    net_up(13);
    CHECK_EQ(run_tree(&t, NULL, &end), 0);
    for (r = 0; r < 13; r++) {
        struct swai_nic_desc d[SWAI_NIC_TREE_MAX_DESCS];
        const char *why;

        /* Every descriptor ran, once. */
        CHECK_EQ(H[r].ncqe, swai_nic_tree_build(&t, r, NULL, d,
                 SWAI_NIC_TREE_MAX_DESCS, &why));
    }
    net_down();
}

/* 56 B = two trees on two ports (seed 001's 48 -> 56 B step). */
static void test_tree_pieces(void)
{
    uint16_t node[9];
    struct swai_nic_vec data[2][9], want[2];
    struct swai_nic_tree t[2];
    struct swai_nic_desc d[SWAI_NIC_TREE_MAX_DESCS];
    const char *why;
    double x[7];
    unsigned r, p, i;
    uint64_t one;
    int m;

    CHECK_EQ(swai_nic_tree_pieces(6, 8), 1);
    CHECK_EQ(swai_nic_tree_pieces(7, 8), 2);
    CHECK_EQ(swai_nic_tree_pieces(0, 8), 1);
    CHECK_EQ(swai_nic_tree_pieces(13, 4), 2);
    for (r = 0; r < 9; r++) {
        node[r] = (uint16_t)r;
        for (i = 0; i < 7; i++) {
            x[i] = r * 10.0 + i;
        }
        data[0][r] = vec_f64(x, 6);
        data[1][r] = vec_f64(x + 6, 1);
    }
    for (p = 0; p < 2; p++) {
        t[p] = (struct swai_nic_tree){ SWAI_NIC_TREE_ALLREDUCE, 9, 2, 0, 4 + p,
            SWAI_NIC_OP_SUM, SWAI_NIC_T_FLOAT, 8, p ? 1 : 6, node, 512 + 48 * p };
        want[p] = tree_ref(&t[p], 0, data[p]);
    }
    net_up(9);
    for (r = 0; r < 9; r++) {
        for (p = 0; p < 2; p++) {
            m = swai_nic_tree_build(&t[p], r, &data[p][r], d, SWAI_NIC_TREE_MAX_DESCS, &why);
            CHECK(m > 0);
            for (i = 0; i < (unsigned)(m > 0 ? m : 0); i++) {
                CHECK_EQ(swai_nic_post(H[r].nic, &d[i], 0), 0);
            }
        }
    }
    net_run();
    for (r = 0; r < 9; r++) {
        CHECK(!memcmp(H[r].mem + 512, want[0].data, 48));
        CHECK(!memcmp(H[r].mem + 560, want[1].data, 8));
        CHECK_EQ(H[r].nbad, 0);
    }
    net_down();
    /* Two trees cost more than one: the step of seed 001's Fig. 7. */
    net_up(9);
    CHECK_EQ(run_tree(&t[0], data[0], &one), 0);
    net_down();
    CHECK(one > 0);
}

/* The seed's experiment loops on one port: counts are consumed per call. */
static void test_tree_loop(void)
{
    uint16_t node[6] = { 0, 1, 2, 3, 4, 5 };
    struct swai_nic_vec data[6], want;
    struct swai_nic_tree t = {
        SWAI_NIC_TREE_ALLREDUCE, 6, 5, 0, 7, SWAI_NIC_OP_SUM,
        SWAI_NIC_T_FLOAT, 8, 3, node, 0,
    };
    uint64_t end, prev = 0;
    unsigned it, r, bad = 0;

    net_up(6);
    for (it = 0; it < 300; it++) {
        for (r = 0; r < 6; r++) {
            data[r] = rank_data(r, 3, SWAI_NIC_T_FLOAT, 8, it);
        }
        want = tree_ref(&t, 0, data);
        if (run_tree(&t, data, &end)) {
            bad++;
            break;
        }
        for (r = 0; r < 6; r++) {
            bad += memcmp(H[r].mem, want.data, 24) != 0;
        }
        bad += end < prev;
        prev = end;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(swai_nic_counter(H[0].nic, 7), 300u * 5);
    net_down();
}

/* --- errors --------------------------------------------------------------- */

static void test_errors(void)
{
    struct swai_nic_desc d = good();
    struct swai_nic_pkt p;
    unsigned i;

    net_up(2);
    CHECK_EQ(swai_nic_post(H[1].nic, &d, 0), -EINVAL);     /* src is node 0 */
    d.v.count = 7;
    CHECK_EQ(swai_nic_post(H[0].nic, &d, 0), -EINVAL);
    CHECK_EQ(swai_nic_queued(H[0].nic, 3), 0);
    /* A full queue refuses, and keeps what it has. */
    d = good();
    for (i = 0; i < SWAI_NIC_QDEPTH; i++) {
        CHECK_EQ(swai_nic_post(H[0].nic, &d, 0), 0);
    }
    CHECK_EQ(swai_nic_post(H[0].nic, &d, 0), -ENOSPC);
    CHECK_EQ(swai_nic_queued(H[0].nic, 3), SWAI_NIC_QDEPTH);
    swai_nic_reset_port(H[0].nic, 3);
    CHECK_EQ(swai_nic_queued(H[0].nic, 3), 0);
    CHECK_EQ(H[0].nbad, SWAI_NIC_QDEPTH);
    CHECK_EQ(H[0].last_status, SWAI_NIC_E_RESET);
    net_down();

    /* A threshold met by packets that are not its children: MISSING. */
    net_up(2);
    d = good();
    d.src = 1;
    d.dst = SWAI_NIC_NODE_NONE;
    d.branch = 1;
    d.cpcnt = 1;
    CHECK_EQ(swai_nic_post(H[1].nic, &d, 0), 0);
    p = (struct swai_nic_pkt){ .kind = SWAI_NIC_KIND_PUT, .flags = SWAI_NIC_F_CP,
        .src = 0, .dst = 1, .dst_vport = 3, .width = 8, .addr = 0 };
    swai_nic_receive(H[1].nic, &p, 10);
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_MISSING);
    /* The same child twice: the second is refused (OVERRUN), not counted. */
    p = (struct swai_nic_pkt){ .kind = SWAI_NIC_KIND_REDUCE,
        .flags = SWAI_NIC_F_CP | SWAI_NIC_F_SWPMP, .src = 0, .dst = 1,
        .dst_vport = 5, .child = 0, .rtype = SWAI_NIC_OP_SUM,
        .dtype = SWAI_NIC_T_FLOAT, .width = 8 };
    swai_nic_receive(H[1].nic, &p, 10);
    swai_nic_receive(H[1].nic, &p, 11);
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_OVERRUN);
    CHECK_EQ(swai_nic_counter(H[1].nic, 5), 1);
    /* A child of another type (1 element, not 0): MISMATCH. */
    p.dst_vport = 6;
    p.v.count = 1;
    swai_nic_receive(H[1].nic, &p, 10);
    d = good();
    d.src = 1;
    d.vport = 6;
    d.dst = SWAI_NIC_NODE_NONE;
    d.branch = 1;
    d.cpcnt = 1;
    d.v.count = 0;
    d.flags = 0;
    CHECK_EQ(swai_nic_post(H[1].nic, &d, 0), 0);
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_MISMATCH);
    /* A port with a key refuses packets without it. */
    swai_nic_set_key(H[1].nic, 9, 77);
    p = (struct swai_nic_pkt){ .kind = SWAI_NIC_KIND_PUT, .flags = SWAI_NIC_F_CP,
        .src = 0, .dst = 1, .dst_vport = 9, .width = 8, .addr = 0 };
    swai_nic_receive(H[1].nic, &p, 10);
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_KEY);
    CHECK_EQ(swai_nic_counter(H[1].nic, 9), 0);
    p.key = 77;
    swai_nic_receive(H[1].nic, &p, 10);
    CHECK_EQ(swai_nic_counter(H[1].nic, 9), 1);
    /* A PUT outside the memory: FAULT at the receiver; no route: ROUTE. */
    p = (struct swai_nic_pkt){ .kind = SWAI_NIC_KIND_PUT, .src = 0, .dst = 1,
        .width = 8, .addr = MEM - 4 };
    p.v.count = 1;
    swai_nic_receive(H[1].nic, &p, 10);
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_FAULT);
    d = good();
    d.kind = SWAI_NIC_KIND_PUT;
    d.branch = 0;
    d.flags = 0;
    d.cpcnt = 0;
    d.dst = 9;
    CHECK_EQ(swai_nic_post(H[0].nic, &d, 0), 0);
    CHECK_EQ(H[0].last_status, SWAI_NIC_E_ROUTE);
    net_down();
}

/* Portals: triggered PUT/ATOMIC on absolute thresholds, in issue order. */
static void test_portals(void)
{
    struct swai_nic_desc put = {
        .kind = SWAI_NIC_KIND_PUT, .flags = SWAI_NIC_F_ABS | SWAI_NIC_F_CP,
        .vport = 1, .dst_vport = 1, .rtype = SWAI_NIC_OP_SUM,
        .dtype = SWAI_NIC_T_UINT, .width = 8, .src = 0, .dst = 1,
    }, at;
    unsigned i;

    net_up(3);
    /* Node 0: PUT 7 at node 1's 0 when its port 1 has counted 2; then an
     * ATOMIC add of 5 there at 2 as well (issue order, after the PUT). */
    put.cpcnt = 2;
    put.addr = 0;
    put.v.count = 1;
    swai_st_le(put.v.data, 8, 7);
    at = put;
    at.kind = SWAI_NIC_KIND_ATOMIC;
    swai_st_le(at.v.data, 8, 5);
    CHECK_EQ(swai_nic_post(H[0].nic, &put, 0), 0);
    CHECK_EQ(swai_nic_post(H[0].nic, &at, 0), 0);
    net_run();
    CHECK_EQ(swai_ld_le(H[1].mem, 8), 0);     /* not yet: counter 0 */
    /* Node 2 puts twice into node 0's port 1 (CP each). */
    for (i = 0; i < 2; i++) {
        struct swai_nic_desc p = put;

        p.src = 2;
        p.dst = 0;
        p.cpcnt = 0;
        p.addr = 64 + 8 * i;
        CHECK_EQ(swai_nic_post(H[2].nic, &p, 1000), 0);
    }
    net_run();
    CHECK_EQ(swai_ld_le(H[0].mem + 64, 8), 7);
    CHECK_EQ(swai_ld_le(H[1].mem, 8), 12);    /* 7, then + 5 */
    CHECK_EQ(swai_nic_counter(H[1].nic, 1), 2);
    CHECK_EQ(swai_nic_counter(H[0].nic, 1), 2);
    CHECK_EQ(H[0].nbad + H[1].nbad + H[2].nbad, 0);
    net_down();
}

/* RDMA WRITE: 3000 bytes in three packets, counted once at the end. */
static void test_write(void)
{
    struct swai_nic_desc w = {
        .kind = SWAI_NIC_KIND_WRITE, .flags = SWAI_NIC_F_CP, .vport = 2, .dst_vport = 4,
        .src = 0, .dst = 1, .addr = 500, .src_addr = 0, .len = 3000,
    };
    struct swai_nic_desc bad = w;
    const char *why;
    uint8_t raw[SWAI_NIC_DESC_SIZE];
    struct swai_nic_desc back;
    unsigned i;

    swai_nic_desc_encode(raw, &w);
    CHECK_EQ(swai_nic_desc_decode(&back, raw, &why), 0);
    CHECK_EQ(back.len, 3000);
    CHECK_EQ(back.src_addr, 0);
    bad.len = 0;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    bad.len = SWAI_NIC_WRITE_MAX + 1;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    bad = w;
    bad.width = 8;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    bad = w;
    bad.flags |= SWAI_NIC_F_COMPLETE;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    net_up(2);
    for (i = 0; i < 3000; i++) {
        H[0].mem[i] = (uint8_t)(i * 7 + 3);
    }
    CHECK_EQ(swai_nic_post(H[0].nic, &w, 0), 0);
    net_run();
    CHECK(!memcmp(H[1].mem + 500, H[0].mem, 3000));
    CHECK_EQ(swai_nic_counter(H[1].nic, 4), 1);
    /* 0.2 us of descriptor, then 1214, 1214 and 1142 bytes at 25 GB/s. */
    CHECK_EQ(H[0].end_ps, 200000 + 2 * 48560 + 45680);
    CHECK_EQ(H[0].nbad + H[1].nbad, 0);
    /* To itself: a loopback at the port's line rate, no network latency. */
    w.dst = 0;
    w.src = 0;
    w.dst_vport = 3;
    CHECK_EQ(swai_nic_post(H[0].nic, &w, 1000000), 0);
    net_run();
    CHECK(!memcmp(H[0].mem + 500, H[0].mem, 500));
    CHECK_EQ(swai_nic_counter(H[0].nic, 3), 1);
    CHECK_EQ(H[0].end_ps, 1000000 + 200000 + 2 * 48560 + 45680);
    w.dst = 1;
    w.dst_vport = 4;
    /* From memory the owner cannot read: FAULT, nothing sent. */
    w.src_addr = MEM - 10;
    CHECK_EQ(swai_nic_post(H[0].nic, &w, 0), 0);
    net_run();
    CHECK_EQ(H[0].last_status, SWAI_NIC_E_FAULT);
    CHECK_EQ(swai_nic_counter(H[1].nic, 4), 1);
    net_down();
}

/*
 * RDMA READ: 3000 bytes of node 1's asked by node 0, back in three
 * packets, counted once there; then every refusal ends the READ.
 */
static void test_read(void)
{
    struct swai_nic_desc r = {
        .kind = SWAI_NIC_KIND_READ, .flags = SWAI_NIC_F_CP, .vport = 2, .dst_vport = 4,
        .src = 0, .dst = 1, .addr = 0, .src_addr = 500, .len = 3000,
    };
    struct swai_nic_desc bad = r, back;
    struct swai_timing_props tp;
    uint8_t raw[SWAI_NIC_DESC_SIZE];
    const char *why;
    uint64_t lat, req;
    unsigned i;

    swai_timing_props_init(&tp);
    lat = swai_timing_ns_to_ps(tp.t_nic_lat_ns);
    req = swai_timing_ps(SWAI_NIC_WIRE_BYTES, tp.nic_mbps);
    swai_nic_desc_encode(raw, &r);
    CHECK_EQ(swai_nic_desc_decode(&back, raw, &why), 0);
    CHECK_EQ(back.kind, SWAI_NIC_KIND_READ);
    CHECK_EQ(back.len, 3000);
    CHECK_EQ(back.src_addr, 500);
    bad.len = 0;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    bad = r;
    bad.dst = SWAI_NIC_NODE_NONE;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    bad = r;
    bad.v.count = 1;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    net_up(2);
    for (i = 0; i < 3000; i++) {
        H[1].mem[i] = (uint8_t)(i * 7 + 3);
    }
    CHECK_EQ(swai_nic_post(H[0].nic, &r, 0), 0);
    net_run();
    CHECK(!memcmp(H[0].mem + 500, H[1].mem, 3000));
    CHECK_EQ(swai_nic_counter(H[0].nic, 2), 1);
    CHECK_EQ(swai_nic_counter(H[1].nic, 4), 0);
    CHECK_EQ(H[0].ncqe, 1);
    CHECK_EQ(H[1].ncqe, 0);
    /* 0.2 us of descriptor, the request there, 1214 + 1214 + 1142 bytes back */
    CHECK_EQ(H[0].end_ps, 200000 + req + lat + 2 * 48560 + 45680 + lat);
    CHECK_EQ(H[0].nbad + H[1].nbad, 0);
    /* Of itself: the bytes through its own wire, no network. */
    r.dst = 0;
    r.dst_vport = 3;
    r.addr = 500;
    r.src_addr = 3500;
    r.len = 100;
    CHECK_EQ(swai_nic_post(H[0].nic, &r, 0), 0);
    net_run();
    CHECK(!memcmp(H[0].mem + 3500, H[1].mem, 100));
    CHECK_EQ(swai_nic_counter(H[0].nic, 2), 2);
    CHECK_EQ(H[0].nbad, 0);
    /* The wrong key: refused there (and said there), the READ ends with it. */
    r = (struct swai_nic_desc){
        .kind = SWAI_NIC_KIND_READ, .vport = 2, .dst_vport = 4, .src = 0, .dst = 1,
        .addr = 0, .src_addr = 1000, .len = 64, .key = 9,
    };
    memset(H[0].mem + 1000, 0, 64);
    CHECK_EQ(swai_nic_post(H[0].nic, &r, 0), 0);
    net_run();
    CHECK_EQ(H[0].last_status, SWAI_NIC_E_KEY);
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_KEY);
    CHECK_EQ(H[0].mem[1001], 0);
    /* Memory its owner there cannot read: FAULT at both ends. */
    r.key = 0;
    r.addr = MEM - 10;
    CHECK_EQ(swai_nic_post(H[0].nic, &r, 0), 0);
    net_run();
    CHECK_EQ(H[0].last_status, SWAI_NIC_E_FAULT);
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_FAULT);
    /* Landing where its owner here cannot write: one completion, FAULT. */
    i = H[0].ncqe;
    r.addr = 0;
    r.src_addr = MEM - 10;
    r.len = 3000;
    CHECK_EQ(swai_nic_post(H[0].nic, &r, 0), 0);
    net_run();
    CHECK_EQ(H[0].ncqe, i + 1);
    CHECK_EQ(H[0].last_status, SWAI_NIC_E_FAULT);
    /* A node that is not there: ROUTE, at once. */
    r.dst = 7;
    r.src_addr = 0;
    CHECK_EQ(swai_nic_post(H[0].nic, &r, 0), 0);
    CHECK_EQ(H[0].last_status, SWAI_NIC_E_ROUTE);
    net_down();
}

/*
 * SEND and RECV: node 1 posts two RECVs, nodes 0 and 2 SEND into them
 * (their packets interleaved: each message keeps its RECV); then no RECV
 * (E_RNR), a length that is not the RECV's (E_LENGTH), the rules.
 */
static void test_send_recv(void)
{
    struct swai_nic_desc snd = {
        .kind = SWAI_NIC_KIND_SEND, .flags = SWAI_NIC_F_CP, .vport = 1, .dst_vport = 5,
        .src = 0, .dst = 1, .src_addr = 0, .len = 1500,
    };
    struct swai_nic_desc rcv = {
        .kind = SWAI_NIC_KIND_RECV, .vport = 5, .src = 1, .dst = SWAI_NIC_NODE_NONE,
        .src_addr = 100, .len = 1500,
    };
    struct swai_nic_desc bad, back;
    uint8_t raw[SWAI_NIC_DESC_SIZE];
    const char *why;
    unsigned i;

    swai_nic_desc_encode(raw, &rcv);
    CHECK_EQ(swai_nic_desc_decode(&back, raw, &why), 0);
    CHECK_EQ(back.src_addr, 100);
    bad = rcv;
    bad.dst = 0;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    bad = rcv;
    bad.flags = SWAI_NIC_F_CP;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    bad = snd;
    bad.addr = 8;
    CHECK(swai_nic_desc_check(&bad) != NULL);
    net_up(3);
    for (i = 0; i < 1500; i++) {
        H[0].mem[i] = (uint8_t)(i * 5 + 1);
        H[2].mem[i] = (uint8_t)(i * 11 + 2);
    }
    CHECK_EQ(swai_nic_post(H[1].nic, &rcv, 0), 0);
    rcv.src_addr = 1700;
    CHECK_EQ(swai_nic_post(H[1].nic, &rcv, 0), 0);
    CHECK_EQ(swai_nic_queued(H[1].nic, 5), 2);
    CHECK_EQ(swai_nic_post(H[0].nic, &snd, 0), 0);
    snd.src = 2;
    CHECK_EQ(swai_nic_post(H[2].nic, &snd, 0), 0);
    net_run();
    /* each took one RECV whole, in the order its first packet came */
    CHECK((!memcmp(H[1].mem + 100, H[0].mem, 1500) &&
           !memcmp(H[1].mem + 1700, H[2].mem, 1500)) ||
          (!memcmp(H[1].mem + 100, H[2].mem, 1500) &&
           !memcmp(H[1].mem + 1700, H[0].mem, 1500)));
    CHECK_EQ(swai_nic_counter(H[1].nic, 5), 2);
    CHECK_EQ(swai_nic_queued(H[1].nic, 5), 0);
    CHECK_EQ(H[1].ncqe, 2);
    CHECK_EQ(H[0].nbad + H[1].nbad + H[2].nbad, 0);
    /* No RECV: E_RNR there; then a RECV of another length: E_LENGTH, nothing written. */
    snd.src = 0;
    CHECK_EQ(swai_nic_post(H[0].nic, &snd, 0), 0);
    net_run();
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_RNR);
    rcv.src_addr = 3300;
    rcv.len = 100;
    memset(H[1].mem + 3300, 0, 100);
    CHECK_EQ(swai_nic_post(H[1].nic, &rcv, 0), 0);
    CHECK_EQ(swai_nic_post(H[0].nic, &snd, 0), 0);
    net_run();
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_LENGTH);
    CHECK_EQ(H[1].mem[3301], 0);
    CHECK_EQ(swai_nic_counter(H[1].nic, 5), 2);
    /* A RECV still queued when its port is reset ends E_RESET. */
    CHECK_EQ(swai_nic_post(H[1].nic, &rcv, 0), 0);
    swai_nic_reset_port(H[1].nic, 5);
    CHECK_EQ(H[1].last_status, SWAI_NIC_E_RESET);
    CHECK_EQ(swai_nic_queued(H[1].nic, 5), 0);
    net_down();
}

static const struct tap_test tests[] = {
    { "nic alu: float add/max/min with location, errors", test_alu_float },
    { "nic alu: integer, logical and bitwise ops", test_alu_int },
    { "nic descriptors: encode, decode, every refusal", test_desc },
    { "nic tree: allreduce n=1..40 x k=1..8, every delivery order", test_tree_allreduce },
    { "nic tree: the documented order of a float sum", test_tree_order },
    { "nic tree: reduce, broadcast and barrier", test_tree_reduce_bcast_barrier },
    { "nic tree: 56 bytes are two trees on two ports", test_tree_pieces },
    { "nic tree: 300 calls on one port", test_tree_loop },
    { "nic errors: refused posts, missing, overrun, fault, route", test_errors },
    { "nic portals: triggered put and atomic, absolute thresholds", test_portals },
    { "nic write: 3000 bytes in three packets, counted at the end", test_write },
    { "nic read: 3000 bytes back in three packets, every refusal", test_read },
    { "nic send/recv: two senders interleaved, no RECV, another length", test_send_recv },
};

TAP_MAIN(tests)
