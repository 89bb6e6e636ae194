// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_fabric_test - libsdaa between cards of one fabric (swai.ko 1.4):
 * sdaaDeviceCanAccessPeer / Enable / Disable across cards with CUDA's
 * answers and errors; sdaaMemcpy and sdaaMemcpyPeer(Async) between two
 * cards' Local- and Global-HBM through the fabric, exact bytes and faster
 * in modeled time than through host memory (SDAA_P2P_DISABLE=1); a
 * launched program on one card reading and writing the other card's memory
 * once peer access is enabled, including memory allocated afterwards; IPC
 * handles from another process on the other card and on the same card,
 * and every refused handle.  Skips without two cards on one fabric.
 */
#include <signal.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"

/* Device 0 and a device of another card of its fabric, or skip. */
#define NEED_TWO_CARDS(a, b) do {					\
	int can_ = 0;							\
	NEED_SUBMIT();							\
	(a) = 0;							\
	(b) = other_card_device(0);					\
	if ((b) < 0)							\
		SKIP(return, "one card is visible");			\
	ASSERT_EQ(sdaaSuccess, sdaaDeviceCanAccessPeer(&can_, a, b));	\
	if (!can_)							\
		SKIP(return, "the cards are not on one fabric");	\
} while (0)

/*
 * Device memory of the current device: Local-HBM (@global: Global-HBM)
 * where the split has it, else the other tier; freed by dfree.
 */
static sdaaError_t dalloc(void **p, size_t n, bool global)
{
	if (!(global ? sdaaMallocCross(p, n) : sdaaMalloc(p, n)))
		return sdaaSuccess;
	sdaaGetLastError();
	return global ? sdaaMalloc(p, n) : sdaaMallocCross(p, n);
}

static void dfree(void *p)
{
	struct sdaaPointerAttributes at;

	if (!sdaaPointerGetAttributes(&at, p) && at.type == sdaaMemoryTypeLocal)
		sdaaFree(p);
	else
		sdaaFreeCross(p);
}

/* A device on another card than @dev's, core group 0 if visible; -1. */
static int other_card_device(int dev)
{
	struct sdaaDeviceProp p0, p;
	int n, best = -1;

	if (sdaaGetDeviceProperties(&p0, dev) || sdaaGetDeviceCount(&n))
		return -1;
	for (int d = n - 1; d >= 0; d--)
		if (!sdaaGetDeviceProperties(&p, d) && p.card != p0.card &&
		    (best < 0 || p.coreGroup == 0))
			best = d;
	return best;
}

/* sdaaMemcpy of @n bytes on the current device's stream 0: modeled ms. */
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

/* The long tests: a fixture only for TEST_F_TIMEOUT. */
FIXTURE(slow) {
	int unused;
};

FIXTURE_SETUP(slow)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(slow)
{
}

TEST(can_access_across_cards)
{
	int a, b, can = -1;

	NEED_TWO_CARDS(a, b);
	ASSERT_EQ(sdaaSuccess, sdaaDeviceCanAccessPeer(&can, b, a));
	EXPECT_EQ(1, can);
	/* SDAA_P2P_DISABLE=1: the cards no longer reach each other. */
	setenv("SDAA_P2P_DISABLE", "1", 1);
	ASSERT_EQ(sdaaSuccess, sdaaDeviceCanAccessPeer(&can, a, b));
	EXPECT_EQ(0, can);
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	EXPECT_EQ(sdaaErrorPeerAccessUnsupported, sdaaDeviceEnablePeerAccess(b, 0));
	unsetenv("SDAA_P2P_DISABLE");
	ASSERT_EQ(sdaaSuccess, sdaaDeviceCanAccessPeer(&can, a, b));
	EXPECT_EQ(1, can);
	/* Enable twice, disable twice, flags: CUDA's errors. */
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaDeviceEnablePeerAccess(b, 1));
	EXPECT_EQ(sdaaSuccess, sdaaDeviceEnablePeerAccess(b, 0));
	EXPECT_EQ(sdaaErrorPeerAccessAlreadyEnabled, sdaaDeviceEnablePeerAccess(b, 0));
	EXPECT_EQ(sdaaSuccess, sdaaDeviceDisablePeerAccess(b));
	EXPECT_EQ(sdaaErrorPeerAccessNotEnabled, sdaaDeviceDisablePeerAccess(b));
	sdaaGetLastError();
}

/*
 * Local-HBM of card A to Local-HBM of card B and back, Global-HBM too, odd
 * sizes and offsets: the same bytes through the fabric and through host
 * memory, and the fabric faster in modeled time.
 */
TEST_F_TIMEOUT(slow, memcpy_between_cards, 180)
{
	enum { N = 4 * MIB + 77 };
	static unsigned char in[N], out[N];
	float fabric_ms, host_ms;
	char *la, *lb, *gb;
	int a, b;

	NEED_TWO_CARDS(a, b);
	sdaa_test_fill(in, N, 41);
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	ASSERT_EQ(sdaaSuccess, dalloc((void **)&lb, N + 64, false));
	ASSERT_EQ(sdaaSuccess, dalloc((void **)&gb, N + 64, true));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	ASSERT_EQ(sdaaSuccess, dalloc((void **)&la, N + 64, false));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(la + 3, in, N, sdaaMemcpyHostToDevice));

	ASSERT_EQ(sdaaSuccess, timed_copy(lb + 5, la + 3, N, &fabric_ms));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, lb + 5, N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(in, out, N));

	setenv("SDAA_P2P_DISABLE", "1", 1);
	memset(out, 0, N);
	ASSERT_EQ(sdaaSuccess, sdaaMemset(lb, 0, N + 64));
	ASSERT_EQ(sdaaSuccess, timed_copy(lb + 5, la + 3, N, &host_ms));
	unsetenv("SDAA_P2P_DISABLE");
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, lb + 5, N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(in, out, N));
	TH_LOG("%d B card %d -> card %d: fabric %.1f us, through host memory %.1f us (modeled)",
	       N, a, b, fabric_ms * 1000, host_ms * 1000);
	EXPECT_LT(fabric_ms, host_ms);

	/* Back the other way, into Global-HBM of B and then to A. */
	memset(out, 0, N);
	ASSERT_EQ(sdaaSuccess, sdaaMemcpyPeer(gb + 1, b, la + 3, a, N));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpyPeerAsync(la, a, gb + 1, b, N, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, la, N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(in, out, N));
	/* sdaaMemcpyPeer checks the devices against the pointers. */
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaMemcpyPeer(gb, a, la, a, 64));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaMemcpyPeer(gb, b, in, a, 64));
	EXPECT_EQ(sdaaErrorInvalidDevice, sdaaMemcpyPeer(gb, 999, la, a, 64));
	sdaaGetLastError();
	dfree(la);
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	dfree(lb);
	dfree(gb);
}

/*
 * With peer access enabled, a program launched on card A uses card B's
 * pointers directly -- also memory B allocates after the enabling; once
 * disabled, the same program faults (a sticky error of this test's
 * process, which the harness forked for it).
 */
TEST(launch_uses_peer_pointers)
{
	enum { N = 64 * KIB };
	static unsigned char in[N], out[N];
	struct swai_insn prog[3];
	char *la, *lb, *late;
	int a, b;

	NEED_TWO_CARDS(a, b);
	sdaa_test_fill(in, N, 7);
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	ASSERT_EQ(sdaaSuccess, dalloc((void **)&lb, N, false));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(lb, in, N, sdaaMemcpyHostToDevice));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	ASSERT_EQ(sdaaSuccess, dalloc((void **)&la, N, false));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceEnablePeerAccess(b, 0));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(b));
	ASSERT_EQ(sdaaSuccess, dalloc((void **)&late, 3 * MIB, false));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(a));
	/* Card A reads B's buffer, then writes B's later allocation. */
	prog[0] = insn_copy(va_of(la), va_of(lb), N);
	prog[1] = insn_copy(va_of(late) + 2 * MIB, va_of(la), N);
	prog[2] = (struct swai_insn){ .op = SWAI_OP_END };
	ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(prog, 3, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, late + 2 * MIB, N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(in, out, N));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceDisablePeerAccess(b));
	ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(prog, 3, NULL));
	EXPECT_EQ(sdaaErrorIllegalAddress, sdaaDeviceSynchronize());
	sdaaGetLastError();
}

/*
 * IPC between processes that share nothing: the exporter is this program
 * run again (main's --export), so it opens the cards itself.  It allocates
 * and fills a buffer on device @dev, writes the handle to @wfd and waits
 * for a byte on @rfd: 'v' to check that the opener wrote the buffer's
 * second half, 'q' to quit.
 */
#define IPC_N (4 * MIB)

static int export_main(int dev, int wfd, int rfd)
{
	static unsigned char in[IPC_N], out[IPC_N];
	sdaaIpcMemHandle_t h;
	char *buf, cmd = 0;

	sdaa_test_fill(in, IPC_N, 99);
	if (sdaaSetDevice(dev) || dalloc((void **)&buf, IPC_N, false) ||
	    sdaaMemcpy(buf, in, IPC_N, sdaaMemcpyHostToDevice) ||
	    sdaaIpcGetMemHandle(&h, buf))
		return 1;
	if (write(wfd, &h, sizeof(h)) != sizeof(h) || read(rfd, &cmd, 1) != 1)
		return 2;
	if (cmd != 'v')
		return 0;
	if (sdaaMemcpy(out, buf, IPC_N, sdaaMemcpyDeviceToHost) ||
	    memcmp(out, in, IPC_N / 2) || memcmp(out + IPC_N / 2, in, IPC_N / 2))
		return 3;
	return 0;
}

struct exporter {
	pid_t pid;
	int wfd, rfd;		/* to it, from it */
	sdaaIpcMemHandle_t h;
};

/* Start an exporter on @dev and read its handle; 0 or -1. */
static int exporter_start(struct exporter *e, int dev)
{
	int down[2], up[2];
	char a[16], b[16], c[16];

	if (pipe(down) || pipe(up))
		return -1;
	e->pid = fork();
	if (e->pid < 0)
		return -1;
	if (!e->pid) {
		snprintf(a, sizeof(a), "%d", dev);
		snprintf(b, sizeof(b), "%d", up[1]);
		snprintf(c, sizeof(c), "%d", down[0]);
		execl("/proc/self/exe", "sdaa_fabric_test", "--export", a, b, c, (char *)NULL);
		_exit(127);
	}
	close(down[0]);
	close(up[1]);
	e->wfd = down[1];
	e->rfd = up[0];
	return read(e->rfd, &e->h, sizeof(e->h)) == sizeof(e->h) ? 0 : -1;
}

/* Tell it @cmd; its exit status, or -1. */
static int exporter_finish(struct exporter *e, char cmd)
{
	int st;

	if (write(e->wfd, &cmd, 1) != 1)
		cmd = 0;
	close(e->wfd);
	close(e->rfd);
	if (waitpid(e->pid, &st, 0) != e->pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* Open an exporter's buffer on device 0, read it, write its second half. */
static void ipc_round(struct __test_metadata *_metadata, int dev)
{
	static unsigned char in[IPC_N], out[IPC_N];
	struct exporter e;
	char *p;

	sdaa_test_fill(in, IPC_N, 99);
	ASSERT_EQ(0, exporter_start(&e, dev));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	ASSERT_EQ(sdaaSuccess, sdaaIpcOpenMemHandle((void **)&p, e.h,
						    sdaaIpcMemLazyEnablePeerAccess));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, p, IPC_N, sdaaMemcpyDeviceToHost));
	EXPECT_EQ(-1, sdaa_test_diff(in, out, IPC_N));
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(p + IPC_N / 2, p, IPC_N / 2,
					  sdaaMemcpyDeviceToDevice));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaFree(p));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaFreeCross(p));
	sdaaGetLastError();
	EXPECT_EQ(sdaaSuccess, sdaaIpcCloseMemHandle(p));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaIpcCloseMemHandle(p));
	sdaaGetLastError();
	EXPECT_EQ(0, exporter_finish(&e, 'v'));
}

TEST_F_TIMEOUT(slow, ipc_other_card, 120)
{
	int a, b;

	NEED_TWO_CARDS(a, b);
	(void)a;
	ipc_round(_metadata, b);
}

TEST_F_TIMEOUT(slow, ipc_same_card, 120)
{
	int other;

	NEED_SUBMIT();
	other = sdaa_test_cg_device(1);
	ipc_round(_metadata, other >= 0 ? other : 0);
}

TEST(ipc_refused)
{
	sdaaIpcMemHandle_t h, bad;
	char *buf, *p = NULL;

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	ASSERT_EQ(sdaaSuccess, dalloc((void **)&buf, 4096, false));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaIpcGetMemHandle(NULL, buf));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaIpcGetMemHandle(&h, &h));
	ASSERT_EQ(sdaaSuccess, sdaaIpcGetMemHandle(&h, buf));
	/* Not in its own exporter; not a handle; bad flags. */
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaIpcOpenMemHandle((void **)&p, h, 0));
	memset(&bad, 0x5a, sizeof(bad));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaIpcOpenMemHandle((void **)&p, bad, 0));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaIpcOpenMemHandle((void **)&p, h, 0x80));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaIpcOpenMemHandle(NULL, h, 0));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaIpcCloseMemHandle(NULL));
	EXPECT_EQ(sdaaErrorInvalidDevicePointer, sdaaIpcCloseMemHandle(buf));
	/* A handle whose process is gone. */
	{
		struct exporter e;

		ASSERT_EQ(0, exporter_start(&e, 0));
		EXPECT_EQ(0, exporter_finish(&e, 'q'));
		EXPECT_EQ(sdaaErrorInvalidResourceHandle,
			  sdaaIpcOpenMemHandle((void **)&p, e.h, 0));
	}
	sdaaGetLastError();
	dfree(buf);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--export"))
		return export_main(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	return test_harness_run(argc, argv);
}
