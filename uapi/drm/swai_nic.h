/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note OR MIT */
/*
 * swai_nic.h - the card's NIC collective engine: the layout of its
 * descriptors and the codes of its ALU (datasheet §16, after seed 001's
 * Tianhe NIC, §3.1-3.2).
 *
 * Like swai_program.h this is the one definition of what userspace hands the
 * card: the driver validates descriptors against it, the card model
 * (tools/card/swai-nic.h) executes them, and libswccl and the simulator
 * build them.  Integer constants only, so it compiles in the kernel and in
 * userspace.  Every descriptor is SWAI_NIC_DESC_SIZE bytes, little endian.
 */
#ifndef _UAPI_SWAI_NIC_H_
#define _UAPI_SWAI_NIC_H_

#include <linux/const.h>

#define SWAI_NIC_DESC_SIZE		128
#define SWAI_NIC_DATA_MAX		48	/* bytes of reduce data per descriptor */
#define SWAI_NIC_ELEMS_MAX		12	/* 48 B of 32-bit elements */
#define SWAI_NIC_VPORTS			16	/* virtual ports per NIC */
#define SWAI_NIC_BRANCH_MAX		255	/* children one descriptor combines */
#define SWAI_NIC_QDEPTH			256	/* descriptors queued per virtual port */
#define SWAI_NIC_NODE_NONE		0xffff	/* DST: send nothing */
#define SWAI_NIC_WRITE_MAX		0x100000	/* bytes a WRITE..RECV moves, 1 MiB */
#define SWAI_NIC_WRITE_CHUNK		1024	/* bytes of a WRITE..SEND a packet carries */

/* Descriptor fields: byte offsets and widths. */
#define SWAI_NIC_D_CTRL			0x00	/* u32: SWAI_NIC_KIND_* | SWAI_NIC_F_* */
#define SWAI_NIC_D_VPORT		0x04	/* u8: the virtual port it is queued on */
#define SWAI_NIC_D_DST_VPORT		0x05	/* u8: the destination's virtual port */
#define SWAI_NIC_D_BRANCH		0x06	/* u8: children to combine (REDUCE) */
#define SWAI_NIC_D_CHILD		0x07	/* u8: this sender's child slot there */
#define SWAI_NIC_D_RTYPE		0x08	/* u8: SWAI_NIC_OP_* */
#define SWAI_NIC_D_DTYPE		0x09	/* u8: SWAI_NIC_T_* */
#define SWAI_NIC_D_WIDTH		0x0a	/* u8: 4 or 8 bytes an element */
#define SWAI_NIC_D_COUNT		0x0b	/* u8: elements, <= 48 / width */
#define SWAI_NIC_D_SRC			0x0c	/* u16: this node */
#define SWAI_NIC_D_DST			0x0e	/* u16: destination node, or NONE */
#define SWAI_NIC_D_CPCNT		0x10	/* u32: trigger threshold */
#define SWAI_NIC_D_ERRVEC		0x14	/* u16: element error bits (in) */
#define SWAI_NIC_D_KEY			0x16	/* u16: the destination port's key */
#define SWAI_NIC_D_ADDR			0x18	/* u64: at the peer, or a completion's here */
#define SWAI_NIC_D_LOC			0x20	/* u32[12]: locations (MAXLOC/MINLOC) */
#define SWAI_NIC_D_SRC_ADDR		0x20	/* u64: the bytes here (WRITE..RECV) */
#define SWAI_NIC_D_LEN			0x28	/* u32: WRITE..RECV: bytes, 1..WRITE_MAX */
#define SWAI_NIC_D_DATA			0x50	/* 48 bytes: elements */

/* SWAI_NIC_D_CTRL: the kind (bits 3:0) and flags. */
#define SWAI_NIC_KIND_MASK		0xf
#define SWAI_NIC_KIND_REDUCE		1	/* seed's Rflag: combine, send up */
#define SWAI_NIC_KIND_BCAST		2	/* send the result (or its data) on */
#define SWAI_NIC_KIND_PUT		3	/* write DATA at the destination's ADDR */
#define SWAI_NIC_KIND_ATOMIC		4	/* ADDR[i] = ADDR[i] RTYPE DATA[i] there */
#define SWAI_NIC_KIND_WRITE		5	/* RDMA WRITE: SRC_ADDR's LEN bytes to ADDR */
#define SWAI_NIC_KIND_READ		6	/* RDMA READ: ADDR's LEN bytes to SRC_ADDR */
#define SWAI_NIC_KIND_SEND		7	/* SRC_ADDR's LEN bytes into the peer's RECV */
#define SWAI_NIC_KIND_RECV		8	/* a buffer of LEN bytes at SRC_ADDR for a SEND */
#define SWAI_NIC_KIND_MAX		8
/* CP: the packet adds 1 to the destination port's CP_Counter. */
#define SWAI_NIC_F_CP			_BITUL(4)
/* SWPFLAG: a BCAST sends the port's result register, not its DATA. */
#define SWAI_NIC_F_SWPFLAG		_BITUL(5)
/* SWPMP: the packet goes to the destination's receive queue. */
#define SWAI_NIC_F_SWPMP		_BITUL(6)
/* COMPLETE: write the result to ADDR once this descriptor has run. */
#define SWAI_NIC_F_COMPLETE		_BITUL(7)
/* ABS (Portals): CPCNT is an absolute count, not consumed. */
#define SWAI_NIC_F_ABS			_BITUL(8)
#define SWAI_NIC_F_ALL			0x1f0

/* SWAI_NIC_D_DTYPE */
#define SWAI_NIC_T_FLOAT		0	/* IEEE binary32 / binary64 */
#define SWAI_NIC_T_SINT			1	/* two's complement */
#define SWAI_NIC_T_UINT			2
#define SWAI_NIC_T_MAX			2

/* SWAI_NIC_D_RTYPE: the ALU's operations (seed 001 §3.1). */
#define SWAI_NIC_OP_SUM			0	/* float add; integer add (wraps) */
#define SWAI_NIC_OP_MAX			1
#define SWAI_NIC_OP_MIN			2
#define SWAI_NIC_OP_MAXLOC		3	/* the larger and its location */
#define SWAI_NIC_OP_MINLOC		4
#define SWAI_NIC_OP_LAND		5	/* integers: logical, result 0/1 */
#define SWAI_NIC_OP_LOR			6
#define SWAI_NIC_OP_LXOR		7
#define SWAI_NIC_OP_BAND		8	/* integers: bitwise */
#define SWAI_NIC_OP_BOR			9
#define SWAI_NIC_OP_BXOR		10
#define SWAI_NIC_OP_MAXOP		10

/* Completion status (struct swai_nic_cqe.status). */
#define SWAI_NIC_OK			0
#define SWAI_NIC_E_MISSING		1	/* a child slot was empty at firing */
#define SWAI_NIC_E_MISMATCH		2	/* a child's RTYPE/DTYPE/WIDTH/COUNT differs */
#define SWAI_NIC_E_OVERRUN		3	/* a packet for a slot already full */
#define SWAI_NIC_E_ROUTE		4	/* the destination cannot be reached */
#define SWAI_NIC_E_FAULT		5	/* ADDR refused by the memory's owner */
#define SWAI_NIC_E_COUNTER		6	/* the port counted too many arrivals */
#define SWAI_NIC_E_RESET		7	/* dropped by a port reset */
#define SWAI_NIC_E_KEY			8	/* a packet for a closed port or with a wrong key */
#define SWAI_NIC_E_RNR			9	/* a SEND found no RECV posted */
#define SWAI_NIC_E_LENGTH		10	/* a SEND's length is not its RECV's */

#endif /* _UAPI_SWAI_NIC_H_ */
