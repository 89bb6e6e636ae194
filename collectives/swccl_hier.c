// SPDX-License-Identifier: MIT
/*
 * swccl_hier.c - a communicator of G core groups on each of K cards, run
 * in levels (swccl_hier.h), as HCCL composes a server's levels:
 *
 *   AllReduce      card ReduceScatter -> plane AllReduce on the shard ->
 *                  card AllGather (the count's last count % G elements:
 *                  card AllReduce -> plane AllReduce);
 *   ReduceScatter  reorder the input plane by plane -> card ReduceScatter
 *                  (each slot gets its plane's K blocks, summed over the
 *                  card) -> plane ReduceScatter;
 *   AllGather      plane AllGather -> card AllGather -> reorder into rank
 *                  order;
 *   Broadcast      the root's plane -> every card from the root's slot;
 *   Reduce         every card to the root's slot -> the root's plane;
 *   AllToAll       reorder plane by plane -> card AllToAll -> turn card
 *                  by card -> plane AllToAll -> reorder into rank order
 *                  (AllToAllv, Send/Recv: the same, blocks of their sizes)
 *                  (seed 002's planes, a card a node).
 *
 * A level is a collective of the level's own communicators, posted for
 * their ranks from here; each rank's step goes to the rank's own stream,
 * so a rank's levels follow one another and the levels of different
 * ranks meet on the cards (barriers within a card, counters between
 * cards) -- the host waits for nothing.  The reorderings are one program
 * of copies per rank, in the rank's Local-HBM scratch.  The reduction
 * order is the levels' (card first, then plane): fixed, so results are
 * reproducible bit for bit; Avg divides at each level by G then K, exact
 * for G a power of two.  Within a card the levels use CSC (host-free);
 * between cards the comm's algorithm if it is one of theirs, else AUTO.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swccl_algo.h"
#include "swccl_hier.h"
#include "swccl_kind.h"
#include "swccl_plan.h"

#define MAX_INSNS ((int)(SWAI_PROGRAM_MAX_BYTES / sizeof(struct swai_insn)))

int swccl_hier_layout(struct swccl_hier *h, const int *card, int n, char *why, size_t len)
{
	int seen[SWCCL_MAX_RANKS], count[SWCCL_MAX_RANKS] = { 0 };

	h->ncards = 0;
	for (int r = 0; r < n; r++) {
		int k = 0;

		while (k < h->ncards && seen[k] != card[r])
			k++;
		if (k == h->ncards)
			seen[h->ncards++] = card[r];
		h->card_of[r] = k;
		h->slot_of[r] = count[k];
		h->rank_at[k][count[k]++] = r;
	}
	h->per_card = count[0];
	for (int k = 1; k < h->ncards; k++)
		if (count[k] != h->per_card) {
			snprintf(why, len, "card %d has %d ranks, card %d %d: no levels (they need "
				 "as many core groups on each card)", seen[0], count[0], seen[k],
				 count[k]);
			return -1;
		}
	return 0;
}

/* One level's step: @n ops already filled but for their comm. */
struct level {
	swcclComm_t *comm;	/* the level's communicator, its ranks in order */
	int n;
	struct swccl_op op[SWCCL_MAX_RANKS];
};

static void level_init(struct level *l, swcclComm_t *comm, int n, enum swccl_coll coll,
		       const struct swccl_call *c, size_t count, int root)
{
	memset(l, 0, sizeof(*l));
	l->comm = comm;
	l->n = n;
	for (int i = 0; i < n; i++)
		l->op[i] = (struct swccl_op){ .comm = comm[i], .kind = &swccl_kind_coll,
					      .coll = coll, .count = count, .dtype = c->dtype,
					      .op = c->op, .root = root };
}

/* Per phase: the slowest level's prediction, every launch. */
struct tally {
	double phase_us, us;
	double launch_us;	/* a job's launch cost (each level's prediction has one) */
	double serial_us;	/* the phase's host-synchronous levels, one after another */
	int phases;		/* phases with work so far */
	bool waited, waits;	/* the host waits for the phase before (for this one) */
	int launches, host_syncs;
	swcclAlgo_t between;
};

/* Post the step of every rank of the level (between cards: @xcard), then take its result. */
static swcclResult_t level_run(struct level *l, swcclAlgo_t algo, bool xcard, struct tally *t,
			       swcclComm_t comm0)
{
	uint64_t seq[SWCCL_MAX_RANKS] = { 0 };
	swcclResult_t res = swcclSuccess, r;

	for (int i = 0; i < l->n; i++) {
		l->comm[i]->algo = algo;
		r = swccl_post(&l->op[i], &seq[i]);
		if (r && !res)
			res = swccl_fail(comm0, r, "level of %d ranks: %s", l->n,
					 l->comm[i]->lasterr);
	}
	for (int i = 0; i < l->n; i++) {
		if (!seq[i])
			continue;
		r = swccl_wait(l->comm[i], seq[i]);
		if (r && !res)
			res = swccl_fail(comm0, r, "level of %d ranks: %s", l->n,
					 l->comm[i]->lasterr);
	}
	if (!res) {
		const struct swcclCallInfo *in = &l->comm[0]->last;

		const struct swccl_algo *a = swccl_algo_find_for(l->op[0].coll, in->algo, xcard);
		bool sync = a && (a->props & SWCCL_ALGO_HOST_SYNC);

		/*
		 * A host-synchronous call returns when its card is done (+ t_sync),
		 * so the host posts the next level of the phase only then: the
		 * phase's such levels run one after another.
		 */
		if (sync)
			t->serial_us += in->predicted_us;
		else if (in->predicted_us > t->phase_us)
			t->phase_us = in->predicted_us;
		t->launches += in->launches * l->n;
		t->host_syncs += in->host_syncs;
		t->waits |= sync;
	}
	return res;
}

/*
 * A phase's levels are queued on the ranks' streams behind the previous
 * phase's, at the same host time (launching does not move libsdaa's host
 * clock), so only the first phase pays the launch: a later one starts when
 * the one before it ends -- unless the host waited for that one (a level
 * of a host-synchronous algorithm, whose prediction ends at the host's
 * time): then this one is launched only then.  A phase of host-synchronous
 * levels (one card's DIRECT AllToAll on each card) costs their sum: the
 * first queued behind the phase before, each other launched when the host
 * has learnt that the one before it ended (2 x 4 AllToAll of 1 KiB: 278.1
 * us, predicted exactly; it was 218.1 with their maximum).
 */
static void phase_end(struct tally *t)
{
	double us = t->serial_us > t->phase_us ? t->serial_us : t->phase_us;

	if (us > 0) {
		t->us += t->phases++ && !t->waited ? us - t->launch_us : us;
		t->waited = t->waits;
	}
	t->waits = false;
	t->phase_us = t->serial_us = 0;
}

/* A card's level with CSC, or whatever the card's comm chooses if CSC cannot. */
static swcclResult_t card_run(struct level *l, struct tally *t, swcclComm_t comm0)
{
	swcclResult_t r;

	/* CSC has no AllToAll: straight to the card's choice (DIRECT) */
	if (l->op[0].coll == SWCCL_ALLTOALL)
		return level_run(l, swcclAlgoAuto, false, t, comm0);
	r = level_run(l, swcclAlgoCsc, false, t, comm0);
	return r == swcclInvalidUsage ? level_run(l, swcclAlgoAuto, false, t, comm0) : r;
}

static swcclResult_t plane_run(struct level *l, struct tally *t, swcclComm_t comm0)
{
	swcclResult_t r = level_run(l, t->between, true, t, comm0);

	if (!r)
		t->between = l->comm[0]->last.algo;
	return r;
}

static const void *cat(const void *p, size_t off)
{
	return p ? (const char *)p + off : NULL;
}

static void *at(void *p, size_t off)
{
	return p ? (char *)p + off : NULL;
}

/*
 * A stage of copies: one program a rank, kept card by card so that each
 * card's engine times its ranks' programs together (swccl_cost.c) -- the
 * copies share the card's ports as they do when they run.
 */
struct stage {
	struct swccl_sched card[SWCCL_MAX_RANKS];	/* [k]: its G ranks, one phase */
	int ncards;
};

static void stage_init(struct stage *st, const struct swccl_hier *h)
{
	st->ncards = h->ncards;
	for (int k = 0; k < h->ncards; k++) {
		swccl_sched_init(&st->card[k], h->per_card, false);
		swccl_sched_phase(&st->card[k]);
	}
}

/* Rank @r's program of stage @st, or NULL without memory. */
static struct swai_prog *stage_prog(struct stage *st, const struct swccl_hier *h, int r)
{
	struct swccl_sched *s = &st->card[h->card_of[r]];

	return s->nphases ? swai_progs_add(swccl_sched_jobs(s, 0, h->slot_of[r])) : NULL;
}

/* The span of a rank's AllToAllv blocks @b (its @n peers'), for the model to map. */
static struct swccl_buf span(const struct swccl_buf *b, const size_t *cnt, int n)
{
	struct swccl_buf out = { 0 };
	uint64_t end = 0;

	for (int q = 0; q < n; q++) {
		if (!cnt[q])
			continue;
		if (!out.bytes || b[q].va < out.va) {
			end = out.bytes ? out.va + out.bytes : 0;
			out = b[q];
		}
		end = b[q].va + b[q].bytes > end ? b[q].va + b[q].bytes : end;
		out.bytes = end - out.va;
	}
	return out;
}

/* The stage's time, its slowest card's, into the tally; the stage freed. */
static void stage_end(struct stage *st, const struct swccl_hier *h, const struct swccl_call *c,
		      struct tally *t)
{
	struct swccl_call *one = malloc(sizeof(*one));
	struct swccl_cost cost;
	char why[256];

	for (int k = 0; k < st->ncards; k++) {
		struct swccl_model *m = NULL;

		if (one && !st->card[k].nomem) {
			*one = *c;
			one->nranks = h->per_card;
			for (int j = 0; j < h->per_card; j++) {
				const struct swccl_rank *rk = &c->r[h->rank_at[k][j]];

				one->r[j] = *rk;
				one->r[j].pv = NULL;
				if (rk->pv) {	/* AllToAllv: its blocks, wherever they are */
					one->r[j].send = span(rk->pv->send, rk->pv->send_n, c->nranks);
					one->r[j].recv = span(rk->pv->recv, rk->pv->recv_n, c->nranks);
				}
			}
			m = swccl_model_new(one, NULL);
		}
		if (m && !swccl_model_run(m, one, &st->card[k], 0, &cost, why, sizeof(why)) &&
		    cost.us > t->phase_us)
			t->phase_us = cost.us;
		swccl_model_free(m);
		swccl_sched_free(&st->card[k]);
	}
	free(one);
	phase_end(t);
}

/* Rank @r's @n copies of len[i] bytes from src[i] to dst[i]: program @p, on its stream. */
static swcclResult_t copies(const struct swccl_call *c, int r, int n, const uint64_t *dst,
			    const uint64_t *src, const uint64_t *len, struct swai_prog *p,
			    swcclComm_t comm0)
{
	sdaaError_t e = p ? sdaaSuccess : sdaaErrorMemoryAllocation;

	for (int i = 0; p && i < n; i++)
		if (len[i])
			prog_copy(p, dst[i], src[i], len[i]);
	if (!e && (p->nomem || p->n > MAX_INSNS))
		e = sdaaErrorInvalidValue;
	if (!e)
		e = sdaaSetDevice(c->r[r].dev);
	if (!e && p->n)
		e = sdaaLaunchProgram(p->in, (size_t)p->n, c->r[r].stream);
	if (e)
		return swccl_fail(comm0, swcclUnhandledSdaaError, "rank %d: reordering %d "
				  "blocks: %s", r, n, sdaaGetErrorString(e));
	return swcclSuccess;
}

/* Rank @r's @n blocks of @bytes from @src to @dst: block i from block from[i]; program @p. */
static swcclResult_t permute(const struct swccl_call *c, int r, uint64_t dst, uint64_t src,
			     size_t bytes, int n, const int *from, struct swai_prog *p,
			     swcclComm_t comm0)
{
	uint64_t d[SWCCL_MAX_RANKS], s[SWCCL_MAX_RANKS], len[SWCCL_MAX_RANKS];

	for (int i = 0; i < n; i++) {
		d[i] = dst + (uint64_t)i * bytes;
		s[i] = src + (uint64_t)from[i] * bytes;
		len[i] = bytes;
	}
	return copies(c, r, n, d, s, len, p, comm0);
}

/*
 * Rank @r's blocks of @bytes from @src to @dst: block (j, k) of the
 * plane-major order is block rank_at[k][j] of the rank order; @to_plane
 * says which way.
 */
static swcclResult_t reorder(const struct swccl_hier *h, const struct swccl_call *c, int r,
			     uint64_t dst, uint64_t src, size_t bytes, bool to_plane,
			     struct swai_prog *p, swcclComm_t comm0)
{
	int from[SWCCL_MAX_RANKS];

	for (int j = 0; j < h->per_card; j++)
		for (int k = 0; k < h->ncards; k++) {
			int pm = j * h->ncards + k, rk = h->rank_at[k][j];

			from[to_plane ? pm : rk] = to_plane ? rk : pm;
		}
	return permute(c, r, dst, src, bytes, c->nranks, from, p, comm0);
}

static swcclResult_t allreduce(const struct swccl_hier *h, const struct swccl_call *c,
			       struct tally *t, swcclComm_t comm0)
{
	int K = h->ncards, G = h->per_card;
	size_t q = c->count / (size_t)G, rem = c->count % (size_t)G, e = c->esize;
	struct level l;
	swcclResult_t res = swcclSuccess;

	for (int k = 0; q && k < K && !res; k++) {
		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_REDUCESCATTER, c, q, 0);
		for (int j = 0; j < G; j++) {
			const struct swccl_rank *rk = &c->r[h->rank_at[k][j]];

			l.op[j].send = rk->sp;
			l.op[j].recv = at(rk->rp, (size_t)j * q * e);
			l.op[j].stream = rk->stream;
		}
		res = card_run(&l, t, comm0);
	}
	phase_end(t);
	for (int j = 0; q && j < G && !res; j++) {
		level_init(&l, (swcclComm_t *)h->plane[j], K, SWCCL_ALLREDUCE, c, q, 0);
		for (int k = 0; k < K; k++) {
			const struct swccl_rank *rk = &c->r[h->rank_at[k][j]];

			l.op[k].send = l.op[k].recv = at(rk->rp, (size_t)j * q * e);
			l.op[k].stream = rk->stream;
		}
		res = plane_run(&l, t, comm0);
	}
	phase_end(t);
	for (int k = 0; q && k < K && !res; k++) {
		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_ALLGATHER, c, q, 0);
		for (int j = 0; j < G; j++) {
			const struct swccl_rank *rk = &c->r[h->rank_at[k][j]];

			l.op[j].send = at(rk->rp, (size_t)j * q * e);
			l.op[j].recv = rk->rp;
			l.op[j].stream = rk->stream;
		}
		res = card_run(&l, t, comm0);
	}
	phase_end(t);
	/* The last count % G elements: a card AllReduce, then every plane's. */
	for (int k = 0; rem && k < K && !res; k++) {
		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_ALLREDUCE, c, rem, 0);
		for (int j = 0; j < G; j++) {
			const struct swccl_rank *rk = &c->r[h->rank_at[k][j]];

			l.op[j].send = cat(rk->sp, (size_t)G * q * e);
			l.op[j].recv = at(rk->rp, (size_t)G * q * e);
			l.op[j].stream = rk->stream;
		}
		res = card_run(&l, t, comm0);
	}
	phase_end(t);
	for (int j = 0; rem && j < G && !res; j++) {
		level_init(&l, (swcclComm_t *)h->plane[j], K, SWCCL_ALLREDUCE, c, rem, 0);
		for (int k = 0; k < K; k++) {
			const struct swccl_rank *rk = &c->r[h->rank_at[k][j]];

			l.op[k].send = l.op[k].recv = at(rk->rp, (size_t)G * q * e);
			l.op[k].stream = rk->stream;
		}
		res = plane_run(&l, t, comm0);
	}
	phase_end(t);
	return res;
}

static swcclResult_t reducescatter(struct swccl_shared *sh, const struct swccl_hier *h,
				   struct swccl_call *c, struct tally *t, swcclComm_t comm0)
{
	int K = h->ncards, G = h->per_card, N = c->nranks;
	size_t q = c->count, e = c->esize, blk = q * e;
	struct level l;
	swcclResult_t res = swccl_tmp(sh, c, ((size_t)N + (size_t)K) * blk, comm0);
	struct stage st;

	stage_init(&st, h);
	for (int r = 0; r < N && !res; r++)
		res = reorder(h, c, r, c->r[r].tmp.va, c->r[r].send.va, blk, true,
			      stage_prog(&st, h, r), comm0);
	stage_end(&st, h, c, t);
	for (int k = 0; k < K && !res; k++) {
		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_REDUCESCATTER, c,
			   (size_t)K * q, 0);
		for (int j = 0; j < G; j++) {
			int r = h->rank_at[k][j];

			l.op[j].send = sh->tmp[r];
			l.op[j].recv = at(sh->tmp[r], (size_t)N * blk);
			l.op[j].stream = c->r[r].stream;
		}
		res = card_run(&l, t, comm0);
	}
	phase_end(t);
	for (int j = 0; j < G && !res; j++) {
		level_init(&l, (swcclComm_t *)h->plane[j], K, SWCCL_REDUCESCATTER, c, q, 0);
		for (int k = 0; k < K; k++) {
			int r = h->rank_at[k][j];

			l.op[k].send = at(sh->tmp[r], (size_t)N * blk);
			l.op[k].recv = c->r[r].rp;
			l.op[k].stream = c->r[r].stream;
		}
		res = plane_run(&l, t, comm0);
	}
	phase_end(t);
	return res;
}

static swcclResult_t allgather(struct swccl_shared *sh, const struct swccl_hier *h,
			       struct swccl_call *c, struct tally *t, swcclComm_t comm0)
{
	int K = h->ncards, G = h->per_card, N = c->nranks;
	size_t q = c->count, e = c->esize, blk = q * e;
	struct stage st;
	struct level l;
	swcclResult_t res = swccl_tmp(sh, c, ((size_t)N + (size_t)K) * blk, comm0);

	for (int j = 0; j < G && !res; j++) {
		level_init(&l, (swcclComm_t *)h->plane[j], K, SWCCL_ALLGATHER, c, q, 0);
		for (int k = 0; k < K; k++) {
			int r = h->rank_at[k][j];

			l.op[k].send = c->r[r].sp;
			l.op[k].recv = at(sh->tmp[r], (size_t)N * blk);
			l.op[k].stream = c->r[r].stream;
		}
		res = plane_run(&l, t, comm0);
	}
	phase_end(t);
	for (int k = 0; k < K && !res; k++) {
		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_ALLGATHER, c, (size_t)K * q, 0);
		for (int j = 0; j < G; j++) {
			int r = h->rank_at[k][j];

			l.op[j].send = at(sh->tmp[r], (size_t)N * blk);
			l.op[j].recv = sh->tmp[r];
			l.op[j].stream = c->r[r].stream;
		}
		res = card_run(&l, t, comm0);
	}
	phase_end(t);
	stage_init(&st, h);
	for (int r = 0; r < N && !res; r++)
		res = reorder(h, c, r, c->r[r].recv.va, c->r[r].tmp.va, blk, false,
			      stage_prog(&st, h, r), comm0);
	stage_end(&st, h, c, t);
	return res;
}

/*
 * AllToAll as seed 002's planes, a card a node: blocks reordered plane by
 * plane (A); the card's AllToAll gives slot j every block its card's
 * ranks have for plane j (B, from slot i: i's K blocks); those turned
 * card by card (C); plane j's AllToAll of G blocks a card (into A, from
 * card k: the blocks of k's slots); A back into rank order.  Between the
 * cards a message carries G blocks, so there are G^2 times fewer.
 */
static swcclResult_t alltoall(struct swccl_shared *sh, const struct swccl_hier *h,
			      struct swccl_call *c, struct tally *t, swcclComm_t comm0)
{
	int K = h->ncards, G = h->per_card, N = c->nranks, turn[SWCCL_MAX_RANKS];
	int back[SWCCL_MAX_RANKS];
	size_t q = c->count, blk = q * c->esize, nblk = (size_t)N * blk;
	struct stage st;
	struct level l;
	swcclResult_t res = swccl_tmp(sh, c, 3 * nblk, comm0);

	for (int k = 0; k < K; k++)
		for (int i = 0; i < G; i++) {
			turn[k * G + i] = i * K + k;	/* C[k G + i] = B[i K + k] */
			back[h->rank_at[k][i]] = k * G + i;
		}
	stage_init(&st, h);
	for (int r = 0; r < N && !res; r++)
		res = reorder(h, c, r, c->r[r].tmp.va, c->r[r].send.va, blk, true,
			      stage_prog(&st, h, r), comm0);
	stage_end(&st, h, c, t);
	for (int k = 0; k < K && !res; k++) {
		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_ALLTOALL, c, (size_t)K * q, 0);
		for (int j = 0; j < G; j++) {
			int r = h->rank_at[k][j];

			l.op[j].send = sh->tmp[r];
			l.op[j].recv = at(sh->tmp[r], nblk);
			l.op[j].stream = c->r[r].stream;
		}
		res = card_run(&l, t, comm0);
	}
	phase_end(t);
	stage_init(&st, h);
	for (int r = 0; r < N && !res; r++)
		res = permute(c, r, c->r[r].tmp.va + 2 * nblk, c->r[r].tmp.va + nblk, blk, N,
			      turn, stage_prog(&st, h, r), comm0);
	stage_end(&st, h, c, t);
	for (int j = 0; j < G && !res; j++) {
		level_init(&l, (swcclComm_t *)h->plane[j], K, SWCCL_ALLTOALL, c, (size_t)G * q, 0);
		for (int k = 0; k < K; k++) {
			int r = h->rank_at[k][j];

			l.op[k].send = at(sh->tmp[r], 2 * nblk);
			l.op[k].recv = sh->tmp[r];
			l.op[k].stream = c->r[r].stream;
		}
		res = plane_run(&l, t, comm0);
	}
	phase_end(t);
	stage_init(&st, h);
	for (int r = 0; r < N && !res; r++)
		res = permute(c, r, c->r[r].recv.va, c->r[r].tmp.va, blk, N, back,
			      stage_prog(&st, h, r), comm0);
	stage_end(&st, h, c, t);
	return res;
}

/* Elements rank @x sends rank @y in an AllToAllv (its receiver's count: every rank's is here). */
static size_t vn(const struct swccl_call *c, int x, int y)
{
	return c->r[y].pv->recv_n[x];
}

/* Elements card @k's slot @i sends plane @j, over all cards: what its card level carries. */
static size_t to_plane(const struct swccl_hier *h, const struct swccl_call *c, int k, int i, int j)
{
	size_t n = 0;

	for (int m = 0; m < h->ncards; m++)
		n += vn(c, h->rank_at[k][i], h->rank_at[m][j]);
	return n;
}

/* Elements card @k's slots send card @kk's slot @j: what plane j's level carries. */
static size_t to_card(const struct swccl_hier *h, const struct swccl_call *c, int k, int kk, int j)
{
	size_t n = 0;

	for (int m = 0; m < h->per_card; m++)
		n += vn(c, h->rank_at[k][m], h->rank_at[kk][j]);
	return n;
}

/*
 * Op @i of level @l: an AllToAllv of @n peers, @sn[q] elements to peer q
 * from @tmp + @so on, @rn[q] from it into @tmp + @ro on, in peer order.
 */
static void v_op(struct level *l, int i, struct swccl_peers *pv, void *tmp, uint64_t so,
		 uint64_t ro, const size_t *sn, const size_t *rn, int n, size_t es,
		 sdaaStream_t stream)
{
	memset(pv, 0, sizeof(*pv));
	for (int q = 0; q < n; q++) {
		pv->send_n[q] = sn[q];
		pv->sp[q] = cat(tmp, so);
		so += sn[q] * es;
		pv->recv_n[q] = rn[q];
		pv->rp[q] = at(tmp, ro);
		ro += rn[q] * es;
	}
	l->op[i].kind = &swccl_kind_p2p;
	l->op[i].pv = pv;
	l->op[i].stream = stream;
}

/* Does a level of @n ranks' blocks @pv move nothing (a ring of Send/Recv's planes, say)? */
static bool moves_nothing(const struct swccl_peers *pv, int n)
{
	for (int i = 0; i < n; i++)
		for (int q = 0; q < n; q++)
			if (pv[i].send_n[q] || pv[i].recv_n[q])
				return false;
	return true;
}

/*
 * AllToAllv as alltoall() goes, with blocks of their own sizes: a rank's
 * blocks packed plane by plane (A), each plane's to its slot on the card
 * (B: from slot i, i's blocks for this plane, card by card), those turned
 * card by card (C), plane j's exchange between the cards (D: from card k,
 * its slots' blocks for this rank), D's blocks to where the caller wants
 * them.  Every block's size is its receiver's count; all of them must be
 * in this process.
 */
static swcclResult_t alltoallv(struct swccl_shared *sh, const struct swccl_hier *h,
			       struct swccl_call *c, struct tally *t, swcclComm_t comm0)
{
	int K = h->ncards, G = h->per_card, N = c->nranks, nb;
	uint64_t es = c->esize, amax = 1, bmax = 1, dmax = 1, ob, oc, od;
	uint64_t d[SWCCL_MAX_RANKS], s[SWCCL_MAX_RANKS], len[SWCCL_MAX_RANKS];
	size_t sn[SWCCL_MAX_RANKS], rn[SWCCL_MAX_RANKS];
	struct swccl_peers *pv = calloc((size_t)(K > G ? K : G), sizeof(*pv));
	struct stage st;
	swcclResult_t res = pv ? swcclSuccess : swccl_fail(comm0, swcclSystemError,
							   "out of memory");
	struct level l;

	for (int r = 0; r < N && !res; r++)
		if (!c->r[r].pv || sh->comm[r]->remote)
			res = swccl_fail(comm0, swcclInvalidUsage, "%s: in levels every rank's "
					 "blocks must be in one process", c->kind->name(c));
	for (int k = 0; k < K && !res; k++)
		for (int j = 0; j < G; j++) {
			uint64_t a = 0, b = 0, dd = 0;

			for (int y = 0; y < N; y++) {
				a += vn(c, h->rank_at[k][j], y);
				dd += vn(c, y, h->rank_at[k][j]);
			}
			for (int i = 0; i < G; i++)
				b += to_plane(h, c, k, i, j);
			amax = a > amax ? a : amax;
			bmax = b > bmax ? b : bmax;
			dmax = dd > dmax ? dd : dmax;
		}
	ob = amax * es;
	oc = ob + bmax * es;
	od = oc + bmax * es;
	if (!res)
		res = swccl_tmp(sh, c, od + dmax * es, comm0);
	/* A: plane by plane */
	stage_init(&st, h);
	for (int r = 0; r < N && !res; r++) {
		uint64_t off = 0;

		nb = 0;
		for (int j = 0; j < G; j++)
			for (int k = 0; k < K; k++, nb++) {
				int y = h->rank_at[k][j];

				len[nb] = vn(c, r, y) * es;
				s[nb] = c->r[r].pv->send[y].va;
				d[nb] = c->r[r].tmp.va + off;
				off += len[nb];
			}
		res = copies(c, r, nb, d, s, len, stage_prog(&st, h, r), comm0);
	}
	stage_end(&st, h, c, t);
	/* B: each card's slots */
	for (int k = 0; k < K && !res; k++) {
		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_ALLTOALL, c, 0, 0);
		for (int j = 0; j < G; j++) {
			int r = h->rank_at[k][j];

			for (int i = 0; i < G; i++) {
				sn[i] = to_plane(h, c, k, j, i);
				rn[i] = to_plane(h, c, k, i, j);
			}
			v_op(&l, j, &pv[j], sh->tmp[r], 0, ob, sn, rn, G, es, c->r[r].stream);
		}
		if (!moves_nothing(pv, G))
			res = card_run(&l, t, comm0);
	}
	phase_end(t);
	/* C: B's [slot][card] turned [card][slot] */
	stage_init(&st, h);
	for (int k = 0; k < K && !res; k++)
		for (int j = 0; j < G && !res; j++) {
			int r = h->rank_at[k][j];
			uint64_t boff[SWCCL_MAX_RANKS], off = ob, to = oc;

			for (int i = 0; i < G; i++)
				for (int kk = 0; kk < K; kk++) {
					boff[i * K + kk] = off;
					off += vn(c, h->rank_at[k][i], h->rank_at[kk][j]) * es;
				}
			nb = 0;
			for (int kk = 0; kk < K; kk++)
				for (int i = 0; i < G; i++, nb++) {
					len[nb] = vn(c, h->rank_at[k][i], h->rank_at[kk][j]) * es;
					s[nb] = c->r[r].tmp.va + boff[i * K + kk];
					d[nb] = c->r[r].tmp.va + to;
					to += len[nb];
				}
			res = copies(c, r, nb, d, s, len, stage_prog(&st, h, r), comm0);
		}
	stage_end(&st, h, c, t);
	/* D: each plane's cards */
	for (int j = 0; j < G && !res; j++) {
		level_init(&l, (swcclComm_t *)h->plane[j], K, SWCCL_ALLTOALL, c, 0, 0);
		for (int k = 0; k < K; k++) {
			int r = h->rank_at[k][j];

			for (int kk = 0; kk < K; kk++) {
				sn[kk] = to_card(h, c, k, kk, j);
				rn[kk] = to_card(h, c, kk, k, j);
			}
			v_op(&l, k, &pv[k], sh->tmp[r], oc, od, sn, rn, K, es, c->r[r].stream);
		}
		if (!moves_nothing(pv, K))
			res = plane_run(&l, t, comm0);
	}
	phase_end(t);
	/* D's blocks, card by card and slot by slot, to the caller's */
	stage_init(&st, h);
	for (int r = 0; r < N && !res; r++) {
		uint64_t off = od;

		nb = 0;
		for (int kk = 0; kk < K; kk++)
			for (int i = 0; i < G; i++, nb++) {
				int x = h->rank_at[kk][i];

				len[nb] = vn(c, x, r) * es;
				s[nb] = c->r[r].tmp.va + off;
				d[nb] = c->r[r].pv->recv[x].va;
				off += len[nb];
			}
		res = copies(c, r, nb, d, s, len, stage_prog(&st, h, r), comm0);
	}
	stage_end(&st, h, c, t);
	free(pv);
	return res;
}

static swcclResult_t broadcast(const struct swccl_hier *h, const struct swccl_call *c,
			       struct tally *t, swcclComm_t comm0)
{
	int K = h->ncards, G = h->per_card, k0 = h->card_of[c->root], j0 = h->slot_of[c->root];
	struct level l;
	swcclResult_t res;

	level_init(&l, (swcclComm_t *)h->plane[j0], K, SWCCL_BROADCAST, c, c->count, k0);
	for (int k = 0; k < K; k++) {
		const struct swccl_rank *rk = &c->r[h->rank_at[k][j0]];

		l.op[k].alone = true;	/* the root's plane only */
		l.op[k].send = k == k0 ? rk->sp : NULL;
		l.op[k].recv = rk->rp;
		l.op[k].stream = rk->stream;
	}
	res = plane_run(&l, t, comm0);
	phase_end(t);
	for (int k = 0; k < K && !res; k++) {
		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_BROADCAST, c, c->count, j0);
		for (int j = 0; j < G; j++) {
			const struct swccl_rank *rk = &c->r[h->rank_at[k][j]];

			l.op[j].send = j == j0 ? rk->rp : NULL;	/* in place at the slot */
			l.op[j].recv = rk->rp;
			l.op[j].stream = rk->stream;
		}
		res = card_run(&l, t, comm0);
	}
	phase_end(t);
	return res;
}

static swcclResult_t reduce(struct swccl_shared *sh, const struct swccl_hier *h,
			    struct swccl_call *c, struct tally *t, swcclComm_t comm0)
{
	int K = h->ncards, G = h->per_card, k0 = h->card_of[c->root], j0 = h->slot_of[c->root];
	struct level l;
	swcclResult_t res = swccl_tmp(sh, c, c->count * c->esize, comm0);

	/* Each card's sum at its slot j0: the root's own buffer on the root's card. */
	for (int k = 0; k < K && !res; k++) {
		int r0 = h->rank_at[k][j0];

		level_init(&l, (swcclComm_t *)h->card[k], G, SWCCL_REDUCE, c, c->count, j0);
		for (int j = 0; j < G; j++) {
			const struct swccl_rank *rk = &c->r[h->rank_at[k][j]];

			l.op[j].send = rk->sp;
			l.op[j].recv = j != j0 ? NULL : k == k0 ? rk->rp : sh->tmp[r0];
			l.op[j].stream = rk->stream;
		}
		res = card_run(&l, t, comm0);
	}
	phase_end(t);
	if (!res) {
		level_init(&l, (swcclComm_t *)h->plane[j0], K, SWCCL_REDUCE, c, c->count, k0);
		for (int k = 0; k < K; k++) {
			int r = h->rank_at[k][j0];

			l.op[k].alone = true;	/* the root's plane only */
			l.op[k].send = k == k0 ? c->r[r].rp : sh->tmp[r];
			l.op[k].recv = k == k0 ? c->r[r].rp : NULL;
			l.op[k].stream = c->r[r].stream;
		}
		res = plane_run(&l, t, comm0);
	}
	phase_end(t);
	return res;
}

swcclResult_t swccl_hier_execute(struct swccl_shared *sh, struct swccl_call *c,
				 swcclComm_t comm0)
{
	const struct swccl_hier *h = sh->hier;
	struct tally t = { .between = swcclAlgoAuto, .launch_us = (double)c->tp.launchNs / 1e3 };
	swcclAlgo_t want = comm0->algo;
	swcclResult_t res;
	int dev = 0;

	/* A barrier is one tree, or the hosts', whatever the levels. */
	if (c->kind == &swccl_kind_barrier)
		return swccl_execute(sh, c, comm0);
	if (c->kind != &swccl_kind_coll && c->kind != &swccl_kind_p2p)
		return swccl_fail(comm0, swcclInvalidUsage, "%s: the fused calls run on the core "
				  "groups of one card, not on a comm of several cards",
				  c->kind->name(c));
	/* Over the NICs every rank is a leaf of one tree: no levels. */
	want = swccl_algo_wanted(comm0);
	if (want == swcclAlgoNic || want == swcclAlgoHost)
		return swccl_execute(sh, c, comm0);
	/* An algorithm between cards names the planes'; one of a card's, the cards'. */
	if (want == swcclAlgoRing || want >= swcclAlgoMesh1)
		t.between = want;
	sdaaGetDevice(&dev);
	switch (c->coll) {
	case SWCCL_ALLREDUCE: res = allreduce(h, c, &t, comm0); break;
	case SWCCL_REDUCESCATTER: res = reducescatter(sh, h, c, &t, comm0); break;
	case SWCCL_ALLGATHER: res = allgather(sh, h, c, &t, comm0); break;
	case SWCCL_BROADCAST: res = broadcast(h, c, &t, comm0); break;
	case SWCCL_ALLTOALL:
		res = c->v ? alltoallv(sh, h, c, &t, comm0) : alltoall(sh, h, c, &t, comm0);
		break;
	default: res = reduce(sh, h, c, &t, comm0); break;
	}
	sdaaSetDevice(dev);
	swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "%s #%llu on %d cards x %d core groups: cards by "
		  "CSC, planes by %s; %d launches, estimate %.3f us%s%s", c->kind->name(c),
		  (unsigned long long)c->seq, h->ncards, h->per_card, swcclAlgoName(t.between),
		  t.launches, t.us, res ? ": " : "", res ? comm0->lasterr : "");
	if (!res)
		for (int r = 0; r < c->nranks; r++)
			sh->comm[r]->last = (struct swcclCallInfo){
				.algo = t.between, .launches = t.launches,
				.host_syncs = t.host_syncs, .predicted_us = t.us, .fused = -1 };
	return res;
}

swcclResult_t swccl_hier_failed(struct swccl_shared *sh, char *msg, size_t n)
{
	const struct swccl_hier *h = sh->hier;
	swcclResult_t r = swcclSuccess;

	for (int k = 0; h && k < h->ncards && !r; k++)
		for (int j = 0; j < h->per_card && !r; j++) {
			struct swccl_shared *lv[2] = { h->card[k][j]->sh, h->plane[j][k]->sh };

			for (int i = 0; i < 2 && !r; i++) {
				pthread_mutex_lock(&lv[i]->mu);
				r = lv[i]->failed;
				if (r)
					snprintf(msg, n, "%s level: %s", i ? "plane" : "card",
						 lv[i]->failmsg);
				pthread_mutex_unlock(&lv[i]->mu);
			}
		}
	return r;
}
