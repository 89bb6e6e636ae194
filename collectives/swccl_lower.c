// SPDX-License-Identifier: MIT
/*
 * swccl_lower.c - a schedule (tools/cluster/swai-sched.h) as one program per
 * rank, each rank on its own card, the cards joined by a fabric.
 *
 * Chunks: every block of c->count elements (one for IN or OUT of most
 * collectives, nranks for ReduceScatter's IN and AllGather's OUT) is cut
 * into s->chunks nearly equal chunks, chunk k of a block holding elements
 * [count k / C, count (k + 1) / C) -- so a range of chunks is one contiguous
 * run of bytes.  SCRATCH is laid out the same way in the rank's landing
 * area, after the messages.
 *
 * Messages: the k-th SEND from a to b is one COPY, over the fabric, into a
 * slot of b's landing area that is that message's alone in this call, then
 * a SIGNAL (+1) of b's counter for a.  b's matching RECV waits until that
 * counter has the messages a sent in earlier calls plus k, then copies the
 * slot out (RECV) or reduces it into its destination in LDM (RECV_REDUCE,
 * src first: the schedule's order, so results are bitwise reproducible).
 * A RECV is written by the sender straight into its destination, without
 * the slot (direct()), when whatever the receiver does to that range
 * before the receive is over before the sender's SEND can start.
 * The counters are on the receiving card, so a wait ends at the signal's
 * modeled time plus the route (datasheet §15.4).  A slot is reused only by
 * the next call: before its first message to b a rank waits until b has
 * started this call (b's "started" counter on the sender's card, which b
 * raises first thing in each call) -- so b's stream has finished whatever
 * came before, b's earlier calls included (their slots are free) and its
 * earlier work on the buffers a sender writes into directly.
 *
 * Order: a rank's steps run in the schedule's issue order
 * (swai_sched_issue_order: dependencies first, steps that cannot block
 * before receives that wait, per-peer order kept).
 *
 * In place (IN overlapping OUT) IN is first copied into the landing area,
 * so that a schedule may write OUT while IN is still to be read.  Avg
 * reduces as sum and divides the rank's output once at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "swai-sched.h"
#include "swccl_xcard.h"

#define SLOT_ALIGN	256ULL

uint64_t swccl_chunk_elem(const struct swccl_call *c, const struct swai_sched *s, uint64_t i)
{
	uint64_t C = s->chunks;

	return i / C * c->count + c->count * (i % C) / C;
}

void swccl_span(const struct swccl_call *c, const struct swai_sched *s, int r, int b,
		uint32_t off, uint32_t n, uint64_t *at, uint64_t *len)
{
	if (c->v && b != SWAI_BUF_SCRATCH) {
		const struct swccl_peers *pv = c->r[r].pv;

		*at = !pv ? 0 : b == SWAI_BUF_IN ? pv->send[off].va : pv->recv[off].va;
		*len = !pv ? 0 : (b == SWAI_BUF_IN ? pv->send_n[off] : pv->recv_n[off]) * c->esize;
		return;
	}
	*at = swccl_chunk_elem(c, s, off) * c->esize;
	*len = (swccl_chunk_elem(c, s, off + n) - swccl_chunk_elem(c, s, off)) * c->esize;
}

void swccl_internode_by(const struct swccl_call *c, const struct swai_sched *s,
			uint64_t (*send_bytes)(const void *o, int r, const struct swai_step *st),
			const void *o, unsigned long long *msgs, unsigned long long *bytes)
{
	*msgs = *bytes = 0;
	for (int r = 0; r < s->nranks; r++)
		for (int i = 0; i < s->ranks[r].nsteps; i++) {
			const struct swai_step *st = &s->ranks[r].steps[i];
			uint64_t len;

			if (st->op != SWAI_STEP_SEND || c->node[st->peer] == c->node[r])
				continue;
			len = send_bytes(o, r, st);
			if (c->v && !len)
				continue;
			(*msgs)++;
			*bytes += len;
		}
}

struct span_of {
	const struct swccl_call *c;
	const struct swai_sched *s;
};

/* A send's bytes where swccl_span puts its chunks (every process knows every rank's). */
static uint64_t span_bytes(const void *o, int r, const struct swai_step *st)
{
	const struct span_of *so = o;
	uint64_t at, len;

	swccl_span(so->c, so->s, r, st->src_buf, st->src_off, st->count, &at, &len);
	return len;
}

void swccl_internode(const struct swccl_call *c, const struct swai_sched *s,
		     unsigned long long *msgs, unsigned long long *bytes)
{
	struct span_of so = { c, s };

	swccl_internode_by(c, s, span_bytes, &so, msgs, bytes);
}

/* Bytes of rank @r's chunks [off, off + n) of buffer @b. */
static uint64_t range_bytes(const struct swccl_call *c, const struct swai_sched *s, int r,
			    int b, uint32_t off, uint32_t n)
{
	uint64_t at, len;

	swccl_span(c, s, r, b, off, n, &at, &len);
	return len;
}

/* Where in rank @r's buffer @b its chunk @off is, from the buffer's base. */
static uint64_t offset_of(const struct swccl_call *c, const struct swai_sched *s, int r, int b,
			  uint32_t off)
{
	uint64_t at, len;

	swccl_span(c, s, r, b, off, 1, &at, &len);
	return at;
}

static uint64_t align_up(uint64_t v)
{
	return (v + SLOT_ALIGN - 1) & ~(SLOT_ALIGN - 1);
}

/*
 * Rank @r's landing area: the slots of its receives in issue order, then
 * SCRATCH, then the private copy of IN.  @slot (if not NULL) gets each
 * step's slot offset; the area's size is returned.
 */
static uint64_t layout(const struct swccl_call *c, const struct swai_sched *s, int r,
		       uint64_t *slot, uint64_t *scratch, uint64_t *in_copy)
{
	const struct swai_sched_rank *rk = &s->ranks[r];
	uint64_t at = 0;

	for (int i = 0; i < rk->nsteps; i++) {
		const struct swai_step *st = &rk->steps[i];

		if (st->op != SWAI_STEP_RECV && st->op != SWAI_STEP_RECV_REDUCE)
			continue;
		if (slot)
			slot[i] = at;
		at = align_up(at + range_bytes(c, s, r, st->dst_buf, st->dst_off, st->count));
	}
	*scratch = at;
	at = align_up(at + swccl_chunk_elem(c, s, s->scratch_chunks) * c->esize);
	*in_copy = at;
	/* AllToAllv never runs in place: no copy of its input */
	return c->v ? at :
	       align_up(at + swccl_chunk_elem(c, s, swai_sched_buf_chunks(s, SWAI_BUF_IN)) *
			c->esize);
}

size_t swccl_lower_bytes(const struct swccl_call *c, const struct swai_sched *s)
{
	uint64_t most = 0, scr, inc;

	for (int r = 0; r < s->nranks; r++) {
		uint64_t b = layout(c, s, r, NULL, &scr, &inc);

		most = b > most ? b : most;
	}
	return (size_t)most;
}

/* Do rank @r's IN and OUT overlap (in place)? */
static bool in_place(const struct swccl_call *c, const struct swai_sched *s, int r)
{
	uint64_t in = c->r[r].send.va, out = c->r[r].recv.va;
	uint64_t ni = swccl_chunk_elem(c, s, swai_sched_buf_chunks(s, SWAI_BUF_IN)) * c->esize;
	uint64_t no = swccl_chunk_elem(c, s, swai_sched_buf_chunks(s, SWAI_BUF_OUT)) * c->esize;

	return !c->v && in && out && in < out + no && out < in + ni;
}

/* Where rank @r's buffer @b starts (AllToAllv's blocks: at their own addresses). */
static uint64_t base(const struct swccl_call *c, int r, int b, uint64_t scratch,
		     uint64_t in_copy, bool copied)
{
	if (c->v && b != SWAI_BUF_SCRATCH)
		return 0;
	switch (b) {
	case SWAI_BUF_IN:
		return copied ? c->xland[r] + in_copy : c->r[r].send.va;
	case SWAI_BUF_OUT:
		return c->r[r].recv.va;
	default:
		return c->xland[r] + scratch;
	}
}

/* The counters on rank @r's card: messages from @a, calls @a has started. */
static uint64_t msgs_from(const struct swccl_call *c, int r, int a)
{
	return c->xflags[r] + 8 * (uint64_t)a;
}

static uint64_t started_by(const struct swccl_call *c, int r, int a)
{
	return c->xflags[r] + 8 * (uint64_t)(SWCCL_MAX_RANKS + a);
}

/* dst = src op msg over @n elements, in LDM pieces (swccl_phases.c). */
static void reduce_into(struct swai_prog *p, const struct swccl_call *c, uint64_t dst,
			uint64_t src, uint64_t msg, uint64_t n)
{
	uint64_t items[2] = { src, msg };

	phase_fold(p, c, items, 2, 0, &dst, 1, false, n);
}

/*
 * Can the sender write RECV @j of rank @b straight into its destination?
 * When the schedule allows it (swai_sched_direct), the sender knows the
 * receiver's buffer (not across processes) and @b is not in place (its IN
 * is copied out when it starts, which a sender's write could overtake).
 */
static bool direct(const struct swccl_call *c, const struct swai_sched *s, int **match, int b,
		   int j)
{
	return !c->xremote && !in_place(c, s, b) && swai_sched_direct(s, match, b, j);
}

/*
 * Where rank @r's step @i, a SEND, writes at the receiver: the receive
 * @match says takes it -- its destination if direct, else its slot, laid
 * out as the receiver lays out its area.
 */
static uint64_t target_of(const struct swccl_call *c, const struct swai_sched *s, int **match,
			  int r, int i, uint64_t *slots)
{
	const struct swai_step *st = &s->ranks[r].steps[i];
	const struct swai_sched_rank *pk = &s->ranks[st->peer];
	int b = st->peer;
	uint64_t scr, inc;

	layout(c, s, b, slots, &scr, &inc);
	for (int j = 0; j < pk->nsteps; j++) {
		const struct swai_step *rv = &pk->steps[j];

		if ((rv->op != SWAI_STEP_RECV && rv->op != SWAI_STEP_RECV_REDUCE) ||
		    rv->peer != r || match[b][j] != i)
			continue;
		if (direct(c, s, match, b, j))
			return base(c, b, rv->dst_buf, scr, inc, false) +
			       offset_of(c, s, b, rv->dst_buf, rv->dst_off);
		return c->xland[b] + slots[j];
	}
	return 0;	/* swai_sched_match() pairs every send */
}

void swccl_lower(const struct swccl_call *c, const struct swai_sched *s, int **match, int r,
		 struct swai_prog *p)
{
	static __thread int order[4096];
	const struct swai_sched_rank *rk = &s->ranks[r];
	uint64_t slots_buf[4096], *slot = slots_buf, scr, inc, got[SWCCL_MAX_RANKS] = { 0 };
	bool credit[SWCCL_MAX_RANKS] = { false };
	bool copied = in_place(c, s, r);
	int nr = c->nranks;

	/* More steps than the stack buffer: a program that large cannot launch anyway. */
	if (rk->nsteps > (int)(sizeof(slots_buf) / sizeof(slots_buf[0]))) {
		p->nomem = true;
		return;
	}
	for (int q = 0; q < s->nranks; q++)
		if (s->ranks[q].nsteps > (int)(sizeof(slots_buf) / sizeof(slots_buf[0]))) {
			p->nomem = true;
			return;
		}
	prog_progress(p, c, r, SWCCL_STEP_START);
	/* This call has started here: the senders may write to us. */
	for (int b = 0; b < nr; b++)
		if (b != r && c->xreach[r] >> b & 1)
			swai_prog_push(p, swai_insn_signal(started_by(c, b, r), 1, false));
	layout(c, s, r, slot, &scr, &inc);
	if (copied)
		prog_copy(p, c->xland[r] + inc, c->r[r].send.va,
			  swccl_chunk_elem(c, s, swai_sched_buf_chunks(s, SWAI_BUF_IN)) * c->esize);
	if (swai_sched_issue_order(rk, order)) {
		p->nomem = true;
		return;
	}
	for (int n = 0; n < rk->nsteps; n++) {
		int i = order[n];
		const struct swai_step *st = &rk->steps[i];
		uint64_t src = base(c, r, st->src_buf, scr, inc, copied) +
			       offset_of(c, s, r, st->src_buf, st->src_off);
		uint64_t dst = base(c, r, st->dst_buf, scr, inc, copied) +
			       offset_of(c, s, r, st->dst_buf, st->dst_off);
		uint64_t len = st->op == SWAI_STEP_SEND ?
			       range_bytes(c, s, r, st->src_buf, st->src_off, st->count) :
			       range_bytes(c, s, r, st->dst_buf, st->dst_off, st->count);
		uint64_t peer_slots[4096];
		int a = st->peer;

		/* An AllToAllv's empty block is no message (both ends know: swccl_p2p.c) */
		if (c->v && !len)
			continue;
		switch (st->op) {
		case SWAI_STEP_SEND:
			if (!credit[a]) {
				prog_progress(p, c, r, SWCCL_STEP_XCREDIT + a);
				prog_wait(p, started_by(c, r, a), c->xcalls + 1);
				credit[a] = true;
			}
			prog_copy(p, target_of(c, s, match, r, i, peer_slots), src, len);
			swai_prog_push(p, swai_insn_signal(msgs_from(c, a, r), 1, false));
			break;
		case SWAI_STEP_RECV:
		case SWAI_STEP_RECV_REDUCE:
			prog_progress(p, c, r, SWCCL_STEP_XMSG + a);
			prog_wait(p, msgs_from(c, r, a), c->xsent[a][r] + ++got[a]);
			if (st->op == SWAI_STEP_RECV_REDUCE)
				reduce_into(p, c, dst, src, c->xland[r] + slot[i], len / c->esize);
			else if (!direct(c, s, match, r, i))	/* else the sender wrote it */
				prog_copy(p, dst, c->xland[r] + slot[i], len);
			break;
		case SWAI_STEP_COPY:
			prog_copy(p, dst, src, len);
			break;
		default:	/* SWAI_STEP_REDUCE: dst = dst op src */
			reduce_into(p, c, dst, dst, src, len / c->esize);
			break;
		}
	}
	if (c->op == swcclAvg && swai_coll_reduces(s->coll) &&
	    (s->coll != SWAI_COLL_REDUCE || r == s->root)) {
		uint64_t out = c->r[r].recv.va;

		phase_fold(p, c, &out, 1, 0, &out, 1, true,
			   swccl_chunk_elem(c, s, swai_sched_buf_chunks(s, SWAI_BUF_OUT)));
	}
	prog_progress(p, c, r, SWCCL_STEP_DONE);
}
