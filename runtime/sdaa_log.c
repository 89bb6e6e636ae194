// SPDX-License-Identifier: MIT
/*
 * sdaa_log.c - diagnostics on stderr, only when SDAA_LOG_LEVEL asks: a
 * library must not print into its host program's output by default.
 * SDAA_LOG_SUBSYS narrows INFO and DEBUG to some subsystems; jobs are named
 * as in every layer of the stack: ctx <ASID> q <core group> job <id>.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sdaa_internal.h"
#include "swai-mask.h"

static enum sdaa_log_level level;
static unsigned int subsys_mask;
static pthread_once_t level_once = PTHREAD_ONCE_INIT;

static const char *const subsys_names[] = { "INIT", "MEM", "JOB", "KERNEL" };

enum sdaa_log_level sdaa_log_parse(const char *s)
{
	static const char *const names[] = { "off", "error", "warn", "info", "debug" };

	if (!s || !*s)
		return SDAA_LOG_OFF;
	if (s[0] >= '0' && s[0] <= '4' && !s[1])
		return (enum sdaa_log_level)(s[0] - '0');
	for (int i = 0; i <= SDAA_LOG_DEBUG; i++)
		if (!strcasecmp(s, names[i]))
			return (enum sdaa_log_level)i;
	return SDAA_LOG_WARN;	/* set, but to something unknown */
}

unsigned int sdaa_log_parse_subsys(const char *s)
{
	if (!s || !*s)
		return SDAA_SUB_ALL;
	return swai_mask_parse(s, subsys_names, sizeof(subsys_names) / sizeof(subsys_names[0]),
			       SDAA_SUB_ALL);
}

static void level_init(void)
{
	level = sdaa_log_parse(getenv("SDAA_LOG_LEVEL"));
	subsys_mask = sdaa_log_parse_subsys(getenv("SDAA_LOG_SUBSYS"));
}

void sdaa_log(enum sdaa_log_level lvl, enum sdaa_log_subsys subsys, const char *fmt, ...)
{
	static const char *const tag[] = { "", "error", "warn", "info", "debug" };
	char line[512];
	va_list ap;

	pthread_once(&level_once, level_init);
	if (lvl == SDAA_LOG_OFF || lvl > level)
		return;
	if (lvl > SDAA_LOG_WARN && !(subsys & subsys_mask))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One write per line, so lines of several threads do not interleave. */
	fprintf(stderr, "libsdaa %s %s: %s\n", tag[lvl],
		subsys_names[__builtin_ctz((unsigned int)subsys)], line);
}
