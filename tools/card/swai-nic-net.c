/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-net.c - NIC engines joined by a stamped-time network
 * (swai-nic-net.h).
 */
#include <stdlib.h>
#include <string.h>

#include "swai-nic-net.h"

struct node_ctx {
    struct swai_nic_net *net;
    unsigned node;
};

struct swai_nic_net {
    int n;
    struct swai_nic **nic;
    struct node_ctx *ctx;
    const struct swai_nic_net_ops *ops;
    void *o;
    struct swai_nic_pkt *pend;
    int npend, cap;
    bool bad;
};

static int n_send(void *o, const struct swai_nic_pkt *p)
{
    struct swai_nic_net *net = ((struct node_ctx *)o)->net;

    if (net->npend == net->cap) {
        struct swai_nic_pkt *q = realloc(net->pend, (size_t)(net->cap * 2 + 64) * sizeof(*q));

        if (!q) {
            net->bad = true;
            return SWAI_NIC_E_ROUTE;
        }
        net->pend = q;
        net->cap = net->cap * 2 + 64;
    }
    net->pend[net->npend++] = *p;
    return SWAI_NIC_OK;
}

static int n_write(void *o, unsigned vport, uint64_t addr, const void *buf, size_t len)
{
    struct node_ctx *c = o;

    return c->net->ops->write(c->net->o, c->node, vport, addr, buf, len);
}

static int n_read(void *o, unsigned vport, uint64_t addr, void *buf, size_t len)
{
    (void)o;
    (void)vport;
    (void)addr;
    memset(buf, 0, len);
    return SWAI_NIC_OK;
}

static void n_cqe(void *o, const struct swai_nic_cqe *e)
{
    struct node_ctx *c = o;

    c->net->ops->cqe(c->net->o, c->node, e);
}

static const struct swai_nic_ops net_ops = { n_send, n_write, n_read, n_cqe };

struct swai_nic *swai_nic_net_nic(struct swai_nic_net *net, unsigned node)
{
    for (int i = 0; i < net->n; i++) {
        if (net->ctx[i].node == node) {
            return net->nic[i];
        }
    }
    return NULL;
}

struct swai_nic_net *swai_nic_net_new(const unsigned *nodes, int n,
                                      const struct swai_timing_props *tp,
                                      const struct swai_nic_net_ops *ops, void *o)
{
    struct swai_nic_net *net = calloc(1, sizeof(*net));

    if (!net) {
        return NULL;
    }
    net->ops = ops;
    net->o = o;
    net->nic = calloc((size_t)n + 1, sizeof(*net->nic));
    net->ctx = calloc((size_t)n + 1, sizeof(*net->ctx));
    if (!net->nic || !net->ctx) {
        swai_nic_net_free(net);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (swai_nic_net_nic(net, nodes[i])) {
            continue;
        }
        net->ctx[net->n] = (struct node_ctx){ net, nodes[i] };
        net->nic[net->n] = swai_nic_new(nodes[i], tp, &net_ops, &net->ctx[net->n]);
        if (!net->nic[net->n++]) {
            swai_nic_net_free(net);
            return NULL;
        }
    }
    return net;
}

void swai_nic_net_free(struct swai_nic_net *net)
{
    if (!net) {
        return;
    }
    for (int i = 0; net->nic && i < net->n; i++) {
        swai_nic_free(net->nic[i]);
    }
    free(net->nic);
    free(net->ctx);
    free(net->pend);
    free(net);
}

void swai_nic_net_settle(struct swai_nic_net *net)
{
    /* Packets a delivery sends are appended, and delivered in their turn. */
    for (int i = 0; i < net->npend; i++) {
        struct swai_nic_pkt p = net->pend[i];
        struct swai_nic *nic = swai_nic_net_nic(net, p.dst);

        if (nic) {
            swai_nic_receive(nic, &p, p.time_ps);
        }
    }
    net->npend = 0;
}

bool swai_nic_net_bad(const struct swai_nic_net *net)
{
    return net->bad;
}
