// SPDX-License-Identifier: MIT
/*
 * swccl-boot-test - the TCP bootstrap of libswccl (swccl_bootstrap.c) on
 * the host, ranks as threads: a join gives every rank everyone's record in
 * rank order and exchanges after it do too; a bad id, a root nobody
 * listens on, a rank that never comes and a rank that goes away are
 * errors that say so, within the timeout, never hangs.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "swccl_bootstrap.h"
#include "tap.h"

#define N 5

struct rank_arg {
	swcclUniqueId id;
	int rank, nranks;
	double timeout_s;
	int ret, ret2;
	bool quit_early;	/* leave right after the join */
	char why[256];
	uint64_t all[N], all2[N];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *rank_main(void *p)
{
	struct rank_arg *a = p;
	struct swccl_boot *b = NULL;
	uint64_t mine = 1000 + (uint64_t)a->rank, mine2 = 7 * (uint64_t)a->rank;

	a->ret = swccl_boot_join(&a->id, a->rank, a->nranks, &mine, sizeof(mine), a->all,
				 a->timeout_s, &b, a->why, sizeof(a->why));
	if (a->ret)
		return NULL;
	if (!a->quit_early)
		a->ret2 = swccl_boot_allgather(b, &mine2, sizeof(mine2), a->all2, a->timeout_s,
					       a->why, sizeof(a->why));
	swccl_boot_close(b);
	return NULL;
}

/* @n of @nranks ranks join @id; @quit: a rank that leaves after the join. */
static void run(struct rank_arg *a, const swcclUniqueId *id, int n, int nranks, int quit,
		double timeout_s)
{
	pthread_t t[N];

	for (int r = 0; r < n; r++) {
		memset(&a[r], 0, sizeof(a[r]));
		a[r].id = *id;
		a[r].rank = r;
		a[r].nranks = nranks;
		a[r].timeout_s = timeout_s;
		a[r].quit_early = r == quit;
		pthread_create(&t[r], NULL, rank_main, &a[r]);
	}
	for (int r = 0; r < n; r++)
		pthread_join(t[r], NULL);
}

static void test_join_and_exchange(void)
{
	struct rank_arg a[N];
	swcclUniqueId id;
	char why[256];

	CHECK_EQ(swccl_boot_new_id(&id, 10, why, sizeof(why)), 0);
	printf("# id: %s\n", id.internal);
	run(a, &id, N, N, -1, 10);
	for (int r = 0; r < N; r++) {
		CHECK_EQ(a[r].ret, 0);
		CHECK_EQ(a[r].ret2, 0);
		for (int q = 0; q < N; q++) {
			CHECK_EQ(a[r].all[q], 1000 + (uint64_t)q);
			CHECK_EQ(a[r].all2[q], 7 * (uint64_t)q);
		}
	}
}

static void test_bad_ids(void)
{
	swcclUniqueId id;
	struct swccl_boot *b;
	char why[256];
	uint64_t v = 1, all[2];
	double t0;

	memset(&id, 0, sizeof(id));
	snprintf(id.internal, sizeof(id.internal), "swccl:1234:0:99.5");
	CHECK_EQ(swccl_boot_join(&id, 0, 2, &v, 8, all, 1, &b, why, sizeof(why)), -1);
	printf("# an old-style id: %s\n", why);
	CHECK(strstr(why, "not an id"));
	/* A root that is not there: refused until the deadline, then an error. */
	snprintf(id.internal, sizeof(id.internal), "swccl-tcp 127.0.0.1 1 00000000000000aa");
	t0 = now_s();
	CHECK_EQ(swccl_boot_join(&id, 0, 2, &v, 8, all, 0.3, &b, why, sizeof(why)), -1);
	printf("# no root: %s (%.2f s)\n", why, now_s() - t0);
	CHECK(strstr(why, "cannot reach the root"));
	CHECK(now_s() - t0 < 5);
}

static void test_missing_rank(void)
{
	struct rank_arg a[N];
	swcclUniqueId id;
	char why[256];
	double t0 = now_s();

	CHECK_EQ(swccl_boot_new_id(&id, 0.5, why, sizeof(why)), 0);
	run(a, &id, N - 1, N, -1, 3);
	for (int r = 0; r < N - 1; r++) {
		CHECK_EQ(a[r].ret, -1);
		CHECK(strstr(a[r].why, "joined within SWCCL_TIMEOUT"));
	}
	printf("# rank %d never came: \"%s\" after %.2f s\n", N - 1, a[0].why, now_s() - t0);
	CHECK(now_s() - t0 < 10);
}

static void test_rank_leaves(void)
{
	struct rank_arg a[N];
	swcclUniqueId id;
	char why[256];

	CHECK_EQ(swccl_boot_new_id(&id, 10, why, sizeof(why)), 0);
	run(a, &id, N, N, 2, 2);
	for (int r = 0; r < N; r++) {
		CHECK_EQ(a[r].ret, 0);
		if (r == 2)
			continue;
		CHECK_EQ(a[r].ret2, -1);
		CHECK(strstr(a[r].why, "rank 2"));
	}
	printf("# rank 2 left: rank 0 \"%s\", rank 1 \"%s\"\n", a[0].why, a[1].why);
}

static void test_disagree(void)
{
	struct rank_arg a[2];
	swcclUniqueId id;
	pthread_t t[2];
	char why[256];

	CHECK_EQ(swccl_boot_new_id(&id, 2, why, sizeof(why)), 0);
	for (int r = 0; r < 2; r++) {
		memset(&a[r], 0, sizeof(a[r]));
		a[r].id = id;
		a[r].rank = r;
		a[r].nranks = 2 + r;	/* 2 and 3 */
		a[r].timeout_s = 3;
		pthread_create(&t[r], NULL, rank_main, &a[r]);
	}
	for (int r = 0; r < 2; r++)
		pthread_join(t[r], NULL);
	CHECK(a[0].ret == -1 || a[1].ret == -1);
	printf("# nranks 2 and 3: \"%s\" / \"%s\"\n", a[0].why, a[1].why);
}

static const struct tap_test tests[] = {
	{ "five ranks join and exchange, records in rank order", test_join_and_exchange },
	{ "a bad id and a root nobody listens on are errors", test_bad_ids },
	{ "a rank that never joins fails the others in time", test_missing_rank },
	{ "a rank that leaves fails the next exchange, named", test_rank_leaves },
	{ "ranks that disagree on nranks are refused", test_disagree },
};

TAP_MAIN(tests)
