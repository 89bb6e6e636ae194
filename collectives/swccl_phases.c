// SPDX-License-Identifier: MIT
/*
 * swccl_phases.c - the reduction building block every reducing algorithm
 * uses, so that all of them reduce element i in the same order.
 *
 * fold: out = ((items[0] op items[1]) op items[2]) ... in LDM, chunk by
 * chunk.  Each item is read into its own LDM slot (in a rotated order when
 * asked, so that ranks reading the same sources at once start at different
 * ones), then the slots are combined strictly in item order into slot 0.
 * The algorithms pass items in rank order 0..N-1 (or an accumulator that
 * already holds ranks 0..k in that order, followed by ranks k+1..), which
 * is what makes results bitwise identical across algorithms.
 */
#include "swccl_algo.h"

void phase_fold(struct swai_prog *p, const struct swccl_call *c, const uint64_t *items,
		int nitems, int rot, const uint64_t *out, int nout, bool final, uint64_t n)
{
	uint64_t es = c->esize, ch = swccl_chunk(c, nitems) / es;

	for (uint64_t off = 0; off < n; off += ch) {
		uint64_t m = n - off < ch ? n - off : ch;

		for (int k = 0; k < nitems; k++) {
			int j = (k + rot) % nitems;

			prog_get(p, (uint64_t)j * ch * es, items[j] + off * es, m * es);
		}
		for (int j = 1; j < nitems; j++)
			prog_reduce(p, c, 0, (uint64_t)j * ch * es, m);
		if (final)
			prog_finish_op(p, c, 0, m);
		for (int o = 0; o < nout; o++)
			prog_put(p, out[o] + off * es, 0, m * es);
	}
}

/*
 * The paper's Algorithm 2 read phase: N-1 rounds, each reading the running
 * result and the next rank's part, reducing, and writing the result back
 * (to @acc, or to @dst after the last round).  src[j]: rank j's part.
 */
void phase_reduce_rounds(struct swai_prog *p, const struct swccl_call *c,
			 const uint64_t *src, uint64_t acc, uint64_t dst, uint64_t n)
{
	int nr = c->nranks;

	if (nr == 1) {
		phase_fold(p, c, src, 1, 0, &dst, 1, true, n);
		return;
	}
	for (int i = 1; i < nr; i++) {
		uint64_t items[2] = { i == 1 ? src[0] : acc, src[i] };
		uint64_t out = i == nr - 1 ? dst : acc;

		phase_fold(p, c, items, 2, 0, &out, 1, i == nr - 1, n);
	}
}
