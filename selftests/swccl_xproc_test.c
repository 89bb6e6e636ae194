// SPDX-License-Identifier: GPL-2.0-only
/*
 * swccl_xproc_test - libswccl between cards with one process per card, as
 * NCCL's launchers run it: the parent makes the id (swcclGetUniqueId) and
 * forks one process per rank, each on core group 0 of its card, joined by
 * swcclCommInitRank over the TCP bootstrap; their counters and landing
 * areas travel as IPC handles.
 *
 * Every collective x algorithm (RING, MESH1, MESH2, HD, NHR, RB and the
 * cost model's choice) with an odd count on N = 2 .. the cards there are,
 * exact; a type and operator sweep in and out of place; two communicators
 * of processes that share nothing, at once; a rank whose process is killed
 * in the middle (the others fail within the timeout, naming it, and the
 * cards have all their memory back afterwards).  The parent never touches
 * the cards itself (a forked child must not inherit an open runtime), so
 * it asks a child how many cards there are.  Skips without two cards on
 * one fabric.
 */
#include <signal.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"
#include "swccl_test.h"

static const swcclAlgo_t xalgos[] = { swcclAlgoAuto, swcclAlgoRing, swcclAlgoMesh1,
				      swcclAlgoMesh2, swcclAlgoHd, swcclAlgoNhr, swcclAlgoRb };

/* Core group 0 of card @k (the k-th card in device order), or -1. */
static int card_device(int k)
{
	struct sdaaDeviceProp p;
	int seen[64], n = 0, nd;

	if (sdaaGetDeviceCount(&nd))
		return -1;
	for (int d = 0; d < nd; d++) {
		bool old = false;

		if (sdaaGetDeviceProperties(&p, d))
			return -1;
		for (int i = 0; i < n; i++)
			old |= seen[i] == p.card;
		if (old)
			continue;
		if (n == k)
			return d;
		seen[n++] = p.card;
	}
	return -1;
}

/* Run @fn(@arg) in a child; its exit status (-1: it died). */
static int in_child(int (*fn)(void *), void *arg)
{
	int st;
	pid_t p = fork();

	if (p == 0)
		_exit(fn(arg));
	if (p < 0 || waitpid(p, &st, 0) != p)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* How many cards share card 0's fabric (0: skip), and the free memory of each. */
struct probe {
	size_t free_local, free_global;
};

static int probe_cards(void *arg)
{
	struct probe *pr = arg;
	int n = 0, d0 = card_device(0), can = 0;

	if (d0 < 0 || !sdaa_test_can_submit(d0))
		return 0;
	for (int k = 1; k < NR_MAX; k++) {
		int d = card_device(k);

		if (d < 0 || sdaaDeviceCanAccessPeer(&can, d0, d) || !can)
			break;
		n = k + 1;
	}
	(void)pr;
	return n;
}

static int cards(void)
{
	return in_child(probe_cards, NULL);
}

/* Every card's free Local- and Global-HBM, summed (a child reports it over a pipe). */
static int free_mem(void *arg)
{
	int fd = *(int *)arg;
	size_t sum[2] = { 0, 0 };

	for (int k = 0; k < NR_MAX; k++) {
		size_t fr, tot;
		int d = card_device(k);

		if (d < 0)
			break;
		sdaaSetDevice(d);
		if (!sdaaMemGetInfo(&fr, &tot))
			sum[0] += fr;
		if (!sdaaMemGetInfoCross(&fr, &tot))
			sum[1] += fr;
	}
	return write(fd, sum, sizeof(sum)) == sizeof(sum) ? 0 : 1;
}

static int cards_free(size_t out[2])
{
	int p[2], r;

	if (pipe(p))
		return -1;
	r = in_child(free_mem, &p[1]);
	if (r || read(p[0], out, 2 * sizeof(size_t)) != 2 * sizeof(size_t))
		r = -1;
	close(p[0]);
	close(p[1]);
	return r;
}

/* One rank of a comm of processes. */
struct xrank {
	int rank, n, dev;
	swcclComm_t comm;
	sdaaStream_t st;
};

static swcclResult_t rank_call(struct xrank *x, const struct run *u, void *s, void *d)
{
	bool root = x->rank == u->root;

	switch (u->coll) {
	case AG: return swcclAllGather(s, d, u->count, u->t, x->comm, x->st);
	case RS: return swcclReduceScatter(s, d, u->count, u->t, u->op, x->comm, x->st);
	case AR: return swcclAllReduce(s, d, u->count, u->t, u->op, x->comm, x->st);
	case BC: return swcclBroadcast(root || u->inplace ? s : NULL, d, u->count, u->t, u->root,
				       x->comm, x->st);
	default: return swcclReduce(s, root || u->inplace ? d : NULL, u->count, u->t, u->op,
				    u->root, x->comm, x->st);
	}
}

/* Rank @q's input of @u, @sb bytes, as run_one (swccl_test.h) makes it. */
static void input(const struct run *u, int q, uint8_t *h, size_t sb)
{
	size_t es = tsize(u->t);

	if (u->coll == AG || u->coll == BC) {
		sdaa_test_fill(h, sb, 77 + (uint64_t)q);
		return;
	}
	for (size_t i = 0; i < sb / es; i++)
		tput(u->t, h + i * es, tval(u->t, q, i));
}

/* Global-HBM if the card has some (16 MiB at least), else Local-HBM. */
static enum place global_or_local(void)
{
	size_t fr, tot = 0;

	if (sdaaMemGetInfoCross(&fr, &tot))
		tot = 0;
	sdaaGetLastError();
	return tot >= (16u << 20) ? PL_GLOBAL : PL_LOCAL;
}

static void *xalloc(enum place pl, size_t n)
{
	void *p = NULL;

	if (pl == PL_LOCAL ? sdaaMalloc(&p, n ? n : 8) : sdaaMallocCross(&p, n ? n : 8))
		return NULL;
	return p;
}

static void xfree(enum place pl, void *p)
{
	if (pl == PL_LOCAL)
		sdaaFree(p);
	else
		sdaaFreeCross(p);
}

/* This rank's part of @u: wrong elements; -1 refused (*res); -2 memory. */
static long rank_run(struct xrank *x, const struct run *u, swcclResult_t *res)
{
	int n = x->n, r = x->rank;
	size_t es = tsize(u->t), sb = u->count * es, rb = sb;
	uint8_t *hs, *hr, *ho;
	void *base, *rbase = NULL, *send, *recv;
	long wrong = 0;

	if (u->coll == AG)
		rb *= (size_t)n;
	if (u->coll == RS)
		sb *= (size_t)n;
	hs = malloc(sb + 1);
	hr = malloc(rb + 1);
	ho = malloc(sb + 1);
	input(u, r, hs, sb);
	memset(hr, 0xa5, rb);
	if (u->inplace) {
		base = xalloc(u->pl, rb > sb ? rb : sb);
		send = recv = base;
		if (base && u->coll == AG)
			send = (uint8_t *)base + (size_t)r * sb;
		if (base && u->coll == RS)
			recv = (uint8_t *)base + (size_t)r * rb;
		if (base && u->coll != RS)
			sdaaMemcpy(base, hr, rb, sdaaMemcpyDefault);
	} else {
		base = send = xalloc(u->pl, sb);
		rbase = recv = xalloc(u->pl, rb);
		if (recv)
			sdaaMemcpy(recv, hr, rb, sdaaMemcpyDefault);
	}
	if (!base || !recv) {
		wrong = -2;
		goto out;
	}
	if (sb && (u->coll != BC || r == u->root || !u->inplace))
		sdaaMemcpy(send, hs, sb, sdaaMemcpyDefault);
	swcclCommSetAlgo(x->comm, u->algo);
	*res = rank_call(x, u, send, recv);
	if (*res) {
		wrong = -1;
		goto out;
	}
	if (sdaaStreamSynchronize(x->st)) {
		wrong = -3;
		goto out;
	}
	if (u->coll == RD && r != u->root)
		goto out;
	sdaaMemcpy(hr, recv, rb, sdaaMemcpyDefault);
	for (size_t i = 0; i < rb / es; i++) {
		uint8_t e[8];
		const uint8_t *exp = e;

		if (u->coll == AG) {
			input(u, (int)(i / u->count), ho, sb);
			exp = ho + (i % u->count) * es;
		} else if (u->coll == BC) {
			input(u, u->root, ho, sb);
			exp = ho + i * es;
		} else {
			tput(u->t, e, tref(u->t, u->op, n, u->coll == RS ?
					   (size_t)r * u->count + i : i));
		}
		if (memcmp(hr + i * es, exp, es)) {
			if (!wrong)
				fprintf(stderr, "# rank %d: %s %s: element %zu differs\n", r,
					coll_name[u->coll], swcclAlgoName(u->algo), i);
			wrong++;
		}
	}
out:
	if (base)
		xfree(u->pl, base);
	if (rbase)
		xfree(u->pl, rbase);
	free(hs);
	free(hr);
	free(ho);
	return wrong;
}

enum job { JOB_SWEEP, JOB_TYPES, JOB_KILLED, JOB_BARRIER, JOB_V };

/* JOB_BARRIER: when each rank came to each barrier and left it (shared memory). */
struct times {
	double arrive[3][NR_MAX], leave[3][NR_MAX];
	int algo[3][NR_MAX];
};

struct xjob {
	swcclUniqueId id;
	int first_card, n;	/* ranks on cards first_card .. first_card + n - 1 */
	enum job job;
	struct times *times;
};

static int rank_open(struct xrank *x, const struct xjob *j, int rank)
{
	swcclResult_t r;

	x->rank = rank;
	x->n = j->n;
	x->dev = card_device(j->first_card + rank);
	if (x->dev < 0 || sdaaSetDevice(x->dev) || sdaaStreamCreate(&x->st))
		return -1;
	r = swcclCommInitRank(&x->comm, j->n, j->id, rank);
	if (r) {
		fprintf(stderr, "# rank %d: swcclCommInitRank: %s: %s\n", rank,
			swcclGetErrorString(r), swcclGetLastError(NULL));
		return -1;
	}
	return 0;
}

/* Every collective x algorithm; the failures. */
static int sweep(struct xrank *x)
{
	int bad = 0;

	for (int coll = 0; coll < NCOLL; coll++)
		for (size_t a = 0; a < sizeof(xalgos) / sizeof(xalgos[0]); a++) {
			struct run u = { .coll = coll, .algo = xalgos[a], .t = swcclInt32,
					 .op = swcclSum, .root = x->n - 1, .count = 1001,
					 .pl = global_or_local(),
					 .inplace = (coll + (int)a) % 3 == 0 };
			swcclResult_t res = swcclSuccess;
			long w = rank_run(x, &u, &res);

			if (w == -1 && res == swcclInvalidUsage)
				continue;	/* that generator lacks it (HD AllGather, N = 3) */
			if (w) {
				fprintf(stderr, "# %d processes: rank %d: %s %s: %ld (%s)\n", x->n,
					x->rank, coll_name[coll], swcclAlgoName(xalgos[a]), w,
					swcclGetLastError(x->comm));
				bad++;
			}
		}
	return bad;
}

static int types(struct xrank *x)
{
	static const struct { swcclDataType_t t; swcclRedOp_t op; } to[] = {
		{ swcclFloat32, swcclSum }, { swcclFloat64, swcclMax }, { swcclInt64, swcclMin },
		{ swcclFloat16, swcclSum }, { swcclBfloat16, swcclProd }, { swcclUint8, swcclMax },
		{ swcclFloat32, swcclAvg },
	};
	int bad = 0;

	for (size_t k = 0; k < sizeof(to) / sizeof(to[0]); k++)
		for (int coll = RS; coll < NCOLL; coll++)
			for (int ip = 0; ip < 2; ip++) {
				struct run u = { .coll = coll, .t = to[k].t, .op = to[k].op,
						 .root = 1, .count = 777,
						 .pl = ip ? PL_LOCAL : global_or_local(),
						 .inplace = ip,
						 .algo = coll == RD ? swcclAlgoRing :
							 k % 2 ? swcclAlgoNhr : swcclAlgoAuto };
				swcclResult_t res = swcclSuccess;

				if (coll == BC)
					continue;
				if (rank_run(x, &u, &res)) {
					fprintf(stderr, "# rank %d: %s type %d op %d %s: wrong (%s)\n",
						x->rank, coll_name[coll], to[k].t, to[k].op,
						ip ? "in place" : "out of place",
						swcclGetLastError(x->comm));
					bad++;
				}
			}
	return bad;
}

/*
 * The last rank dies after one good AllReduce; the others' next one fails
 * within SWCCL_TIMEOUT (here 3 s) and the error names the dead rank.
 */
static int killed(struct xrank *x)
{
	struct run u = { .coll = AR, .algo = swcclAlgoRing, .t = swcclInt32, .op = swcclSum,
			 .count = 4097, .pl = global_or_local() };
	swcclResult_t res = swcclSuccess, err = swcclSuccess;
	int *g;

	if (rank_run(x, &u, &res))
		return 1;
	if (x->rank == x->n - 1)
		raise(SIGKILL);
	usleep(200 * 1000);
	/* The same size: its programs wait on the cards for the dead rank. */
	g = xalloc(u.pl, 4097 * 4);
	if (!g)
		return 2;
	res = swcclAllReduce(g, g, 4097, swcclInt32, swcclSum, x->comm, x->st);
	for (int i = 0; i < 1500 && !res && !err; i++) {
		usleep(10000);
		swcclCommGetAsyncError(x->comm, &err);
	}
	fprintf(stderr, "# rank %d: %s\n", x->rank, swcclGetLastError(x->comm));
	if (!res && !err)
		return 3;
	if (!strstr(swcclGetLastError(x->comm), "exited") &&
	    !strstr(swcclGetLastError(x->comm), "SWCCL_TIMEOUT"))
		return 4;
	swcclCommAbort(x->comm);
	x->comm = NULL;
	sdaaStreamSynchronize(x->st);	/* ends when the driver's job timeout resets it */
	sdaaGetLastError();
	xfree(u.pl, g);
	return 0;
}

/*
 * Two Sends from rank 0 to rank 1 in a group, of 8 and 13 elements, taken
 * by rank 1's two Recvs in order (the other ranks a Send of 0); @swap: as
 * 13 and 8, which every process refuses.  The failures.
 */
static int joined(struct xrank *x, void *s, void *d, bool swap)
{
	int32_t *sp = s, *dp = d, h[100];
	int bad = 0;
	swcclResult_t r;

	swcclGroupStart();
	if (x->rank == 0) {
		swcclSend(sp, 8, swcclInt32, 1, x->comm, x->st);
		swcclSend(sp + 20, 13, swcclInt32, 1, x->comm, x->st);
	} else if (x->rank == 1) {
		swcclRecv(dp + 40, swap ? 13 : 8, swcclInt32, 0, x->comm, x->st);
		swcclRecv(dp, swap ? 8 : 13, swcclInt32, 0, x->comm, x->st);
	} else {
		swcclSend(sp, 0, swcclInt32, 0, x->comm, x->st);
	}
	r = swcclGroupEnd();
	if (swap)
		return r != swcclInvalidUsage ||
		       !strstr(swcclGetLastError(x->comm), "differ one by one");
	if (r || sdaaStreamSynchronize(x->st))
		return 1;
	if (x->rank != 1)
		return 0;
	sdaaMemcpy(h, d, sizeof(h), sdaaMemcpyDefault);
	for (int i = 0; i < 8; i++)
		bad += h[40 + i] != vval(0, (size_t)i);
	for (int i = 0; i < 13; i++)
		bad += h[i] != vval(0, 20 + (size_t)i);
	if (bad)
		fprintf(stderr, "# rank 1: two Recvs from rank 0: %d wrong\n", bad);
	return bad;
}

/*
 * AllToAllv of processes: block y -> z of vcount(y, z) elements (some
 * empty) with a gap after each, DIRECT and AUTO, every block checked and
 * no gap written; then every process refuses a count its peer disagrees
 * with, naming the two ranks (each process learns every rank's counts);
 * then two Sends to one peer in a group, and their counts swapped.
 */
static int v_job(struct xrank *x)
{
	static const swcclAlgo_t algo[] = { swcclAlgoDirect, swcclAlgoAuto };
	size_t sc[NR_MAX], sd[NR_MAX], rc[NR_MAX], rd[NR_MAX], so = 0, ro = 0, tot;
	int32_t *h;
	void *s, *d;
	int bad = 0;

	for (int q = 0; q < x->n; q++) {
		sc[q] = vcount(x->rank, q);
		rc[q] = vcount(q, x->rank);
		sd[q] = so;
		rd[q] = ro;
		so += sc[q] + 1;
		ro += rc[q] + 1;
	}
	tot = so > ro ? so : ro;
	h = malloc(tot * 4);
	s = xalloc(PL_LOCAL, tot * 4);
	d = xalloc(PL_LOCAL, tot * 4);
	if (!h || !s || !d)
		return 1;
	for (size_t i = 0; i < tot; i++)
		h[i] = vval(x->rank, i);
	sdaaMemcpy(s, h, tot * 4, sdaaMemcpyDefault);
	for (size_t a = 0; a < sizeof(algo) / sizeof(algo[0]); a++) {
		memset(h, 0xa5, tot * 4);
		sdaaMemcpy(d, h, tot * 4, sdaaMemcpyDefault);
		swcclCommSetAlgo(x->comm, algo[a]);
		if (swcclAllToAllv(s, sc, sd, d, rc, rd, swcclInt32, x->comm, x->st) ||
		    sdaaStreamSynchronize(x->st)) {
			fprintf(stderr, "# rank %d: AllToAllv %s: %s\n", x->rank,
				swcclAlgoName(algo[a]), swcclGetLastError(x->comm));
			bad++;
			continue;
		}
		sdaaMemcpy(h, d, tot * 4, sdaaMemcpyDefault);
		for (int q = 0; q < x->n; q++) {
			size_t from = 0;

			for (int z = 0; z < x->rank; z++)	/* q's displacement to us */
				from += vcount(q, z) + 1;
			for (size_t k = 0; k < rc[q]; k++)
				bad += h[rd[q] + k] != vval(q, from + k);
			bad += h[rd[q] + rc[q]] != (int32_t)0xa5a5a5a5;
		}
	}
	/* the last rank expects one element more from rank 0 than it sends */
	if (x->rank == x->n - 1)
		rc[0]++;
	swcclCommSetAlgo(x->comm, swcclAlgoAuto);
	if (swcclAllToAllv(s, sc, sd, d, rc, rd, swcclInt32, x->comm, x->st) !=
	    swcclInvalidUsage || !strstr(swcclGetLastError(x->comm), "which receives")) {
		fprintf(stderr, "# rank %d: a count its peer disagrees with: %s\n", x->rank,
			swcclGetLastError(x->comm));
		bad++;
	}
	bad += joined(x, s, d, false) + joined(x, s, d, true);
	xfree(PL_LOCAL, s);
	xfree(PL_LOCAL, d);
	free(h);
	return bad;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Three barriers, rank r coming to each 100 r ms late, after queuing a
 * copy on its stream: nobody leaves before the last came (the parent
 * checks the times), and the copy is done when it does.
 */
static int barriers(struct xrank *x, struct times *t)
{
	size_t n = 4 << 20;
	void *h = malloc(n), *d = xalloc(PL_LOCAL, n);
	int bad = 0;

	if (!h || !d)
		return 1;
	memset(h, 0x5a, n);
	for (int b = 0; b < 3; b++) {
		struct swcclCallInfo ci;

		usleep((useconds_t)(100000 * x->rank));
		if (sdaaMemcpyAsync(d, h, n, sdaaMemcpyHostToDevice, x->st))
			bad++;
		t->arrive[b][x->rank] = now_s();
		if (swcclBarrier(x->comm, x->st)) {
			fprintf(stderr, "# rank %d: barrier %d: %s\n", x->rank, b,
				swcclGetLastError(x->comm));
			bad++;
		}
		t->leave[b][x->rank] = now_s();
		if (sdaaStreamQuery(x->st) != sdaaSuccess)
			bad++;	/* the copy before the barrier is done */
		if (!swcclCommLastCallInfo(x->comm, &ci))
			t->algo[b][x->rank] = ci.algo;
	}
	xfree(PL_LOCAL, d);
	free(h);
	return bad;
}

static int rank_main(const struct xjob *j, int rank)
{
	struct xrank x;
	int bad;

	if (j->job == JOB_KILLED)
		setenv("SWCCL_TIMEOUT", "3", 1);
	if (rank_open(&x, j, rank))
		return 100;
	bad = j->job == JOB_SWEEP ? sweep(&x) : j->job == JOB_TYPES ? types(&x) :
	      j->job == JOB_BARRIER ? barriers(&x, j->times) : j->job == JOB_V ? v_job(&x) :
	      killed(&x);
	if (x.comm && swcclCommDestroy(x.comm))
		bad++;
	sdaaStreamDestroy(x.st);
	return bad > 99 ? 99 : bad;
}

/* Fork the ranks of @j (each its own process); the exit status of each. */
static int launch(struct xjob *j, int *status)
{
	pid_t pid[NR_MAX];

	for (int r = 0; r < j->n; r++) {
		pid[r] = fork();
		if (pid[r] == 0)
			_exit(rank_main(j, r));
		if (pid[r] < 0)
			return -1;
	}
	/* Reap in any order, so a dead rank is not left a zombie. */
	for (int k = 0; k < j->n; k++) {
		int st;
		pid_t p = wait(&st);

		for (int r = 0; r < j->n; r++)
			if (pid[r] == p)
				status[r] = WIFEXITED(st) ? WEXITSTATUS(st) :
					    WIFSIGNALED(st) ? 200 + WTERMSIG(st) : 255;
	}
	return 0;
}

static void procs(struct __test_metadata *_metadata, int n, enum job job)
{
	struct xjob j = { .n = n, .job = job };
	int have = cards(), st[NR_MAX];

	if (have < n)
		SKIP(return, "%d cards on one fabric, the test wants %d", have, n);
	ASSERT_EQ(swcclSuccess, swcclGetUniqueId(&j.id));
	ASSERT_EQ(0, launch(&j, st));
	for (int r = 0; r < n; r++) {
		EXPECT_EQ(0, st[r]) {
			TH_LOG("%d processes: rank %d exit status %d", n, r, st[r]);
		}
	}
}

TEST(procs_2) { procs(_metadata, 2, JOB_SWEEP); }
TEST(procs_3) { procs(_metadata, 3, JOB_SWEEP); }
TEST(procs_4) { procs(_metadata, 4, JOB_SWEEP); }
TEST(procs_5) { procs(_metadata, 5, JOB_SWEEP); }
TEST(procs_6) { procs(_metadata, 6, JOB_SWEEP); }
TEST(procs_7) { procs(_metadata, 7, JOB_SWEEP); }
TEST(procs_8) { procs(_metadata, 8, JOB_SWEEP); }
TEST(types_and_ops) { procs(_metadata, cards() < 4 ? 2 : 4, JOB_TYPES); }
TEST(alltoallv_of_processes) { procs(_metadata, cards() < 4 ? 2 : 4, JOB_V); }

/* Two comms of processes that share nothing, at the same time, on disjoint cards. */
TEST(two_comms_at_once)
{
	struct xjob a = { .n = 2, .job = JOB_SWEEP }, b = { .n = 2, .job = JOB_SWEEP,
							    .first_card = 2 };
	int sa[NR_MAX], sb[NR_MAX], ca, cb;
	pid_t pa, pb;

	if (cards() < 4)
		SKIP(return, "fewer than 4 cards on one fabric");
	ASSERT_EQ(swcclSuccess, swcclGetUniqueId(&a.id));
	ASSERT_EQ(swcclSuccess, swcclGetUniqueId(&b.id));
	pa = fork();
	if (pa == 0)
		_exit(launch(&a, sa) || sa[0] || sa[1]);
	pb = fork();
	if (pb == 0)
		_exit(launch(&b, sb) || sb[0] || sb[1]);
	ASSERT_EQ(pa, waitpid(pa, &ca, 0));
	ASSERT_EQ(pb, waitpid(pb, &cb, 0));
	EXPECT_TRUE(WIFEXITED(ca) && !WEXITSTATUS(ca));
	EXPECT_TRUE(WIFEXITED(cb) && !WEXITSTATUS(cb));
}

/*
 * swcclBarrier between processes: over the NICs where the cards have them
 * on a network (swai-vm --nic-hub), else the hosts' rendezvous.
 */
TEST(barrier_of_processes)
{
	struct xjob j = { .n = 3, .job = JOB_BARRIER };
	int st[NR_MAX], have = cards();

	if (have < 2)
		SKIP(return, "fewer than 2 cards on one fabric");
	j.n = have < 3 ? have : 3;
	j.times = mmap(NULL, sizeof(*j.times), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, j.times);
	ASSERT_EQ(swcclSuccess, swcclGetUniqueId(&j.id));
	ASSERT_EQ(0, launch(&j, st));
	for (int r = 0; r < j.n; r++)
		EXPECT_EQ(0, st[r]);
	for (int b = 0; b < 3; b++) {
		double last = 0, first = 1e30;

		for (int r = 0; r < j.n; r++) {
			last = j.times->arrive[b][r] > last ? j.times->arrive[b][r] : last;
			first = j.times->leave[b][r] < first ? j.times->leave[b][r] : first;
			EXPECT_EQ(j.times->algo[b][0], j.times->algo[b][r]);
		}
		EXPECT_GE(first, last) {
			TH_LOG("barrier %d: a rank left at %.3f, before the last came at %.3f",
			       b, first, last);
		}
		TH_LOG("barrier %d of %d processes: %s", b, j.n,
		       swcclAlgoName((swcclAlgo_t)j.times->algo[b][0]));
	}
	munmap(j.times, sizeof(*j.times));
}

TEST(killed_process)
{
	struct xjob j = { .n = 3, .job = JOB_KILLED };
	size_t before[2], after[2];
	int st[NR_MAX];

	if (cards() < 3)
		SKIP(return, "fewer than 3 cards on one fabric");
	ASSERT_EQ(0, cards_free(before));
	ASSERT_EQ(swcclSuccess, swcclGetUniqueId(&j.id));
	ASSERT_EQ(0, launch(&j, st));
	EXPECT_EQ(0, st[0]);
	EXPECT_EQ(0, st[1]);
	EXPECT_EQ(200 + SIGKILL, st[2]);
	/* Every process is gone: the cards have all their memory back. */
	ASSERT_EQ(0, cards_free(after));
	EXPECT_EQ(before[0], after[0]);
	EXPECT_EQ(before[1], after[1]);
}

TEST_HARNESS_MAIN
