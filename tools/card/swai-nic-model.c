/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-model.c - the modeled time of a tree (swai-nic-run.h): the
 * trees run on the card's own NIC engines (swai-nic.h, what the device
 * runs), one per node, joined by a network that delivers every packet at
 * the time its sender stamped (the engine's wire and latency).  So this is
 * the cards' time exactly, on any number of ranks; what it leaves out is
 * what the device leaves out (congestion at a receiving port).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-nic-run.h"
#include "swai-timing.h"

struct model;

/* What a node's engine hands its callbacks. */
struct node_ctx {
    struct model *m;
    int node;
};

struct rank_state {
    uint8_t stage[SWAI_NIC_STAGE];
    struct swai_nic_cqe *cq;
    int ncq, capq;
};

struct model {
    const struct swai_nic_job *j;
    struct swai_nic **nic;          /* [nranks] by node */
    struct node_ctx *ctx;
    int *rank_of;                   /* [node * SWAI_NIC_VPORTS + vport] -> rank */
    struct rank_state *rs;          /* [nranks] */
    struct swai_nic_pkt *pend;
    int npend, cap;
    bool bad;
};

static int m_send(void *o, const struct swai_nic_pkt *p)
{
    struct model *m = ((struct node_ctx *)o)->m;

    if (m->npend == m->cap) {
        struct swai_nic_pkt *q = realloc(m->pend, (size_t)(m->cap * 2 + 64) * sizeof(*q));

        if (!q) {
            m->bad = true;
            return SWAI_NIC_E_ROUTE;
        }
        m->pend = q;
        m->cap = m->cap * 2 + 64;
    }
    m->pend[m->npend++] = *p;
    return SWAI_NIC_OK;
}

static int rank_at(const struct model *m, int node, unsigned vport)
{
    return m->rank_of[node * SWAI_NIC_VPORTS + (int)vport];
}

/* Staging is modeled; a result written to a rank's buffer is not kept. */
static int m_write(void *o, unsigned vport, uint64_t addr, const void *buf, size_t len)
{
    struct model *m = ((struct node_ctx *)o)->m;
    int r = rank_at(m, ((struct node_ctx *)o)->node, vport);
    uint64_t s;

    if (r < 0) {
        return SWAI_NIC_OK;
    }
    s = m->j->peer[r].stage;
    if (addr >= s && addr - s <= SWAI_NIC_STAGE && len <= SWAI_NIC_STAGE - (addr - s)) {
        memcpy(m->rs[r].stage + (addr - s), buf, len);
    }
    return SWAI_NIC_OK;
}

static int m_read(void *o, unsigned vport, uint64_t addr, void *buf, size_t len)
{
    (void)o;
    (void)vport;
    (void)addr;
    memset(buf, 0, len);
    return SWAI_NIC_OK;
}

static void m_cqe(void *o, const struct swai_nic_cqe *e)
{
    struct model *m = ((struct node_ctx *)o)->m;
    int r = rank_at(m, ((struct node_ctx *)o)->node, e->vport);
    struct rank_state *s;

    if (r < 0 || e->status != SWAI_NIC_OK) {
        m->bad = true;
        return;
    }
    s = &m->rs[r];
    if (s->ncq == s->capq) {
        struct swai_nic_cqe *q = realloc(s->cq, (size_t)(s->capq * 2 + 16) * sizeof(*q));

        if (!q) {
            m->bad = true;
            return;
        }
        s->cq = q;
        s->capq = s->capq * 2 + 16;
    }
    s->cq[s->ncq++] = *e;
}

static const struct swai_nic_ops m_ops = { m_send, m_write, m_read, m_cqe };

/* Deliver what is in flight, in the order sent (the times are the senders'). */
static void settle(struct model *m)
{
    for (int i = 0; i < m->npend; i++) {
        struct swai_nic_pkt p = m->pend[i];

        if (p.dst < (unsigned)m->j->nranks && m->nic[p.dst]) {
            swai_nic_receive(m->nic[p.dst], &p, p.time_ps);
        }
    }
    m->npend = 0;
}

static int io_post(void *o, int r, const struct swai_nic_desc *d, int n, uint64_t at_ns)
{
    struct model *m = o;

    for (int i = 0; i < n; i++) {
        struct swai_nic_desc e = d[i];

        e.key = 0;      /* keys are the device's business */
        if (swai_nic_post(m->nic[m->j->peer[r].node], &e, swai_timing_ns_to_ps(at_ns))) {
            return -EINVAL;
        }
    }
    return 0;
}

static int io_wait(void *o, int r, int n, uint64_t *end_ns, int *done)
{
    struct model *m = o;
    struct rank_state *s = &m->rs[r];
    uint64_t e = 0;

    settle(m);
    *done = s->ncq < n ? s->ncq : n;
    if (m->bad) {
        return -EIO;
    }
    if (s->ncq < n) {
        return -ETIME;
    }
    for (int i = 0; i < n; i++) {
        e = s->cq[i].time_ps > e ? s->cq[i].time_ps : e;
    }
    memmove(s->cq, s->cq + n, (size_t)(s->ncq - n) * sizeof(s->cq[0]));
    s->ncq -= n;
    *end_ns = (e + SWAI_PS_PER_NS - 1) / SWAI_PS_PER_NS;
    return 0;
}

static void io_read(void *o, int r, size_t off, void *buf, size_t len)
{
    struct model *m = o;

    memcpy(buf, m->rs[r].stage + off, len);
}

int swai_nic_model(const struct swai_nic_job *j, bool host, const struct swai_timing_props *tp,
                   uint64_t *ns)
{
    struct swai_nic_job all = *j;
    struct model m = { .j = &all };
    struct swai_nic_io io = { &m, io_post, io_wait, io_read };
    struct swai_nic_stall stall;
    size_t n = (size_t)j->nranks;
    int ret = -ENOMEM;

    /* Every rank runs here, from time 0. */
    all.local = NULL;
    all.start_ns = 0;
    m.nic = calloc(n, sizeof(*m.nic));
    m.ctx = calloc(n, sizeof(*m.ctx));
    m.rs = calloc(n, sizeof(*m.rs));
    m.rank_of = malloc(n * SWAI_NIC_VPORTS * sizeof(*m.rank_of));
    if (!m.nic || !m.ctx || !m.rs || !m.rank_of) {
        goto out;
    }
    for (size_t i = 0; i < n * SWAI_NIC_VPORTS; i++) {
        m.rank_of[i] = -1;
    }
    for (int r = 0; r < j->nranks; r++) {
        int nd = (int)j->peer[r].node;

        ret = -EINVAL;
        if (nd >= j->nranks || j->peer[r].vport >= SWAI_NIC_VPORTS) {
            goto out;
        }
        m.rank_of[nd * SWAI_NIC_VPORTS + (int)j->peer[r].vport] = r;
        if (m.nic[nd]) {
            continue;
        }
        m.ctx[nd] = (struct node_ctx){ &m, nd };
        m.nic[nd] = swai_nic_new((unsigned)nd, tp, &m_ops, &m.ctx[nd]);
        ret = -ENOMEM;
        if (!m.nic[nd]) {
            goto out;
        }
    }
    ret = (host ? swai_nic_run_host : swai_nic_run_offload)(&all, &io, ns, &stall);
out:
    for (size_t i = 0; m.nic && i < n; i++) {
        swai_nic_free(m.nic[i]);
    }
    for (size_t i = 0; m.rs && i < n; i++) {
        free(m.rs[i].cq);
    }
    free(m.nic);
    free(m.ctx);
    free(m.rs);
    free(m.rank_of);
    free(m.pend);
    return ret;
}
