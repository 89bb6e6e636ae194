// SPDX-License-Identifier: MIT
/*
 * sdaa_error.c - error names, what-to-do-next strings, and the per-thread
 * last error (CUDA semantics: Get resets it, Peek does not).
 */
#include "sdaa_internal.h"

static _Thread_local sdaaError_t last_error = sdaaSuccess;

static const struct {
	sdaaError_t code;
	const char *name;
	const char *text;
} errors[] = {
	{ sdaaSuccess, "sdaaSuccess", "no error" },
	{ sdaaErrorInvalidValue, "sdaaErrorInvalidValue",
	  "invalid argument: a parameter is out of range or NULL" },
	{ sdaaErrorMemoryAllocation, "sdaaErrorMemoryAllocation",
	  "out of Local-HBM on this core group: free memory, use Global-HBM "
	  "(sdaaMallocCross), or give Local-HBM a larger share of the card" },
	{ sdaaErrorCrossMemoryAllocation, "sdaaErrorCrossMemoryAllocation",
	  "out of Global-HBM on this card: free memory, or give Global-HBM a "
	  "larger share (swai.ko local_mb, DRM_IOCTL_SWAI_SET_PARTITION)" },
	{ sdaaErrorHostMemoryAllocation, "sdaaErrorHostMemoryAllocation",
	  "out of host memory" },
	{ sdaaErrorMemlockLimit, "sdaaErrorMemlockLimit",
	  "pinning host memory would exceed RLIMIT_MEMLOCK: raise it (ulimit -l, "
	  "LimitMEMLOCK= in systemd, memlock in /etc/security/limits.conf)" },
	{ sdaaErrorInvalidHostPointer, "sdaaErrorInvalidHostPointer",
	  "not a pointer sdaaMallocHost returned, or already freed" },
	{ sdaaErrorInvalidDevicePointer, "sdaaErrorInvalidDevicePointer",
	  "not the start of a live allocation (a wrong pointer or a double free)" },
	{ sdaaErrorWrongMemoryTier, "sdaaErrorWrongMemoryTier",
	  "the pointer belongs to another tier: free sdaaMalloc memory with "
	  "sdaaFree, sdaaMallocCross memory with sdaaFreeCross and "
	  "sdaaMallocHost memory with sdaaFreeHost" },
	{ sdaaErrorInitializationError, "sdaaErrorInitializationError",
	  "the runtime could not initialise; run with SDAA_LOG_LEVEL=debug for details" },
	{ sdaaErrorDriverNotLoaded, "sdaaErrorDriverNotLoaded",
	  "the swai kernel module is not loaded: run 'modprobe swai' as root" },
	{ sdaaErrorInsufficientDriver, "sdaaErrorInsufficientDriver",
	  "the loaded swai driver speaks another uAPI version than this runtime: "
	  "install a matching swai.ko and libsdaa" },
	{ sdaaErrorNoPermission, "sdaaErrorNoPermission",
	  "no permission to open /dev/accel/accel*: add the user to the 'render' "
	  "group (udev rule tools/udev/70-swai.rules) or run as root" },
	{ sdaaErrorNoDevice, "sdaaErrorNoDevice",
	  "no SW-AI device found (or SDAA_VISIBLE_DEVICES hides them all)" },
	{ sdaaErrorInvalidDevice, "sdaaErrorInvalidDevice",
	  "invalid device number: use 0 .. sdaaGetDeviceCount() - 1" },
	{ sdaaErrorDeviceUnavailable, "sdaaErrorDeviceUnavailable",
	  "the card stopped answering (unplugged or its driver unbound); "
	  "restart the process once it is back" },
	{ sdaaErrorUnknown, "sdaaErrorUnknown",
	  "unknown error; run with SDAA_LOG_LEVEL=debug for details" },
};

SDAA_API const char *sdaaGetErrorName(sdaaError_t error)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].code == error)
			return errors[i].name;
	return "unrecognized error code";
}

SDAA_API const char *sdaaGetErrorString(sdaaError_t error)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].code == error)
			return errors[i].text;
	return "unrecognized error code";
}

sdaaError_t sdaa_error(sdaaError_t err)
{
	if (err != sdaaSuccess)
		last_error = err;
	return err;
}

SDAA_API sdaaError_t sdaaGetLastError(void)
{
	sdaaError_t err = last_error;

	last_error = sdaaSuccess;
	return err;
}

SDAA_API sdaaError_t sdaaPeekAtLastError(void)
{
	return last_error;
}
