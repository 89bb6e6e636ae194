// SPDX-License-Identifier: MIT
/*
 * sdaa_log.c - diagnostics on stderr, only when SDAA_LOG_LEVEL asks: a
 * library must not print into its host program's output by default.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sdaa_internal.h"

static enum sdaa_log_level level;
static pthread_once_t level_once = PTHREAD_ONCE_INIT;

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

static void level_init(void)
{
	level = sdaa_log_parse(getenv("SDAA_LOG_LEVEL"));
}

void sdaa_log(enum sdaa_log_level lvl, const char *fmt, ...)
{
	static const char *const tag[] = { "", "error", "warn", "info", "debug" };
	char line[512];
	va_list ap;

	pthread_once(&level_once, level_init);
	if (lvl == SDAA_LOG_OFF || lvl > level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One write per line, so lines of several threads do not interleave. */
	fprintf(stderr, "libsdaa %s: %s\n", tag[lvl], line);
}
