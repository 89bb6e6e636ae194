// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_hw.c - identity check, reset and geometry of the SW-AI card.
 */

#include <linux/iopoll.h>
#include <linux/lockdep.h>
#include <linux/sizes.h>

#include <drm/swai_accel.h>

#include "swai_debug.h"
#include "swai_hw.h"

#define SWAI_RESET_POLL_US	1000
#define SWAI_RESET_TIMEOUT_US	(1000 * USEC_PER_MSEC)

/**
 * swai_hw_check_identity() - make sure BAR0 belongs to a supported card
 * @sdev: the card, with BAR0 mapped
 *
 * Reads SWAI_REG_ID and SWAI_REG_VERSION and caches the version.  Nothing is
 * written to the card, so this is safe on an unknown device.
 *
 * Return: 0 if the magic matches and the major version is supported,
 * -ENODEV otherwise.
 */
int swai_hw_check_identity(struct swai_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;
	u32 id, version;

	id = swai_rd(sdev, SWAI_REG_ID);
	if (id != SWAI_ID_MAGIC) {
		dev_err(dev, "bad ID register 0x%08x (expected 0x%08x), not a SW-AI card\n",
			id, SWAI_ID_MAGIC);
		return -ENODEV;
	}

	version = swai_rd(sdev, SWAI_REG_VERSION);
	if (version >> 16 != SWAI_HW_VERSION_MAJOR) {
		dev_err(dev, "unsupported hardware version %u.%u (driver supports %u.x)\n",
			version >> 16, version & 0xffff, SWAI_HW_VERSION_MAJOR);
		return -ENODEV;
	}

	sdev->hw_version = version;
	return 0;
}

/**
 * swai_hw_reset() - reset the card and wait until it is ready
 * @sdev: the card
 *
 * Writes SWAI_RESET_MAGIC to SWAI_REG_RESET and polls SWAI_STATUS_READY for up
 * to one second.  Afterwards every interrupt source is disabled.  Errors the
 * card latched in SWAI_REG_ERROR are reported and cleared.  May sleep.
 *
 * Return: 0 on success, -ETIMEDOUT if the card did not become ready.
 */
int swai_hw_reset(struct swai_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;
	u32 status, err;
	int ret;

	swai_wr(sdev, SWAI_REG_RESET, SWAI_RESET_MAGIC);
	ret = readl_poll_timeout(sdev->mmio + SWAI_REG_STATUS, status,
				 status != U32_MAX && (status & SWAI_STATUS_READY),
				 SWAI_RESET_POLL_US, SWAI_RESET_TIMEOUT_US);
	if (ret) {
		dev_err(dev, "reset timed out, STATUS 0x%08x\n", status);
		return ret;
	}

	err = swai_rd(sdev, SWAI_REG_ERROR);
	if (err) {
		dev_warn(dev, "error bits 0x%08x latched after reset, clearing\n", err);
		swai_wr(sdev, SWAI_REG_ERROR, err);
	}

	return 0;
}

/**
 * swai_hw_read_geometry() - cache the read-only geometry registers
 * @sdev: the card, out of reset
 *
 * Return: 0 on success, -ENODEV if the card reports a number of core groups
 * the driver cannot handle.
 */
int swai_hw_read_geometry(struct swai_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;

	sdev->hw_caps = swai_rd(sdev, SWAI_REG_CAPS);
	sdev->num_cg = swai_rd(sdev, SWAI_REG_NUM_CG);
	sdev->cpes_per_cg = swai_rd(sdev, SWAI_REG_CPES_PER_CG);
	sdev->ldm_size = swai_rd(sdev, SWAI_REG_LDM_SIZE);
	sdev->global_granule = swai_rd(sdev, SWAI_REG_GLOBAL_GRANULE);
	sdev->hbm_per_cg_mb = swai_rd(sdev, SWAI_REG_HBM_PER_CG_MB);
	sdev->global_base = (u64)swai_rd(sdev, SWAI_REG_GLOBAL_BASE_HI) << 32 |
			    swai_rd(sdev, SWAI_REG_GLOBAL_BASE_LO);

	if (!sdev->num_cg || sdev->num_cg > SWAI_NUM_CG) {
		dev_err(dev, "card reports %u core groups, driver supports 1..%u\n",
			sdev->num_cg, SWAI_NUM_CG);
		return -ENODEV;
	}

	swai_dbg(dev, PROBE, "%u CGs x %u CPEs, LDM %u B, HBM %u MiB/CG, caps 0x%x\n",
		 sdev->num_cg, sdev->cpes_per_cg, sdev->ldm_size,
		 sdev->hbm_per_cg_mb, sdev->hw_caps);
	return 0;
}

/**
 * swai_hw_local_per_cg_mb() - current Local-HBM share of each controller
 * @sdev: the card
 *
 * Reads the Local/Global switch from the card, since it may change at run
 * time.  A value beyond the controller size is clamped to it.
 *
 * Return: MiB of each HBM controller that belong to Local-HBM.
 */
u32 swai_hw_local_per_cg_mb(const struct swai_device *sdev)
{
	return min(swai_rd(sdev, SWAI_REG_LOCAL_PER_CG_MB), sdev->hbm_per_cg_mb);
}

/**
 * swai_hw_set_partition_locked() - set the Local/Global switch
 * @sdev: the card
 * @local_mb: MiB of each controller for Local-HBM, at most hbm_per_cg_mb
 *
 * The card latches a valid value and flags SWAI_ERR_BAD_PARTITION for any
 * other; the value is read back so the driver never believes in a split the
 * card did not take.  The caller, swai_region_set_partition(), makes sure
 * no device memory is allocated and rebuilds the region allocators.
 *
 * Context: process; sdev->partition_lock held.
 * Return: 0, -EINVAL if the card rejected the value, -EIO if it is gone.
 */
int swai_hw_set_partition_locked(struct swai_device *sdev, u32 local_mb)
{
	struct device *dev = &sdev->pdev->dev;
	u32 now, err;

	lockdep_assert_held(&sdev->partition_lock);

	swai_wr(sdev, SWAI_REG_LOCAL_PER_CG_MB, local_mb);
	now = swai_rd(sdev, SWAI_REG_LOCAL_PER_CG_MB);
	if (now == U32_MAX)
		return -EIO;
	if (now != local_mb) {
		err = swai_rd(sdev, SWAI_REG_ERROR);
		swai_wr(sdev, SWAI_REG_ERROR, err & SWAI_ERR_BAD_PARTITION);
		dev_warn(dev, "card rejected a Local-HBM size of %u MiB per CG, kept %u\n",
			 local_mb, now);
		return -EINVAL;
	}

	swai_dbg(dev, PROBE, "Local-HBM %u MiB per CG, Global-HBM %llu MiB\n", now,
		 swai_hw_global_size(sdev, now) / SZ_1M);
	return 0;
}

/**
 * swai_hw_global_size() - bytes of Global-HBM for a given split
 * @sdev: the card
 * @local_mb: MiB of each controller in Local-HBM, at most hbm_per_cg_mb
 *
 * Return: num_cg * (hbm_per_cg - local_per_cg) in bytes.
 */
u64 swai_hw_global_size(const struct swai_device *sdev, u32 local_mb)
{
	return (u64)sdev->num_cg * (sdev->hbm_per_cg_mb - local_mb) * SZ_1M;
}

/**
 * swai_hw_capabilities() - DRM_SWAI_CAP_* bits of this card and driver
 * @sdev: the card, fully probed
 *
 * Return: the capabilities reported to userspace.
 */
u64 swai_hw_capabilities(const struct swai_device *sdev)
{
	u64 caps = DRM_SWAI_CAP_QUERY;

	if (sdev->irq_ok)
		caps |= DRM_SWAI_CAP_MSIX;
	if (sdev->hw_caps & SWAI_CAP_PARTITION)
		caps |= DRM_SWAI_CAP_PARTITION;
	if (sdev->has_memory)
		caps |= DRM_SWAI_CAP_MEMORY | DRM_SWAI_CAP_USERPTR;
	if (sdev->has_queues)
		caps |= DRM_SWAI_CAP_SUBMIT;
	if (sdev->has_timing)
		caps |= DRM_SWAI_CAP_TIMING;
	if (sdev->has_queues && (sdev->hw_caps & SWAI_CAP_PEER))
		caps |= DRM_SWAI_CAP_PEER;
	if (sdev->has_queues && sdev->has_timing &&
	    (sdev->hw_caps & SWAI_CAP_COMPUTE))
		caps |= DRM_SWAI_CAP_COMPUTE;
	if (sdev->has_memory)
		caps |= DRM_SWAI_CAP_PRIME;
	if (sdev->has_memory && sdev->fabric_cards)
		caps |= DRM_SWAI_CAP_FABRIC;
	if (sdev->has_memory && sdev->has_nic)
		caps |= DRM_SWAI_CAP_NIC;

	return caps;
}
