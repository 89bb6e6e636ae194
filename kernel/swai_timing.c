// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_timing.c - the card's timing model (datasheet §14): its parameters,
 * read once at probe, and DRM_IOCTL_SWAI_QUERY_TIMING.
 *
 * The card computes every job's modeled start and end itself; the driver
 * only needs the host synchronisation cost (swai_job_not_before()) and
 * reports the rest, with the card's modeled clock and the reset count.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/swai_accel.h>

#include "swai_drv.h"
#include "swai_hw.h"
#include "swai_queue.h"
#include "swai_timing.h"

/**
 * swai_timing_init() - read the timing model, if the card has one
 * @sdev: the card, out of reset
 */
void swai_timing_init(struct swai_device *sdev)
{
	struct swai_timing *t = &sdev->timing;

	if (!(sdev->hw_caps & SWAI_CAP_TIMING))
		return;
	t->ring_mbps = swai_rd(sdev, SWAI_REG_T_RING_MBPS);
	t->ring_total_mbps = swai_rd(sdev, SWAI_REG_T_RING_TOTAL_MBPS);
	t->local_mbps = swai_rd(sdev, SWAI_REG_T_LOCAL_MBPS);
	t->pcie_mbps = swai_rd(sdev, SWAI_REG_T_PCIE_MBPS);
	t->ldm_mbps = swai_rd(sdev, SWAI_REG_T_LDM_MBPS);
	t->launch_ns = swai_rd(sdev, SWAI_REG_T_LAUNCH_NS);
	t->sync_ns = swai_rd(sdev, SWAI_REG_T_SYNC_NS);
	t->step_ns = swai_rd(sdev, SWAI_REG_T_STEP_NS);
	t->barrier_ns = swai_rd(sdev, SWAI_REG_T_BARRIER_NS);
	t->dma_ns = swai_rd(sdev, SWAI_REG_T_DMA_NS);
	/* Older cards have no compute instructions: their rates stay 0. */
	if (sdev->hw_caps & SWAI_CAP_COMPUTE) {
		t->f32_gflops = swai_rd(sdev, SWAI_REG_T_F32_GFLOPS);
		t->bf16_gflops = swai_rd(sdev, SWAI_REG_T_BF16_GFLOPS);
	}
	sdev->has_timing = true;
}

/**
 * swai_ioctl_query_timing() - DRM_IOCTL_SWAI_QUERY_TIMING
 * @drm: the DRM device
 * @data: struct drm_swai_query_timing
 * @file: the caller
 *
 * Return: 0, -EINVAL for non-zero flags, pad or reserved fields,
 * -EOPNOTSUPP without DRM_SWAI_CAP_TIMING, -ENODEV after unplug.
 */
int swai_ioctl_query_timing(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_query_timing *args = data;
	const struct swai_timing *t = &sdev->timing;
	struct drm_swai_query_timing out = {};
	unsigned int i;
	int idx;

	if (args->flags || args->pad)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(args->reserved); i++)
		if (args->reserved[i])
			return -EINVAL;
	if (!sdev->has_timing)
		return -EOPNOTSUPP;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	out.clock_ns = swai_queue_read_u64(sdev, SWAI_REG_CLOCK_LO,
					   SWAI_REG_CLOCK_HI);
	drm_dev_exit(idx);

	out.ring_mbps = t->ring_mbps;
	out.ring_total_mbps = t->ring_total_mbps;
	out.local_mbps = t->local_mbps;
	out.pcie_mbps = t->pcie_mbps;
	out.ldm_mbps = t->ldm_mbps;
	out.launch_ns = t->launch_ns;
	out.sync_ns = t->sync_ns;
	out.step_ns = t->step_ns;
	out.barrier_ns = t->barrier_ns;
	out.dma_ns = t->dma_ns;
	out.f32_gflops = t->f32_gflops;
	out.bf16_gflops = t->bf16_gflops;
	out.resets = atomic64_read(&sdev->resets);

	*args = out;
	return 0;
}
