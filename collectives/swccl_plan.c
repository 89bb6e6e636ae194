// SPDX-License-Identifier: MIT
/*
 * swccl_plan.c - the communicator's plans: each call shape is costed once.
 *
 * A plan's cost and choice depend only on the call's shape -- the
 * operation, counts, types, where every buffer is (its tier, owner and
 * address: in-place calls build other programs), the fused shape and the
 * card's parameters -- so they are kept per shape (exact, not bucketed:
 * a prediction is the card's time to the nanosecond) in a small cache with
 * LRU replacement (SWCCL_PLAN_CACHE entries; 0 turns it off).  A training
 * loop's calls all hit it: the model runs once per shape.
 */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_kind.h"
#include "swccl_plan.h"

/*
 * A call's shape, every byte of it defined (memcmp); the ranks' buffers
 * last, so only the ranks a call has are hashed and compared.
 */
struct key {
	const struct swccl_kind *kind;
	int coll, dtype, op, root, nranks, want, pipeline, kinsns, peer, alone;
	size_t count, ldm;
	uint64_t scratch, stage;
	size_t scratch_bytes, stage_bytes;
	struct swccl_fused fz;
	struct sdaaTimingParams tp;
	struct { uint64_t va; size_t bytes; int tier, cg; } b[SWCCL_MAX_RANKS][FB_N + 3];
};

/* The bytes of @k that matter: up to its last rank, whole 8-byte words. */
static size_t key_len(const struct key *k)
{
	return offsetof(struct key, b) + (size_t)k->nranks * sizeof(k->b[0]);
}

struct entry {
	struct key key;
	uint64_t hash, used;
	swcclAlgo_t algo;
	double us, transfer_us;
	bool rdma;			/* AllToAll over RDMA WRITE (swccl_rdma.c) */
	unsigned long long internode_msgs, internode_bytes;
};

struct swccl_plan_cache {
	struct entry *e;
	int n, cap;
	uint64_t clock;
};

static void put_buf(struct key *k, int r, int i, const struct swccl_buf *b)
{
	k->b[r][i].va = b->va;
	k->b[r][i].bytes = b->bytes;
	k->b[r][i].tier = b->tier;
	k->b[r][i].cg = b->cg;
}

static void make_key(const struct swccl_call *c, struct key *k)
{
	memset(k, 0, sizeof(*k));
	k->kind = c->kind;
	k->coll = c->coll;
	k->dtype = c->dtype;
	k->op = c->op;
	k->root = c->root;
	k->nranks = c->nranks;
	k->want = c->want;
	k->pipeline = c->pipeline;
	k->kinsns = c->kinsns;
	k->peer = c->peer;
	k->alone = c->alone;
	k->count = c->count;
	k->ldm = c->ldm;
	for (int r = 0; r < c->nranks; r++) {
		put_buf(k, r, 0, &c->r[r].send);
		put_buf(k, r, 1, &c->r[r].recv);
		put_buf(k, r, 2, &c->r[r].tmp);
		for (int i = 0; i < FB_N; i++)
			put_buf(k, r, 3 + i, &c->r[r].fb[i]);
	}
	k->scratch = c->scratch;
	k->scratch_bytes = c->scratch_bytes;
	k->stage = c->stage;
	k->stage_bytes = c->stage_bytes;
	/* Field by field: the struct's padding stays zero. */
	k->fz.rows = c->fz.rows;
	k->fz.hidden = c->fz.hidden;
	k->fz.n = c->fz.n;
	k->fz.eps = c->fz.eps;
	k->fz.keep = c->fz.keep;
	k->fz.gelu = c->fz.gelu;
	k->fz.seed = c->fz.seed;
	k->fz.offset = c->fz.offset;
	k->fz.fused = c->fz.fused;
	/* The parameters, not the clocks of the moment they were read. */
	k->tp = c->tp;
	k->tp.cardClockNs = k->tp.hostClockNs = k->tp.resets = 0;
}

_Static_assert(offsetof(struct key, b) % 8 == 0 && sizeof(((struct key *)0)->b[0]) % 8 == 0,
	       "keys are whole words");

/* A multiply-xorshift hash of the key's words. */
static uint64_t hash(const struct key *k)
{
	const uint64_t *w = (const uint64_t *)k;
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < key_len(k) / 8; i++) {
		h = (h ^ w[i]) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
	}
	return h;
}

struct swccl_plan_cache *swccl_plan_cache_new(void)
{
	return calloc(1, sizeof(struct swccl_plan_cache));
}

void swccl_plan_cache_free(struct swccl_plan_cache *pc)
{
	if (pc)
		free(pc->e);
	free(pc);
}

bool swccl_plan_lookup(struct swccl_shared *sh, const struct swccl_call *c,
		       struct swccl_plan *p)
{
	struct swccl_plan_cache *pc = sh->plans;
	struct key k;
	uint64_t h;

	if (!pc || !pc->n)
		return false;
	make_key(c, &k);
	h = hash(&k);
	for (int i = 0; i < pc->n; i++) {
		struct entry *e = &pc->e[i];

		if (e->hash != h || memcmp(&e->key, &k, key_len(&k)))
			continue;
		e->used = ++pc->clock;
		p->algo = e->algo;
		p->us = e->us;
		p->transfer_us = e->transfer_us;
		p->rdma = e->rdma;
		p->internode_msgs = e->internode_msgs;
		p->internode_bytes = e->internode_bytes;
		swccl_log(SWCCL_LOG_TRACE, SWCCL_PLAN, "%s #%llu: planned before: %s, %.3f us",
			  c->kind->name(c), (unsigned long long)c->seq, swcclAlgoName(e->algo),
			  e->us);
		return true;
	}
	return false;
}

void swccl_plan_store(struct swccl_shared *sh, const struct swccl_call *c,
		      const struct swccl_plan *p)
{
	struct swccl_plan_cache *pc = sh->plans;
	long max = swccl_param_long(SWCCL_PARAM_PLAN_CACHE);
	struct entry *e;

	if (!pc || max <= 0)
		return;
	if (pc->n < max && pc->n == pc->cap) {
		int cap = pc->cap ? 2 * pc->cap : 8;
		struct entry *ne = realloc(pc->e, (size_t)cap * sizeof(*ne));

		if (!ne)
			return;		/* not remembered: planned again next time */
		pc->e = ne;
		pc->cap = cap;
	}
	if (pc->n < max && pc->n < pc->cap) {
		e = &pc->e[pc->n++];
	} else {
		e = &pc->e[0];	/* the least recently used */
		for (int i = 1; i < pc->n; i++)
			if (pc->e[i].used < e->used)
				e = &pc->e[i];
	}
	make_key(c, &e->key);
	e->hash = hash(&e->key);
	e->used = ++pc->clock;
	e->algo = p->algo;
	e->us = p->us;
	e->transfer_us = p->transfer_us;
	e->rdma = p->rdma;
	e->internode_msgs = p->internode_msgs;
	e->internode_bytes = p->internode_bytes;
}

swcclResult_t swccl_plan_cost(struct swccl_shared *sh, const struct swccl_call *c,
			      const struct swccl_sched *s, size_t extra_scratch,
			      struct swccl_plan *p, swcclComm_t comm0)
{
	struct swccl_cost cost;
	char why[256];

	if (s->nomem)
		return swcclSystemError;
	if (!sh->model)
		sh->model = swccl_model_new(c, NULL);
	if (!sh->model)
		return swccl_fail(comm0, swcclSystemError, "%s: no memory for the cost model",
				  c->kind->name(c));
	if (swccl_model_run(sh->model, c, s, extra_scratch, &cost, why, sizeof(why)))
		return swccl_fail(comm0, swcclInternalError, "%s #%llu (%s): the card's model "
				  "refuses its programs: %s", c->kind->name(c),
				  (unsigned long long)c->seq, p->how ? p->how : "?", why);
	p->us = cost.us;
	p->transfer_us = cost.transfer_us;
	return swcclSuccess;
}
