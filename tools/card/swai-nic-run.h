/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-run.h - seed 001's reduction trees (swai-nic-tree.h) run over a
 * set of ranks: offloaded to the NICs (each rank posts its leaf,
 * intermediate or root descriptors once and the NICs do the rest), or
 * driven by the hosts in software, as MPI over a NIC does it (a rank's host
 * waits for its children's partials, PUT into its staging, combines them
 * with the NIC's own ALU definition in the same child order and PUTs the
 * result on: every level through a host).  Both give the same bits.
 *
 * What carries them is struct swai_nic_io: the cards through the driver
 * (libswccl's NIC and HOST algorithms), or the NIC engines themselves
 * joined by a network that delivers each packet at the time its sender
 * stamped (swai_nic_model(): libswccl's predictions, swccl-sim's rows at
 * thousands of ranks).  One definition of the trees for all of them.
 *
 * Ranks are numbered from the root (v = (r - root) mod n), parent
 * (v - 1) / k, children k v + 1 .. k v + k.
 */
#ifndef SWAI_NIC_RUN_H
#define SWAI_NIC_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swai-nic-tree.h"

/* Where a rank's port is, as every rank knows it. */
struct swai_nic_peer {
    uint32_t node, vport, key, pad;
    uint64_t stage;             /* device address of its staging (HOST) */
};

/* A rank's staging (HOST): a slot per child, then the result. */
#define SWAI_NIC_SLOT       64
#define SWAI_NIC_RES_SLOT   SWAI_NIC_BRANCH_MAX
#define SWAI_NIC_STAGE      ((SWAI_NIC_BRANCH_MAX + 1) * SWAI_NIC_SLOT)

/* One call as the trees see it. */
struct swai_nic_job {
    enum swai_nic_tree_coll coll;
    int nranks, root;
    unsigned k, rtype, dtype, width, count;
    const struct swai_nic_peer *peer;   /* [nranks] */
    const bool *local;                  /* [nranks]: ranks run here; NULL: all */
    const uint64_t *recv;               /* [nranks]: result addresses; NULL: none */
    const struct swai_nic_vec *data;    /* [nranks]: inputs; NULL: zeros */
    const uint64_t *lag_ns;             /* [nranks]: starts this late; NULL: none */
    uint64_t start_ns;                  /* when the hosts start (modeled) */
    uint64_t sync_ns;                   /* HOST: a host learns of a completion this late */
};

/* What carries the trees.  Every function returns 0 or a negative errno. */
struct swai_nic_io {
    void *o;
    /* Queue @n descriptors on rank @r's port at modeled @at_ns. */
    int (*post)(void *o, int r, const struct swai_nic_desc *d, int n, uint64_t at_ns);
    /*
     * Take @n completions of rank @r's port; *end_ns the latest.  -ETIME
     * when only *done came in time, -EIO when one ended in error.
     */
    int (*wait)(void *o, int r, int n, uint64_t *end_ns, int *done);
    /* @len bytes of rank @r's staging from @off. */
    void (*read_stage)(void *o, int r, size_t off, void *buf, size_t len);
};

/* Who waited in vain (-ETIME): rank @rank, for its children (@up) or its parent. */
struct swai_nic_stall {
    int rank;
    bool up;
};

/*
 * Run @j offloaded or in software, for its local ranks: 0 with *end_ns the
 * last completion, -ETIME with *stall, or another negative errno.
 */
int swai_nic_run_offload(const struct swai_nic_job *j, const struct swai_nic_io *io,
                         uint64_t *end_ns, struct swai_nic_stall *stall);
int swai_nic_run_host(const struct swai_nic_job *j, const struct swai_nic_io *io,
                      uint64_t *end_ns, struct swai_nic_stall *stall);

/* The rank numbered @v from the root, and its children (how many; *first). */
int swai_nic_run_rank(const struct swai_nic_job *j, int v);
int swai_nic_run_children(const struct swai_nic_job *j, int v, int *first);

/*
 * swai-nic-model.c: @j's modeled time in ns from its start -- every rank
 * run here on NIC engines of the parameters @tp, one per node of j->peer
 * (ranks of one node share its engine, each on its own port), nodes
 * numbered 0..nranks-1.  0, or a negative errno.
 */
struct swai_timing_props;
int swai_nic_model(const struct swai_nic_job *j, bool host, const struct swai_timing_props *tp,
                   uint64_t *ns);

#endif /* SWAI_NIC_RUN_H */
