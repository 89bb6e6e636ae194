/* SPDX-License-Identifier: MIT */
/*
 * swk_priv.h - what the kernel emitters share: instruction helpers, block
 * layout pieces, and the tile loop of the element-wise kernels.
 */
#ifndef SWK_PRIV_H
#define SWK_PRIV_H

#include <errno.h>

#include "swk.h"

/* Transfers below this size are dominated by their 1 us fixed cost. */
#define SWK_MIN_XFER	(256u << 10)
/* Element-wise kernels aim at this many tiles, so transfers overlap compute. */
#define SWK_EW_TILES	8

static inline uint64_t swk_align(uint64_t v)
{
	return (v + SWK_LDM_ALIGN - 1) & ~(uint64_t)(SWK_LDM_ALIGN - 1);
}

static inline uint64_t swk_div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

uint32_t swk_f32_bits(float f);
/* Remove the programs from @first on if anything ran out of memory: 0 or -ENOMEM. */
int swk_finish(struct swai_progs *out, int first);
/* 0 if @cfg is usable, else -EINVAL; the instructions a job may hold in *budget. */
int swk_cfg_budget(const struct swk_cfg *cfg, int *budget);

/* An asynchronous DMA_GET / DMA_PUT (strides equal to @len become 0). */
void swk_xfer(struct swai_prog *p, uint8_t op, uint64_t dst, uint64_t src, uint32_t rows,
	      uint64_t len, uint64_t dst_stride, uint64_t src_stride);

/* A run of rows of a struct swk_mat that lies in one block. */
struct swk_piece { uint64_t va; uint32_t row, rows; };
int swk_mat_pieces(const struct swk_mat *m, unsigned int esize, uint32_t r0, uint32_t nrows,
		   uint64_t c0, struct swk_piece *pc, bool skip0);
/* The blocks of @m cover @rows rows. */
bool swk_mat_ok(const struct swk_mat *m, uint32_t rows);
/*
 * Rows [r0, r0 + nrows), elements [c0, c0 + ncols) of @m <-> LDM @ldm with
 * @ldm_ld bytes between rows: one transfer per block piece; returns the
 * count (the PUT skips blocks at VA 0).
 */
int swk_get_mat(struct swai_prog *p, const struct swk_mat *m, unsigned int esize, uint32_t r0,
		uint32_t nrows, uint32_t c0, uint32_t ncols, uint64_t ldm, uint64_t ldm_ld);
int swk_put_mat(struct swai_prog *p, const struct swk_mat *m, unsigned int esize, uint32_t r0,
		uint32_t nrows, uint32_t c0, uint32_t ncols, uint64_t ldm, uint64_t ldm_ld);

/*
 * The element-wise tile loop: @n elements in tiles of @tile, @per_tile
 * instructions each; per job the tiles are loaded one ahead of their
 * compute, into buffer set (tile index % 2).
 */
struct swk_ew {
	uint64_t n, tile;
	int per_tile;
	const void *ctx;
	void (*load)(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par);
	void (*compute)(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par);
	void (*store)(const void *ctx, struct swai_prog *p, uint64_t i0, uint32_t cnt, int par);
};
/*
 * The tile size for @n elements when each element needs @bytes_per_elem of
 * LDM in each of the two buffer sets, and @esize is the smallest element
 * size involved (for the transfer-size floor); 0 if none fits.
 */
uint64_t swk_ew_tile(uint64_t n, uint64_t ldm_bytes, uint64_t bytes_per_elem,
		     unsigned int esize);
int swk_ew_emit(struct swai_progs *out, const struct swk_ew *e, const struct swk_cfg *cfg);

#endif /* SWK_PRIV_H */
