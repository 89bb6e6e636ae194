/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_fabric.h - the card-to-card fabric as swai.ko sees it.
 */
#ifndef SWAI_FABRIC_H
#define SWAI_FABRIC_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct swai_device;

/**
 * struct swai_fabric_path - the route from one card to another
 * @flags: DRM_SWAI_PEER_* bits
 * @hops: links on the route
 * @mbps: the narrowest link, MB/s each way
 * @latency_ns: links and switches
 */
struct swai_fabric_path {
	u32 flags;
	u32 hops;
	u32 mbps;
	u32 latency_ns;
};

void swai_fabric_init(struct swai_device *sdev);
int swai_fabric_path(struct swai_device *sdev, u32 card,
		     struct swai_fabric_path *path);
bool swai_fabric_reaches(struct swai_device *sdev, struct swai_device *peer);
int swai_ioctl_query_peer(struct drm_device *drm, void *data,
			  struct drm_file *file);

#endif /* SWAI_FABRIC_H */
