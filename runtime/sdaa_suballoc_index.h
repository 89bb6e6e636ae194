/* SPDX-License-Identifier: MIT */
/*
 * sdaa_suballoc_index.h - the host-side records of the suballocator and the
 * record pool and address index that sdaa_suballoc_index.c implements.
 */
#ifndef SDAA_SUBALLOC_INDEX_H
#define SDAA_SUBALLOC_INDEX_H

#include <stdbool.h>

#include "sdaa_suballoc.h"

/*
 * One block of device memory, free or used: the "header" of the paper's
 * boundary-tag scheme, kept on the host because device memory is only
 * reachable through an uncached BAR.  Blocks of a chunk tile it exactly and
 * are linked in address order (phys_prev/phys_next, NULL at the chunk's
 * ends), so free() finds both neighbours in O(1).  One cache line each:
 * alloc and free touch a handful of records scattered over the pool, and
 * a record straddling two lines would double the misses.
 */
struct sa_block {
	uint64_t addr;
	uint64_t size;			/* multiple of align */
	struct sa_block *phys_prev, *phys_next;
	union {
		struct {		/* free: in bin[fl][sl] */
			struct sa_block *prev, *next;
		} free;
		struct {		/* used: in the index */
			struct sa_block *hnext;
			uint64_t requested;
		} used;
		struct sa_block *pool_next;	/* in the record pool */
	};
	struct sa_chunk *chunk;
	bool is_free;
} __attribute__((aligned(64)));

/* One chunk obtained from level 1. */
struct sa_chunk {
	uint64_t base, len;
	struct sa_chunk *prev, *next;	/* in sdaa_suballoc.chunks */
	bool dedicated;			/* holds one big allocation */
};

/*
 * The record pool and the index are called on every alloc and free, so
 * their fast paths are inline here; the slow paths (a new slab, a rehash)
 * are in sdaa_suballoc_index.c.
 */
struct sa_block *sa_pool_refill(struct sa_pool *pool);
void sa_pool_fini(struct sa_pool *pool);

/* A free record, or NULL when host memory ran out. */
static inline struct sa_block *sa_pool_get(struct sa_pool *pool)
{
	struct sa_block *b = pool->free;

	if (__builtin_expect(!b, 0))
		return sa_pool_refill(pool);
	pool->free = b->pool_next;
	return b;
}

static inline void sa_pool_put(struct sa_pool *pool, struct sa_block *b)
{
	b->pool_next = pool->free;
	pool->free = b;
}

/* Address index of the used blocks. */
int sa_index_init(struct sa_index *ix, unsigned int key_shift);
void sa_index_fini(struct sa_index *ix);
void sa_index_grow(struct sa_index *ix);

/* Fibonacci hashing: addresses of equal-sized objects are evenly spaced. */
static inline uint64_t sa_index_slot(const struct sa_index *ix, uint64_t addr)
{
	return ((addr >> ix->key_shift) * 0x9e3779b97f4a7c15ull) >> (64 - ix->bits);
}

static inline void sa_index_insert(struct sa_index *ix, struct sa_block *b)
{
	uint64_t s;

	/* keep the load under 1/2: a lookup then visits 1.25 records on average */
	if (__builtin_expect(ix->count >= (1ull << (ix->bits - 1)), 0))
		sa_index_grow(ix);
	s = sa_index_slot(ix, b->addr);
	b->used.hnext = ix->bucket[s];
	ix->bucket[s] = b;
	ix->count++;
}

static inline struct sa_block *sa_index_find(const struct sa_index *ix, uint64_t addr)
{
	struct sa_block *b = ix->bucket[sa_index_slot(ix, addr)];

	while (b && b->addr != addr)
		b = b->used.hnext;
	return b;
}

static inline struct sa_block *sa_index_remove(struct sa_index *ix, uint64_t addr)
{
	struct sa_block **pp = &ix->bucket[sa_index_slot(ix, addr)];

	for (; *pp; pp = &(*pp)->used.hnext) {
		struct sa_block *b = *pp;

		if (b->addr == addr) {
			*pp = b->used.hnext;
			ix->count--;
			return b;
		}
	}
	return NULL;
}

#endif /* SDAA_SUBALLOC_INDEX_H */
