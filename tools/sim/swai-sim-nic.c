// SPDX-License-Identifier: MIT
/*
 * swai-sim-nic.c - the NIC trees' rows of swccl-sim (swai-sim-nic.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include "drm/swai_nic.h"
#include "swai-gen.h"
#include "swai-nic-run.h"
#include "swai-nic-tree.h"
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

const struct swai_sim_nic_type *swai_sim_nic_type(const char *name)
{
	static const struct swai_sim_nic_type types[] = {
		{ "double", SWAI_NIC_T_FLOAT, 8 }, { "float", SWAI_NIC_T_FLOAT, 4 },
		{ "int64", SWAI_NIC_T_SINT, 8 }, { "uint64", SWAI_NIC_T_UINT, 8 },
		{ "int32", SWAI_NIC_T_SINT, 4 }, { "uint32", SWAI_NIC_T_UINT, 4 },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcasecmp(name, types[i].name))
			return &types[i];
	return NULL;
}

/* One tree of @count elements: its modeled ns from the hosts' start. */
static int tree_ns(const char *algo, int N, unsigned k, const struct swai_sim_nic_type *type,
		   unsigned count, uint64_t *ns, int coll)
{
	struct swai_timing_props tp;
	struct swai_nic_peer *peer = calloc((size_t)N, sizeof(*peer));
	uint64_t *recv = calloc((size_t)N, sizeof(*recv));
	/* As libswccl runs them (swccl_nic_run.c): every one an AllReduce tree. */
	struct swai_nic_job j = {
		.coll = SWAI_NIC_TREE_ALLREDUCE, .nranks = N, .k = k, .rtype = SWAI_NIC_OP_SUM,
		.dtype = type->dtype, .width = type->width, .count = count,
	};
	int r;

	if (!peer || !recv) {
		free(peer);
		free(recv);
		return -ENOMEM;
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
	r = swai_nic_model(&j, !strcasecmp(algo, "HOST"), &tp, ns);
	free(peer);
	free(recv);
	return r;
}

int swai_sim_nic(const char *algo, int coll, int N, uint64_t bytes, unsigned k,
		 const struct swai_sim_nic_type *type, struct swai_sim_out *out,
		 char *why, size_t n)
{
	unsigned per = SWAI_NIC_DATA_MAX / type->width;
	uint64_t count = bytes / type->width, pieces, total, full = 0, ns;
	unsigned last;
	int r;
	struct swai_timing_props tp;
	double t0 = now_s();

	switch (coll) {
	case SWAI_COLL_ALLREDUCE:
	case SWAI_COLL_REDUCE:
	case SWAI_COLL_BROADCAST:
		break;
	default:
		snprintf(why, n, "the NIC trees do allreduce, reduce and broadcast");
		return -1;
	}
	if (!bytes || bytes % type->width || count > 64ull * per || N < 1 || N > 0xffff) {
		snprintf(why, n, "the NIC trees take 1 to 64 pieces of 48 bytes of %s (a multiple "
			 "of %u bytes), on 1..65535 ranks", type->name, type->width);
		return -1;
	}
	swai_timing_props_init(&tp);
	/*
	 * The pieces one after another, each from the hosts' start to its last
	 * completion, then the host learning of it a sync later (the last too),
	 * as libswccl models a call (model_pieces, collectives/swccl_nic_run.c):
	 * the full pieces cost the same, the last may be shorter.
	 */
	pieces = swai_nic_tree_pieces((unsigned)count, type->width);
	last = (unsigned)(count - (pieces - 1) * per);
	r = pieces > 1 || last == per ? tree_ns(algo, N, k, type, per, &full, coll) : 0;
	ns = full;
	if (!r && last < per)
		r = tree_ns(algo, N, k, type, last, &ns, coll);
	if (r) {
		snprintf(why, n, "the NIC model failed (%d)", r);
		return -1;
	}
	total = (pieces - 1) * (full + tp.t_sync_ns) + ns + tp.t_sync_ns;
	out->us = (double)total / 1e3;
	out->transfers = 0;
	out->wall_s = now_s() - t0;
	return 0;
}
