// SPDX-License-Identifier: MIT
/*
 * swccl_debug.c - SWCCL_DEBUG logging (WARN, INFO, TRACE; default none, on
 * stderr, as NCCL_DEBUG) and the per-communicator last-error text.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "swccl_internal.h"

int swccl_log_level(void)
{
	static int level = -1;
	const char *e;

	if (level >= 0)
		return level;
	e = getenv("SWCCL_DEBUG");
	if (!e || !*e)
		level = SWCCL_LOG_NONE;
	else if (!strcasecmp(e, "WARN"))
		level = SWCCL_LOG_WARN;
	else if (!strcasecmp(e, "INFO"))
		level = SWCCL_LOG_INFO;
	else if (!strcasecmp(e, "TRACE"))
		level = SWCCL_LOG_TRACE;
	else
		level = SWCCL_LOG_WARN;
	return level;
}

void swccl_log(int level, const char *fmt, ...)
{
	static const char *const tag[] = { "", "WARN", "INFO", "TRACE" };
	char line[1024];
	va_list ap;

	if (level > swccl_log_level())
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "swccl %s %s\n", tag[level], line);
}

/* Record the failure of @comm's call; log it at WARN. */
swcclResult_t swccl_fail(swcclComm_t comm, swcclResult_t r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (comm)
		snprintf(comm->lasterr, sizeof(comm->lasterr), "%s", msg);
	swccl_log(SWCCL_LOG_WARN, "%s: %s", swcclGetErrorString(r), msg);
	return r;
}

const char *swccl_coll_name(enum swccl_coll coll)
{
	static const char *const n[] = { "AllGather", "ReduceScatter", "AllReduce",
					 "Broadcast", "Reduce", "LayerNormAllGatherGemm",
					 "GemmReduceScatterDropout" };

	return (unsigned)coll < SWCCL_NCALLS ? n[coll] : "?";
}

SWCCL_EXPORT const char *swcclGetErrorString(swcclResult_t r)
{
	switch (r) {
	case swcclSuccess: return "no error";
	case swcclUnhandledSdaaError: return "unhandled libsdaa error (see swcclGetLastError)";
	case swcclSystemError: return "system error (host memory or threads)";
	case swcclInternalError: return "internal error (a libswccl bug)";
	case swcclInvalidArgument: return "invalid argument";
	case swcclInvalidUsage: return "invalid usage";
	case swcclRemoteError: return "remote error: another rank failed or aborted";
	case swcclInProgress: return "operation in progress";
	case swcclTimeout: return "timeout: a collective did not finish within SWCCL_TIMEOUT";
	default: return "unknown result code";
	}
}

SWCCL_EXPORT const char *swcclGetLastError(swcclComm_t comm)
{
	static const char none[] = "";

	return comm ? comm->lasterr : none;
}

SWCCL_EXPORT swcclResult_t swcclGetVersion(int *version)
{
	if (!version)
		return swcclInvalidArgument;
	*version = SWCCL_VERSION;
	return swcclSuccess;
}
