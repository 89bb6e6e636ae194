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
#define DRM_SWAI_UAPI_MINOR		0

#define DRM_SWAI_QUERY_DEVICE		0x00
#define DRM_SWAI_SET_PARTITION		0x01
#define DRM_SWAI_BO_CREATE		0x02
#define DRM_SWAI_BO_INFO		0x03
#define DRM_SWAI_MEM_INFO		0x04
#define DRM_SWAI_VA_PROBE		0x05
#define DRM_SWAI_BO_USERPTR		0x06

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
	/** @reserved: in, must be 0; out, 0. */
	__u64 reserved[4];
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

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_SWAI_ACCEL_H_ */
