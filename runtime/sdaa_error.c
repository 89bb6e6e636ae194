// SPDX-License-Identifier: MIT
/*
 * sdaa_error.c - error names, what-to-do-next strings, the per-thread last
 * error (CUDA semantics: Get resets it, Peek does not; a sticky error is
 * never reset; NotReady and Timeout are answers, not errors, and never
 * recorded), and the errors of failed jobs.
 */
#include "sdaa_exec.h"

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
	{ sdaaErrorInvalidMemcpyDirection, "sdaaErrorInvalidMemcpyDirection",
	  "the copy kind does not match where the pointers live (host or device); "
	  "sdaaMemcpyDefault infers it" },
	{ sdaaErrorInvalidResourceHandle, "sdaaErrorInvalidResourceHandle",
	  "not a live stream or event (never created or already destroyed), an "
	  "event of another card, or an event ElapsedTime cannot use (not "
	  "recorded, or created with sdaaEventDisableTiming)" },
	{ sdaaErrorNotReady, "sdaaErrorNotReady",
	  "the work is not finished yet (not an error): query again or synchronize" },
	{ sdaaErrorTimeout, "sdaaErrorTimeout",
	  "the wait timed out before the work finished; the work goes on" },
	{ sdaaErrorPeerAccessUnsupported, "sdaaErrorPeerAccessUnsupported",
	  "peer access is only possible between two core groups of one card, "
	  "with a driver and card that support it (DRM_SWAI_CAP_PEER); copies "
	  "between the devices still work through Global-HBM" },
	{ sdaaErrorPeerAccessAlreadyEnabled, "sdaaErrorPeerAccessAlreadyEnabled",
	  "peer access from the current device to that peer is already enabled" },
	{ sdaaErrorPeerAccessNotEnabled, "sdaaErrorPeerAccessNotEnabled",
	  "peer access from the current device to that peer was not enabled: "
	  "call sdaaDeviceEnablePeerAccess first" },
	{ sdaaErrorNotSupported, "sdaaErrorNotSupported",
	  "this card or driver cannot do this (jobs need DRM_SWAI_CAP_SUBMIT; "
	  "sdaaGemm, sdaaLayerNorm, sdaaDropout, sdaaConvert and "
	  "sdaaDeviceGetKernelLimits need DRM_SWAI_CAP_COMPUTE): update swai.ko "
	  "and the card" },
	{ sdaaErrorIllegalAddress, "sdaaErrorIllegalAddress",
	  "a job accessed a device address its process has not mapped (MMU "
	  "fault); the card refuses further work of this process: restart it" },
	{ sdaaErrorLaunchTimeout, "sdaaErrorLaunchTimeout",
	  "a job ran longer than the driver's job timeout (a hung program, e.g. "
	  "a WAIT or BARRIER never satisfied) and its queue was reset; the card "
	  "refuses further work of this process: restart it" },
	{ sdaaErrorIllegalInstruction, "sdaaErrorIllegalInstruction",
	  "a job's program has an illegal instruction (unknown op, bad flags, "
	  "dtype or operator, or a non-zero unused field); the card refuses "
	  "further work of this process: restart it" },
	{ sdaaErrorMisalignedAddress, "sdaaErrorMisalignedAddress",
	  "a job used a misaligned operand (semaphores need 8 bytes, REDUCE its "
	  "element size); the card refuses further work of this process: restart it" },
	{ sdaaErrorLaunchFailure, "sdaaErrorLaunchFailure",
	  "a job of this process failed on the card; the card refuses further "
	  "work of this process: restart it" },
	{ sdaaErrorLdmOverrun, "sdaaErrorLdmOverrun",
	  "a job addressed LDM beyond the core group's LDM (cpes x ldm_size "
	  "bytes); the card refuses further work of this process: restart it" },
	{ sdaaErrorForeignLocalAccess, "sdaaErrorForeignLocalAccess",
	  "a job touched the Local-HBM of another core group, which the card "
	  "forbids (copy through Global-HBM); the card refuses further work of "
	  "this process: restart it" },
	{ sdaaErrorDmaFailure, "sdaaErrorDmaFailure",
	  "a transfer of a job failed on the bus; the card refuses further work "
	  "of this process: restart it" },
	{ sdaaErrorInvalidProgram, "sdaaErrorInvalidProgram",
	  "the card could not fetch a job's program (bad size or address); the "
	  "card refuses further work of this process: restart it" },
	{ sdaaErrorDeviceReset, "sdaaErrorDeviceReset",
	  "a job was lost when its queue was reset to recover another process's "
	  "hung job; its results are missing, submit it again" },
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
	if (err != sdaaSuccess && err != sdaaErrorNotReady && err != sdaaErrorTimeout &&
	    !sdaa_error_is_sticky(last_error))
		last_error = err;
	return err;
}

SDAA_API sdaaError_t sdaaGetLastError(void)
{
	sdaaError_t err = last_error;

	if (!sdaa_error_is_sticky(err))
		last_error = sdaaSuccess;
	return err;
}

int sdaa_error_is_sticky(sdaaError_t err)
{
	switch (err) {
	case sdaaErrorIllegalAddress:
	case sdaaErrorLaunchTimeout:
	case sdaaErrorIllegalInstruction:
	case sdaaErrorMisalignedAddress:
	case sdaaErrorLaunchFailure:
	case sdaaErrorLdmOverrun:
	case sdaaErrorForeignLocalAccess:
	case sdaaErrorDmaFailure:
	case sdaaErrorInvalidProgram:
		return 1;
	default:
		return 0;
	}
}

sdaaError_t sdaa_job_error(uint32_t code)
{
	switch (code) {
	case DRM_SWAI_JOB_OK:
		return sdaaSuccess;
	case DRM_SWAI_JOB_ERR_ILLEGAL:
		return sdaaErrorIllegalInstruction;
	case DRM_SWAI_JOB_ERR_LDM:
		return sdaaErrorLdmOverrun;
	case DRM_SWAI_JOB_ERR_MMU:
		return sdaaErrorIllegalAddress;
	case DRM_SWAI_JOB_ERR_RESET:
		return sdaaErrorDeviceReset;
	case DRM_SWAI_JOB_ERR_PROGRAM:
		return sdaaErrorInvalidProgram;
	case DRM_SWAI_JOB_ERR_DMA:
		return sdaaErrorDmaFailure;
	case DRM_SWAI_JOB_ERR_ALIGN:
		return sdaaErrorMisalignedAddress;
	case DRM_SWAI_JOB_ERR_FOREIGN:
		return sdaaErrorForeignLocalAccess;
	case DRM_SWAI_JOB_ERR_TIMEOUT:
		return sdaaErrorLaunchTimeout;
	default:	/* CANCELED, or a code newer than this runtime */
		return sdaaErrorLaunchFailure;
	}
}

SDAA_API sdaaError_t sdaaPeekAtLastError(void)
{
	return last_error;
}
