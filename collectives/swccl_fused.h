/* SPDX-License-Identifier: MIT */
/*
 * swccl_fused.h - the fused calls' jobs (fused_ag.c, fused_rs.c, packed by
 * fused_jobs.c) and the unfused sequence they are compared with
 * (fused_seq.c): each builds every rank's jobs of one call.
 */
#ifndef SWCCL_FUSED_H
#define SWCCL_FUSED_H

#include "swai-prog.h"
#include "swccl_call.h"

struct swccl_sched;

/* Instructions added around an emitter's program (progress, barrier). */
#define SWCCL_FUSED_RESERVE	4

/* Global-HBM bytes of the staging half (AG) or exchange half (RS) a call needs. */
size_t fused_ag_stage_bytes(const struct swccl_call *c);
size_t fused_rs_stage_bytes(const struct swccl_call *c);
/* Rank @rank's jobs of the fused call, jobs of at most c->kinsns; 0 or the emitters' -errno. */
int fused_ag_jobs(const struct swccl_call *c, int rank, struct swai_progs *out);
int fused_rs_jobs(const struct swccl_call *c, int rank, struct swai_progs *out);

/* Append pre + body + post to the last job, or to a new one if it does not fit. */
void jobs_unit(struct swai_progs *j, const struct swai_prog *pre, const struct swai_insn *body,
	       int nbody, const struct swai_prog *post, int max_insns);
/* The emitter's programs as units: @pre before the first, @post after the last. */
void jobs_add_progs(struct swai_progs *j, const struct swai_progs *ps,
		    const struct swai_prog *pre, const struct swai_prog *post, int max_insns);
/*
 * A fused call's two halves around the on-card barrier: @before (the
 * writer: LayerNorm / GEMM) with the START and WRITTEN progress and the
 * BARRIER after it, @after (the reader: GEMM / reduce + dropout) ending
 * with DONE.  0 or -ENOMEM.
 */
int jobs_two_phases(struct swai_progs *out, const struct swccl_call *c, int rank,
		    const struct swai_progs *before, const struct swai_progs *after, int max_insns);

/*
 * fused_seq.c: the unfused sequence of a fused call, as an application
 * would call it -- sdaaLayerNorm, swcclAllGather (CSC), sdaaGemm; sdaaGemm,
 * swcclReduceScatter (CSC), sdaaDropout -- the same programs, in one phase.
 * The CSC collective's call (its buffers) is @coll; 0 or -errno.
 */
void fused_seq_collective(const struct swccl_call *c, struct swccl_call *coll);
int fused_seq_schedule(const struct swccl_call *c, const struct swccl_call *coll,
		       struct swccl_sched *s);

#endif /* SWCCL_FUSED_H */
