// SPDX-License-Identifier: MIT
/*
 * swccl_rdma_proto.c - the protocol of a schedule over RDMA WRITE
 * (swccl_rdma_proto.h): its phases, the ready records, and phase by phase the
 * copies and messages as WRITEs and the counts of what arrived.  What
 * carries it is a struct swccl_rdma_io: the cards' ports (swccl_rdma_run.c)
 * or their NIC engines (swccl_rdma_model.c), so the plan's time is the
 * cards'.  The ranks x->local says go in lockstep, stage by stage, so that
 * ranks of one process can wait for each other.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-gen.h"
#include "swccl_kind.h"
#include "swccl_rdma_proto.h"
#include "swccl_xcard.h"

static bool is_recv(const struct swai_step *st)
{
	return st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE;
}

/* The call's name in messages: AllToAll, AllToAllv, AllGather, Broadcast. */
static const char *cname(const struct swccl_rdma_call *x)
{
	return x->c->kind->name(x->c);
}

/* Is rank @r's buffer @b an AllToAllv's scratch, laid out by its blocks (x->vscratch)? */
static bool vscratch(const struct swccl_rdma_call *x, int b)
{
	return x->c->v && b == SWAI_BUF_SCRATCH;
}

/* Bytes into rank @r's buffer @b of its chunk @off; of chunks [off, off + n). */
static uint64_t at(const struct swccl_rdma_call *x, int r, int b, uint32_t off)
{
	uint64_t a, l;

	if (vscratch(x, b))
		return x->vscratch[r] ? x->vscratch[r][off] : 0;
	swccl_span(x->c, &x->s, r, b, off, 1, &a, &l);
	return a;
}

static uint64_t len(const struct swccl_rdma_call *x, int r, int b, uint32_t off, uint32_t n)
{
	uint64_t a, l;

	if (vscratch(x, b))
		return x->vscratch[r] ? x->vscratch[r][off + n] - x->vscratch[r][off] : 0;
	swccl_span(x->c, &x->s, r, b, off, n, &a, &l);
	return l;
}

/* Does rank @r's step @st move anything?  (An AllToAllv's empty blocks do not.) */
static bool live(const struct swccl_rdma_call *x, int r, const struct swai_step *st)
{
	if (!x->c->v)
		return true;
	return st->op == SWAI_STEP_SEND || st->op == SWAI_STEP_COPY ?
	       len(x, r, st->src_buf, st->src_off, st->count) :
	       len(x, r, st->dst_buf, st->dst_off, st->count);
}

/* The part of [0, @n) in this round's window: its length, its start in *lo. */
static uint64_t in_window(const struct swccl_rdma_call *x, uint64_t n, uint64_t *lo)
{
	uint64_t a = x->win_off < n ? x->win_off : n;

	*lo = a;
	return x->win_len < n - a ? x->win_len : n - a;
}

/* Does rank @r's step @st move anything in this round? */
static bool live_now(const struct swccl_rdma_call *x, int r, const struct swai_step *st)
{
	bool src = st->op == SWAI_STEP_SEND || st->op == SWAI_STEP_COPY;
	int b = src ? st->src_buf : st->dst_buf;
	uint32_t off = src ? st->src_off : st->dst_off;
	uint64_t lo;

	for (uint32_t c = off; c < off + st->count; c++)
		if (in_window(x, len(x, r, b, c, 1), &lo))
			return true;
	return false;
}

/*
 * The device address of chunk @off of rank @r's buffer @b: the caller's
 * buffers (host memory: its mapping; AllToAllv: each block's own), the
 * scratch, or the input's copy.
 */
static uint64_t va_of(const struct swccl_rdma_call *x, int r, int b, uint32_t off)
{
	const struct swccl_rank *cr = &x->c->r[r];

	if (x->c->v && b != SWAI_BUF_SCRATCH)
		return at(x, r, b, off);
	if (b == SWAI_BUF_OUT)
		return cr->recv.va + at(x, r, b, off);
	if (b == SWAI_BUF_IN)
		return (x->in_copy[r] ? x->in_va[r] : cr->send.va) + at(x, r, b, off);
	return x->scratch_va[r] + at(x, r, b, off);
}

/*
 * Every step's phase: 0, or one more than the receives and copies it
 * waits for (a copy is a WRITE to itself, counted with the phase's
 * messages); a receive shares its send's, and a send waits as long as its
 * receive would.  A fixed point: the dependencies form a DAG.
 */
static const char *levels(struct swccl_rdma_call *x)
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
					const struct swai_step *dep = &rk->steps[j];
					int dl = x->level[r][j] +
						 (is_recv(dep) || dep->op == SWAI_STEP_COPY);

					l = dl > l ? dl : l;
				}
				if (st->op == SWAI_STEP_SEND) {
					mine = &x->level[st->peer][x->rmatch[r][i]];
					l = *mine > l ? *mine : l;
					changed |= l > x->level[r][i] || l > *mine;
					x->level[r][i] = *mine = l;
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
				return "a schedule that reduces (the cards' WRITEs do not add)";
			if (x->level[r][i] + 1 > x->nlevels)
				x->nlevels = x->level[r][i] + 1;
		}
	return x->nlevels > SWCCL_RDMA_PHASES ? "a schedule of more phases than RDMA runs" :
	       NULL;
}

/*
 * Where a step that writes rank @r's chunks reads them from: *q's buffer
 * *b from chunk *off (a copy: its own; a receive: its send's at the peer).
 * False for a step that writes nothing of its own rank's.
 */
static bool source_of(const struct swccl_rdma_call *x, int r, int i, int *q, int *b,
		      uint32_t *off)
{
	const struct swai_step *st = &x->s.ranks[r].steps[i];
	const struct swai_step *snd;

	if (st->op == SWAI_STEP_COPY) {
		*q = r;
		*b = st->src_buf;
		*off = st->src_off;
		return true;
	}
	if (!is_recv(st))
		return false;
	snd = &x->s.ranks[st->peer].steps[x->match[r][i]];
	*q = st->peer;
	*b = snd->src_buf;
	*off = snd->src_off;
	return true;
}

/* A scratch chunk whose block's size is not known yet (vscratch_place). */
#define SIZE_UNKNOWN UINT64_MAX

/* The size of rank @r's chunk @off of buffer @b, scratch as known so far (sizes[]). */
static uint64_t block_size(const struct swccl_rdma_call *x, uint64_t **sizes, int r, int b,
			   uint32_t off)
{
	uint64_t a, l;

	if (b == SWAI_BUF_SCRATCH)
		return sizes[r][off];
	swccl_span(x->c, &x->s, r, b, off, 1, &a, &l);
	return l;
}

/*
 * One pass of the sizes of the blocks in scratch: every chunk a copy or a
 * message writes takes the size of the chunk it comes from.  *changed if
 * one became known; the reason if a chunk would hold two sizes, or an
 * output block one not its own.
 */
static const char *vscratch_pass(const struct swccl_rdma_call *x, uint64_t **sizes,
				 bool *changed)
{
	for (int r = 0; r < x->s.nranks; r++)
		for (int i = 0; i < x->s.ranks[r].nsteps; i++) {
			const struct swai_step *st = &x->s.ranks[r].steps[i];
			uint32_t from;
			int q, b;

			if (!source_of(x, r, i, &q, &b, &from))
				continue;
			for (uint32_t k = 0; k < st->count; k++) {
				uint64_t v = block_size(x, sizes, q, b, from + k);
				uint64_t *mine = st->dst_buf == SWAI_BUF_SCRATCH ?
						 &sizes[r][st->dst_off + k] : NULL;

				if (v == SIZE_UNKNOWN)
					continue;
				if (!mine && v != block_size(x, sizes, r, st->dst_buf,
							     st->dst_off + k))
					return "a schedule that writes a block into an output block "
					       "of another size";
				if (mine && *mine != SIZE_UNKNOWN && *mine != v)
					return "a schedule that puts blocks of two sizes in one "
					       "scratch chunk";
				if (mine && *mine == SIZE_UNKNOWN) {
					*mine = v;
					*changed = true;
				}
			}
		}
	return NULL;
}

/*
 * AllToAllv through scratch (PLANE): a scratch chunk holds one block, as
 * large as that block -- its sizes flow from the inputs along the copies
 * and messages -- and a rank's chunks lie end to end, so that a message of
 * several (a plane's) is one run of bytes at both ends.  Every process
 * knows every rank's counts (swccl_p2p.c), so each lays out every rank's
 * scratch alike, and a sender knows where its blocks land at a relay.
 */
static const char *vscratch_place(struct swccl_rdma_call *x)
{
	uint32_t nc = x->s.scratch_chunks;
	const char *bad = NULL;
	bool changed = true;

	for (int r = 0; r < x->s.nranks; r++) {
		if (!x->c->r[r].pv)
			return "a rank whose counts this process does not know";
		x->vscratch[r] = malloc(((size_t)nc + 1) * sizeof(uint64_t));
		if (!x->vscratch[r])
			return "out of memory";
		for (uint32_t k = 0; k <= nc; k++)
			x->vscratch[r][k] = SIZE_UNKNOWN;
	}
	/* each pass carries the sizes a hop further: at most a pass a chunk */
	for (uint32_t pass = 0; changed && !bad && pass <= nc * (uint32_t)x->s.nranks; pass++) {
		changed = false;
		bad = vscratch_pass(x, x->vscratch, &changed);
	}
	if (!bad) {		/* one final pass, so every write into an output is checked */
		changed = false;
		bad = vscratch_pass(x, x->vscratch, &changed);
	}
	for (int r = 0; r < x->s.nranks && !bad; r++) {
		uint64_t at = 0;

		for (uint32_t k = 0; k <= nc; k++) {	/* sizes -> offsets; unwritten: empty */
			uint64_t l = k < nc && x->vscratch[r][k] != SIZE_UNKNOWN ? x->vscratch[r][k] : 0;

			x->vscratch[r][k] = at;
			at += l;
		}
	}
	return bad;
}

/*
 * An AllToAllv's messages into an output: a receiver tells each sender
 * where its own block from that sender is (swccl_rdma_rec.out), so a
 * message may land there and nowhere else of the output.
 */
static const char *v_outputs(const struct swccl_rdma_call *x)
{
	for (int r = 0; r < x->s.nranks; r++)
		for (int i = 0; i < x->s.ranks[r].nsteps; i++) {
			const struct swai_step *st = &x->s.ranks[r].steps[i];

			if (is_recv(st) && st->dst_buf == SWAI_BUF_OUT &&
			    (st->dst_off != (uint32_t)st->peer || st->count != 1))
				return "a schedule whose message into an output carries other "
				       "ranks' blocks (an AllToAllv's are each anywhere)";
		}
	return NULL;
}

void swccl_rdma_call_free(struct swccl_rdma_call *x)
{
	for (int r = 0; r < SWCCL_MAX_RANKS; r++) {
		free(x->rmatch[r]);
		free(x->level[r]);
		free(x->vscratch[r]);
		x->rmatch[r] = x->level[r] = NULL;
		x->vscratch[r] = NULL;
	}
	if (x->match)
		swai_sched_match_free(&x->s, x->match);
	x->match = NULL;
	swai_sched_free(&x->s);
}

swcclResult_t swccl_rdma_call_init(struct swccl_rdma_call *x)
{
	const struct swccl_call *c = x->c;
	char why[256];
	const char *bad;

	/* the generator's schedule, grouped by the ranks' nodes, from the call's root */
	if (swccl_xcard_sched(c, x->how, &x->s, why, sizeof(why)))
		return swccl_fail(x->comm0, swcclInvalidUsage, "%s %s: %s", cname(x), x->how, why);
	if (swai_sched_match(&x->s, &x->match, why, sizeof(why)))
		return swccl_fail(x->comm0, swcclInternalError, "%s %s: %s", cname(x), x->how, why);
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
	if (!bad && c->v)
		bad = v_outputs(x);
	if (!bad && c->v && x->s.scratch_chunks)
		bad = vscratch_place(x);
	if (bad)
		return swccl_fail(x->comm0, swcclInvalidUsage, "%s %s over the NICs: %s",
				  cname(x), x->how, bad);
	return swcclSuccess;
}

uint64_t swccl_rdma_in_bytes(const struct swccl_rdma_call *x)
{
	return swccl_chunk_elem(x->c, &x->s, swai_sched_buf_chunks(&x->s, SWAI_BUF_IN)) *
	       x->c->esize;
}

uint64_t swccl_rdma_scratch_bytes(const struct swccl_rdma_call *x, int r)
{
	return at(x, r, SWAI_BUF_SCRATCH, x->s.scratch_chunks);
}

static uint64_t send_bytes(const void *o, int r, const struct swai_step *st)
{
	return len(o, r, st->src_buf, st->src_off, st->count);
}

void swccl_rdma_internode(const struct swccl_rdma_call *x, unsigned long long *msgs,
			  unsigned long long *bytes)
{
	swccl_internode_by(x->c, &x->s, send_bytes, x, msgs, bytes);
}

/* Is rank @r's copy step @st one onto itself (the input already where the output wants it)? */
static bool onto_itself(const struct swccl_rdma_call *x, int r, const struct swai_step *st)
{
	const struct swccl_rank *cr = &x->c->r[r];

	return !x->c->v && st->op == SWAI_STEP_COPY && st->src_buf == SWAI_BUF_IN &&
	       st->dst_buf == SWAI_BUF_OUT &&
	       cr->send.va + at(x, r, SWAI_BUF_IN, st->src_off) ==
	       cr->recv.va + at(x, r, SWAI_BUF_OUT, st->dst_off) &&
	       len(x, r, SWAI_BUF_IN, st->src_off, st->count) ==
	       len(x, r, SWAI_BUF_OUT, st->dst_off, st->count);
}

/*
 * Must rank @r's input be copied out first?  Only if something writes its
 * output where its input is: a message, or a copy that moves it.  An
 * AllToAll in place does; a Broadcast's root or an AllGather's rank in
 * place (NCCL's: the input is the rank's own block of the output) does
 * not -- its own copy is onto itself, and nobody else writes there.
 */
bool swccl_rdma_in_place(const struct swccl_rdma_call *x, int r)
{
	uint64_t in = x->c->r[r].send.va, out = x->c->r[r].recv.va, n = swccl_rdma_in_bytes(x);
	const struct swai_sched_rank *rk = &x->s.ranks[r];
	bool reads = false;

	/* AllToAllv's blocks never overlap (swccl_p2p.c) */
	if (x->c->v || !in || !out)
		return false;
	for (int i = 0; i < rk->nsteps; i++)
		reads |= (rk->steps[i].op == SWAI_STEP_SEND || rk->steps[i].op == SWAI_STEP_COPY) &&
			 rk->steps[i].src_buf == SWAI_BUF_IN;
	if (!reads)
		return false;	/* a Broadcast's other ranks: their input is not used */
	for (int i = 0; i < rk->nsteps; i++) {
		const struct swai_step *st = &rk->steps[i];
		uint64_t a, l;

		if ((!is_recv(st) && st->op != SWAI_STEP_COPY) || st->dst_buf != SWAI_BUF_OUT ||
		    onto_itself(x, r, st))
			continue;
		a = out + at(x, r, SWAI_BUF_OUT, st->dst_off);
		l = len(x, r, SWAI_BUF_OUT, st->dst_off, st->count);
		if (a < in + n && in < a + l)
			return true;
	}
	return false;
}

/* A descriptor that fires when rank @r's @port has counted @cp more packets. */
static struct swai_nic_desc counted(const struct swccl_rdma_call *x, int r, int port,
				    uint32_t cp)
{
	return (struct swai_nic_desc){
		.kind = SWAI_NIC_KIND_BCAST, .vport = x->peer[r].vport[port],
		.dst_vport = x->peer[r].vport[port], .rtype = SWAI_NIC_OP_SUM,
		.dtype = SWAI_NIC_T_UINT, .width = 8, .src = x->peer[r].node,
		.dst = SWAI_NIC_NODE_NONE, .cpcnt = cp,
	};
}

/*
 * WRITEs of @bytes from @src on rank @r's port @port to rank @q's @dst, one
 * a MiB, the last counted (@cp): delivery from a peer is in order, so a
 * counted last packet means all of it is there.  Into d[]; how many.
 */
static int writes(const struct swccl_rdma_call *x, int r, int port, int q, uint64_t dst,
		  uint64_t src, uint64_t bytes, bool cp, struct swai_nic_desc *d)
{
	int n = 0;

	while (bytes) {
		uint32_t l = bytes > SWAI_NIC_WRITE_MAX ? SWAI_NIC_WRITE_MAX : (uint32_t)bytes;

		d[n++] = (struct swai_nic_desc){
			.kind = SWAI_NIC_KIND_WRITE, .flags = cp && l == bytes ? SWAI_NIC_F_CP : 0,
			.vport = x->peer[r].vport[port], .dst_vport = x->peer[q].vport[port],
			.key = x->peer[q].key[port], .src = x->peer[r].node, .dst = x->peer[q].node,
			.addr = dst, .src_addr = src, .len = l,
		};
		src += l;
		dst += l;
		bytes -= l;
	}
	return n;
}

/*
 * This round's part of a message -- chunks [@off, @off + @count) of rank
 * @r's buffer @b at @src, to @dst at rank @q -- as WRITEs, the window of
 * every chunk (a PLANE message carries several blocks), the last WRITE
 * counted.  Into d[]; how many.
 */
static int window_writes(const struct swccl_rdma_call *x, int r, int port, int q, uint64_t dst,
			 uint64_t src, int b, uint32_t off, uint32_t count, struct swai_nic_desc *d)
{
	uint64_t base = at(x, r, b, off), lo, n;
	int nd = 0;

	for (uint32_t c = off; c < off + count; c++) {
		uint64_t rel = at(x, r, b, c) - base;

		n = in_window(x, len(x, r, b, c, 1), &lo);
		if (n)
			nd += writes(x, r, port, q, dst + rel + lo, src + rel + lo, n, false, d + nd);
	}
	if (nd)
		d[nd - 1].flags |= SWAI_NIC_F_CP;	/* delivery is in order: all of it is there */
	return nd;
}

/* Take @n completions of rank @r's @port; @waits names what a timeout waited for. */
static swcclResult_t reap(struct swccl_rdma_call *x, const struct swccl_rdma_io *io, int r,
			  int port, int n, const char *waits)
{
	unsigned int status = 0;
	int ret = n ? io->wait(io->o, r, port, n, &status) : 0;

	if (ret == -ETIME)
		return swccl_fail(x->comm0, swcclTimeout, "%s #%llu (%s): rank %d (NIC node "
				  "%u) %s within SWCCL_TIMEOUT (%.0f s): a node is lost, or its "
				  "process never made this call", cname(x),
				  (unsigned long long)x->c->seq, x->how, r, x->peer[r].node, waits,
				  swccl_timeout_s());
	if (ret)
		return swccl_fail(x->comm0, swcclRemoteError, "%s #%llu (%s): rank %d (NIC "
				  "node %u): a descriptor of port %d ended with NIC status %u",
				  cname(x), (unsigned long long)x->c->seq, x->how, r, x->peer[r].node,
				  port, status);
	return swcclSuccess;
}

/* The ranks rank @r sends to (@to) or receives from, as a list in @who; how many. */
static int peers(const struct swccl_rdma_call *x, int r, bool to, int *who)
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
 * Stage 1 of a round, rank @r: its senders told where its buffers are
 * (an in-place input copied out before: copy_in, its last piece here,
 * ahead of the records on their port -- a port runs its queue in order,
 * so no record leaves before the copy has ended), and its wait for its
 * receivers.  Descriptors posted: *posted.
 */
static swcclResult_t ready_post(struct swccl_rdma_call *x, const struct swccl_rdma_io *io,
				int r, int *posted)
{
	struct swai_nic_desc d[SWCCL_MAX_RANKS + SWCCL_RDMA_MSG_MAX / SWAI_NIC_WRITE_MAX + 2];
	int who[SWCCL_MAX_RANKS], ns = peers(x, r, false, who), nd = 0;
	uint32_t nr, use;

	if (x->copy_last[r]) {
		uint64_t n = swccl_rdma_in_bytes(x), off = x->copy_off[r];

		nd = writes(x, r, x->ready, r, x->in_va[r] + off, x->c->r[r].send.va + off,
			    n - off, false, d);
		x->copy_last[r] = false;
	}

	for (int i = 0; i < ns; i++) {
		const struct swccl_rdma_peer *q = &x->peer[who[i]];
		struct swccl_rdma_rec rec = {
			.out = x->c->r[r].recv.va, .scratch = x->scratch_va[r], .seq = x->c->seq,
		};

		/* AllToAllv: the block from that sender itself, and its size to check */
		if (x->c->v) {
			rec.out = va_of(x, r, SWAI_BUF_OUT, (uint32_t)who[i]);
			rec.bytes = len(x, r, SWAI_BUF_OUT, (uint32_t)who[i], 1);
		}
		d[nd] = (struct swai_nic_desc){
			.kind = SWAI_NIC_KIND_PUT, .flags = SWAI_NIC_F_CP,
			.vport = x->peer[r].vport[x->ready], .dst_vport = q->vport[x->ready],
			.key = q->key[x->ready],
			.rtype = SWAI_NIC_OP_SUM, .dtype = SWAI_NIC_T_UINT, .width = 8,
			.src = x->peer[r].node, .dst = q->node,
			.addr = q->mbox + (uint64_t)r * sizeof(rec),
		};
		d[nd].v.count = 4;
		memcpy(d[nd++].v.data, &rec, sizeof(rec));
	}
	nr = (uint32_t)peers(x, r, true, who);
	use = x->credit[r][x->ready] < nr ? x->credit[r][x->ready] : nr;
	x->credit[r][x->ready] -= use;
	if (nr > use)
		d[nd++] = counted(x, r, x->ready, nr - use);
	*posted = nd;
	return nd && io->post(io->o, r, x->ready, d, nd) ? swcclUnhandledSdaaError :
	       swcclSuccess;
}

/* How many of rank @r's receivers @who have no record for this call in its mailbox yet. */
static uint32_t missing(struct swccl_rdma_call *x, const struct swccl_rdma_io *io, int r,
			const int *who, int nr)
{
	uint32_t m = 0;

	for (int i = 0; i < nr; i++)
		m += io->rec(io->o, r, who[i])->seq != x->c->seq;
	return m;
}

static swcclResult_t ready_wait(struct swccl_rdma_call *x, const struct swccl_rdma_io *io,
				int r, int posted)
{
	int who[SWCCL_MAX_RANKS], nr = peers(x, r, true, who);
	char waits[320];
	size_t l = (size_t)snprintf(waits, sizeof(waits), "waited for its receivers");
	swcclResult_t res;

	for (int i = 0; i < nr && l < sizeof(waits); i++)
		l += (size_t)snprintf(waits + l, sizeof(waits) - l, " rank %d (NIC node %u)",
				      who[i], x->peer[who[i]].node);
	if (l < sizeof(waits))
		snprintf(waits + l, sizeof(waits) - l, " to start the call");
	res = reap(x, io, r, x->ready, posted, waits);
	/*
	 * The count can be reached before every record is here: a receiver
	 * that took nothing from this rank in the last two rounds did not
	 * wait for it, and may already have sent its record for the round
	 * after (on this ready port again).  Wait for the ones still missing,
	 * and keep what was counted ahead as credit for the round it is for.
	 */
	for (int pass = 0; !res; pass++) {
		struct swai_nic_desc d;
		uint32_t m = missing(x, io, r, who, nr);

		if (!m)
			break;
		if (pass == SWCCL_MAX_RANKS)
			return swccl_fail(x->comm0, swcclInternalError, "%s #%llu: rank %d "
					  "still misses %u records of its receivers", cname(x),
					  (unsigned long long)x->c->seq, r, m);
		swccl_log(SWCCL_LOG_INFO, SWCCL_COLL, "%s #%llu: rank %d counted %u ready records "
			  "of a later call: waits for its own", cname(x),
			  (unsigned long long)x->c->seq, r, m);
		d = counted(x, r, x->ready, m);
		if (io->post(io->o, r, x->ready, &d, 1))
			return swcclUnhandledSdaaError;
		res = reap(x, io, r, x->ready, 1, waits);
		x->credit[r][x->ready] += m;
	}
	return res;
}

/* Where rank @r's send step @i lands at its receiver, by the receiver's record. */
static swcclResult_t target(struct swccl_rdma_call *x, const struct swccl_rdma_io *io, int r,
			    int i, uint64_t bytes, uint64_t *dst)
{
	const struct swai_step *st = &x->s.ranks[r].steps[i];
	const struct swai_step *rs = &x->s.ranks[st->peer].steps[x->rmatch[r][i]];
	const struct swccl_rdma_rec *rec = io->rec(io->o, r, st->peer);

	/*
	 * The receiver's layout is this rank's (equal blocks); an AllToAllv's
	 * scratch every process lays out alike (vscratch_place), and its block
	 * from this rank in its output it said.
	 */
	if (!x->c->v || rs->dst_buf == SWAI_BUF_SCRATCH) {
		*dst = (rs->dst_buf == SWAI_BUF_OUT ? rec->out : rec->scratch) +
		       at(x, st->peer, rs->dst_buf, rs->dst_off);
		return swcclSuccess;
	}
	*dst = rec->out;
	if (bytes != rec->bytes)
		return swccl_fail(x->comm0, swcclInvalidUsage, "AllToAllv: rank %d sends %llu "
				  "bytes to rank %d, which receives %llu from it", r,
				  (unsigned long long)bytes, st->peer,
				  (unsigned long long)rec->bytes);
	return swcclSuccess;
}

/* Room for rank @r's descriptors of one phase: every chunk's WRITEs a MiB each, a count. */
static size_t descs(const struct swccl_rdma_call *x, int r)
{
	size_t n = 2;

	for (int i = 0; i < x->s.ranks[r].nsteps; i++) {
		const struct swai_step *st = &x->s.ranks[r].steps[i];
		bool src = st->op == SWAI_STEP_SEND || st->op == SWAI_STEP_COPY;

		for (uint32_t c = 0; c < st->count; c++) {
			uint64_t l = len(x, r, src ? st->src_buf : st->dst_buf,
					 (src ? st->src_off : st->dst_off) + c, 1), lo;

			l = in_window(x, l, &lo);
			n += (size_t)(l / SWAI_NIC_WRITE_MAX) + 1;
		}
	}
	return n;
}

/* Phase @k, rank @r: its copies and messages as WRITEs, and its count of what comes. */
static swcclResult_t phase_post(struct swccl_rdma_call *x, const struct swccl_rdma_io *io,
				int r, int k, int *posted)
{
	const struct swai_sched_rank *rk = &x->s.ranks[r];
	struct swai_nic_desc *d = calloc(descs(x, r), sizeof(*d));
	swcclResult_t res = swcclSuccess;
	uint32_t counts = 0;
	int nd = 0;

	if (!d)
		return swccl_fail(x->comm0, swcclSystemError, "out of memory");
	for (int i = 0; i < rk->nsteps && !res; i++) {
		const struct swai_step *st = &rk->steps[i];
		uint64_t bytes, dst;

		if (x->level[r][i] != k || !live_now(x, r, st))
			continue;
		if (is_recv(st)) {
			counts++;
			continue;
		}
		bytes = len(x, r, st->src_buf, st->src_off, st->count);
		if (st->op == SWAI_STEP_COPY && !x->in_copy[r] && onto_itself(x, r, st))
			continue;			/* already there: nothing to move */
		if (st->op == SWAI_STEP_COPY) {		/* a loopback, counted here */
			nd += window_writes(x, r, SWCCL_RDMA_PHASE_PORT(k), r,
					    va_of(x, r, st->dst_buf, st->dst_off),
					    va_of(x, r, st->src_buf, st->src_off), st->src_buf,
					    st->src_off, st->count, d + nd);
			counts++;
			continue;
		}
		res = target(x, io, r, i, bytes, &dst);
		if (!res)
			nd += window_writes(x, r, SWCCL_RDMA_PHASE_PORT(k), st->peer, dst,
					    va_of(x, r, st->src_buf, st->src_off), st->src_buf,
					    st->src_off, st->count, d + nd);
	}
	if (!res && counts)
		d[nd++] = counted(x, r, SWCCL_RDMA_PHASE_PORT(k), counts);
	if (!res && nd && io->post(io->o, r, SWCCL_RDMA_PHASE_PORT(k), d, nd))
		res = swcclUnhandledSdaaError;
	*posted = nd;
	free(d);
	return res;
}

/* What rank @r waits for in phase @k, for a timeout's message: its senders and their nodes. */
static void phase_senders(const struct swccl_rdma_call *x, int r, int k, char *buf, size_t n)
{
	const struct swai_sched_rank *rk = &x->s.ranks[r];
	bool seen[SWCCL_MAX_RANKS] = { false };
	size_t l = (size_t)snprintf(buf, n, "had not all its messages of phase %d, from", k);

	for (int i = 0; i < rk->nsteps && l < n; i++) {
		const struct swai_step *st = &rk->steps[i];

		if (!is_recv(st) || x->level[r][i] != k || !live(x, r, st) || seen[st->peer])
			continue;
		seen[st->peer] = true;
		l += (size_t)snprintf(buf + l, n - l, " rank %d (NIC node %u)", st->peer,
				      x->peer[st->peer].node);
	}
}

/* One round: its ready records, then phase by phase. */
static swcclResult_t round_run(struct swccl_rdma_call *x, const struct swccl_rdma_io *io)
{
	int posted[SWCCL_MAX_RANKS] = { 0 }, n = x->c->nranks;
	swcclResult_t res = swcclSuccess;

	x->ready = (int)((*x->rounds)++ % SWCCL_RDMA_READY_PORTS);
	for (int r = 0; r < n && !res; r++)
		if (x->local[r])
			res = ready_post(x, io, r, &posted[r]);
	for (int r = 0; r < n && !res; r++)
		if (x->local[r])
			res = ready_wait(x, io, r, posted[r]);
	for (int k = 0; k < x->nlevels && !res; k++) {
		for (int r = 0; r < n && !res; r++)
			if (x->local[r])
				res = phase_post(x, io, r, k, &posted[r]);
		for (int r = 0; r < n && !res; r++) {
			char waits[320];

			if (!x->local[r])
				continue;
			phase_senders(x, r, k, waits, sizeof(waits));
			res = reap(x, io, r, SWCCL_RDMA_PHASE_PORT(k), posted[r], waits);
		}
	}
	return res;
}

/*
 * The window of a round: what a port may be sent in one phase (4096
 * packets) over the most chunks any port takes in one phase; *rounds to
 * cover the largest chunk.  NULL, or the reason it cannot be cut so.
 */
static const char *window(struct swccl_rdma_call *x, uint64_t *rounds)
{
	uint64_t most = 1, largest = 0, w;

	for (int r = 0; r < x->c->nranks; r++)
		for (int k = 0; k < x->nlevels; k++) {
			uint64_t in = 0;

			for (int i = 0; i < x->s.ranks[r].nsteps; i++) {
				const struct swai_step *st = &x->s.ranks[r].steps[i];

				if (x->level[r][i] == k && (is_recv(st) || st->op == SWAI_STEP_COPY))
					in += st->count;
				for (uint32_t c = 0; k == 0 && st->op == SWAI_STEP_SEND &&
				     c < st->count; c++) {
					uint64_t l = len(x, r, st->src_buf, st->src_off + c, 1);

					largest = l > largest ? l : largest;
				}
			}
			most = in > most ? in : most;
		}
	w = SWCCL_RDMA_MSG_MAX / SWCCL_RDMA_PACKET / most * SWCCL_RDMA_PACKET;
	if (!w)
		return "more chunks come to a port in one phase than a peer queues packets";
	x->win_off = 0;
	x->win_len = largest > w ? w : UINT64_MAX;
	*rounds = largest > w ? (largest + w - 1) / w : 1;
	return NULL;
}

/*
 * In place: rank @r's input copied out first, by loopback WRITEs of at most
 * what a peer queues at a time, before its records let anyone write.  The
 * last piece goes with the first round's records (ready_post): one host
 * wait fewer (a small AllToAll in place between nodes 54.0 -> 39.0 us).
 */
static swcclResult_t copy_in(struct swccl_rdma_call *x, const struct swccl_rdma_io *io, int r)
{
	struct swai_nic_desc d[SWCCL_RDMA_MSG_MAX / SWAI_NIC_WRITE_MAX + 1];
	uint64_t n = swccl_rdma_in_bytes(x);
	swcclResult_t res = swcclSuccess;

	for (uint64_t off = 0; off < n && !res; off += SWCCL_RDMA_MSG_MAX) {
		uint64_t l = n - off < SWCCL_RDMA_MSG_MAX ? n - off : SWCCL_RDMA_MSG_MAX;
		int nd;

		if (off + l == n) {
			x->copy_last[r] = true;
			x->copy_off[r] = off;
			break;
		}
		nd = writes(x, r, 0, r, x->in_va[r] + off, x->c->r[r].send.va + off, l, false, d);

		if (io->post(io->o, r, 0, d, nd))
			return swcclUnhandledSdaaError;
		res = reap(x, io, r, 0, nd, "copied its input out (in place)");
	}
	return res;
}

/*
 * Every round starts as a call does, its receivers' records first, so no
 * sender runs a round ahead of a receiver whose counts would take its
 * packets for the round before.
 */
swcclResult_t swccl_rdma_exchange(struct swccl_rdma_call *x, const struct swccl_rdma_io *io)
{
	swcclResult_t res = swcclSuccess;
	const char *bad;
	uint64_t rounds;

	bad = window(x, &rounds);
	if (bad)
		return swccl_fail(x->comm0, swcclInvalidUsage, "%s %s over the NICs: %s",
				  cname(x), x->how, bad);
	for (int r = 0; r < x->c->nranks && !res; r++)
		if (x->local[r] && x->in_copy[r])
			res = copy_in(x, io, r);
	for (uint64_t j = 0; j < rounds && !res; j++) {
		x->win_off = j * (x->win_len == UINT64_MAX ? 0 : x->win_len);
		res = round_run(x, io);
	}
	return res;
}
