/* SPDX-License-Identifier: MIT */
/*
 * sdaa_runtime.h - libsdaa, the CUDA-style runtime of the SW-AI card.
 *
 * Devices: every core group (CG) of every SW-AI card is one logical device,
 * so a card gives four.  Devices are numbered card by card (card order is the
 * /dev/accel minor order), CG by CG; SDAA_VISIBLE_DEVICES (a comma-separated
 * list of those numbers) selects and reorders them.  The current device is
 * per thread, 0 until sdaaSetDevice() changes it.
 *
 * Errors: every call returns an sdaaError_t.  A failing call also records
 * its error as the calling thread's last error, which sdaaGetLastError()
 * returns and resets and sdaaPeekAtLastError() returns without resetting.
 * The library prints nothing unless SDAA_LOG_LEVEL (error, warn, info,
 * debug, or 1..4) asks it to, on stderr.
 */
#ifndef SDAA_RUNTIME_H
#define SDAA_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runtime version: 1000 * major + 10 * minor. */
#define SDAA_VERSION 10

/**
 * enum sdaaError - result of every libsdaa call.  Each failure mode a user
 * can act on has its own code; sdaaGetErrorString() says what to do next.
 */
typedef enum sdaaError {
	sdaaSuccess = 0,
	/* A parameter is out of range or NULL where it must not be. */
	sdaaErrorInvalidValue = 1,
	/* Out of Local-HBM on the current core group (sdaaMalloc). */
	sdaaErrorMemoryAllocation = 2,
	/* The runtime could not initialise for a reason not listed below. */
	sdaaErrorInitializationError = 3,
	/* The swai kernel module is not loaded. */
	sdaaErrorDriverNotLoaded = 35,
	/* The loaded swai driver speaks another uAPI major version. */
	sdaaErrorInsufficientDriver = 36,
	/* /dev/accel/accelN exists but this user may not open it. */
	sdaaErrorNoPermission = 37,
	/* The driver is loaded but no SW-AI card (or none visible). */
	sdaaErrorNoDevice = 100,
	/* A device number outside 0 .. sdaaGetDeviceCount() - 1. */
	sdaaErrorInvalidDevice = 101,
	/* Not the start of a live allocation (wrong pointer, double free). */
	sdaaErrorInvalidDevicePointer = 17,
	/* Out of Global-HBM on the current card (sdaaMallocCross). */
	sdaaErrorCrossMemoryAllocation = 60,
	/* Freed with the call of the other tier (sdaaFree vs sdaaFreeCross). */
	sdaaErrorWrongMemoryTier = 61,
	/* Host memory ran out (sdaaMallocHost, or the runtime's own). */
	sdaaErrorHostMemoryAllocation = 62,
	/* Pinning host memory would exceed RLIMIT_MEMLOCK. */
	sdaaErrorMemlockLimit = 63,
	/* Not a pointer sdaaMallocHost returned (or already freed). */
	sdaaErrorInvalidHostPointer = 64,
	/* The card stopped answering (unplugged, driver unbound). */
	sdaaErrorDeviceUnavailable = 46,
	/* Anything else; the log (SDAA_LOG_LEVEL=debug) says more. */
	sdaaErrorUnknown = 999,
} sdaaError_t;

/**
 * struct sdaaDeviceProp - what one logical device (a core group) is.
 */
struct sdaaDeviceProp {
	char name[64];			/* "SW-AI card 0 CG 2" */
	int card;			/* accel minor of the card */
	int coreGroup;			/* 0 .. coreGroupsPerCard - 1 */
	int coreGroupsPerCard;		/* core groups on the card */
	int cpeCount;			/* compute cores in this core group */
	size_t ldmPerCpe;		/* bytes of LDM (tier L0) per CPE */
	size_t totalLocalMem;		/* bytes of this CG's Local-HBM (L1) */
	size_t totalGlobalMem;		/* bytes of the card's Global-HBM (L2) */
	size_t hbmPerCoreGroup;		/* bytes on this CG's HBM controller */
	size_t globalGranule;		/* Global-HBM interleave granule */
	int pciDomainID;
	int pciBusID;
	int pciDeviceID;
	int pciFunctionID;
	int major;			/* card hardware version */
	int minor;
	unsigned long long capabilities;	/* DRM_SWAI_CAP_* of the card */
};

/* The tier a pointer lives in (sdaaPointerGetAttributes). */
enum sdaaMemoryType {
	sdaaMemoryTypeUnregistered = 0,	/* not from libsdaa */
	sdaaMemoryTypeLocal = 1,	/* Local-HBM of one core group (L1) */
	sdaaMemoryTypeCross = 2,	/* Global-HBM of a card (L2) */
	sdaaMemoryTypeHost = 3,		/* pinned host memory (sdaaMallocHost) */
};

struct sdaaPointerAttributes {
	enum sdaaMemoryType type;
	int device;		/* Local: its device; Cross: the card's first */
	int card;		/* accel minor of the card; -1 for host, unregistered */
	int coreGroup;		/* Local: its core group; else -1 */
	void *devicePointer;	/* the device address (for host memory: its mapping) */
	void *hostPointer;	/* host memory: the host address; else NULL */
};

const char *sdaaGetErrorString(sdaaError_t error);
const char *sdaaGetErrorName(sdaaError_t error);
sdaaError_t sdaaGetLastError(void);
sdaaError_t sdaaPeekAtLastError(void);

sdaaError_t sdaaRuntimeGetVersion(int *version);
sdaaError_t sdaaDriverGetVersion(int *version);

sdaaError_t sdaaGetDeviceCount(int *count);
sdaaError_t sdaaSetDevice(int device);
sdaaError_t sdaaGetDevice(int *device);
sdaaError_t sdaaGetDeviceProperties(struct sdaaDeviceProp *prop, int device);

/*
 * Device memory.  Pointers are device virtual addresses, unique across every
 * card the process uses (so any pointer names one allocation), and are not
 * dereferenceable on the host.  Allocations are at least 256-byte aligned.
 * Small requests are carved from 2 MiB blocks the runtime keeps, so most
 * calls make no system call.  sdaaMalloc: Local-HBM of the current device's
 * core group; sdaaMallocCross: Global-HBM of its card, shared by the card's
 * core groups.  Size 0 gives NULL.  Freeing NULL does nothing.
 */
sdaaError_t sdaaMalloc(void **devPtr, size_t size);
sdaaError_t sdaaMallocCross(void **devPtr, size_t size);
sdaaError_t sdaaFree(void *devPtr);
sdaaError_t sdaaFreeCross(void *devPtr);
/* Free and total bytes: Local-HBM of the current device / Global-HBM of its card. */
sdaaError_t sdaaMemGetInfo(size_t *free, size_t *total);
sdaaError_t sdaaMemGetInfoCross(size_t *free, size_t *total);
sdaaError_t sdaaPointerGetAttributes(struct sdaaPointerAttributes *attr,
				     const void *ptr);

/*
 * Pinned host memory on the NUMA node of the current device's card, mapped
 * into every card the process uses at one device address
 * (sdaaHostGetDevicePointer; flags must be 0).  Counts against
 * RLIMIT_MEMLOCK (ulimit -l) unless the process has CAP_IPC_LOCK.
 */
sdaaError_t sdaaMallocHost(void **ptr, size_t size);
sdaaError_t sdaaFreeHost(void *ptr);
sdaaError_t sdaaHostGetDevicePointer(void **devPtr, void *hostPtr, unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* SDAA_RUNTIME_H */
