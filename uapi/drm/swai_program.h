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
#define SWAI_OP_MAX		0x0b

/* struct swai_insn.flags, per op */
#define SWAI_SIGNAL_SET		0x01	/* SIGNAL: store src instead of adding */
#define SWAI_WAIT_EQ		0x01	/* WAIT: until == src instead of >= */
#define SWAI_BARRIER_HOST	0x01	/* BARRIER: host-mediated (t_sync) cost */
#define SWAI_TIMESTAMP_WALL	0x01	/* TIMESTAMP: host wall ns, not modeled */

/* struct swai_insn.dtype (REDUCE, DIV) */
#define SWAI_DT_F32		0
#define SWAI_DT_F16		1
#define SWAI_DT_BF16		2
#define SWAI_DT_F64		3
#define SWAI_DT_I32		4
#define SWAI_DT_I64		5
#define SWAI_DT_U8		6	/* unsigned: SUM/PROD wrap, MAX/MIN */
#define SWAI_DT_MAX		6

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

/* Largest program a job may carry: 1365 instructions. */
#define SWAI_PROGRAM_MAX_BYTES	65520

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_SWAI_PROGRAM_H_ */
