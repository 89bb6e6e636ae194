/* SPDX-License-Identifier: MIT */
/*
 * sdaa_exec.h - what streams, events, copies and launches share: the
 * execution state of each card (its queues, the process's modeled host
 * clock on it, its sticky error: sdaa_card.c) and the submission layer
 * (sdaa_job.c).
 *
 * Locks, always taken in this order: a stream's lock (one operation on the
 * stream at a time), a buffer pair's lock (staging, bounce), a queue's lock
 * (program buffer, timeline points, the SUBMIT ioctl); a queue's sync_lock
 * is a leaf, held only to copy fronts.  The modeled host clock, the waited
 * points and the sticky error are atomics.
 */
#ifndef SDAA_EXEC_H
#define SDAA_EXEC_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "sdaa_internal.h"
#include "sdaa_front.h"
#include "sdaa_progbuf.h"
#include "drm/swai_program.h"
#include "swai-prog.h"

/* Pinned buffers a queue stages pageable copies through, and their size. */
#define SDAA_STAGE_BYTES	(4ULL << 20)
/* Bytes of program memory per queue (at least one largest program). */
#define SDAA_POOL_BYTES		(256ULL << 10)
/* The pool starts with a scratch word for memset's pattern. */
#define SDAA_POOL_SCRATCH	64
/* JOB_WAIT deadline meaning "no deadline". */
#define SDAA_FOREVER		INT64_MAX

struct sdaa_xcard;
struct sdaa_stream;

/*
 * Two buffers used in turn by chunked copies: while the card moves one
 * chunk, the host (or another queue) works on the other.  Each remembers the
 * last job that used it, which the next user must wait for.
 */
struct sdaa_bufpair {
	pthread_mutex_t lock;
	size_t size;			/* bytes of each; 0 until allocated */
	void *host[2];			/* host address, NULL for device memory */
	uint64_t va[2];
	int cg[2];			/* queue of the last job using each */
	struct sdaa_fence use[2];
	int broken;			/* allocation failed; do not retry */
};

/* One core group of a card: its hardware queue, and its logical device. */
struct sdaa_queue {
	struct sdaa_xcard *xc;
	int cg;
	pthread_mutex_t lock;		/* progbuf, point, SUBMIT, making legacy */
	uint64_t point;			/* newest timeline point handed out */
	uint64_t last_job;		/* newest job id (atomic) */
	char *pool;			/* pinned program memory, lazily */
	uint64_t pool_va;
	struct sdaa_progbuf progbuf;	/* program memory, a FIFO of bytes */
	pthread_mutex_t sync_lock;	/* leaf: the fronts below */
	struct sdaa_front legacy_front;	/* work of the legacy stream */
	struct sdaa_front blocking_front; /* of the blocking streams and legacy */
	struct sdaa_front all_front;	/* of every stream of this device */
	struct sdaa_stream *legacy;	/* the legacy default stream */
	struct sdaa_bufpair stage;	/* pinned host, mapped on every card */
	uint32_t peers;			/* CGs it enabled peer access to, atomic */
	uint64_t xpeers[SDAA_MAX_DEVICES / 64];	/* devices of other cards, atomic */
};

/* The execution state of one card, made when the card is first used. */
struct sdaa_xcard {
	struct sdaa_card *card;
	int index;			/* in sdaa_runtime()->cards */
	int nq;				/* queues (core groups) */
	uint32_t asid;			/* the process's context (MEM_INFO) */
	struct drm_swai_query_timing timing;
	int sticky;			/* sdaaError_t, atomic; 0 while healthy */
	uint64_t newest_job;		/* newest job id of the card's file, atomic */
	uint64_t waited[SDAA_MAX_CG];	/* newest point the host waited for */
	uint32_t syncobj[SDAA_MAX_CG];	/* one timeline per queue */
	struct sdaa_queue q[SDAA_MAX_CG];
	struct sdaa_bufpair bounce;	/* Global-HBM, for Local <-> Local */
};

/* --- sdaa_card.c: cards --- */

#define SDAA_MAX_CARDS	64

/* The execution state of card @index, initialised on first use. */
sdaaError_t sdaa_xcard_get(int index, struct sdaa_xcard **xc);
/* The execution state of card @index if it has one, else NULL. */
struct sdaa_xcard *sdaa_xcard_peek(int index);
/* The queue of logical device @dev (of the current one if @dev < 0). */
sdaaError_t sdaa_device_queue(int dev, struct sdaa_queue **q);
/* The card's sticky error, or sdaaSuccess. */
sdaaError_t sdaa_xcard_check(struct sdaa_xcard *xc);
/* The same by card index, for calls that do not need the card to run work. */
sdaaError_t sdaa_card_sticky(int index);
/* The runtime error for an ioctl's errno. */
sdaaError_t sdaa_errno_error(int e);

int64_t sdaa_now_ns(void);
/*
 * The process's modeled host time H, atomic: one for all cards (a host that
 * waited for a job of one card launches on another after that), starting
 * at the first card's clock and moved up to each card's when it is first
 * used (Documentation/runtime.md, "Modeled time").
 */
uint64_t *sdaa_hclock(void);
/* The absolute deadline @ms from now. */
int64_t sdaa_deadline(unsigned int ms);

/* --- sdaa_job.c: submission, waiting --- */

/*
 * Run program @insns[@n] on queue @q after the work in @deps (NULL: none).
 * The job's fence comes back in @out.
 */
sdaaError_t sdaa_submit(struct sdaa_queue *q, const struct swai_insn *insns, size_t n,
			const struct sdaa_front *deps, struct sdaa_fence *out);

/* The device address of @q's scratch word (SDAA_POOL_SCRATCH bytes). */
sdaaError_t sdaa_queue_scratch(struct sdaa_queue *q, uint64_t *va);

/* How a waited-for job went. */
struct sdaa_done {
	uint64_t end_ns;		/* modeled end; 0 if unknown */
	uint64_t wall_ns;		/* real time the card spent on it */
};

/* sdaa_wait flags */
#define SDAA_WAIT_HOST	0x1	/* a host wait: advances the modeled host clock */

/*
 * Wait for @f on queue @cg of @xc until CLOCK_MONOTONIC @deadline (0: just
 * look, SDAA_FOREVER).  sdaaSuccess (with @res if not NULL), sdaaErrorNotReady
 * when time ran out, or the job's error (sticky errors are recorded on the
 * card).  Only SDAA_WAIT_HOST waits move the modeled host clock:
 * H = max(H, end + sync).
 */
/* Let the process's last jobs end, 10 s at most (sdaa_lib.c's teardown). */
void sdaa_job_fini(void);
sdaaError_t sdaa_wait(struct sdaa_xcard *xc, int cg, struct sdaa_fence f, int64_t deadline,
		      unsigned int flags, struct sdaa_done *res);
/* Wait for every job of @f; @max_end gets the latest modeled end. */
sdaaError_t sdaa_wait_front(const struct sdaa_front *f, int64_t deadline,
			    unsigned int flags, uint64_t *max_end);

/* --- sdaa_model.c: modeled-time rules, pure --- */

/* The host clock after the host waited for a job that ended at @end. */
uint64_t sdaa_model_after_wait(uint64_t h, uint64_t end, uint32_t sync_ns);
/* Apply that to the atomic clock @h. */
void sdaa_model_advance(uint64_t *h, uint64_t end, uint32_t sync_ns);
/* When an event happened: recorded at host time @h_rec after work ending at @end. */
uint64_t sdaa_model_event_time(uint64_t h_rec, uint64_t end);
/* @t1 - @t0 in milliseconds (negative if @t1 is earlier). */
float sdaa_model_elapsed_ms(uint64_t t0, uint64_t t1);

/* --- sdaa_stream.c --- */

struct sdaa_stream {
	struct sdaa_queue *q;		/* its device */
	unsigned int flags;		/* sdaaStream* */
	int legacy;			/* the device's stream 0 */
	pthread_mutex_t lock;		/* one operation at a time */
	struct sdaa_front front;	/* its work so far */
};

/*
 * Start an operation on @h (NULL: the current device's stream 0): lock it,
 * refuse it if its card has a sticky error, and bring in what it must wait
 * for by the legacy-stream rules.  sdaa_stream_end publishes the stream's
 * new front to its device and unlocks.
 */
sdaaError_t sdaa_stream_begin(sdaaStream_t h, struct sdaa_stream **s);
void sdaa_stream_end(struct sdaa_stream *s);
/* A stream created by the runtime (stream 0 of @q). */
struct sdaa_stream *sdaa_stream_new(struct sdaa_queue *q, unsigned int flags, int legacy);

/*
 * Work of an operation on card @card for stream @s: its dependencies
 * (the stream's front when on the stream's card; otherwise the host waits
 * for the stream first and the work depends on nothing) ...
 */
sdaaError_t sdaa_stream_deps(struct sdaa_stream *s, int card, struct sdaa_front *deps);
/* ... and its result: the stream's new front, or waited for if elsewhere. */
sdaaError_t sdaa_stream_done(struct sdaa_stream *s, const struct sdaa_front *done);

/* --- sdaa_memset.c --- */

/*
 * The program setting @n bytes at @dst to @value, using the 8-byte scratch
 * word at @scratch; written to @out (room for 66), returns its length.
 */
size_t sdaa_memset_program(struct swai_insn *out, uint64_t dst, uint64_t scratch,
			   unsigned char value, uint64_t n);

/* --- sdaa_stage.c: chunked copies through buffer pairs --- */

/* Bytes of chunk @i of a @total-byte copy in chunks of @chunk; *@off its start. */
size_t sdaa_chunk(size_t total, size_t chunk, size_t i, size_t *off);

/* Ready the staging buffers of @q / the Global-HBM bounce buffers of @xc. */
sdaaError_t sdaa_stage_ready(struct sdaa_queue *q);
int sdaa_bounce_ready(struct sdaa_xcard *xc);

/* Pageable @src to device address @dst by queue @q, after @deps; result in @done. */
sdaaError_t sdaa_stage_in(struct sdaa_queue *q, uint64_t dst, const void *src, size_t n,
			  const struct sdaa_front *deps, struct sdaa_front *done);
/* Device address @src to pageable @dst by queue @q; done on return. */
sdaaError_t sdaa_stage_out(struct sdaa_queue *q, void *dst, uint64_t src, size_t n,
			   const struct sdaa_front *deps, struct sdaa_front *done);
/* Queue @a's memory to queue @b's of the same card through @bp. */
sdaaError_t sdaa_bounce(struct sdaa_bufpair *bp, struct sdaa_queue *a, struct sdaa_queue *b,
			uint64_t dst, uint64_t src, size_t n,
			const struct sdaa_front *deps, struct sdaa_front *done);
/* Between two cards through @a's staging buffers; done on return. */
sdaaError_t sdaa_cross_card(struct sdaa_queue *a, struct sdaa_queue *b, uint64_t dst,
			    uint64_t src, size_t n);

/* --- sdaa_host.c / sdaa_memory.c: the runtime's own buffers --- */

/*
 * Pin @size bytes of host memory on the NUMA node of card @near and map it at
 * one device address on every card (@only < 0) or only on card @only.
 */
sdaaError_t sdaa_host_pin(size_t size, int near, int only, void **host, uint64_t *va);
void sdaa_host_unpin(void *host);
/* Pinned memory by host address / by device address: the other address and
 * the bytes left in its buffer from there.
 */
int sdaa_host_range(uintptr_t h, uint64_t *va, uint64_t *avail);
int sdaa_host_of_va(uint64_t va, void **host, uint64_t *avail);
/* Device memory of region @region on card @card, at the runtime's disposal. */
sdaaError_t sdaa_mem_alloc(int card, uint32_t region, uint64_t size, uint64_t *va);
void sdaa_mem_free(uint64_t va);

/* --- sdaa_peer.c --- */

/* Has @from's device enabled peer access to core group @to_cg of its card? */
int sdaa_peer_enabled(const struct sdaa_queue *from, int to_cg);

/* --- sdaa_error.c --- */

/* The runtime error of a job that ended with DRM_SWAI_JOB_ERR_* @code. */
sdaaError_t sdaa_job_error(uint32_t code);
/* Does @err mean the card refuses further work of this process? */
int sdaa_error_is_sticky(sdaaError_t err);

#endif /* SDAA_EXEC_H */
