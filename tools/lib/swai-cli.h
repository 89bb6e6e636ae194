/* SPDX-License-Identifier: MIT */
/*
 * swai-cli.h - what every tool's command line shares: sizes with K/M/G
 * suffixes, bounded integers, and one way to say a value is bad (the
 * message names the program, the option and why; the exit status is 2, a
 * usage error, as getopt's).
 */
#ifndef SWAI_CLI_H
#define SWAI_CLI_H

#include <stdint.h>

/*
 * A byte count: an integer (decimal, or 0x hexadecimal) or a decimal
 * fraction ("1.5M", "8e6"), optionally followed by K, M or G (2^10, 2^20,
 * 2^30) and then optionally B.  0 and *out, or -1 (garbage, negative,
 * beyond 2^63, or a fraction of a byte).
 */
int swai_cli_size(const char *s, uint64_t *out);
/* A whole number (decimal or 0x) in [min, max]: 0 and *out, or -1. */
int swai_cli_long(const char *s, long min, long max, long *out);

/* "prog: bad value 'val' for opt: why" on stderr, then exit(2). */
_Noreturn void swai_cli_bad(const char *prog, const char *opt, const char *val,
							const char *why);

/* The value of option opt, or the program exits with swai_cli_bad(). */
uint64_t swai_cli_size_or_exit(const char *prog, const char *opt,
							   const char *val);
long swai_cli_long_or_exit(const char *prog, const char *opt, const char *val,
						   long min, long max);

#endif /* SWAI_CLI_H */
