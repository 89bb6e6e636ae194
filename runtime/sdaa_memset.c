// SPDX-License-Identifier: MIT
/*
 * sdaa_memset.c - sdaaMemset and sdaaMemsetAsync.
 *
 * The ISA has no fill, so a memset is one program that makes its pattern and
 * then copies it onto itself: SIGNAL (set) writes eight copies of the byte
 * into a scratch word of the queue's program memory, a COPY puts them at the
 * start of the range, and COPYs of what is already set onto what follows
 * double the set part until the range is full: about log2(n / 8) steps, all
 * on the memory's own path (Local-HBM, the ring, or PCIe for pinned host
 * memory).  Jobs of a queue run one at a time, so the scratch word of the
 * queue is the program's own while it runs.
 */
#include <string.h>

#include "sdaa_exec.h"
#include "sdaa_memory.h"

/* The most instructions a memset takes: 2 + one per doubling of 64 bits. */
#define MEMSET_MAX_INSNS	66

size_t sdaa_memset_program(struct swai_insn *out, uint64_t dst, uint64_t scratch,
			   unsigned char value, uint64_t n)
{
	size_t k = 0;
	uint64_t done;

	if (!n)
		return 0;
	out[k++] = (struct swai_insn){
		.op = SWAI_OP_SIGNAL, .flags = SWAI_SIGNAL_SET, .dst = scratch,
		.src = 0x0101010101010101ULL * value,
	};
	done = n < 8 ? n : 8;
	out[k++] = swai_insn_copy(dst, scratch, done);
	while (done < n) {
		uint64_t m = n - done < done ? n - done : done;

		out[k++] = swai_insn_copy(dst + done, dst, m);
		done += m;
	}
	return k;
}

static sdaaError_t memset_op(void *ptr, int value, size_t n, sdaaStream_t stream, int sync)
{
	uint64_t va = (uintptr_t)ptr, avail, scratch;
	struct swai_insn prog[MEMSET_MAX_INSNS];
	struct sdaa_front deps, done, f;
	struct sdaa_stream *s;
	struct sdaa_xcard *xc;
	struct sdaa_queue *q;
	struct sdaa_block b;
	struct sdaa_fence fence;
	sdaaError_t err;
	int card, cg;
	size_t k;

	if (!ptr)
		return sdaaErrorInvalidValue;
	if (!n)
		return sdaaSuccess;
	/* Device memory, or pinned host memory by host or device address. */
	if (!sdaa_host_range((uintptr_t)ptr, &va, &avail)) {
		if (!sdaa_block_find(va, &b))
			return sdaaErrorInvalidValue;
		avail = b.va + b.len - va;
	} else {
		b = (struct sdaa_block){ .card = -1, .region = DRM_SWAI_MEM_HOST };
	}
	if (n > avail)
		return sdaaErrorInvalidValue;
	err = sdaa_stream_begin(stream, &s);
	if (err)
		return err;
	card = b.region == DRM_SWAI_MEM_HOST ? s->q->xc->index : b.card;
	err = sdaa_xcard_get(card, &xc);
	if (!err)
		err = sdaa_xcard_check(xc);
	if (err)
		goto out;
	cg = b.region != DRM_SWAI_MEM_HOST && sdaa_block_tier(&b) < DRM_SWAI_MEM_GLOBAL ?
	     (int)sdaa_block_tier(&b) : xc == s->q->xc ? s->q->cg : 0;
	if (cg >= xc->nq) {
		err = sdaaErrorNotSupported;
		goto out;
	}
	q = &xc->q[cg];
	err = sdaa_stream_deps(s, card, &deps);
	if (err)
		goto out;
	err = sdaa_queue_scratch(q, &scratch);
	if (err)
		goto out;
	k = sdaa_memset_program(prog, va, scratch, (unsigned char)value, n);
	err = sdaa_submit(q, prog, k, &deps, &fence);
	if (err)
		goto out;
	sdaa_front_set(&done, card, cg, fence);
	err = sdaa_stream_done(s, &done);
out:
	f = s->front;
	sdaa_stream_end(s);
	if (!err && sync)
		err = sdaa_wait_front(&f, SDAA_FOREVER, SDAA_WAIT_HOST, NULL);
	return err;
}

SDAA_API sdaaError_t sdaaMemset(void *devPtr, int value, size_t count)
{
	return sdaa_error(memset_op(devPtr, value, count, NULL, 1));
}

SDAA_API sdaaError_t sdaaMemsetAsync(void *devPtr, int value, size_t count,
				     sdaaStream_t stream)
{
	return sdaa_error(memset_op(devPtr, value, count, stream, 0));
}
