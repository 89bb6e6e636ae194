/* SPDX-License-Identifier: MIT */
/*
 * swccl_call.h - one operation of every rank of a communicator, as the
 * layers below the API pass it down (enqueue -> plan -> launch): a
 * collective or a fused call, its shape, and each rank's buffers.
 */
#ifndef SWCCL_CALL_H
#define SWCCL_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/swai_program.h>

#include "swccl.h"

#define SWCCL_MAX_RANKS		32
#define SWCCL_EXPORT		__attribute__((visibility("default")))

struct swccl_kind;
struct swai_topo;

/* The collectives (the `coll` of a collective call). */
enum swccl_coll {
	SWCCL_ALLGATHER, SWCCL_REDUCESCATTER, SWCCL_ALLREDUCE, SWCCL_BROADCAST,
	SWCCL_REDUCE, SWCCL_ALLTOALL, SWCCL_NCOLLS
};

/* Where a buffer lives, for the program paths and the cost model. */
enum swccl_tier { SWCCL_LOCAL, SWCCL_GLOBAL, SWCCL_HOST };

struct swccl_buf {
	uint64_t va;		/* device address (host memory: its mapping) */
	enum swccl_tier tier;
	int cg;			/* Local: the core group owning it */
	size_t bytes;		/* what the call touches there */
};

/*
 * A rank's blocks of an AllToAllv or of a group of Send/Recv (swccl_p2p.c),
 * per peer: what it sends each rank and receives from each, anywhere.
 */
struct swccl_peers {
	size_t send_n[SWCCL_MAX_RANKS], recv_n[SWCCL_MAX_RANKS];	/* elements; 0: none */
	const void *sp[SWCCL_MAX_RANKS];				/* the caller's pointers */
	void *rp[SWCCL_MAX_RANKS];
	struct swccl_buf send[SWCCL_MAX_RANKS], recv[SWCCL_MAX_RANKS];
	/*
	 * A group's several Sends to (Recvs from) one peer, staged as one
	 * block: their counts in order, folded (swccl_p2p.c); 0 for one.
	 */
	uint64_t send_sig[SWCCL_MAX_RANKS], recv_sig[SWCCL_MAX_RANKS];
};

/* The buffers of a fused call (RS: FB_X is A; FB_Y, FB_GAMMA, FB_BETA unused). */
enum { FB_X, FB_Y, FB_GAMMA, FB_BETA, FB_W, FB_OUT, FB_N };

struct swccl_rank {
	struct swccl_buf send, recv;
	const void *sp;			/* the same, as the caller's pointers */
	void *rp;
	struct swccl_buf fb[FB_N];	/* fused calls */
	const void *fp[FB_N];		/* the same, as the caller's pointers */
	struct swccl_buf tmp;		/* fused calls: the comm's Local scratch of this rank */
	sdaaStream_t stream;
	int dev, cg;
	struct swccl_peers *pv;		/* AllToAllv, Send/Recv: its blocks (the call's) */
};

/* Semaphores and progress counters: pinned host memory (see swccl_comm.c). */
struct swccl_sems {
	uint64_t barrier;			/* BARRIER counter, all ranks */
	uint64_t flag[SWCCL_MAX_RANKS];		/* per writer: "chunk k written" */
	uint64_t progress[SWCCL_MAX_RANKS];	/* per rank: (seq << 8) | step */
};

/* The shape of a fused call, the same on every rank. */
struct swccl_fused {
	size_t rows;		/* rowsPerRank */
	size_t hidden;
	size_t n;		/* AG: ffn (GEMM width); RS: k (GEMM depth) */
	float eps, keep;
	int gelu;
	unsigned long long seed, offset;
	bool fused;		/* false: the unfused sequence (SWCCL_FUSION=0) */
};

/* One operation of all ranks. */
struct swccl_call {
	const struct swccl_kind *kind;	/* what it is (swccl_kind.h) */
	enum swccl_coll coll;		/* the collective (a fused call: the one it carries) */
	swcclDataType_t dtype;
	swcclRedOp_t op;
	int root;
	size_t count;		/* AG: per rank sent; RS: per rank received; AllToAll: per
				   peer; else all */
	size_t esize;
	int nranks;
	uint64_t seq;		/* 1, 2, ... per communicator */
	struct swccl_rank r[SWCCL_MAX_RANKS];
	/* resources of the communicator */
	uint64_t scratch;	/* Global-HBM */
	size_t scratch_bytes;
	uint64_t stage;		/* fused calls: this call's half of the Global staging */
	size_t stage_bytes;
	struct swccl_sems sem;	/* device addresses of the semaphores */
	size_t ldm;		/* LDM bytes of a core group */
	int kinsns;		/* instructions a job may hold (the card's) */
	bool peer;		/* every rank may access every rank's Local-HBM */
	struct sdaaTimingParams tp;
	int pipeline;		/* CSC1 chunks per shard; 0 = choose */
	swcclAlgo_t want;	/* the algorithm asked for (Auto: the cost model's) */
	struct swccl_fused fz;	/* fused calls */
	/* between cards (swccl_xcard.c): one rank per card of one fabric */
	bool xcard;
	bool xremote;		/* ranks in other processes: r[] of those mirror ours */
	uint64_t xflags[SWCCL_MAX_RANKS];	/* rank r's counters, on its card */
	uint64_t xland[SWCCL_MAX_RANKS];	/* rank r's landing area, on its card */
	size_t xland_bytes;
	uint64_t xsent[SWCCL_MAX_RANKS][SWCCL_MAX_RANKS];	/* messages a -> b before */
	uint64_t xcalls;			/* cross-card calls before this one */
	int fabric_id[SWCCL_MAX_RANKS];		/* rank -> card of the topology */
	uint32_t xreach[SWCCL_MAX_RANKS];	/* bit q: rank r's card reaches q's */
	int xplane, xplanes;	/* plane j of G running at once on the cards' CGs; 0, 1 */
	bool alone;		/* a level whose other planes idle meanwhile (swccl_op.alone) */
	const struct swai_topo *topo;		/* for the estimates; NULL: none */
	int node[SWCCL_MAX_RANKS];	/* rank -> its node: PLANE's grouping (seed 002) */
	bool v;			/* AllToAll of per-peer blocks (r[].pv): AllToAllv, Send/Recv */
};

/* swccl_dtype.c */
size_t swccl_type_size(swcclDataType_t t);
int swccl_type_dt(swcclDataType_t t);
const char *swccl_type_name(swcclDataType_t t);
const char *swccl_op_name(swcclRedOp_t op);

/* swccl_shard.c: rank i's part [lo, lo + len) of n elements split in parts */
void swccl_shard(size_t n, int parts, int i, size_t *lo, size_t *len);

#endif /* SWCCL_CALL_H */
