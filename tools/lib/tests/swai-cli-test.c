// SPDX-License-Identifier: MIT
/*
 * swai-cli-test - the tools' shared command-line values (tools/lib/swai-cli.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "swai-cli.h"
#include "tap.h"

static uint64_t size_of(const char *s, int *rc)
{
	uint64_t v = 12345;

	*rc = swai_cli_size(s, &v);
	return v;
}

static void sizes(void)
{
	int rc;

	CHECK_EQ(size_of("4096", &rc), 4096);
	CHECK_EQ(rc, 0);
	CHECK_EQ(size_of("64K", &rc), 65536);
	CHECK_EQ(size_of("64k", &rc), 65536);
	CHECK_EQ(size_of("1M", &rc), 1048576);
	CHECK_EQ(size_of("1MB", &rc), 1048576);
	CHECK_EQ(size_of("2G", &rc), 2147483648ull);
	CHECK_EQ(size_of("1.5M", &rc), 1572864);
	CHECK_EQ(size_of("8e6", &rc), 8000000);
	CHECK_EQ(size_of("0x1000", &rc), 4096);
	CHECK_EQ(size_of("0", &rc), 0);
	CHECK_EQ(rc, 0);
}

static void bad_sizes(void)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "K", "1X", "1KK", "1.5", "0x", "0xg", "1e30",
		"nan", "inf", "12 ", "9223372036854775808", "10G5",
	};
	int rc;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(size_of(bad[i], &rc), 12345);	/* untouched */
		CHECK_EQ(rc, -1);
	}
	CHECK_EQ(swai_cli_size(NULL, &(uint64_t){ 0 }), -1);
}

static void longs(void)
{
	long v = 7;

	CHECK_EQ(swai_cli_long("3", 1, 10, &v), 0);
	CHECK_EQ(v, 3);
	CHECK_EQ(swai_cli_long("0x10", 0, 100, &v), 0);
	CHECK_EQ(v, 16);
	CHECK_EQ(swai_cli_long("-2", -5, 5, &v), 0);
	CHECK_EQ(v, -2);
	v = 7;
	CHECK_EQ(swai_cli_long("11", 1, 10, &v), -1);
	CHECK_EQ(swai_cli_long("0", 1, 10, &v), -1);
	CHECK_EQ(swai_cli_long("3x", 1, 10, &v), -1);
	CHECK_EQ(swai_cli_long("", 1, 10, &v), -1);
	CHECK_EQ(swai_cli_long("99999999999999999999", 0, 10, &v), -1);
	CHECK_EQ(v, 7);
}

/* The _or_exit forms: the value, or a message and exit status 2. */
static void or_exit(void)
{
	int st, fd[2];
	char msg[256] = "";
	ssize_t n;
	pid_t pid;

	CHECK_EQ(swai_cli_size_or_exit("t", "--max", "2K"), 2048);
	CHECK_EQ(swai_cli_long_or_exit("t", "-n", "5", 1, 9), 5);
	CHECK(pipe(fd) == 0);
	pid = fork();
	if (!pid) {
		dup2(fd[1], 2);
		swai_cli_size_or_exit("prog", "--max", "12Q");
		_exit(0);
	}
	close(fd[1]);
	n = read(fd[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	CHECK(strstr(msg, "prog: bad value '12Q' for --max:") != NULL);
}

static const struct tap_test tests[] = {
	{ "sizes: suffixes, fractions, hexadecimal", sizes },
	{ "sizes: garbage, sign, overflow, fractions of a byte refused", bad_sizes },
	{ "whole numbers in a range", longs },
	{ "a bad value: the program, option and reason; exit 2", or_exit },
};

TAP_MAIN(tests)
