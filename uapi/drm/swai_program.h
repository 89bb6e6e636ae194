/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note OR MIT */
/*
 * swai_program.h - the core-group program format of the SW-AI card.
 *
 * A job (DRM_IOCTL_SWAI_SUBMIT) runs one program on one core group (CG): an
 * array of struct swai_insn, executed in order by the CG's compute cores
 * (CPEs) together.  The format is shared by the card (tools/qemu/), the
 * driver (which checks only the size) and libsdaa (which builds programs);
 * Documentation/datasheet.md §13 is its full description.
 *
 * Operands name either a device virtual address (VA) of the submitting
 * context -- Local-HBM of the executing CG, Global-HBM, or pinned host
 * memory -- or an offset into the CG's LDM (tier L0): the CPEs' local data
 * memories seen as one array of cpes_per_cg * ldm_size bytes.  A program
 * that touches another CG's Local-HBM (unless its job was submitted with
 * peer access, DRM_SWAI_SUBMIT_PEER), an LDM range beyond the LDM, or a VA
 * its context has not mapped stops with an error (SWAI_JOB_ERR_*); the card
 * goes on with other jobs.  LDM contents do not survive a job.
 */
#ifndef _UAPI_SWAI_PROGRAM_H_
#define _UAPI_SWAI_PROGRAM_H_

#include <linux/types.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* struct swai_insn.op */
#define SWAI_OP_NOP		0x00
#define SWAI_OP_END		0x01	/* stop here (the program may be shorter) */
#define SWAI_OP_DMA_GET		0x02	/* LDM[dst] <- VA[src], rows x len */
#define SWAI_OP_DMA_PUT		0x03	/* VA[dst] <- LDM[src], rows x len */
#define SWAI_OP_COPY		0x04	/* VA[dst] <- VA[src], rows x len, via LDM */
#define SWAI_OP_REDUCE		0x05	/* LDM[dst][i] = LDM[dst][i] rop LDM[src][i] */
#define SWAI_OP_BARRIER		0x06	/* all 'len' CGs reach semaphore VA[dst] */
#define SWAI_OP_SIGNAL		0x07	/* u64 VA[dst] += src (or = src) */
#define SWAI_OP_WAIT		0x08	/* until u64 VA[dst] >= src (or == src) */
#define SWAI_OP_FENCE		0x09	/* u64 VA[dst] = src, then interrupt */
#define SWAI_OP_TIMESTAMP	0x0a	/* u64 VA[dst] = modeled (or wall) ns */
#define SWAI_OP_DIV		0x0b	/* LDM[dst][i] = LDM[dst][i] / src */
#define SWAI_OP_GEMM		0x0c	/* LDM: C = alpha op(A) op(B) + beta C */
#define SWAI_OP_LAYERNORM	0x0d	/* LDM: y = (x - mean) / std * g + b */
#define SWAI_OP_DROPOUT		0x0e	/* LDM: y = keep(i) ? x / p : 0 */
#define SWAI_OP_CVT		0x0f	/* LDM[dst] = (rop type) LDM[src] */
#define SWAI_OP_DRAIN		0x10	/* wait for all asynchronous transfers */
#define SWAI_OP_MAX		0x10

/* struct swai_insn.flags, per op */
#define SWAI_SIGNAL_SET		0x01	/* SIGNAL: store src instead of adding */
#define SWAI_WAIT_EQ		0x01	/* WAIT: until == src instead of >= */
#define SWAI_BARRIER_HOST	0x01	/* BARRIER: host-mediated (t_sync) cost */
#define SWAI_TIMESTAMP_WALL	0x01	/* TIMESTAMP: host wall ns, not modeled */
/*
 * DMA_GET, DMA_PUT, COPY: asynchronous.  The instruction only issues the
 * transfer (its fixed cost) and the program goes on; the card orders it
 * after earlier work on the LDM bytes it touches and on the ports it uses,
 * and later instructions that touch those LDM bytes wait for it.  Accesses
 * to the same HBM/host bytes are not ordered: put SWAI_OP_DRAIN (or any
 * semaphore instruction, which drains first) between them.  Without this
 * flag a transfer first waits for everything issued before it.
 */
#define SWAI_XFER_ASYNC		0x01
#define SWAI_GEMM_TRANS_A	0x01	/* GEMM: op(A) = A^T */
#define SWAI_GEMM_TRANS_B	0x02	/* GEMM: op(B) = B^T */

/* struct swai_insn.dtype (REDUCE, DIV) */
#define SWAI_DT_F32		0
#define SWAI_DT_F16		1
#define SWAI_DT_BF16		2
#define SWAI_DT_F64		3
#define SWAI_DT_I32		4
#define SWAI_DT_I64		5
#define SWAI_DT_U8		6	/* unsigned: SUM/PROD wrap, MAX/MIN */
#define SWAI_DT_MAX		6

/* struct swai_insn_gemm.epilogue */
#define SWAI_EPI_NONE		0
#define SWAI_EPI_GELU		1	/* C = gelu(C), tanh form, after beta */
#define SWAI_EPI_MAX		1

/* struct swai_insn.rop (REDUCE) */
#define SWAI_ROP_SUM		0
#define SWAI_ROP_PROD		1
#define SWAI_ROP_MAX		2
#define SWAI_ROP_MIN		3
#define SWAI_ROP_MAXOP		3

/*
 * One instruction, 48 bytes, little endian.  Fields an op does not use must
 * be zero (else SWAI_JOB_ERR_ILLEGAL), so they can gain meaning later.
 *
 * Transfers (DMA_GET, DMA_PUT, COPY) move @rows rows of @len bytes (rows 0
 * means 1); row r starts at dst + r * @dst_stride and src + r * @src_stride
 * (a stride of 0 means @len: contiguous).  Any size and alignment.
 * REDUCE combines @len elements of @dtype; both LDM offsets must be aligned
 * to the element size.  DIV divides @len elements of @dtype at LDM @dst by
 * the integer @src >= 1 (floats: by (double)src, rounded to the type;
 * integers: truncated toward zero); @dst aligned to the element size.
 * Semaphores (BARRIER, SIGNAL, WAIT, FENCE, TIMESTAMP) are 8-byte aligned
 * u64 at VA @dst.
 */
struct swai_insn {
	__u8 op;		/* SWAI_OP_* */
	__u8 flags;		/* per op, see above */
	__u8 dtype;		/* REDUCE, DIV: SWAI_DT_* */
	__u8 rop;		/* REDUCE: SWAI_ROP_* */
	__u32 rows;		/* transfers: number of rows */
	__u64 len;		/* bytes per row; REDUCE/DIV: elements; BARRIER: CGs */
	__u64 dst;		/* VA or LDM offset */
	__u64 src;		/* VA, LDM offset, or immediate (SIGNAL..FENCE, DIV) */
	__u64 dst_stride;	/* transfers: bytes between rows at dst */
	__u64 src_stride;	/* transfers: bytes between rows at src */
};

/*
 * The compute instructions (GEMM, LAYERNORM, DROPOUT, CVT) lay their
 * operands out differently in the same 48 bytes; build them through these
 * structures (the card decodes the bytes, little endian).  All offsets are
 * LDM byte offsets aligned to their element size, all pitches are in
 * elements, matrices are row major, reserved fields must be zero, and floats
 * are IEEE-754 binary32 bit patterns.  Element types are SWAI_DT_F32 or
 * SWAI_DT_BF16 (bf16 rounds to nearest even); arithmetic is f32, in a fixed
 * order (datasheet §13.7), so a result depends only on the instruction and
 * its operands.  Cost: FLOPs at the CG's stated peak (datasheet §14).
 */

/*
 * GEMM: C[m][n] = alpha * sum_k op(A)[m][k] op(B)[k][n] + beta * C[m][n],
 * then the epilogue.  A and B are @dtype, C is f32; op(A) is m x k
 * (A^T with SWAI_GEMM_TRANS_A: A is stored k x m), op(B) is k x n.  beta 0
 * ignores C's old contents (NaN included).
 */
struct swai_insn_gemm {
	__u8 op;		/* SWAI_OP_GEMM */
	__u8 flags;		/* SWAI_GEMM_TRANS_* */
	__u8 dtype;		/* A and B: SWAI_DT_F32 or SWAI_DT_BF16 */
	__u8 epilogue;		/* SWAI_EPI_* */
	__u32 m;
	__u32 n;
	__u32 k;
	__u32 c;
	__u32 ldc;
	__u32 a;
	__u32 lda;
	__u32 b;
	__u32 ldb;
	__u32 alpha;		/* binary32 */
	__u32 beta;		/* binary32 */
};

/*
 * LAYERNORM, row by row: mean and variance (biased, two passes) in f32,
 * y = (x - mean) * (1 / sqrtf(var + eps)) * gamma[j] + beta[j].  x and y
 * are @dtype and may be the same bytes; gamma and beta are f32 [cols].
 */
struct swai_insn_layernorm {
	__u8 op;		/* SWAI_OP_LAYERNORM */
	__u8 flags;		/* 0 */
	__u8 dtype;		/* x and y */
	__u8 rsvd0;
	__u32 rows;
	__u32 cols;
	__u32 eps;		/* binary32, >= 0 */
	__u32 y;
	__u32 ldy;
	__u32 x;
	__u32 ldx;
	__u32 gamma;
	__u32 beta;
	__u64 rsvd1;
};

/*
 * DROPOUT of @n elements: element i keeps its value, scaled by 1 / keep,
 * when u(offset + i) < keep, else becomes 0; u(c) is a uniform number in
 * [0, 1) from Philox4x32-10 (key = seed, counter = c / 4, word c % 4, top
 * 24 bits), so any split of a tensor over instructions, jobs or CGs gives
 * the same mask for the same seed and offsets.  x and y may be the same.
 */
struct swai_insn_dropout {
	__u8 op;		/* SWAI_OP_DROPOUT */
	__u8 flags;		/* 0 */
	__u8 dtype;		/* x and y */
	__u8 rsvd0;
	__u32 n;
	__u32 y;
	__u32 x;
	__u32 keep;		/* binary32 keep probability, in (0, 1] */
	__u32 rsvd1;
	__u64 seed;
	__u64 offset;		/* Philox counter of element 0 */
	__u64 rsvd2;
};

/*
 * CVT uses struct swai_insn: @len elements from LDM @src of type @dtype to
 * LDM @dst of type @rop (F32 <-> BF16, or the same type: a copy).  The
 * ranges must not overlap unless dst == src and the types have one size.
 */

/* Largest program a job may carry: 1365 instructions. */
#define SWAI_PROGRAM_MAX_BYTES	65520

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_SWAI_PROGRAM_H_ */
