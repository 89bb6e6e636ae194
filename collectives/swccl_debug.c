// SPDX-License-Identifier: MIT
/*
 * swccl_debug.c - logging, as NCCL_DEBUG / NCCL_DEBUG_SUBSYS: SWCCL_DEBUG
 * picks the level (WARN, INFO, TRACE; default none), SWCCL_DEBUG_SUBSYS the
 * subsystems (INIT, COLL, PLAN, LAUNCH, FUSED or ALL; a leading ^ excludes
 * the list instead), on stderr; and the per-communicator last-error text.
 * Jobs are named the way libsdaa, the driver and the card name them: libswccl
 * logs which rank's core group launches what, libsdaa the job id it got.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "swai-mask.h"
#include "swccl_comm.h"

static const char *const subsys_name[] = { "INIT", "COLL", "PLAN", "LAUNCH", "FUSED" };

unsigned int swccl_subsys_parse(const char *s)
{
	return swai_mask_parse(s, subsys_name, sizeof(subsys_name) / sizeof(subsys_name[0]),
			       SWCCL_SUBSYS_ALL);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int log_level;
static unsigned int log_mask;

static void log_init(void)
{
	const char *e = swccl_param(SWCCL_PARAM_DEBUG);

	if (!*e)
		log_level = SWCCL_LOG_NONE;
	else if (!strcasecmp(e, "WARN"))
		log_level = SWCCL_LOG_WARN;
	else if (!strcasecmp(e, "INFO"))
		log_level = SWCCL_LOG_INFO;
	else if (!strcasecmp(e, "TRACE"))
		log_level = SWCCL_LOG_TRACE;
	else
		log_level = SWCCL_LOG_WARN;
	log_mask = swccl_subsys_parse(swccl_param(SWCCL_PARAM_DEBUG_SUBSYS));
}

bool swccl_log_on(int lvl, unsigned int subsys)
{
	pthread_once(&once, log_init);
	if (lvl > log_level)
		return false;
	/* Warnings always: they say why a call failed. */
	return lvl == SWCCL_LOG_WARN || (log_mask & subsys);
}

void swccl_log(int lvl, unsigned int subsys, const char *fmt, ...)
{
	static const char *const tag[] = { "", "WARN", "INFO", "TRACE" };
	char line[1024];
	va_list ap;
	int i = 0;

	if (!swccl_log_on(lvl, subsys))
		return;
	while (i < 4 && !(subsys & (1u << i)))
		i++;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One write per line, so lines of several threads do not interleave. */
	fprintf(stderr, "swccl %s %s %s\n", tag[lvl], subsys_name[i], line);
}

/* A failure with no communicator yet (swcclCommInitRank): the thread's. */
static __thread char thread_err[512];

swcclResult_t swccl_fail(swcclComm_t comm, swcclResult_t r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(comm ? comm->lasterr : thread_err, sizeof(thread_err), "%s", msg);
	swccl_log(SWCCL_LOG_WARN, SWCCL_COLL, "%s: %s", swcclGetErrorString(r), msg);
	return r;
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
	return comm ? comm->lasterr : thread_err;
}

SWCCL_EXPORT swcclResult_t swcclGetVersion(int *version)
{
	if (!version)
		return swcclInvalidArgument;
	*version = SWCCL_VERSION;
	return swcclSuccess;
}
