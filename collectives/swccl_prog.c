// SPDX-License-Identifier: MIT
/*
 * swccl_prog.c - helpers that append SW-AI instructions (struct swai_insn,
 * datasheet §13) to a program under construction.  Empty transfers are left
 * out: they would cost their fixed cost and move nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "swccl_internal.h"

void prog_init(struct swccl_prog *p)
{
	memset(p, 0, sizeof(*p));
}

void prog_free(struct swccl_prog *p)
{
	free(p->in);
	prog_init(p);
}

static void emit(struct swccl_prog *p, struct swai_insn in)
{
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 64;
		struct swai_insn *n = realloc(p->in, (size_t)cap * sizeof(*n));

		if (!n) {
			p->nomem = true;
			return;
		}
		p->in = n;
		p->cap = cap;
	}
	p->in[p->n++] = in;
}

void prog_append(struct swccl_prog *p, const struct swai_insn *in, int n)
{
	for (int i = 0; i < n; i++)
		emit(p, in[i]);
}

void prog_copy_rows(struct swccl_prog *p, uint64_t dst, uint64_t src, uint64_t len,
		    uint32_t rows, uint64_t dst_stride, uint64_t src_stride)
{
	if (!len || !rows)
		return;
	emit(p, (struct swai_insn){ .op = SWAI_OP_COPY, .rows = rows, .len = len,
				    .dst = dst, .src = src,
				    .dst_stride = rows > 1 ? dst_stride : 0,
				    .src_stride = rows > 1 ? src_stride : 0 });
}

void prog_copy(struct swccl_prog *p, uint64_t dst, uint64_t src, uint64_t len)
{
	if (dst != src)
		prog_copy_rows(p, dst, src, len, 1, 0, 0);
}

void prog_get(struct swccl_prog *p, uint64_t ldm, uint64_t va, uint64_t len)
{
	if (len)
		emit(p, (struct swai_insn){ .op = SWAI_OP_DMA_GET, .rows = 1, .len = len,
					    .dst = ldm, .src = va });
}

void prog_put(struct swccl_prog *p, uint64_t va, uint64_t ldm, uint64_t len)
{
	if (len)
		emit(p, (struct swai_insn){ .op = SWAI_OP_DMA_PUT, .rows = 1, .len = len,
					    .dst = va, .src = ldm });
}

/* LDM[dst] = LDM[dst] op LDM[src], n elements (avg sums; see prog_finish_op). */
void prog_reduce(struct swccl_prog *p, const struct swccl_call *c, uint64_t dst,
		 uint64_t src, uint64_t n)
{
	static const uint8_t rop[] = { SWAI_ROP_SUM, SWAI_ROP_PROD, SWAI_ROP_MAX,
				       SWAI_ROP_MIN, SWAI_ROP_SUM };

	if (n)
		emit(p, (struct swai_insn){ .op = SWAI_OP_REDUCE,
					    .dtype = (uint8_t)swccl_type_dt(c->dtype),
					    .rop = rop[c->op], .len = n, .dst = dst, .src = src });
}

/* The last touch of a reduced chunk before it leaves LDM: avg divides by N. */
void prog_finish_op(struct swccl_prog *p, const struct swccl_call *c, uint64_t ldm,
		    uint64_t n)
{
	if (c->op == swcclAvg && n)
		emit(p, (struct swai_insn){ .op = SWAI_OP_DIV,
					    .dtype = (uint8_t)swccl_type_dt(c->dtype),
					    .len = n, .dst = ldm, .src = (uint64_t)c->nranks });
}

/*
 * All ranks meet.  @host: the paper's host-mediated SYNC (costs t_sync on
 * the card's model); otherwise the on-card barrier (t_barrier).  One
 * monotone counter serves every barrier of the communicator: all ranks run
 * the same sequence of barriers.
 */
void prog_barrier(struct swccl_prog *p, const struct swccl_call *c, bool host)
{
	emit(p, (struct swai_insn){ .op = SWAI_OP_BARRIER,
				    .flags = host ? SWAI_BARRIER_HOST : 0,
				    .len = (uint64_t)c->nranks, .dst = c->sem.barrier });
}

void prog_signal(struct swccl_prog *p, uint64_t sem, uint64_t value)
{
	emit(p, (struct swai_insn){ .op = SWAI_OP_SIGNAL, .flags = SWAI_SIGNAL_SET,
				    .dst = sem, .src = value });
}

void prog_wait(struct swccl_prog *p, uint64_t sem, uint64_t atleast)
{
	emit(p, (struct swai_insn){ .op = SWAI_OP_WAIT, .dst = sem, .src = atleast });
}

/* Tell the host (watchdog) where rank @rank is: free on the card. */
void prog_progress(struct swccl_prog *p, const struct swccl_call *c, int rank,
		   enum swccl_step step)
{
	prog_signal(p, c->sem.progress[rank], c->seq << 8 | (uint64_t)step);
}

/*
 * A writer's flag after chunk @k (1-based) of collective c->seq: flags only
 * grow (SET with the sequence number on top), so a WAIT never needs a reset
 * and never mistakes an older collective's flag for this one's.
 */
uint64_t swccl_flag_value(const struct swccl_call *c, uint64_t k)
{
	return c->seq << 24 | k;
}

/* The largest chunk (bytes, 8-aligned) of which @slots fit in LDM at once. */
size_t swccl_chunk(const struct swccl_call *c, int slots)
{
	return (c->ldm / (size_t)slots) & ~(size_t)7;
}

/* May every rank's core group read @b directly? */
bool swccl_readable(const struct swccl_call *c, const struct swccl_buf *b)
{
	return b->tier != SWCCL_LOCAL || c->peer;
}

bool swccl_all_sends_readable(const struct swccl_call *c)
{
	for (int r = 0; r < c->nranks; r++)
		if (!swccl_readable(c, &c->r[r].send))
			return false;
	return true;
}
