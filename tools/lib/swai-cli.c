// SPDX-License-Identifier: MIT
/*
 * swai-cli.c - the tools' shared command-line values (swai-cli.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-cli.h"

int swai_cli_size(const char *s, uint64_t *out)
{
	bool hex = s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long long u = 0;
	double v, unit = 1;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+') {
		return -1;
	}
	errno = 0;
	if (hex) {
		u = strtoull(s, &end, 16);
		v = (double)u;
		if (end == s + 2) {
			return -1;
		}
	} else {
		v = strtod(s, &end);
	}
	if (end == s || errno || !isfinite(v)) {
		return -1;
	}
	switch (*end) {
	case 'k': case 'K': unit = 1024.0; end++; break;
	case 'm': case 'M': unit = 1048576.0; end++; break;
	case 'g': case 'G': unit = 1073741824.0; end++; break;
	}
	if (*end == 'b' || *end == 'B') {
		end++;
	}
	v *= unit;
	if (*end || v >= 9223372036854775808.0 || v != floor(v)) {
		return -1;
	}
	/* Exact for hexadecimal; a double holds any other count exactly. */
    *out = hex && unit == 1 ? (uint64_t)u : (uint64_t)v;
	return 0;
}

int swai_cli_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s)) {
		return -1;
	}
	errno = 0;
	v = strtol(s, &end, 0);
	if (*end || errno || v < min || v > max) {
		return -1;
	}
    *out = v;
	return 0;
}

void swai_cli_bad(const char *prog, const char *opt, const char *val,
				  const char *why)
{
	fprintf(stderr, "%s: bad value '%s' for %s: %s (--help for usage)\n",
			prog, val ? val : "", opt, why);
	exit(2);
}

uint64_t swai_cli_size_or_exit(const char *prog, const char *opt,
							   const char *val)
{
	uint64_t v;

	if (swai_cli_size(val, &v)) {
		swai_cli_bad(prog, opt, val,
					 "want a byte count such as 4096, 64K, 1.5M or 0x1000");
	}
	return v;
}

long swai_cli_long_or_exit(const char *prog, const char *opt, const char *val,
						   long min, long max)
{
	char why[96];
	long v;

	if (swai_cli_long(val, min, max, &v)) {
		snprintf(why, sizeof(why), "want a whole number from %ld to %ld",
				 min, max);
		swai_cli_bad(prog, opt, val, why);
	}
	return v;
}
