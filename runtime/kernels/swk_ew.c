// SPDX-License-Identifier: MIT
/*
 * swk_ew.c - the tile loop shared by the element-wise kernels (dropout,
 * conversion, reduce + dropout).
 *
 * Two buffer sets alternate by tile index (not by position in the job, so
 * the LDM offsets of a tile do not depend on how the tiles are split into
 * jobs).  In a job the GET of tile t+1 is issued before the compute of
 * tile t, and results go out with asynchronous PUTs: the card's LDM
 * scoreboard makes a GET into a set wait for the PUT still reading it.
 */
#include "swk_priv.h"

uint64_t swk_ew_tile(uint64_t n, uint64_t ldm_bytes, uint64_t bytes_per_elem,
		     unsigned int esize)
{
	/* Multiples of 128 elements keep every buffer of any type 256-byte aligned. */
	const uint64_t q = 128;
	/* Each buffer set loses at most one alignment granule per buffer. */
	uint64_t max = (ldm_bytes / 2 - 4 * SWK_LDM_ALIGN) / bytes_per_elem / q * q;
	uint64_t want = swk_div_up(n, SWK_EW_TILES);
	uint64_t floor = SWK_MIN_XFER / esize;

	if (want < floor)
		want = floor;
	want = swk_div_up(want, q) * q;
	if (max > UINT32_MAX / 2 / q * q)
		max = UINT32_MAX / 2 / q * q;
	return want < max ? want : max;
}

int swk_ew_emit(struct swai_progs *out, const struct swk_ew *e, const struct swk_cfg *cfg)
{
	uint64_t ntiles, per_job;
	int budget, first = out->n;

	if (swk_cfg_budget(cfg, &budget) || !e->n)
		return -EINVAL;
	if (!e->tile || e->per_tile > budget)
		return -E2BIG;
	ntiles = swk_div_up(e->n, e->tile);
	per_job = (uint64_t)(budget / e->per_tile);
	for (uint64_t t0 = 0; t0 < ntiles; t0 += per_job) {
		uint64_t t1 = t0 + per_job < ntiles ? t0 + per_job : ntiles;
		struct swai_prog *p = swai_progs_add(out);

		if (!p)
			break;
		for (uint64_t t = t0; t <= t1; t++) {
			/* Tile t is loaded in the step before its compute. */
			if (t < t1) {
				uint64_t i0 = t * e->tile;
				uint64_t cnt = e->n - i0 < e->tile ? e->n - i0 : e->tile;

				e->load(e->ctx, p, i0, (uint32_t)cnt, (int)(t & 1));
			}
			if (t > t0) {
				uint64_t i0 = (t - 1) * e->tile;
				uint64_t cnt = e->n - i0 < e->tile ? e->n - i0 : e->tile;

				e->compute(e->ctx, p, i0, (uint32_t)cnt, (int)((t - 1) & 1));
				e->store(e->ctx, p, i0, (uint32_t)cnt, (int)((t - 1) & 1));
			}
		}
	}
	return swk_finish(out, first);
}
