// SPDX-License-Identifier: MIT
/*
 * swccl_param.c - every environment variable libswccl reads, in one table,
 * each read once, at its first use (as NCCL_PARAM): a setting does not
 * change under a running program.  Documentation/collectives.md lists them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_comm.h"

static const struct {
	const char *name, *def;
} params[SWCCL_NPARAMS] = {
	[SWCCL_PARAM_ALGO] = { "SWCCL_ALGO", "AUTO" },
	[SWCCL_PARAM_DEBUG] = { "SWCCL_DEBUG", "" },
	[SWCCL_PARAM_DEBUG_SUBSYS] = { "SWCCL_DEBUG_SUBSYS", "ALL" },
	[SWCCL_PARAM_TIMEOUT] = { "SWCCL_TIMEOUT", "30" },
	[SWCCL_PARAM_PEER] = { "SWCCL_PEER", "1" },
	[SWCCL_PARAM_FUSION] = { "SWCCL_FUSION", "1" },
	[SWCCL_PARAM_CSC1_CHUNKS] = { "SWCCL_CSC1_CHUNKS", "0" },
	[SWCCL_PARAM_PLAN_CACHE] = { "SWCCL_PLAN_CACHE", "64" },
	[SWCCL_PARAM_TOPO] = { "SWCCL_TOPO", "mesh8" },
	[SWCCL_PARAM_COMM_ID] = { "SWCCL_COMM_ID", "" },
	[SWCCL_PARAM_SOCKET_IFNAME] = { "SWCCL_SOCKET_IFNAME", "" },
	[SWCCL_PARAM_SCHED_FILE] = { "SWCCL_SCHED_FILE", "" },
	[SWCCL_PARAM_NIC_BRANCH] = { "SWCCL_NIC_BRANCH", "4" },
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static const char *value[SWCCL_NPARAMS];	/* set once, then read-only */

const char *swccl_param(enum swccl_param p)
{
	const char *v = __atomic_load_n(&value[p], __ATOMIC_ACQUIRE);

	if (v)
		return v;
	pthread_mutex_lock(&mu);
	if (!value[p]) {
		const char *e = getenv(params[p].name);
		char *copy = e && *e ? strdup(e) : NULL;

		/* An empty variable is an unset one; a copy outlives setenv(). */
		__atomic_store_n(&value[p], copy ? copy : params[p].def, __ATOMIC_RELEASE);
	}
	v = value[p];
	pthread_mutex_unlock(&mu);
	return v;
}

long swccl_param_long(enum swccl_param p)
{
	return strtol(swccl_param(p), NULL, 0);
}

double swccl_param_double(enum swccl_param p)
{
	return strtod(swccl_param(p), NULL);
}

/* SWCCL_TIMEOUT in seconds: what every wait of libswccl is bounded by. */
double swccl_timeout_s(void)
{
	double t = swccl_param_double(SWCCL_PARAM_TIMEOUT);

	return t > 0 ? t : 30;
}
