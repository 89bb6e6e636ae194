/* SPDX-License-Identifier: MIT */
/*
 * swccl.h - libswccl, collectives among the core groups of SW-AI cards.
 *
 * The API follows NCCL so that an application (or a framework's NCCL
 * backend) switches to it, and between algorithms, without code changes:
 * a communicator has one rank per libsdaa device (one core group), every
 * collective is called once per rank with that rank's buffers (device
 * pointers: Local-HBM of the rank's core group, Global-HBM, or pinned host
 * memory) and a stream of that rank's device, and is asynchronous with
 * respect to the host, ordered on the stream.
 *
 * Algorithms (Documentation/collectives.md): RING (the paper's baseline,
 * N-1 host-launched steps closed by host syncs), CSC (the paper's
 * Algorithms 1 and 2: every rank writes its shard into Global-HBM, one
 * sync, parallel reads) and CSC1 (ours: one launch per rank, on-card
 * barrier, chunks pipelined so reads overlap writes, reduction in LDM).
 * SWCCL_ALGO=RING|CSC|CSC1 forces one; otherwise a cost model over the
 * card's timing parameters picks the fastest per call.  A communicator with
 * one rank per card of one fabric runs the cluster library's schedules
 * between the cards instead -- RING, MESH1, MESH2, HD, NHR, RB -- chosen on
 * the topology SWCCL_TOPO names (Documentation/collectives.md, "Between
 * cards"); their reductions are in the schedule's order, reproducible run
 * to run but not the core groups' rank order.  SWCCL_DEBUG=INFO
 * logs every choice and why.  SWCCL_TIMEOUT (seconds, default 30) bounds a
 * collective: one that does not finish fails with swcclTimeout and a message
 * (swcclGetLastError) naming the core group and the step it waited on.
 *
 * swcclLayerNormAllGatherGemm / swcclGemmReduceScatterDropout (0.2) fuse
 * the AllGather and ReduceScatter of a tensor-parallel MLP with the kernels
 * around them (the paper's bidirectional operator fusion, §2.3).
 *
 * Reductions are deterministic: for every algorithm the result of element i
 * is reduced in the fixed order rank 0, 1, ..., N-1, so results are bitwise
 * identical whatever the algorithm and timing.
 */
#ifndef SWCCL_H
#define SWCCL_H

#include <stddef.h>

#include "sdaa_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SWCCL_MAJOR 0
#define SWCCL_MINOR 4
/* 1000 * major + 10 * minor */
#define SWCCL_VERSION (SWCCL_MAJOR * 1000 + SWCCL_MINOR * 10)

typedef enum swcclResult {
	swcclSuccess = 0,
	swcclUnhandledSdaaError = 1,	/* libsdaa failed: see swcclGetLastError */
	swcclSystemError = 2,		/* host memory, threads */
	swcclInternalError = 3,
	swcclInvalidArgument = 4,	/* NULL, bad count/type/op/root/buffer */
	swcclInvalidUsage = 5,		/* wrong rank/device, comm aborted, ... */
	swcclRemoteError = 6,		/* another rank failed or aborted */
	swcclInProgress = 7,		/* non-blocking: not finished yet */
	swcclTimeout = 8,		/* SWCCL_TIMEOUT elapsed: see message */
	swcclNumResults
} swcclResult_t;

/* NCCL's numbering; the card reduces these seven types. */
typedef enum swcclDataType {
	swcclUint8 = 1,
	swcclInt32 = 2, swcclInt = 2,
	swcclInt64 = 4,
	swcclFloat16 = 6, swcclHalf = 6,
	swcclFloat32 = 7, swcclFloat = 7,
	swcclFloat64 = 8, swcclDouble = 8,
	swcclBfloat16 = 9,
	swcclNumTypes
} swcclDataType_t;

typedef enum swcclRedOp {
	swcclSum = 0, swcclProd = 1, swcclMax = 2, swcclMin = 3, swcclAvg = 4,
	swcclNumOps
} swcclRedOp_t;

/* Algorithms, for SWCCL_ALGO and swcclCommSetAlgo. */
typedef enum swcclAlgo {
	swcclAlgoAuto = 0,	/* the cost model decides per call */
	swcclAlgoRing = 1,
	swcclAlgoCsc = 2,
	swcclAlgoCsc1 = 3,
	/*
	 * Between cards (a comm with one rank per card of one fabric), as
	 * HCCL's: RING (the same name as the core groups' ring), Mesh
	 * one-shot and two-shot, recursive halving-doubling, NHR, and
	 * Reduce + Broadcast.
	 */
	swcclAlgoMesh1 = 4,
	swcclAlgoMesh2 = 5,
	swcclAlgoHd = 6,
	swcclAlgoNhr = 7,
	swcclAlgoRb = 8,
	/*
	 * Between cards: the schedule in the file SWCCL_SCHED_FILE names
	 * (the project's JSON or MSCCL's XML: swccl-synth's, MSCCL's, TACCL's),
	 * for the collective and rank count it was written for.
	 */
	swcclAlgoFile = 9,
	/*
	 * Over the cards' NIC ports (swai.ko 1.5), between any ranks -- on one
	 * card, across cards, across nodes -- for AllReduce, Reduce,
	 * Broadcast, AllGather and ReduceScatter of 32- and 64-bit types: seed
	 * 001's reduction tree of branching degree SWCCL_NIC_BRANCH, one per
	 * 48 bytes (at most 1024 a call), offloaded to the NICs (NIC), or
	 * the same tree with the host combining and forwarding at every level
	 * (HOST, as MPI over a NIC).  Both give the same bits.
	 */
	swcclAlgoNic = 10,
	swcclAlgoHost = 11,
	/*
	 * AllToAll (libswccl 0.4): DIRECT, every pair exchanging its block
	 * straight (pairwise, round k to rank + k), and PLANE, seed 002's
	 * plane-hierarchical exchange: inside each node first, then one
	 * aggregated message a peer inside each plane (rank j of every node),
	 * m times fewer messages between nodes of m ranks.  Over the fabric
	 * inside a node; over the NICs' RDMA WRITE when the ranks span nodes.
	 */
	swcclAlgoDirect = 12,
	swcclAlgoPlane = 13,
	swcclNumAlgos
} swcclAlgo_t;

typedef struct swcclComm *swcclComm_t;

#define SWCCL_UNIQUE_ID_BYTES 128
typedef struct {
	char internal[SWCCL_UNIQUE_ID_BYTES];
} swcclUniqueId;

swcclResult_t swcclGetVersion(int *version);
const char *swcclGetErrorString(swcclResult_t result);
/*
 * The last failure's detail (which rank/CG, which step), per comm; NULL:
 * the calling thread's last failure without a comm (swcclCommInitRank,
 * swcclCommInitAll).
 */
const char *swcclGetLastError(swcclComm_t comm);

/*
 * One communicator per listed device (ndev ranks, devlist[i] is rank i's
 * libsdaa device; NULL means devices 0 .. ndev-1), all in this process:
 * core groups of one card (the collectives run over its Global-HBM and
 * ring), one core group of each of several cards of one fabric, or G core
 * groups of each (run in levels: within each card, then between cards
 * slot by slot); ranks on cards with unequal numbers of core groups run
 * the algorithm between cards over all ranks at once.  At most 32 ranks.
 */
swcclResult_t swcclCommInitAll(swcclComm_t *comms, int ndev, const int *devlist);
/*
 * One rank per call, on the caller's current device, with the same id
 * (from swcclGetUniqueId, made once and passed to every rank) and its
 * rank: nranks threads of this process, or -- one rank per card of one
 * fabric -- nranks processes, which join over TCP (the id names the root
 * swcclGetUniqueId started) and share their memory through IPC handles.
 * Blocks until all ranks have joined, at most SWCCL_TIMEOUT seconds.
 */
swcclResult_t swcclGetUniqueId(swcclUniqueId *uniqueId);
swcclResult_t swcclCommInitRank(swcclComm_t *comm, int nranks,
				swcclUniqueId commId, int rank);
/* Waits for the comm's work, then frees it. */
swcclResult_t swcclCommDestroy(swcclComm_t comm);
/* Frees it without waiting; ranks blocked in a collective fail. */
swcclResult_t swcclCommAbort(swcclComm_t comm);
swcclResult_t swcclCommCount(const swcclComm_t comm, int *count);
swcclResult_t swcclCommDevice(const swcclComm_t comm, int *device);
swcclResult_t swcclCommUserRank(const swcclComm_t comm, int *rank);
/* Errors of work already launched (timeout, card errors). */
swcclResult_t swcclCommGetAsyncError(swcclComm_t comm, swcclResult_t *asyncError);
/* Force an algorithm for this comm (overrides SWCCL_ALGO); Auto resets. */
swcclResult_t swcclCommSetAlgo(swcclComm_t comm, swcclAlgo_t algo);
const char *swcclAlgoName(swcclAlgo_t algo);

/*
 * Collectives.  count is in elements of datatype (any count, not only a
 * multiple of the rank count); in-place when sendbuff == recvbuff for
 * AllReduce/Broadcast/Reduce, and when sendbuff == recvbuff + rank * count
 * (AllGather) or recvbuff == sendbuff + rank * recvcount (ReduceScatter),
 * as in NCCL.
 */
swcclResult_t swcclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
			     swcclDataType_t datatype, swcclComm_t comm, sdaaStream_t stream);
swcclResult_t swcclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount,
				 swcclDataType_t datatype, swcclRedOp_t op, swcclComm_t comm,
				 sdaaStream_t stream);
swcclResult_t swcclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
			     swcclDataType_t datatype, swcclRedOp_t op, swcclComm_t comm,
			     sdaaStream_t stream);
swcclResult_t swcclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
			     swcclDataType_t datatype, int root, swcclComm_t comm,
			     sdaaStream_t stream);
swcclResult_t swcclReduce(const void *sendbuff, void *recvbuff, size_t count,
			  swcclDataType_t datatype, swcclRedOp_t op, int root, swcclComm_t comm,
			  sdaaStream_t stream);
/*
 * Every rank sends block j of @sendbuff (@count elements at j * count) to
 * rank j, which receives it as block i of @recvbuff from rank i: both
 * buffers hold nranks * count elements, any datatype (NCCL's AlltoAll).
 * In place when sendbuff == recvbuff.
 */
swcclResult_t swcclAllToAll(const void *sendbuff, void *recvbuff, size_t count,
			    swcclDataType_t datatype, swcclComm_t comm, sdaaStream_t stream);
/*
 * AllToAllv: rank r sends sendcounts[q] elements from sendbuff +
 * sdispls[q] to rank q, and receives recvcounts[q] elements from rank q at
 * recvbuff + rdispls[q] (counts and displacements in elements, as MPI's);
 * a rank's recvcounts[q] must be rank q's sendcounts[r].  Not in place.
 */
swcclResult_t swcclAllToAllv(const void *sendbuff, const size_t sendcounts[],
			     const size_t sdispls[], void *recvbuff, const size_t recvcounts[],
			     const size_t rdispls[], swcclDataType_t datatype, swcclComm_t comm,
			     sdaaStream_t stream);
/*
 * Point to point, as NCCL's: inside swcclGroupStart/End a rank's Sends and
 * Recvs run as one exchange; the k-th Send to q of count elements meets
 * q's k-th Recv from this rank, of the same count (several with one peer
 * are staged through the rank's card memory, and the group returns once
 * they are in place).  The
 * exchange is a call of the whole communicator: every rank posts its part
 * of each one, in one process (swcclCommInitAll) or one a process, a rank
 * with nothing to do a Send or Recv of 0 elements.
 */
swcclResult_t swcclSend(const void *sendbuff, size_t count, swcclDataType_t datatype, int peer,
			swcclComm_t comm, sdaaStream_t stream);
swcclResult_t swcclRecv(void *recvbuff, size_t count, swcclDataType_t datatype, int peer,
			swcclComm_t comm, sdaaStream_t stream);
/*
 * Returns when every rank of @comm has called it and the work queued on
 * @stream (of each of this process's ranks) before it has finished.  Over
 * the cards' NICs when they are on a network: seed 001's tree of no data,
 * offloaded (SWCCL_ALGO=HOST: driven by the hosts), the only way between
 * nodes; else the hosts' rendezvous.  In a group, at swcclGroupEnd.
 */
swcclResult_t swcclBarrier(swcclComm_t comm, sdaaStream_t stream);

/*
 * Group calls: between GroupStart and GroupEnd, collectives are only
 * recorded; GroupEnd launches them, so one thread can drive every rank of a
 * swcclCommInitAll communicator (as with NCCL).
 */
swcclResult_t swcclGroupStart(void);
swcclResult_t swcclGroupEnd(void);

/*
 * Per-call report of the last collective of a comm, for benchmarks.  The
 * fused calls report algo CSC, their jobs as launches (the unfused
 * sequence counts its LayerNorm/GEMM/Dropout jobs too), no cost-model
 * estimate (predicted_us, transfer_us 0: the model does not know compute).
 */
struct swcclCallInfo {
	swcclAlgo_t algo;		/* the algorithm that ran */
	int launches;			/* host launches, all ranks */
	int host_syncs;			/* host-mediated syncs */
	double predicted_us;		/* the cost model's estimate */
	double transfer_us;		/* modeled data-transfer time (Fig. 13) */
	/* since 0.2 (SWCCL_VERSION 20): */
	int fused;			/* fused calls: 1 fused, 0 unfused; -1 others */
	/*
	 * since 0.4 (SWCCL_VERSION 40): the messages the call sent between
	 * nodes, and their bytes, all ranks -- seed 002's measure.  Nodes are
	 * the hosts the ranks run on, or within one host the nodes of the
	 * topology its fabric is built from (SWCCL_TOPO).  Calls that run a
	 * schedule (between cards, AllToAll) count them; others give 0.
	 */
	unsigned long long internode_msgs, internode_bytes;
};
swcclResult_t swcclCommLastCallInfo(swcclComm_t comm, struct swcclCallInfo *info);

/*
 * Fused compute + communication (the paper's §2.3, bidirectional operator
 * fusion), for tensor + sequence parallel transformer blocks over the core
 * groups of one card.  Collective calls: every rank calls them with its own
 * buffers (Local-HBM of its core group; any libsdaa memory works) and the
 * same shapes, as the other collectives, group calls included.  Matrices
 * are row major and dense.  Cards without compute (DRM_SWAI_CAP_COMPUTE)
 * fail with swcclUnhandledSdaaError.
 *
 * fusion: swcclFusionAuto (0) fuses unless the environment says
 * SWCCL_FUSION=0; swcclFusionOff runs the unfused sequence through memory:
 * sdaaLayerNorm + swcclAllGather (CSC) + sdaaGemm, resp. sdaaGemm +
 * swcclReduceScatter (CSC) + sdaaDropout.  Both give bitwise identical
 * results (and so do all ranks' calls: all must pass the same fusion).
 */
typedef enum swcclFusion {
	swcclFusionAuto = 0, swcclFusionOn = 1, swcclFusionOff = 2
} swcclFusion_t;

/*
 * MLP front: y_r = LayerNorm(x_r) over rows of @hidden (x_r: this rank's
 * sequence shard, rowsPerRank x hidden); gathered = [y_0; ..; y_{N-1}]
 * (N * rowsPerRank x hidden, every rank gets all); out = gelu?(gathered W)
 * (W: hidden x ffn, this rank's column shard; out: N * rowsPerRank x ffn,
 * f32).  gamma, beta: f32 [hidden].  Fused: the LayerNorm writes y_r to
 * gathered AND to the comm's Global-HBM staging in one pass, one on-card
 * barrier, the GEMM reads the other ranks' rows from Global-HBM and also
 * writes them into gathered (the AllGather's read phase rides on the
 * GEMM's loads): one job per rank, no host sync.
 */
typedef struct swcclLnAgGemmArgs {
	const void *x;
	void *gathered;
	const float *gamma, *beta;
	float eps;
	const void *w;
	float *out;
	size_t rowsPerRank, hidden, ffn;
	swcclDataType_t type;		/* swcclFloat32 or swcclBfloat16: x, gathered, w */
	int gelu;			/* 1: GELU epilogue (tanh form) */
	swcclFusion_t fusion;
} swcclLnAgGemmArgs;
swcclResult_t swcclLayerNormAllGatherGemm(const swcclLnAgGemmArgs *args, swcclComm_t comm,
					  sdaaStream_t stream);

/*
 * MLP back: P_r = A_r W_r (A_r: N * rowsPerRank x k, W_r: k x hidden, f32
 * partial sums), reduce-scatter over the ranks (rank r gets row block r,
 * summed in rank order 0..N-1), dropout with keep probability @keep
 * (Philox4x32-10 with @seed; element i of rank r's block uses counter
 * offset + r * rowsPerRank * hidden + i, so the mask is that of one
 * dropout over the whole N * rowsPerRank x hidden tensor) into out
 * (rowsPerRank x hidden, f32).  keep 1 is no dropout.  Fused: the GEMM
 * writes the other ranks' row blocks straight into the comm's Global-HBM
 * exchange, one on-card barrier, the sum, the dropout and the single
 * write-back happen in LDM: one job per rank, no host sync.
 */
typedef struct swcclGemmRsDropoutArgs {
	const void *a;
	const void *w;
	float *out;
	size_t rowsPerRank, k, hidden;
	swcclDataType_t type;		/* swcclFloat32 or swcclBfloat16: a, w */
	float keep;
	unsigned long long seed, offset;
	swcclFusion_t fusion;
} swcclGemmRsDropoutArgs;
swcclResult_t swcclGemmReduceScatterDropout(const swcclGemmRsDropoutArgs *args,
					    swcclComm_t comm, sdaaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* SWCCL_H */
