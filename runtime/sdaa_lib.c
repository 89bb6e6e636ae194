// SPDX-License-Identifier: MIT
/*
 * sdaa_lib.c - the library's teardown, in one place.
 *
 * libsdaa comes up lazily, each part when work first needs it, in this
 * order: the devices (sdaa_enum.c: sdaa_runtime(), once, on the first
 * call), the handle tables (sdaa_handle.c), device memory (sdaa_memory.c),
 * pinned host memory (sdaa_host.c), and a card's execution state with its
 * queues and jobs (sdaa_card.c, sdaa_job.c) when the first work is queued
 * on it.  When the library goes away (exit, dlclose) the parts go in the
 * reverse order, here, so that nothing is freed while something later
 * still uses it: no job may read memory being unpinned, no block may be
 * given back to a card already closed.
 */
#include "sdaa_exec.h"
#include "sdaa_handle.h"
#include "sdaa_memory.h"

__attribute__((destructor)) static void sdaa_lib_fini(void)
{
	sdaa_job_fini();
	sdaa_host_fini();
	sdaa_memory_fini();
	sdaa_enum_fini();
	sdaa_handle_fini();
}
