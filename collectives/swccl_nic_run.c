// SPDX-License-Identifier: MIT
/*
 * swccl_nic_run.c - a call over the NIC transport (swccl_nic.h): its plan
 * (the algorithm, and its time from the NIC engines' model) and its run on
 * the cards' ports.
 *
 * The call is host-synchronous, as the paper's RING is: each local rank's
 * stream is synchronised first (the call follows the work before it), its
 * input read by the host (pinned host memory directly; device memory with
 * a copy), and the call returns when every local rank's descriptors have
 * completed, its result in its buffer.  The host's modeled time then is
 * the last completion's plus the host sync cost (sdaaNicWait).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <drm/swai_accel.h>

#include "swccl_nic.h"
#include "swccl_plan.h"

struct real {
	struct swccl_shared *sh;
	swcclComm_t comm0;
	swcclResult_t res;	/* what failed, when a post or wait did (-EIO) */
	int set;		/* the ports this tree takes (SWCCL_NIC_SETS) */
};

/* One call as the trees see it (swai-nic-run.h), with the arrays it points to. */
struct nic_call {
	struct swai_nic_job j;
	bool local[SWCCL_MAX_RANKS];
	uint64_t recv[SWCCL_MAX_RANKS];
	struct swai_nic_vec data[SWCCL_MAX_RANKS];
	uint64_t lag[SWCCL_MAX_RANKS];
};

static int r_post(void *o, int r, const struct swai_nic_desc *d, int n, uint64_t at_ns)
{
	struct real *x = o;
	uint8_t raw[SWAI_NIC_TREE_MAX_DESCS][SWAI_NIC_DESC_SIZE];
	const sdaaNicPort_t *port = &x->sh->nic->port[x->set][r];
	unsigned int posted = 0;
	sdaaError_t e;

	for (int i = 0; i < n; i++)
		swai_nic_desc_encode(raw[i], &d[i]);
	e = sdaaNicPostAt(port, raw, (unsigned int)n, at_ns, &posted);
	if (e) {
		x->res = swccl_fail(x->comm0, swcclUnhandledSdaaError, "rank %d (card %d, node %u): posting "
			   "%d NIC descriptors: %s (%u taken)", r, x->sh->comm[r]->card,
			   port->node, n, sdaaGetErrorString(e), posted);
		return -EIO;
	}
	return 0;
}

static const char *status_name(unsigned int s)
{
	static const char *const n[] = {
		"OK", "E_MISSING (a child's packet missing)", "E_MISMATCH (a child of another "
		"type)", "E_OVERRUN (a slot full)", "E_ROUTE (a node the network does not "
		"reach)", "E_FAULT (an address not mapped)", "E_COUNTER", "E_RESET (a port "
		"reset)", "E_KEY (a closed port or a wrong key)",
	};

	return s < sizeof(n) / sizeof(n[0]) ? n[s] : "?";
}

static int r_wait(void *o, int r, int n, uint64_t *end_ns, int *done)
{
	struct real *x = o;
	sdaaNicCompletion_t cq[SWAI_NIC_TREE_MAX_DESCS];
	const sdaaNicPort_t *port = &x->sh->nic->port[x->set][r];
	unsigned int got = 0, ms = (unsigned int)(swccl_timeout_s() * 1000);
	sdaaError_t e;

	e = sdaaNicWait(port, cq, (unsigned int)n, (unsigned int)n, ms, &got);
	*done = (int)got;
	if (e == sdaaErrorTimeout || (!e && got < (unsigned int)n))
		return -ETIME;
	if (e) {
		x->res = swccl_fail(x->comm0, swcclUnhandledSdaaError, "rank %d: NIC wait: %s", r,
			   sdaaGetErrorString(e));
		return -EIO;
	}
	*end_ns = 0;
	for (unsigned int i = 0; i < got; i++) {
		if (cq[i].status) {
			x->res = swccl_fail(x->comm0, swcclRemoteError, "rank %d (card %d, node %u): NIC "
				   "descriptor %u ended %s", r, x->sh->comm[r]->card, port->node,
				   cq[i].index, status_name(cq[i].status));
			return -EIO;
		}
		*end_ns = cq[i].timeNs > *end_ns ? cq[i].timeNs : *end_ns;
	}
	return 0;
}

static void r_read(void *o, int r, size_t off, void *buf, size_t len)
{
	struct real *x = o;

	memcpy(buf, (uint8_t *)x->sh->nic->stage[r] + off, len);
}

/* The job of @c as the trees see it, its first piece's shape, no inputs yet. */
static void job_of(struct swccl_shared *sh, const struct swccl_call *c, struct nic_call *x)
{
	struct swai_nic_job *j = &x->j;

	memset(x, 0, sizeof(*x));
	/*
	 * Every call is AllReduce trees: up, then down.  A Reduce's or a
	 * Broadcast's ranks would otherwise leave it at different times, and
	 * one already in the next call could overwrite a peer's staging or
	 * count towards its threshold before that peer took this call's.  So a
	 * Reduce keeps only the root's result, and a Broadcast is an AllReduce
	 * of the bits by XOR with every other rank giving zeros: the root's
	 * bits exactly, whatever the type (swccl_nic_types, swccl_nic_piece.c).
	 */
	j->coll = SWAI_NIC_TREE_ALLREDUCE;
	j->nranks = c->nranks;
	j->k = swccl_nic_branch();
	swccl_nic_types(c, &j->rtype, &j->dtype, &j->width);
	j->sync_ns = c->tp.syncNs;
	j->local = x->local;
	j->recv = x->recv;
	j->data = x->data;
	j->lag_ns = x->lag;
	for (int r = 0; r < c->nranks; r++)
		x->local[r] = !sh->comm[r]->remote;
	if (sh->nic)
		j->peer = sh->nic->peer[0];
}

/* @x's job for piece @p: its root, count, results' places and (@in) inputs. */
static void job_piece(struct swccl_shared *sh, const struct swccl_call *c,
		      const struct swccl_nic_piece *p, bool in, struct nic_call *x)
{
	size_t bytes = (size_t)p->count * c->esize;

	x->j.root = p->root;
	x->j.count = p->count;
	for (int r = 0; r < c->nranks; r++) {
		bool gives = p->all_give || r == p->root;

		x->recv[r] = p->all_keep || r == p->root ? c->r[r].recv.va + p->out_off : 0;
		x->data[r].count = p->count;
		memset(x->data[r].data, 0, sizeof(x->data[r].data));
		if (in && gives && x->local[r] && bytes)
			memcpy(x->data[r].data, (uint8_t *)sh->nic->in[r] + p->in_off, bytes);
	}
}

/*
 * Rank @r waited SWCCL_TIMEOUT for a packet: from its children (@up) or
 * its parent.  Name them and their nodes: one of them is lost.
 */
static swcclResult_t lost(const struct swai_nic_job *j, int r, bool up, swcclComm_t comm0)
{
	int v = (r - j->root + j->nranks) % j->nranks, first, nch, n = 0;
	char who[256] = "";

	if (!up && v) {
		int p = swai_nic_run_rank(j, (v - 1) / (int)j->k);

		snprintf(who, sizeof(who), "its parent, rank %d (node %u)", p, j->peer[p].node);
	} else {
		nch = swai_nic_run_children(j, v, &first);
		n = snprintf(who, sizeof(who), "its children:");
		for (int i = 0; i < nch && n < (int)sizeof(who); i++) {
			int c = swai_nic_run_rank(j, first + i);

			n += snprintf(who + n, sizeof(who) - (size_t)n, " rank %d (node %u)", c,
				      j->peer[c].node);
		}
	}
	return swccl_fail(comm0, swcclTimeout, "rank %d (node %u) had no packet from %s within "
			  "SWCCL_TIMEOUT (%.0f s): that node is lost, or its process never made "
			  "this call", r, j->peer[r].node, who, swccl_timeout_s());
}

/*
 * The modeled cost of bringing an input on a card to the host first: a
 * COPY job (datasheet §14: it starts a launch after the host, costs a step
 * and the bytes over PCIe, ends on a whole ns), then the host's wait for
 * it.  Each process copies its own ranks' inputs, and its host starts the
 * tree after them: in the model, rank r starts that much later -- every
 * rank of a process if any of its ranks copies (one host clock).
 */
static void input_lags(struct swccl_shared *sh, const struct swccl_call *c,
		       struct nic_call *j)
{
	uint64_t bytes = swccl_nic_in_bytes(c), ps, copy;
	bool any = false;

	ps = ((uint64_t)c->tp.launchNs + c->tp.stepNs) * 1000 +
	     (bytes * 1000000 + c->tp.pcieMBps - 1) / c->tp.pcieMBps;
	copy = (ps + 999) / 1000 + c->tp.syncNs;
	for (int r = 0; r < c->nranks; r++) {
		/* Remote ranks' buffers mirror ours (swccl_enqueue.c). */
		bool has = bytes && c->r[r].send.tier != SWCCL_HOST &&
			   (c->coll != SWCCL_BROADCAST || r == c->root);

		j->lag[r] = has ? copy : 0;
		any |= has && !sh->comm[r]->remote;
	}
	if (!sh->xproc)
		for (int r = 0; r < c->nranks; r++)
			j->lag[r] = any ? copy : 0;
}

/*
 * The modeled time of @c's pieces, one after another: each from the hosts'
 * start to its last completion, then the host learning of it a sync later
 * and starting the next.  Only the first waits for the inputs' copies.
 * Pieces of one root and count cost the same: each such shape is modeled
 * once (at most two a block: full, and the last).
 */
static int model_pieces(struct swccl_shared *sh, const struct swccl_call *c, struct nic_call *j,
			bool host, uint64_t *total)
{
	struct shape { int root; unsigned int count; uint64_t ns; } seen[2 * SWCCL_MAX_RANKS];
	struct swai_timing_props props;
	size_t n = swccl_nic_pieces(c), nseen = 0, s;
	uint64_t lag[SWCCL_MAX_RANKS];

	/* The NIC's parameters: the timing model's defaults (datasheet §16.6). */
	swai_timing_props_init(&props);
	memcpy(lag, j->lag, sizeof(lag));
	*total = 0;
	for (size_t i = 0; i < n; i++) {
		struct swccl_nic_piece pc;
		uint64_t ns = 0;

		swccl_nic_piece(c, i, &pc);
		for (s = 0; s < nseen; s++)
			if (seen[s].root == pc.root && seen[s].count == pc.count)
				break;
		if (i && s < nseen) {
			*total += seen[s].ns + c->tp.syncNs;
			continue;
		}
		job_piece(sh, c, &pc, false, j);
		memcpy(j->lag, lag, sizeof(lag));
		if (i)
			memset(j->lag, 0, sizeof(j->lag));
		if (swai_nic_model(&j->j, host, &props, &ns))
			return -1;
		if (i && nseen < sizeof(seen) / sizeof(seen[0]))
			seen[nseen++] = (struct shape){ pc.root, pc.count, ns };
		*total += ns + c->tp.syncNs;
	}
	return 0;
}

swcclResult_t swccl_nic_plan(struct swccl_shared *sh, struct swccl_call *c,
			     struct swccl_plan *p, swcclComm_t comm0)
{
	struct swai_nic_peer fake[SWCCL_MAX_RANKS];
	struct nic_call j;
	const char *why = swccl_nic_unsupported(c, c->want);
	uint64_t ns = 0;

	if (why)
		return swccl_fail(comm0, swcclInvalidUsage, "%s: %s", swcclAlgoName(c->want),
				  why);
	job_of(sh, c, &j);
	/*
	 * The model runs on the ports' real places (ranks of one card share
	 * its node and reach each other without a wire), the nodes numbered
	 * from 0 in the order they first appear.
	 */
	if (swccl_nic_setup(sh, comm0))
		return swcclUnhandledSdaaError;
	for (int r = 0; r < c->nranks; r++) {
		uint32_t node = (uint32_t)r;

		for (int q = 0; q < r; q++)
			if (sh->nic->peer[0][q].node == sh->nic->peer[0][r].node)
				node = fake[q].node;
		fake[r] = (struct swai_nic_peer){ .node = node,
						  .vport = sh->nic->peer[0][r].vport };
	}
	j.j.peer = fake;
	input_lags(sh, c, &j);
	if (model_pieces(sh, c, &j, c->want == swcclAlgoHost, &ns))
		return swccl_fail(comm0, swcclInternalError, "%s: the NIC model failed",
				  swcclAlgoName(c->want));
	p->algo = c->want;
	p->how = swcclAlgoName(c->want);
	p->us = (double)ns / 1000.0;
	p->transfer_us = 0;
	p->launches = 0;
	p->host_syncs = 1;
	p->fused = -1;
	swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "%zu x %s on %d ranks over the NICs: %s, "
		  "%zu trees of degree %u, %.3f us", c->count, swccl_type_name(c->dtype),
		  c->nranks, p->how, swccl_nic_pieces(c), j.j.k, p->us);
	return swcclSuccess;
}

bool swccl_nic_auto(struct swccl_shared *sh, struct swccl_call *c, const struct swccl_plan *best,
		    struct swccl_plan *p, swcclComm_t comm0)
{
	struct swccl_plan q = { .fused = -1 };
	char err[sizeof(comm0->lasterr)];

	if (swccl_nic_unsupported(c, swcclAlgoNic) || !swccl_nic_cards(sh, c))
		return false;
	memcpy(err, comm0->lasterr, sizeof(err));
	c->want = swcclAlgoNic;
	if (swccl_nic_plan(sh, c, &q, comm0)) {
		memcpy(comm0->lasterr, err, sizeof(err));
		c->want = swcclAlgoAuto;
		return false;
	}
	c->want = swcclAlgoAuto;
	if (best && best->us <= q.us)
		return false;
	swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "%s #%llu: NIC %.3f us%s%s -> NIC", swcclAlgoName(
		  swcclAlgoAuto), (unsigned long long)c->seq, q.us,
		  best ? ", beats " : " (nothing else runs)", best ? best->how : "");
	*p = q;
	return true;
}

/*
 * Every local rank's input to the host, whole: the cards' in one copy per
 * rank, all queued at once on the ranks' streams (after the work before
 * the call); then every stream is synchronised, so the call follows it.
 * Host memory too is copied, so an in-place call cannot read a result.
 */
static swcclResult_t read_inputs(struct swccl_shared *sh, const struct swccl_call *c,
				 const bool *local, swcclComm_t comm0)
{
	struct swccl_nic *n = sh->nic;
	size_t bytes = swccl_nic_in_bytes(c);

	for (int r = 0; r < c->nranks; r++) {
		const void *sp = c->coll == SWCCL_BROADCAST && r != c->root ? NULL : c->r[r].sp;

		if (!local[r] || !sp || !bytes)
			continue;
		if (n->in_bytes[r] < bytes) {
			if (n->in[r])
				sdaaFreeHost(n->in[r]);
			n->in[r] = NULL;
			n->in_bytes[r] = 0;
			if (sdaaMallocHost(&n->in[r], bytes))
				return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d: cannot "
						  "pin %zu bytes for its input: %s", r, bytes,
						  sdaaGetErrorString(sdaaGetLastError()));
			n->in_bytes[r] = bytes;
		}
		if (c->r[r].send.tier == SWCCL_HOST)
			memcpy(n->in[r], sp, bytes);
		else if (sdaaSetDevice(c->r[r].dev) ||
			 sdaaMemcpyAsync(n->in[r], sp, bytes, sdaaMemcpyDeviceToHost,
					 c->r[r].stream))
			return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d: reading its "
					  "input: %s", r, sdaaGetErrorString(sdaaGetLastError()));
	}
	for (int r = 0; r < c->nranks; r++)
		if (local[r] && (sdaaSetDevice(c->r[r].dev) ||
				 sdaaStreamSynchronize(c->r[r].stream)))
			return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d: %s", r,
					  sdaaGetErrorString(sdaaGetLastError()));
	return swcclSuccess;
}

swcclResult_t swccl_nic_run(struct swccl_shared *sh, struct swccl_call *c,
			    struct swccl_plan *p, swcclComm_t comm0)
{
	struct real x = { sh, comm0, swcclSuccess, 0 };
	struct swai_nic_io io = { &x, r_post, r_wait, r_read };
	struct swai_nic_stall stall = { 0, false };
	struct nic_call j;
	size_t n = swccl_nic_pieces(c), i;
	swcclResult_t res;
	uint64_t end = 0;
	int ret = 0, l = 0;

	res = swccl_nic_setup(sh, comm0);
	if (res)
		return res;
	job_of(sh, c, &j);
	res = read_inputs(sh, c, j.local, comm0);
	if (res)
		return res;
	while (!j.local[l])
		l++;
	for (i = 0; i < n && !ret; i++) {
		struct swccl_nic_piece pc;
		struct sdaaTimingParams tp;

		/*
		 * Every post at an explicit time: the piece starts at the host's
		 * clock now, and each HOST rank's host then keeps its own (one
		 * process may stand for several hosts).  The input copies are
		 * behind: the real hosts' lags are in their clocks.
		 */
		if (sdaaDeviceGetTimingParams(&tp, c->r[l].dev))
			return swccl_fail(comm0, swcclUnhandledSdaaError, "%s",
					  sdaaGetErrorString(sdaaGetLastError()));
		swccl_nic_piece(c, i, &pc);
		job_piece(sh, c, &pc, true, &j);
		x.set = (int)(sh->nic->trees++ % SWCCL_NIC_SETS);
		j.j.peer = sh->nic->peer[x.set];
		j.j.start_ns = tp.hostClockNs;
		ret = (p->algo == swcclAlgoHost ? swai_nic_run_host :
		       swai_nic_run_offload)(&j.j, &io, &end, &stall);
	}
	res = !ret ? swcclSuccess : ret == -ETIME ? lost(&j.j, stall.rank, stall.up, comm0) :
	      ret == -EIO && x.res ? x.res :
	      swccl_fail(comm0, swcclInternalError, "the NIC tree: error %d", ret);
	swccl_log(SWCCL_LOG_INFO, SWCCL_LAUNCH, "%s #%llu over the NICs (%s): %s after %zu of "
		  "%zu trees, last completion at %llu ns", swcclAlgoName(p->algo),
		  (unsigned long long)c->seq, p->how, res ? "failed" : "done", i, n,
		  (unsigned long long)end);
	return res;
}
