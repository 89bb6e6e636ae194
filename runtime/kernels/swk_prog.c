// SPDX-License-Identifier: MIT
/*
 * swk_prog.c - what the kernel emitters share around the program builder
 * (tools/card/swai-prog.h): the job budget, the end-of-emitter check,
 * asynchronous transfers and the pieces of a block-laid-out matrix.
 */
#include <string.h>

#include "swk.h"
#include "swk_priv.h"

unsigned int swk_esize(uint8_t dtype)
{
	return dtype == SWAI_DT_F32 ? 4 : dtype == SWAI_DT_BF16 ? 2 : 0;
}

int swk_finish(struct swai_progs *out, int first)
{
	if (!swai_progs_nomem(out, first))
		return 0;
	swai_progs_truncate(out, first);
	return -ENOMEM;
}

int swk_cfg_budget(const struct swk_cfg *cfg, int *budget)
{
	int max = SWAI_PROGRAM_MAX_BYTES / (int)sizeof(struct swai_insn);

	if (!cfg || cfg->ldm_bytes < 16 * SWK_LDM_ALIGN || cfg->ldm_bytes > UINT32_MAX ||
	    cfg->max_insns < 1 || cfg->max_insns > max || cfg->reserve < 0 ||
	    cfg->reserve >= cfg->max_insns)
		return -EINVAL;
	*budget = cfg->max_insns - cfg->reserve;
	return 0;
}

uint32_t swk_f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

void swk_xfer(struct swai_prog *p, uint8_t op, uint64_t dst, uint64_t src, uint32_t rows,
	      uint64_t len, uint64_t dst_stride, uint64_t src_stride)
{
	/* Contiguous rows are stride 0 (= len): what the card expects for them. */
	swai_prog_push(p, swai_insn_xfer(op, SWAI_XFER_ASYNC, dst, src, rows, len,
					 dst_stride != len ? dst_stride : 0,
					 src_stride != len ? src_stride : 0));
}

/*
 * Rows [r0, r0 + nrows) x bytes [c0, c0 + len) of @m, split where the rows
 * change block; calls @fn per piece with the VA, the first row and the
 * count.  Blocks whose VA is 0 are skipped when @skip0.
 */
int swk_mat_pieces(const struct swk_mat *m, unsigned int esize, uint32_t r0, uint32_t nrows,
		   uint64_t c0, struct swk_piece *pc, bool skip0)
{
	int n = 0;

	while (nrows) {
		uint32_t b = m->block_rows ? r0 / m->block_rows : 0;
		uint32_t base = m->block_rows ? b * m->block_rows : 0;
		uint32_t cnt = m->block_rows ? base + m->block_rows - r0 : nrows;

		if (cnt > nrows)
			cnt = nrows;
		if (b < SWK_MAX_BLOCKS && (!skip0 || m->va[b])) {
			if (pc) {
				pc[n].va = m->va[b] + ((uint64_t)(r0 - base) * m->ld) * esize + c0;
				pc[n].row = r0;
				pc[n].rows = cnt;
			}
			n++;
		}
		r0 += cnt;
		nrows -= cnt;
	}
	return n;
}

int swk_get_mat(struct swai_prog *p, const struct swk_mat *m, unsigned int esize, uint32_t r0,
		uint32_t nrows, uint32_t c0, uint32_t ncols, uint64_t ldm, uint64_t ldm_ld)
{
	struct swk_piece pc[SWK_MAX_BLOCKS];
	int n = swk_mat_pieces(m, esize, r0, nrows, (uint64_t)c0 * esize, pc, false);

	for (int i = 0; i < n; i++)
		swk_xfer(p, SWAI_OP_DMA_GET, ldm + (uint64_t)(pc[i].row - r0) * ldm_ld, pc[i].va,
			 pc[i].rows, (uint64_t)ncols * esize, ldm_ld, (uint64_t)m->ld * esize);
	return n;
}

int swk_put_mat(struct swai_prog *p, const struct swk_mat *m, unsigned int esize, uint32_t r0,
		uint32_t nrows, uint32_t c0, uint32_t ncols, uint64_t ldm, uint64_t ldm_ld)
{
	struct swk_piece pc[SWK_MAX_BLOCKS];
	int n = swk_mat_pieces(m, esize, r0, nrows, (uint64_t)c0 * esize, pc, true);

	for (int i = 0; i < n; i++)
		swk_xfer(p, SWAI_OP_DMA_PUT, pc[i].va, ldm + (uint64_t)(pc[i].row - r0) * ldm_ld,
			 pc[i].rows, (uint64_t)ncols * esize, (uint64_t)m->ld * esize, ldm_ld);
	return n;
}

bool swk_mat_ok(const struct swk_mat *m, uint32_t rows)
{
	if (!m->block_rows)
		return true;
	return (uint64_t)m->block_rows * SWK_MAX_BLOCKS >= rows;
}
