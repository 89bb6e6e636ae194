/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_test.h - helpers shared by the swai selftests (run inside the VM).
 *
 * Cards are found the way the runtime finds them (runtime/swai_cards.c), in
 * accel-minor order.  The
 * geometry a test expects comes from the environment (SWAI_EXPECT_*), set by
 * tools/run-checks.sh to the QEMU properties the VM was booted with.
 */
#ifndef SWAI_TEST_H
#define SWAI_TEST_H

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
#include "swai_cards.h"

#define SWAI_MAX_CARDS 16

struct swai_card {
	int minor;			/* N of /dev/accel/accelN */
	char node[32];			/* /dev/accel/accelN */
	char sysfs[PATH_MAX];		/* the PCI device's sysfs directory */
	char bdf[32];			/* its PCI address, 0000:00:03.0 */
};

/* Fill @cards with the swai cards present, in minor order; return how many. */
static inline int swai_find_cards(struct swai_card *cards, int max)
{
	int minors[SWAI_MAX_CARDS], n = swai_find_minors(minors, SWAI_MAX_CARDS);

	if (n > max)
		n = max;
	for (int i = 0; i < n; i++) {
		char link[64];

		cards[i].minor = minors[i];
		snprintf(cards[i].node, sizeof(cards[i].node), "/dev/accel/accel%d",
			 minors[i]);
		snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", minors[i]);
		if (!realpath(link, cards[i].sysfs))
			cards[i].sysfs[0] = '\0';
		snprintf(cards[i].bdf, sizeof(cards[i].bdf), "%s",
			 strrchr(cards[i].sysfs, '/') ? strrchr(cards[i].sysfs, '/') + 1 : "");
	}
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

/*
 * Write @val to sysfs attribute @attr of the first card, after reading its
 * old value into @old (@n bytes), so a test can restore it (job_timeout_ms).
 */
static inline int swai_sysfs_swap(const char *attr, const char *val, char *old, size_t n)
{
	struct swai_card c[SWAI_MAX_CARDS];
	char path[PATH_MAX + 64];
	FILE *f;

	if (swai_find_cards(c, SWAI_MAX_CARDS) < 1)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", c[0].sysfs, attr);
	f = fopen(path, "r");
	if (!f || !fgets(old, (int)n, f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(val, f);
	return fclose(f) ? -1 : 0;
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
