/* SPDX-License-Identifier: MIT */
/*
 * swccl_comm.h - a communicator: the state its ranks share, the
 * environment parameters, logging and failure reporting, the memory the
 * communicator owns on the card, and the watchdog (SWCCL_TIMEOUT).
 */
#ifndef SWCCL_COMM_H
#define SWCCL_COMM_H

#include <pthread.h>

#include "swccl_call.h"

struct swccl_inst;
struct swccl_plan_cache;
struct swccl_model;
struct swccl_xproc;
struct swccl_hier;
struct swccl_nic;
struct swccl_rdma;

/* The state the ranks of one communicator share. */
struct swccl_shared {
	int nranks, refs;
	int nlocal;				/* ranks of this process */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct swcclComm *comm[SWCCL_MAX_RANKS];
	uint64_t executed;			/* last seq launched */
	struct swccl_inst *insts;		/* posted, not yet consumed */
	swcclResult_t failed;			/* sticky: timeout, abort */
	char failmsg[512];
	/* resources */
	int card;
	struct swccl_sems *sems_host;		/* host view of the semaphores */
	struct swccl_sems sems_dev;		/* their device addresses */
	void *scratch;				/* Global-HBM scratch of the algorithms */
	size_t scratch_bytes;
	void **retired;				/* older scratch, freed at the end */
	int nretired;
	size_t ldm;
	int kinsns;				/* instructions a job may hold */
	bool peer;
	struct sdaaTimingParams tp;
	struct swccl_stage {			/* Global-HBM: [0] AG staging, [1] RS exchange */
		void *buf;
		size_t bytes;
		unsigned int calls;		/* its half: calls & 1 */
	} stage[2];
	void *tmp[SWCCL_MAX_RANKS];		/* Local-HBM scratch per rank (fused calls) */
	size_t tmp_bytes[SWCCL_MAX_RANKS];
	/* planning (swccl_plan.c), one call at a time: calls run in sequence order */
	struct swccl_plan_cache *plans;
	struct swccl_model *model;
	/* watchdog (swccl_timeout.c) */
	pthread_t watchdog;
	bool watchdog_on, stop;
	uint64_t launched_seq;			/* the newest one-launch call */
	struct swccl_open {			/* launched, maybe not finished */
		uint64_t seq;
		double at;			/* wall s */
		char what[48];			/* "AllGather #3 (CSC)" */
	} open[64];
	int nopen;
	bool threaded;				/* ranks from swcclCommInitRank */
	char id[SWCCL_UNIQUE_ID_BYTES];
	/* between cards (swccl_xcard.c) */
	bool xcard;				/* one rank per card of one fabric */
	void *xflags[SWCCL_MAX_RANKS];		/* counters, on each rank's card */
	void *xland[SWCCL_MAX_RANKS];		/* landing areas, grown on demand */
	size_t xland_bytes;
	uint64_t xsent[SWCCL_MAX_RANKS][SWCCL_MAX_RANKS];
	uint64_t xcalls;
	int fabric_id[SWCCL_MAX_RANKS];
	uint32_t reach[SWCCL_MAX_RANKS];	/* bit q: rank r's card reaches q's */
	int plane, planes;	/* plane j of G (swccl_hier.c) sharing the cards; 0, 1 */
	struct swai_topo *topo;			/* SWCCL_TOPO, loaded on first use */
	bool topo_tried;
	struct swccl_xmodel *xmodel;		/* the cards' model (swccl_xcost.c) */
	bool xmodel_tried;
	/* one rank per process (swccl_xproc.c); NULL: all ranks are here */
	struct swccl_xproc *xproc;
	bool xnodes;				/* some ranks on other nodes: NICs only */
	/* the NIC transport (swccl_nic.c), set up at the first NIC call */
	struct swccl_nic *nic;
	/* schedules over RDMA WRITE (swccl_rdma.c), set up at the first such call */
	struct swccl_rdma *rdma;
	/* several core groups of several cards (swccl_hier.c): the levels */
	struct swccl_hier *hier;
	/* how a call of all ranks runs: swccl_execute, or swccl_hier_execute */
	swcclResult_t (*execute)(struct swccl_shared *sh, struct swccl_call *c,
				 swcclComm_t comm0);
};

struct swcclComm {
	struct swccl_shared *sh;
	int rank, dev, cg;
	int card;				/* sdaaDeviceProp.card of the rank */
	bool remote;				/* a rank of another process: its place only */
	int pid;				/* remote: its process */
	swcclAlgo_t algo;
	uint64_t seq;				/* calls posted by this rank */
	struct swcclCallInfo last;
	char lasterr[512];
	bool dead;
};

/* swccl_param.c: every environment variable, read once at its first use (NCCL_PARAM). */
enum swccl_param {
	SWCCL_PARAM_ALGO,		/* SWCCL_ALGO: RING, CSC, CSC1, AUTO */
	SWCCL_PARAM_DEBUG,		/* SWCCL_DEBUG: WARN, INFO, TRACE */
	SWCCL_PARAM_DEBUG_SUBSYS,	/* SWCCL_DEBUG_SUBSYS: INIT,COLL,PLAN,... */
	SWCCL_PARAM_TIMEOUT,		/* SWCCL_TIMEOUT: seconds */
	SWCCL_PARAM_PEER,		/* SWCCL_PEER: 0 = no peer access */
	SWCCL_PARAM_FUSION,		/* SWCCL_FUSION: 0 = unfused sequence */
	SWCCL_PARAM_CSC1_CHUNKS,	/* SWCCL_CSC1_CHUNKS: pipeline depth, 0 = choose */
	SWCCL_PARAM_PLAN_CACHE,		/* SWCCL_PLAN_CACHE: plans kept per comm */
	SWCCL_PARAM_TOPO,		/* SWCCL_TOPO: the cards' topology file or preset */
	SWCCL_PARAM_COMM_ID,		/* SWCCL_COMM_ID: the bootstrap root, host:port */
	SWCCL_PARAM_SOCKET_IFNAME,	/* SWCCL_SOCKET_IFNAME: the root's interface */
	SWCCL_PARAM_SCHED_FILE,		/* SWCCL_SCHED_FILE: the FILE algorithm's schedule */
	SWCCL_PARAM_NIC_BRANCH,		/* SWCCL_NIC_BRANCH: the NIC trees' branching degree */
	SWCCL_NPARAMS
};
/* The variable's value, or its default. */
const char *swccl_param(enum swccl_param p);
long swccl_param_long(enum swccl_param p);
double swccl_param_double(enum swccl_param p);
/* SWCCL_TIMEOUT, seconds (default 30) */
double swccl_timeout_s(void);

/* swccl_debug.c: SWCCL_DEBUG levels and SWCCL_DEBUG_SUBSYS subsystems */
enum swccl_log { SWCCL_LOG_NONE, SWCCL_LOG_WARN, SWCCL_LOG_INFO, SWCCL_LOG_TRACE };
enum swccl_subsys {
	SWCCL_INIT = 1 << 0,		/* communicators, resources */
	SWCCL_COLL = 1 << 1,		/* calls and the rendezvous */
	SWCCL_PLAN = 1 << 2,		/* algorithm choice, cost model, plan cache */
	SWCCL_LAUNCH = 1 << 3,		/* jobs launched, host waits */
	SWCCL_FUSED = 1 << 4,		/* fused calls */
	SWCCL_SUBSYS_ALL = (1 << 5) - 1
};
bool swccl_log_on(int level, unsigned int subsys);
void swccl_log(int level, unsigned int subsys, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record the failure of @comm's call and log it (WARN); returns @r. */
swcclResult_t swccl_fail(swcclComm_t comm, swcclResult_t r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Parse a SWCCL_DEBUG_SUBSYS value (for the tests). */
unsigned int swccl_subsys_parse(const char *s);

/* swccl_mem.c: the memory a communicator owns on the card */
/* Device address, tier and core group of a user buffer of rank @comm. */
swcclResult_t swccl_buffer(swcclComm_t comm, const void *p, size_t bytes, const char *what,
			   struct swccl_buf *b);
/* A stream of the rank's device, or NULL (its legacy stream). */
swcclResult_t swccl_stream_check(swcclComm_t comm, sdaaStream_t stream);
/* Has every launched call finished (so no job touches the comm's memory)? */
bool swccl_idle(struct swccl_shared *sh);
/* Global-HBM scratch of at least @bytes (the old one may still be in use). */
swcclResult_t swccl_scratch(struct swccl_shared *sh, size_t bytes);
/* This call's half of staging buffer @which of 2 x @half bytes; *va its address. */
swcclResult_t swccl_stage(struct swccl_shared *sh, int which, size_t half, uint64_t *va);
/* Every rank's Local-HBM scratch holds @bytes. */
swcclResult_t swccl_tmp(struct swccl_shared *sh, struct swccl_call *c, size_t bytes,
			swcclComm_t comm0);
/* Between cards: every rank's counters (zeroed), once. */
swcclResult_t swccl_xflags(struct swccl_shared *sh);
/* Between cards: every rank's landing area holds @bytes. */
swcclResult_t swccl_xland(struct swccl_shared *sh, size_t bytes);
/* Free everything (the comm's end, when nothing of it runs any more). */
void swccl_mem_free(struct swccl_shared *sh);

/* swccl_timeout.c: no call hangs */
double swccl_now(void);
void swccl_watchdog_start(struct swccl_shared *sh);
void swccl_watchdog_stop(struct swccl_shared *sh);
/* A call launched without host waits: the watchdog watches it. */
void swccl_launched(struct swccl_shared *sh, const struct swccl_call *c, const char *how);
void swccl_release(struct swccl_shared *sh);
bool swccl_all_done(struct swccl_shared *sh, uint64_t seq);
void swccl_describe_stall(struct swccl_shared *sh, uint64_t seq, char *buf, size_t n);
/* Fail the communicator for everyone (sticky), release blocked programs. */
void swccl_fail_shared(struct swccl_shared *sh, swcclResult_t r, const char *msg);

#endif /* SWCCL_COMM_H */
