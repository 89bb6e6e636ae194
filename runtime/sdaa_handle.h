/* SPDX-License-Identifier: MIT */
/*
 * sdaa_handle.h - the values behind sdaaStream_t and sdaaEvent_t.
 *
 * A handle is not a pointer to the object but slot index, generation and
 * kind packed into the pointer's bits, so that a destroyed or never created
 * handle -- or a stream passed as an event -- is recognised and answered
 * with sdaaErrorInvalidResourceHandle instead of touching freed memory.
 * Slots live in chunks that are never freed or moved, so a lookup takes no
 * lock; creating and destroying take one.
 */
#ifndef SDAA_HANDLE_H
#define SDAA_HANDLE_H

#include <stdint.h>

enum sdaa_handle_kind {
	SDAA_HANDLE_STREAM = 1,
	SDAA_HANDLE_EVENT = 2,
};

/* A handle for @obj; 0 when the table is full or out of memory. */
uintptr_t sdaa_handle_new(enum sdaa_handle_kind kind, void *obj);
/* Free every handle table (sdaa_lib.c's teardown). */
void sdaa_handle_fini(void);
/* The object of live handle @h of @kind; NULL for anything else. */
void *sdaa_handle_get(enum sdaa_handle_kind kind, uintptr_t h);
/* Retire @h and return its object; NULL if @h is not live. */
void *sdaa_handle_del(enum sdaa_handle_kind kind, uintptr_t h);

#endif /* SDAA_HANDLE_H */
