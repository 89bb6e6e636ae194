// SPDX-License-Identifier: MIT
/*
 * sdaa_fabric.c - which cards reach each other's memory over their fabric
 * (swai.ko 1.4: DRM_SWAI_CAP_FABRIC, DRM_IOCTL_SWAI_QUERY_PEER).
 *
 * Card @a reaches card @b when both are on one fabric (the same nonzero
 * fabric tag) and @a's route to @b exists with @b present.  The answer is
 * asked once per pair and kept: a card unplugged later shows up as errors
 * of the work that needs it, as any other lost card does.
 *
 * SDAA_P2P_DISABLE=1 (as NCCL_P2P_DISABLE) makes every pair unreachable:
 * copies between cards then go through pinned host memory.  It is read at
 * every call, so a program (a benchmark's baseline) may switch it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>

#include "sdaa_exec.h"
#include "sdaa_fabric.h"

static struct {
	pthread_mutex_t lock;
	signed char reach[SDAA_MAX_CARDS][SDAA_MAX_CARDS];	/* 0 unknown, 1, -1 */
} fab = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int ask(const struct sdaa_card *a, const struct sdaa_card *b)
{
	struct drm_swai_query_peer p = { .fabric_card = b->q.fabric_id };

	if (!(a->q.capabilities & DRM_SWAI_CAP_FABRIC) ||
	    !(b->q.capabilities & DRM_SWAI_CAP_FABRIC) ||
	    !a->q.fabric_tag || a->q.fabric_tag != b->q.fabric_tag ||
	    a->q.fabric_id == b->q.fabric_id)
		return 0;
	if (drmIoctl(a->fd, DRM_IOCTL_SWAI_QUERY_PEER, &p))
		return 0;
	return (p.flags & (DRM_SWAI_PEER_ROUTE | DRM_SWAI_PEER_PRESENT)) ==
	       (DRM_SWAI_PEER_ROUTE | DRM_SWAI_PEER_PRESENT);
}

int sdaa_fabric_reaches(int a, int b)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	const char *off = getenv("SDAA_P2P_DISABLE");
	int r;

	if (off && *off && strcmp(off, "0"))
		return 0;
	if (a < 0 || b < 0 || a == b || a >= rt->ncards || b >= rt->ncards ||
	    a >= SDAA_MAX_CARDS || b >= SDAA_MAX_CARDS)
		return 0;
	pthread_mutex_lock(&fab.lock);
	if (!fab.reach[a][b]) {
		fab.reach[a][b] = ask(&rt->cards[a], &rt->cards[b]) ? 1 : -1;
		sdaa_log(SDAA_LOG_INFO, SDAA_SUB_INIT, "card %d %s card %d over the fabric",
			 rt->cards[a].minor, fab.reach[a][b] > 0 ? "reaches" : "does not reach",
			 rt->cards[b].minor);
	}
	r = fab.reach[a][b] > 0;
	pthread_mutex_unlock(&fab.lock);
	return r;
}

SDAA_API sdaaError_t sdaaDeviceGetFabricInfo(int device, int *id, int *cards,
					     unsigned int *tag)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	const struct sdaa_card *c;
	sdaaError_t err;

	if (!id || !cards || !tag)
		return sdaa_error(sdaaErrorInvalidValue);
	err = sdaa_device_valid(device);
	if (err)
		return sdaa_error(err);
	c = rt->devices[device].card;
	if (!(c->q.capabilities & DRM_SWAI_CAP_FABRIC)) {
		*id = *cards = 0;
		*tag = 0;
		return sdaaSuccess;
	}
	*id = (int)c->q.fabric_id;
	*cards = (int)c->q.fabric_cards;
	*tag = c->q.fabric_tag;
	return sdaaSuccess;
}
