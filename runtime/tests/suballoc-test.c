// SPDX-License-Identifier: MIT
/*
 * suballoc-test - host unit tests of the device-memory suballocator
 * (runtime/sdaa_suballoc.c) over a fake level-1 provider: alignment, a
 * randomised run against a shadow model, coalescing in every order, the
 * spare-chunk policy, exhaustion, invalid frees, dedicated chunks, size
 * lookup, 4 threads, fini.  Prints TAP.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "sdaa_suballoc.h"
#include "splitmix64.h"


#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GRANULE (2 * MiB)
#define ALIGN 256ull

/*
 * The fake level 1: 1 GiB of fake addresses in 1 MiB units, first fit, like
 * the driver's bitmap.  It knows every chunk it gave out and counts an
 * error for any shrink that is not exactly one of them (double return,
 * wrong length, never given).
 */
#define SPACE_BASE 0x100000000ull
#define UNIT MiB
#define NUNITS 1024
#define MAX_LIVE NUNITS

struct fake {
	pthread_mutex_t lock;
	unsigned char used[NUNITS];
	struct { uint64_t base, len; } live[MAX_LIVE];
	int nlive;
	uint64_t limit, held;
	int ngrow, nshrink, errors;
	int misalign;			/* hand out a broken chunk */
};

static void fake_init(struct fake *f, uint64_t limit)
{
	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->lock, NULL);
	f->limit = limit;
}

static int fake_grow(void *ctx, uint64_t min, uint64_t *base, uint64_t *len)
{
	struct fake *f = ctx;
	uint64_t n = (min + UNIT - 1) / UNIT;
	int rc = -ENOMEM;

	pthread_mutex_lock(&f->lock);
	if (f->held + n * UNIT <= f->limit && n <= NUNITS) {
		for (uint64_t i = 0, run = 0; i < NUNITS; i++) {
			run = f->used[i] ? 0 : run + 1;
			if (run < n)
				continue;
			memset(&f->used[i + 1 - n], 1, n);
			*base = SPACE_BASE + (i + 1 - n) * UNIT + (f->misalign ? 8 : 0);
			*len = n * UNIT;
			f->live[f->nlive].base = *base;
			f->live[f->nlive].len = *len;
			f->nlive++;
			f->held += *len;
			f->ngrow++;
			rc = 0;
			break;
		}
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

static void fake_shrink(void *ctx, uint64_t base, uint64_t len)
{
	struct fake *f = ctx;
	int i;

	pthread_mutex_lock(&f->lock);
	f->nshrink++;
	for (i = 0; i < f->nlive; i++)
		if (f->live[i].base == base && f->live[i].len == len)
			break;
	if (i == f->nlive) {
		printf("# shrink of a chunk not given out: %#llx + %#llx\n",
		       (unsigned long long)base, (unsigned long long)len);
		f->errors++;
	} else {
		memset(&f->used[((base & ~7ull) - SPACE_BASE) / UNIT], 0, len / UNIT);
		f->live[i] = f->live[--f->nlive];
		f->held -= len;
	}
	pthread_mutex_unlock(&f->lock);
}

/* The live chunk holding [addr, addr + size), or -1. */
static int fake_find(struct fake *f, uint64_t addr, uint64_t size)
{
	for (int i = 0; i < f->nlive; i++)
		if (addr >= f->live[i].base && addr + size <= f->live[i].base + f->live[i].len)
			return i;
	return -1;
}

static const struct sdaa_suballoc_ops fake_ops = {
	.grow = fake_grow,
	.shrink = fake_shrink,
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return splitmix64(&rng_state);
}

/* Log-uniform in [1, max]. */
static uint64_t rnd_size(uint64_t max)
{
	unsigned int bits = 64 - (unsigned int)__builtin_clzll(max);
	uint64_t e = rnd() % bits + 1;
	uint64_t s = rnd() & ((1ull << e) - 1);

	return s ? (s > max ? max : s) : 1;
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

static struct sdaa_suballoc_stats stats(struct sdaa_suballoc *sa)
{
	struct sdaa_suballoc_stats st;

	sdaa_suballoc_stats(sa, &st);
	CHECK(st.in_use + st.free == st.held);
	CHECK(st.largest_free <= st.free);
	CHECK(st.requested <= st.in_use);
	return st;
}

static void finish(struct sdaa_suballoc *sa, struct fake *f)
{
	sdaa_suballoc_fini(sa);
	CHECK(f->nlive == 0);
	CHECK(f->held == 0);
	CHECK(f->errors == 0);
	CHECK(f->ngrow == f->nshrink);
}

static void test_init_args(void)
{
	struct sdaa_suballoc sa;
	struct sdaa_suballoc_ops no_shrink = { .grow = fake_grow };
	struct fake f;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&sa, NULL, &f, GRANULE, ALIGN) == -EINVAL);
	CHECK(sdaa_suballoc_init(&sa, &no_shrink, &f, GRANULE, ALIGN) == -EINVAL);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, 0) == -EINVAL);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, 8) == -EINVAL);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, 384) == -EINVAL);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, 1000, ALIGN) == -EINVAL);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, 128, ALIGN) == -EINVAL);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	CHECK(f.ngrow == 0);		/* nothing asked until needed */
	finish(&sa, &f);
}

static void test_alignment(void)
{
	static const uint64_t aligns[] = { 16, 256, 4096, 64 * KiB };
	uint64_t addr[64];

	for (unsigned int a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++) {
		struct sdaa_suballoc sa;
		struct fake f;

		fake_init(&f, NUNITS * UNIT);
		CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, aligns[a]) == 0);
		CHECK(sdaa_suballoc_alloc(&sa, 0, &addr[0]) == -EINVAL);
		CHECK(sdaa_suballoc_alloc(&sa, 16, NULL) == -EINVAL);
		CHECK(sdaa_suballoc_alloc(&sa, UINT64_MAX, &addr[0]) == -ENOMEM);
		rng_state = 42 + a;
		for (int i = 0; i < 64; i++) {
			uint64_t size = i < 8 ? (uint64_t)i + 1 : rnd_size(3 * MiB);

			CHECK(sdaa_suballoc_alloc(&sa, size, &addr[i]) == 0);
			CHECK(addr[i] % aligns[a] == 0);
			CHECK(fake_find(&f, addr[i], size) >= 0);
		}
		for (int i = 0; i < 64; i++)
			CHECK(sdaa_suballoc_free(&sa, addr[i]) == 0);
		CHECK(stats(&sa).nallocs == 0);
		finish(&sa, &f);
	}
}

/* Randomised, against a shadow model; stats checked after every op. */
#define SHADOW 512
#define RANDOM_OPS 20000

static void test_random(void)
{
	static struct { uint64_t addr, size, usable; } live[SHADOW];
	struct sdaa_suballoc sa;
	struct sdaa_suballoc_stats st, st2;
	struct fake f;
	uint64_t in_use = 0, requested = 0;
	int n = 0;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	rng_state = 1;
	for (int op = 0; op < RANDOM_OPS && !tap_failed; op++) {
		uint64_t r = rnd() % 100, addr, size;

		if (n < SHADOW && (r < 55 || n == 0)) {
			/* 1 % of requests are dedicated-chunk sized */
			size = r == 0 ? GRANULE / 2 + rnd_size(4 * MiB) : rnd_size(256 * KiB);
			CHECK(sdaa_suballoc_alloc(&sa, size, &addr) == 0);
			CHECK(addr % ALIGN == 0);
			for (int i = 0; i < n; i++)
				CHECK(addr + size <= live[i].addr || live[i].addr + live[i].size <= addr);
			int c = fake_find(&f, addr, size);

			CHECK(c >= 0);
			live[n].addr = addr;
			live[n].size = size;
			live[n].usable = round_up(size, ALIGN);
			if (live[n].usable > GRANULE / 2) {	/* owns its chunk */
				CHECK(c >= 0 && f.live[c].base == addr);
				live[n].usable = c >= 0 ? f.live[c].len : 0;
			}
			in_use += live[n].usable;
			requested += size;
			n++;
		} else if (r < 97) {
			int i = (int)(rnd() % (uint64_t)n);

			CHECK(sdaa_suballoc_size(&sa, live[i].addr, &size) == 0);
			CHECK(size == live[i].size);
			CHECK(sdaa_suballoc_free(&sa, live[i].addr) == 0);
			in_use -= live[i].usable;
			requested -= live[i].size;
			live[i] = live[--n];
		} else {	/* a bad free: interior, unaligned, or already freed */
			int i = (int)(rnd() % (uint64_t)n);
			/* (addr + ALIGN may start the next allocation) */
			uint64_t bad = live[i].addr + (r == 99 ? 0 :
				r == 97 && live[i].usable > ALIGN ? ALIGN : 1);

			sdaa_suballoc_stats(&sa, &st);
			if (r == 99) {
				CHECK(sdaa_suballoc_free(&sa, bad) == 0);
				in_use -= live[i].usable;
				requested -= live[i].size;
				live[i] = live[--n];
				sdaa_suballoc_stats(&sa, &st);
			}
			CHECK(sdaa_suballoc_free(&sa, bad) == -EINVAL);
			CHECK(sdaa_suballoc_size(&sa, bad, &size) == -EINVAL);
			sdaa_suballoc_stats(&sa, &st2);
			CHECK(!memcmp(&st, &st2, sizeof(st)));
		}
		st = stats(&sa);
		CHECK(st.nallocs == (uint64_t)n);
		CHECK(st.in_use == in_use);
		CHECK(st.requested == requested);
		CHECK(st.held == f.held);
		CHECK(st.nchunks == (uint64_t)f.nlive);
	}
	while (n > 0)
		CHECK(sdaa_suballoc_free(&sa, live[--n].addr) == 0);
	st = stats(&sa);
	CHECK(st.nallocs == 0 && st.in_use == 0 && st.requested == 0);
	CHECK(st.nchunks <= 1);		/* at most the spare */
	CHECK(st.largest_free == st.held);
	CHECK(f.errors == 0);
	finish(&sa, &f);
}

/* Six blocks tiling one chunk exactly, five that leave a tail. */
static const uint64_t tile[] = { 256 * KiB, 512 * KiB, 128 * KiB, 384 * KiB, 256 * KiB, 512 * KiB };
static const uint64_t part[] = { 100 * KiB, 1, 300 * KiB, 257, 64 * KiB };

static int next_perm(int *p, int n)
{
	int i = n - 2, j = n - 1, t;

	while (i >= 0 && p[i] > p[i + 1])
		i--;
	if (i < 0)
		return 0;
	while (p[j] < p[i])
		j--;
	t = p[i], p[i] = p[j], p[j] = t;
	for (i++, j = n - 1; i < j; i++, j--)
		t = p[i], p[i] = p[j], p[j] = t;
	return 1;
}

static void coalesce_all_orders(const uint64_t *sizes, int n)
{
	struct sdaa_suballoc sa;
	struct sdaa_suballoc_stats st;
	struct fake f;
	uint64_t addr[6];
	int perm[6], nperm = 0;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	for (int i = 0; i < n; i++)
		perm[i] = i;
	do {
		for (int i = 0; i < n; i++)
			CHECK(sdaa_suballoc_alloc(&sa, sizes[i], &addr[i]) == 0);
		for (int i = 0; i < n; i++) {
			CHECK(sdaa_suballoc_free(&sa, addr[perm[i]]) == 0);
			st = stats(&sa);
			CHECK(st.nallocs == (uint64_t)(n - 1 - i));
		}
		/* one free block again, the chunk kept as the spare */
		CHECK(st.free == GRANULE && st.largest_free == GRANULE);
		CHECK(st.nchunks == 1 && f.nlive == 1);
		nperm++;
	} while (next_perm(perm, n) && !tap_failed);
	CHECK(f.ngrow == 1 && f.nshrink == 0);	/* the spare served every round */
	printf("# %d free orders of %d blocks\n", nperm, n);
	finish(&sa, &f);
}

static void test_coalesce(void)
{
	coalesce_all_orders(tile, 6);
	coalesce_all_orders(part, 5);
}

/* At most one entirely free chunk is kept. */
static void test_spare_policy(void)
{
	struct sdaa_suballoc sa;
	struct fake f;
	uint64_t addr[16];
	int n = 0;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	for (int c = 0; c < 3; c++)	/* three chunks, full */
		for (int i = 0; i < 4; i++)
			CHECK(sdaa_suballoc_alloc(&sa, 512 * KiB, &addr[n++]) == 0);
	CHECK(f.ngrow == 3 && stats(&sa).free == 0);
	while (n > 0)
		CHECK(sdaa_suballoc_free(&sa, addr[--n]) == 0);
	CHECK(f.nshrink == 2 && f.nlive == 1 && stats(&sa).nchunks == 1);
	/* the spare is reused, not a new grow */
	CHECK(sdaa_suballoc_alloc(&sa, 64, &addr[0]) == 0);
	CHECK(f.ngrow == 3);
	CHECK(sdaa_suballoc_free(&sa, addr[0]) == 0);
	finish(&sa, &f);
}

static void test_exhaustion(void)
{
	struct sdaa_suballoc sa;
	struct sdaa_suballoc_stats st, st2;
	struct fake f;
	uint64_t addr[80], a;
	int n = 0, rc;

	fake_init(&f, 4 * MiB);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	while (n < 80 && (rc = sdaa_suballoc_alloc(&sa, 64 * KiB, &addr[n])) == 0)
		n++;
	CHECK(rc == -ENOMEM);
	CHECK(n == 64);
	sdaa_suballoc_stats(&sa, &st);
	CHECK(sdaa_suballoc_alloc(&sa, 1, &a) == -ENOMEM);
	CHECK(sdaa_suballoc_alloc(&sa, 3 * MiB, &a) == -ENOMEM);	/* dedicated */
	sdaa_suballoc_stats(&sa, &st2);
	CHECK(!memcmp(&st, &st2, sizeof(st)));
	CHECK(st.held == 4 * MiB && st.in_use == 4 * MiB && st.nallocs == 64);
	/* room again after a free; the hole is reused */
	CHECK(sdaa_suballoc_free(&sa, addr[17]) == 0);
	CHECK(sdaa_suballoc_alloc(&sa, 64 * KiB, &a) == 0);
	CHECK(a == addr[17]);
	addr[17] = a;
	for (int i = 0; i < n; i++)
		CHECK(sdaa_suballoc_free(&sa, addr[i]) == 0);
	/* with one chunk returned, a dedicated chunk fits again */
	CHECK(sdaa_suballoc_alloc(&sa, 2 * MiB, &a) == 0);
	CHECK(sdaa_suballoc_free(&sa, a) == 0);
	finish(&sa, &f);

	/* a provider that breaks the contract gets -EIO and its chunk back */
	fake_init(&f, 4 * MiB);
	f.misalign = 1;
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	CHECK(sdaa_suballoc_alloc(&sa, 1, &a) == -EIO);
	CHECK(f.nlive == 0 && stats(&sa).nchunks == 0);
	finish(&sa, &f);
}

static void test_invalid_free(void)
{
	struct sdaa_suballoc sa;
	struct sdaa_suballoc_stats st, st2;
	struct fake f;
	uint64_t a, b, big, size;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	CHECK(sdaa_suballoc_alloc(&sa, 1000, &a) == 0);
	CHECK(sdaa_suballoc_alloc(&sa, 5000, &b) == 0);
	CHECK(sdaa_suballoc_alloc(&sa, 3 * MiB, &big) == 0);
	CHECK(sdaa_suballoc_free(&sa, b) == 0);
	sdaa_suballoc_stats(&sa, &st);
	const uint64_t bad[] = {
		0, 1, a + 1, a + ALIGN, a - ALIGN, big + ALIGN, big + MiB,
		b,			/* double free */
		b + 8 * KiB,		/* in the chunk, never allocated */
		SPACE_BASE + 512 * MiB,	/* not in any chunk */
		UINT64_MAX,
	};
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(sdaa_suballoc_free(&sa, bad[i]) == -EINVAL);
		CHECK(sdaa_suballoc_size(&sa, bad[i], &size) == -EINVAL);
	}
	sdaa_suballoc_stats(&sa, &st2);
	CHECK(!memcmp(&st, &st2, sizeof(st)));
	CHECK(sdaa_suballoc_free(&sa, a) == 0);
	CHECK(sdaa_suballoc_free(&sa, a) == -EINVAL);
	CHECK(sdaa_suballoc_free(&sa, big) == 0);
	CHECK(sdaa_suballoc_free(&sa, big) == -EINVAL);
	CHECK(stats(&sa).nallocs == 0);
	finish(&sa, &f);
}

static void test_dedicated(void)
{
	struct sdaa_suballoc sa;
	struct sdaa_suballoc_stats st;
	struct fake f;
	uint64_t small, half, big, huge;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	CHECK(sdaa_suballoc_alloc(&sa, 100, &small) == 0);
	CHECK(sdaa_suballoc_alloc(&sa, GRANULE / 2, &half) == 0);	/* shared */
	CHECK(f.ngrow == 1 && stats(&sa).ndedicated == 0);
	CHECK(sdaa_suballoc_alloc(&sa, GRANULE / 2 + 1, &big) == 0);
	st = stats(&sa);
	CHECK(f.ngrow == 2 && st.ndedicated == 1 && st.nchunks == 2);
	int c = fake_find(&f, big, GRANULE / 2 + 1);

	CHECK(c >= 0 && f.live[c].base == big);
	CHECK(st.free == GRANULE - GRANULE / 2 - ALIGN);	/* the tail is not shared */
	CHECK(sdaa_suballoc_alloc(&sa, 8 * MiB + 1, &huge) == 0);
	CHECK(f.ngrow == 3 && stats(&sa).ndedicated == 2);
	CHECK(sdaa_suballoc_free(&sa, big) == 0);
	CHECK(f.nshrink == 1 && fake_find(&f, big, 1) < 0);	/* back at once */
	CHECK(sdaa_suballoc_free(&sa, huge) == 0);
	CHECK(f.nshrink == 2);
	st = stats(&sa);
	CHECK(st.ndedicated == 0 && st.nchunks == 1 && st.held == GRANULE);
	CHECK(sdaa_suballoc_free(&sa, half) == 0);
	CHECK(sdaa_suballoc_free(&sa, small) == 0);
	CHECK(f.nshrink == 2 && f.nlive == 1);	/* the spare stays */
	finish(&sa, &f);
}

static void test_size(void)
{
	static const uint64_t sizes[] = { 1, 255, 256, 257, 4097, 1000000, GRANULE / 2 + 1, 3 * MiB };
	struct sdaa_suballoc sa;
	struct fake f;
	uint64_t addr[8], size;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	for (int i = 0; i < 8; i++)
		CHECK(sdaa_suballoc_alloc(&sa, sizes[i], &addr[i]) == 0);
	for (int i = 0; i < 8; i++) {
		CHECK(sdaa_suballoc_size(&sa, addr[i], &size) == 0);
		CHECK(size == sizes[i]);
	}
	CHECK(sdaa_suballoc_free(&sa, addr[3]) == 0);
	CHECK(sdaa_suballoc_size(&sa, addr[3], &size) == -EINVAL);
	CHECK(stats(&sa).requested == 1 + 255 + 256 + 4097 + 1000000 + GRANULE / 2 + 1 + 3 * MiB);
	finish(&sa, &f);		/* with live allocations */
}

/* 4 threads; every 256-byte granule of the fake space has an owner flag. */
#define NTHREADS 4
#define THREAD_OPS 100000
static atomic_uchar owner[NUNITS * UNIT / ALIGN];
static atomic_int mt_errors;
static struct sdaa_suballoc mt_sa;

static void mark(uint64_t addr, uint64_t size, unsigned char from, unsigned char to)
{
	uint64_t g = (addr - SPACE_BASE) / ALIGN, end = g + (size + ALIGN - 1) / ALIGN;

	if (addr < SPACE_BASE || end > NUNITS * UNIT / ALIGN) {
		atomic_fetch_add(&mt_errors, 1);
		return;
	}
	for (; g < end; g++)
		if (atomic_exchange(&owner[g], to) != from)
			atomic_fetch_add(&mt_errors, 1);
}

static void *mt_thread(void *arg)
{
	uint64_t st = (uint64_t)(uintptr_t)arg * 1000003, addr[64] = { 0 }, size[64];

	for (int op = 0; op < THREAD_OPS; op++) {
		uint64_t z = (st += 0x9e3779b97f4a7c15ull);
		int i;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		i = (int)(z % 64);
		if (addr[i]) {
			mark(addr[i], size[i], 1, 0);
			if (sdaa_suballoc_free(&mt_sa, addr[i]))
				atomic_fetch_add(&mt_errors, 1);
			addr[i] = 0;
		} else {
			size[i] = (z >> 8) % 1000 == 0 ? GRANULE / 2 + (z >> 20) % MiB
						       : 1 + (z >> 20) % 16384;
			if (sdaa_suballoc_alloc(&mt_sa, size[i], &addr[i]))
				atomic_fetch_add(&mt_errors, 1), addr[i] = 0;
			else
				mark(addr[i], size[i], 0, 1);
		}
	}
	for (int i = 0; i < 64; i++) {
		if (addr[i]) {
			mark(addr[i], size[i], 1, 0);
			if (sdaa_suballoc_free(&mt_sa, addr[i]))
				atomic_fetch_add(&mt_errors, 1);
		}
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[NTHREADS];
	struct sdaa_suballoc_stats st;
	struct fake f;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&mt_sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	for (long i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&t[i], NULL, mt_thread, (void *)(i + 1)) == 0);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(atomic_load(&mt_errors) == 0);
	st = stats(&mt_sa);
	CHECK(st.nallocs == 0 && st.in_use == 0 && st.nchunks <= 1);
	for (uint64_t g = 0; g < NUNITS * UNIT / ALIGN; g++)
		if (atomic_load(&owner[g]))
			atomic_fetch_add(&mt_errors, 1);
	CHECK(atomic_load(&mt_errors) == 0);
	printf("# %d threads x %d ops: %d grows, %d shrinks\n", NTHREADS, THREAD_OPS,
	       f.ngrow, f.nshrink);
	finish(&mt_sa, &f);
}

/*
 * A level 1 that has one range and gives it once (as the runtime's device
 * address space does): threads that all start on an empty pool at once
 * each fail to find room and ask it to grow, and only the first is given
 * the range -- the others must find their room in it, not fail.
 */
static int once_grow(void *ctx, uint64_t min, uint64_t *base, uint64_t *len)
{
	atomic_int *given = ctx;

	if (min > 64 * MiB || atomic_exchange(given, 1))
		return -ENOMEM;
	*base = SPACE_BASE;
	*len = 64 * MiB;
	return 0;
}

static void once_shrink(void *ctx, uint64_t base, uint64_t len)
{
	(void)base;
	(void)len;
	atomic_store((atomic_int *)ctx, 0);
}

static const struct sdaa_suballoc_ops once_ops = { .grow = once_grow, .shrink = once_shrink };
static struct sdaa_suballoc once_sa;
static pthread_barrier_t once_start;
static atomic_int once_failed;

static void *once_thread(void *arg)
{
	uint64_t a;

	(void)arg;
	pthread_barrier_wait(&once_start);
	if (sdaa_suballoc_alloc(&once_sa, 4096, &a))
		atomic_fetch_add(&once_failed, 1);
	return NULL;
}

static void test_grow_once_race(void)
{
	pthread_t t[NTHREADS];
	atomic_int given = 0;

	for (int round = 0; round < 200; round++) {
		CHECK(sdaa_suballoc_init(&once_sa, &once_ops, &given, 64 * MiB, ALIGN) == 0);
		CHECK(pthread_barrier_init(&once_start, NULL, NTHREADS) == 0);
		for (long i = 0; i < NTHREADS; i++)
			CHECK(pthread_create(&t[i], NULL, once_thread, NULL) == 0);
		for (int i = 0; i < NTHREADS; i++)
			pthread_join(t[i], NULL);
		pthread_barrier_destroy(&once_start);
		CHECK(stats(&once_sa).nallocs == NTHREADS);
		CHECK(atomic_load(&given) == 1);
		sdaa_suballoc_fini(&once_sa);
	}
	CHECK(atomic_load(&once_failed) == 0);
}

/* fini returns every chunk, live allocations or not. */
static void test_fini(void)
{
	struct sdaa_suballoc sa;
	struct fake f;
	uint64_t a;

	fake_init(&f, NUNITS * UNIT);
	CHECK(sdaa_suballoc_init(&sa, &fake_ops, &f, GRANULE, ALIGN) == 0);
	rng_state = 7;
	for (int i = 0; i < 2000; i++) {
		CHECK(sdaa_suballoc_alloc(&sa, rnd_size(GRANULE), &a) == 0);
		if (i % 3 == 0)
			CHECK(sdaa_suballoc_free(&sa, a) == 0);
	}
	CHECK(f.nlive > 2 && stats(&sa).ndedicated > 0);
	printf("# fini with %d chunks held\n", f.nlive);
	finish(&sa, &f);
}

static const struct tap_test tests[] = {
	{ "init rejects bad arguments", test_init_args },
	{ "alignment", test_alignment },
	{ "random ops vs shadow model: no overlap, stats consistent", test_random },
	{ "coalescing in every free order", test_coalesce },
	{ "at most one free chunk kept", test_spare_policy },
	{ "exhaustion: -ENOMEM, state intact, recovers", test_exhaustion },
	{ "invalid, interior and double free: -EINVAL, no change", test_invalid_free },
	{ "big allocations get a dedicated chunk", test_dedicated },
	{ "size lookup", test_size },
	{ "4 threads: no lost or duplicated addresses", test_threads },
	{ "4 threads on an empty pool whose level 1 gives its range once", test_grow_once_race },
	{ "fini returns every chunk", test_fini },
};

TAP_MAIN(tests)
