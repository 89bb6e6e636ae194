// SPDX-License-Identifier: MIT
/*
 * sdaa_progbuf.c - the program buffer of a queue (sdaa_progbuf.h).
 *
 * The live entries occupy [oldest start, head) going round the ring once at
 * most.  With entries live, head == oldest start means full (an allocation
 * never makes them equal unless it fills the ring exactly).  An allocation
 * that does not fit before the end of the ring starts again at 0; the tail
 * it skips comes back when the entries before it are popped.
 */
#include <errno.h>
#include <stdlib.h>

#include "sdaa_progbuf.h"

int sdaa_progbuf_init(struct sdaa_progbuf *r, size_t size, unsigned int entries)
{
	r->size = size;
	r->head = 0;
	r->first = r->count = 0;
	r->cap = entries;
	r->fifo = calloc(entries, sizeof(*r->fifo));
	return r->fifo ? 0 : -ENOMEM;
}

void sdaa_progbuf_fini(struct sdaa_progbuf *r)
{
	free(r->fifo);
	r->fifo = NULL;
}

int sdaa_progbuf_alloc(const struct sdaa_progbuf *r, size_t len, size_t *off)
{
	size_t oldest;

	if (!len || len > r->size)
		return -EINVAL;
	if (!r->count) {
		*off = 0;
		return 0;
	}
	if (r->count == r->cap)
		return -EAGAIN;
	oldest = r->fifo[r->first].start;
	if (r->head > oldest) {
		/* Free: [head, size) and [0, oldest). */
		if (r->size - r->head >= len) {
			*off = r->head;
			return 0;
		}
		if (oldest >= len) {
			*off = 0;
			return 0;
		}
		return -EAGAIN;
	}
	if (r->head < oldest && oldest - r->head >= len) {
		*off = r->head;
		return 0;
	}
	return -EAGAIN;	/* head == oldest: full */
}

void sdaa_progbuf_commit(struct sdaa_progbuf *r, size_t off, size_t len, uint64_t job)
{
	unsigned int i = (r->first + r->count) % r->cap;

	r->fifo[i] = (struct sdaa_progbuf_entry){ off, off + len, job };
	r->count++;
	r->head = off + len;
}

uint64_t sdaa_progbuf_oldest(const struct sdaa_progbuf *r)
{
	return r->count ? r->fifo[r->first].job : 0;
}

void sdaa_progbuf_pop(struct sdaa_progbuf *r)
{
	if (!r->count)
		return;
	r->first = (r->first + 1) % r->cap;
	if (!--r->count)
		r->head = 0;
}
