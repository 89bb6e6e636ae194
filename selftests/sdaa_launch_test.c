// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdaa_launch_test - core-group programs through sdaaLaunchProgram, checked
 * against host references: COPY and strided DMA_GET/DMA_PUT on every tier,
 * REDUCE of every type and operator (the paper's Algorithms: DMA_GET,
 * REDUCE, DMA_PUT), SIGNAL/WAIT/FENCE/TIMESTAMP, a BARRIER of all four core
 * groups; and the errors: each kind of faulty program gives its own sticky
 * error and string, the process can do nothing more on the card, while
 * another process's copies complete; a hung program is ended by the
 * driver's job timeout.
 */
#include "swai_test.h"
#include "kselftest_harness.h"
#include "sdaa_test.h"

enum { T_LOCAL, T_GLOBAL, T_PINNED, NT };
static const char *const tname[NT] = { "Local", "Global", "pinned host" };

/* A device-addressable buffer of @n bytes in tier @t; NULL if the split has none. */
static char *tier_alloc(int t, size_t n, void **host)
{
	void *p = NULL, *d = NULL;

	*host = NULL;
	if (t == T_LOCAL && sdaaMalloc(&p, n))
		return NULL;
	if (t == T_GLOBAL && sdaaMallocCross(&p, n))
		return NULL;
	if (t == T_PINNED) {
		if (sdaaMallocHost(&p, n) || sdaaHostGetDevicePointer(&d, p, 0))
			return NULL;
		*host = p;
		return d;
	}
	return p;
}

static void tier_free(int t, char *p, void *host)
{
	if (t == T_LOCAL)
		sdaaFree(p);
	else if (t == T_GLOBAL)
		sdaaFreeCross(p);
	else
		sdaaFreeHost(host);
}

/* COPY of every tier to every tier by a program, odd offsets, 3 rows. */
TEST_F_TIMEOUT(card, copy_program_every_tier, 120)
{
	size_t n = 100 * KIB + 7;
	char *buf[NT];
	void *host[NT];
	static unsigned char in[512 * KIB], out[512 * KIB];

	NEED_SUBMIT();
	for (int t = 0; t < NT; t++)
		buf[t] = tier_alloc(t, 4 * n, &host[t]);
	for (int a = 0; a < NT; a++) {
		for (int b = 0; b < NT; b++) {
			/* Three rows of n/3 bytes, gathered with a source stride. */
			size_t row = n / 3, ss = row + 13;
			struct swai_insn p = insn_copy(va_of(buf[b] + 5), va_of(buf[a] + 1), row);

			if (!buf[a] || !buf[b] || a == b)
				continue;
			p.rows = 3;
			p.src_stride = ss;
			sdaa_test_fill(in, 3 * ss, (uint64_t)(a * 3 + b));
			ASSERT_EQ(sdaaSuccess,
				  sdaaMemcpy(buf[a] + 1, in, 3 * ss, sdaaMemcpyDefault));
			ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(&p, 1, NULL));
			ASSERT_EQ(sdaaSuccess,
				  sdaaMemcpy(out, buf[b] + 5, 3 * row, sdaaMemcpyDefault));
			for (int r = 0; r < 3; r++) {
				long bad = sdaa_test_diff(out + r * row, in + r * ss, row);

				if (bad != -1)
					TH_LOG("COPY %s -> %s row %d: byte %ld", tname[a],
					       tname[b], r, bad);
				EXPECT_EQ(-1, bad);
			}
		}
	}
	for (int t = 0; t < NT; t++)
		if (buf[t])
			tier_free(t, buf[t], host[t]);
}

/* DMA_GET rows with a stride into LDM, DMA_PUT them scattered: every tier. */
TEST_F_TIMEOUT(card, strided_dma_every_tier, 120)
{
	enum { ROWS = 9, LEN = 37, SS = 101, DS = 53 };
	static unsigned char in[ROWS * SS], out[ROWS * DS];
	char *buf[NT];
	void *host[NT];

	NEED_SUBMIT();
	for (int t = 0; t < NT; t++)
		buf[t] = tier_alloc(t, 64 * KIB, &host[t]);
	for (int a = 0; a < NT; a++) {
		for (int b = 0; b < NT; b++) {
			struct swai_insn p[2] = {
				insn_get(3, va_of(buf[a] + 7), LEN),
				insn_put(va_of(buf[b] + 32 * KIB + 1), 3, LEN),
			};

			if (!buf[a] || !buf[b])
				continue;
			p[0].rows = p[1].rows = ROWS;
			p[0].src_stride = SS;		/* gather */
			p[1].dst_stride = DS;		/* scatter; LDM side contiguous */
			sdaa_test_fill(in, sizeof(in), (uint64_t)(100 + a * 3 + b));
			ASSERT_EQ(sdaaSuccess, sdaaMemcpy(buf[a] + 7, in, sizeof(in),
							  sdaaMemcpyDefault));
			ASSERT_EQ(sdaaSuccess, sdaaMemset(buf[b] + 32 * KIB + 1, 0, sizeof(out)));
			ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(p, 2, NULL));
			ASSERT_EQ(sdaaSuccess, sdaaMemcpy(out, buf[b] + 32 * KIB + 1, sizeof(out),
							  sdaaMemcpyDefault));
			for (int r = 0; r < ROWS; r++) {
				EXPECT_EQ(-1, sdaa_test_diff(out + r * DS, in + r * SS, LEN));
				/* Between the rows: untouched. */
				if (r < ROWS - 1)
					EXPECT_EQ(0, out[r * DS + LEN]);
			}
		}
	}
	for (int t = 0; t < NT; t++)
		if (buf[t])
			tier_free(t, buf[t], host[t]);
}

/* Host encodings of small integers (and -0.0), exact in every type. */
static void encode(int dt, double v, void *out)
{
	float f = (float)v;
	uint32_t u;

	memcpy(&u, &f, 4);
	switch (dt) {
	case SWAI_DT_F32:
		memcpy(out, &f, 4);
		break;
	case SWAI_DT_F64:
		memcpy(out, &v, 8);
		break;
	case SWAI_DT_I32: {
		int32_t i = (int32_t)v;

		memcpy(out, &i, 4);
		break;
	}
	case SWAI_DT_I64: {
		int64_t i = (int64_t)v;

		memcpy(out, &i, 8);
		break;
	}
	case SWAI_DT_BF16:
		*(uint16_t *)out = (uint16_t)(u >> 16);
		break;
	case SWAI_DT_U8:		/* negative values wrap modulo 256 */
		*(uint8_t *)out = (uint8_t)(int)v;
		break;
	case SWAI_DT_F16: {
		uint16_t h = (uint16_t)((u >> 16) & 0x8000);

		if (v != 0)	/* normal, exact: rebias the exponent, keep 10 bits */
			h |= (uint16_t)(((((u >> 23) & 0xff) - 127 + 15) << 10) |
					((u >> 13) & 0x3ff));
		*(uint16_t *)out = h;
		break;
	}
	}
}

static const size_t esize[] = { 4, 2, 2, 8, 4, 8, 1 };

/* The operator in the type's arithmetic: -2.0 * 0.0 is -0.0 for floats. */
static double rop_ref(int dt, int rop, double a, double b)
{
	int fp = dt != SWAI_DT_I32 && dt != SWAI_DT_I64 && dt != SWAI_DT_U8;

	/* u8 compares the wrapped bytes: -1 is 255, larger than 3. */
	if (dt == SWAI_DT_U8 && rop >= SWAI_ROP_MAX)
		return ((uint8_t)(int)a > (uint8_t)(int)b) == (rop == SWAI_ROP_MAX) ? a : b;
	switch (rop) {
	case SWAI_ROP_SUM:
		return a + b;
	case SWAI_ROP_PROD:
		return fp ? a * b : (double)((long)a * (long)b);
	case SWAI_ROP_MAX:
		return a > b ? a : b;
	default:
		return a < b ? a : b;
	}
}

/*
 * The paper's reduction step: DMA_GET two vectors into LDM, REDUCE, DMA_PUT
 * the result; every type and operator, vectors in every tier.
 */
TEST_F_TIMEOUT(card, reduce_every_type_and_op, 180)
{
	enum { N = 1001 };
	static unsigned char a[N * 8], b[N * 8], want[N * 8], got[N * 8];
	char *buf[NT];
	void *host[NT];
	int failures = 0;

	NEED_SUBMIT();
	for (int t = 0; t < NT; t++)
		buf[t] = tier_alloc(t, 3 * N * 8 + 64, &host[t]);
	for (int dt = 0; dt <= SWAI_DT_MAX; dt++) {
		for (int rop = 0; rop <= SWAI_ROP_MAXOP; rop++) {
			int t = (dt + rop) % NT;	/* spread the tiers over the cases */
			size_t es = esize[dt], bytes = N * es, lb = (bytes + 63) & ~63UL;
			char *va = buf[t] ? buf[t] : buf[T_PINNED];
			struct swai_insn p[4] = {
				insn_get(0, va_of(va), bytes),
				insn_get(lb, va_of(va + bytes), bytes),
				insn_reduce(0, lb, N, (uint8_t)dt, (uint8_t)rop),
				insn_put(va_of(va + 2 * bytes + 3), 0, bytes),
			};

			for (long i = 0; i < N; i++) {
				double x = (double)(i % 7 - 3), y = (double)((i * 5) % 9 - 4);

				encode(dt, x, a + i * es);
				encode(dt, y, b + i * es);
				encode(dt, rop_ref(dt, rop, x, y), want + i * es);
			}
			ASSERT_EQ(sdaaSuccess, sdaaMemcpy(va, a, bytes, sdaaMemcpyDefault));
			ASSERT_EQ(sdaaSuccess, sdaaMemcpy(va + bytes, b, bytes, sdaaMemcpyDefault));
			ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(p, 4, NULL));
			ASSERT_EQ(sdaaSuccess, sdaaMemcpy(got, va + 2 * bytes + 3, bytes,
							  sdaaMemcpyDefault));
			if (sdaa_test_diff(got, want, bytes) != -1) {
				TH_LOG("REDUCE dtype %d rop %d (%s): element %ld wrong", dt, rop,
				       tname[t], sdaa_test_diff(got, want, bytes) / (long)es);
				failures++;
			}
		}
	}
	EXPECT_EQ(0, failures);
	for (int t = 0; t < NT; t++)
		if (buf[t])
			tier_free(t, buf[t], host[t]);
}

/* SIGNAL (add, set), WAIT (>=, ==), FENCE and TIMESTAMP, in pinned memory. */
TEST(semaphores_fence_timestamp)
{
	struct sdaaTimingParams tp;
	uint64_t *h;
	void *d;
	uint64_t v;
	struct swai_insn p[7];

	NEED_SUBMIT();
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost((void **)&h, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaHostGetDevicePointer(&d, h, 0));
	memset(h, 0, 4096);
	v = va_of(d);
	p[0] = insn_signal(v, 5);
	p[1] = insn_signal(v, 7);			/* 12 */
	p[2] = insn_wait(v, 12);
	p[3] = (struct swai_insn){ .op = SWAI_OP_SIGNAL, .flags = SWAI_SIGNAL_SET,
				   .dst = v + 8, .src = 40 };
	p[4] = (struct swai_insn){ .op = SWAI_OP_WAIT, .flags = SWAI_WAIT_EQ,
				   .dst = v + 8, .src = 40 };
	p[5] = (struct swai_insn){ .op = SWAI_OP_FENCE, .dst = v + 16, .src = 0xfeed };
	p[6] = (struct swai_insn){ .op = SWAI_OP_TIMESTAMP, .dst = v + 24 };
	ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(p, 7, NULL));
	ASSERT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	EXPECT_EQ(12, h[0]);
	EXPECT_EQ(40, h[1]);
	EXPECT_EQ(0xfeed, h[2]);
	ASSERT_EQ(sdaaSuccess, sdaaDeviceGetTimingParams(&tp, 0));
	/* The modeled time of the TIMESTAMP is within the card's clock. */
	EXPECT_GT(h[3], 0);
	EXPECT_LE(h[3], tp.cardClockNs);
	sdaaFreeHost(h);
}

/* A BARRIER of all four core groups: none passes before all arrived. */
TEST_F_TIMEOUT(card, barrier_of_four_core_groups, 120)
{
	sdaaStream_t s[4];
	uint64_t *sem, got[4];
	void *semh;
	int dev[4];

	NEED_SUBMIT();
	for (int c = 0; c < 4; c++) {
		dev[c] = sdaa_test_cg_device(c);
		if (dev[c] < 0)
			SKIP(return, "needs all four core groups of the card");
	}
	sem = sdaa_test_sem(&semh);
	ASSERT_NE(NULL, sem);
	for (int c = 0; c < 4; c++) {
		ASSERT_EQ(sdaaSuccess, sdaaSetDevice(dev[c]));
		ASSERT_EQ(sdaaSuccess, sdaaStreamCreate(&s[c]));
	}
	/* Each CG arrives, then records how many had arrived when it left. */
	for (int c = 0; c < 4; c++) {
		struct swai_insn p[2] = {
			{ .op = SWAI_OP_BARRIER, .len = 4, .dst = va_of(sem) },
			insn_copy(va_of(&sem[8 + c]), va_of(sem), 8),
		};

		ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(p, 2, s[c]));
		if (c < 3)	/* not all there yet: nobody is through */
			EXPECT_EQ(sdaaErrorNotReady, sdaaStreamQuery(s[c]));
	}
	for (int c = 0; c < 4; c++)
		ASSERT_EQ(sdaaSuccess, sdaaStreamSynchronize(s[c]));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	memcpy(got, (uint64_t *)semh + 8, sizeof(got));
	for (int c = 0; c < 4; c++)
		EXPECT_EQ(4, got[c]);
	for (int c = 0; c < 4; c++)
		sdaaStreamDestroy(s[c]);
	sdaaFreeHost(semh);
}

/*
 * A second process for the fault tests, forked before this process uses
 * libsdaa (a child must have a runtime, and a context on the card, of its
 * own).  It waits for a byte: 'x' does copies on the card, anything else
 * just exits.
 */
struct helper {
	pid_t pid;
	int fd;
};

static struct helper helper_start(void)
{
	struct helper h = { -1, -1 };
	int pfd[2];

	if (pipe(pfd))
		return h;
	h.pid = fork();
	if (!h.pid) {
		char c = 0, in[8192], out[8192];
		void *d;

		close(pfd[1]);
		if (read(pfd[0], &c, 1) != 1 || c != 'x')
			_exit(0);
		memset(in, 0x3c, sizeof(in));
		for (int i = 0; i < 10; i++) {
			/* Local-HBM, or Global-HBM when the split has no Local. */
			if ((sdaaMalloc(&d, sizeof(in)) && sdaaMallocCross(&d, sizeof(in))) ||
			    sdaaMemcpy(d, in, sizeof(in), sdaaMemcpyHostToDevice) ||
			    sdaaMemcpy(out, d, sizeof(out), sdaaMemcpyDeviceToHost) ||
			    memcmp(in, out, sizeof(in)) || (sdaaFree(d) && sdaaFreeCross(d)))
				_exit(1);
		}
		_exit(0);
	}
	close(pfd[0]);
	h.fd = pfd[1];
	return h;
}

/* Let the helper run (@c 'x') or go; its exit status. */
static int helper_finish(struct helper *h, char c)
{
	int st = -1;

	if (h->pid <= 0)
		return -1;
	if (write(h->fd, &c, 1) != 1)
		return -1;
	close(h->fd);
	if (waitpid(h->pid, &st, 0) != h->pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

#define NEED_SUBMIT_HELPER(h) do {					\
	if (!sdaa_test_can_submit(0)) {					\
		helper_finish(&(h), 'q');				\
		SKIP(return, "the card cannot run jobs (no DRM_SWAI_CAP_SUBMIT)"); \
	}								\
} while (0)

/*
 * Run faulty program @p on device 0 and expect @want, sticky, with a string
 * saying @text; meanwhile the helper process works on the card undisturbed.
 */
static void faulty(struct __test_metadata *_metadata, struct helper *h,
		   const struct swai_insn *p, size_t n, sdaaError_t want, const char *text)
{
	char buf[16] = { 0 };
	sdaaStream_t s;
	void *d;

	ASSERT_LT(0, h->pid);
	ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(p, n, NULL));
	EXPECT_EQ(want, sdaaStreamSynchronize(NULL));
	EXPECT_NE(NULL, strstr(sdaaGetErrorString(want), text));
	TH_LOG("%s: %s", sdaaGetErrorName(want), sdaaGetErrorString(want));
	/* Sticky: every later call on the card says so, and so does GetLastError. */
	EXPECT_EQ(want, sdaaGetLastError());
	EXPECT_EQ(want, sdaaGetLastError());
	EXPECT_EQ(want, sdaaPeekAtLastError());
	EXPECT_EQ(want, sdaaMemcpy(buf, buf + 8, 4, sdaaMemcpyHostToHost));
	EXPECT_EQ(want, sdaaDeviceSynchronize());
	EXPECT_EQ(want, sdaaMalloc(&d, 64));
	EXPECT_EQ(want, sdaaStreamCreate(&s));
	EXPECT_EQ(want, sdaaLaunchProgram(p, n, NULL));
	/* The other process goes on. */
	EXPECT_EQ(0, helper_finish(h, 'x'));
}

TEST(illegal_instruction_is_sticky)
{
	struct helper h = helper_start();
	struct swai_insn p = { .op = 0x3f };

	NEED_SUBMIT_HELPER(h);
	faulty(_metadata, &h, &p, 1, sdaaErrorIllegalInstruction, "illegal instruction");
}

TEST(unused_field_is_illegal)
{
	struct helper h = helper_start();
	struct swai_insn p = { .op = SWAI_OP_NOP, .rows = 1 };

	NEED_SUBMIT_HELPER(h);
	/* NOP uses no field: a non-zero one is illegal (room for later meaning). */
	faulty(_metadata, &h, &p, 1, sdaaErrorIllegalInstruction, "illegal instruction");
}

TEST(unmapped_address_is_illegal_address)
{
	struct helper h = helper_start();
	void *d;
	struct swai_insn p;

	NEED_SUBMIT_HELPER(h);
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&d, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaHostGetDevicePointer(&d, d, 0));
	/* Below every mapping the runtime makes (it starts at 1 GiB). */
	p = insn_copy(va_of(d), 0x10000, 64);
	faulty(_metadata, &h, &p, 1, sdaaErrorIllegalAddress, "MMU fault");
}

TEST(other_core_groups_local_is_foreign)
{
	struct helper h = helper_start();
	struct sdaaDeviceProp prop;
	void *mine, *theirs;
	struct swai_insn p;
	int other;

	NEED_SUBMIT_HELPER(h);
	other = sdaa_test_cg_device(1);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	if (other <= 0 || !prop.totalLocalMem) {
		helper_finish(&h, 'q');
		SKIP(return, "needs a second core group with Local-HBM");
	}
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&mine, 64));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(other));
	ASSERT_EQ(sdaaSuccess, sdaaMalloc(&theirs, 64));
	ASSERT_EQ(sdaaSuccess, sdaaSetDevice(0));
	p = insn_copy(va_of(mine), va_of(theirs), 64);
	faulty(_metadata, &h, &p, 1, sdaaErrorForeignLocalAccess, "another core group");
}

TEST(ldm_overrun)
{
	struct helper h = helper_start();
	struct sdaaDeviceProp prop;
	void *d;
	struct swai_insn p;

	NEED_SUBMIT_HELPER(h);
	ASSERT_EQ(sdaaSuccess, sdaaGetDeviceProperties(&prop, 0));
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&d, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaHostGetDevicePointer(&d, d, 0));
	/* The last 8 bytes of LDM and 8 beyond. */
	p = insn_get((uint64_t)prop.cpeCount * prop.ldmPerCpe - 8, va_of(d), 16);
	faulty(_metadata, &h, &p, 1, sdaaErrorLdmOverrun, "LDM");
}

TEST(misaligned_semaphore)
{
	struct helper h = helper_start();
	void *d;
	struct swai_insn p;

	NEED_SUBMIT_HELPER(h);
	ASSERT_EQ(sdaaSuccess, sdaaMallocHost(&d, 4096));
	ASSERT_EQ(sdaaSuccess, sdaaHostGetDevicePointer(&d, d, 0));
	p = insn_signal(va_of(d) + 4, 1);
	faulty(_metadata, &h, &p, 1, sdaaErrorMisalignedAddress, "misaligned");
}

/* A program that never ends is stopped by the job timeout: sticky LaunchTimeout. */
TEST_F_TIMEOUT(card, hung_program_times_out, 90)
{
	char old[32];
	uint64_t *sem;
	void *semh;
	struct swai_insn p;
	sdaaError_t err;

	NEED_SUBMIT();
	sem = sdaa_test_sem(&semh);
	ASSERT_NE(NULL, sem);
	if (swai_sysfs_swap("job_timeout_ms", "2000", old, sizeof(old)))
		SKIP(return, "no job_timeout_ms attribute");
	p = insn_wait(va_of(sem), 1);	/* nobody signals */
	ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(&p, 1, NULL));
	EXPECT_EQ(sdaaErrorTimeout, sdaaStreamSynchronizeTimeout(NULL, 300));
	err = sdaaStreamSynchronize(NULL);
	{
		char now[32];

		swai_sysfs_swap("job_timeout_ms", old, now, sizeof(now));
	}
	EXPECT_EQ(sdaaErrorLaunchTimeout, err);
	EXPECT_EQ(sdaaErrorLaunchTimeout, sdaaMemset(sem, 0, 8));
	EXPECT_NE(NULL, strstr(sdaaGetErrorString(err), "timeout"));
}

TEST(launch_arguments)
{
	struct swai_insn p[2] = { { .op = SWAI_OP_NOP }, { .op = SWAI_OP_END } };

	NEED_SUBMIT();
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaLaunchProgram(NULL, 1, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue, sdaaLaunchProgram(p, 0, NULL));
	EXPECT_EQ(sdaaErrorInvalidValue,
		  sdaaLaunchProgram(p, SWAI_PROGRAM_MAX_BYTES / sizeof(p[0]) + 1, NULL));
	EXPECT_EQ(sdaaErrorInvalidResourceHandle,
		  sdaaLaunchProgram(p, 2, (sdaaStream_t)0x99));
	EXPECT_EQ(sdaaSuccess, sdaaLaunchProgram(p, 2, NULL));
	EXPECT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
	/* Many small programs: the program memory is recycled. */
	for (int i = 0; i < 3000; i++)
		ASSERT_EQ(sdaaSuccess, sdaaLaunchProgram(p, 1, NULL));
	EXPECT_EQ(sdaaSuccess, sdaaDeviceSynchronize());
}

TEST_HARNESS_MAIN
