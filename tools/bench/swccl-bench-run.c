// SPDX-License-Identifier: MIT
/*
 * swccl-bench-run.c - the card side of swccl-bench: a communicator over
 * core groups of one card, the buffers, timed runs and bitwise checks.
 *
 * Timing: before every timed run the host waits for all ranks' streams (so
 * the modeled host clock H is past everything), records a start event on
 * rank 0's stream (stamped H), launches the collective on every rank as one
 * group and records a stop event on every rank's stream.  The modeled time
 * is the latest rank's stop - start: it includes the first launch cost, and
 * a host wait the library does at its end (RING's last sync), as the paper
 * counts them.  Runs are not overlapped (unlike nccl-tests' back-to-back
 * loop), so every run pays the launch as a single call would.  Under a
 * launcher the processes' host clocks are first brought to one modeled
 * time (common_start), so every rank starts together there too.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swccl-bench-try.h"
#include "swccl-bench.h"

/*
 * --cards N [-g G]: the first G visible core groups (all of them without
 * -g) of cards 0 .. N-1, card by card: one rank per card, or a comm in
 * levels.
 */
static void pick_cards(struct bench *b)
{
	struct sdaaDeviceProp q;
	int n, card[64], cgs[64] = { 0 }, found = 0, g = 0;

	TRY(sdaaGetDeviceCount(&n));
	for (int d = 0; d < n; d++) {
		int k = 0;

		TRY(sdaaGetDeviceProperties(&q, d));
		while (k < found && card[k] != q.card)
			k++;
		if (k == found && found < 64)
			card[found++] = q.card;
		if (k < found)
			cgs[k]++;
	}
	if (found < b->o.cards) {
		fprintf(stderr, "swccl-bench: --cards %d, but %d card(s) are visible "
			"(tools/vm/swai-vm --cards N)\n", b->o.cards, found);
		exit(1);
	}
	for (int k = 0; k < b->o.cards; k++)
		g = !g || cgs[k] < g ? cgs[k] : g;
	if (b->o.per_card > g) {
		fprintf(stderr, "swccl-bench: -g %d, but a card has %d core groups visible\n",
			b->o.per_card, g);
		exit(1);
	}
	if (!b->o.per_card)
		b->o.per_card = g;
	g = b->o.per_card;
	if (b->o.root >= b->o.cards * g) {
		fprintf(stderr, "swccl-bench: root %d, but there are %d ranks\n", b->o.root,
			b->o.cards * g);
		exit(1);
	}
	b->o.nranks = 0;
	for (int k = 0; k < b->o.cards; k++)
		for (int d = 0, j = 0; d < n && j < g; d++) {
			TRY(sdaaGetDeviceProperties(&q, d));
			if (q.card == card[k]) {
				b->dev[b->o.nranks++] = d;
				j++;
			}
		}
	snprintf(b->cardname, sizeof(b->cardname), "%d SW-AI cards x %d core groups",
		 b->o.cards, g);
}

/* Core groups 0 .. n-1 of device 0's card. */
static void pick_devices(struct bench *b)
{
	struct sdaaDeviceProp p0, q;
	int n, found = 0;

	if (b->o.cards) {
		pick_cards(b);
		return;
	}
	TRY(sdaaGetDeviceCount(&n));
	TRY(sdaaGetDeviceProperties(&p0, 0));
	for (int r = 0; r < b->o.nranks; r++)
		b->dev[r] = -1;
	for (int d = 0; d < n; d++) {
		TRY(sdaaGetDeviceProperties(&q, d));
		if (q.card == p0.card && q.coreGroup < b->o.nranks && b->dev[q.coreGroup] < 0) {
			b->dev[q.coreGroup] = d;
			found++;
		}
	}
	if (found < b->o.nranks) {
		fprintf(stderr, "swccl-bench: %d ranks need core groups 0..%d of card %d visible\n",
			b->o.nranks, b->o.nranks - 1, p0.card);
		exit(1);
	}
	snprintf(b->cardname, sizeof(b->cardname), "SW-AI card %d", p0.card);
}

int bench_world(const struct bench *b)
{
	return b->world ? b->world : b->o.nranks;
}

/* Bytes of rank buffers: [0] send, [1] recv (0: in place in the other). */
static void buffer_sizes(const struct bench *b, size_t cap, size_t *sz)
{
	size_t shard = cap / (size_t)bench_world(b);

	if (b->o.global) {
		sz[0] = cap;
		sz[1] = 0;
	} else {
		sz[0] = b->o.coll == COLL_AG ? shard : cap;
		sz[1] = b->o.coll == COLL_RS ? shard : cap;
	}
}

/* Clamp the largest size to what the tiers hold, leaving room for the comm. */
static size_t fit(const struct bench *b, size_t cap)
{
	struct sdaaDeviceProp p;
	size_t sz[2];

	TRY(sdaaGetDeviceProperties(&p, b->dev[0]));
	for (;;) {
		buffer_sizes(b, cap, sz);
		/* A card's Global-HBM holds its own core groups' buffers. */
		if (b->o.host ? sz[0] + sz[1] <= (64u << 20) :
		    b->o.global ? sz[0] * (size_t)(b->o.cards ? b->o.per_card : b->o.nranks) <=
				  p.totalGlobalMem / 4 * 3 :
		    sz[0] + sz[1] <= p.totalLocalMem / 4 * 3)
			return cap;
		cap /= 2;
	}
}

void bench_setup(struct bench *b)
{
	size_t sz[2], want = b->o.maxb;

	if (b->world)		/* a launcher's process: its card, set already */
		snprintf(b->cardname, sizeof(b->cardname), "%d nodes x %d cards", b->nodes,
			 b->world / b->nodes);
	else
		pick_devices(b);
	TRY(sdaaDeviceGetTimingParams(&b->tp, b->dev[0]));
	b->paper = (struct bench_paper){ b->tp.ringMBps / 1e3, b->tp.launchNs / 1e3,
		b->tp.syncNs / 1e3, b->tp.stepNs / 1e3 };
	/* The summary's sizes: 8e6 B (eqs. (3)/(4)), 4 MiB (AG), 32 MiB (RS). */
	if (b->o.summary && b->o.coll == COLL_AG && want < 8000000)
		want = 8000000;
	if (b->o.summary && b->o.coll == COLL_RS && want < 32 << 20)
		want = 32 << 20;
	b->cap = fit(b, want);
	if (b->cap < b->o.minb)
		fprintf(stderr, "swccl-bench: not even %zu B fits in the cards' %s memory "
			"(--place local or global chooses it)\n", b->o.minb,
			b->o.host ? "host" : b->o.global ? "Global-HBM" : "Local-HBM");
	else if (b->cap < b->o.maxb)
		fprintf(stderr, "swccl-bench: sizes above %zu B do not fit; stopping there\n",
			b->cap);
	b->o.maxb = b->cap < b->o.maxb ? b->cap : b->o.maxb;
	if (b->world) {
		swcclUniqueId id;

		TRY(sdaaMallocHost((void **)&b->xv, 8 * sizeof(double)));
		TRY(sdaaSetDevice(b->dev[0]));
		CCL(b, swcclGetUniqueId(&id));
		CCL(b, swcclCommInitRank(&b->comm[0], b->world, id, b->base));
	} else {
		CCL(b, swcclCommInitAll(b->comm, b->o.nranks, b->dev));
	}
	buffer_sizes(b, b->cap, sz);
	for (int r = 0; r < b->o.nranks; r++) {
		TRY(sdaaSetDevice(b->dev[r]));
		TRY(sdaaStreamCreate(&b->s[r]));
		TRY(sdaaEventCreate(&b->stop[r]));
		TRY(sdaaEventCreate(&b->starts[r]));
		if (b->o.global) {
			TRY(sdaaMallocCross(&b->send[r], sz[0]));
			b->recv[r] = b->send[r];
			/* AllToAllv and Send/Recv do not run in place */
			if (bench_coll_apart(b->o.coll))
				TRY(sdaaMallocCross(&b->recv[r], sz[0]));
		} else if (b->o.host) {
			TRY(sdaaMallocHost(&b->send[r], sz[0]));
			TRY(sdaaMallocHost(&b->recv[r], sz[1]));
		} else {
			TRY(sdaaMalloc(&b->send[r], sz[0]));
			TRY(sdaaMalloc(&b->recv[r], sz[1]));
		}
	}
	TRY(sdaaSetDevice(b->dev[0]));
	TRY(sdaaEventCreate(&b->start));
	b->img = malloc(b->cap);
	b->back = malloc(b->cap);
	b->want = malloc(b->cap);
	if (!b->img || !b->back || !b->want) {
		fprintf(stderr, "swccl-bench: out of host memory\n");
		exit(1);
	}
	/* Under a launcher: every process ready before the first row. */
	if (b->world) {
		struct swcclCallInfo ci;

		CCL(b, swcclBarrier(b->comm[0], b->s[0]));
		CCL(b, swcclCommLastCallInfo(b->comm[0], &ci));
		if (!b->base)
			fprintf(stderr, "swccl-bench: %d processes on %d nodes met at a barrier "
				"(%s, %.3f us)\n", b->world, b->nodes, ci.algo == swcclAlgoAuto ?
				"the hosts'" : bench_algo_name(ci.algo), ci.predicted_us);
	}
}

void bench_teardown(struct bench *b)
{
	for (int r = 0; r < b->o.nranks; r++) {
		TRY(sdaaSetDevice(b->dev[r]));
		TRY(sdaaStreamSynchronize(b->s[r]));
		CCL(b, swcclCommDestroy(b->comm[r]));
		TRY(sdaaStreamDestroy(b->s[r]));
		TRY(sdaaEventDestroy(b->stop[r]));
		TRY(sdaaEventDestroy(b->starts[r]));
		if (b->o.global) {
			TRY(sdaaFreeCross(b->send[r]));
			if (b->recv[r] != b->send[r])
				TRY(sdaaFreeCross(b->recv[r]));
		} else if (b->o.host) {
			TRY(sdaaFreeHost(b->send[r]));
			TRY(sdaaFreeHost(b->recv[r]));
		} else {
			TRY(sdaaFree(b->send[r]));
			TRY(sdaaFree(b->recv[r]));
		}
	}
	TRY(sdaaEventDestroy(b->start));
	free(b->img);
	free(b->back);
	free(b->want);
	free(b->rows);
}

void bench_banner(const struct bench *b)
{
	const struct bench_opts *o = &b->o;

	char who[48] = "the core groups";

	if (!o->cards)
		snprintf(who, sizeof(who), "core groups 0..%d", o->nranks - 1);
	printf("# swccl-bench %s: %d ranks = %s of %s; type %s, op %s, root %d\n"
	       "# buffers: %s; %d warmup + %d timed run(s), check %d\n"
	       "# model: ring %u MB/s per CG (%u total), Local-HBM %u MB/s, launch %u ns, "
	       "host sync %u ns,\n#   step %u ns, barrier %u ns, DMA %u ns\n"
	       "# time: modeled (latest rank's end from a common start); wall: emulator; "
	       "util: transfer/time (Fig. 13);\n# paper: eq. (3) for RING, eq. (4) for CSC "
	       "(%s)\n#\n", bench_coll_name(o->coll), o->nranks,
	       who, b->cardname,
	       bench_type_name(o->type), bench_op_name(o->op), o->root,
	       o->global ? "Global-HBM (sdaaMallocCross), in place" :
	       o->host ? "pinned host memory (sdaaMallocHost), out of place" :
	       "Local-HBM of each rank, out of place", o->warmup, o->iters, o->check,
	       b->tp.ringMBps, b->tp.ringTotalMBps, b->tp.localMBps, b->tp.launchNs,
	       b->tp.syncNs, b->tp.stepNs, b->tp.barrierNs, b->tp.dmaNs,
	       o->coll == COLL_AG ? "the paper's AllGather models" :
	       o->coll == COLL_RS ? "the same forms for ReduceScatter" : "AG/RS only");
}

struct call {
	size_t param, esize;
	swcclAlgo_t algo;		/* the row's */
	const void *send[BENCH_MAX_RANKS];
	void *recv[BENCH_MAX_RANKS];
};

/* Rank @r's pointers for one call: in place at NCCL's offsets in Global-HBM. */
static void pointers(const struct bench *b, struct call *c)
{
	for (int r = 0; r < b->o.nranks; r++) {
		size_t off = (size_t)(b->base + r) * c->param * c->esize;

		c->send[r] = b->send[r];
		c->recv[r] = b->recv[r];
		if (b->o.global && b->o.coll == COLL_AG)
			c->send[r] = (char *)b->recv[r] + off;
		else if (b->o.global && b->o.coll == COLL_RS)
			c->recv[r] = (char *)b->send[r] + off;
	}
}

/*
 * The calls of every rank as one group; the group's result when @soft
 * (a refused algorithm), else any failure exits.
 */
static swcclResult_t launch_group(struct bench *b, const struct call *c, bool soft);

static void launch(struct bench *b, const struct call *c)
{
	launch_group(b, c, false);
}

static swcclResult_t launch_group(struct bench *b, const struct call *c, bool soft)
{
	const struct bench_opts *o = &b->o;
	swcclResult_t res;

	CCL(b, swcclGroupStart());
	for (int r = 0; r < o->nranks; r++) {
		swcclComm_t m = b->comm[r];
		sdaaStream_t s = b->s[r];

		switch (o->coll) {
		case COLL_AG:
			CCL(b, swcclAllGather(c->send[r], c->recv[r], c->param, o->type, m, s));
			break;
		case COLL_RS:
			CCL(b, swcclReduceScatter(c->send[r], c->recv[r], c->param, o->type, o->op,
						  m, s));
			break;
		case COLL_AR:
			CCL(b, swcclAllReduce(c->send[r], c->recv[r], c->param, o->type, o->op, m,
					      s));
			break;
		case COLL_BAR:
			CCL(b, swcclBarrier(m, s));
			break;
		case COLL_A2A:
			CCL(b, swcclAllToAll(c->send[r], c->recv[r], c->param, o->type, m, s));
			break;
		case COLL_A2AV: {
			size_t sc[BENCH_MAX_RANKS], sd[BENCH_MAX_RANKS];
			size_t rc[BENCH_MAX_RANKS], rd[BENCH_MAX_RANKS];

			bench_v_layout(b->base + r, bench_world(b), c->param, o->seed, sc, sd, rc, rd);
			CCL(b, swcclAllToAllv(c->send[r], sc, sd, c->recv[r], rc, rd, o->type, m,
					      s));
			break;
		}
		case COLL_SR: {	/* nccl-tests' sendrecv: to the next rank, from the previous */
			int w = bench_world(b), me = b->base + r, k = o->parts ? o->parts : 1;

			/* --parts K: K Sends and K Recvs of consecutive pieces, paired in order */
			for (int i = 0; i < k; i++) {
				size_t lo = c->param * (size_t)i / (size_t)k;
				size_t n = c->param * (size_t)(i + 1) / (size_t)k - lo;

				CCL(b, swcclSend((const char *)c->send[r] + lo * c->esize, n, o->type,
						 (me + 1) % w, m, s));
				CCL(b, swcclRecv((char *)c->recv[r] + lo * c->esize, n, o->type,
						 (me + w - 1) % w, m, s));
			}
			break;
		}
		case COLL_BC:
			CCL(b, swcclBroadcast(c->send[r], c->recv[r], c->param, o->type, o->root, m,
					      s));
			break;
		default:
			CCL(b, swcclReduce(c->send[r], c->recv[r], c->param, o->type, o->op, o->root,
					   m, s));
			break;
		}
	}
	res = swcclGroupEnd();
	if (!soft)
		CCL(b, res);
	return res;
}

static void sync_all(struct bench *b)
{
	for (int r = 0; r < b->o.nranks; r++)
		TRY(sdaaStreamSynchronize(b->s[r]));
}

/*
 * Under a launcher every process keeps its own host clock, and the call
 * before left them apart (a tree's root ends before its leaves, a
 * Broadcast's root before the others).  So each waits, in modeled time,
 * until one start: the latest clock (an AllReduce max over the NICs) plus
 * what that AllReduce takes by its model -- each process started it no
 * later than the latest did, so each has ended it by then.  A row is then
 * timed from a common start, as with one process, and as the predictions
 * assume.  @algo: the row's algorithm, set back after.
 */
static void common_start(struct bench *b, swcclAlgo_t algo)
{
	int64_t *t = (int64_t *)(b->xv + 6);
	struct sdaaTimingParams tp;
	struct swcclCallInfo info;

	if (!b->world)
		return;
	TRY(sdaaDeviceGetTimingParams(&tp, b->dev[0]));
	*t = (int64_t)tp.hostClockNs;
	CCL(b, swcclCommSetAlgo(b->comm[0], swcclAlgoNic));
	CCL(b, swcclAllReduce(t, t, 1, swcclInt64, swcclMax, b->comm[0], b->s[0]));
	CCL(b, swcclCommLastCallInfo(b->comm[0], &info));
	CCL(b, swcclCommSetAlgo(b->comm[0], algo));
	TRY(sdaaHostWaitUntil((unsigned long long)*t +
			      (unsigned long long)(info.predicted_us * 1e3) + tp.syncNs));
}

/*
 * One timed run: modeled and wall us of the latest rank.  Events of two
 * cards do not compare (each card has its clock), so with --cards every
 * rank is timed from a start event on its own stream.
 */
static void timed(struct bench *b, const struct call *c, double *model, double *wall)
{
	sync_all(b);
	common_start(b, c->algo);
	for (int r = 0; r < (b->o.cards ? b->o.nranks : 1); r++)
		TRY(sdaaEventRecord(b->o.cards ? b->starts[r] : b->start, b->s[r]));
	launch(b, c);
	for (int r = 0; r < b->o.nranks; r++)
		TRY(sdaaEventRecord(b->stop[r], b->s[r]));
	*model = *wall = 0;
	for (int r = 0; r < b->o.nranks; r++) {
		sdaaEvent_t from = b->o.cards ? b->starts[r] : b->start;
		float m, w;

		TRY(sdaaEventSynchronize(b->stop[r]));
		TRY(sdaaEventElapsedTime(&m, from, b->stop[r]));
		TRY(sdaaEventElapsedTimeWall(&w, from, b->stop[r]));
		if (m * 1e3 > *model)
			*model = m * 1e3;
		if (w * 1e3 > *wall)
			*wall = w * 1e3;
	}
}

/* Elements @n of @t from global index @j0 of rank @r's input into b->img. */
static void fill_input(struct bench *b, int r, size_t j0, size_t n, char *dst)
{
	for (size_t k = 0; k < n; k++)
		bench_store(dst, k, b->o.type, bench_input(b->o.coll, b->o.type, b->o.op,
							   b->base + r, bench_world(b), j0 + k));
}

/* Upload fresh inputs (outputs poisoned), as each rank's buffers want them. */
static void prepare(struct bench *b, const struct call *c, size_t count)
{
	const struct bench_opts *o = &b->o;
	size_t es = c->esize, bytes = count * es;

	for (int r = 0; r < o->nranks; r++) {
		size_t in_off = 0, in_n = count, j0 = 0;
		int has_input = o->coll != COLL_BC || b->base + r == o->root;

		if (o->coll == COLL_AG) {
			in_n = c->param;
			j0 = (size_t)(b->base + r) * c->param;
		}
		if (o->global && !bench_coll_apart(o->coll)) {	/* one buffer: in place */
			memset(b->img, BENCH_POISON, bytes);
			if (o->coll == COLL_AG)
				in_off = j0 * es;
			if (has_input)
				fill_input(b, r, j0, in_n, b->img + in_off);
			TRY(sdaaMemcpy(b->send[r], b->img, bytes, sdaaMemcpyHostToDevice));
			continue;
		}
		memset(b->img, BENCH_POISON, in_n * es);
		if (has_input)
			fill_input(b, r, j0, in_n, b->img);
		TRY(sdaaMemcpy(b->send[r], b->img, in_n * es, sdaaMemcpyDefault));
		memset(b->img, BENCH_POISON, o->coll == COLL_RS ? c->param * es : bytes);
		TRY(sdaaMemcpy(b->recv[r], b->img, o->coll == COLL_RS ? c->param * es : bytes,
			       sdaaMemcpyDefault));
	}
}

/*
 * --verify: block (x, y) -- what rank x sent rank y -- arrived at y from x
 * whole, or how many of its elements did not; a line each on stderr.
 */
static void verify_block(const struct bench *b, int x, int y, size_t bad, size_t n)
{
	if (bad)
		fprintf(stderr, "swccl-bench: --verify: block (%d, %d): %zu of %zu elements not "
			"what rank %d sent\n", x, y, bad, n, x);
	else if (b->o.check > 2)
		fprintf(stderr, "swccl-bench: --verify: block (%d, %d): %zu elements from rank %d\n",
			x, y, n, x);
}

/*
 * AllToAllv, SendRecv: rank @r's output, every block from where its sender
 * had it, and nothing anywhere else (the gaps keep their poison).
 */
static long verify_apart(struct bench *b, const struct call *c, int r, size_t count)
{
	const struct bench_opts *o = &b->o;
	size_t es = c->esize, sc[BENCH_MAX_RANKS], sd[BENCH_MAX_RANKS], rc[BENCH_MAX_RANKS];
	size_t rd[BENCH_MAX_RANKS], n = o->coll == COLL_SR ? c->param : count;
	int w = bench_world(b), me = b->base + r;
	long wrong = 0;

	TRY(sdaaMemcpy(b->back, c->recv[r], n * es, sdaaMemcpyDefault));
	memset(b->want, BENCH_POISON, n * es);
	for (int x = 0; x < w; x++) {
		size_t from = 0, at = 0, len = 0;

		if (o->coll == COLL_SR && x == (me + w - 1) % w) {
			len = c->param;
		} else if (o->coll == COLL_A2AV) {
			bench_v_layout(x, w, c->param, o->seed, sc, sd, rc, rd);
			from = sd[me];
			len = sc[me];
			bench_v_layout(me, w, c->param, o->seed, sc, sd, rc, rd);
			at = rd[x];
		}
		for (size_t k = 0; k < len; k++)
			bench_store(b->want, at + k, o->type,
				    bench_input(o->coll, o->type, o->op, x, w, from + k));
		if (o->check > 1 && len) {
			size_t bad = 0;

			for (size_t k = at; k < at + len; k++)
				bad += memcmp(b->back + k * es, b->want + k * es, es) != 0;
			verify_block(b, x, me, bad, len);
		}
	}
	for (size_t k = 0; k < n; k++)
		wrong += memcmp(b->back + k * es, b->want + k * es, es) != 0;
	return wrong;
}

/* Elements of the outputs that are not bitwise right, all ranks. */
static long verify(struct bench *b, const struct call *c, size_t count)
{
	const struct bench_opts *o = &b->o;
	size_t es = c->esize;
	long wrong = 0;

	for (int r = 0; r < o->nranks; r++) {
		size_t n = o->coll == COLL_RS ? c->param : count;
		size_t j0 = o->coll == COLL_RS ? (size_t)(b->base + r) * c->param : 0;

		if (o->coll == COLL_RD && b->base + r != o->root)
			continue;	/* only the root's recvbuff is defined */
		if (o->coll == COLL_A2AV || o->coll == COLL_SR) {
			wrong += verify_apart(b, c, r, count);
			continue;
		}
		TRY(sdaaMemcpy(b->back, c->recv[r], n * es, sdaaMemcpyDefault));
		for (size_t k = 0; k < n; k++)
			bench_store(b->want, k, o->type, o->coll == COLL_A2A ?
				    bench_a2a_expect(o->type, bench_world(b), c->param,
						     b->base + r, k) :
				    bench_expect(o->coll, o->type, o->op, bench_world(b), o->root,
						 j0 + k));
		for (size_t k = 0, bad = 0; k < n; k++) {
			bad += memcmp(b->back + k * es, b->want + k * es, es) != 0;
			/* --verify: AllToAll's blocks one by one, (x, y) from x at y */
			if (o->coll == COLL_A2A && o->check > 1 && c->param &&
			    (k + 1) % c->param == 0) {
				verify_block(b, (int)(k / c->param), b->base + r, bad, c->param);
				wrong += (long)bad;
				bad = 0;
			} else if (k + 1 == n) {
				wrong += (long)bad;
			}
		}
	}
	return wrong;
}

/*
 * Under a launcher, every process's figure of one row made the whole's: the
 * latest rank's times and all ranks' wrong elements, by two small
 * AllReduces over the NICs (the only way between the nodes), after the
 * timed runs so they time nothing.
 */
void bench_across(struct bench *b, swcclAlgo_t keep, double *time_us, double *wall_us,
		  long *wrong)
{
	double *d = b->xv;
	int64_t *w = (int64_t *)(b->xv + 2);

	if (!b->world)
		return;
	CCL(b, swcclCommSetAlgo(b->comm[0], swcclAlgoNic));
	if (time_us) {
		d[0] = *time_us;
		d[1] = *wall_us;
		CCL(b, swcclAllReduce(d, d, 2, swcclFloat64, swcclMax, b->comm[0], b->s[0]));
		*time_us = d[0];
		*wall_us = d[1];
	}
	if (wrong) {
		*w = *wrong;
		CCL(b, swcclAllReduce(w, w, 1, swcclInt64, swcclSum, b->comm[0], b->s[0]));
		*wrong = (long)*w;
	}
	CCL(b, swcclCommSetAlgo(b->comm[0], keep));
}

struct bench_row bench_measure(struct bench *b, size_t bytes, swcclAlgo_t algo, int check)
{
	const struct bench_opts *o = &b->o;
	struct bench_row row = { .coll = o->coll, .type = o->type, .op = o->op, .algo = algo,
		.nranks = bench_world(b), .cards = b->world ? b->world : o->cards ? o->cards : 1,
		.nodes = b->nodes ? b->nodes : 1, .wrong = -1 };
	struct swcclCallInfo info;
	struct call c = { .esize = bench_type_size(o->type), .algo = algo };
	double model = 0, wall = 0, m, w;

	row.bytes = bench_counts(o->coll, bytes, c.esize, bench_world(b), &row.count, &c.param);
	pointers(b, &c);
	for (int r = 0; r < o->nranks; r++)
		CCL(b, swcclCommSetAlgo(b->comm[r], algo));
	/* An algorithm without this collective, or this rank count: no row. */
	if (launch_group(b, &c, true) == swcclInvalidUsage) {
		if (!b->base)	/* every process says the same: the first says it */
			fprintf(stderr, "swccl-bench: %s: %s\n", bench_algo_name(algo),
				swcclGetLastError(b->comm[0]));
		row.wrong = -2;
		return row;
	}
	sync_all(b);
	for (int i = 0; i < o->warmup; i++)
		timed(b, &c, &m, &w);
	for (int i = 0; i < o->iters; i++) {
		timed(b, &c, &m, &w);
		/* The model is deterministic: say so if a run differed. */
		if (i && (m - model / i > 0.01 || model / i - m > 0.01))
			fprintf(stderr, "swccl-bench: %zu B %s: modeled %.3f us, earlier %.3f us\n",
				row.bytes, bench_algo_name(algo), m, model / i);
		model += m;
		wall += w;
	}
	row.time_us = model / o->iters;
	row.wall_us = wall / o->iters;
	CCL(b, swcclCommLastCallInfo(b->comm[0], &info));
	/* Under a launcher: the latest rank's, as with one process. */
	bench_across(b, algo, &row.time_us, &row.wall_us, NULL);
	if (algo != swcclAlgoAuto && info.algo != algo)
		fprintf(stderr, "swccl-bench: asked for %s, %s ran\n", bench_algo_name(algo),
			bench_algo_name(info.algo));
	row.algo = algo == swcclAlgoAuto ? algo : info.algo;
	row.chosen = info.algo;
	row.transfer_us = info.transfer_us;
	row.predicted_us = info.predicted_us;
	row.launches = info.launches;
	row.host_syncs = info.host_syncs;
	row.util = row.time_us > 0 ? info.transfer_us / row.time_us : 0;
	row.internode_msgs = info.internode_msgs;
	row.internode_bytes = info.internode_bytes;
	row.algbw = bench_gbps((double)row.bytes, row.time_us);
	row.busbw = row.algbw * bench_busbw_factor(o->coll, bench_world(b));
	if ((o->coll == COLL_AG || o->coll == COLL_RS) && algo == swcclAlgoRing)
		row.paper_gbps = bench_eq3(&b->paper, (double)row.bytes, o->nranks);
	if ((o->coll == COLL_AG || o->coll == COLL_RS) && algo == swcclAlgoCsc)
		row.paper_gbps = bench_eq4(&b->paper, (double)row.bytes, o->nranks);
	if (o->coll == COLL_BAR)	/* nothing to check: it came back */
		row.wrong = 0;
	if (check && row.count) {
		prepare(b, &c, row.count);
		launch(b, &c);
		sync_all(b);
		row.wrong = verify(b, &c, row.count);
		if (row.wrong)
			b->failed = 1;
		bench_across(b, algo, NULL, NULL, &row.wrong);
	}
	return row;
}

void bench_add_row(struct bench *b, struct bench_row r)
{
	if (b->nrows == b->maxrows) {
		b->maxrows = b->maxrows ? 2 * b->maxrows : 64;
		b->rows = realloc(b->rows, (size_t)b->maxrows * sizeof(*b->rows));
		if (!b->rows)
			exit(1);
	}
	b->rows[b->nrows++] = r;
}

void bench_speedups(struct bench_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (rows[j].algo == swcclAlgoRing && rows[i].time_us > 0)
				rows[i].speedup = rows[j].time_us / rows[i].time_us;
}
