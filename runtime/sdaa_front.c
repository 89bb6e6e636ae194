// SPDX-License-Identifier: MIT
/*
 * sdaa_front.c - fronts: the newest job per queue of a set of work
 * (sdaa_front.h).  Pure logic, tested on the host.
 */
#include <string.h>

#include "sdaa_front.h"

void sdaa_front_init(struct sdaa_front *f)
{
	memset(f, 0, sizeof(*f));
	f->card = -1;
}

int sdaa_front_empty(const struct sdaa_front *f)
{
	for (int i = 0; i < SDAA_MAX_CG; i++)
		if (f->q[i].point)
			return 0;
	return 1;
}

void sdaa_front_merge(struct sdaa_front *dst, const struct sdaa_front *src)
{
	if (src->card < 0 || sdaa_front_empty(src))
		return;
	if (dst->card < 0)
		dst->card = src->card;
	for (int i = 0; i < SDAA_MAX_CG; i++)
		if (src->q[i].point > dst->q[i].point)
			dst->q[i] = src->q[i];
}

void sdaa_front_set(struct sdaa_front *f, int card, int cg, struct sdaa_fence fence)
{
	sdaa_front_init(f);
	f->card = card;
	f->q[cg] = fence;
}

int sdaa_front_syncs(const struct sdaa_front *f, int cg, const uint64_t *waited,
		     const uint32_t *syncobj, struct drm_swai_sync *out)
{
	int n = 0;

	for (int i = 0; i < SDAA_MAX_CG; i++) {
		if (i == cg || !f->q[i].point || f->q[i].point <= waited[i])
			continue;
		out[n++] = (struct drm_swai_sync){
			.handle = syncobj[i],
			.flags = DRM_SWAI_SYNC_TIMELINE,
			.point = f->q[i].point,
		};
	}
	return n;
}
