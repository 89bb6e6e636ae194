// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_peer_test - peer access between core groups of one card:
 * sdaaDeviceCanAccessPeer, sdaaDeviceEnablePeerAccess and
 * sdaaDeviceDisablePeerAccess with CUDA's answers and errors; sdaaMemcpy
 * from one core group's Local-HBM to another's, exact bytes, direct (one
 * job, cheaper in modeled time) when enabled and through Global-HBM when
 * not; a launched program writing a peer's Local-HBM with peer access, and
 * the sticky sdaaErrorForeignLocalAccess once it is disabled.
 */
#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"

/* Device 0 and another core group of its card, or skip. */
#define NEED_PEER(a, b) do {						\
	struct sdaaDeviceProp p_;					\
	NEED_SUBMIT();							\
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&p_, 0));	\
	(a) = 0;							\
	(b) = sdaa_test_cg_device(p_.coreGroup ? 0 : 1);		\
	if ((b) < 0)							\
		SKIP(return, "one core group of the card is visible");	\
	if (!(p_.capabilities & DRM_SWAI_CAP_PEER))			\
		SKIP(return, "no DRM_SWAI_CAP_PEER");			\
} while (0)

TEST(can_access_peer)
{
	int a, b, can = -1, n;

	NEED_PEER(a, b);
	ASSERT_EQ(sdaaSuccess, sdaaDeviceCanAccessPeer(&can, a, b));
	EXPECT_EQ(1, can);
	ASSERT_EQ(sdaaSuccess, sdaaDeviceCanAccessPeer(&can, b, a));
	EXPECT_EQ(1, can);
	ASSERT_EQ(sdaaSuccess, sdaaDeviceCanAccessPeer(&can, a, a));
	EXPECT_EQ(0, can);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&n));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaDeviceCanAccessPeer(NULL, a, b));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaDeviceCanAccessPeer(&can, a, n));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaDeviceCanAccessPeer(&can, -1, b));
	/* Devices of two cards cannot without a fabric (sdaa_fabric_test). */
	setenv("SDAA_P2P_DISABLE", "1", 1);
	for (int d = 0; d < n; d++) {
		struct sdaaDeviceProp p0, p;

		sdaaGetDeviceProperties(&p0, a);
		sdaaGetDeviceProperties(&p, d);
		if (p.card == p0.card)
			continue;
		ASSERT_EQ(sdaaSuccess, sdaaDeviceCanAccessPeer(&can, a, d));
		EXPECT_EQ(0, can);
		ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
		EXPECT_EQ(sdaaErrorPeerAccessUnsupported, sdaaDeviceEnablePeerAccess(d, 0));
		break;
	}
	unsetenv("SDAA_P2P_DISABLE");
	sdaaGetLastError();
}

TEST(enable_disable_errors)
{
	int a, b, n;

	NEED_PEER(a, b);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceCount(&n));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	EXPECT_EQ(sdaaErrorPeerAccessNotEnabled, sdaaDeviceDisablePeerAccess(b));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaDeviceEnablePeerAccess(b, 1));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaDeviceEnablePeerAccess(a, 0));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaDeviceEnablePeerAccess(n, 0));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaDeviceDisablePeerAccess(-1));
	EXPECT_EQ(sdaaSuccess, sdaaDeviceEnablePeerAccess(b, 0));
	EXPECT_EQ(sdaaErrorPeerAccessAlreadyEnabled, sdaaDeviceEnablePeerAccess(b, 0));
	/* Not sticky: the last error is reset by reading it. */
	EXPECT_EQ(sdaaErrorPeerAccessAlreadyEnabled, sdaaGetLastError());
	EXPECT_EQ(sdaaSuccess, sdaaGetLastError());
	EXPECT_STRNE("unrecognized error code",
		     sdaaGetErrorString(sdaaErrorPeerAccessAlreadyEnabled));
	EXPECT_STREQ("sdaaErrorPeerAccessNotEnabled",
		     sdaaGetErrorName(sdaaErrorPeerAccessNotEnabled));
	EXPECT_STREQ("sdaaErrorPeerAccessUnsupported",
		     sdaaGetErrorName(sdaaErrorPeerAccessUnsupported));
	/* Enabling is per direction: b has not enabled a. */
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	EXPECT_EQ(sdaaErrorPeerAccessNotEnabled, sdaaDeviceDisablePeerAccess(a));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	EXPECT_EQ(sdaaSuccess, sdaaDeviceDisablePeerAccess(b));
	EXPECT_EQ(sdaaErrorPeerAccessNotEnabled, sdaaDeviceDisablePeerAccess(b));
	sdaaGetLastError();
}

/* Copy @n bytes @src -> @dst on device @dev's stream 0; modeled ms. */
static sdaaError_t timed_copy(void *dst, const void *src, size_t n, float *ms)
{
	sdaaEvent_t e0, e1;
	sdaaError_t err;

	if (sdaaEventCreate(&e0) || sdaaEventCreate(&e1))
		return sdaaErrorUnknown;
	err = sdaaEventRecord(e0, NULL);
	if (!err)
		err = sdaaMemcpyAsync(dst, src, n, sdaaMemcpyDeviceToDevice, NULL);
	if (!err)
		err = sdaaEventRecord(e1, NULL);
	if (!err)
		err = sdaaEventSynchronize(e1);
	if (!err)
		err = sdaaEventElapsedTime(ms, e0, e1);
	sdaaEventDestroy(e0);
	sdaaEventDestroy(e1);
	return err;
}

/*
 * Local-HBM of a to Local-HBM of b and back, odd offsets, before and after
 * a enables peer access to b: the same bytes every time; a -> b costs one
 * launch and one COPY when enabled, more through Global-HBM.
 */
TEST_F_TIMEOUT(card, memcpy_local_to_peer_local, 120)
{
	enum { N = 3 * MIB + 13 };
	static unsigned char in[N + 64], out[N + 64];
	float bounce_ms, direct_ms, back_ms;
	struct sdaaDeviceProp prop;
	char *la, *lb;
	int a, b;

	NEED_PEER(a, b);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, a));
	if (prop.totalLocalMem < 8 * MIB)
		SKIP(return, "less than 8 MiB of Local-HBM per core group");
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&lb, N + 64));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&la, N + 64));

	sdaa_test_fill(in, sizeof(in), 5);
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(la, in, sizeof(in), sdaaMemcpyHostToDevice));
	ASSERT_EQ(sdaaSuccess, timed_copy(lb + 7, la + 3, N, &bounce_ms));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, lb + 7, N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(out, in + 3, N));

	ASSERT_EQ(sdaaSuccess, sdaaDeviceEnablePeerAccess(b, 0));
	sdaa_test_fill(in, sizeof(in), 6);
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(la, in, sizeof(in), sdaaMemcpyHostToDevice));
	ASSERT_EQ(sdaaSuccess, timed_copy(lb + 1, la + 5, N, &direct_ms));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, lb + 1, N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(out, in + 5, N));
	/* b -> a: b has not enabled a, so through Global-HBM, still exact. */
	ASSERT_EQ(sdaaSuccess, sdaaMemset(la, 0, N + 64));
	ASSERT_EQ(sdaaSuccess, timed_copy(la + 9, lb + 1, N, &back_ms));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, la + 9, N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(out, in + 5, N));
	TH_LOG("a -> b %zu B: %.1f us through Global-HBM, %.1f us direct; b -> a %.1f us",
	       (size_t)N, bounce_ms * 1000, direct_ms * 1000, back_ms * 1000);
	/* Direct: one COPY at the slowest of ring and Local ports; the bounce
	 * copies the bytes twice.
	 */
	EXPECT_LT(direct_ms, bounce_ms);
	EXPECT_LT(direct_ms, back_ms);
	ASSERT_EQ(sdaaSuccess, sdaaDeviceDisablePeerAccess(b));
	EXPECT_EQ(sdaaSuccess, sdaaFree(la));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	EXPECT_EQ(sdaaSuccess, sdaaFree(lb));
}

/* A program on a writing b's Local-HBM: works with peer access only. */
TEST_F_TIMEOUT(card, launch_with_and_without_peer, 60)
{
	enum { N = 100000 };
	static unsigned char in[N], out[N];
	struct sdaaDeviceProp prop;
	struct swai_insn p;
	char *la, *lb;
	int a, b;

	NEED_PEER(a, b);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, a));
	if (prop.totalLocalMem < 4 * MIB)
		SKIP(return, "less than 4 MiB of Local-HBM per core group");
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&lb, N));
	ASSERT_EQ(sdaaSuccess, sdaaMemset(lb, 0, N));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&la, N));
	sdaa_test_fill(in, N, 9);
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(la, in, N, sdaaMemcpyHostToDevice));

	ASSERT_EQ(sdaaSuccess, sdaaDeviceEnablePeerAccess(b, 0));
	p = insn_copy(va_of(lb), va_of(la), N);
	ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(&p, 1, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, lb, N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(out, in, N));

	/* Disabled again: the card refuses the access, a sticky error. */
	ASSERT_EQ(sdaaSuccess, sdaaDeviceDisablePeerAccess(b));
	ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(&p, 1, NULL));
	EXPECT_EQ(sdaaErrorForeignLocalAccess, sdaaDeviceSynchronize());
	EXPECT_EQ(sdaaErrorForeignLocalAccess, sdaaMemcpy(out, lb, N, sdaaMemcpyDeviceToHost));
}

TEST_HARNESS_MAIN
