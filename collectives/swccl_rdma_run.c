// SPDX-License-Identifier: MIT
/*
 * swccl_rdma_run.c - one call of a schedule over RDMA WRITE, for this
 * process's ranks (swccl_rdma.h has the protocol: ready records, then
 * phase by phase copies, WRITEs and a count of what arrived).  This
 * process's ranks go in lockstep, stage by stage, so that ranks of one
 * process can wait for each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-gen.h"
#include "swai-nic.h"
#include "swccl_plan.h"
#include "swccl_rdma.h"
#include "swccl_xcard.h"

struct run {
	struct swccl_shared *sh;
	struct swccl_call *c;
	swcclComm_t comm0;
	const char *how;
	struct swai_sched s;
	int **match;		/* receive -> its send at the peer */
	int *rmatch[SWCCL_MAX_RANKS];	/* send -> its receive at the peer */
	int *level[SWCCL_MAX_RANKS];
	int nlevels;
	char *base[SWCCL_MAX_RANKS][SWAI_BUF_N];	/* this process's ranks' buffers */
};

static bool is_recv(const struct swai_step *st)
{
	return st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE;
}

/* Bytes into rank @r's buffer @b of its chunk @off; of chunks [off, off + n). */
static uint64_t at(const struct run *x, int r, int b, uint32_t off)
{
	uint64_t a, l;

	swccl_span(x->c, &x->s, r, b, off, 1, &a, &l);
	return a;
}

static uint64_t len(const struct run *x, int r, int b, uint32_t off, uint32_t n)
{
	uint64_t a, l;

	swccl_span(x->c, &x->s, r, b, off, n, &a, &l);
	return l;
}

/* Does rank @r's step @st move anything?  (An AllToAllv's empty blocks do not.) */
static bool live(const struct run *x, int r, const struct swai_step *st)
{
	if (!x->c->v)
		return true;
	return st->op == SWAI_STEP_SEND ? len(x, r, st->src_buf, st->src_off, st->count) :
	       len(x, r, st->dst_buf, st->dst_off, st->count);
}

/*
 * Every step's phase (swccl_rdma.h): 0, or one more than the receives it
 * waits for; a receive shares its send's, and a send waits as long as its
 * receive would.  A fixed point: the dependencies form a DAG.
 */
static const char *levels(struct run *x)
{
	const struct swai_sched *s = &x->s;
	bool changed = true;

	for (int pass = 0; changed; pass++) {
		if (pass > 4 * SWCCL_RDMA_PHASES + 4)
			return "a schedule of more phases than RDMA runs";
		changed = false;
		for (int r = 0; r < s->nranks; r++) {
			const struct swai_sched_rank *rk = &s->ranks[r];

			for (int i = 0; i < rk->nsteps; i++) {
				const struct swai_step *st = &rk->steps[i];
				int l = 0, *mine;

				for (uint32_t d = 0; d < st->ndeps; d++) {
					int j = (int)rk->deps[st->deps_at + d];
					int dl = x->level[r][j] + (is_recv(&rk->steps[j]) ? 1 : 0);

					l = dl > l ? dl : l;
				}
				if (st->op == SWAI_STEP_SEND) {
					int j = x->rmatch[r][i];

					mine = &x->level[st->peer][j];
					l = *mine > l ? *mine : l;
					if (l > x->level[r][i]) {
						x->level[r][i] = l;
						changed = true;
					}
					if (l > *mine) {
						*mine = l;
						changed = true;
					}
				} else if (!is_recv(st) && l > x->level[r][i]) {
					x->level[r][i] = l;
					changed = true;
				}
			}
		}
	}
	x->nlevels = 0;
	for (int r = 0; r < s->nranks; r++)
		for (int i = 0; i < s->ranks[r].nsteps; i++) {
			const struct swai_step *st = &s->ranks[r].steps[i];

			if (st->op == SWAI_STEP_REDUCE || st->op == SWAI_STEP_RECV_REDUCE)
				return "a schedule that reduces (AllToAll's do not)";
			if (x->level[r][i] + 1 > x->nlevels)
				x->nlevels = x->level[r][i] + 1;
		}
	return x->nlevels > SWCCL_RDMA_PHASES ? "a schedule of more phases than RDMA runs" :
	       NULL;
}

static void run_free(struct run *x)
{
	for (int r = 0; r < SWCCL_MAX_RANKS; r++) {
		free(x->rmatch[r]);
		free(x->level[r]);
	}
	if (x->match)
		swai_sched_match_free(&x->s, x->match);
	swai_sched_free(&x->s);
}

/* The schedule, its matches both ways and its phases. */
static swcclResult_t run_init(struct run *x)
{
	const struct swccl_call *c = x->c;
	struct swai_gen_opts o = { .node_of = c->node };
	char why[256];
	const char *bad;

	if (swai_gen_build(&x->s, x->how, SWAI_COLL_ALLTOALL, c->nranks, &o, why, sizeof(why)))
		return swccl_fail(x->comm0, swcclInvalidUsage, "AllToAll %s: %s", x->how, why);
	if (swai_sched_match(&x->s, &x->match, why, sizeof(why)))
		return swccl_fail(x->comm0, swcclInternalError, "AllToAll %s: %s", x->how, why);
	for (int r = 0; r < c->nranks; r++) {
		size_t n = (size_t)x->s.ranks[r].nsteps + 1;

		x->rmatch[r] = malloc(n * sizeof(int));
		x->level[r] = calloc(n, sizeof(int));
		if (!x->rmatch[r] || !x->level[r])
			return swccl_fail(x->comm0, swcclSystemError, "out of memory");
	}
	for (int r = 0; r < c->nranks; r++)
		for (int i = 0; i < x->s.ranks[r].nsteps; i++)
			if (is_recv(&x->s.ranks[r].steps[i]))
				x->rmatch[x->s.ranks[r].steps[i].peer][x->match[r][i]] = i;
	bad = levels(x);
	if (bad)
		return swccl_fail(x->comm0, swcclInvalidUsage, "AllToAll %s over the NICs: %s",
				  x->how, bad);
	return swcclSuccess;
}

/* (Re)allocate *@p to hold @want bytes on the current card. */
static int grow(void **p, size_t *have, size_t want)
{
	if (*have >= want)
		return 0;
	if (*p)
		sdaaFree(*p);
	*p = NULL;
	*have = 0;
	if (sdaaMalloc(p, want))
		return -1;
	*have = want;
	return 0;
}

/*
 * Rank @r before the call: its stream's earlier work done, its buffers
 * (an in-place input copied first: peers write its output while it still
 * sends from its input) and its scratch.
 */
static swcclResult_t prepare(struct run *x, int r)
{
	struct swccl_rdma *n = x->sh->rdma;
	const struct swccl_rank *rk = &x->c->r[r];
	uint64_t bytes = swccl_chunk_elem(x->c, &x->s, swai_sched_buf_chunks(&x->s, SWAI_BUF_IN)) *
			 x->c->esize;
	uint64_t sb = at(x, r, SWAI_BUF_SCRATCH, x->s.scratch_chunks);
	const char *sp = rk->sp, *rp = rk->rp;
	/* AllToAllv's blocks never overlap (swccl_p2p.c) */
	bool overlap = !x->c->v && sp < rp + bytes && rp < sp + bytes;

	if (sdaaSetDevice(rk->dev) || sdaaStreamSynchronize(rk->stream) ||
	    grow(&n->scratch[r], &n->scratch_bytes[r], sb ? sb : 256) ||
	    (overlap && (grow(&n->in[r], &n->in_bytes[r], bytes) ||
			 sdaaMemcpy(n->in[r], sp, bytes, sdaaMemcpyDefault))))
		return swccl_fail(x->comm0, swcclUnhandledSdaaError, "AllToAll: rank %d: %s", r,
				  sdaaGetErrorString(sdaaGetLastError()));
	x->base[r][SWAI_BUF_IN] = overlap ? n->in[r] : (char *)(uintptr_t)sp;
	x->base[r][SWAI_BUF_OUT] = (char *)rp;
	x->base[r][SWAI_BUF_SCRATCH] = n->scratch[r];
	return swcclSuccess;
}

static swcclResult_t post(struct run *x, int r, int port, const struct swai_nic_desc *d,
			  int nd)
{
	const sdaaNicPort_t *pt = &x->sh->rdma->port[r][port];
	uint8_t raw[64][SWAI_NIC_DESC_SIZE];
	unsigned int posted = 0;

	for (int i = 0; i < nd; i += 64) {
		int m = nd - i < 64 ? nd - i : 64;

		for (int k = 0; k < m; k++)
			swai_nic_desc_encode(raw[k], &d[i + k]);
		if (sdaaNicPost(pt, raw, (unsigned int)m, &posted))
			return swccl_fail(x->comm0, swcclUnhandledSdaaError, "AllToAll %s: rank %d "
					  "(node %u): posting %d NIC descriptors: %s", x->how, r,
					  pt->node, m, sdaaGetErrorString(sdaaGetLastError()));
	}
	return swcclSuccess;
}

/* A descriptor that fires when rank @r's @port has counted @cp more packets. */
static struct swai_nic_desc counted(const struct run *x, int r, int port, uint32_t cp)
{
	const sdaaNicPort_t *pt = &x->sh->rdma->port[r][port];

	return (struct swai_nic_desc){
		.kind = SWAI_NIC_KIND_BCAST, .vport = pt->vport, .dst_vport = pt->vport,
		.rtype = SWAI_NIC_OP_SUM, .dtype = SWAI_NIC_T_UINT, .width = 8,
		.src = pt->node, .dst = SWAI_NIC_NODE_NONE, .cpcnt = cp,
	};
}

/* Take @n completions of rank @r's @port; @waits names who a timeout waited for. */
static swcclResult_t reap(struct run *x, int r, int port, int n, const char *waits)
{
	const sdaaNicPort_t *pt = &x->sh->rdma->port[r][port];
	unsigned int ms = (unsigned int)(swccl_timeout_s() * 1000), got = 0;
	sdaaNicCompletion_t cq[64];
	sdaaError_t e;

	while (n > 0) {
		unsigned int want = n < 64 ? (unsigned int)n : 64;

		e = sdaaNicWait(pt, cq, want, want, ms, &got);
		if (e == sdaaErrorTimeout || (!e && got < want))
			return swccl_fail(x->comm0, swcclTimeout, "AllToAll #%llu (%s): rank %d "
					  "(NIC node %u) %s within SWCCL_TIMEOUT (%.0f s): a node "
					  "is lost, or its process never made this call",
					  (unsigned long long)x->c->seq, x->how, r, pt->node, waits,
					  swccl_timeout_s());
		if (e)
			return swccl_fail(x->comm0, swcclUnhandledSdaaError, "AllToAll: rank %d: "
					  "NIC wait: %s", r, sdaaGetErrorString(e));
		for (unsigned int i = 0; i < got; i++)
			if (cq[i].status)
				return swccl_fail(x->comm0, swcclRemoteError, "AllToAll #%llu "
						  "(%s): rank %d (NIC node %u): a descriptor of "
						  "port %d ended with NIC status %u",
						  (unsigned long long)x->c->seq, x->how, r,
						  pt->node, port, cq[i].status);
		n -= (int)got;
	}
	return swcclSuccess;
}

/* The ranks rank @r sends to (@to) or receives from, as a list in @who; how many. */
static int peers(const struct run *x, int r, bool to, int *who)
{
	bool seen[SWCCL_MAX_RANKS] = { false };
	int n = 0;

	for (int i = 0; i < x->s.ranks[r].nsteps; i++) {
		const struct swai_step *st = &x->s.ranks[r].steps[i];

		if ((to ? st->op == SWAI_STEP_SEND : is_recv(st)) && !seen[st->peer] &&
		    live(x, r, st)) {
			seen[st->peer] = true;
			who[n++] = st->peer;
		}
	}
	return n;
}

/*
 * The device address of chunk @off of rank @r's buffer @b: the caller's
 * buffers by their device addresses (host memory: its mapping), the
 * scratch and an input copy by their own.
 */
static uint64_t va_of(const struct run *x, int r, int b, uint32_t off)
{
	const struct swccl_rank *cr = &x->c->r[r];

	if (x->c->v && b != SWAI_BUF_SCRATCH)
		return at(x, r, b, off);
	if (b == SWAI_BUF_OUT)
		return cr->recv.va + at(x, r, b, off);
	if (b == SWAI_BUF_IN && x->base[r][b] == cr->sp)
		return cr->send.va + at(x, r, b, off);
	return (uint64_t)(uintptr_t)(x->base[r][b] + at(x, r, b, off));
}

/* Stage 1, rank @r: tell its senders where its buffers are; its wait for its receivers. */
static swcclResult_t ready_post(struct run *x, int r)
{
	struct swccl_rdma *n = x->sh->rdma;
	struct swai_nic_desc d[SWCCL_MAX_RANKS + 1];
	int who[SWCCL_MAX_RANKS], ns = peers(x, r, false, who), nd = 0;

	for (int i = 0; i < ns; i++) {
		const struct swccl_rdma_peer *q = &n->peer[who[i]];
		struct swccl_rdma_rec rec = {
			.out = x->c->r[r].recv.va, .scratch = (uint64_t)(uintptr_t)n->scratch[r],
			.seq = x->c->seq,
		};

		/* AllToAllv: the block from that sender itself, and its size to check */
		if (x->c->v) {
			rec.out = va_of(x, r, SWAI_BUF_OUT, (uint32_t)who[i]);
			rec.bytes = len(x, r, SWAI_BUF_OUT, (uint32_t)who[i], 1);
		}

		d[nd] = (struct swai_nic_desc){
			.kind = SWAI_NIC_KIND_PUT, .flags = SWAI_NIC_F_CP,
			.vport = n->port[r][0].vport, .dst_vport = q->vport[0], .key = q->key[0],
			.rtype = SWAI_NIC_OP_SUM, .dtype = SWAI_NIC_T_UINT, .width = 8,
			.src = n->port[r][0].node, .dst = q->node,
			.addr = q->mbox + (uint64_t)r * sizeof(rec),
		};
		d[nd].v.count = 4;
		memcpy(d[nd++].v.data, &rec, sizeof(rec));
	}
	if (peers(x, r, true, who))
		d[nd++] = counted(x, r, 0, (uint32_t)peers(x, r, true, who));
	return nd ? post(x, r, 0, d, nd) : swcclSuccess;
}

static swcclResult_t ready_wait(struct run *x, int r)
{
	const struct swccl_rdma_rec *mb = x->sh->rdma->mbox[r];
	int from[SWCCL_MAX_RANKS], who[SWCCL_MAX_RANKS];
	int ns = peers(x, r, false, from), nr = peers(x, r, true, who);
	char waits[320];
	size_t len = (size_t)snprintf(waits, sizeof(waits), "waited for its receivers");
	swcclResult_t res;

	for (int i = 0; i < nr && len < sizeof(waits); i++)
		len += (size_t)snprintf(waits + len, sizeof(waits) - len, " rank %d (NIC node %u)",
					who[i], x->sh->rdma->peer[who[i]].node);
	if (len < sizeof(waits))
		snprintf(waits + len, sizeof(waits) - len, " to start the call");
	res = reap(x, r, 0, ns + (nr > 0), waits);
	for (int i = 0; !res && i < nr; i++)
		if (mb[who[i]].seq != x->c->seq)
			res = swccl_fail(x->comm0, swcclInternalError, "AllToAll #%llu: rank %d's "
					 "record from rank %d is for call %llu", (unsigned long
					 long)x->c->seq, r, who[i], (unsigned long long)mb[who[i]].seq);
	return res;
}

/* Phase @k, rank @r: its local copies, its WRITEs, and its count of what comes. */
static swcclResult_t phase_post(struct run *x, int r, int k, int *posted)
{
	struct swccl_rdma *n = x->sh->rdma;
	const struct swai_sched_rank *rk = &x->s.ranks[r];
	const struct swccl_rank *cr = &x->c->r[r];
	struct swai_nic_desc *d = calloc((size_t)rk->nsteps * 4 + 1, sizeof(*d));
	uint32_t recvs = 0;
	swcclResult_t res = swcclSuccess;
	bool copied = false;
	int nd = 0;

	if (!d)
		return swccl_fail(x->comm0, swcclSystemError, "out of memory");
	for (int i = 0; i < rk->nsteps && !res; i++) {
		const struct swai_step *st = &rk->steps[i];
		uint64_t l = len(x, r, st->src_buf, st->src_off, st->count);

		if (x->level[r][i] != k || st->op != SWAI_STEP_COPY || !l)
			continue;
		if (sdaaMemcpyAsync(x->base[r][st->dst_buf] + at(x, r, st->dst_buf, st->dst_off),
				    x->base[r][st->src_buf] + at(x, r, st->src_buf, st->src_off),
				    l, sdaaMemcpyDefault, cr->stream))
			res = swccl_fail(x->comm0, swcclUnhandledSdaaError, "AllToAll: rank %d: "
					 "copy: %s", r, sdaaGetErrorString(sdaaGetLastError()));
		copied = true;
	}
	if (!res && copied && sdaaStreamSynchronize(cr->stream))
		res = swccl_fail(x->comm0, swcclUnhandledSdaaError, "AllToAll: rank %d: %s", r,
				 sdaaGetErrorString(sdaaGetLastError()));
	for (int i = 0; i < rk->nsteps && !res; i++) {
		const struct swai_step *st = &rk->steps[i];
		const struct swai_step *rs;
		const struct swccl_rdma_peer *q;
		const struct swccl_rdma_rec *rec;
		uint64_t src, dst, left;

		if (x->level[r][i] != k || !live(x, r, st))
			continue;
		if (is_recv(st))
			recvs++;
		if (st->op != SWAI_STEP_SEND)
			continue;
		q = &n->peer[st->peer];
		rec = &n->mbox[r][st->peer];
		rs = &x->s.ranks[st->peer].steps[x->rmatch[r][i]];
		src = va_of(x, r, st->src_buf, st->src_off);
		left = len(x, r, st->src_buf, st->src_off, st->count);
		/* The receiver's layout is this rank's (equal blocks); AllToAllv's it said. */
		dst = x->c->v ? rec->out : (rs->dst_buf == SWAI_BUF_OUT ? rec->out : rec->scratch) +
					  at(x, r, rs->dst_buf, rs->dst_off);
		if (x->c->v && left != rec->bytes) {
			res = swccl_fail(x->comm0, swcclInvalidUsage, "AllToAllv: rank %d sends %llu "
					 "bytes to rank %d, which receives %llu from it", r,
					 (unsigned long long)left, st->peer,
					 (unsigned long long)rec->bytes);
			break;
		}
		if (left > SWCCL_RDMA_MSG_MAX) {
			res = swccl_fail(x->comm0, swcclInvalidUsage, "AllToAll: a message of %llu "
					 "bytes to rank %d; at most %u KiB over the NICs (a peer "
					 "queues 4 MiB of WRITEs)", (unsigned long long)left, st->peer,
					 SWCCL_RDMA_MSG_MAX >> 10);
			break;
		}
		/* One WRITE a MiB, the last counted: delivery to a peer is in order. */
		for (; left;) {
			uint32_t l = left > SWAI_NIC_WRITE_MAX ? SWAI_NIC_WRITE_MAX : (uint32_t)left;

			d[nd++] = (struct swai_nic_desc){
				.kind = SWAI_NIC_KIND_WRITE, .flags = l == left ? SWAI_NIC_F_CP : 0,
				.vport = n->port[r][1 + k].vport, .dst_vport = q->vport[1 + k],
				.key = q->key[1 + k], .src = n->port[r][1 + k].node, .dst = q->node,
				.addr = dst, .src_addr = src, .len = l,
			};
			src += l;
			dst += l;
			left -= l;
		}
	}
	if (!res && recvs)
		d[nd++] = counted(x, r, 1 + k, recvs);
	if (!res && nd)
		res = post(x, r, 1 + k, d, nd);
	*posted = nd;
	free(d);
	return res;
}

/* What rank @r waits for in phase @k, for a timeout's message: its senders and their nodes. */
static void phase_senders(const struct run *x, int r, int k, char *buf, size_t n)
{
	const struct swai_sched_rank *rk = &x->s.ranks[r];
	bool seen[SWCCL_MAX_RANKS] = { false };
	size_t len = (size_t)snprintf(buf, n, "had not all its messages of phase %d, from", k);

	for (int i = 0; i < rk->nsteps && len < n; i++) {
		const struct swai_step *st = &rk->steps[i];

		if (!is_recv(st) || x->level[r][i] != k || !live(x, r, st) || seen[st->peer])
			continue;
		seen[st->peer] = true;
		len += (size_t)snprintf(buf + len, n - len, " rank %d (NIC node %u)", st->peer,
					x->sh->rdma->peer[st->peer].node);
	}
}

swcclResult_t swccl_rdma_run(struct swccl_shared *sh, struct swccl_call *c,
			     const struct swccl_plan *p, swcclComm_t comm0)
{
	struct run x = { .sh = sh, .c = c, .comm0 = comm0, .how = p->how };
	int posted[SWCCL_MAX_RANKS] = { 0 };
	swcclResult_t res = run_init(&x);

	for (int r = 0; r < c->nranks && !res; r++)
		if (!sh->comm[r]->remote)
			res = prepare(&x, r);
	for (int r = 0; r < c->nranks && !res; r++)
		if (!sh->comm[r]->remote)
			res = ready_post(&x, r);
	for (int r = 0; r < c->nranks && !res; r++)
		if (!sh->comm[r]->remote)
			res = ready_wait(&x, r);
	for (int k = 0; k < x.nlevels && !res; k++) {
		for (int r = 0; r < c->nranks && !res; r++)
			if (!sh->comm[r]->remote)
				res = phase_post(&x, r, k, &posted[r]);
		for (int r = 0; r < c->nranks && !res; r++) {
			char waits[320];

			if (sh->comm[r]->remote)
				continue;
			phase_senders(&x, r, k, waits, sizeof(waits));
			res = reap(&x, r, 1 + k, posted[r], waits);
		}
	}
	swccl_log(SWCCL_LOG_INFO, SWCCL_LAUNCH, "AllToAll #%llu (%s) over RDMA WRITE: %s, %d "
		  "phases", (unsigned long long)c->seq, p->how, res ? "failed" : "done",
		  x.nlevels);
	run_free(&x);
	return res;
}
