// SPDX-License-Identifier: MIT
/*
 * swccl-mlp-model.c - Table 5's arithmetic.  The paper states the models,
 * tokens and parallelism (tp = 4 on one card, pp = 16, dp = 8, §1.2) but
 * not its batch size; we assume the models' published global batches:
 * GPT-NeoX-20B 1538 sequences of 2048 tokens (3.15 M tokens), LLaMa 70B
 * 4 M tokens = 2048 sequences of 2048.
 */
#include <string.h>

#include "swccl-mlp-model.h"

static const struct mlp_model models[] = {
	{ "neox", "GPT-NeoX 20B", 6144, 2048, 44, 4, 16, 8, 0.4e12, 1538,
	  { 1.28, 0.80 }, { 3.52, 2.20 }, { 6.1, 3.8 } },
	{ "llama", "LLaMa 70B", 8192, 2048, 80, 4, 16, 8, 2e12, 2048,
	  { 1.15, 0.71 }, { 5.75, 3.56 }, { 34.9, 21.6 } },
};

const struct mlp_model *mlp_model_find(const char *name)
{
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(name, models[i].name))
			return &models[i];
	return NULL;
}

struct mlp_estimate mlp_estimate(const struct mlp_model *m, double block_us)
{
	struct mlp_estimate e;

	e.micro = m->batch_seqs / m->dp;
	e.layer_s = e.micro * 2 * 2 * block_us / 1e6;
	e.iter_s = e.layer_s * m->layers / m->pp;
	e.iterations = m->tokens / (m->batch_seqs * (double)m->seq);
	e.days = e.iterations * e.iter_s / 86400;
	return e;
}

double mlp_paper_iterations(const struct mlp_model *m, int csc)
{
	return m->paper_days[csc] * 86400 / m->paper_iter_s[csc];
}
