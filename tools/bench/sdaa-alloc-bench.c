// SPDX-License-Identifier: MIT
/*
 * sdaa-alloc-bench - speed and fragmentation of libsdaa's device-memory
 * suballocator (runtime/sdaa_suballoc.c) over a fake level-1 provider,
 * against glibc malloc/free replaying the very same operation sequence in
 * the same run.
 *
 * Workloads (each a deterministic sequence from a fixed-seed splitmix64):
 *   fixed-256   4096 slots, each op picks one: frees it if live, else
 *               allocates 256 bytes there
 *   mixed       the same with sizes log-uniform in 64 B .. 64 KiB
 *   prodcons    every step allocates one object (64 B .. 64 KiB) with a
 *               random lifetime of 1..4095 steps and frees those that expire
 *
 * An op is one alloc or one free, so pairs/s = ops/s / 2.  Each allocator
 * replays the sequence -r times (best time kept); the objects still live
 * at the end are freed untimed.  Fragmentation = 1 - in_use / held of the
 * suballocator, at the op where in_use peaks and at the end, from a
 * separate untimed replay that reads the stats after every op.
 *
 * With --sdaa the device side is libsdaa itself, on a real card: the same
 * sequence through sdaaMalloc/sdaaFree (Local-HBM of device 0; --cross:
 * sdaaMallocCross/sdaaFreeCross, Global-HBM), against glibc in the same
 * run; "held" is then the device memory the process holds at the peak, from
 * sdaaMemGetInfo.  Run it in the VM: tools/vm/swai-vm -- sdaa-alloc-bench --sdaa
 *
 *   sdaa-alloc-bench [-n OPS] [-r REPS] [--json] [--sdaa [--cross]]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swai-cli.h"
#include "sdaa_runtime.h"
#include "sdaa_suballoc.h"
#include "splitmix64.h"

#define GRANULE (2ull << 20)
#define ALIGN 256
#define NSLOTS 4096
#define LIFETIMES 4096		/* prodcons: lifetimes 1 .. LIFETIMES - 1 */

struct op {
	uint32_t slot;
	uint32_t size;		/* 0: free the slot */
};

static uint64_t rng;

static uint64_t rnd(void)
{
	return splitmix64(&rng);
}

/* Log-uniform in [64, 64 KiB]: a uniform exponent, then a uniform mantissa. */
static uint32_t mixed_size(void)
{
	unsigned int e = 6 + (unsigned int)(rnd() % 10);

	return (uint32_t)((1u << e) + rnd() % (1u << e) + 1);
}

static void gen_churn(struct op *ops, size_t n, int mixed)
{
	static unsigned char live[NSLOTS];

	memset(live, 0, sizeof(live));
	for (size_t i = 0; i < n; i++) {
		uint32_t s = (uint32_t)(rnd() % NSLOTS);

		ops[i].slot = s;
		ops[i].size = live[s] ? 0 : mixed ? mixed_size() : 256;
		live[s] ^= 1;
	}
}

/* Slots are recycled through a stack; a timing wheel holds the expiries. */
static void gen_prodcons(struct op *ops, size_t n)
{
	static uint32_t wheel_head[LIFETIMES], next[LIFETIMES], stack[LIFETIMES];
	uint32_t top = 0, now = 0;
	size_t i = 0;

	for (uint32_t s = 0; s < LIFETIMES; s++)
		stack[top++] = LIFETIMES - 1 - s;
	memset(wheel_head, 0xff, sizeof(wheel_head));
	while (i < n) {
		uint32_t *w = &wheel_head[now % LIFETIMES];

		for (uint32_t s = *w; s != UINT32_MAX && i < n; s = next[s]) {
			ops[i++] = (struct op){ .slot = s, .size = 0 };
			stack[top++] = s;
		}
		*w = UINT32_MAX;
		if (i < n) {
			uint32_t s = stack[--top];
			uint32_t t = (now + 1 + (uint32_t)(rnd() % (LIFETIMES - 1))) % LIFETIMES;

			ops[i++] = (struct op){ .slot = s, .size = mixed_size() };
			next[s] = wheel_head[t];
			wheel_head[t] = s;
		}
		now++;
	}
}

/* The fake level 1: bump allocation of fake addresses, shrink just counts. */
struct fake {
	uint64_t next;
	uint64_t shrinks;
};

static int fake_grow(void *ctx, uint64_t min, uint64_t *base, uint64_t *len)
{
	struct fake *f = ctx;

	*len = (min + (1 << 20) - 1) & ~((1ull << 20) - 1);
	*base = f->next;
	f->next += *len;
	return 0;
}

static void fake_shrink(void *ctx, uint64_t base, uint64_t len)
{
	struct fake *f = ctx;

	(void)base, (void)len;
	f->shrinks++;
}

static const struct sdaa_suballoc_ops fake_ops = { fake_grow, fake_shrink };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, int rc)
{
	fprintf(stderr, "sdaa-alloc-bench: %s: %s\n", what, strerror(-rc));
	exit(1);
}

struct frag {
	double peak, end;
	uint64_t peak_in_use, peak_held;
};

/* Replay @ops on a fresh suballocator; time it, or sample the stats. */
static double run_suballoc(const struct op *ops, size_t n, uint64_t *slot, struct frag *fr)
{
	struct sdaa_suballoc sa;
	struct sdaa_suballoc_stats st;
	struct fake f = { .next = 1ull << 32 };
	double t0, t;
	int rc = sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN);

	if (rc)
		die("init", rc);
	if (fr)
		memset(fr, 0, sizeof(*fr));
	t0 = now_s();
	for (size_t i = 0; i < n; i++) {
		if (ops[i].size)
			rc = sdaa_suballoc_alloc(&sa, ops[i].size, &slot[ops[i].slot]);
		else
			rc = sdaa_suballoc_free(&sa, slot[ops[i].slot]);
		if (rc)
			die(ops[i].size ? "alloc" : "free", rc);
		if (fr) {
			sdaa_suballoc_stats(&sa, &st);
			if (st.in_use > fr->peak_in_use) {
				fr->peak_in_use = st.in_use;
				fr->peak_held = st.held;
			}
		}
	}
	t = now_s() - t0;
	if (fr) {
		sdaa_suballoc_stats(&sa, &st);
		fr->peak = 1.0 - (double)fr->peak_in_use / (double)fr->peak_held;
		fr->end = st.held ? 1.0 - (double)st.in_use / (double)st.held : 0;
	}
	sdaa_suballoc_fini(&sa);	/* returns the rest untimed */
	return t;
}

/* The op at which the bytes asked for and not yet freed peak. */
static size_t peak_op(const struct op *ops, size_t n, uint32_t *sz, size_t nslots)
{
	uint64_t live = 0, best = 0;
	size_t at = 0;

	memset(sz, 0, nslots * sizeof(*sz));
	for (size_t i = 0; i < n; i++) {
		if (ops[i].size) {
			sz[ops[i].slot] = ops[i].size;
			live += ops[i].size;
		} else {
			live -= sz[ops[i].slot];
		}
		if (live > best) {
			best = live;
			at = i;
		}
	}
	return at;
}

/*
 * Replay @ops through libsdaa; time it, or (@fr) measure the device memory
 * held at the op @peak where the live bytes peak.
 */
static double run_sdaa(const struct op *ops, size_t n, void **slot, uint32_t *sz,
		       size_t nslots, int cross, size_t peak, struct frag *fr)
{
	sdaaError_t (*alloc)(void **, size_t) = cross ? sdaaMallocCross : sdaaMalloc;
	sdaaError_t (*release)(void *) = cross ? sdaaFreeCross : sdaaFree;
	sdaaError_t (*info)(size_t *, size_t *) = cross ? sdaaMemGetInfoCross :
							  sdaaMemGetInfo;
	size_t free0, free1, total;
	uint64_t live = 0;
	double t0, t;
	sdaaError_t err;

	memset(slot, 0, nslots * sizeof(*slot));
	memset(sz, 0, nslots * sizeof(*sz));
	if (fr && info(&free0, &total))
		die("sdaaMemGetInfo", -EIO);
	t0 = now_s();
	for (size_t i = 0; i < n; i++) {
		uint32_t k = ops[i].slot;

		if (ops[i].size) {
			err = alloc(&slot[k], ops[i].size);
			sz[k] = ops[i].size;
			live += ops[i].size;
		} else {
			err = release(slot[k]);
			slot[k] = NULL;
			live -= sz[k];
		}
		if (err) {
			fprintf(stderr, "sdaa-alloc-bench: op %zu: %s\n", i,
				sdaaGetErrorString(err));
			exit(1);
		}
		if (fr && i == peak) {
			info(&free1, &total);
			fr->peak_in_use = live;
			fr->peak_held = free0 - free1;
		}
	}
	t = now_s() - t0;
	if (fr) {
		info(&free1, &total);
		fr->peak = fr->peak_held ? 1.0 - (double)fr->peak_in_use /
					       (double)fr->peak_held : 0;
		fr->end = free0 > free1 ? 1.0 - (double)live / (double)(free0 - free1) : 0;
	}
	for (size_t k = 0; k < nslots; k++)
		release(slot[k]);
	return t;
}

static double run_malloc(const struct op *ops, size_t n, void **slot, size_t nslots)
{
	double t0, t;

	memset(slot, 0, nslots * sizeof(*slot));
	t0 = now_s();
	for (size_t i = 0; i < n; i++) {
		if (ops[i].size) {
			slot[ops[i].slot] = malloc(ops[i].size);
			if (!slot[ops[i].slot])
				die("malloc", -ENOMEM);
		} else {
			free(slot[ops[i].slot]);
			slot[ops[i].slot] = NULL;
		}
	}
	t = now_s() - t0;
	for (size_t s = 0; s < nslots; s++)
		free(slot[s]);
	return t;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "sdaa", no_argument, NULL, 's' },
		{ "cross", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const names[] = { "fixed-256", "mixed", "prodcons" };
	size_t n = 1000000;
	int reps = 3, json = 0, sdaa = 0, cross = 0, c;

	while ((c = getopt_long(argc, argv, "n:r:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'n': n = (size_t)swai_cli_long_or_exit("sdaa-alloc-bench", "-n", optarg, 1, 1L << 30); break;
		case 'r': reps = (int)swai_cli_long_or_exit("sdaa-alloc-bench", "-r", optarg, 1, 1000); break;
		case 'j': json = 1; break;
		case 's': sdaa = 1; break;
		case 'c': cross = 1; break;
		default:
			fprintf(stderr, "usage: %s [-n OPS] [-r REPS] [--json] [--sdaa [--cross]]\n",
				argv[0]);
			return c == 'h' ? 0 : 2;
		}
	}
	if (n < 1 || reps < 1) {
		fprintf(stderr, "sdaa-alloc-bench: -n and -r must be positive\n");
		return 2;
	}

	struct op *ops = malloc(n * sizeof(*ops));
	uint64_t *sslot = calloc(LIFETIMES, sizeof(*sslot));
	void **mslot = calloc(LIFETIMES, sizeof(*mslot));
	void **dslot = calloc(LIFETIMES, sizeof(*dslot));
	uint32_t *sizes = calloc(LIFETIMES, sizeof(*sizes));
	const char *who = !sdaa ? "suballoc" : cross ? "sdaaMallocCross" : "sdaaMalloc";

	if (!ops || !sslot || !mslot || !dslot || !sizes)
		die("host memory", -ENOMEM);
	if (!json)
		printf("%-10s %10s %14s/s %12s %7s %9s %9s %10s\n", "workload", "ops",
		       who, "malloc/s", "ratio", "frag@peak", "frag@end", "peak held");
	for (int w = 0; w < 3; w++) {
		struct frag fr;
		double ts = 1e30, tm = 1e30;

		rng = 0x5eed0000u + (uint64_t)w;
		if (w < 2)
			gen_churn(ops, n, w == 1);
		else
			gen_prodcons(ops, n);
		if (sdaa)
			run_sdaa(ops, n, dslot, sizes, LIFETIMES, cross,
				 peak_op(ops, n, sizes, LIFETIMES), &fr);
		else
			run_suballoc(ops, n, sslot, &fr);	/* also warms the op array */
		for (int r = 0; r < reps; r++) {
			double t = sdaa ? run_sdaa(ops, n, dslot, sizes, LIFETIMES, cross, 0, NULL) :
				   run_suballoc(ops, n, sslot, NULL);

			ts = t < ts ? t : ts;
			t = run_malloc(ops, n, mslot, LIFETIMES);
			tm = t < tm ? t : tm;
		}
		double sops = (double)n / ts, mops = (double)n / tm;

		if (json)
			printf("{\"workload\":\"%s\",\"allocator\":\"%s\",\"ops\":%zu,"
			       "\"ops_per_s\":%.0f,"
			       "\"malloc_ops_per_s\":%.0f,\"ratio\":%.3f,\"frag_peak\":%.4f,"
			       "\"frag_end\":%.4f,\"peak_in_use\":%llu,\"peak_held\":%llu}\n",
			       names[w], who, n, sops, mops, sops / mops, fr.peak, fr.end,
			       (unsigned long long)fr.peak_in_use,
			       (unsigned long long)fr.peak_held);
		else
			printf("%-10s %10zu %15.2fM %11.2fM %7.2f %8.1f%% %8.1f%% %8.1fMiB\n",
			       names[w], n, sops / 1e6, mops / 1e6, sops / mops,
			       100 * fr.peak, 100 * fr.end, (double)fr.peak_held / (1 << 20));
	}
	free(ops);
	free(sslot);
	free(mslot);
	free(dslot);
	free(sizes);
	return 0;
}
