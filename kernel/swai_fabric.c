// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_fabric.c - the card-to-card fabric (datasheet §15): which fabric a
 * card is on, read once at probe, the routes to its peers, and
 * DRM_IOCTL_SWAI_QUERY_PEER.
 *
 * Two cards reach each other when they report the same nonzero fabric tag
 * and the fabric has a route between their indices with both present.  The
 * route registers are a window selected by FABRIC_PEER, so a read of a
 * route is serialised by @fabric_lock.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/swai_accel.h>

#include "swai_debug.h"
#include "swai_drv.h"
#include "swai_fabric.h"
#include "swai_hw.h"

/**
 * swai_fabric_init() - learn the card's place on its fabric, if any
 * @sdev: the card, out of reset
 */
void swai_fabric_init(struct swai_device *sdev)
{
	mutex_init(&sdev->fabric_lock);
	if (!(sdev->hw_caps & SWAI_CAP_FABRIC))
		return;
	sdev->fabric_cards = swai_rd(sdev, SWAI_REG_FABRIC_CARDS);
	if (!sdev->fabric_cards)
		return;
	if (sdev->fabric_cards > SWAI_FABRIC_MAX_CARDS) {
		dev_warn(sdev->drm.dev, "fabric of %u cards, more than %u: ignored\n",
			 sdev->fabric_cards, SWAI_FABRIC_MAX_CARDS);
		sdev->fabric_cards = 0;
		return;
	}
	sdev->fabric_id = swai_rd(sdev, SWAI_REG_FABRIC_ID);
	sdev->fabric_tag = swai_rd(sdev, SWAI_REG_FABRIC_TAG);
	dev_info(sdev->drm.dev, "fabric 0x%08x: card %u of %u\n",
		 sdev->fabric_tag, sdev->fabric_id, sdev->fabric_cards);
}

/**
 * swai_fabric_path() - the route from @sdev to fabric card @card
 * @sdev: the card
 * @card: a fabric index other than the card's own
 * @path: out
 *
 * Return: 0, -EOPNOTSUPP if the card is on no fabric, -EINVAL for a bad
 * index, -ENODEV after unplug.
 */
int swai_fabric_path(struct swai_device *sdev, u32 card,
		     struct swai_fabric_path *path)
{
	u32 v;
	int idx;

	if (!sdev->fabric_cards)
		return -EOPNOTSUPP;
	if (card >= sdev->fabric_cards || card == sdev->fabric_id)
		return -EINVAL;
	if (!drm_dev_enter(&sdev->drm, &idx))
		return -ENODEV;
	mutex_lock(&sdev->fabric_lock);
	swai_wr(sdev, SWAI_REG_FABRIC_PEER, card);
	v = swai_rd(sdev, SWAI_REG_FABRIC_PEER_PATH);
	path->mbps = swai_rd(sdev, SWAI_REG_FABRIC_PEER_MBPS);
	path->latency_ns = swai_rd(sdev, SWAI_REG_FABRIC_PEER_LAT_NS);
	mutex_unlock(&sdev->fabric_lock);
	drm_dev_exit(idx);

	path->flags = (v & SWAI_FABRIC_PATH_ROUTE ? DRM_SWAI_PEER_ROUTE : 0) |
		      (v & SWAI_FABRIC_PATH_JOINED ? DRM_SWAI_PEER_PRESENT : 0);
	path->hops = SWAI_FABRIC_PATH_HOPS(v);
	return 0;
}

/**
 * swai_fabric_reaches() - can @sdev's programs reach @peer's HBM?
 * @sdev: the card that would map the memory
 * @peer: the card that has it, another card
 *
 * Return: true if both are on one fabric with a route from @sdev to @peer
 * and @peer present.
 */
bool swai_fabric_reaches(struct swai_device *sdev, struct swai_device *peer)
{
	struct swai_fabric_path path;

	if (!sdev->fabric_cards || sdev->fabric_tag != peer->fabric_tag)
		return false;
	if (swai_fabric_path(sdev, peer->fabric_id, &path))
		return false;
	return (path.flags & (DRM_SWAI_PEER_ROUTE | DRM_SWAI_PEER_PRESENT)) ==
	       (DRM_SWAI_PEER_ROUTE | DRM_SWAI_PEER_PRESENT);
}

/**
 * swai_ioctl_query_peer() - DRM_IOCTL_SWAI_QUERY_PEER
 * @drm: the DRM device
 * @data: struct drm_swai_query_peer
 * @file: the caller
 *
 * Return: 0, -EINVAL for a bad index or non-zero pad or reserved fields,
 * -EOPNOTSUPP on no fabric, -ENODEV after unplug.
 */
int swai_ioctl_query_peer(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_query_peer *args = data;
	struct swai_fabric_path path;
	int ret;

	if (args->pad || args->reserved[0] || args->reserved[1])
		return -EINVAL;
	ret = swai_fabric_path(sdev, args->fabric_card, &path);
	if (ret)
		return ret;
	args->flags = path.flags;
	args->hops = path.hops;
	args->mbps = path.mbps;
	args->latency_ns = path.latency_ns;
	return 0;
}
