// SPDX-License-Identifier: MIT
/*
 * swccl_enqueue.c - the five collectives: argument checks, then the host
 * rendezvous of the ranks.
 *
 * Every algorithm moves data between the ranks' own buffers, so each call
 * needs all ranks' arguments: a rank's call posts its arguments under the
 * collective's sequence number (the n-th collective of every rank of a comm
 * is the same collective, as in NCCL), and the rank that completes the set
 * launches the collective for all ranks (swccl_launch.c), in sequence
 * order.  A call returns once its collective is launched (RING: done), so
 * work the caller queues afterwards on its stream comes after it.  A rank
 * that does not join within SWCCL_TIMEOUT fails the call with a message
 * naming it.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swccl_internal.h"

struct swccl_inst {
	struct swccl_inst *next;
	uint64_t seq;
	int arrived, consumed;
	bool done, bad;
	swcclResult_t result;
	double posted_at;
	struct swccl_call call;
};

static bool reduces(enum swccl_coll c)
{
	return c == SWCCL_REDUCESCATTER || c == SWCCL_ALLREDUCE || c == SWCCL_REDUCE;
}

/* Device address, tier and core group of a user buffer. */
swcclResult_t swccl_buffer(swcclComm_t comm, const void *p, size_t bytes, const char *what,
			   struct swccl_buf *b)
{
	struct sdaaPointerAttributes at;

	memset(b, 0, sizeof(*b));
	if (!p)
		return swccl_fail(comm, swcclInvalidArgument, "%s is NULL", what);
	if (sdaaPointerGetAttributes(&at, p) || at.type == sdaaMemoryTypeUnregistered)
		return swccl_fail(comm, swcclInvalidArgument,
				  "%s %p is not memory of libsdaa (sdaaMalloc, sdaaMallocCross, "
				  "sdaaMallocHost)", what, p);
	if (at.type == sdaaMemoryTypeLocal && at.coreGroup != comm->cg)
		return swccl_fail(comm, swcclInvalidArgument,
				  "%s %p is Local-HBM of CG %d, not of rank %d's CG %d", what, p,
				  at.coreGroup, comm->rank, comm->cg);
	if (at.type != sdaaMemoryTypeHost && at.card != comm->sh->card)
		return swccl_fail(comm, swcclInvalidArgument, "%s %p is on another card", what, p);
	b->va = (uint64_t)(uintptr_t)at.devicePointer;
	b->tier = at.type == sdaaMemoryTypeLocal ? SWCCL_LOCAL :
		  at.type == sdaaMemoryTypeCross ? SWCCL_GLOBAL : SWCCL_HOST;
	b->cg = at.coreGroup;
	b->bytes = bytes;
	return swcclSuccess;
}

/* A stream of the rank's device, or NULL (its legacy stream). */
static swcclResult_t stream_check(swcclComm_t comm, sdaaStream_t stream)
{
	int dev;

	if (!stream)
		return swcclSuccess;
	if (sdaaStreamGetDevice(stream, &dev))
		return swccl_fail(comm, swcclInvalidArgument, "not a stream");
	if (dev != comm->dev)
		return swccl_fail(comm, swcclInvalidUsage,
				  "stream of device %d, rank %d is device %d", dev,
				  comm->rank, comm->dev);
	return swcclSuccess;
}

static swcclResult_t check(const struct swccl_op *op, struct swccl_rank *rk)
{
	swcclComm_t comm = op->comm;
	size_t es = swccl_type_size(op->dtype), n = (size_t)comm->sh->nranks, sb, rb;
	bool root = op->root == comm->rank;
	swcclResult_t r;

	if (op->coll >= SWCCL_NCOLLS) {
		r = stream_check(comm, op->stream);
		if (r)
			return r;
		memset(rk, 0, sizeof(*rk));
		rk->stream = op->stream;
		rk->dev = comm->dev;
		rk->cg = comm->cg;
		return swccl_fused_check(comm, op->coll, &op->f, rk);
	}
	if (!es)
		return swccl_fail(comm, swcclInvalidArgument, "datatype %d", op->dtype);
	if (reduces(op->coll) && (unsigned)op->op >= swcclNumOps)
		return swccl_fail(comm, swcclInvalidArgument, "reduction operator %d", op->op);
	if ((op->coll == SWCCL_BROADCAST || op->coll == SWCCL_REDUCE) &&
	    (op->root < 0 || op->root >= comm->sh->nranks))
		return swccl_fail(comm, swcclInvalidArgument, "root %d of %zu ranks", op->root, n);
	if (op->count > SIZE_MAX / es / n)
		return swccl_fail(comm, swcclInvalidArgument, "count %zu too large", op->count);
	r = stream_check(comm, op->stream);
	if (r)
		return r;
	sb = rb = op->count * es;
	if (op->coll == SWCCL_ALLGATHER)
		rb *= n;
	if (op->coll == SWCCL_REDUCESCATTER)
		sb *= n;
	memset(rk, 0, sizeof(*rk));
	rk->stream = op->stream;
	rk->dev = comm->dev;
	rk->cg = comm->cg;
	if (op->coll != SWCCL_BROADCAST || root) {
		r = swccl_buffer(comm, op->send, sb, "sendbuff", &rk->send);
		if (r)
			return r;
	}
	if (op->coll != SWCCL_REDUCE || root) {
		r = swccl_buffer(comm, op->recv, rb, "recvbuff", &rk->recv);
		if (r)
			return r;
	}
	return swcclSuccess;
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

static void inst_drop(struct swccl_shared *sh, struct swccl_inst *inst)
{
	for (struct swccl_inst **pp = &sh->insts; *pp; pp = &(*pp)->next)
		if (*pp == inst) {
			*pp = inst->next;
			free(inst);
			return;
		}
}

void swccl_insts_free(struct swccl_shared *sh)
{
	while (sh->insts)
		inst_drop(sh, sh->insts);
}

static bool same(const struct swccl_call *c, const struct swccl_op *op)
{
	return c->coll == op->coll && c->count == op->count && c->dtype == op->dtype &&
	       (!reduces(op->coll) || c->op == op->op) && c->root == op->root &&
	       (op->coll < SWCCL_NCOLLS || swccl_fused_same(c, &op->f));
}

swcclResult_t swccl_post(const struct swccl_op *op, uint64_t *seq)
{
	swcclComm_t comm = op->comm;
	struct swccl_shared *sh = comm->sh;
	struct swccl_rank rk;
	struct swccl_inst *inst;
	swcclResult_t r = check(op, &rk);

	if (r)
		return r;
	pthread_mutex_lock(&sh->mu);
	if (sh->failed) {
		r = swccl_fail(comm, swcclRemoteError, "the communicator failed: %s", sh->failmsg);
		pthread_mutex_unlock(&sh->mu);
		return r;
	}
	*seq = ++comm->seq;
	inst = inst_find(sh, *seq, true);
	if (!inst) {
		pthread_mutex_unlock(&sh->mu);
		return swcclSystemError;
	}
	if (!inst->arrived) {
		struct swccl_call *c = &inst->call;

		c->coll = op->coll;
		c->count = op->count;
		c->dtype = op->dtype;
		c->op = reduces(op->coll) ? op->op : swcclSum;
		c->root = op->root;
		c->esize = swccl_type_size(op->dtype);
		c->nranks = sh->nranks;
		c->seq = *seq;
		c->sem = sh->sems_dev;
		c->ldm = sh->ldm;
		c->peer = sh->peer;
		c->tp = sh->tp;
		c->pipeline = getenv("SWCCL_CSC1_CHUNKS") ? atoi(getenv("SWCCL_CSC1_CHUNKS")) : 0;
		c->fz = op->f.fz;
	} else if (!same(&inst->call, op)) {
		inst->bad = true;
	}
	inst->call.r[comm->rank] = rk;
	if (++inst->arrived == sh->nranks) {
		/* Launch in sequence order: collectives share the semaphores. */
		while (sh->executed != *seq - 1 && !sh->failed)
			pthread_cond_wait(&sh->cv, &sh->mu);
		if (sh->failed)
			inst->result = swcclRemoteError;
		else if (inst->bad)
			inst->result = swccl_fail(comm, swcclInvalidUsage,
						  "collective #%llu: the ranks called different "
						  "collectives, counts, types, operators, roots or "
						  "(fused calls) shapes, eps, keep, seed, offset, "
						  "fusion",
						  (unsigned long long)*seq);
		if (!sh->failed && !inst->bad && inst->call.count) {
			pthread_mutex_unlock(&sh->mu);
			inst->result = swccl_execute(sh, &inst->call, sh->comm[0] == comm ?
						     comm : sh->comm[0]);
			if (inst->result && sh->comm[0] != comm)
				snprintf(comm->lasterr, sizeof(comm->lasterr), "%s",
					 sh->comm[0]->lasterr);
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
		if (sh->comm[r]->seq < seq)
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
				 "which never called it", swccl_coll_name(inst->call.coll),
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
	if (r && sh->comm[0] != comm)
		snprintf(comm->lasterr, sizeof(comm->lasterr), "%s", sh->comm[0]->lasterr);
	if (++inst->consumed == sh->nranks)
		inst_drop(sh, inst);
	pthread_mutex_unlock(&sh->mu);
	return r;
}

swcclResult_t swccl_enqueue(struct swccl_op *op)
{
	uint64_t seq;
	swcclResult_t r;

	if (!op->comm)
		return swcclInvalidArgument;
	if (op->comm->dead)
		return swccl_fail(op->comm, swcclInvalidUsage, "the communicator was aborted");
	if (swccl_in_group())
		return swccl_group_add(op);
	r = swccl_post(op, &seq);
	return r ? r : swccl_wait(op->comm, seq);
}

SWCCL_EXPORT swcclResult_t swcclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
					  swcclDataType_t datatype, swcclComm_t comm,
					  sdaaStream_t stream)
{
	struct swccl_op op = { .comm = comm, .coll = SWCCL_ALLGATHER, .send = sendbuff,
			       .recv = recvbuff, .count = sendcount, .dtype = datatype,
			       .op = swcclSum, .stream = stream };

	return swccl_enqueue(&op);
}

SWCCL_EXPORT swcclResult_t swcclReduceScatter(const void *sendbuff, void *recvbuff,
					      size_t recvcount, swcclDataType_t datatype,
					      swcclRedOp_t op, swcclComm_t comm,
					      sdaaStream_t stream)
{
	struct swccl_op o = { .comm = comm, .coll = SWCCL_REDUCESCATTER, .send = sendbuff,
			      .recv = recvbuff, .count = recvcount, .dtype = datatype, .op = op,
			      .stream = stream };

	return swccl_enqueue(&o);
}

SWCCL_EXPORT swcclResult_t swcclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
					  swcclDataType_t datatype, swcclRedOp_t op,
					  swcclComm_t comm, sdaaStream_t stream)
{
	struct swccl_op o = { .comm = comm, .coll = SWCCL_ALLREDUCE, .send = sendbuff,
			      .recv = recvbuff, .count = count, .dtype = datatype, .op = op,
			      .stream = stream };

	return swccl_enqueue(&o);
}

SWCCL_EXPORT swcclResult_t swcclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
					  swcclDataType_t datatype, int root, swcclComm_t comm,
					  sdaaStream_t stream)
{
	struct swccl_op o = { .comm = comm, .coll = SWCCL_BROADCAST, .send = sendbuff,
			      .recv = recvbuff, .count = count, .dtype = datatype, .op = swcclSum,
			      .root = root, .stream = stream };

	return swccl_enqueue(&o);
}

SWCCL_EXPORT swcclResult_t swcclReduce(const void *sendbuff, void *recvbuff, size_t count,
				       swcclDataType_t datatype, swcclRedOp_t op, int root,
				       swcclComm_t comm, sdaaStream_t stream)
{
	struct swccl_op o = { .comm = comm, .coll = SWCCL_REDUCE, .send = sendbuff,
			      .recv = recvbuff, .count = count, .dtype = datatype, .op = op,
			      .root = root, .stream = stream };

	return swccl_enqueue(&o);
}
