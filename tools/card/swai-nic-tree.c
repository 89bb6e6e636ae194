/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-tree.c - the descriptors of seed 001's reduction tree
 * (swai-nic-tree.h).
 */
#include <errno.h>
#include <string.h>

#include "swai-nic-tree.h"

unsigned swai_nic_tree_pieces(unsigned count, unsigned width)
{
    unsigned per = SWAI_NIC_DATA_MAX / width;

    return count ? (count + per - 1) / per : 1;
}

unsigned swai_nic_tree_depth(unsigned nranks, unsigned k)
{
    unsigned d = 0;
    uint64_t last = 0, span = 1;    /* ranks 0..last are within depth d */

    while (last + 1 < nranks) {
        span *= k;
        last += span;
        d++;
    }
    return d;
}

static const char *check(const struct swai_nic_tree *t, unsigned r)
{
    if (!t->nranks || t->nranks > 0xffff || r >= t->nranks ||
        t->root >= t->nranks) {
        return "rank or root out of range";
    }
    if (!t->k || t->k > SWAI_NIC_BRANCH_MAX) {
        return "the branching degree must be 1..255";
    }
    if (!swai_nic_alu_valid(t->rtype, t->dtype, t->width) ||
        t->count * t->width > SWAI_NIC_DATA_MAX) {
        return "no such ALU operation, or more than 48 bytes (use several trees)";
    }
    if (t->vport >= SWAI_NIC_VPORTS) {
        return "virtual port out of range";
    }
    return NULL;
}

/* A descriptor of this tree from rank @r, everything but the role's. */
static struct swai_nic_desc base(const struct swai_nic_tree *t, unsigned r,
                                 unsigned kind, const struct swai_nic_vec *data)
{
    struct swai_nic_desc d = {
        .kind = kind, .vport = t->vport, .dst_vport = t->vport,
        .rtype = t->rtype, .dtype = t->dtype, .width = t->width,
        .src = t->node[r], .dst = SWAI_NIC_NODE_NONE,
    };

    if (data) {
        d.v = *data;
    }
    d.v.count = t->count;
    return d;
}

int swai_nic_tree_build(const struct swai_nic_tree *t, unsigned r,
                        const struct swai_nic_vec *data,
                        struct swai_nic_desc *out, unsigned max,
                        const char **why)
{
    unsigned n = t->nranks, v, i, nch, first, m = 0;
    bool up, down;

    *why = check(t, r);
    if (*why) {
        return -EINVAL;
    }
    v = (r + n - t->root) % n;
    first = t->k * v + 1;
    nch = first >= n ? 0 : (n - first < t->k ? n - first : t->k);
    up = t->coll != SWAI_NIC_TREE_BCAST;
    down = t->coll != SWAI_NIC_TREE_REDUCE;
    if (max < nch + 2) {
        *why = "no room for the descriptors";
        return -EINVAL;
    }
    if (up) {
        struct swai_nic_desc d = base(t, r, SWAI_NIC_KIND_REDUCE, data);

        d.branch = nch;
        d.cpcnt = nch;
        if (v) {
            d.dst = t->node[(r + n - v + (v - 1) / t->k) % n];
            d.child = (v - 1) % t->k;
            d.flags = SWAI_NIC_F_CP | SWAI_NIC_F_SWPMP;
        }
        out[m++] = d;
    }
    if (down) {
        for (i = 0; i < nch; i++) {
            struct swai_nic_desc d = base(t, r, SWAI_NIC_KIND_BCAST, data);

            d.dst = t->node[(r + (first + i) - v) % n];
            d.flags = SWAI_NIC_F_CP | SWAI_NIC_F_SWPMP;
            /* Below the root, the first waits for the parent's result. */
            d.cpcnt = v && i == 0;
            /* What goes down is the result, except a Broadcast's root data. */
            if (v || up || i) {
                d.flags |= SWAI_NIC_F_SWPFLAG;
            }
            out[m++] = d;
        }
        if (!nch && v) {        /* a leaf: take the result, send nothing */
            struct swai_nic_desc d = base(t, r, SWAI_NIC_KIND_BCAST, data);

            d.cpcnt = 1;
            d.flags = SWAI_NIC_F_SWPFLAG;
            out[m++] = d;
        }
        if (!nch && !v && !up) {    /* a Broadcast to nobody */
            out[m++] = base(t, r, SWAI_NIC_KIND_BCAST, data);
        }
    }
    if (down || !v) {
        out[m - 1].flags |= SWAI_NIC_F_COMPLETE;
        out[m - 1].addr = t->complete_addr;
    }
    return (int)m;
}
