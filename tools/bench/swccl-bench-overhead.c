// SPDX-License-Identifier: MIT
/*
 * swccl-bench overhead - what one small swcclAllReduce costs the host: wall
 * time per rank-call, from the group's start until every rank's work is
 * queued, against the floor of queueing one copy job per rank (the
 * launch path every call goes through) measured in the same run.
 *
 *   swccl-bench overhead [-b BYTES] [-n ITERS] [-g NRANKS] [--json]
 *
 * Three loops, the streams drained between calls (not timed):
 *   floor   one sdaaMemcpyAsync of BYTES per rank (device to device);
 *   cached  swcclAllReduce of BYTES on the same buffers every call: the
 *           plan (algorithm choice, cost, schedule) comes from the comm's
 *           plan cache after the first call;
 *   miss    the same on a new buffer offset every call (more shapes than
 *           the cache keeps): every call chooses and costs its algorithm
 *           on the card's engine, as every call did before the cache.
 * Medians and minima of -n calls (default 200) after 10 warm-up calls.
 * Inside the VM these are the guest's (TCG) times: compare the rows with
 * each other, not with a native host.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swai-cli.h"
#include "swccl-bench.h"
#include "swccl-tp.h"

#define WARMUP		10
#define MISS_SLOTS	256	/* offsets cycled by "miss": > SWCCL_PLAN_CACHE */

enum { FLOOR, CACHED, MISS, NLOOPS };

static const char *const loop_name[NLOOPS] = { "floor", "cached", "miss" };
static const char *const loop_what[NLOOPS] = {
	"one sdaaMemcpyAsync per rank (launch floor)",
	"swcclAllReduce, plan from the cache",
	"swcclAllReduce, plan made every call",
};

struct ovh {
	struct tp t;
	size_t bytes;
	int iters, json;
	void *buf[TP_MAX_RANKS], *src[TP_MAX_RANKS];
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void usage(void)
{
	fprintf(stderr, "usage: swccl-bench overhead [-b BYTES] [-n ITERS] [-g NRANKS] [--json]\n");
	exit(2);
}

/* One call of @loop, @i-th: wall us per rank-call. */
static double one(struct ovh *o, int loop, int i)
{
	size_t off = loop == MISS ? (size_t)(i % MISS_SLOTS) * o->bytes : 0;
	size_t count = o->bytes / sizeof(float);
	double t0;

	tp_sync(&o->t);
	t0 = now_us();
	if (loop == FLOOR) {
		for (int r = 0; r < o->t.n; r++) {
			TP_TRY(&o->t, sdaaSetDevice(o->t.dev[r]));
			TP_TRY(&o->t, sdaaMemcpyAsync(o->buf[r], o->src[r], o->bytes,
						      sdaaMemcpyDeviceToDevice, o->t.s[r]));
		}
	} else {
		TP_CCL(&o->t, swcclGroupStart());
		for (int r = 0; r < o->t.n; r++) {
			char *b = (char *)o->buf[r] + off;

			TP_CCL(&o->t, swcclAllReduce(b, b, count, swcclFloat32, swcclSum,
						     o->t.comm[r], o->t.s[r]));
		}
		TP_CCL(&o->t, swcclGroupEnd());
	}
	return (now_us() - t0) / o->t.n;
}

static void run(struct ovh *o, int loop, double *floor_us)
{
	double *t = malloc(sizeof(*t) * (size_t)o->iters), med;
	struct swcclCallInfo info = { 0 };

	if (!t) {
		fprintf(stderr, "swccl-bench: out of host memory\n");
		exit(1);
	}
	for (int i = 0; i < WARMUP; i++)
		one(o, loop, i);
	for (int i = 0; i < o->iters; i++)
		t[i] = one(o, loop, WARMUP + i);
	qsort(t, (size_t)o->iters, sizeof(*t), cmp_double);
	med = t[o->iters / 2];
	if (loop == FLOOR)
		*floor_us = med;
	else
		TP_CCL(&o->t, swcclCommLastCallInfo(o->t.comm[0], &info));
	if (o->json) {
		printf("{\"kind\":\"overhead\",\"loop\":\"%s\",\"bytes\":%zu,\"ranks\":%d,"
		       "\"median_us\":%.2f,\"min_us\":%.2f,\"x_floor\":%.3f,\"launches\":%d}\n",
		       loop_name[loop], o->bytes, o->t.n, med, t[0], med / *floor_us,
		       loop == FLOOR ? 1 : info.launches);
	} else {
		printf("  %-44s %10.1f %10.1f %9.2fx", loop_what[loop], med, t[0], med / *floor_us);
		if (loop != FLOOR)
			printf("   (%s, %d launch%s per rank)", swcclAlgoName(info.algo),
			       info.launches, info.launches == 1 ? "" : "es");
		printf("\n");
	}
	free(t);
}

int bench_overhead_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct ovh o = { .bytes = 1024, .iters = 200 };
	double floor_us = 0;
	int nranks = 4, c;

	/* argv[1] is "overhead". */
	while ((c = getopt_long(argc - 1, argv + 1, "b:n:g:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'b': o.bytes = swai_cli_size_or_exit("swccl-bench", "-b", optarg); break;
		case 'n': o.iters = (int)swai_cli_long_or_exit("swccl-bench", "-n", optarg, 1, 1 << 20); break;
		case 'g': nranks = (int)swai_cli_long_or_exit("swccl-bench", "-g", optarg, 1, TP_MAX_RANKS); break;
		case 'j': o.json = 1; break;
		default: usage();
		}
	}
	if (optind != argc - 1 || o.iters < 1 || o.iters > 1 << 20 || !o.bytes ||
	    o.bytes % sizeof(float) || o.bytes > (1u << 20))
		usage();
	tp_open(&o.t, nranks, "swccl-bench");
	for (int r = 0; r < nranks; r++) {
		o.buf[r] = tp_malloc(&o.t, r, o.bytes * MISS_SLOTS);
		o.src[r] = tp_malloc(&o.t, r, o.bytes);
	}
	if (!o.json)
		printf("# swccl-bench overhead: %zu B f32 AllReduce (sum), %d ranks in a group; "
		       "wall us per rank-call,\n# median and min of %d calls; x = median / the "
		       "launch floor's median, measured in this run\n"
		       "  %-44s %10s %10s %10s\n", o.bytes, nranks, o.iters, "", "median us",
		       "min us", "x floor");
	for (int l = 0; l < NLOOPS; l++)
		run(&o, l, &floor_us);
	for (int r = 0; r < nranks; r++) {
		tp_free(&o.t, r, o.buf[r]);
		tp_free(&o.t, r, o.src[r]);
	}
	tp_close(&o.t);
	return 0;
}
