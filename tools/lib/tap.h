/* SPDX-License-Identifier: MIT */
/*
 * tap.h - the minimal TAP harness shared by the host unit tests.
 *
 * A test is a void function that uses CHECK()/CHECK_EQ(); a failed check
 * prints a "# file:line" diagnostic and marks the test failed without
 * stopping it.  TAP_MAIN(table) runs a table of tests in order and prints
 * "1..N" and one "ok"/"not ok" line per test, which tools/run-checks.sh
 * counts.  Header-only: each test program includes it once.
 */
#ifndef SWAI_TAP_H
#define SWAI_TAP_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

static int tap_failed;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("# %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
		tap_failed = 1;						\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);		\
	if (a_ != b_) {							\
		printf("# %s:%d: %s == 0x%" PRIx64 ", expected %s == 0x%" PRIx64 "\n", \
		       __FILE__, __LINE__, #a, a_, #b, b_);		\
		tap_failed = 1;						\
	}								\
} while (0)

struct tap_test {
	const char *name;
	void (*fn)(void);
};

static inline int tap_run(const struct tap_test *tests, int n)
{
	int bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%d\n", n);
	for (int i = 0; i < n; i++) {
		tap_failed = 0;
		tests[i].fn();
		printf("%sok %d - %s\n", tap_failed ? "not " : "", i + 1, tests[i].name);
		bad += tap_failed;
	}
	return bad ? 1 : 0;
}

#define TAP_MAIN(table)							\
int main(void)								\
{									\
	return tap_run(table, (int)(sizeof(table) / sizeof(table[0])));	\
}

#endif /* SWAI_TAP_H */
