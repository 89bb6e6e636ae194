/* SPDX-License-Identifier: MIT */
/*
 * swai-mask.h - a list of names as a bit mask, as NCCL_DEBUG_SUBSYS reads
 * one: "JOB,MEM" sets the bits of those names (case ignored, commas or
 * spaces between), "ALL" every bit, a leading '^' takes the names out of
 * ALL.  Unknown names are ignored.  Shared by libsdaa's SDAA_LOG_SUBSYS and
 * libswccl's SWCCL_DEBUG_SUBSYS.
 */
#ifndef SWAI_MASK_H
#define SWAI_MASK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Bit i is names[i]; all = the bits of every name. */
static inline unsigned int swai_mask_parse(const char *s, const char *const *names,
					   unsigned int n, unsigned int all)
{
	unsigned int mask = 0;
	bool invert = *s == '^';
	char buf[128], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", s + invert);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (!strcasecmp(tok, "ALL"))
			mask |= all;
		for (unsigned int i = 0; i < n; i++)
			if (!strcasecmp(tok, names[i]))
				mask |= 1u << i;
	}
	return invert ? all & ~mask : mask;
}

#endif /* SWAI_MASK_H */
