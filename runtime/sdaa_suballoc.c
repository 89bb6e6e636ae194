// SPDX-License-Identifier: MIT
/*
 * sdaa_suballoc.c - level 2 of device memory allocation: a free-list
 * allocator of fine-grained objects inside the chunks level 1 gives out.
 *
 * Blocks and boundary tags.  A chunk is tiled by blocks, free or used; each
 * block knows its size and its two neighbours in address order, so free()
 * coalesces with them in O(1), and a chunk whose blocks have all merged back
 * into one is entirely free.  The SW-IntraCC design keeps that metadata in a
 * header in front of each block; here the header is a host-side shadow of
 * the block (struct sa_block, sdaa_suballoc_index.h) because the host reaches
 * device memory only through an uncached PCI BAR: reading a header there on
 * every malloc/free would cost microseconds, and a kernel that overruns its
 * buffer would corrupt the allocator.  Device memory thus holds only user
 * data, and no alignment is lost to headers.  A hash table maps the address
 * of each live allocation to its record (sdaa_suballoc_index.c), so free()
 * finds it in O(1) and rejects any address that does not start a live
 * allocation without touching anything.
 *
 * Fit policy: TLSF-style segregated free lists (Masmano et al., 2004).  Free
 * blocks sit in bins by size class: 64 power-of-two ranges, each split in 16
 * (a class spans at most 1/16 of its size), with two bitmaps saying which
 * bins are non-empty.  An allocation rounds its size up to the next class
 * boundary, so that the first block of the first non-empty bin from there
 * fits: good fit in O(1) (two find-first-set), waste bounded by the class
 * width.  Only when no such bin exists does it scan its own class first-fit,
 * so memory that is there is used before asking level 1 for more.  The
 * block found is split; the front is returned (addresses stay aligned: every
 * size is a multiple of align and chunks start aligned) and the tail goes
 * back to its bin if at least align bytes long.  Bins are LIFO: a block
 * just freed is the first reused.
 *
 * Chunks.  Small requests share chunks of `granule` bytes.  A request above
 * granule / 2 gets a chunk of its own, exactly as large as the provider
 * makes it: carving it from a shared chunk would leave a chunk that cannot
 * serve another one like it, and a dedicated chunk goes back to level 1 the
 * moment it is freed.  A shared chunk that becomes entirely free is kept as
 * the spare if there is none yet (so a loop that allocates and frees one
 * object does not ioctl every time) and returned to level 1 otherwise: at
 * most one entirely free chunk is ever held.
 *
 * Locking.  One mutex guards everything; alloc and free take it once and do
 * O(1) work under it (the index may rehash, amortised O(1)).  The provider's
 * grow and shrink, which are ioctls in the runtime, run outside it: a
 * failed alloc drops the lock, grows, and retakes it to carve the new chunk,
 * and free detaches an emptied chunk under the lock and shrinks it after.
 * Growing for a shared chunk is serialised by grow_lock, under which the
 * grower first looks again for room: threads that all found none at once
 * then make one chunk, not one each -- and a provider of one fixed range
 * (the runtime's device addresses), which can give it only once, never
 * fails the threads that came second.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sdaa_suballoc_bins.h"

/*
 * Make the free block @b (out of its bin) a live allocation of @asize bytes,
 * @requested asked for.  @rest is a spare record for the tail, if any.
 */
static void take(struct sdaa_suballoc *sa, struct sa_block *b, uint64_t asize,
		 uint64_t requested, struct sa_block *rest)
{
	if (b->chunk == sa->spare)
		sa->spare = NULL;
	if (b->size > asize) {		/* then by at least align */
		rest->addr = b->addr + asize;
		rest->size = b->size - asize;
		rest->chunk = b->chunk;
		rest->phys_prev = b;
		rest->phys_next = b->phys_next;
		if (rest->phys_next)
			rest->phys_next->phys_prev = rest;
		b->phys_next = rest;
		b->size = asize;
		bin_insert(sa, rest);
	} else {
		sa_pool_put(&sa->pool, rest);
	}
	b->is_free = false;
	b->used.requested = requested;
	sa_index_insert(&sa->index, b);
	sa->st.in_use += b->size;
	sa->st.requested += requested;
	sa->st.nallocs++;
}

static void chunk_link(struct sdaa_suballoc *sa, struct sa_chunk *c)
{
	c->prev = NULL;
	c->next = sa->chunks;
	if (c->next)
		c->next->prev = c;
	sa->chunks = c;
	sa->st.held += c->len;
	sa->st.nchunks++;
	sa->st.ngrow++;
	if (c->dedicated)
		sa->st.ndedicated++;
}

/* Detach @c; the caller shrinks it (without the lock) and frees it. */
static void chunk_unlink(struct sdaa_suballoc *sa, struct sa_chunk *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		sa->chunks = c->next;
	if (c->next)
		c->next->prev = c->prev;
	sa->st.held -= c->len;
	sa->st.nchunks--;
	sa->st.nshrink++;
	if (c->dedicated)
		sa->st.ndedicated--;
}

static void chunk_release(struct sdaa_suballoc *sa, struct sa_chunk *c)
{
	sa->ops->shrink(sa->ctx, c->base, c->len);
	free(c);
}

/* Ask level 1 for a chunk of at least @min bytes (called without the lock). */
static int chunk_get(struct sdaa_suballoc *sa, uint64_t min, bool dedicated,
		     struct sa_chunk **out)
{
	uint64_t base = 0, len = 0;
	struct sa_chunk *c;
	int rc = sa->ops->grow(sa->ctx, min, &base, &len);

	if (rc)
		return rc < 0 ? rc : -EIO;
	if (len < min || ((base | len) & (sa->align - 1)) || base + len < base) {
		sa->ops->shrink(sa->ctx, base, len);	/* a broken provider */
		return -EIO;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		sa->ops->shrink(sa->ctx, base, len);
		return -ENOMEM;
	}
	c->base = base;
	c->len = len;
	c->dedicated = dedicated;
	*out = c;
	return 0;
}

/* A block record covering all of @c. */
static void whole_chunk(struct sa_block *b, struct sa_chunk *c)
{
	b->addr = c->base;
	b->size = c->len;
	b->phys_prev = b->phys_next = NULL;
	b->chunk = c;
	b->is_free = false;
}

static int alloc_dedicated(struct sdaa_suballoc *sa, uint64_t asize, uint64_t size,
			   uint64_t *addr)
{
	struct sa_chunk *c;
	struct sa_block *b;
	int rc = chunk_get(sa, asize, true, &c);

	if (rc)
		return rc;
	pthread_mutex_lock(&sa->lock);
	b = sa_pool_get(&sa->pool);
	if (!b) {
		pthread_mutex_unlock(&sa->lock);
		chunk_release(sa, c);
		return -ENOMEM;
	}
	chunk_link(sa, c);
	whole_chunk(b, c);
	b->used.requested = size;
	sa_index_insert(&sa->index, b);
	sa->st.in_use += b->size;
	sa->st.requested += size;
	sa->st.nallocs++;
	*addr = b->addr;
	pthread_mutex_unlock(&sa->lock);
	return 0;
}

static int alloc_grow(struct sdaa_suballoc *sa, uint64_t asize, uint64_t size,
		      uint64_t *addr)
{
	struct sa_chunk *c;
	struct sa_block *b, *rest;
	int rc = chunk_get(sa, sa->granule, false, &c);

	if (rc)
		return rc;
	pthread_mutex_lock(&sa->lock);
	b = sa_pool_get(&sa->pool);
	rest = b ? sa_pool_get(&sa->pool) : NULL;
	if (!rest) {
		if (b)
			sa_pool_put(&sa->pool, b);
		pthread_mutex_unlock(&sa->lock);
		chunk_release(sa, c);
		return -ENOMEM;
	}
	/* Carve the new chunk even if a free() meanwhile made room elsewhere:
	 * it is certain to fit, and the other room stays for the next one. */
	chunk_link(sa, c);
	whole_chunk(b, c);
	take(sa, b, asize, size, rest);
	*addr = b->addr;
	pthread_mutex_unlock(&sa->lock);
	return 0;
}

/* Carve @asize bytes out of a free block: 0, 1 if none fits, or -ENOMEM. */
static int alloc_fit(struct sdaa_suballoc *sa, uint64_t asize, uint64_t size, uint64_t *addr)
{
	struct sa_block *b, *rest;

	pthread_mutex_lock(&sa->lock);
	rest = sa_pool_get(&sa->pool);	/* first, so that nothing can fail later */
	if (!rest) {
		pthread_mutex_unlock(&sa->lock);
		return -ENOMEM;
	}
	b = find_fit(sa, asize);
	if (b) {
		take(sa, b, asize, size, rest);
		*addr = b->addr;
		pthread_mutex_unlock(&sa->lock);
		return 0;
	}
	sa_pool_put(&sa->pool, rest);
	pthread_mutex_unlock(&sa->lock);
	return 1;
}

int sdaa_suballoc_alloc(struct sdaa_suballoc *sa, uint64_t size, uint64_t *addr)
{
	uint64_t asize;
	int rc;

	if (!size || !addr)
		return -EINVAL;
	if (size > UINT64_MAX - sa->align)
		return -ENOMEM;
	asize = (size + sa->align - 1) & ~(sa->align - 1);
	if (asize > sa->granule / 2)
		return alloc_dedicated(sa, asize, size, addr);
	rc = alloc_fit(sa, asize, size, addr);
	if (rc <= 0)
		return rc;
	pthread_mutex_lock(&sa->grow_lock);
	rc = alloc_fit(sa, asize, size, addr);	/* grown while we waited? */
	if (rc > 0)
		rc = alloc_grow(sa, asize, size, addr);
	pthread_mutex_unlock(&sa->grow_lock);
	return rc;
}

int sdaa_suballoc_free(struct sdaa_suballoc *sa, uint64_t addr)
{
	struct sa_chunk *release = NULL;
	struct sa_block *b, *p, *n;

	pthread_mutex_lock(&sa->lock);
	b = sa_index_remove(&sa->index, addr);
	if (!b) {
		pthread_mutex_unlock(&sa->lock);
		return -EINVAL;
	}
	sa->st.in_use -= b->size;
	sa->st.requested -= b->used.requested;
	sa->st.nallocs--;
	if (b->chunk->dedicated)
		goto release;

	p = b->phys_prev;
	n = b->phys_next;
	if (p && p->is_free) {
		bin_remove(sa, p);
		p->size += b->size;
		p->phys_next = n;
		if (n)
			n->phys_prev = p;
		sa_pool_put(&sa->pool, b);
		b = p;
	}
	if (n && n->is_free) {
		bin_remove(sa, n);
		b->size += n->size;
		b->phys_next = n->phys_next;
		if (b->phys_next)
			b->phys_next->phys_prev = b;
		sa_pool_put(&sa->pool, n);
	}
	if (b->phys_prev || b->phys_next || !sa->spare) {
		if (!b->phys_prev && !b->phys_next)
			sa->spare = b->chunk;
		bin_insert(sa, b);
		pthread_mutex_unlock(&sa->lock);
		return 0;
	}
release:
	release = b->chunk;
	chunk_unlink(sa, release);
	sa_pool_put(&sa->pool, b);
	pthread_mutex_unlock(&sa->lock);
	chunk_release(sa, release);
	return 0;
}

int sdaa_suballoc_size(struct sdaa_suballoc *sa, uint64_t addr, uint64_t *size)
{
	struct sa_block *b;

	pthread_mutex_lock(&sa->lock);
	b = sa_index_find(&sa->index, addr);
	if (b && size)
		*size = b->used.requested;
	pthread_mutex_unlock(&sa->lock);
	return b ? 0 : -EINVAL;
}

void sdaa_suballoc_stats(struct sdaa_suballoc *sa, struct sdaa_suballoc_stats *st)
{
	pthread_mutex_lock(&sa->lock);
	*st = sa->st;
	st->largest_free = 0;
	if (sa->fl_map) {
		/* The largest block is in the highest non-empty bin. */
		unsigned int fl = sa_fls64(sa->fl_map);
		unsigned int sl = 31 - (unsigned int)__builtin_clz(sa->sl_map[fl]);

		for (struct sa_block *b = sa->bin[fl][sl]; b; b = b->free.next)
			if (b->size > st->largest_free)
				st->largest_free = b->size;
	}
	pthread_mutex_unlock(&sa->lock);
}

int sdaa_suballoc_init(struct sdaa_suballoc *sa, const struct sdaa_suballoc_ops *ops,
		       void *ctx, uint64_t granule, uint64_t align)
{
	int rc;

	if (!sa || !ops || !ops->grow || !ops->shrink)
		return -EINVAL;
	if (align < 16 || (align & (align - 1)) || granule < align || granule % align)
		return -EINVAL;
	memset(sa, 0, sizeof(*sa));
	sa->ops = ops;
	sa->ctx = ctx;
	sa->granule = granule;
	sa->align = align;
	rc = sa_index_init(&sa->index, sa_fls64(align));
	if (rc)
		return rc;
	rc = pthread_mutex_init(&sa->lock, NULL);
	if (rc) {
		sa_index_fini(&sa->index);
		return -rc;
	}
	rc = pthread_mutex_init(&sa->grow_lock, NULL);
	if (rc) {
		pthread_mutex_destroy(&sa->lock);
		sa_index_fini(&sa->index);
		return -rc;
	}
	return 0;
}

void sdaa_suballoc_fini(struct sdaa_suballoc *sa)
{
	while (sa->chunks) {
		struct sa_chunk *c = sa->chunks;

		chunk_unlink(sa, c);
		chunk_release(sa, c);
	}
	sa_index_fini(&sa->index);
	sa_pool_fini(&sa->pool);
	pthread_mutex_destroy(&sa->grow_lock);
	pthread_mutex_destroy(&sa->lock);
}
