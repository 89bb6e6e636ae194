/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched.h - the one schedule format (Documentation/cluster.md §3): a
 * collective on N ranks as every rank's ordered steps.
 *
 * A rank's data is cut into chunks; a schedule names chunks, never bytes,
 * so one schedule serves every message size (an executor cuts count
 * elements into nearly equal chunks, as NCCL cuts its slices).  Per rank:
 *   IN       the rank's input: chunks (AllGather, AllReduce, Broadcast,
 *            Reduce) or N * chunks (ReduceScatter, AllToAll);
 *   OUT      its output: chunks, or N * chunks (AllGather, AllToAll);
 *   SCRATCH  what the schedule asks for (scratch_chunks).
 *
 * Steps (MSCCL's s, r, rrc, cpy, re):
 *   SEND         src range -> the peer (the message is the range's value
 *                when the step runs);
 *   RECV         the message from the peer -> dst range;
 *   RECV_REDUCE  dst = src (op) the message from the peer, element-wise,
 *                src first: the order of a reduction is the schedule's, so
 *                results are bitwise reproducible;
 *   COPY         src -> dst on the rank;
 *   REDUCE       dst = dst (op) src on the rank.
 * The k-th SEND from a to b (in a's issue order) is received by the k-th
 * RECV or RECV_REDUCE at b from a, with the same count.  A step runs when
 * the steps it depends on (earlier steps of its rank) have run and, for a
 * receive, when its message has been sent; steps not ordered by
 * dependencies may run at once.  `round` is the algorithm's step number
 * (seed 000's "Step0"): what the step tables group by and what an
 * alpha-beta estimate counts.
 */
#ifndef SWAI_SCHED_H
#define SWAI_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SWAI_SCHED_MAX_RANKS    65536
#define SWAI_SCHED_MAX_CHUNKS   (1u << 24)

enum swai_coll {
    SWAI_COLL_ALLREDUCE,
    SWAI_COLL_REDUCESCATTER,
    SWAI_COLL_ALLGATHER,
    SWAI_COLL_BROADCAST,
    SWAI_COLL_REDUCE,
    SWAI_COLL_ALLTOALL,
    SWAI_COLL_N
};

enum swai_step_op {
    SWAI_STEP_SEND,
    SWAI_STEP_RECV,
    SWAI_STEP_RECV_REDUCE,
    SWAI_STEP_COPY,
    SWAI_STEP_REDUCE,
    SWAI_STEP_N
};

enum swai_buf {
    SWAI_BUF_IN,
    SWAI_BUF_OUT,
    SWAI_BUF_SCRATCH,
    SWAI_BUF_N
};

struct swai_step {
    uint8_t op;                 /* enum swai_step_op */
    uint8_t src_buf, dst_buf;   /* enum swai_buf (unused side: 0) */
    uint8_t pad;
    int32_t peer;               /* SEND: to; RECV*: from; else -1 */
    uint32_t src_off, dst_off;  /* in chunks */
    uint32_t count;             /* chunks, >= 1 */
    uint32_t round;
    uint32_t ndeps, deps_at;    /* rank's deps[deps_at .. + ndeps) */
};

struct swai_sched_rank {
    int nsteps, cap;
    struct swai_step *steps;
    uint32_t ndeps, depcap;
    uint32_t *deps;             /* indices of earlier steps */
};

struct swai_sched {
    char name[32];              /* the algorithm: "RING", "NHR", ... */
    enum swai_coll coll;
    int nranks;
    int root;                   /* Broadcast, Reduce; else 0 */
    uint32_t chunks;            /* see the top of this file */
    uint32_t in_chunks, out_chunks, scratch_chunks;
    struct swai_sched_rank *ranks;
    int err;                    /* sticky: the first builder error */
};

const char *swai_coll_name(enum swai_coll c);      /* "allreduce" */
int swai_coll_parse(const char *name);             /* or -1 */
const char *swai_step_op_name(enum swai_step_op op); /* "send" */
bool swai_coll_reduces(enum swai_coll c);

/*
 * An empty schedule of @coll on @nranks ranks whose per-rank data is
 * @chunks chunks (IN and OUT sized from them).  0, -EINVAL or -ENOMEM.
 */
int swai_sched_init(struct swai_sched *s, const char *name,
                    enum swai_coll coll, int nranks, int root,
                    uint32_t chunks);
void swai_sched_free(struct swai_sched *s);
/* A deep copy of @src into *dst (free with swai_sched_free): 0 or -ENOMEM. */
int swai_sched_clone(struct swai_sched *dst, const struct swai_sched *src);
/* Buffer sizes in chunks. */
uint32_t swai_sched_buf_chunks(const struct swai_sched *s, enum swai_buf b);

/*
 * Append @st to @rank's steps (ndeps/deps_at ignored): its index, or -1
 * (s->err set; builders check once at the end).
 */
int swai_sched_add(struct swai_sched *s, int rank, const struct swai_step *st);
/* Shorthands for swai_sched_add (peer -1 for the local steps). */
int swai_sched_send(struct swai_sched *s, int rank, int to, int buf,
                    uint32_t off, uint32_t count, uint32_t round);
int swai_sched_recv(struct swai_sched *s, int rank, int from, int buf,
                    uint32_t off, uint32_t count, uint32_t round);
int swai_sched_recv_reduce(struct swai_sched *s, int rank, int from,
                           int src_buf, uint32_t src_off, int dst_buf,
                           uint32_t dst_off, uint32_t count, uint32_t round);
int swai_sched_copy(struct swai_sched *s, int rank, int src_buf,
                    uint32_t src_off, int dst_buf, uint32_t dst_off,
                    uint32_t count, uint32_t round);
int swai_sched_reduce(struct swai_sched *s, int rank, int src_buf,
                      uint32_t src_off, int dst_buf, uint32_t dst_off,
                      uint32_t count, uint32_t round);
/* Step @step of @rank also waits for its earlier step @on. */
void swai_sched_dep(struct swai_sched *s, int rank, int step, int on);
/*
 * Add every dependency that data needs, in issue order: a step depends on
 * the last earlier step that wrote a chunk it reads or writes, and on the
 * steps that read a chunk since it was last written, if it writes it.
 * What generators call instead of listing dependencies by hand.
 */
int swai_sched_autodeps(struct swai_sched *s);

/*
 * The schedule is well formed: ranges inside their buffers, peers valid,
 * dependencies on earlier steps, every send received with the same
 * count.  0 or -EINVAL with the first problem in @why.
 */
int swai_sched_validate(const struct swai_sched *s, char *why, size_t n);

/*
 * For every receive, the index of the send it gets at its peer:
 * (*match)[r][i], -1 for the other steps; free with swai_sched_match_free.
 * 0, or -EINVAL (a send nobody receives, a count that differs, a receive
 * with no send left) with @why, or -ENOMEM.
 */
int swai_sched_match(const struct swai_sched *s, int ***match, char *why,
                     size_t n);
void swai_sched_match_free(const struct swai_sched *s, int **match);

/*
 * May the sender write RECV @j of rank @b straight into its destination
 * (@match from swai_sched_match)?  When every step of @b that touches that
 * range before the receive happens before the sender's SEND starts -- so
 * nothing of @b still uses it when the bytes land; later steps depend on
 * the receive -- as NHR's AllGather gets back the chunks its ReduceScatter
 * forwarded.  Saves the copy out of the landing slot (swai-sched-direct.c).
 */
bool swai_sched_direct(const struct swai_sched *s, int **match, int b, int j);

/*
 * swai-coll-size.c: nccl-tests' busbw factor of @c on @nranks ranks, and
 * the bytes of one block (what the schedule's chunks cut) of a call whose
 * nccl-tests size is @size (the whole output of AllGather, the input of
 * ReduceScatter and AllToAll, the buffer of the others).
 */
double swai_coll_bus_factor(enum swai_coll c, int nranks);
uint64_t swai_coll_block_bytes(enum swai_coll c, int nranks, uint64_t size);

/*
 * swai-sched-traffic.c: the sends of @s between ranks on different nodes
 * (@node_of[rank]), and the chunks they carry.
 */
void swai_sched_internode(const struct swai_sched *s, const int *node_of,
                          uint64_t *msgs, uint64_t *chunks);

/*
 * swai-sched-order.c: the order rank @rk issues its steps in, into
 * @order[0 .. nsteps): dependencies first, steps that cannot block before
 * receives that wait, sends to a peer and receives from it in the
 * schedule's order.  libswccl's programs and the simulator's actors both
 * run a rank in it.  0, -ENOMEM, or -EINVAL for steps that wait on each
 * other in a circle (swai_sched_validate refuses such a schedule).
 */
int swai_sched_issue_order(const struct swai_sched_rank *rk, int *order);
/*
 * swai-sched-order.c: pin every rank's issue order to its listed order --
 * each step that is not a receive also depends on the receive listed
 * before it, so nothing is issued ahead of a wait.  For a schedule timed
 * step by step (swccl-synth --card), after swai_sched_autodeps.  0 or
 * -ENOMEM (s->err).
 */
int swai_sched_pin_order(struct swai_sched *s);

/*
 * swai-sched-check.c: run the schedule symbolically (every chunk's value
 * a fingerprint of the contributions it holds) in two orders, earliest
 * step first and latest step first among those ready, and check the
 * result is the collective's, with each contribution counted once.
 * Finds wrong data, double counting, missing dependencies and deadlocks.
 * 0 or -EINVAL with what went wrong in @why.
 */
int swai_sched_verify(const struct swai_sched *s, char *why, size_t n);

/*
 * swai-sched-table.c: print the steps as seed 000's tables, one line per
 * round: "step 0: 3->2[0,2] 0->3[1,3] ..." (sends, the sender's chunk
 * indices); local steps are left out.
 */
int swai_sched_print_table(const struct swai_sched *s, FILE *f);
/*
 * The most contiguous pieces any rank sends to one peer in one round, per
 * round (pieces[] of s's rounds; returns the number of rounds, or -1).
 */
int swai_sched_pieces(const struct swai_sched *s, int *pieces, int max);
/* How many rounds the schedule has (largest round + 1). */
int swai_sched_rounds(const struct swai_sched *s);

/*
 * swai-sched-json.c: the native file format, read and written with
 * jansson.  0 or -errno with the place of the problem in @why.
 */
char *swai_sched_dump(const struct swai_sched *s);
int swai_sched_parse(struct swai_sched *s, const char *json, char *why,
                     size_t n);
/*
 * swai-sched-load.c: read the file @path -- MSCCL's XML if its name ends
 * in .xml, else the native JSON.  0 or -errno with the reason in @why.
 */
int swai_sched_load(struct swai_sched *s, const char *path, char *why,
                    size_t n);

#endif /* SWAI_SCHED_H */
