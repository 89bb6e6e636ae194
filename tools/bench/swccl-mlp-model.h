/* SPDX-License-Identifier: MIT */
/*
 * swccl-mlp-model.h - the paper's Table 5 (expected pre-training time of the
 * intra-card tensor-parallel communication) from measured per-block times:
 * the models, the stated assumptions, the arithmetic.  Pure: unit-tested in
 * tools/tests/swccl-bench-test.c.
 */
#ifndef SWCCL_MLP_MODEL_H
#define SWCCL_MLP_MODEL_H

#include <stddef.h>

struct mlp_model {
	const char *name, *label;
	size_t hidden, seq;
	int layers, tp, pp, dp;
	double tokens;		/* pre-training tokens */
	double batch_seqs;	/* global batch, sequences (assumption, see mlp_model_find) */
	/* the paper's Table 5: [0] Ring-TP, [1] fused CSC-TP */
	double paper_layer_s[2], paper_iter_s[2], paper_days[2];
};

/* "neox" or "llama"; NULL if neither. */
const struct mlp_model *mlp_model_find(const char *name);

/*
 * From @block_us, the TP communication of one transformer block (attention
 * or MLP: one AllGather + one ReduceScatter, or what of them a fused call
 * leaves exposed) for one micro-batch of one sequence:
 *   per layer  = micro-batches x 2 blocks x 2 (forward, backward) x block
 *   micro-batches = batch_seqs / dp (micro-batch = 1 sequence)
 *   per iteration = per layer x layers / pp (a pipeline stage holds
 *     layers / pp layers: the paper's 3.52 / 1.28 = 44 / 16, 5.75 / 1.15 = 80 / 16)
 *   days = tokens / (batch_seqs x seq) iterations x per iteration / 86400
 */
struct mlp_estimate {
	double micro, layer_s, iter_s, iterations, days;
};
struct mlp_estimate mlp_estimate(const struct mlp_model *m, double block_us);
/* The iterations the paper's own Table 5 implies (days x 86400 / s per iteration). */
double mlp_paper_iterations(const struct mlp_model *m, int csc);

#endif /* SWCCL_MLP_MODEL_H */
