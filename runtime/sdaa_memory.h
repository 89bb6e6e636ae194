/* SPDX-License-Identifier: MIT */
/*
 * sdaa_memory.h - what the device- and host-memory parts of libsdaa share:
 * the process-wide device address range and the table of mapped blocks.
 */
#ifndef SDAA_MEMORY_H
#define SDAA_MEMORY_H

#include <stdint.h>

#include "sdaa_internal.h"

/* The device addresses the runtime hands out, the same on every card. */
#define SDAA_VA_START	(1ULL << 30)
#define SDAA_VA_END	(1ULL << 39)		/* SWAI_MMU_VA_BITS */
#define SDAA_VA_ALIGN	(64ULL << 10)		/* the driver's mapping alignment */

/*
 * A mapped block: one device buffer object, one pinned host buffer, or
 * another process's buffer opened from an IPC handle (DRM_SWAI_MEM_IMPORT).
 * A device block can also be mapped, at the same address, on other cards of
 * its fabric (peer access, sdaaMemcpyPeer): @imports holds those mappings.
 */
struct sdaa_block {
	uint64_t va, len;
	uint32_t handle;		/* device blocks: the GEM handle */
	int card;			/* index into sdaa_runtime.cards; host: -1 */
	uint32_t region;		/* DRM_SWAI_MEM_* */
	uint32_t src_region;		/* IMPORT: the exporter's placement */
	int fabric;			/* IMPORT: the memory is on another card */
	int has_ipc_fd;			/* device: ipc_fd is its exported dma-buf */
	int ipc_fd;
	uint32_t *imports;		/* device: [SDAA_MAX_CARDS] handles, or NULL */
};

/*
 * Where @b's memory is as the core groups of its card see it: its region,
 * for an IPC import the exporter's placement on the same card, and on
 * another card the whole of it alike (Global: any core group reaches it).
 */
static inline uint32_t sdaa_block_tier(const struct sdaa_block *b)
{
	if (b->region != DRM_SWAI_MEM_IMPORT)
		return b->region;
	return b->fabric ? DRM_SWAI_MEM_GLOBAL : b->src_region;
}

int sdaa_va_alloc(uint64_t len, uint64_t *va);
void sdaa_va_free(uint64_t va);

int sdaa_block_insert(const struct sdaa_block *b);
/* Remove the block starting at @va, copied to @out; 0 if there is none. */
int sdaa_block_take(uint64_t va, struct sdaa_block *out);
/* The block containing @va, copied to @out; 0 if there is none. */
int sdaa_block_find(uint64_t va, struct sdaa_block *out);

/*
 * Peer mappings across cards (device blocks only).  sdaa_mem_map_on: the
 * block holding @va is mapped on card @card too (once; nothing to do on its
 * own card).  sdaa_mem_share: every block of card @owner, now and later, is
 * mapped on card @with (counted: sdaa_mem_unshare undoes one share and
 * unmaps at the last).  sdaa_mem_ipc_fd: the block's dma-buf, exported once
 * and kept while the block lives, for IPC handles.
 */
sdaaError_t sdaa_mem_map_on(int card, uint64_t va);
sdaaError_t sdaa_mem_share(int owner, int with);
void sdaa_mem_unshare(int owner, int with);
sdaaError_t sdaa_mem_ipc_fd(uint64_t va, struct sdaa_block *b, int *fd);

/* Pinned host memory (sdaa_host.c): the device address of host address @h. */
int sdaa_host_lookup(uintptr_t h, uint64_t *va);
/* Unpin every pinned buffer (sdaa_lib.c's teardown). */
void sdaa_host_fini(void);
/* Give every block of device memory back (sdaa_lib.c's teardown). */
void sdaa_memory_fini(void);

#endif /* SDAA_MEMORY_H */
