// SPDX-License-Identifier: MIT
/*
 * swccl_prog.c - how the algorithms use the program builder
 * (tools/card/swai-prog.h): transfers, reductions and the communicator's
 * semaphores.  Empty transfers are left out: they would cost their fixed
 * cost and move nothing.
 */
#include "swccl_algo.h"

void prog_copy_rows(struct swai_prog *p, uint64_t dst, uint64_t src, uint64_t len,
		    uint32_t rows, uint64_t dst_stride, uint64_t src_stride)
{
	if (!len || !rows)
		return;
	swai_prog_push(p, swai_insn_xfer(SWAI_OP_COPY, 0, dst, src, rows, len, dst_stride,
					 src_stride));
}

void prog_copy(struct swai_prog *p, uint64_t dst, uint64_t src, uint64_t len)
{
	if (dst != src)
		prog_copy_rows(p, dst, src, len, 1, 0, 0);
}

void prog_get(struct swai_prog *p, uint64_t ldm, uint64_t va, uint64_t len)
{
	if (len)
		swai_prog_push(p, swai_insn_xfer(SWAI_OP_DMA_GET, 0, ldm, va, 1, len, 0, 0));
}

void prog_put(struct swai_prog *p, uint64_t va, uint64_t ldm, uint64_t len)
{
	if (len)
		swai_prog_push(p, swai_insn_xfer(SWAI_OP_DMA_PUT, 0, va, ldm, 1, len, 0, 0));
}

/* LDM[dst] = LDM[dst] op LDM[src], n elements (avg sums; see prog_finish_op). */
void prog_reduce(struct swai_prog *p, const struct swccl_call *c, uint64_t dst,
		 uint64_t src, uint64_t n)
{
	static const uint8_t rop[] = { SWAI_ROP_SUM, SWAI_ROP_PROD, SWAI_ROP_MAX,
				       SWAI_ROP_MIN, SWAI_ROP_SUM };

	if (n)
		swai_prog_push(p, swai_insn_reduce((uint8_t)swccl_type_dt(c->dtype), rop[c->op],
						   dst, src, n));
}

/* The last touch of a reduced chunk before it leaves LDM: avg divides by N. */
void prog_finish_op(struct swai_prog *p, const struct swccl_call *c, uint64_t ldm,
		    uint64_t n)
{
	if (c->op == swcclAvg && n)
		swai_prog_push(p, swai_insn_div((uint8_t)swccl_type_dt(c->dtype), ldm,
						(uint64_t)c->nranks, n));
}

/*
 * All ranks meet.  @host: the paper's host-mediated SYNC (costs t_sync on
 * the card's model); otherwise the on-card barrier (t_barrier).  One
 * monotone counter serves every barrier of the communicator: all ranks run
 * the same sequence of barriers.
 */
void prog_barrier(struct swai_prog *p, const struct swccl_call *c, bool host)
{
	swai_prog_push(p, swai_insn_barrier(c->sem.barrier, (uint64_t)c->nranks, host));
}

void prog_signal(struct swai_prog *p, uint64_t sem, uint64_t value)
{
	swai_prog_push(p, swai_insn_signal(sem, value, true));
}

void prog_wait(struct swai_prog *p, uint64_t sem, uint64_t atleast)
{
	swai_prog_push(p, swai_insn_wait(sem, atleast, false));
}

/* Tell the host (watchdog) where rank @rank is: free on the card. */
void prog_progress(struct swai_prog *p, const struct swccl_call *c, int rank,
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
