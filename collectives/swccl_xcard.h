/* SPDX-License-Identifier: MIT */
/*
 * swccl_xcard.h - collectives between cards: the schedules of the cluster
 * library (tools/cluster/swai-gen.h: RING, MESH1, MESH2, HD, NHR, RB)
 * lowered to one core-group program per rank (swccl_lower.c), timed on the
 * topology (swai-sched-cost.h) and listed as algorithms (swccl_xcard.c).
 */
#ifndef SWCCL_XCARD_H
#define SWCCL_XCARD_H

#include <stddef.h>

#include "swccl_algo.h"
#include "swccl_comm.h"

struct swai_sched;
struct swai_step;

/*
 * @c's schedule under algorithm @name (its generator's): 0, or -1 with
 * @why.  Free with swai_sched_free.
 */
int swccl_xcard_sched(const struct swccl_call *c, const char *name, struct swai_sched *s,
		      char *why, size_t n);

/*
 * swccl_lower.c: the first element of chunk @i of buffers cut into blocks of
 * c->count elements, s->chunks chunks a block (a range of chunks is one run
 * of bytes) -- how every executor of a schedule places its chunks.
 */
uint64_t swccl_chunk_elem(const struct swccl_call *c, const struct swai_sched *s, uint64_t i);
/*
 * swccl_lower.c: where rank @r's chunks [off, off + n) of buffer @b are --
 * *at bytes from the buffer's base, *len bytes -- for every executor of a
 * schedule.  AllToAllv's and Send/Recv's blocks (c->v) are each where the
 * rank's swccl_peers puts it: *at is then its device address (one block).
 */
void swccl_span(const struct swccl_call *c, const struct swai_sched *s, int r, int b,
		uint32_t off, uint32_t n, uint64_t *at, uint64_t *len);
/*
 * swccl_lower.c: @s's sends between ranks of different nodes (c->node), and
 * their bytes: swccl_span's, or @send_bytes's (rank @r's send @st; an
 * AllToAllv's empty ones are no message).
 */
void swccl_internode(const struct swccl_call *c, const struct swai_sched *s,
		     unsigned long long *msgs, unsigned long long *bytes);
void swccl_internode_by(const struct swccl_call *c, const struct swai_sched *s,
			uint64_t (*send_bytes)(const void *o, int r, const struct swai_step *st),
			const void *o, unsigned long long *msgs, unsigned long long *bytes);
/* swccl_lower.c: a schedule as rank @r's program, and its landing area. */
size_t swccl_lower_bytes(const struct swccl_call *c, const struct swai_sched *s);
void swccl_lower(const struct swccl_call *c, const struct swai_sched *s, int **match,
		 int r, struct swai_prog *p);

/*
 * Account the call's messages once its programs are built (calls run in
 * sequence order): the next call's receivers wait for them on top; and
 * put those between nodes in @p.
 */
struct swccl_plan;
void swccl_xcard_done(struct swccl_shared *sh, const struct swccl_call *c,
		      const struct swccl_algo *a, struct swccl_plan *p);
/*
 * What @a takes on @c, us: its lowered programs on the model of the cards
 * (swccl_xcost.c), or if that cannot be built the schedule's estimate on
 * the topology (swai-sched-cost.h); -1 if there is no topology.
 */
double swccl_xcard_cost(struct swccl_shared *sh, const struct swccl_call *c,
			const struct swccl_algo *a);

/* swccl_xcost.c: one engine per card, joined by the device model's fabric. */
struct swccl_xmodel;
struct swccl_sched;
struct swccl_xmodel *swccl_xmodel_new(const struct swccl_call *c, const char *topology,
				      char *why, size_t n);
void swccl_xmodel_free(struct swccl_xmodel *m);
/*
 * The calls @c[0 .. nplanes) with their programs @s[], at once (the planes
 * of one level, each rank r on its own core group of rank r's card): the
 * latest end into *us; 0, or -1 with the reason in @why.
 */
int swccl_xmodel_run(struct swccl_xmodel *m, int nplanes, const struct swccl_call *const *c,
		     const struct swccl_sched *const *s, double *us, char *why, size_t n);
/* The call's view of the comm: across cards or not, ranks' cards, topology. */
void swccl_xcard_topo(struct swccl_shared *sh, struct swccl_call *c);
void swccl_xcard_free(struct swccl_shared *sh);

#endif /* SWCCL_XCARD_H */
