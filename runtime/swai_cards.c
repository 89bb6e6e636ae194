// SPDX-License-Identifier: MIT
/*
 * swai_cards.c - find the SW-AI cards in /sys/class/accel (see swai_cards.h).
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swai_cards.h"

/* Is /sys/class/accel/@name bound to the swai driver? */
static int is_swai(const char *name)
{
	char link[PATH_MAX], drv[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/accel/%s/device/driver", name);
	n = readlink(link, drv, sizeof(drv) - 1);
	if (n < 0)
		return 0;
	drv[n] = '\0';
	base = strrchr(drv, '/');
	return !strcmp(base ? base + 1 : drv, "swai");
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int swai_find_minors(int *minors, int max)
{
	DIR *d = opendir("/sys/class/accel");
	struct dirent *e;
	int n = 0, m;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max)
		if (sscanf(e->d_name, "accel%d", &m) == 1 && is_swai(e->d_name))
			minors[n++] = m;
	closedir(d);
	qsort(minors, n, sizeof(*minors), cmp_int);
	return n;
}
