// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_stream_test - libsdaa streams and events on a real card: handles and
 * their errors, CUDA's event semantics (unrecorded, disabled timing,
 * destroyed, not ready), work that is really not finished (a program
 * blocked in WAIT until another core group SIGNALs), timeouts, modeled times
 * that match the card's timing parameters and repeat exactly, ordering in a
 * stream and across streams by events, the legacy default stream's rules,
 * and many streams of several threads and processes at once.
 */
#include <pthread.h>

#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"

/* Launch a program of @n instructions on @s. */
static sdaaError_t launch(sdaaStream_t s, const struct swai_insn *p, size_t n)
{
	return sdaaLaunchProgram(p, n, s);
}

/* A stream on logical device @dev. */
static sdaaStream_t stream_on(int dev, unsigned int flags)
{
	sdaaStream_t s = NULL;
	int cur;

	sdaaGetDevice(&cur);
	if (sdaaSetDevice(dev) || sdaaStreamCreateWithFlags(&s, flags))
		s = NULL;
	sdaaSetDevice(cur);
	return s;
}

TEST(stream_handles)
{
	sdaaStream_t s, n;
	int dev = -1;

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&s));
	ASSERT_NE(NULL, s);
	ASSERT_EQ(sdaaSuccess, sdaaStreamCreateWithFlags(&n, sdaaStreamNonBlocking));
	EXPECT_EQ(sdaaSuccess, sdaaStreamGetDevice(s, &dev));
	EXPECT_EQ(0, dev);
	EXPECT_EQ(sdaaSuccess, sdaaStreamGetDevice(NULL, &dev));
	/* Idle streams are complete. */
	EXPECT_EQ(sdaaSuccess, sdaaStreamQuery(s));
	EXPECT_EQ(sdaaSuccess, sdaaStreamQuery(NULL));
	EXPECT_EQ(sdaaSuccess, sdaaStreamSynchronize(s));
	EXPECT_EQ(sdaaSuccess, sdaaStreamSynchronizeTimeout(n, 1000));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaStreamCreateWithFlags(&n, 0x10));
	EXPECT_EQ(sdaaSuccess, sdaaStreamDestroy(s));
	/* Destroyed: every use is an invalid handle, never a crash. */
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaStreamDestroy(s));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaStreamQuery(s));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaStreamSynchronize(s));
	{
		struct swai_insn nop = { .op = SWAI_OP_NOP };

		EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaLaunchProgram(&nop, 1, s));
	}
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaStreamDestroy(NULL));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaGetLastError());
	EXPECT_EQ(sdaaSuccess, sdaaStreamDestroy(n));
}

/* cudaEventElapsedTime's cases, one by one. */
TEST(event_semantics)
{
	sdaaEvent_t a, b, nt, gone;
	void *d;
	float ms = -1;

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&a));
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&b));
	ASSERT_EQ(sdaaSuccess, sdaaEventCreateWithFlags(&nt, sdaaEventDisableTiming));
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&gone));
	ASSERT_EQ(sdaaSuccess, sdaaEventDestroy(gone));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaEventCreateWithFlags(&gone, 0x40));
	/* Never recorded: complete for Query/Synchronize, unusable for timing. */
	EXPECT_EQ(sdaaSuccess, sdaaEventQuery(a));
	EXPECT_EQ(sdaaSuccess, sdaaEventSynchronize(a));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaEventElapsedTime(&ms, a, b));
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&d, 1 << 20));
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(a, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaMemsetAsync(d, 1, 1 << 20, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(b, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(nt, NULL));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaEventElapsedTime(&ms, a, gone));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaEventElapsedTime(&ms, gone, b));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaEventElapsedTime(NULL, a, b));
	ASSERT_EQ(sdaaSuccess, sdaaEventSynchronize(b));
	EXPECT_EQ(sdaaSuccess, sdaaEventQuery(b));
	/* Timing disabled: no elapsed time, but synchronisation works. */
	EXPECT_EQ(sdaaSuccess, sdaaEventSynchronize(nt));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaEventElapsedTime(&ms, a, nt));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaEventElapsedTimeWall(&ms, nt, b));
	ASSERT_EQ(sdaaSuccess, sdaaEventElapsedTime(&ms, a, b));
	EXPECT_GT(ms, 0.0f);
	{
		float back, wall;

		/* Backwards is negative, as in CUDA. */
		ASSERT_EQ(sdaaSuccess, sdaaEventElapsedTime(&back, b, a));
		EXPECT_EQ(-ms, back);
		ASSERT_EQ(sdaaSuccess, sdaaEventElapsedTimeWall(&wall, a, b));
		EXPECT_GE(wall, 0.0f);
	}
	/* Streams are not events, and destroyed events are gone. */
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaEventQuery((sdaaEvent_t)0x7));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaEventRecord(gone, NULL));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle, sdaaEventDestroy(gone));
	EXPECT_EQ(sdaaSuccess, sdaaEventDestroy(a));
	EXPECT_EQ(sdaaSuccess, sdaaEventDestroy(b));
	EXPECT_EQ(sdaaSuccess, sdaaEventDestroy(nt));
	EXPECT_EQ(sdaaSuccess, sdaaFreeHost(d));
}

/*
 * Work that is really unfinished: core group a WAITs on a semaphore that
 * only core group b's SIGNAL releases.  Until then queries say NotReady
 * (never the last error), timed waits time out, ElapsedTime is NotReady.
 */
TEST_F_TIMEOUT(card, not_ready_until_signalled, 120)
{
	int other = sdaa_test_cg_device(1);
	sdaaStream_t s, t;
	sdaaEvent_t start, done;
	uint64_t *sem;
	void *semh;
	float ms;
	struct swai_insn w, sig;

	NEED_SUBMIT();
	if (other < 0 || other == 0)
		SKIP(return, "needs a second core group of the card");
	sem = sdaa_test_sem(&semh);
	ASSERT_NE(NULL, sem);
	w = insn_wait(va_of(sem), 1);
	sig = insn_signal(va_of(sem), 1);
	s = stream_on(0, 0);
	t = stream_on(other, 0);
	ASSERT_NE(NULL, s);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&start));
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&done));
	sdaaGetLastError();
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(start, s));
	ASSERT_EQ(sdaaSuccess, launch(s, &w, 1));
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(done, s));
	EXPECT_EQ(sdaaErrorNotReady, sdaaEventQuery(done));
	EXPECT_EQ(sdaaErrorNotReady, sdaaStreamQuery(s));
	EXPECT_EQ(sdaaErrorNotReady, sdaaEventElapsedTime(&ms, start, done));
	EXPECT_EQ(sdaaErrorTimeout, sdaaEventSynchronizeTimeout(done, 100));
	EXPECT_EQ(sdaaErrorTimeout, sdaaStreamSynchronizeTimeout(s, 50));
	EXPECT_EQ(sdaaErrorTimeout, sdaaDeviceSynchronizeTimeout(50));
	/* None of these answers is an error to remember. */
	EXPECT_EQ(sdaaSuccess, sdaaGetLastError());
	/* Another core group is not held up. */
	ASSERT_EQ(sdaaSuccess, sdaaMemsetAsync(sem + 2, 0, 8, t));
	EXPECT_EQ(sdaaSuccess, sdaaStreamSynchronizeTimeout(t, 20000));
	ASSERT_EQ(sdaaSuccess, launch(t, &sig, 1));
	EXPECT_EQ(sdaaSuccess, sdaaEventSynchronize(done));
	EXPECT_EQ(sdaaSuccess, sdaaEventQuery(done));
	EXPECT_EQ(sdaaSuccess, sdaaStreamQuery(s));
	EXPECT_EQ(sdaaSuccess, sdaaEventElapsedTime(&ms, start, done));
	EXPECT_GT(ms, 0.0f);
	EXPECT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	sdaaStreamDestroy(s);
	sdaaStreamDestroy(t);
	sdaaEventDestroy(start);
	sdaaEventDestroy(done);
	sdaaFreeHost(semh);
}

/* Modeled ms of one copy of @n bytes on @s, after the device is idle. */
static float copy_ms(void *dst, const void *src, size_t n, sdaaStream_t s)
{
	sdaaEvent_t a, b;
	float ms = -1;

	if (sdaaDeviceSynchronize() || sdaaEventCreate(&a) || sdaaEventCreate(&b))
		return -1;
	if (sdaaEventRecord(a, s) || sdaaMemcpyAsync(dst, src, n, sdaaMemcpyDefault, s) ||
	    sdaaEventRecord(b, s) || sdaaEventSynchronize(b) || sdaaEventElapsedTime(&ms, a, b))
		ms = -1;
	sdaaEventDestroy(a);
	sdaaEventDestroy(b);
	return ms;
}

/*
 * A copy alone on an idle card takes launch + step + bytes / bandwidth of
 * its slower side in modeled time (datasheet §14), whatever the emulator.
 */
TEST(modeled_time_matches_timing)
{
	struct sdaaDeviceProp prop;
	struct sdaaTimingParams tp;
	size_t n = MIB;
	void *h, *l, *g;
	sdaaStream_t s;
	double want, got;

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (!(prop.capabilities & DRM_SWAI_CAP_TIMING))
		SKIP(return, "needs the timing model");
	ASSERT_EQ(sdaaSuccess, sdaaDeviceGetTimingParams(&tp, 0));
	EXPECT_GT(tp.pcieMBps, 0);
	EXPECT_GE(tp.hostClockNs, 0);
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&h, n));
	l = g = NULL;
	if (prop.totalLocalMem)
		ASSERT_EQ(sdaaSuccess, sdaaMalloc(&l, n));
	if (prop.totalGlobalMem)
		ASSERT_EQ(sdaaSuccess, sdaaMallocCross(&g, n));
	ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&s));

	/* Host to whichever tier there is: PCIe bound. */
	got = copy_ms(l ? l : g, h, n, s) * 1e6;
	want = tp.launchNs + tp.stepNs + (double)n * 1e3 / tp.pcieMBps;
	TH_LOG("host->HBM 1 MiB: modeled %.0f ns, expected %.0f ns", got, want);
	EXPECT_LT(got > want ? got - want : want - got, want * 0.01 + 100);

	if (l && g) {
		got = copy_ms(l, g, n, s) * 1e6;
		want = tp.launchNs + tp.stepNs +
		       (double)n * 1e3 / (tp.ringMBps < tp.localMBps ? tp.ringMBps : tp.localMBps);
		TH_LOG("Global->Local 1 MiB: modeled %.0f ns, expected %.0f ns", got, want);
		EXPECT_LT(got > want ? got - want : want - got, want * 0.01 + 100);
	}

	/* A host wait moved the host clock past the work, plus the sync cost. */
	{
		struct sdaaTimingParams t2;

		ASSERT_EQ(sdaaSuccess, sdaaDeviceGetTimingParams(&t2, 0));
		EXPECT_GE(t2.hostClockNs, t2.cardClockNs + t2.syncNs);
	}
	sdaaStreamDestroy(s);
	sdaaFreeHost(h);
	sdaaFree(l);
	sdaaFreeCross(g);
}

/* A fixed sequence over two core groups; its modeled ms. */
static float sequence_ms(void *h, void *l0, void *g, void *l1, size_t n, sdaaStream_t s0,
			 sdaaStream_t s1)
{
	sdaaEvent_t start, mid, stop;
	float ms = -1;

	if (sdaaEventCreate(&start) || sdaaEventCreate(&mid) || sdaaEventCreate(&stop))
		return -1;
	if (!sdaaDeviceSynchronize() && !sdaaStreamSynchronize(s1) &&
	    !sdaaEventRecord(start, s0) &&
	    !sdaaMemcpyAsync(l0, h, n, sdaaMemcpyHostToDevice, s0) &&
	    !sdaaMemcpyAsync(g, l0, n, sdaaMemcpyDeviceToDevice, s0) &&
	    !sdaaMemsetAsync(l0, 3, n / 2 + 1, s0) &&
	    !sdaaEventRecord(mid, s0) && !sdaaStreamWaitEvent(s1, mid, 0) &&
	    !sdaaMemcpyAsync(l1, g, n, sdaaMemcpyDeviceToDevice, s1) &&
	    !sdaaMemcpyAsync(h, l1, n / 3, sdaaMemcpyDeviceToHost, s1) &&
	    !sdaaEventRecord(stop, s1) && !sdaaEventSynchronize(stop))
		sdaaEventElapsedTime(&ms, start, stop);
	sdaaEventDestroy(start);
	sdaaEventDestroy(mid);
	sdaaEventDestroy(stop);
	return ms;
}

/* The same work twice gives the same modeled time, to the nanosecond. */
TEST(modeled_time_is_deterministic)
{
	int other = sdaa_test_cg_device(1);
	size_t n = 3 * MIB + 5;
	struct sdaaDeviceProp prop;
	sdaaStream_t s0, s1;
	void *h, *l0, *g, *l1;
	float t[3];

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (other <= 0 || prop.totalLocalMem < 8 * MIB || prop.totalGlobalMem < 8 * MIB)
		SKIP(return, "needs two core groups and both HBM tiers");
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&h, n));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&l0, n));
	ASSERT_EQ(sdaaSuccess, sdaaMallocCross(&g, n));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(other));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&l1, n));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	s0 = stream_on(0, 0);
	s1 = stream_on(other, 0);
	for (int i = 0; i < 3; i++)
		t[i] = sequence_ms(h, l0, g, l1, n, s0, s1);
	TH_LOG("modeled: %.6f %.6f %.6f ms", t[0], t[1], t[2]);
	EXPECT_GT(t[0], 0.0f);
	EXPECT_EQ(t[0], t[1]);
	EXPECT_EQ(t[1], t[2]);
	sdaaStreamDestroy(s0);
	sdaaStreamDestroy(s1);
	sdaaFreeHost(h);
	sdaaFree(l0);
	sdaaFree(l1);
	sdaaFreeCross(g);
}

/*
 * sdaaHostWaitUntil: the host clock moves to a later time, never back, and
 * an event recorded after it is stamped there (what a launcher's common
 * start relies on).
 */
TEST(host_waits_until_a_modeled_time)
{
	struct sdaaTimingParams t0, t1;
	sdaaEvent_t a, b;
	float ms = 0;

	ASSERT_EQ(sdaaSuccess, sdaaDeviceGetTimingParams(&t0, 0));
	ASSERT_EQ(sdaaSuccess, sdaaHostWaitUntil(t0.hostClockNs + 123456));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceGetTimingParams(&t1, 0));
	EXPECT_EQ(t0.hostClockNs + 123456, t1.hostClockNs);
	ASSERT_EQ(sdaaSuccess, sdaaHostWaitUntil(t0.hostClockNs));	/* earlier: stays */
	ASSERT_EQ(sdaaSuccess, sdaaDeviceGetTimingParams(&t0, 0));
	EXPECT_EQ(t1.hostClockNs, t0.hostClockNs);
	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&a));
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&b));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(a, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceGetTimingParams(&t0, 0));
	ASSERT_EQ(sdaaSuccess, sdaaHostWaitUntil(t0.hostClockNs + 250000));
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(b, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaEventSynchronize(b));
	ASSERT_EQ(sdaaSuccess, sdaaEventElapsedTime(&ms, a, b));
	EXPECT_GE(ms, 0.25f);
	sdaaEventDestroy(a);
	sdaaEventDestroy(b);
}

/*
 * Order: a chain of dependent copies on one stream, then a producer stream
 * and a consumer stream on another core group ordered only by an event.
 */
TEST_F_TIMEOUT(card, order_in_and_across_streams, 120)
{
	int other = sdaa_test_cg_device(1);
	size_t n = 6 * MIB + 9;
	struct sdaaDeviceProp prop;
	char *in, *out, *l0, *l1, *g;
	sdaaStream_t s0, s1;
	sdaaEvent_t e;

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (other <= 0 || prop.totalLocalMem < 16 * MIB || prop.totalGlobalMem < 32 * MIB)
		SKIP(return, "needs two core groups and both HBM tiers");
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost((void **)&in, n));
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost((void **)&out, n));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&l0, n));
	ASSERT_EQ(sdaaSuccess, sdaaMallocCross((void **)&g, n));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(other));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&l1, n));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	s0 = stream_on(0, 0);
	s1 = stream_on(other, 0);
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&e));

	for (int round = 0; round < 3; round++) {
		sdaa_test_fill(in, n, 1000 + (uint64_t)round);
		memset(out, 0, n);
		/* One stream: each copy reads what the one before wrote. */
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(l0, in, n, sdaaMemcpyDefault, s0));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(g, l0, n, sdaaMemcpyDefault, s0));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(l1, g, n, sdaaMemcpyDefault, s0));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(out, l1, n, sdaaMemcpyDefault, s0));
		ASSERT_EQ(sdaaSuccess, sdaaStreamSynchronize(s0));
		EXPECT_EQ(-1, sdaa_test_diff(out, in, n));

		/* Two streams: the consumer waits for the producer's event. */
		sdaa_test_fill(in, n, 2000 + (uint64_t)round);
		memset(out, 0, n);
		ASSERT_EQ(sdaaSuccess, sdaaMemsetAsync(g, 0, n, s0));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(g, in, n, sdaaMemcpyDefault, s0));
		ASSERT_EQ(sdaaSuccess, sdaaEventRecord(e, s0));
		ASSERT_EQ(sdaaSuccess, sdaaStreamWaitEvent(s1, e, 0));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(l1, g, n, sdaaMemcpyDefault, s1));
		ASSERT_EQ(sdaaSuccess, sdaaMemcpyAsync(out, l1, n, sdaaMemcpyDefault, s1));
		ASSERT_EQ(sdaaSuccess, sdaaStreamSynchronize(s1));
		EXPECT_EQ(-1, sdaa_test_diff(out, in, n));
	}
	sdaaEventDestroy(e);
	sdaaStreamDestroy(s0);
	sdaaStreamDestroy(s1);
	sdaaFreeHost(in);
	sdaaFreeHost(out);
	sdaaFree(l0);
	sdaaFree(l1);
	sdaaFreeCross(g);
}

/*
 * The legacy default stream of device 0 waits for device 0's blocking
 * streams; blocking streams wait for it; non-blocking streams for neither.
 * Core group 1 is held in a WAIT, so work that (transitively) depends on it
 * cannot finish; work that does not, does.
 */
TEST_F_TIMEOUT(card, legacy_stream_rules, 120)
{
	int d1 = sdaa_test_cg_device(1), d2 = sdaa_test_cg_device(2), d3 = sdaa_test_cg_device(3);
	sdaaStream_t hold, blocking, blocking2, nonblocking, release;
	char *l1, *l2, *l0;
	unsigned char got[64];
	struct swai_insn w, sig;
	sdaaEvent_t legacy_ev;
	uint64_t *sem;
	void *semh;

	NEED_SUBMIT();
	if (d1 <= 0 || d2 <= 0 || d3 <= 0)
		SKIP(return, "needs all four core groups of the card");
	{
		struct sdaaDeviceProp prop;

		ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
		if (!prop.totalLocalMem)
			SKIP(return, "needs Local-HBM (work on a chosen core group)");
	}
	sem = sdaa_test_sem(&semh);
	ASSERT_NE(NULL, sem);
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&l0, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(d1));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&l1, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(d2));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc((void **)&l2, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	ASSERT_EQ(sdaaSuccess, sdaaMemset(l0, 0, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaMemset(l1, 0, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaMemset(l2, 0, 4096));
	hold = stream_on(d1, 0);
	release = stream_on(d3, 0);
	blocking = stream_on(0, 0);
	blocking2 = stream_on(0, 0);
	nonblocking = stream_on(0, sdaaStreamNonBlocking);
	ASSERT_EQ(sdaaSuccess, sdaaEventCreate(&legacy_ev));
	w = insn_wait(va_of(sem), 1);
	sig = insn_signal(va_of(sem), 1);

	/* CG 1 waits; a blocking stream of device 0 queues work behind it. */
	ASSERT_EQ(sdaaSuccess, launch(hold, &w, 1));
	ASSERT_EQ(sdaaSuccess, sdaaMemsetAsync(l1, 1, 64, blocking));
	/* Stream 0 of device 0 must wait for that (its own CG is free). */
	ASSERT_EQ(sdaaSuccess, sdaaMemsetAsync(l0, 2, 64, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaEventRecord(legacy_ev, NULL));
	/* A non-blocking stream of device 0 waits for nothing... */
	ASSERT_EQ(sdaaSuccess, sdaaMemsetAsync(l2, 3, 64, nonblocking));
	/* ... a blocking one waits for stream 0. */
	ASSERT_EQ(sdaaSuccess, sdaaMemsetAsync(l2 + 64, 4, 64, blocking2));

	EXPECT_EQ(sdaaSuccess, sdaaStreamSynchronizeTimeout(nonblocking, 30000));
	EXPECT_EQ(sdaaErrorNotReady, sdaaEventQuery(legacy_ev));
	EXPECT_EQ(sdaaErrorNotReady, sdaaStreamQuery(NULL));
	EXPECT_EQ(sdaaErrorNotReady, sdaaStreamQuery(blocking2));
	EXPECT_EQ(sdaaErrorTimeout, sdaaStreamSynchronizeTimeout(blocking2, 200));

	/* CG 3 releases CG 1: everything completes, in order. */
	ASSERT_EQ(sdaaSuccess, launch(release, &sig, 1));
	EXPECT_EQ(sdaaSuccess, sdaaStreamSynchronize(blocking2));
	EXPECT_EQ(sdaaSuccess, sdaaEventQuery(legacy_ev));
	EXPECT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, l1, 64, sdaaMemcpyDefault));
	EXPECT_EQ(1, got[63]);
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, l0, 64, sdaaMemcpyDefault));
	EXPECT_EQ(2, got[0]);
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, l2, 64, sdaaMemcpyDefault));
	EXPECT_EQ(3, got[5]);
	ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, l2 + 64, 64, sdaaMemcpyDefault));
	EXPECT_EQ(4, got[10]);
	sdaaStreamDestroy(hold);
	sdaaStreamDestroy(release);
	sdaaStreamDestroy(blocking);
	sdaaStreamDestroy(blocking2);
	sdaaStreamDestroy(nonblocking);
	sdaaEventDestroy(legacy_ev);
	sdaaFree(l0);
	sdaaFree(l1);
	sdaaFree(l2);
	sdaaFreeHost(semh);
}

/* busy_fail: say which call of worker @idx failed and why; returns 1. */
static int busy_fail(int idx, const char *what, int i, sdaaError_t err)
{
	fprintf(stderr, "# worker %d stream %d: %s: %s (%s)\n", idx, i, what,
		sdaaGetErrorName(err), sdaaGetErrorString(err));
	return 1;
}

/* Work for one thread or process: @streams streams over the card's CGs. */
static int busy_streams(int idx, void *arg)
{
	int streams = *(int *)arg, ndev, bad = 0;
	size_t n = 256 * KIB + 3 * (size_t)idx + 1;
	sdaaStream_t s[16];
	char *in[16], *out[16], *l[16], *g[16];
	struct sdaaDeviceProp prop;
	sdaaError_t e;

	if (!sdaa_test_can_submit(0))
		return 0;
	sdaaGetDeviceProperties(&prop, 0);
	if (!prop.totalLocalMem || !prop.totalGlobalMem)
		return 0;
	sdaaGetDeviceCount(&ndev);
	for (int i = 0; i < streams; i++) {
		int d = (i + idx) % (ndev < 4 ? ndev : 4);

		if ((e = sdaaSetDevice(d)) || (e = sdaaStreamCreate(&s[i])))
			return busy_fail(idx, "stream", i, e);
		if ((e = sdaaMallocHost((void **)&in[i], n)) ||
		    (e = sdaaMallocHost((void **)&out[i], n)) ||
		    (e = sdaaMalloc((void **)&l[i], n)) ||
		    (e = sdaaMallocCross((void **)&g[i], n)))
			return busy_fail(idx, "allocation", i, e);
	}
	for (int round = 0; round < 6; round++) {
		for (int i = 0; i < streams; i++) {
			sdaa_test_fill(in[i], n, (uint64_t)(idx * 1000 + round * 16 + i));
			if ((e = sdaaMemcpyAsync(l[i], in[i], n, sdaaMemcpyDefault, s[i])) ||
			    (e = sdaaMemcpyAsync(g[i], l[i], n, sdaaMemcpyDefault, s[i])) ||
			    (e = sdaaMemcpyAsync(out[i], g[i], n, sdaaMemcpyDefault, s[i])))
				return busy_fail(idx, "copy", i, e);
		}
		for (int i = 0; i < streams; i++) {
			long at;

			if ((e = sdaaStreamSynchronize(s[i])))
				return busy_fail(idx, "synchronize", i, e);
			at = sdaa_test_diff(out[i], in[i], n);
			if (at != -1)
				fprintf(stderr, "# worker %d stream %d round %d: byte %ld of %zu differs\n",
					idx, i, round, at, n);
			bad += at != -1;
		}
	}
	for (int i = 0; i < streams; i++) {
		sdaaStreamDestroy(s[i]);
		sdaaFreeHost(in[i]);
		sdaaFreeHost(out[i]);
		sdaaFree(l[i]);
		sdaaFreeCross(g[i]);
	}
	return bad;
}

static void *busy_thread(void *arg)
{
	static int streams = 3;

	return (void *)(long)busy_streams((int)(long)arg, &streams);
}

TEST_F_TIMEOUT(card, many_streams_of_threads, 180)
{
	pthread_t t[4];
	long bad = 0;

	NEED_SUBMIT();
	for (long i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, busy_thread, (void *)i));
	for (int i = 0; i < 4; i++) {
		void *r;

		pthread_join(t[i], &r);
		bad += (long)r;
	}
	EXPECT_EQ(0, bad);
}

/* Several processes, each its own context on the card, all at once. */
TEST_F_TIMEOUT(card, many_streams_of_processes, 180)
{
	int streams = 4;

	/* Fork first: a child must not inherit this process's runtime. */
	EXPECT_EQ(0, sdaa_test_fork(3, busy_streams, &streams));
	NEED_SUBMIT();
}

TEST_HARNESS_MAIN
