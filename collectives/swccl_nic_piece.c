// SPDX-License-Identifier: MIT
/*
 * swccl_nic_piece.c - a call over the NICs as a sequence of trees, one per
 * 48-byte piece (a NIC descriptor's data, seed 001 §3.2) of each block.
 *
 * Every collective is an AllReduce tree per piece (swccl_nic_run.c says
 * why), with who gives and who keeps the result chosen per collective:
 *
 *   AllReduce      one block; every rank gives, every rank keeps
 *   Reduce         one block; every rank gives, the root keeps
 *   Broadcast      one block; the root gives (the others zeros, by XOR)
 *   AllGather      block b rooted at rank b, which alone gives its input;
 *                  every rank keeps it at b * count
 *   ReduceScatter  block b rooted at rank b; every rank gives its input's
 *                  block b, rank b keeps the result
 *
 * The pieces run one after another on each rank's one port, as calls
 * would (swai-nic-tree.h: pieces on one port at once would mix their
 * counts), so a call of P pieces costs P trees.
 */
#include "swccl_nic.h"

static size_t per_piece(const struct swccl_call *c)
{
	return SWAI_NIC_DATA_MAX / c->esize;
}

static size_t blocks(const struct swccl_call *c)
{
	return c->coll == SWCCL_ALLGATHER || c->coll == SWCCL_REDUCESCATTER ?
	       (size_t)c->nranks : 1;
}

/* A block's pieces: at least one, so a call of no elements is still one tree. */
static size_t block_pieces(const struct swccl_call *c)
{
	size_t per = per_piece(c);

	return c->count ? (c->count + per - 1) / per : 1;
}

size_t swccl_nic_pieces(const struct swccl_call *c)
{
	return blocks(c) * block_pieces(c);
}

size_t swccl_nic_in_bytes(const struct swccl_call *c)
{
	return (c->coll == SWCCL_REDUCESCATTER ? (size_t)c->nranks : 1) * c->count * c->esize;
}

void swccl_nic_piece(const struct swccl_call *c, size_t i, struct swccl_nic_piece *p)
{
	size_t ppb = block_pieces(c), per = per_piece(c);
	size_t b = i / ppb, e0 = (i % ppb) * per, es = c->esize;

	p->count = (unsigned int)(c->count - e0 < per ? c->count - e0 : per);
	p->in_off = e0 * es;
	p->out_off = e0 * es;
	switch (c->coll) {
	case SWCCL_ALLREDUCE:
		*p = (struct swccl_nic_piece){ 0, p->in_off, p->out_off, p->count, true, true };
		break;
	case SWCCL_REDUCE:
		*p = (struct swccl_nic_piece){ c->root, p->in_off, p->out_off, p->count, true,
					       false };
		break;
	case SWCCL_BROADCAST:
		*p = (struct swccl_nic_piece){ c->root, p->in_off, p->out_off, p->count, false,
					       true };
		break;
	case SWCCL_ALLGATHER:
		*p = (struct swccl_nic_piece){ (int)b, p->in_off, (b * c->count + e0) * es,
					       p->count, false, true };
		break;
	default:	/* SWCCL_REDUCESCATTER */
		*p = (struct swccl_nic_piece){ (int)b, (b * c->count + e0) * es, p->out_off,
					       p->count, true, false };
		break;
	}
}
