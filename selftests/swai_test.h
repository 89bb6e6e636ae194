/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_test.h - helpers shared by the swai selftests (run inside the VM).
 *
 * Cards are found the way the runtime finds them: every /sys/class/accel/accelN
 * whose PCI device is bound to the "swai" driver, in accel-minor order.  The
 * geometry a test expects comes from the environment (SWAI_EXPECT_*), set by
 * tools/run-checks.sh to the QEMU properties the VM was booted with.
 */
#ifndef SWAI_TEST_H
#define SWAI_TEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <xf86drm.h>
#include "drm/swai_accel.h"

#define SWAI_MAX_CARDS 16

struct swai_card {
	int minor;			/* N of /dev/accel/accelN */
	char node[300];			/* /dev/accel/accelN */
	char sysfs[PATH_MAX];		/* the PCI device's sysfs directory */
	char bdf[32];			/* its PCI address, 0000:00:03.0 */
};

static int swai_cmp_card(const void *a, const void *b)
{
	return ((const struct swai_card *)a)->minor -
	       ((const struct swai_card *)b)->minor;
}

/* Fill @cards with the swai cards present; return how many. */
static inline int swai_find_cards(struct swai_card *cards, int max)
{
	DIR *d = opendir("/sys/class/accel");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char link[PATH_MAX], drv[PATH_MAX];
		ssize_t len;
		int minor;

		if (sscanf(e->d_name, "accel%d", &minor) != 1)
			continue;
		snprintf(link, sizeof(link), "/sys/class/accel/%s/device/driver",
			 e->d_name);
		len = readlink(link, drv, sizeof(drv) - 1);
		if (len < 0)
			continue;
		drv[len] = '\0';
		if (strcmp(strrchr(drv, '/') ? strrchr(drv, '/') + 1 : drv, "swai"))
			continue;
		cards[n].minor = minor;
		snprintf(cards[n].node, sizeof(cards[n].node), "/dev/accel/%s",
			 e->d_name);
		snprintf(link, sizeof(link), "/sys/class/accel/%s/device", e->d_name);
		if (!realpath(link, cards[n].sysfs))
			continue;
		snprintf(cards[n].bdf, sizeof(cards[n].bdf), "%s",
			 strrchr(cards[n].sysfs, '/') + 1);
		n++;
	}
	closedir(d);
	qsort(cards, n, sizeof(*cards), swai_cmp_card);
	return n;
}

/* Query @fd; return 0 or -errno. */
static inline int swai_query(int fd, struct drm_swai_query_device *q)
{
	memset(q, 0, sizeof(*q));
	return ioctl(fd, DRM_IOCTL_SWAI_QUERY_DEVICE, q) ? -errno : 0;
}

/* An expected value from the environment, or -1 when the run did not say. */
static inline long long swai_expect(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? strtoll(v, NULL, 0) : -1;
}

/* Read a numeric sysfs attribute of a card's PCI device; -1 on error. */
static inline long long swai_sysfs_num(const struct swai_card *c, const char *attr)
{
	char path[PATH_MAX + 64], buf[64];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", c->sysfs, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtoll(buf, NULL, 0);
	fclose(f);
	return v;
}

/* Count the swai cards, polling up to @ms for them to reach @want. */
static inline int swai_wait_cards(int want, int ms)
{
	struct swai_card cards[SWAI_MAX_CARDS];
	int n = 0;

	for (int t = 0; t <= ms; t += 50) {
		n = swai_find_cards(cards, SWAI_MAX_CARDS);
		if (n == want)
			break;
		usleep(50 * 1000);
	}
	return n;
}

#endif /* SWAI_TEST_H */
