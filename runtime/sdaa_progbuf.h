/* SPDX-License-Identifier: MIT */
/*
 * sdaa_progbuf.h - the program buffer of one queue: a FIFO of bytes.
 *
 * Programs are copied into pinned host memory the card fetches from when the
 * job starts, so their bytes may be reused only once the job has finished.
 * A queue's jobs finish in submission order, so the bytes are handed out
 * round the ring and taken back oldest first: each entry remembers its job,
 * and when the ring is full the caller waits for the oldest job and pops
 * it.  Pure bookkeeping over offsets; the memory and the waiting are the
 * caller's (sdaa_job.c).
 */
#ifndef SDAA_PROGBUF_H
#define SDAA_PROGBUF_H

#include <stddef.h>
#include <stdint.h>

struct sdaa_progbuf_entry {
	size_t start, end;	/* [start, end) of the ring */
	uint64_t job;
};

struct sdaa_progbuf {
	size_t size;		/* bytes */
	size_t head;		/* next free offset */
	struct sdaa_progbuf_entry *fifo;
	unsigned int cap, first, count;
};

/* A ring of @size bytes with room for @entries live entries; 0 or -ENOMEM. */
int sdaa_progbuf_init(struct sdaa_progbuf *r, size_t size, unsigned int entries);
void sdaa_progbuf_fini(struct sdaa_progbuf *r);

/*
 * Find @len contiguous free bytes (1 <= @len <= size); 0 with *@off set, or
 * -EAGAIN when the oldest entry must go first (sdaa_progbuf_oldest, then
 * sdaa_progbuf_pop), -EINVAL if @len can never fit.  Nothing is taken until
 * sdaa_progbuf_commit: alloc, then commit or drop it.
 */
int sdaa_progbuf_alloc(const struct sdaa_progbuf *r, size_t len, size_t *off);
void sdaa_progbuf_commit(struct sdaa_progbuf *r, size_t off, size_t len, uint64_t job);
/* The job of the oldest entry; 0 if the ring is empty. */
uint64_t sdaa_progbuf_oldest(const struct sdaa_progbuf *r);
void sdaa_progbuf_pop(struct sdaa_progbuf *r);

#endif /* SDAA_PROGBUF_H */
