/* SPDX-License-Identifier: MIT */
/*
 * sdaa_suballoc.h - level 2 of device memory allocation: fine-grained
 * objects carved out of the coarse chunks that level 1 (the driver's bitmap
 * over each memory region, 1 MiB blocks) hands out, so that a small
 * sdaaMalloc costs no ioctl.
 *
 * The allocator manages device addresses (uint64_t, never dereferenced) and
 * knows nothing of QEMU or the driver: chunks come from a provider (struct
 * sdaa_suballoc_ops).  The runtime keeps one allocator per memory region.
 *
 * All functions return 0 or a negative errno.  The allocator is thread-safe
 * (one mutex); the provider's grow/shrink are called without that mutex held
 * (they may be ioctls), possibly from several threads at once, so the
 * provider must be thread-safe itself.
 *
 * See sdaa_suballoc.c for the design and Documentation/runtime.md,
 * "Fine-grained allocation", for the policies and the measured cost.
 */
#ifndef SDAA_SUBALLOC_H
#define SDAA_SUBALLOC_H

#include <pthread.h>
#include <stdint.h>

/**
 * struct sdaa_suballoc_ops - the level-1 provider of chunks.
 * @grow: obtain a new chunk of at least @min_bytes; store its start in @base
 *	(aligned to the allocator's @align at least) and its true length in
 *	@len (>= @min_bytes, a multiple of @align: the provider may round up
 *	to its own block size).  Return 0 or a negative errno (-ENOMEM when
 *	the region is full); that errno is what sdaa_suballoc_alloc() returns.
 * @shrink: take back a chunk, exactly as @grow gave it.  Cannot fail.
 */
struct sdaa_suballoc_ops {
	int (*grow)(void *ctx, uint64_t min_bytes, uint64_t *base, uint64_t *len);
	void (*shrink)(void *ctx, uint64_t base, uint64_t len);
};

/**
 * struct sdaa_suballoc_stats - a consistent snapshot (taken under the lock).
 * Always in_use + free == held.
 */
struct sdaa_suballoc_stats {
	uint64_t in_use;	/* bytes of live blocks (sizes rounded up to
				 * align; a dedicated chunk counts whole) */
	uint64_t requested;	/* bytes the live allocations asked for */
	uint64_t held;		/* bytes of all chunks obtained from level 1 */
	uint64_t free;		/* bytes of free blocks inside those chunks */
	uint64_t largest_free;	/* the largest free block */
	uint64_t nallocs;	/* live allocations */
	uint64_t nchunks;	/* chunks held, dedicated ones included */
	uint64_t ndedicated;	/* of which dedicated to one big allocation */
	uint64_t ngrow;		/* successful grow calls since init */
	uint64_t nshrink;	/* shrink calls since init */
};

/* TLSF-style size classes: 64 powers of two, each split in 16 (about 6 %). */
#define SA_SL_LOG2	4
#define SA_SL		(1u << SA_SL_LOG2)
#define SA_FL		64

struct sa_block;
struct sa_chunk;
struct sa_slab;

/* Host-side block records come from slabs, recycled through a free list. */
struct sa_pool {
	struct sa_block *free;
	struct sa_slab *slabs;
};

/* Live allocations by address: a chained hash table (sdaa_suballoc_index.c). */
struct sa_index {
	struct sa_block **bucket;
	unsigned int bits;		/* 1 << bits buckets */
	unsigned int key_shift;		/* log2(align): low bits are always 0 */
	uint64_t count;
};

/**
 * struct sdaa_suballoc - one allocator.  The caller provides the storage;
 * the members are private to sdaa_suballoc*.c.
 */
struct sdaa_suballoc {
	pthread_mutex_t lock;
	pthread_mutex_t grow_lock;	/* one grow at a time; taken before lock */
	const struct sdaa_suballoc_ops *ops;
	void *ctx;
	uint64_t granule;		/* chunk size asked of grow() */
	uint64_t align;			/* power of two, >= 16 */
	uint64_t fl_map;		/* bit f: some sl_map[f] bit set */
	uint32_t sl_map[SA_FL];		/* bit s: bin[f][s] not empty */
	struct sa_block *bin[SA_FL][SA_SL];	/* free blocks by size class */
	struct sa_chunk *chunks;	/* every chunk held, doubly linked */
	struct sa_chunk *spare;		/* the one entirely free chunk kept */
	struct sa_pool pool;
	struct sa_index index;
	struct sdaa_suballoc_stats st;	/* except free and largest_free */
};

/*
 * Set up @sa.  @granule is the size of the shared chunks asked of
 * @ops->grow (e.g. 2 MiB), @align the alignment of every allocation (a power
 * of two from 16 up to @granule, e.g. 256); @granule must be a multiple of
 * @align.  Nothing is asked of the provider until the first allocation.
 */
int sdaa_suballoc_init(struct sdaa_suballoc *sa, const struct sdaa_suballoc_ops *ops,
		       void *ctx, uint64_t granule, uint64_t align);

/*
 * Return every chunk to the provider (live allocations included: they die
 * with the allocator) and free the host-side records.
 */
void sdaa_suballoc_fini(struct sdaa_suballoc *sa);

/*
 * Allocate @size bytes (rounded up to align) and store the address in @addr.
 * -EINVAL for size 0; -ENOMEM (or whatever grow returned) when the provider
 * has no more; -ENOMEM also if host memory for the records runs out.
 * Requests above granule / 2 get a chunk of their own.
 */
int sdaa_suballoc_alloc(struct sdaa_suballoc *sa, uint64_t size, uint64_t *addr);

/*
 * Free the allocation starting at @addr.  -EINVAL, with nothing changed, if
 * @addr is not the start of a live allocation (never allocated, interior,
 * already freed).
 */
int sdaa_suballoc_free(struct sdaa_suballoc *sa, uint64_t addr);

/* The size the live allocation at @addr was asked for; -EINVAL as free. */
int sdaa_suballoc_size(struct sdaa_suballoc *sa, uint64_t addr, uint64_t *size);

void sdaa_suballoc_stats(struct sdaa_suballoc *sa, struct sdaa_suballoc_stats *st);

#endif /* SDAA_SUBALLOC_H */
