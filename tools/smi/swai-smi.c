// SPDX-License-Identifier: MIT
/*
 * swai-smi - show the SW-AI cards of this system: identity, geometry and
 * memory tiers, as a table or (--json) as JSON for scripts.
 *
 * Cards are found with swai_find_minors() (runtime/swai_cards.c), checked with drmGetVersion and asked with
 * DRM_IOCTL_SWAI_QUERY_DEVICE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>
#include "swai-cli.h"
#include "drm/swai_accel.h"
#include "swai_cards.h"

#define MAX_CARDS 64

struct card {
	int minor;
	char node[32];
	int uapi_major, uapi_minor;
	struct drm_swai_query_device q;
	bool has_mem;			/* DRM_SWAI_CAP_MEMORY: mem is valid */
	struct drm_swai_mem_info mem;
};

/*
 * The name of every DRM_SWAI_CAP_* bit, from one list: a bit the uAPI adds
 * without a name here fails the build (the assertion below).
 */
#define SWAI_SMI_CAPS(X) \
	X(QUERY, "query") X(MSIX, "msix") X(PARTITION, "partition") \
	X(MEMORY, "memory") X(USERPTR, "userptr") X(SUBMIT, "submit") \
	X(TIMING, "timing") X(PEER, "peer") X(COMPUTE, "compute") \
	X(PRIME, "prime") X(FABRIC, "fabric") X(NIC, "nic")

#define SWAI_SMI_CAP_ENTRY(bit, name) { DRM_SWAI_CAP_##bit, name },
#define SWAI_SMI_CAP_OR(bit, name) | DRM_SWAI_CAP_##bit
static const struct {
	uint64_t bit;
	const char *name;
} cap_names[] = { SWAI_SMI_CAPS(SWAI_SMI_CAP_ENTRY) };
_Static_assert((0 SWAI_SMI_CAPS(SWAI_SMI_CAP_OR)) == DRM_SWAI_CAP_ALL,
	       "swai-smi: name every DRM_SWAI_CAP_* bit in SWAI_SMI_CAPS");

/* Open and query one card; on failure print why and return -1. */
static int probe_card(struct card *c)
{
	drmVersionPtr v;
	int fd = open(c->node, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "swai-smi: %s: %s%s\n", c->node, strerror(errno),
			errno == EACCES ? " (join the 'render' group or run as root)" : "");
		return -1;
	}
	v = drmGetVersion(fd);
	if (!v || strcmp(v->name, DRM_SWAI_DRIVER_NAME) ||
	    v->version_major != DRM_SWAI_UAPI_MAJOR) {
		fprintf(stderr, "swai-smi: %s: not a swai uAPI %d.x device\n",
			c->node, DRM_SWAI_UAPI_MAJOR);
		drmFreeVersion(v);
		close(fd);
		return -1;
	}
	c->uapi_major = v->version_major;
	c->uapi_minor = v->version_minor;
	drmFreeVersion(v);
	memset(&c->q, 0, sizeof(c->q));
	if (drmIoctl(fd, DRM_IOCTL_SWAI_QUERY_DEVICE, &c->q)) {
		fprintf(stderr, "swai-smi: %s: query failed: %s\n", c->node,
			strerror(errno));
		close(fd);
		return -1;
	}
	memset(&c->mem, 0, sizeof(c->mem));
	c->has_mem = (c->q.capabilities & DRM_SWAI_CAP_MEMORY) &&
		     !drmIoctl(fd, DRM_IOCTL_SWAI_MEM_INFO, &c->mem);
	close(fd);
	return 0;
}

static int find_cards(struct card *cards, int max, int only, int *errors)
{
	int minors[MAX_CARDS], n = swai_find_minors(minors, MAX_CARDS), got = 0;

	*errors = 0;
	for (int i = 0; i < n && got < max; i++) {
		if (only >= 0 && minors[i] != only)
			continue;
		cards[got].minor = minors[i];
		snprintf(cards[got].node, sizeof(cards[got].node),
			 "/dev/accel/accel%d", minors[i]);
		if (probe_card(&cards[got]))
			(*errors)++;
		else
			got++;
	}
	return got;
}

/* Exact human size: the largest binary unit that divides @b. */
static const char *hsize(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (u < 4 && b >= 1024 && b % 1024 == 0) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", b, unit[u]);
	return buf;
}

static void caps_str(uint64_t caps, char *buf, size_t len, bool json)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++) {
		if (!(caps & cap_names[i].bit))
			continue;
		off += snprintf(buf + off, len - off, json ? "%s\"%s\"" : "%s%s",
				off ? "," : "", cap_names[i].name);
		if (off >= len)
			return;
	}
}

static void pci_str(const struct drm_swai_query_device *q, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", q->pci_domain, q->pci_bdf >> 8,
		 (q->pci_bdf >> 3) & 0x1f, q->pci_bdf & 7);
}

/* Capacity and use of every region, and the live contexts (processes). */
static void print_memory(const struct card *cards, int n)
{
	static const char *const names[DRM_SWAI_MEM_REGIONS] = {
		"local0", "local1", "local2", "local3", "global", "host",
	};
	char a[32], b[32], c[32];

	printf("\nMemory use\n%-4s %-8s %12s %12s %12s %s\n", "CARD", "REGION",
	       "CAPACITY", "USED", "LARGEST FREE", "CONTEXTS");
	for (int i = 0; i < n; i++) {
		const struct drm_swai_mem_info *m = &cards[i].mem;

		if (!cards[i].has_mem)
			continue;
		for (int r = 0; r < DRM_SWAI_MEM_REGIONS; r++) {
			if (r < DRM_SWAI_MEM_GLOBAL &&
			    r >= (int)cards[i].q.num_core_groups)
				continue;
			printf("%-4d %-8s %12s %12s %12s", cards[i].minor, names[r],
			       hsize(m->region[r].capacity, a, sizeof(a)),
			       hsize(m->region[r].used, b, sizeof(b)),
			       hsize(m->region[r].largest_free, c, sizeof(c)));
			if (r == 0)
				printf(" %u (%u objects)", m->contexts - 1, m->objects);
			printf("\n");
		}
	}
}

static void print_table(const struct card *cards, int n)
{
	char a[32], b[32], c[32], d[32], e[32], pci[32], caps[128];

	printf("%d SW-AI card%s (driver %s, uAPI %d.%d)\n\n", n, n == 1 ? "" : "s",
	       DRM_SWAI_DRIVER_NAME, cards[0].uapi_major, cards[0].uapi_minor);
	printf("%-4s %-18s %-13s %-4s %3s %6s %-8s %-9s %-9s %-9s %-9s %s\n",
	       "CARD", "NODE", "PCI", "HW", "CGs", "CPE/CG", "LDM/CPE", "HBM/CG",
	       "LOCAL/CG", "GLOBAL", "APERTURE", "CAPS");
	for (int i = 0; i < n; i++) {
		const struct drm_swai_query_device *q = &cards[i].q;

		pci_str(q, pci, sizeof(pci));
		caps_str(q->capabilities, caps, sizeof(caps), false);
		printf("%-4d %-18.18s %-13s %u.%-2u %3u %6u %-8s %-9s %-9s %-9s %-9s %s\n",
		       cards[i].minor, cards[i].node, pci, q->hw_version >> 16,
		       q->hw_version & 0xffff, q->num_core_groups, q->cpes_per_cg,
		       hsize(q->ldm_size, a, sizeof(a)),
		       hsize(q->hbm_per_cg, b, sizeof(b)),
		       hsize(q->local_per_cg, c, sizeof(c)),
		       hsize(q->global_size, d, sizeof(d)),
		       hsize(q->aperture_size, e, sizeof(e)), caps);
	}
	printf("\nMemory tiers\n%-4s %-34s %-30s %s\n", "CARD",
	       "L0 LDM (per CPE x CPEs)", "L1 Local-HBM (per CG x CGs)",
	       "L2 Global-HBM (shared by all CGs)");
	for (int i = 0; i < n; i++) {
		const struct drm_swai_query_device *q = &cards[i].q;
		unsigned int cpes = q->cpes_per_cg * q->num_core_groups;
		char l0[96], l1[96], l2[96], f[32];

		snprintf(l0, sizeof(l0), "%s x %u = %s", hsize(q->ldm_size, a, sizeof(a)),
			 cpes, hsize((uint64_t)q->ldm_size * cpes, b, sizeof(b)));
		snprintf(l1, sizeof(l1), "%s x %u = %s",
			 hsize(q->local_per_cg, c, sizeof(c)), q->num_core_groups,
			 hsize(q->local_per_cg * q->num_core_groups, d, sizeof(d)));
		snprintf(l2, sizeof(l2), "%s, interleaved every %s",
			 hsize(q->global_size, e, sizeof(e)),
			 hsize(q->global_granule, f, sizeof(f)));
		printf("%-4d %-34s %-30s %s\n", cards[i].minor, l0, l1, l2);
	}
	for (int i = 0; i < n; i++) {
		if (cards[i].has_mem) {
			print_memory(cards, n);
			break;
		}
	}
}

static void print_json(const struct card *cards, int n)
{
	printf("{\n  \"driver\": \"%s\",\n  \"uapi\": \"%d.%d\",\n  \"cards\": [",
	       DRM_SWAI_DRIVER_NAME, DRM_SWAI_UAPI_MAJOR, DRM_SWAI_UAPI_MINOR);
	for (int i = 0; i < n; i++) {
		const struct drm_swai_query_device *q = &cards[i].q;
		char pci[32], caps[128];

		pci_str(q, pci, sizeof(pci));
		caps_str(q->capabilities, caps, sizeof(caps), true);
		printf("%s\n    {\"index\": %d, \"node\": \"%s\", \"pci\": \"%s\", "
		       "\"vendor\": %u, \"device\": %u, \"revision\": %u, "
		       "\"hw_version\": \"%u.%u\", \"capabilities\": [%s], "
		       "\"core_groups\": %u, \"cpes_per_cg\": %u, \"ldm_size\": %u, "
		       "\"hbm_per_cg\": %" PRIu64 ", \"local_per_cg\": %" PRIu64 ", "
		       "\"global_size\": %" PRIu64 ", \"global_base\": %" PRIu64 ", "
		       "\"global_granule\": %u, \"aperture_size\": %" PRIu64 ", "
		       "\"tiers\": {\"l0_ldm_total\": %" PRIu64 ", "
		       "\"l1_local_total\": %" PRIu64 ", \"l2_global\": %" PRIu64 "}",
		       i ? "," : "", cards[i].minor, cards[i].node, pci, q->pci_vendor,
		       q->pci_device, q->pci_revision, q->hw_version >> 16,
		       q->hw_version & 0xffff, caps, q->num_core_groups,
		       q->cpes_per_cg, q->ldm_size, (uint64_t)q->hbm_per_cg,
		       (uint64_t)q->local_per_cg, (uint64_t)q->global_size,
		       (uint64_t)q->global_base, q->global_granule,
		       (uint64_t)q->aperture_size,
		       (uint64_t)q->ldm_size * q->cpes_per_cg * q->num_core_groups,
		       (uint64_t)q->local_per_cg * q->num_core_groups,
		       (uint64_t)q->global_size);
		if (cards[i].has_mem) {
			const struct drm_swai_mem_info *m = &cards[i].mem;

			/* swai-smi's own open is one of the contexts: not counted. */
			printf(", \"contexts\": %u, \"objects\": %u, \"regions\": [",
			       m->contexts - 1, m->objects);
			for (int r = 0; r < DRM_SWAI_MEM_REGIONS; r++)
				printf("%s{\"region\": %d, \"capacity\": %llu, "
				       "\"used\": %llu, \"largest_free\": %llu}",
				       r ? ", " : "", r,
				       (unsigned long long)m->region[r].capacity,
				       (unsigned long long)m->region[r].used,
				       (unsigned long long)m->region[r].largest_free);
			printf("]");
		}
		printf("}");
	}
	printf("\n  ]\n}\n");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: swai-smi [--json] [--device N]\n"
		"  -j, --json       print JSON instead of a table\n"
		"  -d, --device N   only /dev/accel/accelN\n"
		"  -h, --help       this text\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static struct card cards[MAX_CARDS];
	bool json = false;
	int only = -1, n, errors, o;

	while ((o = getopt_long(argc, argv, "jd:h", opts, NULL)) != -1) {
		switch (o) {
		case 'j':
			json = true;
			break;
		case 'd':
			only = (int)swai_cli_long_or_exit("swai-smi", "-d", optarg, 0, 1 << 20);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	n = find_cards(cards, MAX_CARDS, only, &errors);
	if (n == 0) {
		if (!errors)
			fprintf(stderr, "swai-smi: no SW-AI card found%s\n",
				access("/sys/module/swai", F_OK) ?
				" (swai.ko is not loaded: modprobe swai)" : "");
		return 1;
	}
	if (json)
		print_json(cards, n);
	else
		print_table(cards, n);
	return errors ? 1 : 0;
}
