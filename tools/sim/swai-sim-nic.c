// SPDX-License-Identifier: MIT
/*
 * swai-sim-nic.c - the NIC trees' rows of swccl-sim (swai-sim-nic.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include "drm/swai_nic.h"
#include "swai-gen.h"
#include "swai-nic-run.h"
#include "swai-sim-nic.h"
#include "swai-timing.h"

bool swai_sim_nic_algo(const char *algo)
{
	return !strcasecmp(algo, "NIC") || !strcasecmp(algo, "HOST");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int swai_sim_nic(const char *algo, int coll, int N, uint64_t bytes, unsigned k,
		 struct swai_sim_out *out, char *why, size_t n)
{
	struct swai_timing_props tp;
	struct swai_nic_peer *peer;
	uint64_t *recv;
	struct swai_nic_job j = {
		.nranks = N, .k = k, .rtype = SWAI_NIC_OP_SUM, .dtype = SWAI_NIC_T_FLOAT,
		.width = 8, .count = (unsigned)(bytes / 8),
	};
	uint64_t ns;
	double t0 = now_s();
	int r;

	/* As libswccl runs them (swccl_nic_run.c): every one an AllReduce tree. */
	j.coll = SWAI_NIC_TREE_ALLREDUCE;
	switch (coll) {
	case SWAI_COLL_ALLREDUCE:
	case SWAI_COLL_REDUCE:
	case SWAI_COLL_BROADCAST:
		break;
	default:
		snprintf(why, n, "the NIC trees do allreduce, reduce and broadcast");
		return -1;
	}
	if (bytes % 8 || bytes > SWAI_NIC_DATA_MAX || N < 1 || N > 0xffff) {
		snprintf(why, n, "the NIC trees take up to 48 bytes of doubles (a multiple of "
			 "8), on 1..65535 ranks");
		return -1;
	}
	peer = calloc((size_t)N, sizeof(*peer));
	recv = calloc((size_t)N, sizeof(*recv));
	if (!peer || !recv) {
		free(peer);
		free(recv);
		snprintf(why, n, "out of memory");
		return -1;
	}
	/* Each rank a card (a node) of its own; every result written to a buffer. */
	for (int i = 0; i < N; i++) {
		peer[i].node = (uint32_t)i;
		recv[i] = coll != SWAI_COLL_REDUCE || i == 0 ? 1ull << 30 : 0;
	}
	j.peer = peer;
	j.recv = recv;
	swai_timing_props_init(&tp);
	j.sync_ns = tp.t_sync_ns;
	r = swai_nic_model(&j, !strcasecmp(algo, "HOST"), &tp, &ns);
	free(peer);
	free(recv);
	if (r) {
		snprintf(why, n, "the NIC model failed (%d)", r);
		return -1;
	}
	/* As libswccl counts it: the host learns of the last completion a sync later. */
	out->us = (double)(ns + tp.t_sync_ns) / 1e3;
	out->transfers = 0;
	out->wall_s = now_s() - t0;
	return 0;
}
