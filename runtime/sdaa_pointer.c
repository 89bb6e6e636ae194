// SPDX-License-Identifier: MIT
/*
 * sdaa_pointer.c - sdaaPointerGetAttributes: what a pointer is, asked of the
 * two owners of memory in turn -- the pinned host buffers (sdaa_host.c)
 * and the device-memory blocks (sdaa_memory.c) -- neither of which needs
 * to know the other.
 */
#include <string.h>

#include "sdaa_internal.h"
#include "sdaa_memory.h"

SDAA_API sdaaError_t sdaaPointerGetAttributes(struct sdaaPointerAttributes *attr,
					      const void *ptr)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct sdaa_block b;
	uint64_t hva;

	if (!attr)
		return sdaa_error(sdaaErrorInvalidValue);
	memset(attr, 0, sizeof(*attr));
	attr->device = attr->card = attr->coreGroup = -1;
	attr->devicePointer = (void *)ptr;
	if (sdaa_host_lookup((uintptr_t)ptr, &hva)) {
		attr->type = sdaaMemoryTypeHost;
		attr->hostPointer = (void *)ptr;
		attr->devicePointer = (void *)(uintptr_t)hva;
		return sdaaSuccess;
	}
	if (!sdaa_block_find((uintptr_t)ptr, &b))
		return sdaaSuccess;	/* unregistered, as CUDA reports it */
	if (b.region == DRM_SWAI_MEM_HOST) {
		attr->type = sdaaMemoryTypeHost;	/* a host buffer's mapping */
		return sdaaSuccess;
	}
	attr->card = rt->cards[b.card].minor;
	/* An IPC import is where its memory is, as this card reaches it. */
	attr->type = sdaa_block_tier(&b) == DRM_SWAI_MEM_GLOBAL ? sdaaMemoryTypeCross :
								  sdaaMemoryTypeLocal;
	if (attr->type == sdaaMemoryTypeLocal)
		attr->coreGroup = (int)sdaa_block_tier(&b);
	/* The logical device: the core group's, or the card's first visible. */
	for (int i = 0; i < rt->ndevices; i++) {
		if (rt->devices[i].card != &rt->cards[b.card])
			continue;
		if (attr->type == sdaaMemoryTypeCross ||
		    rt->devices[i].cg == attr->coreGroup) {
			attr->device = i;
			break;
		}
	}
	return sdaaSuccess;
}
