// SPDX-License-Identifier: MIT
/*
 * swccl_rdma_model.c - the plan's time of a schedule over RDMA WRITE: the
 * protocol (swccl_rdma_proto.c) run on the cards' own NIC engines
 * (tools/card/swai-nic.h, what each card's port runs), one per NIC node,
 * joined by a network that delivers every packet at the time its sender
 * stamped, each rank's host with a clock of its own as libsdaa keeps one
 * (a post at the host's time; a wait moving it past the completion it
 * takes, plus the host sync cost).  Every rank starts at one host time:
 * that is the cards' time exactly when the processes start the call
 * together; what it leaves out is what the card leaves out (congestion at a
 * receiving port).  The mailboxes hold the records the PUTs write, so the
 * WRITEs go where the cards' would; data is timed, not moved.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "swai-nic-net.h"
#include "swccl_rdma.h"

struct model {
	int nranks;
	const struct swccl_rdma_peer *peer;
	struct swai_nic_net *net;			/* an engine per card */
	uint64_t host_ns[SWCCL_MAX_RANKS];		/* each rank's host clock */
	uint32_t sync_ns;
	struct swai_nic_cqe *cq[SWCCL_MAX_RANKS][SWCCL_RDMA_PORTS];
	int ncq[SWCCL_MAX_RANKS][SWCCL_RDMA_PORTS], capq[SWCCL_MAX_RANKS][SWCCL_RDMA_PORTS];
	struct swccl_rdma_rec rec[SWCCL_MAX_RANKS][SWCCL_MAX_RANKS];
	uint32_t credit[SWCCL_MAX_RANKS][SWCCL_RDMA_READY_PORTS];
	uint64_t rounds;
	bool bad;
};

/* The rank and port a node's virtual port is, or -1. */
static int rank_port(const struct model *m, unsigned int node, unsigned int vport, int *port)
{
	for (int r = 0; r < m->nranks; r++)
		for (int k = 0; k < SWCCL_RDMA_PORTS; k++)
			if (m->peer[r].node == node && m->peer[r].vport[k] == vport) {
				*port = k;
				return r;
			}
	return -1;
}

/* Only the records matter: a PUT into a rank's mailbox lands in the model's. */
static int m_write(void *o, unsigned int node, unsigned int vport, uint64_t addr,
		   const void *buf, size_t len)
{
	struct model *m = o;
	int port, r = rank_port(m, node, vport, &port);
	uint64_t mb, off;

	if (r < 0)
		return SWAI_NIC_OK;
	mb = m->peer[r].mbox;
	off = addr - mb;
	if (addr >= mb && off < sizeof(m->rec[r]) && len <= sizeof(m->rec[r]) - off)
		memcpy((uint8_t *)m->rec[r] + off, buf, len);
	return SWAI_NIC_OK;
}

static void m_cqe(void *o, unsigned int node, const struct swai_nic_cqe *e)
{
	struct model *m = o;
	int port, r = rank_port(m, node, e->vport, &port);
	struct swai_nic_cqe **q;

	if (r < 0 || e->status != SWAI_NIC_OK) {
		m->bad = true;
		return;
	}
	q = &m->cq[r][port];
	if (m->ncq[r][port] == m->capq[r][port]) {
		int cap = m->capq[r][port] * 2 + 16;
		struct swai_nic_cqe *n = realloc(*q, (size_t)cap * sizeof(*n));

		if (!n) {
			m->bad = true;
			return;
		}
		*q = n;
		m->capq[r][port] = cap;
	}
	(*q)[m->ncq[r][port]++] = *e;
}

static const struct swai_nic_net_ops m_ops = { m_write, m_cqe };

static int io_post(void *o, int r, int port, const struct swai_nic_desc *d, int n)
{
	struct model *m = o;
	struct swai_nic *nic = swai_nic_net_nic(m->net, m->peer[r].node);

	(void)port;
	for (int i = 0; i < n; i++) {
		struct swai_nic_desc e = d[i];

		e.key = 0;	/* keys are the device's business */
		if (!nic || swai_nic_post(nic, &e, swai_timing_ns_to_ps(m->host_ns[r])))
			return -EIO;
	}
	return 0;
}

static int io_wait(void *o, int r, int port, int n, unsigned int *status)
{
	struct model *m = o;
	uint64_t e = 0;

	swai_nic_net_settle(m->net);
	*status = 0;
	if (m->bad || swai_nic_net_bad(m->net))
		return -EIO;
	if (m->ncq[r][port] < n)
		return -ETIME;
	for (int i = 0; i < n; i++)
		e = m->cq[r][port][i].time_ps > e ? m->cq[r][port][i].time_ps : e;
	memmove(m->cq[r][port], m->cq[r][port] + n,
		(size_t)(m->ncq[r][port] - n) * sizeof(m->cq[r][port][0]));
	m->ncq[r][port] -= n;
	/* the host learns of it a sync later (libsdaa's sdaaNicWait) */
	e = (e + SWAI_PS_PER_NS - 1) / SWAI_PS_PER_NS + m->sync_ns;
	m->host_ns[r] = e > m->host_ns[r] ? e : m->host_ns[r];
	return 0;
}

static const struct swccl_rdma_rec *io_rec(void *o, int r, int from)
{
	struct model *m = o;

	return &m->rec[r][from];
}

static void model_free(struct model *m)
{
	swai_nic_net_free(m->net);
	for (int r = 0; r < SWCCL_MAX_RANKS; r++)
		for (int k = 0; k < SWCCL_RDMA_PORTS; k++)
			free(m->cq[r][k]);
	free(m);
}

double swccl_rdma_model_from(struct swccl_shared *sh, const struct swccl_call *c, const char *how,
			     swcclComm_t comm0, uint64_t *host_ns)
{
	struct model *m = calloc(1, sizeof(*m));
	struct swccl_rdma_io io = { m, io_post, io_wait, io_rec };
	struct swccl_rdma_call x = { .sh = sh, .c = c, .comm0 = comm0, .how = how,
				     .peer = sh->rdma->peer };
	struct swai_timing_props props;
	char err[sizeof(comm0->lasterr)];
	unsigned int nodes[SWCCL_MAX_RANKS];
	double us = -1;

	if (!m)
		return -1;
	/* Every rank's AllToAllv counts are known (swccl_p2p.c); without them, no model. */
	for (int r = 0; r < c->nranks; r++)
		if (c->v && !c->r[r].pv) {
			free(m);
			return -1;
		}
	memcpy(err, comm0->lasterr, sizeof(err));
	/* The NIC's parameters: the timing model's defaults (datasheet §16.6). */
	swai_timing_props_init(&props);
	m->nranks = c->nranks;
	m->peer = sh->rdma->peer;
	m->sync_ns = c->tp.syncNs;
	x.credit = m->credit;
	x.rounds = &m->rounds;
	for (int r = 0; r < c->nranks; r++) {
		m->host_ns[r] = host_ns[r];
		x.local[r] = true;
		nodes[r] = m->peer[r].node;
	}
	m->net = swai_nic_net_new(nodes, c->nranks, &props, &m_ops, m);
	if (!m->net)
		goto out;
	if (swccl_rdma_call_init(&x))
		goto out;
	/* Every rank's buffers are placed like this rank's (swccl_enqueue.c). */
	for (int r = 0; r < c->nranks; r++) {
		x.in_copy[r] = swccl_rdma_in_place(&x, r);
		x.scratch_va[r] = 1ULL << 52;
		x.in_va[r] = 1ULL << 53;
	}
	if (!swccl_rdma_exchange(&x, &io) && !m->bad) {
		uint64_t end = 0;

		for (int r = 0; r < c->nranks; r++) {
			host_ns[r] = m->host_ns[r];
			end = m->host_ns[r] > end ? m->host_ns[r] : end;
		}
		us = (double)end / 1e3;
	}
out:
	/* A model that cannot say is no error of the call's. */
	memcpy(comm0->lasterr, err, sizeof(err));
	swccl_rdma_call_free(&x);
	model_free(m);
	return us;
}

double swccl_rdma_model(struct swccl_shared *sh, const struct swccl_call *c, const char *how,
			swcclComm_t comm0)
{
	uint64_t host_ns[SWCCL_MAX_RANKS] = { 0 };

	return swccl_rdma_model_from(sh, c, how, comm0, host_ns);
}
