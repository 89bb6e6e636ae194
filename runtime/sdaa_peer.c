// SPDX-License-Identifier: MIT
/*
 * sdaa_peer.c - peer access between the core groups of one card, with
 * CUDA's calls and errors.
 *
 * The card grants it per job (DRM_SWAI_SUBMIT_PEER), not per pair of core
 * groups, so the runtime keeps per device the set of peers the program
 * enabled and submits every job of a device whose set is not empty with
 * the flag (sdaa_job.c); sdaa_memcpy.c then copies Local-HBM to an enabled
 * peer's Local-HBM in one job instead of through Global-HBM.  All core
 * groups of a card share the process's one context, so an address of a
 * peer's buffer means the same on every core group of the card.
 */
#include "sdaa_exec.h"

/* Can @device reach @peer's memory at all?  Both must be valid. */
static int peer_possible(int device, int peer)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	const struct sdaa_device *a = &rt->devices[device], *b = &rt->devices[peer];

	return device != peer && a->card == b->card &&
	       (a->card->q.capabilities & DRM_SWAI_CAP_PEER);
}

SDAA_API sdaaError_t sdaaDeviceCanAccessPeer(int *can, int device, int peer)
{
	sdaaError_t err;

	if (!can)
		return sdaa_error(sdaaErrorInvalidValue);
	err = sdaa_device_valid(device);
	if (!err)
		err = sdaa_device_valid(peer);
	if (err)
		return sdaa_error(err);
	*can = peer_possible(device, peer);
	return sdaaSuccess;
}

/* The current device's queue and the bit of @peer in its set. */
static sdaaError_t peer_args(int peer, struct sdaa_queue **q, uint32_t *bit)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	sdaaError_t err = sdaa_device_valid(peer);
	int dev;

	if (err)
		return err;
	sdaaGetDevice(&dev);
	if (dev == peer)
		return sdaaErrorInvalidDevice;
	if (!peer_possible(dev, peer))
		return sdaaErrorPeerAccessUnsupported;
	err = sdaa_device_queue(dev, q);
	if (err)
		return err;
	*bit = 1u << rt->devices[peer].cg;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaDeviceEnablePeerAccess(int peer, unsigned int flags)
{
	struct sdaa_queue *q;
	sdaaError_t err;
	uint32_t bit;

	if (flags)
		return sdaa_error(sdaaErrorInvalidValue);
	err = peer_args(peer, &q, &bit);
	if (err)
		return sdaa_error(err);
	if (__atomic_fetch_or(&q->peers, bit, __ATOMIC_ACQ_REL) & bit)
		return sdaa_error(sdaaErrorPeerAccessAlreadyEnabled);
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaDeviceDisablePeerAccess(int peer)
{
	struct sdaa_queue *q;
	sdaaError_t err;
	uint32_t bit;

	err = peer_args(peer, &q, &bit);
	if (err)
		return sdaa_error(err);
	if (!(__atomic_fetch_and(&q->peers, ~bit, __ATOMIC_ACQ_REL) & bit))
		return sdaa_error(sdaaErrorPeerAccessNotEnabled);
	return sdaaSuccess;
}

int sdaa_peer_enabled(const struct sdaa_queue *from, int to_cg)
{
	return !!(__atomic_load_n(&from->peers, __ATOMIC_ACQUIRE) & (1u << to_cg));
}
