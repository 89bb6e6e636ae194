// SPDX-License-Identifier: MIT
/*
 * sdaa_ipc.c - device memory shared between processes, as CUDA's IPC
 * calls: sdaaIpcGetMemHandle, sdaaIpcOpenMemHandle, sdaaIpcCloseMemHandle.
 *
 * The memory travels as a dma-buf (swai.ko 1.4): the exporting process
 * exports the block holding the allocation once and keeps the dma-buf open
 * while the block lives; the handle names that file descriptor, its process
 * and where the allocation is in the block.  The opening process takes a
 * duplicate of the descriptor with pidfd_getfd(2) -- which the kernel
 * allows only to a process that may ptrace the exporter (same user, and
 * Yama's ptrace_scope 0, or 1 when the exporter named the opener with
 * prctl(PR_SET_PTRACER)) -- and imports it on its current device's card, at
 * an address of its own, on the same card or on another of the fabric.  So
 * the handle is 64 bytes that can travel any way, as CUDA's, and the
 * dma-buf is the capability behind it: a process reaches only memory whose
 * handle it was given, and only if the exporter's credentials let it.
 *
 * Granularity: the block (2 MiB, or the allocation if larger) -- other
 * allocations of the exporter in the same block are mapped too, as with
 * CUDA under a caching allocator.  Give IPC buffers blocks of their own by
 * allocating them at least 2 MiB large.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sdaa_exec.h"
#include "sdaa_memory.h"
#include "sdaa_share.h"

#define IPC_MAGIC	0x43504953u	/* "SIPC" */
#define IPC_VERSION	1

/* What the 64 bytes of a handle hold. */
struct ipc_wire {
	uint32_t magic;
	uint16_t version;
	uint16_t pad;
	int32_t pid;		/* the exporting process */
	int32_t fd;		/* its dma-buf there */
	uint64_t block_len;
	uint64_t offset;	/* of the allocation in the block */
	uint32_t fabric_tag;	/* where the memory is */
	uint32_t fabric_id;
	uint32_t card_minor;
	uint32_t rsvd[5];
};
_Static_assert(sizeof(struct ipc_wire) == SDAA_IPC_HANDLE_SIZE, "one handle, 64 bytes");

SDAA_API sdaaError_t sdaaIpcGetMemHandle(sdaaIpcMemHandle_t *handle, void *devPtr)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct ipc_wire w = { .magic = IPC_MAGIC, .version = IPC_VERSION };
	struct sdaa_block b;
	sdaaError_t err;
	int fd;

	if (!handle || !devPtr)
		return sdaa_error(sdaaErrorInvalidValue);
	if (rt->init_error)
		return sdaa_error(rt->init_error);
	err = sdaa_mem_ipc_fd((uintptr_t)devPtr, &b, &fd);
	if (err)
		return sdaa_error(err);
	w.pid = (int32_t)getpid();
	w.fd = fd;
	w.block_len = b.len;
	w.offset = (uintptr_t)devPtr - b.va;
	w.fabric_tag = rt->cards[b.card].q.fabric_tag;
	w.fabric_id = rt->cards[b.card].q.fabric_id;
	w.card_minor = (uint32_t)rt->cards[b.card].minor;
	memset(handle, 0, sizeof(*handle));
	memcpy(handle->reserved, &w, sizeof(w));
	return sdaaSuccess;
}

/* The exporter's dma-buf, duplicated into this process; -1 with *err set. */
static int take_fd(const struct ipc_wire *w, sdaaError_t *err)
{
	int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)w->pid, 0), fd, e;

	*err = sdaaErrorInvalidResourceHandle;
	if (pidfd < 0) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_MEM, "IPC handle: the exporting process %d "
			 "is gone (%s): a handle is valid while its exporter lives",
			 w->pid, strerror(errno));
		return -1;
	}
	fd = (int)syscall(SYS_pidfd_getfd, pidfd, w->fd, 0);
	e = errno;
	close(pidfd);
	if (fd >= 0)
		return fd;
	if (e == EPERM)
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_MEM, "IPC handle: may not take process %d's "
			 "buffer (pidfd_getfd: %s): the two processes must run as one user, "
			 "and with kernel.yama.ptrace_scope 1 the exporter must allow the "
			 "opener (prctl(PR_SET_PTRACER, pid))", w->pid, strerror(e));
	else
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_MEM, "IPC handle: process %d has no such "
			 "buffer (pidfd_getfd: %s): the allocation was freed", w->pid,
			 strerror(e));
	return -1;
}

SDAA_API sdaaError_t sdaaIpcOpenMemHandle(void **devPtr, sdaaIpcMemHandle_t handle,
					  unsigned int flags)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct drm_swai_bo_import imp;
	struct ipc_wire w;
	struct sdaa_block b;
	sdaaError_t err;
	int dev, card, fd, ret;
	uint64_t va;

	if (!devPtr || flags & ~sdaaIpcMemLazyEnablePeerAccess)
		return sdaa_error(sdaaErrorInvalidValue);
	*devPtr = NULL;
	if (rt->init_error)
		return sdaa_error(rt->init_error);
	memcpy(&w, handle.reserved, sizeof(w));
	if (w.magic != IPC_MAGIC || w.version != IPC_VERSION || !w.block_len ||
	    w.offset >= w.block_len)
		return sdaa_error(sdaaErrorInvalidResourceHandle);
	if (w.pid == (int32_t)getpid())
		return sdaa_error(sdaaErrorInvalidValue);	/* as CUDA: not in its exporter */
	sdaaGetDevice(&dev);
	card = (int)(rt->devices[dev].card - rt->cards);
	err = sdaa_card_sticky(card);
	if (err)
		return sdaa_error(err);
	fd = take_fd(&w, &err);
	if (fd < 0)
		return sdaa_error(err);
	if (sdaa_va_alloc(w.block_len, &va)) {
		close(fd);
		return sdaa_error(sdaaErrorMemoryAllocation);
	}
	ret = sdaa_share_import(rt->cards[card].fd, fd, va, &imp);
	close(fd);	/* the import holds the dma-buf */
	if (ret) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_MEM, "IPC handle of process %d (card %u) on "
			 "card %d: %s%s", w.pid, w.card_minor, rt->cards[card].minor,
			 strerror(-ret), ret == -EXDEV ? ": the cards are not on one fabric" : "");
		sdaa_va_free(va);
		return sdaa_error(ret == -EXDEV || ret == -EOPNOTSUPP ?
				  sdaaErrorPeerAccessUnsupported : sdaaErrorMemoryAllocation);
	}
	b = (struct sdaa_block){
		.va = va, .len = imp.size, .handle = imp.handle, .card = card,
		.region = DRM_SWAI_MEM_IMPORT,
		.src_region = DRM_SWAI_IMPORT_PLACEMENT(imp.result),
		.fabric = !!(imp.result & DRM_SWAI_IMPORT_FABRIC),
	};
	if (sdaa_block_insert(&b)) {
		sdaa_share_close(rt->cards[card].fd, imp.handle);
		sdaa_va_free(va);
		return sdaa_error(sdaaErrorHostMemoryAllocation);
	}
	*devPtr = (void *)(uintptr_t)(va + w.offset);
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaIpcCloseMemHandle(void *devPtr)
{
	const struct sdaa_runtime *rt = sdaa_runtime();
	struct sdaa_block b;

	if (!devPtr)
		return sdaa_error(sdaaErrorInvalidValue);
	if (!sdaa_block_find((uintptr_t)devPtr, &b) || b.region != DRM_SWAI_MEM_IMPORT ||
	    !sdaa_block_take(b.va, &b))
		return sdaa_error(sdaaErrorInvalidDevicePointer);
	sdaa_share_close(rt->cards[b.card].fd, b.handle);
	sdaa_va_free(b.va);
	return sdaaSuccess;
}
