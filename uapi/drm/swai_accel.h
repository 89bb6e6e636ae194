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

#define DRM_IOCTL_SWAI_QUERY_DEVICE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SWAI_QUERY_DEVICE, \
		 struct drm_swai_query_device)
#define DRM_IOCTL_SWAI_SET_PARTITION \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SWAI_SET_PARTITION, \
		struct drm_swai_set_partition)

/*
 * Capabilities of the driver and card, reported in
 * drm_swai_query_device.capabilities.  A bit is set only when the feature
 * works on this card with this driver; new features add new bits.
 */
#define DRM_SWAI_CAP_QUERY		_BITULL(0)	/* QUERY_DEVICE */
#define DRM_SWAI_CAP_MSIX		_BITULL(1)	/* interrupts proven */
#define DRM_SWAI_CAP_PARTITION		_BITULL(2)	/* SET_PARTITION */

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

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_SWAI_ACCEL_H_ */
