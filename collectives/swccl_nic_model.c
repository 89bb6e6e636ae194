// SPDX-License-Identifier: MIT
/*
 * swccl_nic_model.c - the modeled time of a NIC tree (swccl_nic.h): the
 * trees run on the card's own NIC engines (tools/card/swai-nic.h, what the
 * device runs), one per node of the job's peers (ranks of one card share
 * its engine, each on its own port, as on the card), joined by a network
 * that delivers every packet at the time its sender stamped.  So the
 * prediction is the cards' time exactly.  The NIC's parameters are the
 * timing model's defaults (swai-timing.h); the host's sync cost is the
 * card's (@tp).
 */
#include <stdlib.h>
#include <string.h>

#include "swccl_nic.h"

#define MODEL_CQ	(SWAI_NIC_TREE_MAX_DESCS + 8)

struct model;

/* What a node's engine hands its callbacks. */
struct rank_ctx {
	struct model *m;
	int node;
};

struct model {
	const struct swccl_nic_job *j;
	struct swai_nic *nic[SWCCL_MAX_RANKS];	/* by node: peer[].node < nranks */
	uint8_t stage[SWCCL_MAX_RANKS][SWCCL_NIC_STAGE];
	struct swai_nic_pkt *pend;
	int npend, cap;
	struct swai_nic_cqe cq[SWCCL_MAX_RANKS][MODEL_CQ];
	int ncq[SWCCL_MAX_RANKS];
	bool bad;
};

/* Engine node n is rank n; a packet to node n is for rank n. */
static int m_send(void *o, const struct swai_nic_pkt *p)
{
	struct model *m = ((struct rank_ctx *)o)->m;

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

/* Staging is modeled; a result written to a rank's buffer is not kept. */
/* The rank on @node's port @vport. */
static int rank_at(const struct model *m, int node, unsigned int vport)
{
	for (int r = 0; r < m->j->nranks; r++)
		if (m->j->peer[r].node == (uint32_t)node && m->j->peer[r].vport == vport)
			return r;
	return 0;
}

static int m_write(void *o, unsigned int vport, uint64_t addr, const void *buf, size_t len)
{
	struct model *m = ((struct rank_ctx *)o)->m;
	int r = rank_at(m, ((struct rank_ctx *)o)->node, vport);
	uint64_t s = m->j->peer[r].stage;

	if (addr >= s && addr - s <= SWCCL_NIC_STAGE && len <= SWCCL_NIC_STAGE - (addr - s))
		memcpy(m->stage[r] + (addr - s), buf, len);
	return SWAI_NIC_OK;
}

static int m_read(void *o, unsigned int vport, uint64_t addr, void *buf, size_t len)
{
	(void)o;
	(void)vport;
	(void)addr;
	memset(buf, 0, len);
	return SWAI_NIC_OK;
}

static void m_cqe(void *o, const struct swai_nic_cqe *e)
{
	struct model *m = ((struct rank_ctx *)o)->m;
	int r = rank_at(m, ((struct rank_ctx *)o)->node, e->vport);

	if (m->ncq[r] == MODEL_CQ || e->status != SWAI_NIC_OK) {
		m->bad = true;
		return;
	}
	m->cq[r][m->ncq[r]++] = *e;
}

static const struct swai_nic_ops m_ops = { m_send, m_write, m_read, m_cqe };

/* Deliver what is in flight, in the order sent (the times are the senders'). */
static void settle(struct model *m)
{
	for (int i = 0; i < m->npend; i++) {
		struct swai_nic_pkt p = m->pend[i];

		if (p.dst < (unsigned int)m->j->nranks && m->nic[p.dst])
			swai_nic_receive(m->nic[p.dst], &p, p.time_ps);
	}
	m->npend = 0;
}

static swcclResult_t io_post(void *o, int r, const struct swai_nic_desc *d, int n,
			     uint64_t at_ns)
{
	struct model *m = o;

	for (int i = 0; i < n; i++) {
		struct swai_nic_desc e = d[i];

		e.key = 0;	/* keys are the device's business */
		if (swai_nic_post(m->nic[m->j->peer[r].node], &e, swai_timing_ns_to_ps(at_ns)))
			return swcclInternalError;
	}
	return swcclSuccess;
}

static swcclResult_t io_wait(void *o, int r, int n, uint64_t *end_ns, int *done)
{
	struct model *m = o;
	uint64_t e = 0;

	settle(m);
	*done = m->ncq[r] < n ? m->ncq[r] : n;
	if (m->bad || m->ncq[r] < n)
		return swcclInternalError;
	for (int i = 0; i < n; i++)
		e = m->cq[r][i].time_ps > e ? m->cq[r][i].time_ps : e;
	memmove(m->cq[r], m->cq[r] + n, (size_t)(m->ncq[r] - n) * sizeof(m->cq[r][0]));
	m->ncq[r] -= n;
	*end_ns = (e + SWAI_PS_PER_NS - 1) / SWAI_PS_PER_NS;
	return swcclSuccess;
}

static void io_read(void *o, int r, size_t off, void *buf, size_t len)
{
	struct model *m = o;

	memcpy(buf, m->stage[r] + off, len);
}

swcclResult_t swccl_nic_model(const struct swccl_nic_job *j, swcclAlgo_t algo,
			      const struct sdaaTimingParams *tp, uint64_t *ns)
{
	struct swai_timing_props props;
	struct swccl_nic_job all = *j;
	struct model *m = calloc(1, sizeof(*m));
	struct rank_ctx ctx[SWCCL_MAX_RANKS];
	struct swccl_nic_io io = { m, io_post, io_wait, io_read };
	swcclResult_t res = swcclSystemError;

	if (!m)
		return res;
	swai_timing_props_init(&props);
	/* Every rank runs here, from time 0. */
	for (int r = 0; r < j->nranks; r++)
		all.local[r] = true;
	all.start_ns = 0;
	all.sync_ns = tp->syncNs;
	m->j = &all;
	for (int r = 0; r < j->nranks; r++) {
		int nd = (int)j->peer[r].node;

		if (nd >= j->nranks)
			goto out;
		if (m->nic[nd])
			continue;
		ctx[nd] = (struct rank_ctx){ m, nd };
		m->nic[nd] = swai_nic_new((unsigned int)nd, &props, &m_ops, &ctx[nd]);
		if (!m->nic[nd])
			goto out;
	}
	res = (algo == swcclAlgoHost ? swccl_nic_tree_host : swccl_nic_tree_offload)(&all, &io, ns);
out:
	for (int nd = 0; nd < j->nranks; nd++)
		swai_nic_free(m->nic[nd]);
	free(m->pend);
	free(m);
	return res;
}
