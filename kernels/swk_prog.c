// SPDX-License-Identifier: MIT
/*
 * swk_prog.c - growable program buffers for the kernel emitters: one
 * struct swk_prog per job, collected in a struct swk_progs.  Running out of
 * memory only sets a flag; the emitter checks it once at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "swk.h"
#include "swk_priv.h"

void swk_progs_init(struct swk_progs *ps)
{
	memset(ps, 0, sizeof(*ps));
}

void swk_progs_free(struct swk_progs *ps)
{
	for (int i = 0; i < ps->n; i++)
		free(ps->p[i].in);
	free(ps->p);
	swk_progs_init(ps);
}

static bool grow(void **buf, int *cap, size_t esize)
{
	int ncap = *cap ? *cap * 2 : 16;
	void *nb = realloc(*buf, (size_t)ncap * esize);

	if (!nb)
		return false;
	*buf = nb;
	*cap = ncap;
	return true;
}

struct swk_prog *swk_progs_add(struct swk_progs *ps)
{
	struct swk_prog *p;

	if (ps->n == ps->cap && !grow((void **)&ps->p, &ps->cap, sizeof(*ps->p))) {
		ps->nomem = true;
		return NULL;
	}
	p = &ps->p[ps->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

struct swai_insn *swk_prog_add(struct swk_prog *p)
{
	struct swai_insn *in;

	if (p->n == p->cap && !grow((void **)&p->in, &p->cap, sizeof(*p->in))) {
		p->nomem = true;
		return NULL;
	}
	in = &p->in[p->n++];
	memset(in, 0, sizeof(*in));
	return in;
}

long swk_progs_insns(const struct swk_progs *ps)
{
	long n = 0;

	for (int i = 0; i < ps->n; i++)
		n += ps->p[i].n;
	return n;
}

unsigned int swk_esize(uint8_t dtype)
{
	return dtype == SWAI_DT_F32 ? 4 : dtype == SWAI_DT_BF16 ? 2 : 0;
}

void swk_progs_truncate(struct swk_progs *out, int first)
{
	for (int i = first; i < out->n; i++)
		free(out->p[i].in);
	out->n = first;
	out->nomem = false;
}

int swk_finish(struct swk_progs *out, int first)
{
	bool nomem = out->nomem;

	for (int i = first; i < out->n; i++)
		nomem |= out->p[i].nomem;
	if (!nomem)
		return 0;
	swk_progs_truncate(out, first);
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

void swk_xfer(struct swk_prog *p, uint8_t op, uint64_t dst, uint64_t src, uint32_t rows,
	      uint64_t len, uint64_t dst_stride, uint64_t src_stride)
{
	struct swai_insn *in = swk_prog_add(p);

	if (!in)
		return;
	in->op = op;
	in->flags = SWAI_XFER_ASYNC;
	in->rows = rows;
	in->len = len;
	in->dst = dst;
	in->src = src;
	/* Contiguous rows are stride 0 (= len): what the card expects for them. */
	in->dst_stride = rows > 1 && dst_stride != len ? dst_stride : 0;
	in->src_stride = rows > 1 && src_stride != len ? src_stride : 0;
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

int swk_get_mat(struct swk_prog *p, const struct swk_mat *m, unsigned int esize, uint32_t r0,
		uint32_t nrows, uint32_t c0, uint32_t ncols, uint64_t ldm, uint64_t ldm_ld)
{
	struct swk_piece pc[SWK_MAX_BLOCKS];
	int n = swk_mat_pieces(m, esize, r0, nrows, (uint64_t)c0 * esize, pc, false);

	for (int i = 0; i < n; i++)
		swk_xfer(p, SWAI_OP_DMA_GET, ldm + (uint64_t)(pc[i].row - r0) * ldm_ld, pc[i].va,
			 pc[i].rows, (uint64_t)ncols * esize, ldm_ld, (uint64_t)m->ld * esize);
	return n;
}

int swk_put_mat(struct swk_prog *p, const struct swk_mat *m, unsigned int esize, uint32_t r0,
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
