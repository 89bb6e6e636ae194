// SPDX-License-Identifier: MIT
/*
 * swccl_nic_tree.c - seed 001's reduction tree over the ranks, offloaded
 * to the NICs or driven by the hosts (swccl_nic.h), on whatever runs it
 * (struct swccl_nic_io: the cards, or their model).
 *
 * Ranks are numbered from the root (v = (r - root) mod n), parent
 * (v - 1) / k, children k v + 1 .. k v + k: tools/card/swai-nic-tree.h's
 * tree, so both algorithms combine in the same order and give the same
 * bits.
 */
#include <stdio.h>
#include <string.h>

#include "swccl_nic.h"

static int rank_of(const struct swccl_nic_job *j, int v)
{
	return (v + j->root) % j->nranks;
}

static int children(const struct swccl_nic_job *j, int v, int *first);

/*
 * Rank @r waited SWCCL_TIMEOUT for a packet: from its children (@up) or
 * its parent.  Name them and their nodes: one of them is lost.
 */
static swcclResult_t lost(const struct swccl_nic_job *j, int r, bool up)
{
	int v = (r - j->root + j->nranks) % j->nranks, first, nch, n = 0;
	char who[256] = "";

	if (!up && v) {
		int p = rank_of(j, (v - 1) / (int)j->k);

		snprintf(who, sizeof(who), "its parent, rank %d (node %u)", p, j->peer[p].node);
	} else {
		nch = children(j, v, &first);
		n = snprintf(who, sizeof(who), "its children:");
		for (int i = 0; i < nch && n < (int)sizeof(who); i++) {
			int c = rank_of(j, first + i);

			n += snprintf(who + n, sizeof(who) - (size_t)n, " rank %d (node %u)", c,
				      j->peer[c].node);
		}
	}
	return swccl_fail(j->comm, swcclTimeout, "rank %d (node %u) had no packet from %s "
			  "within SWCCL_TIMEOUT (%.0f s): that node is lost, or its process "
			  "never made this call", r, j->peer[r].node, who, swccl_timeout_s());
}

/* Aim a descriptor the tree builder addressed to rank @dst (by number). */
static void aim(const struct swccl_nic_job *j, int src, struct swai_nic_desc *d)
{
	d->src = j->peer[src].node;
	if (d->dst == SWAI_NIC_NODE_NONE)
		return;
	d->dst_vport = j->peer[d->dst].vport;
	d->key = j->peer[d->dst].key;
	d->dst = j->peer[d->dst].node;
}

swcclResult_t swccl_nic_tree_offload(const struct swccl_nic_job *j,
				     const struct swccl_nic_io *io, uint64_t *end_ns)
{
	struct swai_nic_desc d[SWAI_NIC_TREE_MAX_DESCS];
	uint16_t ids[SWCCL_MAX_RANKS];
	int m[SWCCL_MAX_RANKS] = { 0 };
	swcclResult_t res;
	const char *why;

	for (int r = 0; r < j->nranks; r++)
		ids[r] = (uint16_t)r;
	*end_ns = 0;
	for (int r = 0; r < j->nranks; r++) {
		struct swai_nic_tree t = {
			(enum swai_nic_tree_coll)j->coll, (unsigned int)j->nranks, j->k,
			(unsigned int)j->root, j->peer[r].vport, j->rtype, j->dtype,
			j->width, j->count, ids, j->recv[r],
		};

		if (!j->local[r])
			continue;
		m[r] = swai_nic_tree_build(&t, (unsigned int)r, &j->data[r], d,
					   SWAI_NIC_TREE_MAX_DESCS, &why);
		if (m[r] < 0)
			return swccl_fail(j->comm, swcclInternalError, "NIC tree: %s", why);
		for (int i = 0; i < m[r]; i++)
			aim(j, r, &d[i]);
		/* A rank whose result goes nowhere (Reduce's others) completes nothing. */
		if (!j->recv[r])
			for (int i = 0; i < m[r]; i++)
				d[i].flags &= ~SWAI_NIC_F_COMPLETE;
		res = io->post(io->o, r, d, m[r], j->start_ns + j->lag_ns[r]);
		if (res)
			return res;
	}
	for (int r = 0; r < j->nranks; r++) {
		uint64_t e;

		int done = 0;

		if (!j->local[r])
			continue;
		res = io->wait(io->o, r, m[r], &e, &done);
		/* Its first descriptor (REDUCE) waits for the children, the rest the parent. */
		if (res == swcclTimeout)
			return lost(j, r, j->coll != SWAI_NIC_TREE_BCAST && done == 0);
		if (res)
			return res;
		*end_ns = e > *end_ns ? e : *end_ns;
	}
	return swcclSuccess;
}

/* A descriptor of rank @r to rank @to: a PUT of @v at @addr, or a notify. */
static struct swai_nic_desc put(const struct swccl_nic_job *j, int r, int to,
				uint64_t addr, const struct swai_nic_vec *v, bool cp)
{
	struct swai_nic_desc d = {
		.kind = SWAI_NIC_KIND_PUT, .flags = cp ? SWAI_NIC_F_CP : 0,
		.vport = j->peer[r].vport, .rtype = j->rtype, .dtype = j->dtype,
		.width = j->width, .dst = (unsigned int)to, .addr = addr, .v = *v,
	};

	d.v.count = j->count;
	aim(j, r, &d);
	return d;
}

/* Wait on rank @r's port for @cp CP packets: its children's (@up), or its parent's. */
static swcclResult_t notified(const struct swccl_nic_job *j, const struct swccl_nic_io *io,
			      int r, uint32_t cp, uint64_t at, uint64_t *t, bool up)
{
	struct swai_nic_desc d = {
		.kind = SWAI_NIC_KIND_BCAST, .vport = j->peer[r].vport,
		.dst_vport = j->peer[r].vport, .rtype = j->rtype, .dtype = j->dtype,
		.width = j->width, .src = j->peer[r].node, .dst = SWAI_NIC_NODE_NONE,
		.cpcnt = cp,
	};
	uint64_t e;
	swcclResult_t res = io->post(io->o, r, &d, 1, at);

	if (!res) {
		int done;

		res = io->wait(io->o, r, 1, &e, &done);
		if (res == swcclTimeout)
			return lost(j, r, up);
	}
	/* The host learns of it an interrupt and a return to user space later. */
	if (!res && e + j->sync_ns > *t)
		*t = e + j->sync_ns;
	return res;
}

static int children(const struct swccl_nic_job *j, int v, int *first)
{
	long f = (long)j->k * v + 1;

	*first = (int)f;
	return f >= j->nranks ? 0 : (int)(j->nranks - f < j->k ? j->nranks - f : j->k);
}

swcclResult_t swccl_nic_tree_host(const struct swccl_nic_job *j,
				  const struct swccl_nic_io *io, uint64_t *end_ns)
{
	struct swai_nic_vec acc[SWCCL_MAX_RANKS];
	uint64_t t[SWCCL_MAX_RANKS];
	bool up = j->coll != SWAI_NIC_TREE_BCAST, down = j->coll != SWAI_NIC_TREE_REDUCE;
	swcclResult_t res;
	int first, nch;

	*end_ns = 0;
	/* Up, leaves first: wait for the children, combine, send to the parent. */
	for (int v = j->nranks - 1; v >= 0; v--) {
		int r = rank_of(j, v);

		if (!j->local[r])
			continue;
		t[r] = j->start_ns + j->lag_ns[r];
		acc[r] = j->data[r];
		acc[r].count = j->count;
		if (!up)
			continue;
		nch = children(j, v, &first);
		if (nch) {
			res = notified(j, io, r, (uint32_t)nch, t[r], &t[r], true);
			if (res)
				return res;
			for (int i = 0; i < nch; i++) {
				struct swai_nic_vec cv = { .count = j->count };

				io->read_stage(io->o, r, (size_t)i * SWCCL_NIC_SLOT, cv.data,
					       SWAI_NIC_DATA_MAX);
				if (i == 0)
					acc[r] = cv;
				else
					swai_nic_alu(&acc[r], &cv, j->rtype, j->dtype, j->width);
			}
			swai_nic_alu(&acc[r], &j->data[r], j->rtype, j->dtype, j->width);
		}
		if (v) {
			int p = rank_of(j, (v - 1) / (int)j->k);
			struct swai_nic_desc d = put(j, r, p, j->peer[p].stage +
						     (uint64_t)((v - 1) % (int)j->k) *
						     SWCCL_NIC_SLOT, &acc[r], true);

			res = io->post(io->o, r, &d, 1, t[r]);
			if (!res)
				res = io->wait(io->o, r, 1, &(uint64_t){ 0 }, &(int){ 0 });
			if (res)
				return res;
		}
	}
	/* Down, root first: take the result, keep it, send it to the children. */
	for (int v = 0; v < j->nranks; v++) {
		struct swai_nic_desc d[SWAI_NIC_BRANCH_MAX + 1];
		int r = rank_of(j, v), n = 0;
		uint64_t e;

		if (!j->local[r])
			continue;
		if (v && down) {
			res = notified(j, io, r, 1, t[r], &t[r], false);
			if (res)
				return res;
			io->read_stage(io->o, r, (size_t)SWCCL_NIC_RES_SLOT * SWCCL_NIC_SLOT,
				       acc[r].data, SWAI_NIC_DATA_MAX);
		}
		if (j->recv[r] && (down || !v))
			d[n++] = put(j, r, r, j->recv[r], &acc[r], false);
		nch = down ? children(j, v, &first) : 0;
		for (int i = 0; i < nch; i++) {
			int c = rank_of(j, first + i);

			d[n++] = put(j, r, c, j->peer[c].stage +
				     (uint64_t)SWCCL_NIC_RES_SLOT * SWCCL_NIC_SLOT, &acc[r], true);
		}
		if (!n) {
			*end_ns = t[r] > *end_ns ? t[r] : *end_ns;
			continue;
		}
		res = io->post(io->o, r, d, n, t[r]);
		if (!res)
			res = io->wait(io->o, r, n, &e, &(int){ 0 });
		if (res)
			return res;
		*end_ns = e > *end_ns ? e : *end_ns;
	}
	return swcclSuccess;
}
