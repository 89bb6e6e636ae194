// SPDX-License-Identifier: MIT
/*
 * sdaa_host.c - pinned host memory: sdaaMallocHost, sdaaFreeHost,
 * sdaaHostGetDevicePointer.
 *
 * The memory comes from libnuma on the NUMA node of the current device's
 * card (where its PCIe link is), then every card the process uses pins and
 * maps it (DRM_IOCTL_SWAI_BO_USERPTR) at one device address from the
 * process-wide range, so the same device pointer works on every card, as
 * CUDA's portable pinned memory does.  Pinning counts against
 * RLIMIT_MEMLOCK; running into it is sdaaErrorMemlockLimit.
 */
#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <xf86drm.h>

#include "sdaa_exec.h"
#include "sdaa_memory.h"

/* One pinned buffer: its host range, device address and per-card handles. */
struct host_buf {
	uintptr_t host;
	size_t len;
	uint64_t va;
	int internal;			/* the runtime's own (staging, programs) */
	uint32_t handle[SDAA_MAX_CARDS];	/* 0 where not mapped */
};

static struct {
	pthread_mutex_t lock;
	struct host_buf *bufs;		/* unsorted; frees are rare */
	size_t n, cap;
} host = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The NUMA node of @minor's PCI device, -1 if unknown. */
static int card_node(int minor)
{
	char path[96];
	int node = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/numa_node", minor);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &node) != 1)
			node = -1;
		fclose(f);
	}
	return node;
}

/* Unpin @b on every card it is mapped on. */
static void unmap_cards(const struct host_buf *b)
{
	const struct sdaa_runtime *rt = sdaa_runtime();

	for (int c = 0; c < rt->ncards && c < SDAA_MAX_CARDS; c++) {
		struct drm_gem_close cl = { .handle = b->handle[c] };

		if (b->handle[c])
			drmIoctl(rt->cards[c].fd, DRM_IOCTL_GEM_CLOSE, &cl);
	}
}

/* Why pinning failed, as a runtime error. */
static sdaaError_t pin_error(int err)
{
	struct rlimit rl;

	if (err == ENOMEM && !getrlimit(RLIMIT_MEMLOCK, &rl) &&
	    rl.rlim_cur != RLIM_INFINITY) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_MEM, "pinning exceeds RLIMIT_MEMLOCK (%llu bytes)",
			 (unsigned long long)rl.rlim_cur);
		return sdaaErrorMemlockLimit;
	}
	return sdaaErrorHostMemoryAllocation;
}

/*
 * Allocate @size bytes near card @near, pin and map them at one device address
 * on every card (@only < 0) or on card @only, and list the buffer.
 */
static sdaaError_t pin_buffer(size_t size, int near, int only, int internal,
			      void **ptr, uint64_t *va)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct host_buf b = { 0 };
	sdaaError_t err = sdaaSuccess;
	int node;
	void *mem;

	if (rt->init_error)
		return rt->init_error;
	if (!(rt->cards[0].q.capabilities & DRM_SWAI_CAP_USERPTR))
		return sdaaErrorInitializationError;
	if (size > SDAA_VA_END - SDAA_VA_START)
		return sdaaErrorHostMemoryAllocation;
	b.len = (size + page - 1) / page * page;
	b.internal = internal;
	node = card_node(rt->cards[near].minor);
	mem = numa_available() >= 0 && node >= 0 ? numa_alloc_onnode(b.len, node) :
						   numa_alloc_local(b.len);
	if (!mem)
		return sdaaErrorHostMemoryAllocation;
	b.host = (uintptr_t)mem;
	if (sdaa_va_alloc(b.len, &b.va)) {
		numa_free(mem, b.len);
		return sdaaErrorHostMemoryAllocation;
	}
	for (int c = 0; c < rt->ncards && c < SDAA_MAX_CARDS && !err; c++) {
		struct drm_swai_bo_userptr u = {
			.addr = b.host, .size = b.len,
			.flags = DRM_SWAI_BO_FIXED_VA, .device_va = b.va,
		};

		if (only >= 0 && c != only)
			continue;
		if (drmIoctl(rt->cards[c].fd, DRM_IOCTL_SWAI_BO_USERPTR, &u))
			err = pin_error(errno);
		else
			b.handle[c] = u.handle;
	}
	if (!err) {
		struct sdaa_block blk = { .va = b.va, .len = b.len, .card = -1,
					  .region = DRM_SWAI_MEM_HOST };

		pthread_mutex_lock(&host.lock);
		if (host.n == host.cap) {
			size_t cap = host.cap ? 2 * host.cap : 16;
			struct host_buf *nb = realloc(host.bufs, cap * sizeof(*nb));

			if (nb) {
				host.bufs = nb;
				host.cap = cap;
			}
		}
		if (host.n < host.cap && !sdaa_block_insert(&blk))
			host.bufs[host.n++] = b;
		else
			err = sdaaErrorHostMemoryAllocation;
		pthread_mutex_unlock(&host.lock);
	}
	if (err) {
		unmap_cards(&b);
		sdaa_va_free(b.va);
		numa_free(mem, b.len);
		return err;
	}
	*ptr = mem;
	*va = b.va;
	return sdaaSuccess;
}

/* Unlist, unpin and free the buffer at @ptr; 0 if there is none such. */
static int unpin_buffer(void *ptr, int internal)
{
	struct sdaa_block blk;
	struct host_buf b;
	size_t i;

	pthread_mutex_lock(&host.lock);
	for (i = 0; i < host.n && (host.bufs[i].host != (uintptr_t)ptr ||
				   host.bufs[i].internal != internal); i++)
		;
	if (i == host.n) {
		pthread_mutex_unlock(&host.lock);
		return 0;
	}
	b = host.bufs[i];
	host.bufs[i] = host.bufs[--host.n];
	pthread_mutex_unlock(&host.lock);

	sdaa_block_take(b.va, &blk);
	unmap_cards(&b);
	sdaa_va_free(b.va);
	numa_free((void *)b.host, b.len);
	return 1;
}

SDAA_API sdaaError_t sdaaMallocHost(void **ptr, size_t size)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	uint64_t va;
	int dev;

	if (!ptr)
		return sdaa_error(sdaaErrorInvalidValue);
	*ptr = NULL;
	if (rt->init_error)
		return sdaa_error(rt->init_error);
	if (!(rt->cards[0].q.capabilities & DRM_SWAI_CAP_USERPTR))
		return sdaa_error(sdaaErrorInitializationError);
	if (!size)
		return sdaaSuccess;
	sdaaGetDevice(&dev);
	return sdaa_error(pin_buffer(size, (int)(rt->devices[dev].card - rt->cards), -1, 0,
				     ptr, &va));
}

SDAA_API sdaaError_t sdaaFreeHost(void *ptr)
{
	if (!ptr)
		return sdaaSuccess;
	return unpin_buffer(ptr, 0) ? sdaaSuccess : sdaa_error(sdaaErrorInvalidHostPointer);
}

sdaaError_t sdaa_host_pin(size_t size, int near, int only, void **host_ptr, uint64_t *va)
{
	return pin_buffer(size, near, only, 1, host_ptr, va);
}

void sdaa_host_unpin(void *host_ptr)
{
	unpin_buffer(host_ptr, 1);
}

SDAA_API sdaaError_t sdaaHostGetDevicePointer(void **devPtr, void *hostPtr,
					      unsigned int flags)
{
	uint64_t va, avail;

	if (!devPtr || flags)
		return sdaa_error(sdaaErrorInvalidValue);
	*devPtr = NULL;
	if (!sdaa_host_range((uintptr_t)hostPtr, &va, &avail))
		return sdaa_error(sdaaErrorInvalidHostPointer);
	*devPtr = (void *)(uintptr_t)va;
	return sdaaSuccess;
}

int sdaa_host_range(uintptr_t h, uint64_t *va, uint64_t *avail)
{
	int found = 0;

	pthread_mutex_lock(&host.lock);
	for (size_t i = 0; i < host.n && !found; i++) {
		const struct host_buf *b = &host.bufs[i];

		if (!b->internal && h >= b->host && h - b->host < b->len) {
			*va = b->va + (h - b->host);
			*avail = b->len - (h - b->host);
			found = 1;
		}
	}
	pthread_mutex_unlock(&host.lock);
	return found;
}

int sdaa_host_of_va(uint64_t va, void **h, uint64_t *avail)
{
	int found = 0;

	pthread_mutex_lock(&host.lock);
	for (size_t i = 0; i < host.n && !found; i++) {
		const struct host_buf *b = &host.bufs[i];

		if (va >= b->va && va - b->va < b->len) {
			*h = (void *)(b->host + (va - b->va));
			*avail = b->len - (va - b->va);
			found = 1;
		}
	}
	pthread_mutex_unlock(&host.lock);
	return found;
}

/* sdaaPointerGetAttributes' view of host pointers (sdaa_memory.c). */
int sdaa_host_lookup(uintptr_t h, uint64_t *va)
{
	uint64_t avail;

	return sdaa_host_range(h, va, &avail);
}

void sdaa_host_fini(void)
{
	while (host.n)
		unpin_buffer((void *)host.bufs[host.n - 1].host, host.bufs[host.n - 1].internal);
	free(host.bufs);
	host.bufs = NULL;
	host.cap = 0;
}
