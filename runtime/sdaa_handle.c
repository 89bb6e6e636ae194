// SPDX-License-Identifier: MIT
/*
 * sdaa_handle.c - handle tables for streams and events (sdaa_handle.h).
 *
 * Handle bits: generation (32) | slot index (28) | kind (3) | 1.  The low
 * bit is set so that no real pointer (all aligned) is ever a live handle.
 * A slot's generation moves on when its handle is retired, so an old handle
 * of a reused slot no longer matches.
 */
#include <pthread.h>
#include <stdlib.h>

#include "sdaa_handle.h"

#define CHUNK		256U
#define MAX_CHUNKS	4096U		/* one million live handles */

struct slot {
	uint64_t state;		/* generation << 1 | live, atomic */
	void *obj;
};

static struct table {
	pthread_mutex_t lock;		/* creating, retiring */
	struct slot *chunk[MAX_CHUNKS];	/* published with release stores */
	unsigned int nslots;		/* slots ever handed out */
	unsigned int *free;		/* retired slot indices, a stack */
	unsigned int nfree, capfree;
} tables[3] = {
	{ .lock = PTHREAD_MUTEX_INITIALIZER },
	{ .lock = PTHREAD_MUTEX_INITIALIZER },
	{ .lock = PTHREAD_MUTEX_INITIALIZER },
};

static struct slot *slot_of(struct table *t, unsigned int idx)
{
	struct slot *c;

	if (idx / CHUNK >= MAX_CHUNKS)
		return NULL;
	c = __atomic_load_n(&t->chunk[idx / CHUNK], __ATOMIC_ACQUIRE);
	return c ? &c[idx % CHUNK] : NULL;
}

static uintptr_t encode(enum sdaa_handle_kind kind, unsigned int idx, uint64_t gen)
{
	return (uintptr_t)(gen << 32 | (uint64_t)idx << 4 | (uint64_t)kind << 1 | 1);
}

/* A free slot index (lock held); -1 if none can be had. */
static long take_slot(struct table *t)
{
	unsigned int idx;

	if (t->nfree)
		return t->free[--t->nfree];
	idx = t->nslots;
	if (idx / CHUNK >= MAX_CHUNKS)
		return -1;
	if (!t->chunk[idx / CHUNK]) {
		struct slot *c = calloc(CHUNK, sizeof(*c));

		if (!c)
			return -1;
		/* Generations start at 1: no handle has generation 0. */
		for (unsigned int i = 0; i < CHUNK; i++)
			c[i].state = 1ULL << 1;
		__atomic_store_n(&t->chunk[idx / CHUNK], c, __ATOMIC_RELEASE);
	}
	t->nslots++;
	return idx;
}

uintptr_t sdaa_handle_new(enum sdaa_handle_kind kind, void *obj)
{
	struct table *t = &tables[kind];
	uintptr_t h = 0;
	struct slot *s;
	long idx;

	pthread_mutex_lock(&t->lock);
	idx = take_slot(t);
	if (idx >= 0) {
		s = slot_of(t, (unsigned int)idx);
		s->obj = obj;
		__atomic_store_n(&s->state, s->state | 1, __ATOMIC_RELEASE);
		h = encode(kind, (unsigned int)idx, s->state >> 1);
	}
	pthread_mutex_unlock(&t->lock);
	return h;
}

/* The live slot @h names, if it is one of @kind. */
static struct slot *lookup(enum sdaa_handle_kind kind, uintptr_t h)
{
	uint64_t v = h, state;
	struct slot *s;

	if ((v & 0xf) != ((uint64_t)kind << 1 | 1))
		return NULL;
	s = slot_of(&tables[kind], (unsigned int)((v >> 4) & 0xfffffff));
	if (!s)
		return NULL;
	state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
	return (state & 1) && (uint32_t)(state >> 1) == (uint32_t)(v >> 32) ? s : NULL;
}

void *sdaa_handle_get(enum sdaa_handle_kind kind, uintptr_t h)
{
	struct slot *s = lookup(kind, h);

	return s ? s->obj : NULL;
}

void *sdaa_handle_del(enum sdaa_handle_kind kind, uintptr_t h)
{
	struct table *t = &tables[kind];
	void *obj = NULL;
	struct slot *s;

	pthread_mutex_lock(&t->lock);
	s = lookup(kind, h);
	if (s && t->nfree == t->capfree) {
		unsigned int cap = t->capfree ? 2 * t->capfree : 64;
		unsigned int *f = realloc(t->free, cap * sizeof(*f));

		if (f) {
			t->free = f;
			t->capfree = cap;
		}
	}
	if (s) {
		uint64_t gen = (uint32_t)((s->state >> 1) + 1);

		obj = s->obj;
		s->obj = NULL;
		/* Skip generation 0 when the counter wraps. */
		__atomic_store_n(&s->state, (gen ? gen : 1) << 1, __ATOMIC_RELEASE);
		/* Without room on the free stack the slot is simply not reused. */
		if (t->nfree < t->capfree)
			t->free[t->nfree++] = (unsigned int)((h >> 4) & 0xfffffff);
	}
	pthread_mutex_unlock(&t->lock);
	return obj;
}

void sdaa_handle_fini(void)
{
	for (unsigned int k = 0; k < 3; k++) {
		for (unsigned int c = 0; c < MAX_CHUNKS && tables[k].chunk[c]; c++) {
			free(tables[k].chunk[c]);
			tables[k].chunk[c] = NULL;
		}
		free(tables[k].free);
		tables[k].free = NULL;
		tables[k].nfree = tables[k].capfree = tables[k].nslots = 0;
	}
}
