/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_drv.h - per-card state of swai.ko.
 */
#ifndef SWAI_DRV_H
#define SWAI_DRV_H

#include <linux/completion.h>
#include <linux/gfp.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/swai_accel.h>
#include <drm/swai_nic.h>

#include "swai_regs.h"

/*
 * What a process's ioctls allocate for it: charged to its memory cgroup,
 * and past the cgroup's limit the ioctl fails with -ENOMEM instead of
 * invoking the cgroup's OOM killer.
 */
#define SWAI_GFP_USER		(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL)

#define SWAI_DRIVER_DESC	"SW-AI accelerator"
#define SWAI_DRIVER_DATE	"20250101"

struct gen_pool;
struct swai_ctx;
struct swai_device;
struct swai_queue;
struct workqueue_struct;

/* Fault-injection knobs (debugfs), each armed for a CG, any CG or none. */
enum swai_inject {
	SWAI_INJECT_HANG,
	SWAI_INJECT_MMU_FAULT,
	SWAI_INJECT_DMA_FAIL,
	SWAI_INJECT_KINDS
};

#define SWAI_INJECT_ANY		(-1)		/* the next job on any queue */
#define SWAI_INJECT_OFF		(-2)		/* disarmed */

/**
 * struct swai_timing - the card's timing model (SWAI_REG_T_*, read at probe)
 * @ring_mbps: per CG, LDM <-> Global-HBM, MB/s
 * @ring_total_mbps: the whole ring, MB/s
 * @local_mbps: per CG, LDM <-> Local-HBM, MB/s
 * @pcie_mbps: host link, each direction, MB/s
 * @ldm_mbps: per CG, REDUCE in LDM, MB/s
 * @launch_ns: host launch cost of a job
 * @sync_ns: host-mediated synchronisation cost
 * @step_ns: fixed cost of a COPY
 * @barrier_ns: on-card BARRIER / WAIT wake-up
 * @dma_ns: fixed cost of a DMA_GET / DMA_PUT
 * @f32_gflops: per CG, peak f32 GEMM rate, GFLOP/s (0: no SWAI_CAP_COMPUTE)
 * @bf16_gflops: per CG, peak GEMM rate with bf16 operands, GFLOP/s
 */
struct swai_timing {
	u32 ring_mbps;
	u32 ring_total_mbps;
	u32 local_mbps;
	u32 pcie_mbps;
	u32 ldm_mbps;
	u32 launch_ns;
	u32 sync_ns;
	u32 step_ns;
	u32 barrier_ns;
	u32 dma_ns;
	u32 f32_gflops;
	u32 bf16_gflops;
};

/**
 * struct swai_irq_vector - context of one MSI-X vector
 * @sdev: the card
 * @index: MSI-X vector index (SWAI_MSIX_MGMT or SWAI_MSIX_QUEUE(cg))
 * @irq: Linux IRQ number of the vector
 */
struct swai_irq_vector {
	struct swai_device *sdev;
	unsigned int index;
	int irq;
};

/**
 * struct swai_device - one SW-AI card
 * @drm: the DRM accel device, embedded (devm_drm_dev_alloc)
 * @pdev: the PCI function
 * @mmio: BAR0 register window
 * @aperture_start: bus address of the BAR2 HBM aperture (not mapped)
 * @aperture_size: length of BAR2 in bytes, 0 if absent
 * @hw_version: SWAI_REG_VERSION, major << 16 | minor
 * @hw_caps: SWAI_REG_CAPS, SWAI_CAP_* bits of the card
 * @num_cg: core groups (validated 1..SWAI_NUM_CG)
 * @cpes_per_cg: compute cores per core group
 * @ldm_size: bytes of LDM per CPE
 * @global_granule: Global-HBM interleave granule in bytes
 * @hbm_per_cg_mb: MiB on each HBM controller
 * @global_base: device address of Global-HBM
 * @partition_lock: serialises changes of the Local/Global switch with the
 *	region allocators: guards @pool, @region_size, @pool_local_mb,
 *	@num_objects, @host_objects, @host_used and the per-context byte
 *	counters
 * @irq_ok: the interrupt self-test passed
 * @irq_lock: serialises updates of @irq_enabled and SWAI_REG_IRQ_ENABLE
 * @irq_enabled: shadow of SWAI_REG_IRQ_ENABLE
 * @swi_done: completed by the handler when SWAI_IRQ_SWI fires
 * @vec: the MSI-X vectors
 * @has_memory: device memory (BOs, contexts, the MMU) is supported
 * @aperture: BAR2 mapped write-combined, NULL without @has_memory
 * @mmu_contexts: contexts (ASIDs) of the device MMU
 * @ctx_table: CPU address of the MMU context table (host memory)
 * @ctx_table_dma: its DMA address
 * @ctx_xa: live contexts by ASID (1..@mmu_contexts - 1)
 * @num_contexts: live contexts
 * @mmu_probe_lock: serialises the MMU translation probe
 * @pool: allocator of each region (DRM_SWAI_MEM_*), NULL if it is empty
 * @region_size: capacity of each region in bytes under the current split
 * @pool_local_mb: Local-HBM MiB per CG the pools were built for
 * @num_objects: live buffer objects in device memory on the card
 * @host_objects: live DRM_SWAI_MEM_HOST objects (pinned host memory)
 * @host_used: bytes of host memory pinned by them
 * @has_timing: the card has SWAI_CAP_TIMING, @timing is valid
 * @timing: the card's timing model
 * @has_queues: job submission works (queues, schedulers and device memory)
 * @queues: one per core group, @num_cg of them (NULL without @has_queues)
 * @recovery_wq: ordered workqueue of every queue and card reset (the
 *	schedulers' timeout handlers, the card-wide reset, unplug), so that
 *	they never run at the same time
 * @job_timeout_ms: a job running longer is reset (0: never)
 * @resets: queue and card resets since probe
 * @inject: armed CG of each enum swai_inject knob, or SWAI_INJECT_OFF
 * @fabric_cards: cards of the fabric the card is on, 0 for none
 * @fabric_id: the card's index on it
 * @fabric_tag: the fabric's identity, the same on all its cards
 * @fabric_lock: serialises the route window (SWAI_REG_FABRIC_PEER*)
 * @has_nic: the card has a NIC port on a network (SWAI_CAP_NIC, LINK)
 * @nic_node: its node number
 * @nic_lock: serialises the NIC's port window (SWAI_REG_NIC_VPORT and the
 *	registers it selects) and guards @nic_owner
 * @nic_owner: the context owning each virtual port, NULL if free
 * @live_jobs: jobs allocated and not yet freed
 * @jobs_idle: woken when @live_jobs drops to 0
 *
 * The geometry registers except SWAI_REG_LOCAL_PER_CG_MB are read-only and
 * cached at probe; the Local/Global split is read from the card on demand.
 */
struct swai_device {
	struct drm_device drm;
	struct pci_dev *pdev;
	void __iomem *mmio;

	resource_size_t aperture_start;
	resource_size_t aperture_size;

	u32 hw_version;
	u32 hw_caps;
	u32 num_cg;
	u32 cpes_per_cg;
	u32 ldm_size;
	u32 global_granule;
	u32 hbm_per_cg_mb;
	u64 global_base;
	struct mutex partition_lock; /* the split, pools and BO counters */

	bool irq_ok;
	spinlock_t irq_lock; /* guards irq_enabled and SWAI_REG_IRQ_ENABLE */
	u32 irq_enabled;
	struct completion swi_done;
	struct swai_irq_vector vec[SWAI_MSIX_VECTORS];

	bool has_memory;
	void __iomem *aperture;
	u32 mmu_contexts;
	__le64 *ctx_table;
	dma_addr_t ctx_table_dma;
	struct xarray ctx_xa;
	atomic_t num_contexts;
	struct mutex mmu_probe_lock; /* one translation probe at a time */
	struct gen_pool *pool[DRM_SWAI_MEM_REGIONS];
	u64 region_size[DRM_SWAI_MEM_REGIONS];
	u32 pool_local_mb;
	u32 num_objects;
	u32 host_objects;
	u64 host_used;

	bool has_timing;
	struct swai_timing timing;
	bool has_queues;
	struct swai_queue *queues;
	struct workqueue_struct *recovery_wq;
	u32 job_timeout_ms;
	atomic64_t resets;
	atomic_t inject[SWAI_INJECT_KINDS];
	u32 fabric_cards;
	u32 fabric_id;
	u32 fabric_tag;
	struct mutex fabric_lock; /* the route window FABRIC_PEER* */
	bool has_nic;
	u32 nic_node;
	struct mutex nic_lock; /* the port window and nic_owner */
	struct swai_ctx *nic_owner[SWAI_NIC_VPORTS];
	atomic_t live_jobs;
	wait_queue_head_t jobs_idle;
};

static inline struct swai_device *to_swai_device(struct drm_device *drm)
{
	return container_of(drm, struct swai_device, drm);
}

#endif /* SWAI_DRV_H */
