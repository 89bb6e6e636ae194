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

#include "swai-nic-net.h"
#include "swai-nic-run.h"
#include "swai-timing.h"

struct rank_state {
    uint8_t stage[SWAI_NIC_STAGE];
    struct swai_nic_cqe *cq;
    int ncq, capq;
};

struct model {
    const struct swai_nic_job *j;
    struct swai_nic_net *net;       /* an engine per node */
    int *rank_of;                   /* [node * SWAI_NIC_VPORTS + vport] -> rank */
    struct rank_state *rs;          /* [nranks] */
    bool bad;
};

static int rank_at(const struct model *m, unsigned node, unsigned vport)
{
    return m->rank_of[node * SWAI_NIC_VPORTS + vport];
}

/* Staging is modeled; a result written to a rank's buffer is not kept. */
static int m_write(void *o, unsigned node, unsigned vport, uint64_t addr, const void *buf,
                   size_t len)
{
    struct model *m = o;
    int r = rank_at(m, node, vport);
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

static void m_cqe(void *o, unsigned node, const struct swai_nic_cqe *e)
{
    struct model *m = o;
    int r = rank_at(m, node, e->vport);
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

static const struct swai_nic_net_ops m_ops = { m_write, m_cqe };

static int io_post(void *o, int r, const struct swai_nic_desc *d, int n, uint64_t at_ns)
{
    struct model *m = o;

    for (int i = 0; i < n; i++) {
        struct swai_nic_desc e = d[i];

        e.key = 0;      /* keys are the device's business */
        if (swai_nic_post(swai_nic_net_nic(m->net, m->j->peer[r].node), &e,
                          swai_timing_ns_to_ps(at_ns))) {
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

    swai_nic_net_settle(m->net);
    *done = s->ncq < n ? s->ncq : n;
    if (m->bad || swai_nic_net_bad(m->net)) {
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
    unsigned *nodes = malloc(n * sizeof(*nodes));
    int ret = -ENOMEM;

    /* Every rank runs here, from time 0. */
    all.local = NULL;
    all.start_ns = 0;
    m.rs = calloc(n, sizeof(*m.rs));
    m.rank_of = malloc(n * SWAI_NIC_VPORTS * sizeof(*m.rank_of));
    if (!m.rs || !m.rank_of || !nodes) {
        goto out;
    }
    for (size_t i = 0; i < n * SWAI_NIC_VPORTS; i++) {
        m.rank_of[i] = -1;
    }
    for (int r = 0; r < j->nranks; r++) {
        ret = -EINVAL;
        if (j->peer[r].node >= (unsigned)j->nranks || j->peer[r].vport >= SWAI_NIC_VPORTS) {
            goto out;
        }
        m.rank_of[j->peer[r].node * SWAI_NIC_VPORTS + j->peer[r].vport] = r;
        nodes[r] = j->peer[r].node;
    }
    ret = -ENOMEM;
    m.net = swai_nic_net_new(nodes, j->nranks, tp, &m_ops, &m);
    if (m.net) {
        ret = (host ? swai_nic_run_host : swai_nic_run_offload)(&all, &io, ns, &stall);
    }
out:
    swai_nic_net_free(m.net);
    for (size_t i = 0; m.rs && i < n; i++) {
        free(m.rs[i].cq);
    }
    free(m.rs);
    free(m.rank_of);
    free(nodes);
    return ret;
}
