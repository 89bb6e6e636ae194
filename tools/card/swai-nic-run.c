/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-run.c - seed 001's trees run over ranks, offloaded or by the
 * hosts (swai-nic-run.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-nic-run.h"

int swai_nic_run_rank(const struct swai_nic_job *j, int v)
{
    return (v + j->root) % j->nranks;
}

int swai_nic_run_children(const struct swai_nic_job *j, int v, int *first)
{
    long f = (long)j->k * v + 1;

    *first = (int)f;
    return f >= j->nranks ? 0 : (int)(j->nranks - f < (long)j->k ? j->nranks - f : (long)j->k);
}

static bool is_local(const struct swai_nic_job *j, int r)
{
    return !j->local || j->local[r];
}

static uint64_t start_of(const struct swai_nic_job *j, int r)
{
    return j->start_ns + (j->lag_ns ? j->lag_ns[r] : 0);
}

/* Aim a descriptor the tree builder addressed to rank number d->dst. */
static void aim(const struct swai_nic_job *j, int src, struct swai_nic_desc *d)
{
    d->src = j->peer[src].node;
    if (d->dst == SWAI_NIC_NODE_NONE) {
        return;
    }
    d->dst_vport = j->peer[d->dst].vport;
    d->key = j->peer[d->dst].key;
    d->dst = j->peer[d->dst].node;
}

int swai_nic_run_offload(const struct swai_nic_job *j, const struct swai_nic_io *io,
                         uint64_t *end_ns, struct swai_nic_stall *stall)
{
    struct swai_nic_desc d[SWAI_NIC_TREE_MAX_DESCS];
    uint16_t *ids = malloc((size_t)j->nranks * sizeof(*ids));
    int *m = calloc((size_t)j->nranks, sizeof(*m));
    int ret = 0;
    const char *why;

    *end_ns = 0;
    if (!ids || !m || j->nranks > 0xffff) {
        ret = -ENOMEM;
        goto out;
    }
    for (int r = 0; r < j->nranks; r++) {
        ids[r] = (uint16_t)r;
    }
    for (int r = 0; r < j->nranks && !ret; r++) {
        struct swai_nic_tree t = {
            j->coll, (unsigned)j->nranks, j->k, (unsigned)j->root, j->peer[r].vport,
            j->rtype, j->dtype, j->width, j->count, ids, j->recv ? j->recv[r] : 0,
        };
        struct swai_nic_vec zero = { .count = j->count };

        if (!is_local(j, r)) {
            continue;
        }
        m[r] = swai_nic_tree_build(&t, (unsigned)r, j->data ? &j->data[r] : &zero, d,
                                   SWAI_NIC_TREE_MAX_DESCS, &why);
        if (m[r] < 0) {
            ret = -EINVAL;
            break;
        }
        for (int i = 0; i < m[r]; i++) {
            aim(j, r, &d[i]);
            /* A rank whose result goes nowhere (Reduce's others) completes nothing. */
            if (!j->recv || !j->recv[r]) {
                d[i].flags &= ~SWAI_NIC_F_COMPLETE;
            }
        }
        ret = io->post(io->o, r, d, m[r], start_of(j, r));
    }
    for (int r = 0; r < j->nranks && !ret; r++) {
        uint64_t e;
        int done = 0;

        if (!is_local(j, r)) {
            continue;
        }
        ret = io->wait(io->o, r, m[r], &e, &done);
        if (ret == -ETIME) {
            /* Its first descriptor (REDUCE) waits for the children, the rest the parent. */
            stall->rank = r;
            stall->up = j->coll != SWAI_NIC_TREE_BCAST && done == 0;
        } else if (!ret && e > *end_ns) {
            *end_ns = e;
        }
    }
out:
    free(ids);
    free(m);
    return ret;
}

/* A PUT of rank @r to rank number @to of @v at @addr. */
static struct swai_nic_desc put(const struct swai_nic_job *j, int r, int to, uint64_t addr,
                                const struct swai_nic_vec *v, bool cp)
{
    struct swai_nic_desc d = {
        .kind = SWAI_NIC_KIND_PUT, .flags = cp ? SWAI_NIC_F_CP : 0,
        .vport = j->peer[r].vport, .rtype = j->rtype, .dtype = j->dtype,
        .width = j->width, .dst = (unsigned)to, .addr = addr, .v = *v,
    };

    d.v.count = j->count;
    aim(j, r, &d);
    return d;
}

/*
 * Rank @r's host waits for @cp CP packets -- its children's (@up) or its
 * parent's -- and learns of them a sync later: *t moves there.
 */
static int notified(const struct swai_nic_job *j, const struct swai_nic_io *io, int r,
                    uint32_t cp, uint64_t *t, uint64_t *last, bool up,
                    struct swai_nic_stall *stall)
{
    struct swai_nic_desc d = {
        .kind = SWAI_NIC_KIND_BCAST, .vport = j->peer[r].vport,
        .dst_vport = j->peer[r].vport, .rtype = j->rtype, .dtype = j->dtype,
        .width = j->width, .src = j->peer[r].node, .dst = SWAI_NIC_NODE_NONE,
        .cpcnt = cp,
    };
    uint64_t e = 0;
    int done, ret = io->post(io->o, r, &d, 1, *t);

    if (!ret) {
        ret = io->wait(io->o, r, 1, &e, &done);
    }
    if (ret == -ETIME) {
        stall->rank = r;
        stall->up = up;
    }
    if (!ret) {
        *last = e > *last ? e : *last;
        if (e + j->sync_ns > *t) {
            *t = e + j->sync_ns;
        }
    }
    return ret;
}

int swai_nic_run_host(const struct swai_nic_job *j, const struct swai_nic_io *io,
                      uint64_t *end_ns, struct swai_nic_stall *stall)
{
    struct swai_nic_vec *acc = calloc((size_t)j->nranks, sizeof(*acc));
    uint64_t *t = calloc((size_t)j->nranks, sizeof(*t));
    /* The last completion of each rank: the call's end is the latest of them. */
    uint64_t *last = calloc((size_t)j->nranks, sizeof(*last));
    bool up = j->coll != SWAI_NIC_TREE_BCAST, down = j->coll != SWAI_NIC_TREE_REDUCE;
    int ret = 0, first, nch;

    *end_ns = 0;
    if (!acc || !t || !last) {
        ret = -ENOMEM;
        goto out;
    }
    /* Up, leaves first: wait for the children, combine, send to the parent. */
    for (int v = j->nranks - 1; v >= 0 && !ret; v--) {
        int r = swai_nic_run_rank(j, v);

        if (!is_local(j, r)) {
            continue;
        }
        t[r] = start_of(j, r);
        if (j->data) {
            acc[r] = j->data[r];
        }
        acc[r].count = j->count;
        if (!up) {
            continue;
        }
        nch = swai_nic_run_children(j, v, &first);
        if (nch) {
            struct swai_nic_vec own = acc[r];

            ret = notified(j, io, r, (uint32_t)nch, &t[r], &last[r], true, stall);
            for (int i = 0; i < nch && !ret; i++) {
                struct swai_nic_vec cv = { .count = j->count };

                io->read_stage(io->o, r, (size_t)i * SWAI_NIC_SLOT, cv.data,
                               SWAI_NIC_DATA_MAX);
                if (i == 0) {
                    acc[r] = cv;
                } else {
                    swai_nic_alu(&acc[r], &cv, j->rtype, j->dtype, j->width);
                }
            }
            if (!ret) {
                swai_nic_alu(&acc[r], &own, j->rtype, j->dtype, j->width);
            }
        }
        if (v && !ret) {
            int p = swai_nic_run_rank(j, (v - 1) / (int)j->k);
            struct swai_nic_desc d = put(j, r, p, j->peer[p].stage +
                                         (uint64_t)((v - 1) % (int)j->k) * SWAI_NIC_SLOT,
                                         &acc[r], true);
            uint64_t e;
            int done;

            ret = io->post(io->o, r, &d, 1, t[r]);
            if (!ret) {
                ret = io->wait(io->o, r, 1, &e, &done);
            }
            if (!ret && e > last[r]) {
                last[r] = e;
            }
        }
    }
    /* Down, root first: take the result, keep it, send it to the children. */
    for (int v = 0; v < j->nranks && !ret; v++) {
        struct swai_nic_desc d[SWAI_NIC_BRANCH_MAX + 1];
        int r = swai_nic_run_rank(j, v), n = 0, done;
        uint64_t e = 0;

        if (!is_local(j, r)) {
            continue;
        }
        if (v && down) {
            ret = notified(j, io, r, 1, &t[r], &last[r], false, stall);
            if (ret) {
                break;
            }
            io->read_stage(io->o, r, (size_t)SWAI_NIC_RES_SLOT * SWAI_NIC_SLOT, acc[r].data,
                           SWAI_NIC_DATA_MAX);
        }
        if (j->recv && j->recv[r] && (down || !v)) {
            d[n++] = put(j, r, r, j->recv[r], &acc[r], false);
        }
        nch = down ? swai_nic_run_children(j, v, &first) : 0;
        for (int i = 0; i < nch; i++) {
            int c = swai_nic_run_rank(j, first + i);

            d[n++] = put(j, r, c, j->peer[c].stage + (uint64_t)SWAI_NIC_RES_SLOT * SWAI_NIC_SLOT,
                         &acc[r], true);
        }
        if (n) {
            ret = io->post(io->o, r, d, n, t[r]);
            if (!ret) {
                ret = io->wait(io->o, r, n, &e, &done);
            }
        } else {
            e = last[r];    /* nothing more to send: its last completion */
        }
        if (!ret && e > *end_ns) {
            *end_ns = e;
        }
    }
out:
    free(acc);
    free(t);
    free(last);
    return ret;
}
