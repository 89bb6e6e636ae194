// SPDX-License-Identifier: MIT
/*
 * sdaa_peer.c - peer access, with CUDA's calls and errors: between the core
 * groups of one card, and between cards of one fabric.
 *
 * On one card the card grants it per job (DRM_SWAI_SUBMIT_PEER), not per
 * pair of core groups, so the runtime keeps per device the set of core
 * groups the program enabled and submits every job of a device whose set is
 * not empty with the flag (sdaa_job.c); sdaa_memcpy.c then copies Local-HBM
 * to an enabled peer's Local-HBM in one job instead of through Global-HBM.
 * All core groups of a card share the process's one context, so an address
 * of a peer's buffer means the same on every core group of the card.
 *
 * Between cards (swai.ko 1.4 on a fabric, sdaa_fabric.c) enabling maps every
 * allocation of the peer's card, now and later, into the accessing card's
 * context at the same address (sdaa_mem_share): its jobs then reach the
 * peer's memory over the fabric, never through host memory.  Mappings are
 * per card, so they stay while any device of the card has the peer's card
 * enabled.
 */
#include "sdaa_exec.h"
#include "sdaa_fabric.h"
#include "sdaa_memory.h"

static int card_of(int device)
{
	const struct sdaa_runtime *rt = sdaa_runtime();

	return (int)(rt->devices[device].card - rt->cards);
}

/* Can @device reach @peer's memory at all?  Both must be valid. */
static int peer_possible(int device, int peer)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	const struct sdaa_device *a = &rt->devices[device], *b = &rt->devices[peer];

	if (device == peer)
		return 0;
	if (a->card == b->card)
		return !!(a->card->q.capabilities & DRM_SWAI_CAP_PEER);
	return sdaa_fabric_reaches(card_of(device), card_of(peer));
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

/* The current device, its queue, and whether @peer is on another card. */
static sdaaError_t peer_args(int peer, int *dev, struct sdaa_queue **q, int *other)
{
	sdaaError_t err = sdaa_device_valid(peer);

	if (err)
		return err;
	sdaaGetDevice(dev);
	if (*dev == peer)
		return sdaaErrorInvalidDevice;
	if (!peer_possible(*dev, peer))
		return sdaaErrorPeerAccessUnsupported;
	err = sdaa_device_queue(*dev, q);
	if (err)
		return err;
	*other = card_of(*dev) != card_of(peer);
	return sdaaSuccess;
}

/* Flip @peer's bit in @q's set of devices enabled on other cards. */
static int xpeer_set(struct sdaa_queue *q, int peer, int on)
{
	uint64_t bit = 1ULL << (peer % 64), *w = &q->xpeers[peer / 64];

	return !!((on ? __atomic_fetch_or(w, bit, __ATOMIC_ACQ_REL) :
			__atomic_fetch_and(w, ~bit, __ATOMIC_ACQ_REL)) & bit);
}

SDAA_API sdaaError_t sdaaDeviceEnablePeerAccess(int peer, unsigned int flags)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct sdaa_queue *q;
	int dev, other;
	sdaaError_t err;
	uint32_t bit;

	if (flags)
		return sdaa_error(sdaaErrorInvalidValue);
	err = peer_args(peer, &dev, &q, &other);
	if (err)
		return sdaa_error(err);
	if (!other) {
		bit = 1u << rt->devices[peer].cg;
		if (__atomic_fetch_or(&q->peers, bit, __ATOMIC_ACQ_REL) & bit)
			return sdaa_error(sdaaErrorPeerAccessAlreadyEnabled);
		return sdaaSuccess;
	}
	if (xpeer_set(q, peer, 1))
		return sdaa_error(sdaaErrorPeerAccessAlreadyEnabled);
	err = sdaa_mem_share(card_of(peer), card_of(dev));
	if (err)
		xpeer_set(q, peer, 0);
	return sdaa_error(err);
}

SDAA_API sdaaError_t sdaaDeviceDisablePeerAccess(int peer)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct sdaa_queue *q;
	int dev, other;
	sdaaError_t err;
	uint32_t bit;

	err = peer_args(peer, &dev, &q, &other);
	if (err)
		return sdaa_error(err);
	if (!other) {
		bit = 1u << rt->devices[peer].cg;
		if (!(__atomic_fetch_and(&q->peers, ~bit, __ATOMIC_ACQ_REL) & bit))
			return sdaa_error(sdaaErrorPeerAccessNotEnabled);
		return sdaaSuccess;
	}
	if (!xpeer_set(q, peer, 0))
		return sdaa_error(sdaaErrorPeerAccessNotEnabled);
	sdaa_mem_unshare(card_of(peer), card_of(dev));
	return sdaaSuccess;
}

int sdaa_peer_enabled(const struct sdaa_queue *from, int to_cg)
{
	return !!(__atomic_load_n(&from->peers, __ATOMIC_ACQUIRE) & (1u << to_cg));
}
