/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note OR MIT */
/*
 * swai_accel.h - userspace ABI of swai.ko, the DRM accel driver of the SW-AI
 * card (/dev/accel/accelN).
 *
 * Rules (Documentation/process/botching-up-ioctls.rst): fixed-width types,
 * explicit padding, 64-bit alignment, user pointers as __u64.  Every flags,
 * pad and reserved field must be zero on input or the ioctl fails with
 * -EINVAL; an argument whose size differs from the one encoded here fails
 * with -EINVAL; an ioctl number the driver does not know fails with -ENOTTY.
 * Extensions add new ioctls or use reserved fields announced by a
 * capabilities bit, never change the size of an existing struct.
 */
#ifndef _UAPI_SWAI_ACCEL_H_
#define _UAPI_SWAI_ACCEL_H_

/* "drm.h": libdrm's copy in userspace (pkg-config libdrm), include/uapi/drm in Kbuild */
#include "drm.h"
#include <linux/const.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* The DRM driver name, as drmGetVersion() reports it. */
#define DRM_SWAI_DRIVER_NAME		"swai"

/* uAPI version: drmGetVersion() version_major / version_minor. */
#define DRM_SWAI_UAPI_MAJOR		1
#define DRM_SWAI_UAPI_MINOR		5

#define DRM_SWAI_QUERY_DEVICE		0x00
#define DRM_SWAI_SET_PARTITION		0x01
#define DRM_SWAI_BO_CREATE		0x02
#define DRM_SWAI_BO_INFO		0x03
#define DRM_SWAI_MEM_INFO		0x04
#define DRM_SWAI_VA_PROBE		0x05
#define DRM_SWAI_BO_USERPTR		0x06
#define DRM_SWAI_QUERY_TIMING		0x07
#define DRM_SWAI_SUBMIT			0x08
#define DRM_SWAI_JOB_WAIT		0x09
#define DRM_SWAI_QUERY_PEER		0x0a
#define DRM_SWAI_BO_IMPORT		0x0b
#define DRM_SWAI_NIC_OPEN		0x0c
#define DRM_SWAI_NIC_CLOSE		0x0d
#define DRM_SWAI_NIC_POST		0x0e
#define DRM_SWAI_NIC_WAIT		0x0f

#define DRM_IOCTL_SWAI_QUERY_DEVICE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_QUERY_DEVICE, \
		 struct drm_swai_query_device)
#define DRM_IOCTL_SWAI_SET_PARTITION \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SWAI_SET_PARTITION, \
		struct drm_swai_set_partition)
#define DRM_IOCTL_SWAI_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_BO_CREATE, struct drm_swai_bo_create)
#define DRM_IOCTL_SWAI_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_BO_INFO, struct drm_swai_bo_info)
#define DRM_IOCTL_SWAI_MEM_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_MEM_INFO, struct drm_swai_mem_info)
#define DRM_IOCTL_SWAI_VA_PROBE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_VA_PROBE, struct drm_swai_va_probe)
#define DRM_IOCTL_SWAI_BO_USERPTR \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_BO_USERPTR, struct drm_swai_bo_userptr)
#define DRM_IOCTL_SWAI_QUERY_TIMING \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_QUERY_TIMING, \
		 struct drm_swai_query_timing)
#define DRM_IOCTL_SWAI_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_SUBMIT, struct drm_swai_submit)
#define DRM_IOCTL_SWAI_JOB_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_JOB_WAIT, struct drm_swai_job_wait)
#define DRM_IOCTL_SWAI_QUERY_PEER \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_QUERY_PEER, struct drm_swai_query_peer)
#define DRM_IOCTL_SWAI_BO_IMPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_BO_IMPORT, struct drm_swai_bo_import)
#define DRM_IOCTL_SWAI_NIC_OPEN \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_NIC_OPEN, struct drm_swai_nic_open)
#define DRM_IOCTL_SWAI_NIC_CLOSE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SWAI_NIC_CLOSE, struct drm_swai_nic_close)
#define DRM_IOCTL_SWAI_NIC_POST \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_NIC_POST, struct drm_swai_nic_post)
#define DRM_IOCTL_SWAI_NIC_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_NIC_WAIT, struct drm_swai_nic_wait)

/*
 * Of DRM core's ioctls an accel node answers only DRM_IOCTL_VERSION,
 * GET_CAP, GEM_CLOSE and the DRM_IOCTL_SYNCOBJ_* family (since 1.3; the
 * others are -ENOTTY, the buffer-sharing ones -EOPNOTSUPP) and, since 1.4
 * (DRM_SWAI_CAP_PRIME), DRM_IOCTL_PRIME_HANDLE_TO_FD to export a buffer
 * object as a dma-buf; a syncobj array ioctl takes at most this many
 * handles (-EINVAL beyond).  A dma-buf is imported with
 * DRM_IOCTL_SWAI_BO_IMPORT, which maps it; DRM_IOCTL_PRIME_FD_TO_HANDLE,
 * which cannot, stays -EOPNOTSUPP.
 */
#define DRM_SWAI_SYNCOBJ_MAX_HANDLES	4096

/*
 * A file has at most this many jobs submitted and not finished (since 1.3);
 * DRM_IOCTL_SWAI_SUBMIT beyond is -EAGAIN: wait for one and submit again.
 * Every allocation a submit makes is charged to the caller's memory cgroup.
 */
#define DRM_SWAI_MAX_LIVE_JOBS		16384

/*
 * Capabilities of the driver and card, reported in
 * drm_swai_query_device.capabilities.  A bit is set only when the feature
 * works on this card with this driver; new features add new bits.
 */
#define DRM_SWAI_CAP_QUERY		_BITULL(0)	/* QUERY_DEVICE */
#define DRM_SWAI_CAP_MSIX		_BITULL(1)	/* interrupts proven */
#define DRM_SWAI_CAP_PARTITION		_BITULL(2)	/* SET_PARTITION */
#define DRM_SWAI_CAP_MEMORY		_BITULL(3)	/* BO_*, MEM_INFO, VA_PROBE */
#define DRM_SWAI_CAP_USERPTR		_BITULL(4)	/* BO_USERPTR, MEM_HOST */
#define DRM_SWAI_CAP_SUBMIT		_BITULL(5)	/* SUBMIT, JOB_WAIT, syncobj */
#define DRM_SWAI_CAP_TIMING		_BITULL(6)	/* QUERY_TIMING */
#define DRM_SWAI_CAP_PEER		_BITULL(7)	/* DRM_SWAI_SUBMIT_PEER */
#define DRM_SWAI_CAP_COMPUTE		_BITULL(8)	/* GEMM..DRAIN, XFER_ASYNC */
#define DRM_SWAI_CAP_PRIME		_BITULL(9)	/* dma-buf export, BO_IMPORT */
#define DRM_SWAI_CAP_FABRIC		_BITULL(10)	/* on a fabric: QUERY_PEER */
#define DRM_SWAI_CAP_NIC		_BITULL(11)	/* a NIC port: NIC_* (1.5) */
/* Every bit defined above: a new capability extends it. */
#define DRM_SWAI_CAP_ALL		(_BITULL(12) - 1)

/**
 * struct drm_swai_query_device - identity and geometry of one card
 *
 * Userspace zeroes the structure (at least @flags, @pad and @reserved) and
 * calls DRM_IOCTL_SWAI_QUERY_DEVICE; the driver fills every other field.
 * Sizes are in bytes.  Each HBM controller (one per core group) holds
 * @hbm_per_cg bytes, of which the first @local_per_cg form the Local-HBM
 * (tier L1) of its core group; the remainder of all controllers, interleaved
 * every @global_granule bytes, forms Global-HBM (tier L2) of @global_size
 * bytes at device address @global_base.
 */
struct drm_swai_query_device {
	/** @flags: in, must be 0. */
	__u32 flags;
	/** @pad: in, must be 0. */
	__u32 pad;
	/** @capabilities: out, DRM_SWAI_CAP_* bits. */
	__u64 capabilities;
	/** @pci_vendor: out, PCI vendor ID of the card. */
	__u16 pci_vendor;
	/** @pci_device: out, PCI device ID of the card. */
	__u16 pci_device;
	/** @pci_revision: out, PCI revision ID of the card. */
	__u8 pci_revision;
	/** @pad2: out, always 0. */
	__u8 pad2[3];
	/** @pci_domain: out, PCI domain (segment) of the card. */
	__u32 pci_domain;
	/** @pci_bdf: out, bus << 8 | device << 3 | function. */
	__u32 pci_bdf;
	/** @hw_version: out, card version, major << 16 | minor. */
	__u32 hw_version;
	/** @num_core_groups: out, core groups (and HBM controllers). */
	__u32 num_core_groups;
	/** @cpes_per_cg: out, compute cores (CPEs) in each core group. */
	__u32 cpes_per_cg;
	/** @ldm_size: out, bytes of local data memory (tier L0) per CPE. */
	__u32 ldm_size;
	/** @global_granule: out, interleave granule of Global-HBM. */
	__u32 global_granule;
	/** @pad3: out, always 0. */
	__u32 pad3;
	/** @hbm_per_cg: out, bytes on each HBM controller. */
	__u64 hbm_per_cg;
	/** @local_per_cg: out, bytes of each controller in Local-HBM. */
	__u64 local_per_cg;
	/** @global_size: out, bytes of Global-HBM (all controllers). */
	__u64 global_size;
	/** @global_base: out, device address where Global-HBM starts. */
	__u64 global_base;
	/** @aperture_size: out, bytes of the BAR2 HBM aperture. */
	__u64 aperture_size;
	/**
	 * @fabric_cards: out (1.4), cards of the fabric the card is on (the
	 * topology's), 0 if it is on none (no DRM_SWAI_CAP_FABRIC).
	 */
	__u32 fabric_cards;
	/** @fabric_id: out (1.4), the card's index on its fabric. */
	__u32 fabric_id;
	/**
	 * @fabric_tag: out (1.4), the same nonzero value on every card of
	 * one fabric: cards with different tags cannot reach each other.
	 */
	__u32 fabric_tag;
	/** @pad4: out, always 0. */
	__u32 pad4;
	/** @reserved: in, must be 0; out, 0. */
	__u64 reserved[2];
};

/**
 * struct drm_swai_set_partition - set the Local/Global switch of a card
 *
 * Gives the first @local_per_cg bytes of every HBM controller to the Local-HBM
 * of its core group and the rest to Global-HBM.  0 makes all HBM Global (one
 * core group can then reach four times its Local capacity); hbm_per_cg makes
 * Global-HBM empty.  The split is a property of the whole card: only a
 * privileged opener (CAP_SYS_ADMIN, else -EACCES) may change it, and only
 * while no device memory is allocated on the card (else -EBUSY).  Requires
 * DRM_SWAI_CAP_PARTITION.  The module parameter local_mb sets it at load.
 */
struct drm_swai_set_partition {
	/**
	 * @local_per_cg: in, bytes of each controller for Local-HBM: a
	 * multiple of 1 MiB, at most drm_swai_query_device.hbm_per_cg, else
	 * -EINVAL.
	 */
	__u64 local_per_cg;
	/** @flags: in, must be 0. */
	__u32 flags;
	/** @pad: in, must be 0. */
	__u32 pad;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/*
 * Memory regions (tiers) of a card, the placement of a buffer object.
 * Local-HBM of core group cg is DRM_SWAI_MEM_LOCAL(cg); Global-HBM is shared
 * by all core groups; HOST is pinned host memory the card reaches over PCIe
 * (DRM_IOCTL_SWAI_BO_USERPTR objects).  drm_swai_mem_info has room for
 * DRM_SWAI_MEM_SLOTS regions; slots past the last defined region read 0.
 */
#define DRM_SWAI_MEM_LOCAL(cg)		(cg)	/* cg < num_core_groups */
#define DRM_SWAI_MEM_GLOBAL		4
#define DRM_SWAI_MEM_HOST		5
#define DRM_SWAI_MEM_REGIONS		6	/* defined regions */
/* drm_swai_bo_info.placement of an imported object (not a region). */
#define DRM_SWAI_MEM_IMPORT		6
#define DRM_SWAI_MEM_SLOTS		8

/* drm_swai_bo_create.flags */
#define DRM_SWAI_BO_SEGMENT		0x1U	/* 1 MiB-aligned blocks */
#define DRM_SWAI_BO_FIXED_VA		0x2U	/* map at device_va */

/**
 * struct drm_swai_bo_create - allocate device memory
 *
 * Allocates @size bytes (rounded up to 8 KiB pages, or to 1 MiB blocks with
 * DRM_SWAI_BO_SEGMENT, the granule the core groups' DMA segments use) in
 * region @placement, returns a GEM handle (freed with DRM_IOCTL_GEM_CLOSE)
 * and maps the memory, read-write, into the caller's device address space at
 * @device_va: one the driver picks, or with DRM_SWAI_BO_FIXED_VA the one
 * given (64 KiB aligned, inside the device VA space, else -EINVAL; overlapping
 * a mapping of the caller's, -EEXIST), so that a runtime driving several
 * cards can keep device pointers unique across them.  The memory is zeroed.
 * Errors: -EINVAL (bad placement, size 0 or beyond the region, unknown
 * flags, non-zero pad/reserved), -ENOSPC (the region has no free range that
 * large), -ENOMEM (host memory).
 */
struct drm_swai_bo_create {
	/** @size: in, bytes; out, the size actually allocated. */
	__u64 size;
	/** @placement: in, DRM_SWAI_MEM_LOCAL(cg) or DRM_SWAI_MEM_GLOBAL. */
	__u32 placement;
	/** @flags: in, DRM_SWAI_BO_* bits. */
	__u32 flags;
	/** @handle: out, GEM handle in the caller's file. */
	__u32 handle;
	/** @pad: in, must be 0. */
	__u32 pad;
	/**
	 * @device_va: in with DRM_SWAI_BO_FIXED_VA, else ignored; out, the
	 * device virtual address in the caller's context.
	 */
	__u64 device_va;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_swai_bo_userptr - make host memory reachable by the card
 *
 * Pins the pages of [@addr, @addr + @size) (page aligned, mapped, writable)
 * and maps them into the caller's device address space as a DRM_SWAI_MEM_HOST
 * object: at @device_va with DRM_SWAI_BO_FIXED_VA (same rules as BO_CREATE),
 * else where the driver picks.  Pinned pages count against the caller's
 * RLIMIT_MEMLOCK unless it has CAP_IPC_LOCK.  The pages are unpinned when the
 * object goes (GEM_CLOSE, close, exit).  Errors: -EINVAL (alignment, size 0,
 * flags other than FIXED_VA, non-zero reserved), -EFAULT (a page not mapped
 * writable), -ENOMEM (RLIMIT_MEMLOCK would be exceeded, or no memory),
 * -EEXIST (FIXED_VA overlaps a mapping).  Objects of this kind have no
 * mmap_offset: the caller already has the memory.
 */
struct drm_swai_bo_userptr {
	/** @addr: in, page-aligned user address. */
	__u64 addr;
	/** @size: in, bytes, a multiple of the page size. */
	__u64 size;
	/** @flags: in, 0 or DRM_SWAI_BO_FIXED_VA. */
	__u32 flags;
	/** @handle: out, GEM handle in the caller's file. */
	__u32 handle;
	/** @device_va: in with DRM_SWAI_BO_FIXED_VA; out, the mapping. */
	__u64 device_va;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_swai_bo_info - what a handle of the caller's is
 *
 * @mmap_offset is the offset to mmap() on the accel file to reach the
 * object's memory from the CPU: Local- and Global-HBM through the BAR2
 * aperture, write-combined.  Only files holding a handle of the object may
 * map it.
 */
struct drm_swai_bo_info {
	/** @handle: in. */
	__u32 handle;
	/** @placement: out, DRM_SWAI_MEM_*. */
	__u32 placement;
	/** @size: out, bytes. */
	__u64 size;
	/** @device_va: out. */
	__u64 device_va;
	/** @mmap_offset: out, for mmap() on the accel file. */
	__u64 mmap_offset;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_swai_mem_region_info - one region in drm_swai_mem_info
 */
struct drm_swai_mem_region_info {
	/**
	 * @capacity: bytes the region has under the current split; 0 for
	 * HOST, which only the host and RLIMIT_MEMLOCK bound.
	 */
	__u64 capacity;
	/** @used: bytes allocated in it by all processes. */
	__u64 used;
	/** @used_by_caller: bytes allocated in it by the calling file. */
	__u64 used_by_caller;
	/** @largest_free: the largest allocation that could succeed now. */
	__u64 largest_free;
};

/**
 * struct drm_swai_mem_info - capacity and use of every region of a card
 */
struct drm_swai_mem_info {
	/** @flags: in, must be 0. */
	__u32 flags;
	/** @contexts: out, open device address spaces (processes) on the card. */
	__u32 contexts;
	/** @objects: out, live buffer objects on the card. */
	__u32 objects;
	/** @asid: out, the hardware context number of the caller. */
	__u32 asid;
	/** @region: out, indexed by DRM_SWAI_MEM_*. */
	struct drm_swai_mem_region_info region[DRM_SWAI_MEM_SLOTS];
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/* drm_swai_va_probe.flags (in) and .result (out) */
#define DRM_SWAI_PROBE_WRITE		0x1U	/* in: as a write */
#define DRM_SWAI_PROBE_MAPPED		0x1U	/* out: translated */
#define DRM_SWAI_PROBE_HOST		0x2U	/* out: a host page */
#define DRM_SWAI_PROBE_FABRIC		0x4U	/* out: another card's page */

/**
 * struct drm_swai_va_probe - ask the card whether it would translate @va
 *
 * The card's MMU translates @va in the caller's context exactly as an access
 * would (SWAI_REG_MMU_PROBE_*), without faulting.  For checking isolation and
 * for debuggers: a process can see what its own context reaches, nothing of
 * another's.
 */
struct drm_swai_va_probe {
	/** @va: in, device virtual address. */
	__u64 va;
	/** @flags: in, DRM_SWAI_PROBE_WRITE. */
	__u32 flags;
	/** @result: out, DRM_SWAI_PROBE_* bits; 0 if not mapped. */
	__u32 result;
	/** @reason: out, the card's fault reason (SWAI_MMU_R_*) if not mapped. */
	__u32 reason;
	/** @pad: in, must be 0. */
	__u32 pad;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_swai_query_timing - the card's timing model and counters
 *
 * The card models how long each job takes on the real hardware
 * (Documentation/datasheet.md §14).  These are its parameters -- properties
 * of the card, the same for every job -- and its modeled clock.  Bandwidths
 * are in MB/s (10^6 bytes/s), costs and times in ns of modeled time.
 */
struct drm_swai_query_timing {
	/** @flags: in, must be 0. */
	__u32 flags;
	/** @ring_mbps: out, per core group, LDM <-> Global-HBM over the ring. */
	__u32 ring_mbps;
	/** @ring_total_mbps: out, the whole ring, shared by all core groups. */
	__u32 ring_total_mbps;
	/** @local_mbps: out, per core group, LDM <-> its Local-HBM. */
	__u32 local_mbps;
	/** @pcie_mbps: out, the host link, each direction, shared. */
	__u32 pcie_mbps;
	/** @ldm_mbps: out, per core group, REDUCE in LDM. */
	__u32 ldm_mbps;
	/** @launch_ns: out, host launch cost of every job. */
	__u32 launch_ns;
	/** @sync_ns: out, host-mediated synchronisation cost. */
	__u32 sync_ns;
	/** @step_ns: out, fixed cost of every COPY (a collective's step). */
	__u32 step_ns;
	/** @barrier_ns: out, on-card BARRIER / WAIT wake-up cost. */
	__u32 barrier_ns;
	/** @dma_ns: out, fixed cost of every DMA_GET / DMA_PUT. */
	__u32 dma_ns;
	/** @pad: out, 0. */
	__u32 pad;
	/** @clock_ns: out, the card's modeled time: latest end of any job. */
	__u64 clock_ns;
	/** @resets: out, queue and card resets since the driver loaded. */
	__u64 resets;
	/**
	 * @f32_gflops: out, per core group, peak f32 GEMM rate in GFLOP/s
	 * (10^9 floating-point operations per second); 0 without
	 * DRM_SWAI_CAP_COMPUTE.
	 */
	__u32 f32_gflops;
	/** @bf16_gflops: out, per core group, peak rate with bf16 inputs. */
	__u32 bf16_gflops;
	/** @reserved: in, must be 0; out, 0. */
	__u64 reserved[3];
};

/* drm_swai_sync.flags */
#define DRM_SWAI_SYNC_TIMELINE		0x1U	/* @point is a timeline point */

/**
 * struct drm_swai_sync - a DRM syncobj (binary, or a timeline point)
 */
struct drm_swai_sync {
	/** @handle: syncobj handle of the caller's file. */
	__u32 handle;
	/** @flags: DRM_SWAI_SYNC_*. */
	__u32 flags;
	/** @point: with DRM_SWAI_SYNC_TIMELINE, the point; else must be 0. */
	__u64 point;
};

#define DRM_SWAI_MAX_IN_SYNCS		64

/* drm_swai_submit.flags */
#define DRM_SWAI_SUBMIT_PEER		0x1	/* other CGs' Local-HBM allowed */
#define DRM_SWAI_SUBMIT_FLAGS_ALL	DRM_SWAI_SUBMIT_PEER

/**
 * struct drm_swai_submit - run a core-group program on a core group's queue
 *
 * Queues a job that runs the program of @program_size bytes (struct
 * swai_insn, uapi/drm/swai_program.h) at device VA @program_va of the
 * caller's context on core group @queue, once every fence in @in_syncs has
 * signalled.  Jobs of one file on one queue run in submission order.  When
 * the job ends, its fence signals @out_sync (if @out_sync.handle is not 0)
 * and DRM_IOCTL_SWAI_JOB_WAIT reports how it ended and its modeled times.
 *
 * Modeled time: the job starts no earlier than @not_before_ns (the host's
 * modeled time when it launched the job, see libsdaa) plus the card's launch
 * cost, no earlier than the end of the previous job on the queue, and no
 * earlier than the end, plus the host sync cost, of every in-fence of this
 * card.  0 means "now": the card's modeled clock.
 *
 * Peer access: with DRM_SWAI_SUBMIT_PEER in @flags the program may also
 * reach the Local-HBM of the card's other core groups (mapped in the
 * caller's context, as every VA it uses), charged like Global-HBM over the
 * ring; without it such an access fails the job with
 * DRM_SWAI_JOB_ERR_FOREIGN.  Needs DRM_SWAI_CAP_PEER (else -EOPNOTSUPP).
 *
 * A job that fails (fault, illegal instruction, timeout) marks the caller's
 * context as failed: every later SUBMIT of that file fails with -ECANCELED,
 * as a CUDA context with a sticky error.  Errors: -EINVAL (bad queue, size,
 * unknown flags, pad, reserved, sync flags; an in-sync with no fence yet: a
 * binary syncobj never signalled or a timeline point not yet submitted --
 * there is no wait-for-submit), -EFAULT (@in_syncs unreadable), -ENOENT (a
 * syncobj handle does not exist), -ECANCELED (context failed), -EOPNOTSUPP
 * (the card has no queues: DRM_SWAI_CAP_SUBMIT clear; DRM_SWAI_SUBMIT_PEER
 * without DRM_SWAI_CAP_PEER), -ENODEV (card gone), -ENOMEM.
 */
struct drm_swai_submit {
	/** @program_va: in, device VA of the first instruction, 8-aligned. */
	__u64 program_va;
	/** @program_size: in, bytes: a non-zero multiple of 48, at most
	 * SWAI_PROGRAM_MAX_BYTES.
	 */
	__u32 program_size;
	/** @queue: in, core group, < num_core_groups. */
	__u32 queue;
	/** @in_syncs: in, user pointer to struct drm_swai_sync[@in_sync_count]. */
	__u64 in_syncs;
	/** @in_sync_count: in, at most DRM_SWAI_MAX_IN_SYNCS. */
	__u32 in_sync_count;
	/** @flags: in, DRM_SWAI_SUBMIT_* bits. */
	__u32 flags;
	/** @out_sync: in, the syncobj (and point) to signal; handle 0: none. */
	struct drm_swai_sync out_sync;
	/** @not_before_ns: in, modeled launch time, 0 for the card's clock. */
	__u64 not_before_ns;
	/** @job_id: out, the job's number in the caller's file, from 1. */
	__u64 job_id;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/* drm_swai_job_wait.state */
#define DRM_SWAI_JOB_PENDING		0	/* not finished (timeout hit) */
#define DRM_SWAI_JOB_DONE		1	/* finished: see @error */

/* drm_swai_job_wait.error: 0, or why the job failed. */
#define DRM_SWAI_JOB_OK			0
#define DRM_SWAI_JOB_ERR_ILLEGAL	1	/* bad instruction */
#define DRM_SWAI_JOB_ERR_LDM		2	/* LDM range overrun */
#define DRM_SWAI_JOB_ERR_MMU		3	/* MMU fault at @fault_va */
#define DRM_SWAI_JOB_ERR_RESET		4	/* lost in a reset it did not cause */
#define DRM_SWAI_JOB_ERR_PROGRAM	5	/* program not readable */
#define DRM_SWAI_JOB_ERR_DMA		6	/* transfer failed on the bus */
#define DRM_SWAI_JOB_ERR_ALIGN		7	/* misaligned operand */
#define DRM_SWAI_JOB_ERR_FOREIGN	8	/* another CG's Local-HBM */
#define DRM_SWAI_JOB_ERR_TIMEOUT	9	/* exceeded the job timeout */
#define DRM_SWAI_JOB_ERR_CANCELED	10	/* not run: context had failed */

/* drm_swai_job_wait.ctx_flags */
#define DRM_SWAI_CTX_FAILED		0x1U	/* a job of this file failed */

/**
 * struct drm_swai_job_wait - wait for a job of the caller's and report it
 *
 * Waits until job @job_id of the caller's file has ended or CLOCK_MONOTONIC
 * reaches @timeout_abs_ns (0: do not wait), then reports it.  Returns 0 with
 * @state DRM_SWAI_JOB_DONE and the job's outcome, or -ETIME with @state
 * PENDING when the time ran out, -EINTR on a signal (restartable), -ENOENT
 * for a job id the file never had or whose record was dropped (the driver
 * keeps the newest 16384 per file), -EINVAL for non-zero flags/reserved.
 */
struct drm_swai_job_wait {
	/** @job_id: in. */
	__u64 job_id;
	/** @timeout_abs_ns: in, CLOCK_MONOTONIC deadline; 0 polls. */
	__s64 timeout_abs_ns;
	/** @flags: in, must be 0. */
	__u32 flags;
	/** @state: out, DRM_SWAI_JOB_PENDING or DRM_SWAI_JOB_DONE. */
	__u32 state;
	/** @error: out, DRM_SWAI_JOB_OK or DRM_SWAI_JOB_ERR_*. */
	__u32 error;
	/** @error_pc: out, index of the failing instruction. */
	__u32 error_pc;
	/** @fault_va: out, the device VA that failed (MMU, FOREIGN, DMA). */
	__u64 fault_va;
	/** @start_ns: out, modeled start on the card's clock. */
	__u64 start_ns;
	/** @end_ns: out, modeled end. */
	__u64 end_ns;
	/** @wall_ns: out, real time the card spent running it. */
	__u64 wall_ns;
	/** @bytes: out, bytes its transfers moved. */
	__u64 bytes;
	/** @queue: out, the core group it ran on. */
	__u32 queue;
	/** @ctx_flags: out, DRM_SWAI_CTX_* of the caller's file. */
	__u32 ctx_flags;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/* drm_swai_query_peer.flags (out) */
#define DRM_SWAI_PEER_ROUTE		0x1U	/* the fabric has a route */
#define DRM_SWAI_PEER_PRESENT		0x2U	/* the card is plugged in */

/**
 * struct drm_swai_query_peer - the route from this card to a fabric card
 *
 * For @fabric_card, a card of this card's fabric (an index below
 * drm_swai_query_device.fabric_cards, not this card's own): whether the
 * fabric has a route to it and whether it is present, and the route's
 * links (Documentation/datasheet.md §15).  A card whose buffers this card
 * may import (DRM_IOCTL_SWAI_BO_IMPORT) is ROUTE | PRESENT with the same
 * fabric_tag.  Errors: -EINVAL (bad index, this card, non-zero pad or
 * reserved), -EOPNOTSUPP (not on a fabric), -ENODEV after unplug.
 */
struct drm_swai_query_peer {
	/** @fabric_card: in, the card's fabric index. */
	__u32 fabric_card;
	/** @flags: out, DRM_SWAI_PEER_* bits. */
	__u32 flags;
	/** @hops: out, links on the route. */
	__u32 hops;
	/** @mbps: out, the route's narrowest link, MB/s each way. */
	__u32 mbps;
	/** @latency_ns: out, the route's latency, links and switches. */
	__u32 latency_ns;
	/** @pad: in, must be 0. */
	__u32 pad;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/* drm_swai_bo_import.flags */
#define DRM_SWAI_IMPORT_FIXED_VA	0x1U	/* map at device_va */
#define DRM_SWAI_IMPORT_FLAGS_ALL	DRM_SWAI_IMPORT_FIXED_VA
/* drm_swai_bo_import.result (out) */
#define DRM_SWAI_IMPORT_FABRIC		0x1U	/* the memory is on another card */
#define DRM_SWAI_IMPORT_READ_ONLY	0x2U	/* the dma-buf was not writable */
/*
 * The exported object's placement (DRM_SWAI_MEM_LOCAL(cg), _GLOBAL): on the
 * same card, Local-HBM of core group cg is reached by other core groups'
 * jobs only with DRM_SWAI_SUBMIT_PEER, as the exporter's own.
 */
#define DRM_SWAI_IMPORT_PLACEMENT(r)	(((r) >> 8) & 0xffU)

/**
 * struct drm_swai_bo_import - map a buffer object shared as a dma-buf
 *
 * @fd is a dma-buf exported with DRM_IOCTL_PRIME_HANDLE_TO_FD from a buffer
 * object in device memory (Local- or Global-HBM) of this card -- by another
 * process, say -- or of a card this card reaches over the fabric
 * (drm_swai_query_peer).  The caller gets a new handle of an object of its
 * own (placement DRM_SWAI_MEM_IMPORT) that maps the same memory into its
 * device address space, at @device_va with DRM_SWAI_IMPORT_FIXED_VA (64 KiB
 * aligned, inside the device VA space; -EEXIST over a mapping) or where the
 * driver picks: read-write if the dma-buf was exported with DRM_RDWR, else
 * read-only.  The exporter's memory lives until every import and the
 * dma-buf are gone.  Each import is a mapping of its own; GEM_CLOSE (or
 * close) removes it.  An imported object cannot be exported again and has
 * no mmap offset (mmap the dma-buf instead).  @result says where the memory
 * is (DRM_SWAI_IMPORT_*).  A process reaches only what
 * was given to it: the fd is the capability.  Errors: -EINVAL (bad
 * flags, pad, reserved, or fixed VA), -EBADF (not an open fd), -EOPNOTSUPP
 * (not a dma-buf of a swai buffer object), -EXDEV (the buffer is on a card
 * this one cannot reach over a fabric), -ENODEV (that card is gone),
 * -ENOSPC, -ENOMEM.
 */
struct drm_swai_bo_import {
	/** @fd: in, the dma-buf. */
	__s32 fd;
	/** @flags: in, DRM_SWAI_IMPORT_FIXED_VA. */
	__u32 flags;
	/** @handle: out, GEM handle in the caller's file. */
	__u32 handle;
	/** @result: out, DRM_SWAI_IMPORT_* bits and placement. */
	__u32 result;
	/** @size: out, bytes. */
	__u64 size;
	/** @device_va: in with DRM_SWAI_IMPORT_FIXED_VA; out, the mapping. */
	__u64 device_va;
	/** @reserved: in, must be 0. */
	__u64 reserved[2];
};

/*
 * The NIC (since 1.5, DRM_SWAI_CAP_NIC; datasheet §16, descriptors in
 * drm/swai_nic.h).  A file opens virtual ports of the card's NIC: each is
 * the file's alone, its descriptors and the packets that arrive for it
 * reach memory only through the file's own address space, and only
 * packets that carry its key get in (give the key to the peers that may
 * send to it).  Closing the file closes its ports.
 */

/**
 * struct drm_swai_nic_open - DRM_IOCTL_SWAI_NIC_OPEN: a port of one's own
 *
 * -EBUSY when every port is taken, -EOPNOTSUPP without a NIC port.
 */
struct drm_swai_nic_open {
	/** @flags: in, must be 0. */
	__u32 flags;
	/** @vport: out, the port. */
	__u32 vport;
	/** @node: out, this card's node number on the network. */
	__u32 node;
	/** @key: out, what packets to the port must carry (nonzero). */
	__u32 key;
};

/** struct drm_swai_nic_close - DRM_IOCTL_SWAI_NIC_CLOSE: give a port back */
struct drm_swai_nic_close {
	/** @vport: in, a port of this file. */
	__u32 vport;
	/** @pad: in, must be 0. */
	__u32 pad;
};

/* At most this many descriptors per DRM_IOCTL_SWAI_NIC_POST. */
#define DRM_SWAI_NIC_POST_MAX		256

/**
 * struct drm_swai_nic_post - DRM_IOCTL_SWAI_NIC_POST: queue descriptors
 *
 * Each descriptor must be for @vport (SWAI_NIC_D_VPORT) and from this
 * card's node (SWAI_NIC_D_SRC) and follow the rules of drm/swai_nic.h.
 * They are queued in order; the first one refused stops the call:
 * -EINVAL (a rule), -ENOSPC (the port's queue is full: wait for
 * completions), with @posted saying how many went before it.
 */
struct drm_swai_nic_post {
	/** @descs: in, user pointer to @count descriptors of 128 bytes. */
	__u64 descs;
	/** @vport: in, a port of this file. */
	__u32 vport;
	/** @count: in, 1..DRM_SWAI_NIC_POST_MAX. */
	__u32 count;
	/** @not_before_ns: in, the modeled time they are posted at. */
	__u64 not_before_ns;
	/** @posted: out, descriptors queued. */
	__u32 posted;
	/** @pad: in, must be 0. */
	__u32 pad;
};

/** struct drm_swai_nic_cqe - a completion: a descriptor, or a refused packet */
struct drm_swai_nic_cqe {
	/** @status: SWAI_NIC_OK or SWAI_NIC_E_* (drm/swai_nic.h). */
	__u8 status;
	/** @kind: SWAI_NIC_KIND_*. */
	__u8 kind;
	/** @errvec: the result's element error bits. */
	__u16 errvec;
	/** @index: the port's descriptor number (from 0), ~0 for a packet. */
	__u32 index;
	/** @time_ns: when it ended, modeled. */
	__u64 time_ns;
};

/**
 * struct drm_swai_nic_wait - DRM_IOCTL_SWAI_NIC_WAIT: take completions
 *
 * Waits until the port has @min completions (or @timeout_ns passed, or a
 * signal came: -EINTR), then takes up to @max.  -ETIME when fewer than
 * @min came in time (those that did are taken and counted).
 */
struct drm_swai_nic_wait {
	/** @cqes: in, user pointer to room for @max struct drm_swai_nic_cqe. */
	__u64 cqes;
	/** @vport: in, a port of this file. */
	__u32 vport;
	/** @max: in, 1..1024. */
	__u32 max;
	/** @min: in, 0..@max. */
	__u32 min;
	/** @count: out, completions taken. */
	__u32 count;
	/** @timeout_ns: in, how long to wait for @min, at most 60 s. */
	__u64 timeout_ns;
};

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_SWAI_ACCEL_H_ */
