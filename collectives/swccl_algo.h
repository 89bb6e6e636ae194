/* SPDX-License-Identifier: MIT */
/*
 * swccl_algo.h - the algorithms of the collectives: one file per
 * (collective, algorithm) defining a struct swccl_algo, one line in
 * swccl_algos.c, and the building blocks they share (swccl_prog.c,
 * swccl_phases.c, swccl_shard.c).
 */
#ifndef SWCCL_ALGO_H
#define SWCCL_ALGO_H

#include "swai-prog.h"
#include "swccl_call.h"

/* What an algorithm is like (struct swccl_algo.props). */
#define SWCCL_ALGO_HOST_SYNC	(1u << 0)	/* steps closed by host waits (the paper's RING) */
#define SWCCL_ALGO_XCARD	(1u << 1)	/* between cards (swccl_xcard.c), else one card */

/* One (collective, algorithm). */
struct swccl_algo {
	const char *name;
	enum swccl_coll coll;
	swcclAlgo_t algo;
	unsigned int props;	/* SWCCL_ALGO_* */
	/* NULL if it can run @c, else why not. */
	const char *(*unsupported)(const struct swccl_call *c);
	/* Global-HBM scratch bytes it needs. */
	size_t (*scratch)(const struct swccl_call *c);
	/* Launches per rank (host-synchronised: one phase each). */
	int (*steps)(const struct swccl_call *c);
	/* Append rank @rank's program for step @step (0-based). */
	void (*build)(const struct swccl_call *c, int step, int rank, struct swai_prog *p);
};

/* swccl_algos.c: every algorithm, NULL-terminated */
extern const struct swccl_algo *const swccl_algos[];
const struct swccl_algo *swccl_algo_find(enum swccl_coll coll, swcclAlgo_t algo);
/* The same, of the kind @xcard asks: between cards or within one. */
const struct swccl_algo *swccl_algo_find_for(enum swccl_coll coll, swcclAlgo_t algo,
					     bool xcard);

/* Progress steps a program reports (swccl_timeout.c names them). */
enum swccl_step {
	SWCCL_STEP_START = 1, SWCCL_STEP_WRITTEN, SWCCL_STEP_SYNCED, SWCCL_STEP_REDUCED,
	SWCCL_STEP_READ,
	/* between cards (swccl_lower.c): + the peer's rank */
	SWCCL_STEP_XMSG = 0x10,		/* waiting for a message from the peer */
	SWCCL_STEP_XCREDIT = 0x40,	/* waiting for the peer to end the last call */
	SWCCL_STEP_DONE = 0xff
};

/* swccl_prog.c: the program builder as the algorithms use it */
void prog_copy(struct swai_prog *p, uint64_t dst, uint64_t src, uint64_t len);
void prog_copy_rows(struct swai_prog *p, uint64_t dst, uint64_t src, uint64_t len,
		    uint32_t rows, uint64_t dst_stride, uint64_t src_stride);
void prog_get(struct swai_prog *p, uint64_t ldm, uint64_t va, uint64_t len);
void prog_put(struct swai_prog *p, uint64_t va, uint64_t ldm, uint64_t len);
void prog_reduce(struct swai_prog *p, const struct swccl_call *c, uint64_t dst,
		 uint64_t src, uint64_t n);
void prog_finish_op(struct swai_prog *p, const struct swccl_call *c, uint64_t ldm,
		    uint64_t n);
void prog_barrier(struct swai_prog *p, const struct swccl_call *c, bool host);
void prog_signal(struct swai_prog *p, uint64_t sem, uint64_t value);
void prog_wait(struct swai_prog *p, uint64_t sem, uint64_t atleast);
void prog_progress(struct swai_prog *p, const struct swccl_call *c, int rank,
		   enum swccl_step step);
uint64_t swccl_flag_value(const struct swccl_call *c, uint64_t k);
size_t swccl_chunk(const struct swccl_call *c, int slots);
bool swccl_readable(const struct swccl_call *c, const struct swccl_buf *b);
/* Every rank's send buffer can be read by the other ranks directly. */
bool swccl_all_sends_readable(const struct swccl_call *c);
/* Chunks of a CSC1 pipeline whose chunk waits for @barriers flags. */
uint64_t swccl_pipeline_chunks(const struct swccl_call *c, int barriers);

/* swccl_phases.c: the building blocks the reducing algorithms share */
void phase_fold(struct swai_prog *p, const struct swccl_call *c, const uint64_t *items,
		int nitems, int rot, const uint64_t *out, int nout, bool final, uint64_t n);
void phase_reduce_rounds(struct swai_prog *p, const struct swccl_call *c,
			 const uint64_t *src, uint64_t acc, uint64_t dst, uint64_t n);

#endif /* SWCCL_ALGO_H */
