// SPDX-License-Identifier: MIT
/*
 * swccl_enqueue.c - the host rendezvous of the ranks.
 *
 * Every algorithm moves data between the ranks' own buffers, so each call
 * needs all ranks' arguments: a rank's call, checked by its kind, posts its
 * arguments under the call's sequence number (the n-th call of every rank
 * of a comm is the same call, as in NCCL), and the rank that completes the
 * set plans and launches it for all ranks (swccl_launch.c), in sequence
 * order.  A call returns once it is launched (a host-synchronised one:
 * done), so work the caller queues afterwards on its stream comes after it.
 * A rank that does not join within SWCCL_TIMEOUT fails the call with a
 * message naming it.  With one rank per process (swccl_xproc.c) the set is
 * this process's rank alone; the others meet it on the cards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swccl_kind.h"

struct swccl_inst {
	struct swccl_inst *next;
	uint64_t seq;
	int arrived, consumed;
	bool done, bad;
	swcclResult_t result;
	double posted_at;
	struct swccl_call call;
};

/* One rank's arguments checked by its kind; the rank's part of the call. */
static swcclResult_t check(const struct swccl_op *op, struct swccl_rank *rk)
{
	memset(rk, 0, sizeof(*rk));
	rk->stream = op->stream;
	rk->dev = op->comm->dev;
	rk->cg = op->comm->cg;
	return op->kind->check(op, rk);
}

static struct swccl_inst *inst_find(struct swccl_shared *sh, uint64_t seq, bool create)
{
	struct swccl_inst *i, **pp = &sh->insts;

	for (i = sh->insts; i; i = i->next) {
		if (i->seq == seq)
			return i;
		pp = &i->next;
	}
	if (!create)
		return NULL;
	i = calloc(1, sizeof(*i));
	if (i) {
		i->seq = seq;
		i->posted_at = swccl_now();
		*pp = i;
	}
	return i;
}

/*
 * @b if it is a buffer, else one placed like @like: the same one when the
 * call is @in_place, else apart from it.
 */
static struct swccl_buf stand_in(struct swccl_buf b, const struct swccl_buf *like, bool in_place)
{
	if (b.va || !like->va)
		return b;
	b = *like;
	if (!in_place)
		b.va = like->va ^ (1ULL << 38);		/* not in place: nowhere near */
	return b;
}

/*
 * NCCL's in-place AllGather (ReduceScatter) has a rank's input (output) at
 * its own block of the other buffer: if ours is at block @me, rank @q's is
 * at block @q, not at ours.
 */
static void mirror_own_block(struct swccl_call *c, int me, int q)
{
	uint64_t blk = (uint64_t)c->count * c->esize;
	struct swccl_rank *m = &c->r[me], *r = &c->r[q];

	if (c->coll == SWCCL_ALLGATHER && m->send.va && m->send.va == m->recv.va + me * blk)
		r->send.va = r->recv.va + (uint64_t)q * blk;
	else if (c->coll == SWCCL_REDUCESCATTER && m->recv.va &&
		 m->recv.va == m->send.va + me * blk)
		r->recv.va = r->send.va + (uint64_t)q * blk;
}

/*
 * The ranks of other processes (swccl_xproc.c): their places, and buffers
 * placed like ours -- all a rank's own program needs of them, and what the
 * cost model assumes of them, so that every process makes the same choice
 * from the same call.  A root's buffer that ours lacks (Broadcast's send,
 * Reduce's receive) is placed like the one we have: the same buffer if our
 * caller gave one pointer for both (NCCL's in-place call, which a job's
 * ranks make alike), else apart -- what the root's process knows for sure,
 * and its copy of an input onto itself costs nothing (swccl_rdma_proto.c).
 */
static void mirror_remote(struct swccl_shared *sh, struct swccl_call *c)
{
	struct swccl_rank like;
	bool in_place;
	int me = 0;

	while (me < sh->nranks && sh->comm[me]->remote)
		me++;
	like = c->r[me];
	in_place = like.sp && like.sp == (const void *)like.rp;
	like.send = stand_in(like.send, &c->r[me].recv, in_place);
	like.recv = stand_in(like.recv, &c->r[me].send, in_place);
	for (int q = 0; q < sh->nranks; q++) {
		if (!sh->comm[q]->remote)
			continue;
		c->r[q] = like;
		mirror_own_block(c, me, q);
		c->r[q].pv = NULL;	/* its blocks are its own (swccl_p2p.c) */
		c->r[q].stream = NULL;
		c->r[q].dev = -1;
		c->r[q].cg = sh->comm[q]->cg;
		c->r[q].send.cg = c->r[q].recv.cg = sh->comm[q]->cg;
	}
	c->xremote = true;
}

static void inst_drop(struct swccl_shared *sh, struct swccl_inst *inst)
{
	for (struct swccl_inst **pp = &sh->insts; *pp; pp = &(*pp)->next)
		if (*pp == inst) {
			*pp = inst->next;
			for (int q = 0; q < SWCCL_MAX_RANKS; q++)
				free(inst->call.r[q].pv);
			free(inst);
			return;
		}
}

void swccl_insts_free(struct swccl_shared *sh)
{
	while (sh->insts)
		inst_drop(sh, sh->insts);
}

swcclResult_t swccl_post(const struct swccl_op *op, uint64_t *seq)
{
	swcclComm_t comm = op->comm;
	struct swccl_shared *sh = comm->sh;
	struct swccl_rank rk;
	struct swccl_inst *inst;
	swcclResult_t r = check(op, &rk);

	if (r) {
		free(rk.pv);
		return r;
	}
	pthread_mutex_lock(&sh->mu);
	if (sh->failed) {
		r = swccl_fail(comm, swcclRemoteError, "the communicator failed: %s", sh->failmsg);
		pthread_mutex_unlock(&sh->mu);
		free(rk.pv);
		return r;
	}
	*seq = ++comm->seq;
	inst = inst_find(sh, *seq, true);
	if (!inst) {
		pthread_mutex_unlock(&sh->mu);
		free(rk.pv);
		return swcclSystemError;
	}
	if (!inst->arrived) {
		struct swccl_call *c = &inst->call;

		c->kind = op->kind;
		op->kind->init(c, op);
		c->nranks = sh->nranks;
		c->seq = *seq;
		c->sem = sh->sems_dev;
		c->ldm = sh->ldm;
		c->peer = sh->peer;
		c->tp = sh->tp;
		c->pipeline = (int)swccl_param_long(SWCCL_PARAM_CSC1_CHUNKS);
	} else if (inst->call.kind != op->kind || !op->kind->same(&inst->call, op)) {
		inst->bad = true;
	}
	inst->call.r[comm->rank] = rk;
	if (++inst->arrived == sh->nlocal) {
		if (sh->xproc)
			mirror_remote(sh, &inst->call);
		/* Launch in sequence order: collectives share the semaphores. */
		while (sh->executed != *seq - 1 && !sh->failed)
			pthread_cond_wait(&sh->cv, &sh->mu);
		if (sh->failed)
			inst->result = swcclRemoteError;
		else if (inst->bad)
			inst->result = swccl_fail(comm, swcclInvalidUsage,
						  "call #%llu: the ranks called different "
						  "collectives, counts, types, operators, roots or "
						  "(fused calls) shapes, eps, keep, seed, offset, "
						  "fusion",
						  (unsigned long long)*seq);
		if (!sh->failed && !inst->bad && (inst->call.count || inst->call.kind->empty)) {
			pthread_mutex_unlock(&sh->mu);
			swcclComm_t comm0 = sh->xproc ? comm : sh->comm[0];

			inst->result = sh->execute(sh, &inst->call, comm0);
			if (inst->result && comm0 != comm)
				snprintf(comm->lasterr, sizeof(comm->lasterr), "%s",
					 comm0->lasterr);
			pthread_mutex_lock(&sh->mu);
		}
		inst->done = true;
		if (sh->executed < *seq)
			sh->executed = *seq;
		pthread_cond_broadcast(&sh->cv);
	}
	pthread_mutex_unlock(&sh->mu);
	return swcclSuccess;
}

/* Names of the ranks that have not posted @seq, for the timeout message. */
static void missing(struct swccl_shared *sh, uint64_t seq, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int r = 0; r < sh->nranks && len < n; r++)
		if (!sh->comm[r]->remote && sh->comm[r]->seq < seq)
			len += (size_t)snprintf(buf + len, n - len, "%srank %d (CG %d)",
						len ? ", " : "", r, sh->comm[r]->cg);
}

swcclResult_t swccl_wait(swcclComm_t comm, uint64_t seq)
{
	struct swccl_shared *sh = comm->sh;
	struct swccl_inst *inst;
	swcclResult_t r;
	struct timespec ts;
	double deadline;

	pthread_mutex_lock(&sh->mu);
	inst = inst_find(sh, seq, false);
	if (!inst) {
		pthread_mutex_unlock(&sh->mu);
		return swcclInternalError;
	}
	deadline = inst->posted_at + swccl_timeout_s();
	while (!inst->done && !sh->failed) {
		double now = swccl_now();

		if (now >= deadline) {
			char who[256], msg[512];

			missing(sh, seq, who, sizeof(who));
			snprintf(msg, sizeof(msg),
				 "%s #%llu: rank %d (CG %d) waited SWCCL_TIMEOUT (%.0f s) in the "
				 "host rendezvous (step 0: all ranks call the collective) for %s, "
				 "which never called it", inst->call.kind->name(&inst->call),
				 (unsigned long long)seq, comm->rank, comm->cg, swccl_timeout_s(),
				 who);
			pthread_mutex_unlock(&sh->mu);
			swccl_fail_shared(sh, swcclTimeout, msg);
			return swccl_fail(comm, swcclTimeout, "%s", msg);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&sh->cv, &sh->mu, &ts);
	}
	if (!inst->done) {
		r = swccl_fail(comm, sh->failed == swcclTimeout ? swcclTimeout : swcclRemoteError,
			       "%s", sh->failmsg);
		pthread_mutex_unlock(&sh->mu);
		return r;
	}
	r = inst->result;
	if (r && !sh->xproc && sh->comm[0] != comm)
		snprintf(comm->lasterr, sizeof(comm->lasterr), "%s", sh->comm[0]->lasterr);
	if (++inst->consumed == sh->nlocal)
		inst_drop(sh, inst);
	pthread_mutex_unlock(&sh->mu);
	return r;
}
