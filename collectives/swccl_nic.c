// SPDX-License-Identifier: MIT
/*
 * swccl_nic.c - the NIC transport of a communicator (swccl_nic.h): which
 * calls it can carry, and every rank's port and staging, opened at the
 * first call that uses them and known to every rank -- directly when the
 * ranks are this process's, over the bootstrap when they are not.
 */
#include <stdlib.h>
#include <string.h>

#include <drm/swai_accel.h>

#include "swccl_nic.h"
#include "swccl_xproc.h"

unsigned int swccl_nic_branch(void)
{
	long k = swccl_param_long(SWCCL_PARAM_NIC_BRANCH);

	return k >= 1 && k <= SWAI_NIC_BRANCH_MAX ? (unsigned int)k : 4;
}

void swccl_nic_types(const struct swccl_call *c, unsigned int *rtype, unsigned int *dtype,
		     unsigned int *width)
{
	switch (c->dtype) {
	case swcclFloat32:
	case swcclFloat64:
		*dtype = SWAI_NIC_T_FLOAT;
		break;
	default:
		*dtype = SWAI_NIC_T_SINT;
		break;
	}
	*width = (unsigned int)c->esize;
	/* A Broadcast or AllGather is an XOR of the bits (swccl_nic_piece.c). */
	if (c->coll == SWCCL_BROADCAST || c->coll == SWCCL_ALLGATHER) {
		*dtype = SWAI_NIC_T_UINT;
		*rtype = SWAI_NIC_OP_BXOR;
		return;
	}
	switch (c->op) {
	case swcclMax:
		*rtype = SWAI_NIC_OP_MAX;
		break;
	case swcclMin:
		*rtype = SWAI_NIC_OP_MIN;
		break;
	default:
		*rtype = SWAI_NIC_OP_SUM;
		break;
	}
}

const char *swccl_nic_unsupported(const struct swccl_call *c, swcclAlgo_t algo)
{
	bool bits = c->coll == SWCCL_BROADCAST || c->coll == SWCCL_ALLGATHER;

	(void)algo;
	if (c->coll != SWCCL_ALLREDUCE && c->coll != SWCCL_REDUCE && !bits &&
	    c->coll != SWCCL_REDUCESCATTER)
		return "the NIC trees do AllReduce, Reduce, Broadcast, AllGather and "
		       "ReduceScatter";
	if (c->dtype != swcclFloat32 && c->dtype != swcclFloat64 &&
	    c->dtype != swcclInt32 && c->dtype != swcclInt64)
		return "the NIC's ALU takes 32- and 64-bit elements (float32/64, int32/64)";
	if (!bits && c->op != swcclSum && c->op != swcclMax && c->op != swcclMin)
		return "the NIC's ALU adds, and takes the max or min (no product or average)";
	if (swccl_nic_pieces(c) > SWCCL_NIC_MAX_PIECES)
		return "more than 1024 NIC trees of 48 bytes (48 KiB) in one call (AllGather "
		       "and Broadcast of any size go by RDMA WRITE; the reductions' larger "
		       "messages would need the cards to add what WRITEs bring, not built)";
	return NULL;
}

static void close_rank(void *ctx, int r)
{
	struct swccl_nic *n = ctx;

	for (int s = 0; s < SWCCL_NIC_SETS; s++)
		if (n->port[s][r].key)
			sdaaNicClose(&n->port[s][r]);
	if (n->stage[r])
		sdaaFreeHost(n->stage[r]);
	if (n->in[r])
		sdaaFreeHost(n->in[r]);
}

void swccl_nic_free(struct swccl_shared *sh)
{
	if (!sh->nic)
		return;
	swccl_xproc_close_all(sh, close_rank, sh->nic);
	free(sh->nic);
	sh->nic = NULL;
}

/* Rank @r's ports and staging, on its card; its peer records. */
static swcclResult_t open_rank(struct swccl_shared *sh, void *ctx, int r, swcclComm_t comm0)
{
	struct swccl_nic *n = ctx;
	struct swcclComm *cm = sh->comm[r];
	void *dp = NULL;

	for (int s = 0; s < SWCCL_NIC_SETS; s++)
		if (sdaaSetDevice(cm->dev) || sdaaNicOpen(cm->dev, &n->port[s][r]))
			return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d (card %d): "
					  "no NIC port: %s (the NIC algorithms need cards on a "
					  "network: tools/vm/swai-cluster, or swai-vm --nic-hub)",
					  r, cm->card, sdaaGetErrorString(sdaaGetLastError()));
	if (sdaaMallocHost(&n->stage[r], SWAI_NIC_STAGE) ||
	    sdaaHostGetDevicePointer(&dp, n->stage[r], 0))
		return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d: cannot pin %d bytes "
				  "of staging: %s", r, SWAI_NIC_STAGE,
				  sdaaGetErrorString(sdaaGetLastError()));
	memset(n->stage[r], 0, SWAI_NIC_STAGE);
	for (int s = 0; s < SWCCL_NIC_SETS; s++)
		n->rec[r][s] = (struct swai_nic_peer){
			.node = n->port[s][r].node, .vport = n->port[s][r].vport,
			.key = n->port[s][r].key, .stage = (uint64_t)(uintptr_t)dp,
		};
	return swcclSuccess;
}

swcclResult_t swccl_nic_setup(struct swccl_shared *sh, swcclComm_t comm0)
{
	struct swccl_nic *n;
	swcclResult_t res;

	if (sh->nic)
		return swcclSuccess;
	n = calloc(1, sizeof(*n));
	if (!n)
		return swccl_fail(comm0, swcclSystemError, "out of memory");
	sh->nic = n;
	res = swccl_xproc_open_all(sh, comm0, open_rank, n, n->rec, sizeof(n->rec[0]),
				   "the NIC ports");
	if (res) {
		swccl_nic_free(sh);
		return res;
	}
	for (int r = 0; r < sh->nranks; r++)
		for (int s = 0; s < SWCCL_NIC_SETS; s++)
			n->peer[s][r] = n->rec[r][s];
	swccl_log(SWCCL_LOG_INFO, SWCCL_INIT, "NIC ports of %d ranks: rank 0 node %u ports "
		  "%u and %u", sh->nranks, n->peer[0][0].node, n->peer[0][0].vport,
		  n->peer[1][0].vport);
	return res;
}

/* Do this process's ranks' cards have NIC ports on a network? */
bool swccl_nic_cards(struct swccl_shared *sh, const struct swccl_call *c)
{
	for (int r = 0; r < c->nranks; r++) {
		struct sdaaDeviceProp pr;

		if (sh->comm[r]->remote)
			continue;
		if (sdaaGetDeviceProperties(&pr, c->r[r].dev)) {
			sdaaGetLastError();
			return false;
		}
		if (!(pr.capabilities & DRM_SWAI_CAP_NIC))
			return false;
	}
	return true;
}
