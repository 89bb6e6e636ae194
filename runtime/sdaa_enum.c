// SPDX-License-Identifier: MIT
/*
 * sdaa_enum.c - find the SW-AI cards once per process and lay out the
 * logical devices (one per core group).
 *
 * Cards are found through /sys/class/accel, since libdrm's enumeration
 * (drmGetDevices2) does not list accel nodes; each is opened for the life of
 * the process (its file is the process's context on the card), checked by
 * driver name and uAPI major version with drmGetVersion(), and asked for its
 * geometry.  Every way this can fail maps to its own sdaaError_t.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "sdaa_internal.h"
#include "swai_cards.h"

static struct sdaa_runtime rt;
static pthread_once_t rt_once = PTHREAD_ONCE_INIT;

int sdaa_parse_visible(const char *s, int total, int *out, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *end;
		long v;
		int dup = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || v >= total)
			break;
		for (int i = 0; i < n; i++)
			dup |= out[i] == v;
		if (dup)
			break;
		out[n++] = (int)v;
		s = end;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != ',')
			break;
		s++;
	}
	return n;
}

static sdaaError_t open_card(struct sdaa_card *c, int minor)
{
	char node[64];
	drmVersionPtr v;
	sdaaError_t err = sdaaSuccess;

	snprintf(node, sizeof(node), "/dev/accel/accel%d", minor);
	c->minor = minor;
	c->fd = open(node, O_RDWR | O_CLOEXEC);
	if (c->fd < 0) {
		int e = errno;

		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_INIT, "cannot open %s: %s", node, strerror(e));
		return e == EACCES || e == EPERM ? sdaaErrorNoPermission :
		       sdaaErrorInitializationError;
	}
	v = drmGetVersion(c->fd);
	if (!v || strcmp(v->name, DRM_SWAI_DRIVER_NAME) ||
	    v->version_major != DRM_SWAI_UAPI_MAJOR) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_INIT, "%s: driver %s uAPI %d.%d, runtime needs %s %d.x",
			 node, v ? v->name : "?", v ? v->version_major : -1,
			 v ? v->version_minor : -1, DRM_SWAI_DRIVER_NAME,
			 DRM_SWAI_UAPI_MAJOR);
		err = sdaaErrorInsufficientDriver;
	} else {
		rt.uapi_major = v->version_major;
		rt.uapi_minor = v->version_minor;
		memset(&c->q, 0, sizeof(c->q));
		if (drmIoctl(c->fd, DRM_IOCTL_SWAI_QUERY_DEVICE, &c->q)) {
			sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_INIT, "%s: query failed: %s", node,
				 strerror(errno));
			err = errno == ENODEV ? sdaaErrorDeviceUnavailable :
			      sdaaErrorInitializationError;
		}
	}
	drmFreeVersion(v);
	if (err) {
		close(c->fd);
		c->fd = -1;
	}
	return err;
}

/* Lay out the logical devices, honouring SDAA_VISIBLE_DEVICES. */
static sdaaError_t layout_devices(void)
{
	struct sdaa_device all[SDAA_MAX_DEVICES];
	int total = 0, pick[SDAA_MAX_DEVICES], n;
	const char *vis = getenv("SDAA_VISIBLE_DEVICES");

	for (int c = 0; c < rt.ncards; c++)
		for (unsigned int g = 0; g < rt.cards[c].q.num_core_groups &&
					 total < SDAA_MAX_DEVICES; g++)
			all[total++] = (struct sdaa_device){ &rt.cards[c], (int)g };
	if (vis) {
		n = sdaa_parse_visible(vis, total, pick, SDAA_MAX_DEVICES);
		sdaa_log(SDAA_LOG_INFO, SDAA_SUB_INIT, "SDAA_VISIBLE_DEVICES=\"%s\": %d of %d devices",
			 vis, n, total);
	} else {
		for (n = 0; n < total; n++)
			pick[n] = n;
	}
	if (!n)
		return sdaaErrorNoDevice;
	rt.devices = calloc(n, sizeof(*rt.devices));
	if (!rt.devices)
		return sdaaErrorHostMemoryAllocation;
	for (int i = 0; i < n; i++)
		rt.devices[i] = all[pick[i]];
	rt.ndevices = n;
	return sdaaSuccess;
}

static sdaaError_t discover(void)
{
	int minors[64], n, opened = 0;
	sdaaError_t first = sdaaSuccess;

	if (access("/sys/module/swai", F_OK)) {
		sdaa_log(SDAA_LOG_ERROR, SDAA_SUB_INIT, "the swai kernel module is not loaded");
		return sdaaErrorDriverNotLoaded;
	}
	n = swai_find_minors(minors, 64);
	sdaa_log(SDAA_LOG_DEBUG, SDAA_SUB_INIT, "%d SW-AI card(s) in /sys/class/accel", n);
	if (!n)
		return sdaaErrorNoDevice;
	rt.cards = calloc(n, sizeof(*rt.cards));
	if (!rt.cards)
		return sdaaErrorHostMemoryAllocation;
	/* A card that cannot be used is skipped; its error is kept for when
	 * no card at all can be used.
	 */
	for (int i = 0; i < n; i++) {
		sdaaError_t err = open_card(&rt.cards[opened], minors[i]);

		if (err == sdaaSuccess)
			opened++;
		else if (first == sdaaSuccess)
			first = err;
	}
	rt.ncards = opened;
	if (!opened)
		return first;
	return layout_devices();
}

static void runtime_init(void)
{
	rt.init_error = discover();
	if (rt.init_error)
		sdaa_log(SDAA_LOG_WARN, SDAA_SUB_INIT, "no usable device: %s",
			 sdaaGetErrorName(rt.init_error));
}

const struct sdaa_runtime *sdaa_runtime(void)
{
	pthread_once(&rt_once, runtime_init);
	return &rt;
}

void sdaa_enum_fini(void)
{
	for (int i = 0; i < rt.ncards; i++)
		close(rt.cards[i].fd);
	free(rt.cards);
	free(rt.devices);
	rt.cards = NULL;
	rt.devices = NULL;
	rt.ncards = rt.ndevices = 0;
}
