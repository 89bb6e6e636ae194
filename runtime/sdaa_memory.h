/* SPDX-License-Identifier: MIT */
/*
 * sdaa_memory.h - what the device- and host-memory parts of libsdaa share:
 * the process-wide device address range and the table of mapped blocks.
 */
#ifndef SDAA_MEMORY_H
#define SDAA_MEMORY_H

#include <stdint.h>

/* The device addresses the runtime hands out, the same on every card. */
#define SDAA_VA_START	(1ULL << 30)
#define SDAA_VA_END	(1ULL << 39)		/* SWAI_MMU_VA_BITS */
#define SDAA_VA_ALIGN	(64ULL << 10)		/* the driver's mapping alignment */

/* A mapped block: one device buffer object, or one pinned host buffer. */
struct sdaa_block {
	uint64_t va, len;
	uint32_t handle;		/* device blocks: the GEM handle */
	int card;			/* index into sdaa_runtime.cards; host: -1 */
	uint32_t region;		/* DRM_SWAI_MEM_* */
};

int sdaa_va_alloc(uint64_t len, uint64_t *va);
void sdaa_va_free(uint64_t va);

int sdaa_block_insert(const struct sdaa_block *b);
/* Remove the block starting at @va, copied to @out; 0 if there is none. */
int sdaa_block_take(uint64_t va, struct sdaa_block *out);
/* The block containing @va, copied to @out; 0 if there is none. */
int sdaa_block_find(uint64_t va, struct sdaa_block *out);

/* Pinned host memory (sdaa_host.c): the device address of host address @h. */
int sdaa_host_lookup(uintptr_t h, uint64_t *va);
/* Unpin every pinned buffer (sdaa_lib.c's teardown). */
void sdaa_host_fini(void);
/* Give every block of device memory back (sdaa_lib.c's teardown). */
void sdaa_memory_fini(void);

#endif /* SDAA_MEMORY_H */
