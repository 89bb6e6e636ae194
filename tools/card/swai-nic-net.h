/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-net.h - NIC engines (swai-nic.h) joined by a network that
 * delivers every packet at the time its sender stamped: what the models of
 * the NIC's work run on -- seed 001's trees (swai-nic-model.c) and
 * libswccl's schedules over RDMA WRITE -- so their times are the cards'.
 * It leaves out what the device leaves out: congestion at a receiving port.
 * The engines' memory and completions go to the user's callbacks; a WRITE
 * reads zeros (the models time data, they do not move it).
 */
#ifndef SWAI_NIC_NET_H
#define SWAI_NIC_NET_H

#include <stdbool.h>

#include "swai-nic.h"

struct swai_nic_net;

struct swai_nic_net_ops {
    /* A node's engine writes @len bytes at @addr of @vport's owner: 0 or an E_ status. */
    int (*write)(void *o, unsigned node, unsigned vport, uint64_t addr, const void *buf,
                 size_t len);
    /* A node's engine ended a descriptor (or refused a packet). */
    void (*cqe)(void *o, unsigned node, const struct swai_nic_cqe *e);
};

/* An engine for each of the @n distinct @nodes, of parameters @tp; NULL without memory. */
struct swai_nic_net *swai_nic_net_new(const unsigned *nodes, int n,
                                      const struct swai_timing_props *tp,
                                      const struct swai_nic_net_ops *ops, void *o);
void swai_nic_net_free(struct swai_nic_net *net);
/* @node's engine, or NULL. */
struct swai_nic *swai_nic_net_nic(struct swai_nic_net *net, unsigned node);
/* Deliver what is in flight (and what that sends), in the order sent. */
void swai_nic_net_settle(struct swai_nic_net *net);
/* Did the network run out of memory? */
bool swai_nic_net_bad(const struct swai_nic_net *net);

#endif /* SWAI_NIC_NET_H */
