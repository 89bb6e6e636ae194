/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * swai_regs.h - register map of the emulated SW-AI card.
 *
 * This is the one definition of the hardware programming interface.  It is
 * included by the driver (kernel/) and by the QEMU device model
 * (tools/qemu/), so it uses nothing but integer constants and must compile in
 * both environments.  Documentation/datasheet.md describes every register, its
 * reset value and the rules a driver must follow; keep the two in step.
 */
#ifndef SWAI_REGS_H
#define SWAI_REGS_H

#ifndef BIT
#define BIT(n) (1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n) (1ULL << (n))
#endif

/* PCI identity: QEMU's test vendor ID, class "processing accelerator". */
#define SWAI_PCI_VENDOR_ID		0x1234
#define SWAI_PCI_DEVICE_ID		0x5a10
#define SWAI_PCI_REVISION		0x01
#define SWAI_PCI_CLASS			0x1200

/* BARs */
#define SWAI_BAR_MMIO			0	/* registers, 64 KiB */
#define SWAI_BAR_MSIX			1	/* MSI-X table + PBA (exclusive) */
#define SWAI_BAR_HBM			2	/* 64-bit prefetchable HBM aperture */
#define SWAI_MMIO_SIZE			0x10000

/* Fixed hardware facts */
#define SWAI_NUM_CG			4	/* core groups == HBM controllers */
#define SWAI_ID_MAGIC			0x53574149	/* "SWAI" */
#define SWAI_HW_VERSION_MAJOR		1
#define SWAI_HW_VERSION_MINOR		0
#define SWAI_HW_VERSION			((SWAI_HW_VERSION_MAJOR << 16) | \
					 SWAI_HW_VERSION_MINOR)
#define SWAI_PART_ALIGN_MB		1	/* Local/Global split granule */
#define SWAI_GLOBAL_GRANULE		4096	/* Global-HBM interleave, bytes */
#define SWAI_GLOBAL_BASE		BIT_ULL(40)	/* device address of L2 */
#define SWAI_RESET_MAGIC		0x52534554	/* "RSET" */

/*
 * MSI-X vectors: vector 0 carries management events, vector 1 + cg carries
 * the completions of core group cg's queue.
 */
#define SWAI_MSIX_MGMT			0
#define SWAI_MSIX_QUEUE(cg)		(1 + (cg))
#define SWAI_MSIX_VECTORS		(1 + SWAI_NUM_CG)

/* --- Identity and geometry (read-only) --- */
#define SWAI_REG_ID			0x0000	/* SWAI_ID_MAGIC */
#define SWAI_REG_VERSION		0x0004	/* major << 16 | minor */
#define SWAI_REG_CAPS			0x0008	/* SWAI_CAP_* */
#define SWAI_REG_STATUS			0x000c	/* SWAI_STATUS_* */
#define SWAI_REG_RESET			0x0010	/* WO: write SWAI_RESET_MAGIC */
#define SWAI_REG_SCRATCH		0x0014	/* RW, no side effect */
#define SWAI_REG_ERROR			0x0018	/* RW1C: SWAI_ERR_* */
#define SWAI_REG_NUM_CG			0x0020	/* core groups */
#define SWAI_REG_CPES_PER_CG		0x0024	/* compute cores per CG */
#define SWAI_REG_LDM_SIZE		0x0028	/* bytes of LDM per CPE */
#define SWAI_REG_GLOBAL_GRANULE		0x002c	/* bytes, Global interleave */
#define SWAI_REG_HBM_PER_CG_MB		0x0030	/* MiB on each controller */
#define SWAI_REG_LOCAL_PER_CG_MB	0x0034	/* RW: the Local/Global switch */
#define SWAI_REG_GLOBAL_BASE_LO		0x0038	/* device address of Global */
#define SWAI_REG_GLOBAL_BASE_HI		0x003c

/* SWAI_REG_CAPS bits */
#define SWAI_CAP_MSIX			BIT(0)	/* MSI-X, SWAI_MSIX_VECTORS */
#define SWAI_CAP_APERTURE		BIT(1)	/* BAR2 maps all of HBM */
#define SWAI_CAP_PARTITION		BIT(2)	/* LOCAL_PER_CG_MB writable */
#define SWAI_CAP_SWI			BIT(3)	/* IRQ_RAISE test interrupts */
#define SWAI_CAP_MMU			BIT(4)	/* device MMU, SWAI_REG_MMU_* */
#define SWAI_CAP_QUEUES			BIT(5)	/* command processor, SWAI_Q_* */
#define SWAI_CAP_TIMING			BIT(6)	/* timing model, SWAI_REG_T_* */
#define SWAI_CAP_PEER			BIT(7)	/* SWAI_DESC_PEER, DIV, DT_U8 */
#define SWAI_CAP_COMPUTE		BIT(8)	/* GEMM..DRAIN, XFER_ASYNC */
#define SWAI_CAP_FABRIC			BIT(9)	/* SWAI_PTE_FABRIC, SWAI_REG_FABRIC_* */
#define SWAI_CAP_NIC			BIT(10)	/* SWAI_REG_NIC_*: a NIC port on a network */

/* SWAI_REG_STATUS bits */
#define SWAI_STATUS_READY		BIT(0)	/* reset complete, regs valid */

/* SWAI_REG_ERROR bits (sticky until written back as 1) */
#define SWAI_ERR_BAD_RESET		BIT(0)	/* RESET written w/o magic */
#define SWAI_ERR_BAD_PARTITION		BIT(1)	/* LOCAL_PER_CG_MB rejected */
#define SWAI_ERR_BAD_ACCESS		BIT(2)	/* unaligned/undefined reg */

/* --- Interrupts --- */
#define SWAI_REG_IRQ_STATUS		0x0080	/* RW1C: SWAI_IRQ_* pending */
#define SWAI_REG_IRQ_ENABLE		0x0084	/* RW: 1 = may signal */
#define SWAI_REG_IRQ_RAISE		0x0088	/* WO: set SWAI_IRQ_SWI bits */

/* SWAI_REG_IRQ_STATUS / ENABLE bits; bits 0..7 use vector SWAI_MSIX_MGMT */
#define SWAI_IRQ_RESET_DONE		BIT(0)	/* a device reset finished */
#define SWAI_IRQ_ERROR			BIT(1)	/* SWAI_REG_ERROR became !0 */
#define SWAI_IRQ_MMU_FAULT		BIT(2)	/* MMU_FAULT_STATUS latched */
#define SWAI_IRQ_NIC			BIT(3)	/* a NIC completion queue has entries */
#define SWAI_IRQ_SWI			BIT(7)	/* raised by IRQ_RAISE */
#define SWAI_IRQ_MGMT_MASK		0x000000ffU
#define SWAI_IRQ_QUEUE(cg)		BIT(8 + (cg))	/* vector 1 + cg */
#define SWAI_IRQ_QUEUE_MASK		0x00000f00U
#define SWAI_IRQ_ALL			(SWAI_IRQ_MGMT_MASK | SWAI_IRQ_QUEUE_MASK)

/*
 * --- Device MMU ---
 * Every device access (DMA, core-group programs: later stages) is made on
 * behalf of a context (ASID) and translated through that context's page
 * tables, which live in host memory and are read by the card with DMA.
 * Three levels of 512 64-bit entries (4 KiB tables) translate a 39-bit
 * device virtual address (VA) in 4 KiB pages: VA bits 38:30 index level 0,
 * 29:21 level 1, 20:12 level 2.  A table entry points at the next table (a
 * host DMA address); a level-2 entry maps a page, on the card (HBM-physical
 * offset, as BAR2 shows it) or in host memory (SWAI_PTE_HOST, a DMA
 * address).  The context table (SWAI_MMU_CONTEXTS entries of 16 bytes: the
 * level-0 table's DMA address | SWAI_PTE_VALID, then 8 reserved bytes) is in
 * host memory too.  The first access that does not translate latches
 * MMU_FAULT_* and raises SWAI_IRQ_MMU_FAULT; the access is not served.
 */
#define SWAI_REG_MMU_CTX_TABLE_LO	0x0100	/* RW: context table, 4K aligned */
#define SWAI_REG_MMU_CTX_TABLE_HI	0x0104
#define SWAI_REG_MMU_CONTEXTS		0x0108	/* RO: SWAI_MMU_CONTEXTS */
#define SWAI_REG_MMU_INVALIDATE		0x010c	/* WO: ASID | SWAI_MMU_INV_ALL */
#define SWAI_REG_MMU_FAULT_STATUS	0x0110	/* RW1C: SWAI_MMU_FAULT_* */
#define SWAI_REG_MMU_FAULT_VA_LO	0x0114	/* RO: VA of the latched fault */
#define SWAI_REG_MMU_FAULT_VA_HI	0x0118
/* Translation probe: the driver asks the card to translate like an access. */
#define SWAI_REG_MMU_PROBE_ASID		0x0120	/* RW */
#define SWAI_REG_MMU_PROBE_VA_LO	0x0124	/* RW */
#define SWAI_REG_MMU_PROBE_VA_HI	0x0128	/* RW */
#define SWAI_REG_MMU_PROBE_GO		0x012c	/* WO: start; SWAI_MMU_PROBE_WRITE */
#define SWAI_REG_MMU_PROBE_RESULT_LO	0x0130	/* RO: SWAI_MMU_PROBE_* | addr */
#define SWAI_REG_MMU_PROBE_RESULT_HI	0x0134

#define SWAI_MMU_CONTEXTS		64
#define SWAI_MMU_VA_BITS		39
#define SWAI_MMU_PAGE_SHIFT		12
#define SWAI_MMU_INV_ALL		BIT(31)

/* Page-table and context-table entries */
#define SWAI_PTE_VALID			BIT_ULL(0)
#define SWAI_PTE_WRITE			BIT_ULL(1)	/* level 2: writable */
#define SWAI_PTE_HOST			BIT_ULL(2)	/* level 2: host page */
/*
 * Level 2: a page of the HBM of fabric card SWAI_PTE_CARD_OF(e) (the
 * address field is HBM-physical on that card; SWAI_CAP_FABRIC).
 */
#define SWAI_PTE_FABRIC			BIT_ULL(3)
#define SWAI_PTE_CARD_SHIFT		52
#define SWAI_PTE_CARD_MASK		(0xffULL << SWAI_PTE_CARD_SHIFT)
#define SWAI_PTE_CARD(c)		((unsigned long long)(c) << SWAI_PTE_CARD_SHIFT)
#define SWAI_PTE_CARD_OF(e)		((unsigned int)(((e) & SWAI_PTE_CARD_MASK) >> \
					 SWAI_PTE_CARD_SHIFT))
#define SWAI_PTE_ADDR_MASK		0x000ffffffffff000ULL	/* bits 51:12 */

/* SWAI_REG_MMU_FAULT_STATUS */
#define SWAI_MMU_FAULT_VALID		BIT(0)	/* a fault is latched */
#define SWAI_MMU_FAULT_WRITE		BIT(1)	/* the access was a write */
#define SWAI_MMU_FAULT_REASON(x)	(((x) >> 4) & 0xf)
#define SWAI_MMU_FAULT_ASID(x)		(((x) >> 8) & 0xff)
#define SWAI_MMU_FAULT_OVERFLOW		BIT(16)	/* more faults, not latched */
/* Fault reasons */
#define SWAI_MMU_R_CTX			1	/* context not valid */
#define SWAI_MMU_R_RANGE		2	/* VA beyond SWAI_MMU_VA_BITS */
#define SWAI_MMU_R_NOT_PRESENT		3	/* an entry on the walk invalid */
#define SWAI_MMU_R_READ_ONLY		4	/* write to a page w/o WRITE */
#define SWAI_MMU_R_BAD_TARGET		5	/* HBM page beyond HBM */
#define SWAI_MMU_R_WALK			6	/* a table could not be read */

/* SWAI_REG_MMU_PROBE_GO and _RESULT_LO */
#define SWAI_MMU_PROBE_WRITE		BIT(0)	/* GO: probe a write access */
#define SWAI_MMU_PROBE_OK		BIT(0)	/* RESULT: translated */
#define SWAI_MMU_PROBE_HOST		BIT(1)	/* RESULT: host page */
#define SWAI_MMU_PROBE_FABRIC		BIT(2)	/* RESULT: a fabric card's page */
#define SWAI_MMU_PROBE_DONE		BIT(3)	/* RESULT: probe finished */
#define SWAI_MMU_PROBE_REASON(x)	(((x) >> 4) & 0xf)	/* if !OK */

/*
 * --- Per core-group command queues (one block of 0x100 per CG) ---
 * Queue cg is a ring of SWAI_Q_RING_SIZE job descriptors (struct
 * swai_hw_desc, 64 bytes each) in host memory at the DMA address
 * RING_HI:LO.  The driver fills entries and advances TAIL (the doorbell);
 * the MPE command processor reads entries at HEAD, runs each job's
 * core-group program (uapi/drm/swai_program.h) on core group cg, writes a
 * struct swai_hw_completion to the descriptor's completion address, sets
 * COMPLETED to the descriptor's seqno and raises SWAI_IRQ_QUEUE(cg).
 * The MPE runs on its own thread: registers only latch, work goes on while
 * the guest runs.  Writing SWAI_Q_CTRL_RESET drops the job in flight
 * (completed with SWAI_JOB_ERR_RESET) and every entry up to TAIL (HEAD :=
 * TAIL, their completions are not written); the bit reads back 0 when done.
 */
#define SWAI_QUEUE_BASE			0x1000
#define SWAI_QUEUE_STRIDE		0x0100
#define SWAI_QUEUE_REG(cg, r)		(SWAI_QUEUE_BASE + \
					 (cg) * SWAI_QUEUE_STRIDE + (r))
#define SWAI_Q_RING_LO			0x00	/* ring base, host DMA address */
#define SWAI_Q_RING_HI			0x04
#define SWAI_Q_RING_SIZE		0x08	/* entries, power of two */
#define SWAI_Q_CTRL			0x0c	/* SWAI_Q_CTRL_* */
#define SWAI_Q_HEAD			0x10	/* RO: next entry the card reads */
#define SWAI_Q_TAIL			0x14	/* doorbell: next free entry */
#define SWAI_Q_STATUS			0x18	/* RO: SWAI_Q_STATUS_* */
#define SWAI_Q_COMPLETED_LO		0x20	/* RO: seqno of last completion */
#define SWAI_Q_COMPLETED_HI		0x24
#define SWAI_Q_CLOCK_LO			0x28	/* RO: CG modeled clock, ns */
#define SWAI_Q_CLOCK_HI			0x2c
#define SWAI_Q_JOBS			0x30	/* RO: jobs completed since reset */
#define SWAI_Q_FENCES			0x34	/* RO: FENCE insns executed */

#define SWAI_Q_RING_MIN			2
#define SWAI_Q_RING_MAX			4096

#define SWAI_Q_CTRL_ENABLE		BIT(0)
#define SWAI_Q_CTRL_RESET		BIT(1)	/* self-clearing */
#define SWAI_Q_STATUS_ENABLED		BIT(0)
#define SWAI_Q_STATUS_IDLE		BIT(1)	/* no job in flight, ring empty */
#define SWAI_Q_STATUS_BAD_RING		BIT(2)	/* ring unreadable or size bad */

/*
 * struct swai_hw_desc.flags: fault injection (debug) and peer access, which
 * lets the job's CG reach other CGs' Local-HBM (else SWAI_JOB_ERR_FOREIGN).
 */
#define SWAI_DESC_INJECT_HANG		BIT(0)	/* never finish: spin until reset */
#define SWAI_DESC_INJECT_MMU_FAULT	BIT(1)	/* first access faults */
#define SWAI_DESC_INJECT_DMA_FAIL	BIT(2)	/* first transfer fails */
#define SWAI_DESC_PEER			BIT(3)	/* other CGs' Local-HBM allowed */
#define SWAI_DESC_FLAGS_ALL		0xfU

/* struct swai_hw_completion.status: how a job ended. */
#define SWAI_JOB_OK			0
#define SWAI_JOB_ERR_ILLEGAL		1	/* unknown op, bad flags/dtype */
#define SWAI_JOB_ERR_LDM		2	/* LDM range outside the CG's LDM */
#define SWAI_JOB_ERR_MMU		3	/* an access did not translate */
#define SWAI_JOB_ERR_RESET		4	/* queue reset while in flight */
#define SWAI_JOB_ERR_PROGRAM		5	/* program fetch failed / bad size */
#define SWAI_JOB_ERR_DMA		6	/* a transfer failed on the bus */
#define SWAI_JOB_ERR_ALIGN		7	/* misaligned operand */
#define SWAI_JOB_ERR_FOREIGN		8	/* another CG's Local-HBM */
#define SWAI_JOB_ERR_MAX		8

#ifndef __ASSEMBLY__
#include <linux/types.h>

/*
 * A job descriptor, one ring entry, written by the driver.  Little endian.
 * The program (prog_size bytes of struct swai_insn) is fetched through the
 * MMU in context asid.  The job starts, in modeled time, no earlier than
 * not_before_ns + the launch cost and no earlier than the end of the
 * previous job of the queue.
 */
struct swai_hw_desc {
	__u64 seqno;		/* echoed in COMPLETED and the completion */
	__u32 asid;		/* MMU context of every access */
	__u32 flags;		/* SWAI_DESC_* */
	__u64 prog_va;		/* device VA of the program */
	__u32 prog_size;	/* bytes, a multiple of sizeof(struct swai_insn) */
	__u32 pad;
	__u64 not_before_ns;	/* modeled time the host launched the job */
	__u64 completion;	/* host DMA address of swai_hw_completion */
	__u64 job_id;		/* the context's job id, for traces only */
	__u64 rsvd;
};

/* Written by the card when a job ends (not for jobs dropped by RESET). */
struct swai_hw_completion {
	__u64 seqno;
	__u32 status;		/* SWAI_JOB_* */
	__u32 error_pc;		/* index of the failing instruction */
	__u64 fault_va;		/* failing device VA (MMU, FOREIGN, DMA) */
	__u64 start_ns;		/* modeled start, card clock */
	__u64 end_ns;		/* modeled end */
	__u64 wall_ns;		/* host time the card spent on the job */
	__u64 bytes;		/* bytes moved by the job's transfers */
	__u32 insns;		/* instructions executed */
	__u32 pad;
};
#endif

/*
 * --- Timing model (RO, the card's QEMU properties; datasheet §14) ---
 * Bandwidths in MB/s (10^6 bytes per second), costs in ns.  CLOCK is the
 * card's modeled time: the latest modeled end of any job since reset.
 */
#define SWAI_REG_T_RING_MBPS		0x0200	/* per CG port to Global-HBM */
#define SWAI_REG_T_LOCAL_MBPS		0x0204	/* per CG, LDM <-> Local-HBM */
#define SWAI_REG_T_PCIE_MBPS		0x0208	/* host link, each direction */
#define SWAI_REG_T_LDM_MBPS		0x020c	/* per CG, REDUCE in LDM */
#define SWAI_REG_T_LAUNCH_NS		0x0210	/* host launch, per job */
#define SWAI_REG_T_SYNC_NS		0x0214	/* host-mediated sync */
#define SWAI_REG_T_STEP_NS		0x0218	/* per COPY (collective step) */
#define SWAI_REG_T_BARRIER_NS		0x021c	/* on-card BARRIER/WAIT wakeup */
#define SWAI_REG_T_DMA_NS		0x0220	/* per DMA_GET/DMA_PUT command */
#define SWAI_REG_T_RING_TOTAL_MBPS	0x0224	/* whole ring, all CGs */
#define SWAI_REG_CLOCK_LO		0x0228	/* RO: card modeled time, ns */
#define SWAI_REG_CLOCK_HI		0x022c
#define SWAI_REG_T_F32_GFLOPS		0x0230	/* per CG, peak f32 GEMM */
#define SWAI_REG_T_BF16_GFLOPS		0x0234	/* per CG, bf16 inputs */

/*
 * --- Fabric (SWAI_CAP_FABRIC; datasheet §15) ---
 * The cards of a node joined by the links of a topology file.  FABRIC_CARDS
 * is 0 when the card is on no fabric.  FABRIC_TAG is the same on every card
 * of one fabric and differs between fabrics: two cards can reach each
 * other only if their tags match.  Write a card's fabric index to
 * FABRIC_PEER to read the route to it from this card in FABRIC_PEER_*.
 */
#define SWAI_REG_FABRIC_ID		0x0300	/* RO: this card's fabric index */
#define SWAI_REG_FABRIC_CARDS		0x0304	/* RO: cards of the topology */
#define SWAI_REG_FABRIC_TAG		0x0308	/* RO: the fabric's identity */
#define SWAI_REG_FABRIC_PEER		0x030c	/* RW: a card, for PEER_* */
#define SWAI_REG_FABRIC_PEER_PATH	0x0310	/* RO: SWAI_FABRIC_PATH_* */
#define SWAI_REG_FABRIC_PEER_MBPS	0x0314	/* RO: narrowest link, MB/s */
#define SWAI_REG_FABRIC_PEER_LAT_NS	0x0318	/* RO: route latency, ns */

#define SWAI_FABRIC_MAX_CARDS		256	/* SWAI_PTE_CARD's 8 bits */
/* SWAI_REG_FABRIC_PEER_PATH */
#define SWAI_FABRIC_PATH_ROUTE		BIT(0)	/* a route exists */
#define SWAI_FABRIC_PATH_JOINED		BIT(1)	/* the card is present */
#define SWAI_FABRIC_PATH_HOPS(x)	(((x) >> 8) & 0xff)	/* links crossed */

/*
 * --- NIC (SWAI_CAP_NIC; datasheet §16) ---
 * One network port per card, with seed 001's collective engine: 16
 * virtual ports, each owned by one context (PORT_ASID, 0: closed) and
 * opened with a key that every packet to it must carry.  Write a port to
 * NIC_VPORT to address the PORT_* and CQ_* registers.  A descriptor
 * (uapi/drm/swai_nic.h) is written to the NIC_DESC window, the modeled
 * time of its posting to NIC_TIME, and NIC_POST queues it on the selected
 * port (its VPORT field must be that port); NIC_POST_STATUS then says
 * whether it was taken.  Each descriptor that ends, and each packet
 * refused on arrival, adds an entry to the port's completion queue;
 * writing NIC_CQ_POP moves the oldest into the CQ_* registers and raises
 * SWAI_IRQ_NIC while entries remain.
 */
#define SWAI_REG_NIC_NODE		0x0400	/* RO: node number; NONE: no port */
#define SWAI_REG_NIC_STATUS		0x0404	/* RO: SWAI_NIC_STATUS_* */
#define SWAI_REG_NIC_VPORT		0x0408	/* RW: the port addressed below */
#define SWAI_REG_NIC_PORT_ASID		0x040c	/* RW: owner context, 0: closed */
#define SWAI_REG_NIC_PORT_KEY		0x0410	/* RW: the port's key (16 bits) */
#define SWAI_REG_NIC_PORT_CTRL		0x0414	/* WO: SWAI_NIC_PORT_RESET */
#define SWAI_REG_NIC_TIME_LO		0x0418	/* RW: modeled ns of the next POST */
#define SWAI_REG_NIC_TIME_HI		0x041c
#define SWAI_REG_NIC_POST		0x0420	/* WO: queue the window's descriptor */
#define SWAI_REG_NIC_POST_STATUS	0x0424	/* RO: SWAI_NIC_POST_* of the last */
#define SWAI_REG_NIC_COUNTER		0x0428	/* RO: the port's CP_Counter */
#define SWAI_REG_NIC_CQ_COUNT		0x042c	/* RO: entries waiting */
#define SWAI_REG_NIC_CQ_POP		0x0430	/* WO: take the oldest into CQ_* */
#define SWAI_REG_NIC_CQ_ENTRY		0x0434	/* RO: SWAI_NIC_CQE_* of the taken */
#define SWAI_REG_NIC_CQ_INDEX		0x0438	/* RO: its descriptor index */
#define SWAI_REG_NIC_CQ_TIME_LO		0x043c	/* RO: when it ended, modeled ns */
#define SWAI_REG_NIC_CQ_TIME_HI		0x0440
#define SWAI_REG_NIC_TX_FRAMES		0x0444	/* RO: frames sent, with resends */
#define SWAI_REG_NIC_RX_FRAMES		0x0448	/* RO: frames taken */
#define SWAI_REG_NIC_RESENDS		0x044c	/* RO: frames sent again */
#define SWAI_REG_NIC_DESC		0x0500	/* RW: 128 bytes, the descriptor */

#define SWAI_NIC_STATUS_LINK		BIT(0)	/* on a network (netdev=) */
#define SWAI_NIC_PORT_RESET		BIT(0)
/* SWAI_REG_NIC_POST_STATUS */
#define SWAI_NIC_POST_OK		0
#define SWAI_NIC_POST_INVALID		1	/* the descriptor breaks a rule */
#define SWAI_NIC_POST_FULL		2	/* SWAI_NIC_QDEPTH queued */
#define SWAI_NIC_POST_CLOSED		3	/* the port has no owner */
#define SWAI_NIC_POST_NO_LINK		4	/* the card has no NIC port */
/* SWAI_REG_NIC_CQ_ENTRY */
#define SWAI_NIC_CQE_STATUS(x)		((x) & 0xff)	/* SWAI_NIC_OK, _E_* */
#define SWAI_NIC_CQE_KIND(x)		(((x) >> 8) & 0xf)
#define SWAI_NIC_CQE_VALID		BIT(15)
#define SWAI_NIC_CQE_ERRVEC(x)		(((x) >> 16) & 0xffff)
#define SWAI_NIC_CQ_DEPTH		1024	/* entries a port keeps */

#endif /* SWAI_REGS_H */
