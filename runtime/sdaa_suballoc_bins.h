/* SPDX-License-Identifier: MIT */
/*
 * sdaa_suballoc_bins.h - the suballocator's free lists: TLSF-style
 * segregated bins (see sdaa_suballoc.c).  Only sdaa_suballoc.c includes
 * this; it is a header so that these few lines, run on every alloc and
 * free with the lock held, are inlined.  All need the lock.
 */
#ifndef SDAA_SUBALLOC_BINS_H
#define SDAA_SUBALLOC_BINS_H

#include "sdaa_suballoc_index.h"

static inline unsigned int sa_fls64(uint64_t x)
{
	return 63 - (unsigned int)__builtin_clzll(x);
}

/* Size class of @size (>= 16): power-of-two range and sixteenth within it. */
static inline void mapping(uint64_t size, unsigned int *fl, unsigned int *sl)
{
	unsigned int f = sa_fls64(size);

	*fl = f;
	*sl = (unsigned int)(size >> (f - SA_SL_LOG2)) & (SA_SL - 1);
}

static inline __attribute__((always_inline)) void
bin_insert(struct sdaa_suballoc *sa, struct sa_block *b)
{
	unsigned int fl, sl;

	mapping(b->size, &fl, &sl);
	b->is_free = true;
	b->free.prev = NULL;
	b->free.next = sa->bin[fl][sl];
	if (b->free.next)
		b->free.next->free.prev = b;
	sa->bin[fl][sl] = b;
	sa->sl_map[fl] |= 1u << sl;
	sa->fl_map |= 1ull << fl;
	sa->st.free += b->size;
}

static inline __attribute__((always_inline)) void
bin_remove(struct sdaa_suballoc *sa, struct sa_block *b)
{
	unsigned int fl, sl;

	mapping(b->size, &fl, &sl);
	if (b->free.next)
		b->free.next->free.prev = b->free.prev;
	if (b->free.prev) {
		b->free.prev->free.next = b->free.next;
	} else {
		sa->bin[fl][sl] = b->free.next;
		if (!b->free.next) {
			sa->sl_map[fl] &= ~(1u << sl);
			if (!sa->sl_map[fl])
				sa->fl_map &= ~(1ull << fl);
		}
	}
	b->is_free = false;
	sa->st.free -= b->size;
}

/* Take a free block of at least @asize out of its bin, or NULL. */
static inline struct sa_block *find_fit(struct sdaa_suballoc *sa, uint64_t asize)
{
	unsigned int fl, sl;
	uint32_t sm;
	struct sa_block *b;

	/* Round up to the next class boundary: any block from that class on
	 * fits, so the head of the first non-empty bin will do. */
	mapping(asize + (1ull << (sa_fls64(asize) - SA_SL_LOG2)) - 1, &fl, &sl);
	sm = sa->sl_map[fl] & (~0u << sl);
	if (!sm && fl < 63) {
		uint64_t fm = sa->fl_map & (~0ull << (fl + 1));

		if (fm) {
			fl = (unsigned int)__builtin_ctzll(fm);
			sm = sa->sl_map[fl];
		}
	}
	if (sm) {
		b = sa->bin[fl][__builtin_ctz(sm)];
		bin_remove(sa, b);
		return b;
	}
	/* Nothing certain to fit: try the blocks of @asize's own class. */
	mapping(asize, &fl, &sl);
	for (b = sa->bin[fl][sl]; b; b = b->free.next) {
		if (b->size >= asize) {
			bin_remove(sa, b);
			return b;
		}
	}
	return NULL;
}

#endif /* SDAA_SUBALLOC_BINS_H */
