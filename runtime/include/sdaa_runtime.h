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
	/* Host memory for the runtime's own bookkeeping ran out. */
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

#ifdef __cplusplus
}
#endif

#endif /* SDAA_RUNTIME_H */
