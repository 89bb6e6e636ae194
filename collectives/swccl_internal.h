/* SPDX-License-Identifier: MIT */
/*
 * swccl_internal.h - what the files of libswccl share.
 *
 * A collective call of every rank becomes one struct swccl_call (all ranks'
 * arguments together, exchanged on the host), which one algorithm (struct
 * swccl_algo, one file per collective x algorithm) turns into core-group
 * programs: `steps` launches per rank, with a host wait between steps.
 */
#ifndef SWCCL_INTERNAL_H
#define SWCCL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <drm/swai_program.h>

#include "swccl.h"
#include "swai-prog.h"

/* Platform additions of issue 5, for headers that predate them. */
#ifndef SWAI_DT_U8
#define SWAI_DT_U8		6
#endif
#ifndef SWAI_OP_DIV
#define SWAI_OP_DIV		0x0b
#endif

#define SWCCL_MAX_RANKS		16
#define SWCCL_EXPORT		__attribute__((visibility("default")))

enum swccl_coll {
	SWCCL_ALLGATHER, SWCCL_REDUCESCATTER, SWCCL_ALLREDUCE, SWCCL_BROADCAST,
	SWCCL_REDUCE, SWCCL_NCOLLS,
	/* the fused ops (swccl_fused*.c, fused_*.c): no algorithm table, no cost model */
	SWCCL_FUSED_AG = SWCCL_NCOLLS, SWCCL_FUSED_RS, SWCCL_NCALLS
};

/* Where a buffer lives, for the program paths and the cost model. */
enum swccl_tier { SWCCL_LOCAL, SWCCL_GLOBAL, SWCCL_HOST };

struct swccl_buf {
	uint64_t va;		/* device address (host memory: its mapping) */
	enum swccl_tier tier;
	int cg;			/* Local: the core group owning it */
	size_t bytes;		/* what the collective touches there */
};

/* The buffers of a fused call (RS: FB_X is A; FB_Y, FB_GAMMA, FB_BETA unused). */
enum { FB_X, FB_Y, FB_GAMMA, FB_BETA, FB_W, FB_OUT, FB_N };

struct swccl_rank {
	struct swccl_buf send, recv;
	struct swccl_buf fb[FB_N];	/* fused calls */
	const void *fp[FB_N];		/* the same as the caller's pointers */
	uint64_t tmp;			/* fused calls: the comm's Local scratch of this rank */
	void *tmp_p;
	sdaaStream_t stream;
	int dev, cg;
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

/* A rank's fused call as posted: the shape and its buffers (user pointers). */
struct swccl_fused_op {
	struct swccl_fused fz;
	swcclDataType_t type;
	const void *p[FB_N];
};

/* One collective of all ranks, as the algorithms see it. */
struct swccl_call {
	enum swccl_coll coll;
	swcclDataType_t dtype;
	swcclRedOp_t op;
	int root;
	size_t count;		/* AG: per rank sent; RS: per rank received; else all */
	size_t esize;
	int nranks;
	uint64_t seq;		/* 1, 2, ... per communicator */
	struct swccl_rank r[SWCCL_MAX_RANKS];
	/* resources of the communicator */
	uint64_t scratch;	/* Global-HBM */
	size_t scratch_bytes;
	struct swccl_sems sem;	/* device addresses of the semaphores */
	size_t ldm;		/* LDM bytes of a core group */
	bool peer;		/* every rank may access every rank's Local-HBM */
	struct sdaaTimingParams tp;
	int pipeline;		/* CSC1 chunks per shard; 0 = choose */
	swcclAlgo_t force;	/* run this algorithm (the unfused sequence's CSC) */
	struct swccl_fused fz;	/* fused calls */
	uint64_t stage;		/* fused calls: this call's half of the Global staging */
};

/* Progress steps a program reports (swccl_timeout.c names them). */
enum swccl_step {
	SWCCL_STEP_START = 1, SWCCL_STEP_WRITTEN, SWCCL_STEP_SYNCED, SWCCL_STEP_REDUCED,
	SWCCL_STEP_READ, SWCCL_STEP_DONE = 0xff
};

/* One (collective, algorithm): a new algorithm is one file and a table line. */
struct swccl_algo {
	const char *name;
	enum swccl_coll coll;
	swcclAlgo_t algo;
	/* NULL if it can run @c, else why not. */
	const char *(*unsupported)(const struct swccl_call *c);
	/* Global-HBM scratch bytes it needs. */
	size_t (*scratch)(const struct swccl_call *c);
	/* Launches per rank; the host waits for all ranks after each if > 1. */
	int (*steps)(const struct swccl_call *c);
	/* Append rank @rank's program for step @step (0-based). */
	void (*build)(const struct swccl_call *c, int step, int rank, struct swai_prog *p);
};

extern const struct swccl_algo *const swccl_algos[];

/* The state the ranks of one communicator share. */
struct swccl_inst;
struct swccl_shared {
	int nranks, refs;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct swcclComm *comm[SWCCL_MAX_RANKS];
	uint64_t posted[SWCCL_MAX_RANKS];	/* per rank: last seq posted */
	uint64_t executed;			/* last seq launched */
	struct swccl_inst *insts;		/* posted, not yet consumed */
	swcclResult_t failed;			/* sticky: timeout, abort */
	char failmsg[512];
	/* resources */
	int card;
	struct swccl_sems *sems_host;		/* host view of the semaphores */
	struct swccl_sems sems_dev;		/* their device addresses */
	void *scratch;
	size_t scratch_bytes;
	void **retired;				/* older scratch, freed at the end */
	int nretired;
	size_t ldm;
	bool peer;
	struct sdaaTimingParams tp;
	/* watchdog (swccl_timeout.c) */
	pthread_t watchdog;
	bool watchdog_on, stop;
	uint64_t launched_seq;			/* the newest one-launch collective */
	struct swccl_open {			/* launched, maybe not finished */
		uint64_t seq;
		double at;			/* wall s */
		char what[48];			/* "AllGather #3 (CSC)" */
	} open[64];
	int nopen;
	bool threaded;				/* ranks from swcclCommInitRank */
	/* fused calls (swccl_fused_exec.c) */
	struct swccl_stage {			/* Global-HBM: [0] AG staging, [1] RS exchange */
		void *buf;
		size_t bytes;
		unsigned int calls;		/* its half: calls & 1 */
	} stage[2];
	void *tmp[SWCCL_MAX_RANKS];		/* Local-HBM scratch per rank */
	size_t tmp_bytes[SWCCL_MAX_RANKS];
	size_t kldm;				/* kernel limits (sdaaDeviceGetKernelLimits) */
	int kinsns;
	char id[SWCCL_UNIQUE_ID_BYTES];
};

struct swcclComm {
	struct swccl_shared *sh;
	int rank, dev, cg;
	swcclAlgo_t algo;
	uint64_t seq;				/* collectives posted by this rank */
	struct swcclCallInfo last;
	char lasterr[512];
	bool dead;
};

/* swccl_debug.c */
enum swccl_log { SWCCL_LOG_NONE, SWCCL_LOG_WARN, SWCCL_LOG_INFO, SWCCL_LOG_TRACE };
int swccl_log_level(void);
void swccl_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
swcclResult_t swccl_fail(swcclComm_t comm, swcclResult_t r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *swccl_coll_name(enum swccl_coll coll);

/* swccl_dtype.c */
size_t swccl_type_size(swcclDataType_t t);
int swccl_type_dt(swcclDataType_t t);
const char *swccl_type_name(swcclDataType_t t);
const char *swccl_op_name(swcclRedOp_t op);

/* swccl_shard.c: rank i's part [lo, lo + len) of n elements split in parts */
void swccl_shard(size_t n, int parts, int i, size_t *lo, size_t *len);
/* Chunks of a CSC1 pipeline whose chunk waits for @barriers flags. */
uint64_t swccl_pipeline_chunks(const struct swccl_call *c, int barriers);

/* swccl_prog.c */
void prog_copy(struct swai_prog *p, uint64_t dst, uint64_t src, uint64_t len);
void prog_copy_rows(struct swai_prog *p, uint64_t dst, uint64_t src, uint64_t len,
		    uint32_t rows, uint64_t dst_stride, uint64_t src_stride);
void prog_get(struct swai_prog *p, uint64_t ldm, uint64_t va, uint64_t len);
void prog_put(struct swai_prog *p, uint64_t va, uint64_t ldm, uint64_t len);
void prog_reduce(struct swai_prog *p, const struct swccl_call *c, uint64_t dst,
		 uint64_t src, uint64_t n);
void prog_finish_op(struct swai_prog *p, const struct swccl_call *c, uint64_t ldm,
		    uint64_t n);
void prog_barrier(struct swai_prog *p, const struct swccl_call *c, bool host);
void prog_signal(struct swai_prog *p, uint64_t sem, uint64_t value);
void prog_wait(struct swai_prog *p, uint64_t sem, uint64_t atleast);
void prog_progress(struct swai_prog *p, const struct swccl_call *c, int rank,
		   enum swccl_step step);
uint64_t swccl_flag_value(const struct swccl_call *c, uint64_t k);
size_t swccl_chunk(const struct swccl_call *c, int slots);
bool swccl_readable(const struct swccl_call *c, const struct swccl_buf *b);
/* Every rank's send buffer can be read by the other ranks directly. */
bool swccl_all_sends_readable(const struct swccl_call *c);

/* swccl_phases.c: the building blocks the algorithm files share */
void phase_fold(struct swai_prog *p, const struct swccl_call *c, const uint64_t *items,
		int nitems, int rot, const uint64_t *out, int nout, bool final, uint64_t n);
void phase_reduce_rounds(struct swai_prog *p, const struct swccl_call *c,
			 const uint64_t *src, uint64_t acc, uint64_t dst, uint64_t n);

/*
 * swccl_sim.c: run the programs of one step on a model of the card (the
 * datasheet's §14 costs, without the shared-path calendar).  With @mem the
 * instructions also act on memory, device addresses being host pointers:
 * the host unit tests run the algorithms' programs that way.
 */
struct swccl_sim_mem {
	uint8_t *ldm[SWCCL_MAX_RANKS];	/* c->ldm bytes each */
};
struct swccl_sim_result {
	double us;		/* makespan, launch included */
	double transfer_us;	/* the slowest rank's bytes / bandwidth */
	int host_barriers;
	const char *error;	/* a deadlock or bad instruction: a builder bug */
};
void swccl_sim_reduce(void *dst, const void *src, uint64_t n, int dt, int rop,
		      const char **error);
void swccl_sim_div(void *dst, uint64_t n, int dt, uint64_t div, const char **error);
void swccl_sim_step(const struct swccl_call *c, struct swai_prog *const *progs,
		    struct swccl_sim_mem *mem, struct swccl_sim_result *res);

/* swccl_select.c */
struct swccl_plan {
	const struct swccl_algo *algo;
	double us, transfer_us;
	int launches, host_syncs;
};
swcclResult_t swccl_select(swcclComm_t comm, struct swccl_call *c, struct swccl_plan *plan);
swcclResult_t swccl_plan_algo(const struct swccl_algo *a, struct swccl_call *c,
			      struct swccl_plan *plan);
swcclAlgo_t swccl_env_algo(void);

/* swccl_enqueue.c / swccl_launch.c */
struct swccl_op {
	swcclComm_t comm;
	enum swccl_coll coll;
	const void *send;
	void *recv;
	size_t count;
	swcclDataType_t dtype;
	swcclRedOp_t op;
	int root;
	sdaaStream_t stream;
	struct swccl_fused_op f;	/* fused calls: a copy of the arguments */
};
swcclResult_t swccl_post(const struct swccl_op *op, uint64_t *seq);
swcclResult_t swccl_wait(swcclComm_t comm, uint64_t seq);
/* Check, then (in a group: record) post and wait: a collective call of one rank. */
swcclResult_t swccl_enqueue(struct swccl_op *op);
void swccl_insts_free(struct swccl_shared *sh);
swcclResult_t swccl_execute(struct swccl_shared *sh, struct swccl_call *c,
			    swcclComm_t comm0);
swcclResult_t swccl_resources(struct swccl_shared *sh, size_t scratch);
swcclResult_t swccl_retire(struct swccl_shared *sh, void *old);
bool swccl_idle(struct swccl_shared *sh);

/* swccl_fused.c (API, checks), swccl_fused_exec.c (resources, launch, unfused) */
swcclResult_t swccl_buffer(swcclComm_t comm, const void *p, size_t bytes, const char *what,
			   struct swccl_buf *b);
swcclResult_t swccl_fused_check(swcclComm_t comm, enum swccl_coll coll,
				const struct swccl_fused_op *f, struct swccl_rank *rk);
bool swccl_fused_same(const struct swccl_call *c, const struct swccl_fused_op *f);
swcclResult_t swccl_fused_execute(struct swccl_shared *sh, struct swccl_call *c,
				  swcclComm_t comm0);
void swccl_fused_free(struct swccl_shared *sh);

/* fused_ag.c, fused_rs.c, fused_jobs.c: a rank's jobs of a fused call */
#define SWCCL_FUSED_RESERVE	4	/* instructions added around an emitter's program */
/* Global-HBM bytes of the staging half (AG) or exchange half (RS) a call needs. */
size_t fused_ag_stage_bytes(const struct swccl_call *c);
size_t fused_rs_stage_bytes(const struct swccl_call *c);
/* 0 or the emitters' -errno. */
int fused_ag_jobs(const struct swccl_call *c, int rank, uint64_t ldm, int max_insns,
		  struct swai_progs *out);
int fused_rs_jobs(const struct swccl_call *c, int rank, uint64_t ldm, int max_insns,
		  struct swai_progs *out);
/* Append pre + body + post to the last job, or to a new one if it does not fit. */
void jobs_unit(struct swai_progs *j, const struct swai_prog *pre, const struct swai_insn *body,
	       int nbody, const struct swai_prog *post, int max_insns);
/* The emitter's programs as units: @pre before the first, @post after the last. */
struct swai_progs;
void jobs_add_progs(struct swai_progs *j, const struct swai_progs *ps,
		    const struct swai_prog *pre, const struct swai_prog *post, int max_insns);
/*
 * A fused call's two halves around the on-card barrier: @before (the
 * writer: LayerNorm / GEMM) with the START and WRITTEN progress and the
 * BARRIER after it, @after (the reader: GEMM / reduce + dropout) ending
 * with DONE.  0 or -ENOMEM.
 */
int jobs_two_phases(struct swai_progs *out, const struct swccl_call *c, int rank,
		    const struct swai_progs *before, const struct swai_progs *after, int max_insns);

/* swccl_group.c */
bool swccl_in_group(void);
swcclResult_t swccl_group_add(const struct swccl_op *op);

/* swccl_timeout.c */
double swccl_timeout_s(void);
double swccl_now(void);
void swccl_watchdog_start(struct swccl_shared *sh);
void swccl_watchdog_stop(struct swccl_shared *sh);
void swccl_launched(struct swccl_shared *sh, const struct swccl_call *c, const char *algo);
void swccl_release(struct swccl_shared *sh);
bool swccl_all_done(struct swccl_shared *sh, uint64_t seq);
void swccl_describe_stall(struct swccl_shared *sh, uint64_t seq, char *buf, size_t n);
void swccl_fail_shared(struct swccl_shared *sh, swcclResult_t r, const char *msg);

/* swccl_comm.c */
void swccl_shared_put(struct swccl_shared *sh);

#endif /* SWCCL_INTERNAL_H */
