/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-tree.h - NIC-offloaded collectives as seed 001 §3.2 builds them:
 * the descriptors each rank posts for a reduction tree of branching degree
 * k, with leaf, intermediate and root roles, and the broadcast of the
 * result back down the same tree.
 *
 * Ranks are numbered from the root: rank r is v = (r - root) mod n, whose
 * parent is (v - 1) / k and whose children are k v + 1 .. k v + k, child
 * slot (v - 1) mod k at its parent.  So the result at every rank is, for
 * every v, res(v) = ((res(c0) op res(c1)) ... op res(c_last)) op data(v)
 * (the NIC's child order, swai-nic.h), the same bits on every run.
 *
 * The root needs no packet to itself (seed 001's "destination = itself,
 * branch 1"): its BCASTs are queued behind its REDUCE on one port, and
 * a port runs its descriptors in order.
 *
 * Messages of more than 48 bytes are several trees, one per port
 * (swai_nic_tree_pieces): pieces on one port would mix their counts.
 */
#ifndef SWAI_NIC_TREE_H
#define SWAI_NIC_TREE_H

#include <stdint.h>

#include "swai-nic.h"

enum swai_nic_tree_coll {
    SWAI_NIC_TREE_ALLREDUCE,
    SWAI_NIC_TREE_REDUCE,       /* the result at the root only */
    SWAI_NIC_TREE_BCAST,        /* the root's data to every rank */
    SWAI_NIC_TREE_BARRIER,      /* an AllReduce of nothing */
};

struct swai_nic_tree {
    enum swai_nic_tree_coll coll;
    unsigned nranks, k, root;   /* k >= 1: the branching degree */
    unsigned vport;             /* the port every rank uses */
    unsigned rtype, dtype, width, count;    /* count * width <= 48 */
    const uint16_t *node;       /* [nranks]: each rank's NIC node */
    uint64_t complete_addr;     /* where each rank's result is written */
};

/* Descriptors a rank posts, at most. */
#define SWAI_NIC_TREE_MAX_DESCS (SWAI_NIC_BRANCH_MAX + 2)

/*
 * Rank @r's descriptors, in the order it posts them, carrying its @data
 * (NULL for a barrier, or a BCAST's non-root): how many, or -EINVAL with
 * *why.  The last one writes the result to complete_addr (at the root
 * only for REDUCE).
 */
int swai_nic_tree_build(const struct swai_nic_tree *t, unsigned r,
                        const struct swai_nic_vec *data,
                        struct swai_nic_desc *out, unsigned max,
                        const char **why);
/* Trees (48-byte pieces) a message of @count elements of @width takes. */
unsigned swai_nic_tree_pieces(unsigned count, unsigned width);
/* The tree's depth: rounds of packets from the farthest leaf to the root. */
unsigned swai_nic_tree_depth(unsigned nranks, unsigned k);

#endif /* SWAI_NIC_TREE_H */
