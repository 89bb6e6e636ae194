// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_query_test - the cards enumerate, and DRM_IOCTL_SWAI_QUERY_DEVICE and
 * the sysfs attributes report exactly the geometry QEMU was told to emulate
 * (SWAI_EXPECT_* in the environment; see tools/run-checks.sh).
 */
#include <pthread.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "swai_test.h"
#include "kselftest_harness.h"

#define MIB (1ULL << 20)
#define KNOWN_CAPS (DRM_SWAI_CAP_QUERY | DRM_SWAI_CAP_MSIX | DRM_SWAI_CAP_PARTITION | \
		    DRM_SWAI_CAP_MEMORY | DRM_SWAI_CAP_USERPTR | DRM_SWAI_CAP_SUBMIT | \
		    DRM_SWAI_CAP_TIMING | DRM_SWAI_CAP_PEER | DRM_SWAI_CAP_COMPUTE | \
		    DRM_SWAI_CAP_PRIME)

FIXTURE(cards) {
	struct swai_card card[SWAI_MAX_CARDS];
	int fd[SWAI_MAX_CARDS];
	int n;
};

FIXTURE_SETUP(cards)
{
	self->n = swai_find_cards(self->card, SWAI_MAX_CARDS);
	ASSERT_GT(self->n, 0) TH_LOG("no swai card bound: is swai.ko loaded?");
	for (int i = 0; i < self->n; i++) {
		self->fd[i] = open(self->card[i].node, O_RDWR | O_CLOEXEC);
		ASSERT_GE(self->fd[i], 0) TH_LOG("open %s: %s",
						 self->card[i].node, strerror(errno));
	}
}

FIXTURE_TEARDOWN(cards)
{
	for (int i = 0; i < self->n; i++)
		close(self->fd[i]);
}

/* As many cards as the VM was booted with, each a char device of the accel major. */
TEST_F(cards, enumerate)
{
	long long want = swai_expect("SWAI_EXPECT_CARDS");
	struct stat st;

	if (want >= 0)
		ASSERT_EQ(want, self->n);
	for (int i = 0; i < self->n; i++) {
		ASSERT_EQ(0, stat(self->card[i].node, &st));
		ASSERT_TRUE(S_ISCHR(st.st_mode));
		ASSERT_EQ(261u, major(st.st_rdev));	/* ACCEL_MAJOR */
		ASSERT_EQ((unsigned int)self->card[i].minor, minor(st.st_rdev));
	}
}

/* drmGetVersion names our driver and the uAPI version of the header. */
TEST_F(cards, drm_version)
{
	for (int i = 0; i < self->n; i++) {
		drmVersionPtr v = drmGetVersion(self->fd[i]);

		ASSERT_NE(NULL, v);
		EXPECT_STREQ(DRM_SWAI_DRIVER_NAME, v->name);
		EXPECT_EQ(DRM_SWAI_UAPI_MAJOR, v->version_major);
		EXPECT_GE(v->version_minor, DRM_SWAI_UAPI_MINOR);
		drmFreeVersion(v);
	}
}

/* The PCI identity in the query agrees with the PCI core's view. */
TEST_F(cards, pci_identity)
{
	for (int i = 0; i < self->n; i++) {
		struct drm_swai_query_device q;
		unsigned int dom, bus, dev, fn;

		ASSERT_EQ(0, swai_query(self->fd[i], &q));
		EXPECT_EQ(swai_sysfs_num(&self->card[i], "vendor"), q.pci_vendor);
		EXPECT_EQ(swai_sysfs_num(&self->card[i], "device"), q.pci_device);
		EXPECT_EQ(swai_sysfs_num(&self->card[i], "revision"), q.pci_revision);
		EXPECT_EQ(0x1234, q.pci_vendor);
		EXPECT_EQ(0x5a10, q.pci_device);
		ASSERT_EQ(4, sscanf(self->card[i].bdf, "%x:%x:%x.%x",
				    &dom, &bus, &dev, &fn));
		EXPECT_EQ(dom, q.pci_domain);
		EXPECT_EQ(bus << 8 | dev << 3 | fn, q.pci_bdf);
	}
}

/* Geometry equals the QEMU properties the VM was booted with. */
TEST_F(cards, geometry_matches_properties)
{
	long long hbm = swai_expect("SWAI_EXPECT_HBM_MB");
	long long local = swai_expect("SWAI_EXPECT_LOCAL_MB");
	long long cpes = swai_expect("SWAI_EXPECT_CPES");
	long long ldm = swai_expect("SWAI_EXPECT_LDM_KB");

	if (hbm < 0 || local < 0 || cpes < 0 || ldm < 0)
		SKIP(return, "SWAI_EXPECT_* not set: geometry unknown");
	for (int i = 0; i < self->n; i++) {
		struct drm_swai_query_device q;

		ASSERT_EQ(0, swai_query(self->fd[i], &q));
		EXPECT_EQ(1u << 16, q.hw_version);
		EXPECT_EQ(4u, q.num_core_groups);
		EXPECT_EQ(cpes, q.cpes_per_cg);
		EXPECT_EQ(ldm * 1024, q.ldm_size);
		EXPECT_EQ(hbm * MIB, q.hbm_per_cg);
		EXPECT_EQ(local * MIB, q.local_per_cg);
		EXPECT_EQ(4 * (hbm - local) * MIB, q.global_size);
		EXPECT_EQ(4096u, q.global_granule);
		EXPECT_EQ(1ULL << 40, q.global_base);
		/* BAR2 covers all of HBM and is a power of two. */
		EXPECT_GE(q.aperture_size, 4 * hbm * MIB);
		EXPECT_EQ(0ULL, q.aperture_size & (q.aperture_size - 1));
	}
}

/* Every sysfs attribute equals the query field it mirrors. */
TEST_F(cards, sysfs_matches_query)
{
	for (int i = 0; i < self->n; i++) {
		const struct swai_card *c = &self->card[i];
		struct drm_swai_query_device q;

		ASSERT_EQ(0, swai_query(self->fd[i], &q));
		EXPECT_EQ((long long)q.hw_version, swai_sysfs_num(c, "hw_version"));
		EXPECT_EQ((long long)q.num_core_groups, swai_sysfs_num(c, "core_groups"));
		EXPECT_EQ((long long)q.cpes_per_cg, swai_sysfs_num(c, "cpes_per_cg"));
		EXPECT_EQ((long long)q.ldm_size, swai_sysfs_num(c, "ldm_size"));
		EXPECT_EQ((long long)q.hbm_per_cg, swai_sysfs_num(c, "hbm_per_cg"));
		EXPECT_EQ((long long)q.local_per_cg, swai_sysfs_num(c, "local_per_cg"));
		EXPECT_EQ((long long)q.global_size, swai_sysfs_num(c, "global_size"));
		EXPECT_EQ((long long)q.global_granule, swai_sysfs_num(c, "global_granule"));
		EXPECT_EQ((long long)q.aperture_size, swai_sysfs_num(c, "aperture_size"));
		EXPECT_EQ((long long)q.capabilities, swai_sysfs_num(c, "capabilities"));
	}
}

/* Interrupts were proven at probe, and no capability bit is unknown. */
TEST_F(cards, capabilities)
{
	for (int i = 0; i < self->n; i++) {
		struct drm_swai_query_device q;

		ASSERT_EQ(0, swai_query(self->fd[i], &q));
		/*
		 * FABRIC: on a fabric (tools/vm/swai-vm --topology, the default);
		 * NIC: its port on a network (--nic-hub, swai-cluster --card-nics).
		 */
		EXPECT_EQ(KNOWN_CAPS | (q.fabric_cards ? DRM_SWAI_CAP_FABRIC : 0),
			  q.capabilities & ~DRM_SWAI_CAP_NIC);
		EXPECT_EQ(0ULL, q.capabilities & ~DRM_SWAI_CAP_ALL);
		if (q.fabric_cards) {
			EXPECT_LT(q.fabric_id, q.fabric_cards);
			EXPECT_NE(0u, q.fabric_tag);
		} else {
			EXPECT_EQ(0u, q.fabric_id | q.fabric_tag);
		}
	}
}

/* Out-only padding and reserved words come back zero even if sent dirty. */
TEST_F(cards, reserved_out_zero)
{
	struct drm_swai_query_device q;

	ASSERT_EQ(0, swai_query(self->fd[0], &q));
	EXPECT_EQ(0, q.pad2[0] | q.pad2[1] | q.pad2[2]);
	EXPECT_EQ(0u, q.pad3);
	EXPECT_EQ(0u, q.pad4);
	for (int r = 0; r < 2; r++)
		EXPECT_EQ(0ULL, q.reserved[r]);
}

/* Each card answers for itself: distinct PCI addresses. */
TEST_F(cards, distinct_cards)
{
	for (int i = 0; i < self->n; i++) {
		struct drm_swai_query_device a, b;

		ASSERT_EQ(0, swai_query(self->fd[i], &a));
		for (int j = i + 1; j < self->n; j++) {
			ASSERT_EQ(0, swai_query(self->fd[j], &b));
			EXPECT_NE(a.pci_bdf, b.pci_bdf);
		}
	}
}

static void *query_loop(void *arg)
{
	const char *node = arg;
	struct drm_swai_query_device first, q;
	long bad = 0;
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd < 0 || swai_query(fd, &first))
		return (void *)1L;
	for (int k = 0; k < 2000; k++)
		bad += swai_query(fd, &q) || memcmp(&q, &first, sizeof(q));
	close(fd);
	return (void *)bad;
}

/* Many threads querying every card at once all see the same answer. */
TEST_F(cards, concurrent_queries)
{
	pthread_t th[SWAI_MAX_CARDS * 2];
	int nth = self->n * 2;

	for (int t = 0; t < nth; t++)
		ASSERT_EQ(0, pthread_create(&th[t], NULL, query_loop,
					    self->card[t % self->n].node));
	for (int t = 0; t < nth; t++) {
		void *bad;

		ASSERT_EQ(0, pthread_join(th[t], &bad));
		EXPECT_EQ(NULL, bad);
	}
}

/* Opening and closing a node many times leaks no file (fd numbers reuse). */
TEST_F(cards, open_close_many)
{
	int first = open(self->card[0].node, O_RDWR | O_CLOEXEC);

	ASSERT_GE(first, 0);
	close(first);
	for (int k = 0; k < 500; k++) {
		int fd = open(self->card[0].node, O_RDWR | O_CLOEXEC);

		ASSERT_EQ(first, fd);
		close(fd);
	}
}

TEST_HARNESS_MAIN
