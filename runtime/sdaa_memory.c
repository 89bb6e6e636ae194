// SPDX-License-Identifier: MIT
/*
 * sdaa_memory.c - device memory: sdaaMalloc (Local-HBM), sdaaMallocCross
 * (Global-HBM), their frees, sdaaMemGetInfo and sdaaPointerGetAttributes.
 *
 * Two levels, as in the SW-IntraCC paper.  Level 1 is the driver: a 2 MiB
 * block (DRM_IOCTL_SWAI_BO_CREATE, 1 MiB segments) of one region of one card.
 * Level 2 is a free-list suballocator per (card, region) carving allocations
 * out of those blocks (sdaa_suballoc.c), so most calls make no system call.
 *
 * Unique pointers: every card has its own device address space, so two cards
 * could map different blocks at the same address.  The runtime therefore
 * picks every block's address itself from one process-wide range (another
 * suballocator, over addresses only) and asks the driver to map the block
 * exactly there (DRM_SWAI_BO_FIXED_VA).  A pointer then names one block, and
 * the block table below says which card, region and suballocator own it.
 *
 * Peer mappings: on a fabric (swai.ko 1.4) a block can be mapped on other
 * cards too, at the same address (a dma-buf exported and imported with
 * DRM_SWAI_IMPORT_FIXED_VA, sdaa_share.c), so that one pointer means the
 * same memory on every card that may reach it.  share[owner][with] counts
 * the devices of card @with that enabled peer access to card @owner: while
 * it is not 0, every block of @owner is mapped on @with, the ones made
 * later included.  sdaaMemcpyPeer maps single blocks on demand.  A block's
 * mappings go with it.  share_lock serialises mapping (it is taken before
 * mem.lock, and its ioctls run under it).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "sdaa_exec.h"
#include "sdaa_memory.h"
#include "sdaa_share.h"
#include "sdaa_suballoc.h"

#define BLOCK		(2ULL << 20)		/* level-1 block */
#define ALIGN		256ULL			/* every allocation */

/* The level-2 allocator of one region of one card. */
struct pool {
	struct sdaa_suballoc sa;
	int card;
	uint32_t region;
	int ready;
};

static struct {
	pthread_mutex_t lock;		/* blocks[], pool creation */
	struct sdaa_block *blocks;		/* sorted by va */
	size_t nblocks, cap;
	struct pool pools[SDAA_MAX_CARDS][DRM_SWAI_MEM_REGIONS];
	struct sdaa_suballoc va;	/* process-wide device addresses */
	int va_ready;
	pthread_mutex_t share_lock;	/* mapping blocks on other cards */
	unsigned int share[SDAA_MAX_CARDS][SDAA_MAX_CARDS];
} mem = { .lock = PTHREAD_MUTEX_INITIALIZER,
	  .share_lock = PTHREAD_MUTEX_INITIALIZER };

/* The address range handed to the VA allocator, once. */
static int va_grow(void *ctx, uint64_t min, uint64_t *base, uint64_t *len)
{
	int *given = ctx;

	if (*given || min > SDAA_VA_END - SDAA_VA_START)
		return -ENOMEM;
	*given = 1;
	*base = SDAA_VA_START;
	*len = SDAA_VA_END - SDAA_VA_START;
	return 0;
}

static void va_shrink(void *ctx, uint64_t base, uint64_t len)
{
	(void)base;
	(void)len;
	*(int *)ctx = 0;
}

static const struct sdaa_suballoc_ops va_ops = { va_grow, va_shrink };
static int va_given;

/* Index of the first block whose end is above @va (lock held). */
static size_t block_search(uint64_t va)
{
	size_t lo = 0, hi = mem.nblocks;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (mem.blocks[mid].va + mem.blocks[mid].len <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The block containing @va, copied to @out; 0 if there is none. */
int sdaa_block_find(uint64_t va, struct sdaa_block *out)
{
	size_t i;
	int found;

	pthread_mutex_lock(&mem.lock);
	i = block_search(va);
	found = i < mem.nblocks && mem.blocks[i].va <= va;
	if (found)
		*out = mem.blocks[i];
	pthread_mutex_unlock(&mem.lock);
	return found;
}

int sdaa_block_insert(const struct sdaa_block *b)
{
	size_t i;

	pthread_mutex_lock(&mem.lock);
	if (mem.nblocks == mem.cap) {
		size_t cap = mem.cap ? 2 * mem.cap : 64;
		struct sdaa_block *n = realloc(mem.blocks, cap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&mem.lock);
			return -ENOMEM;
		}
		mem.blocks = n;
		mem.cap = cap;
	}
	i = block_search(b->va);
	memmove(&mem.blocks[i + 1], &mem.blocks[i],
		(mem.nblocks - i) * sizeof(*b));
	mem.blocks[i] = *b;
	mem.nblocks++;
	pthread_mutex_unlock(&mem.lock);
	return 0;
}

int sdaa_block_take(uint64_t va, struct sdaa_block *out)
{
	int found;
	size_t i;

	pthread_mutex_lock(&mem.lock);
	i = block_search(va);
	found = i < mem.nblocks && mem.blocks[i].va == va;
	if (found) {
		*out = mem.blocks[i];
		memmove(&mem.blocks[i], &mem.blocks[i + 1],
			(mem.nblocks - i - 1) * sizeof(mem.blocks[0]));
		mem.nblocks--;
	}
	pthread_mutex_unlock(&mem.lock);
	return found;
}

/* The block starting at or holding @va, in the table (mem.lock held). */
static struct sdaa_block *block_at(uint64_t va)
{
	size_t i = block_search(va);

	return i < mem.nblocks && mem.blocks[i].va <= va ? &mem.blocks[i] : NULL;
}

/*
 * Map the device block holding @va on card @card if it is not there yet
 * (share_lock held).  0, or -errno of the failed export or import.
 */
static int map_block_on(int card, uint64_t va)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct sdaa_block *b, snap;
	uint32_t h;
	int ret;

	pthread_mutex_lock(&mem.lock);
	b = block_at(va);
	if (!b || b->card == card || b->card < 0 || b->region == DRM_SWAI_MEM_IMPORT ||
	    (b->imports && b->imports[card])) {
		pthread_mutex_unlock(&mem.lock);
		return b && b->region == DRM_SWAI_MEM_IMPORT && b->card != card ? -EXDEV : 0;
	}
	if (!b->imports)
		b->imports = calloc(SDAA_MAX_CARDS, sizeof(*b->imports));
	snap = *b;
	pthread_mutex_unlock(&mem.lock);
	if (!snap.imports)
		return -ENOMEM;
	/* Only share_lock's holder changes imports: the block stays as it was. */
	ret = sdaa_share_map(rt->cards[snap.card].fd, snap.handle, rt->cards[card].fd,
			     snap.va, &h);
	if (ret) {
		sdaa_log(SDAA_LOG_WARN, SDAA_SUB_MEM,
			 "cannot map block 0x%llx of card %d on card %d: %s",
			 (unsigned long long)snap.va, rt->cards[snap.card].minor,
			 rt->cards[card].minor, strerror(-ret));
		return ret;
	}
	pthread_mutex_lock(&mem.lock);
	snap.imports[card] = h;
	pthread_mutex_unlock(&mem.lock);
	sdaa_log(SDAA_LOG_DEBUG, SDAA_SUB_MEM, "block 0x%llx of card %d mapped on card %d",
		 (unsigned long long)snap.va, rt->cards[snap.card].minor,
		 rt->cards[card].minor);
	return 0;
}

static sdaaError_t map_error(int ret)
{
	return ret == -EXDEV || ret == -EOPNOTSUPP ? sdaaErrorPeerAccessUnsupported :
	       ret == -ENODEV ? sdaaErrorDeviceUnavailable : sdaaErrorMemoryAllocation;
}

sdaaError_t sdaa_mem_map_on(int card, uint64_t va)
{
	int ret;

	pthread_mutex_lock(&mem.share_lock);
	ret = map_block_on(card, va);
	pthread_mutex_unlock(&mem.share_lock);
	return ret ? map_error(ret) : sdaaSuccess;
}

/* The addresses of every device block of card @owner (share_lock held). */
static uint64_t *blocks_of(int owner, size_t *n)
{
	uint64_t *v;

	pthread_mutex_lock(&mem.lock);
	v = malloc((mem.nblocks + 1) * sizeof(*v));
	*n = 0;
	for (size_t i = 0; v && i < mem.nblocks; i++)
		if (mem.blocks[i].card == owner && mem.blocks[i].region != DRM_SWAI_MEM_IMPORT)
			v[(*n)++] = mem.blocks[i].va;
	pthread_mutex_unlock(&mem.lock);
	return v;
}

sdaaError_t sdaa_mem_share(int owner, int with)
{
	sdaaError_t err = sdaaSuccess;
	uint64_t *v;
	size_t n;
	int ret;

	pthread_mutex_lock(&mem.share_lock);
	v = blocks_of(owner, &n);
	for (size_t i = 0; v && i < n && !err; i++) {
		ret = map_block_on(with, v[i]);
		err = ret ? map_error(ret) : sdaaSuccess;
	}
	if (!v)
		err = sdaaErrorHostMemoryAllocation;
	if (!err)
		mem.share[owner][with]++;
	pthread_mutex_unlock(&mem.share_lock);
	free(v);
	return err;
}

void sdaa_mem_unshare(int owner, int with)
{
	const struct sdaa_runtime *rt = sdaa_runtime();

	pthread_mutex_lock(&mem.share_lock);
	if (mem.share[owner][with] && !--mem.share[owner][with]) {
		pthread_mutex_lock(&mem.lock);
		for (size_t i = 0; i < mem.nblocks; i++) {
			struct sdaa_block *b = &mem.blocks[i];

			if (b->card == owner && b->imports && b->imports[with]) {
				sdaa_share_close(rt->cards[with].fd, b->imports[with]);
				b->imports[with] = 0;
			}
		}
		pthread_mutex_unlock(&mem.lock);
	}
	pthread_mutex_unlock(&mem.share_lock);
}

/* A new block of card @card: mapped on the cards that share its memory. */
static void share_new_block(int card, uint64_t va)
{
	const struct sdaa_runtime *rt = sdaa_runtime();

	pthread_mutex_lock(&mem.share_lock);
	for (int w = 0; w < rt->ncards && w < SDAA_MAX_CARDS; w++)
		if (mem.share[card][w])
			map_block_on(w, va);	/* a failure is logged */
	pthread_mutex_unlock(&mem.share_lock);
}

sdaaError_t sdaa_mem_ipc_fd(uint64_t va, struct sdaa_block *out, int *fd)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct sdaa_block *b;
	int e = 0;

	pthread_mutex_lock(&mem.share_lock);
	pthread_mutex_lock(&mem.lock);
	b = block_at(va);
	if (!b || b->card < 0 || b->region == DRM_SWAI_MEM_HOST ||
	    b->region == DRM_SWAI_MEM_IMPORT) {
		pthread_mutex_unlock(&mem.lock);
		pthread_mutex_unlock(&mem.share_lock);
		return sdaaErrorInvalidDevicePointer;
	}
	if (!b->has_ipc_fd) {
		e = sdaa_share_export(rt->cards[b->card].fd, b->handle);
		if (e >= 0) {
			b->ipc_fd = e;
			b->has_ipc_fd = 1;
		}
	}
	*out = *b;
	*fd = b->ipc_fd;
	pthread_mutex_unlock(&mem.lock);
	pthread_mutex_unlock(&mem.share_lock);
	if (e < 0) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_MEM, "cannot export block 0x%llx: %s "
			 "(swai.ko older than uapi 1.4?)", (unsigned long long)va, strerror(-e));
		return e == -ENODEV ? sdaaErrorDeviceUnavailable : sdaaErrorNotSupported;
	}
	return sdaaSuccess;
}

/* Level 1 for a pool: a new block of its region, at an address of ours. */
static int pool_grow(void *ctx, uint64_t min, uint64_t *base, uint64_t *len)
{
	const struct pool *p = ctx;
	const struct sdaa_card *card = &sdaa_runtime()->cards[p->card];
	struct drm_swai_bo_create c = {
		.placement = p->region,
		.flags = DRM_SWAI_BO_SEGMENT | DRM_SWAI_BO_FIXED_VA,
	};
	struct sdaa_block b;
	uint64_t va;
	int ret;

	c.size = min > BLOCK ? (min + BLOCK - 1) / BLOCK * BLOCK : BLOCK;
	if (sdaa_va_alloc(c.size, &va))
		return -ENOMEM;
	c.device_va = va;
	if (drmIoctl(card->fd, DRM_IOCTL_SWAI_BO_CREATE, &c)) {
		ret = errno == ENOSPC || errno == EINVAL ? -ENOSPC : -errno;
		sdaa_log(SDAA_LOG_DEBUG, SDAA_SUB_MEM, "card %d region %u: no block of %llu bytes: %s",
			 card->minor, p->region, (unsigned long long)c.size,
			 strerror(errno));
		sdaa_va_free(va);
		return ret;
	}
	b = (struct sdaa_block){ .va = va, .len = c.size, .handle = c.handle,
				 .card = p->card, .region = p->region };
	if (sdaa_block_insert(&b)) {
		struct drm_gem_close cl = { .handle = c.handle };

		drmIoctl(card->fd, DRM_IOCTL_GEM_CLOSE, &cl);
		sdaa_va_free(va);
		return -ENOMEM;
	}
	share_new_block(p->card, va);
	*base = va;
	*len = c.size;
	return 0;
}

static void pool_shrink(void *ctx, uint64_t base, uint64_t len)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	const struct pool *p = ctx;
	struct sdaa_block b;

	(void)len;
	pthread_mutex_lock(&mem.share_lock);
	if (!sdaa_block_take(base, &b)) {
		pthread_mutex_unlock(&mem.share_lock);
		return;
	}
	pthread_mutex_unlock(&mem.share_lock);
	/* Its mappings on other cards first, then the object. */
	for (int c = 0; b.imports && c < rt->ncards && c < SDAA_MAX_CARDS; c++)
		if (b.imports[c])
			sdaa_share_close(rt->cards[c].fd, b.imports[c]);
	free(b.imports);
	if (b.has_ipc_fd)
		close(b.ipc_fd);
	sdaa_share_close(rt->cards[p->card].fd, b.handle);
	sdaa_va_free(base);
}

static const struct sdaa_suballoc_ops pool_ops = { pool_grow, pool_shrink };

/* Device addresses for a block of @len bytes, from the process-wide range. */
int sdaa_va_alloc(uint64_t len, uint64_t *va)
{
	int ret = 0;

	pthread_mutex_lock(&mem.lock);
	if (!mem.va_ready) {
		ret = sdaa_suballoc_init(&mem.va, &va_ops, &va_given,
					 SDAA_VA_END - SDAA_VA_START, SDAA_VA_ALIGN);
		mem.va_ready = !ret;
	}
	pthread_mutex_unlock(&mem.lock);
	return ret ? ret : sdaa_suballoc_alloc(&mem.va, len, va);
}

void sdaa_va_free(uint64_t va)
{
	sdaa_suballoc_free(&mem.va, va);
}

/* The pool of region @region of card @card, made on first use. */
static struct pool *pool_get(int card, uint32_t region, sdaaError_t *err)
{
	const struct sdaa_card *c = &sdaa_runtime()->cards[card];
	struct pool *p;

	if (card >= SDAA_MAX_CARDS || !(c->q.capabilities & DRM_SWAI_CAP_MEMORY)) {
		*err = sdaaErrorInitializationError;
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_MEM, "card %d has no device memory support", c->minor);
		return NULL;
	}
	p = &mem.pools[card][region];
	/* Every sdaaMalloc passes here: only the first one for a pool locks. */
	if (__atomic_load_n(&p->ready, __ATOMIC_ACQUIRE))
		return p;
	pthread_mutex_lock(&mem.lock);
	if (!p->ready) {
		p->card = card;
		p->region = region;
		if (sdaa_suballoc_init(&p->sa, &pool_ops, p, BLOCK, ALIGN))
			goto oom;
		__atomic_store_n(&p->ready, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mem.lock);
	return p;
oom:
	pthread_mutex_unlock(&mem.lock);
	*err = sdaaErrorHostMemoryAllocation;
	return NULL;
}

/* The pool of the current device for a region kind; NULL with *err set. */
static struct pool *current_pool(int cross, sdaaError_t *err)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	const struct sdaa_device *d;
	int dev;

	*err = rt->init_error;
	if (*err)
		return NULL;
	sdaaGetDevice(&dev);
	d = &rt->devices[dev];
	/* A card that failed a job of ours takes no more work, allocations included. */
	*err = sdaa_card_sticky((int)(d->card - rt->cards));
	if (*err)
		return NULL;
	return pool_get((int)(d->card - rt->cards),
			cross ? DRM_SWAI_MEM_GLOBAL : DRM_SWAI_MEM_LOCAL(d->cg), err);
}

sdaaError_t sdaa_mem_alloc(int card, uint32_t region, uint64_t size, uint64_t *va)
{
	sdaaError_t err = sdaaSuccess;
	struct pool *p = pool_get(card, region, &err);

	if (!p)
		return err;
	return sdaa_suballoc_alloc(&p->sa, size, va) ? sdaaErrorMemoryAllocation : sdaaSuccess;
}

void sdaa_mem_free(uint64_t va)
{
	struct sdaa_block b;

	if (sdaa_block_find(va, &b) && b.region < DRM_SWAI_MEM_HOST)
		sdaa_suballoc_free(&mem.pools[b.card][b.region].sa, va);
}

static sdaaError_t malloc_tier(void **ptr, size_t size, int cross)
{
	sdaaError_t err;
	struct pool *p;
	uint64_t va;
	int ret;

	if (!ptr)
		return sdaa_error(sdaaErrorInvalidValue);
	*ptr = NULL;
	p = current_pool(cross, &err);
	if (!p)
		return sdaa_error(err);
	if (!size)
		return sdaaSuccess;
	ret = sdaa_suballoc_alloc(&p->sa, size, &va);
	if (ret == -ENOSPC || ret == -ENOMEM || ret == -EINVAL)
		return sdaa_error(cross ? sdaaErrorCrossMemoryAllocation :
					  sdaaErrorMemoryAllocation);
	if (ret)
		return sdaa_error(sdaaErrorUnknown);
	*ptr = (void *)(uintptr_t)va;
	return sdaaSuccess;
}

static sdaaError_t free_tier(void *ptr, int cross)
{
	uint64_t va = (uintptr_t)ptr;
	struct sdaa_block b;

	if (!ptr)
		return sdaaSuccess;
	if (!sdaa_block_find(va, &b))
		return sdaa_error(sdaaErrorInvalidDevicePointer);
	if (b.region == DRM_SWAI_MEM_IMPORT) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_MEM, "%p is another process's memory: "
			 "close it with sdaaIpcCloseMemHandle", ptr);
		return sdaa_error(sdaaErrorInvalidDevicePointer);
	}
	if (b.region == DRM_SWAI_MEM_HOST ||
	    (b.region == DRM_SWAI_MEM_GLOBAL) != cross)
		return sdaa_error(sdaaErrorWrongMemoryTier);
	if (sdaa_suballoc_free(&mem.pools[b.card][b.region].sa, va))
		return sdaa_error(sdaaErrorInvalidDevicePointer);
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaMalloc(void **devPtr, size_t size)
{
	return malloc_tier(devPtr, size, 0);
}

SDAA_API sdaaError_t sdaaMallocCross(void **devPtr, size_t size)
{
	return malloc_tier(devPtr, size, 1);
}

SDAA_API sdaaError_t sdaaFree(void *devPtr)
{
	return free_tier(devPtr, 0);
}

SDAA_API sdaaError_t sdaaFreeCross(void *devPtr)
{
	return free_tier(devPtr, 1);
}

static sdaaError_t mem_get_info(size_t *free, size_t *total, int cross)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct drm_swai_mem_info mi = { 0 };
	const struct sdaa_device *d;
	uint32_t region;
	int dev;

	if (!free || !total)
		return sdaa_error(sdaaErrorInvalidValue);
	if (rt->init_error)
		return sdaa_error(rt->init_error);
	sdaaGetDevice(&dev);
	d = &rt->devices[dev];
	if (sdaa_card_sticky((int)(d->card - rt->cards)))
		return sdaa_error(sdaa_card_sticky((int)(d->card - rt->cards)));
	if (drmIoctl(d->card->fd, DRM_IOCTL_SWAI_MEM_INFO, &mi))
		return sdaa_error(errno == ENODEV ? sdaaErrorDeviceUnavailable :
				  sdaaErrorInitializationError);
	region = cross ? DRM_SWAI_MEM_GLOBAL : DRM_SWAI_MEM_LOCAL(d->cg);
	*total = mi.region[region].capacity;
	*free = mi.region[region].capacity - mi.region[region].used;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaMemGetInfo(size_t *free, size_t *total)
{
	return mem_get_info(free, total, 0);
}

SDAA_API sdaaError_t sdaaMemGetInfoCross(size_t *free, size_t *total)
{
	return mem_get_info(free, total, 1);
}

void sdaa_memory_fini(void)
{
	for (int c = 0; c < SDAA_MAX_CARDS; c++)
		for (int r = 0; r < DRM_SWAI_MEM_REGIONS; r++)
			if (mem.pools[c][r].ready)
				sdaa_suballoc_fini(&mem.pools[c][r].sa);
	if (mem.va_ready)
		sdaa_suballoc_fini(&mem.va);
	/* What the pools left: IPC imports, and their own bookkeeping. */
	for (size_t i = 0; i < mem.nblocks; i++) {
		free(mem.blocks[i].imports);
		if (mem.blocks[i].has_ipc_fd)
			close(mem.blocks[i].ipc_fd);
	}
	free(mem.blocks);
}
