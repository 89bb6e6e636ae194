// SPDX-License-Identifier: MIT
/*
 * sdaa_suballoc_index.c - the suballocator's host-side bookkeeping: a pool
 * of block records and the index that maps a live allocation's address to
 * its record.  Both are called with the allocator's lock held.
 *
 * The index is a hash table rather than a sorted structure: free() and
 * size() only ever ask "which record starts exactly at this address", never
 * "which block contains it" or "what is next to it" (the boundary tags of
 * the records answer that), so an ordered tree's O(log n) pointer chasing
 * buys nothing.  Chaining through the record itself (used.hnext) needs no
 * memory per entry; Fibonacci hashing of addr >> log2(align) spreads the
 * regularly spaced addresses of equal-sized objects over the buckets.  The
 * table doubles when the load reaches 1/2 (an O(n) rehash under the lock,
 * amortised O(1)); if that host allocation fails it just keeps the longer
 * chains, which stay correct.
 */
#include <errno.h>
#include <stdlib.h>

#include "sdaa_suballoc_index.h"

/* Records come 255 at a time (16 KiB, cache-line aligned) and are only
 * given back to libc at fini: the pool is bounded by the peak number of
 * blocks. */
#define SLAB_RECORDS 255

struct sa_slab {
	struct sa_block rec[SLAB_RECORDS];
	struct sa_slab *next;
};

struct sa_block *sa_pool_refill(struct sa_pool *pool)
{
	struct sa_slab *s;

	if (posix_memalign((void **)&s, _Alignof(struct sa_slab), sizeof(*s)))
		return NULL;
	s->next = pool->slabs;
	pool->slabs = s;
	for (int i = SLAB_RECORDS - 1; i > 0; i--)
		sa_pool_put(pool, &s->rec[i]);
	return &s->rec[0];
}

void sa_pool_fini(struct sa_pool *pool)
{
	while (pool->slabs) {
		struct sa_slab *s = pool->slabs;

		pool->slabs = s->next;
		free(s);
	}
	pool->free = NULL;
}

#define INDEX_MIN_BITS 8

int sa_index_init(struct sa_index *ix, unsigned int key_shift)
{
	ix->bits = INDEX_MIN_BITS;
	ix->key_shift = key_shift;
	ix->count = 0;
	ix->bucket = calloc(1ull << ix->bits, sizeof(*ix->bucket));
	return ix->bucket ? 0 : -ENOMEM;
}

void sa_index_fini(struct sa_index *ix)
{
	free(ix->bucket);
	ix->bucket = NULL;
	ix->count = 0;
}

/* Double the table (O(n), amortised O(1) per insert); on failure keep the
 * longer chains, which stay correct. */
void sa_index_grow(struct sa_index *ix)
{
	unsigned int old_bits = ix->bits;
	struct sa_block **old = ix->bucket;
	struct sa_block **nb;

	if (old_bits >= 48)
		return;
	nb = calloc(1ull << (old_bits + 1), sizeof(*nb));
	if (!nb)
		return;
	ix->bucket = nb;
	ix->bits = old_bits + 1;
	for (uint64_t i = 0; i < (1ull << old_bits); i++) {
		struct sa_block *b = old[i], *next;

		for (; b; b = next) {
			uint64_t s = sa_index_slot(ix, b->addr);

			next = b->used.hnext;
			b->used.hnext = nb[s];
			nb[s] = b;
		}
	}
	free(old);
}
