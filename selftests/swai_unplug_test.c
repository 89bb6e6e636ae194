// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_unplug_test - a card hot-unplugged (QEMU device_del) while jobs and
 * collectives run on every card: the processes on the lost card get
 * -ENODEV or a runtime error and end, nothing hangs, the other cards go on
 * without an error, and afterwards the module unloads (nothing holds a
 * reference) and loads again with the cards that are left.
 *
 * Run by tools/run-checks.sh as: swai-vm --cards 2 --unplug 1@S -- swai_unplug_test
 * (the host removes a card S seconds after boot; pciehp takes 5 s more).
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "swai_job.h"
#include "kselftest_harness.h"
#include "sdaa_runtime.h"
#include "swccl.h"

#define WORKERS_PER_CARD 2

struct slot {
	volatile int stop;		/* set by the parent */
	volatile long ops;
	volatile int err;		/* the error that ended the worker, 0: none */
	volatile int done;
};

/* Copy jobs on @node until an error (its errno) or stop. */
static void job_worker(const char *node, struct slot *s)
{
	int fd = open(node, O_RDWR | O_CLOEXEC);
	struct bo a = { 0 }, b = { 0 };
	struct arena ar = { 0 };
	struct prog p = { .n = 0 };

	if (fd < 0 || host_bo(fd, 1 << 20, &a) || host_bo(fd, 1 << 20, &b) ||
	    arena_init(fd, &ar, 1 << 16)) {
		s->err = fd < 0 ? errno : EIO;
		return;
	}
	p_copy(&p, b.va, a.va, 1 << 20);
	p_end(&p);
	while (!s->stop) {
		long long id = run_prog(fd, &ar, &p, (unsigned int)(s->ops % 4));
		int e = id < 0 ? (int)-id : job_error(fd, (uint64_t)id, 30000);

		if (e) {
			s->err = e < 0 ? -e : e;
			return;
		}
		s->ops++;
	}
}

/* AllReduce of 1 MiB over the card's four core groups until an error. */
static void coll_worker(int card, struct slot *s)
{
	int devs[4] = { 4 * card, 4 * card + 1, 4 * card + 2, 4 * card + 3 };
	swcclComm_t comms[4];
	float *buf[4];
	size_t n = 1 << 18;

	if (swcclCommInitAll(comms, 4, devs) != swcclSuccess) {
		s->err = EIO;
		return;
	}
	for (int r = 0; r < 4; r++) {
		if (sdaaSetDevice(devs[r]) || sdaaMalloc((void **)&buf[r], n * sizeof(float))) {
			s->err = EIO;
			return;
		}
	}
	while (!s->stop) {
		swcclResult_t res = swcclGroupStart();

		for (int r = 0; r < 4 && res == swcclSuccess; r++)
			res = swcclAllReduce(buf[r], buf[r], n, swcclFloat, swcclSum, comms[r], NULL);
		if (res == swcclSuccess)
			res = swcclGroupEnd();
		for (int r = 0; r < 4 && res == swcclSuccess; r++) {
			if (sdaaSetDevice(devs[r]) || sdaaDeviceSynchronizeTimeout(30000))
				res = swcclUnhandledSdaaError;
		}
		if (res != swcclSuccess) {
			s->err = 1000 + (int)res;	/* a runtime error, not an errno */
			return;
		}
		s->ops++;
	}
}

TEST(unplug_under_load)
{
	struct swai_card before[SWAI_MAX_CARDS], after[SWAI_MAX_CARDS];
	int n0 = swai_find_cards(before, SWAI_MAX_CARDS), n1 = n0, gone = -1;
	struct slot *slots;
	pid_t pid[SWAI_MAX_CARDS * WORKERS_PER_CARD];
	int nw = n0 * WORKERS_PER_CARD;

	ASSERT_GE(n0, 2) TH_LOG("needs two cards, one to lose");
	slots = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, slots);
	memset(slots, 0, 4096);
	for (int w = 0; w < nw; w++) {
		pid[w] = fork();
		ASSERT_GE(pid[w], 0);
		if (!pid[w]) {
			if (w % WORKERS_PER_CARD)
				coll_worker(w / WORKERS_PER_CARD, &slots[w]);
			else
				job_worker(before[w / WORKERS_PER_CARD].node, &slots[w]);
			slots[w].done = 1;
			_exit(0);
		}
	}
	/* the host removes a card; wait for it to go (up to 120 s) */
	for (int t = 0; t < 1200 && n1 == n0; t++) {
		usleep(100000);
		n1 = swai_find_cards(after, SWAI_MAX_CARDS);
	}
	ASSERT_EQ(n0 - 1, n1) TH_LOG("no card went away: was --unplug given?");
	for (int i = 0; i < n0 && gone < 0; i++) {
		bool still = false;

		for (int j = 0; j < n1; j++)
			still |= !strcmp(before[i].bdf, after[j].bdf);
		if (!still)
			gone = i;
	}
	ASSERT_GE(gone, 0);
	TH_LOG("card %d (%s) was unplugged", gone, before[gone].bdf);
	/* its workers fail and end within 60 s; the others keep going */
	for (int w = gone * WORKERS_PER_CARD; w < (gone + 1) * WORKERS_PER_CARD; w++) {
		int st;

		for (int t = 0; t < 600 && !slots[w].done; t++)
			usleep(100000);
		EXPECT_TRUE(slots[w].done) TH_LOG("worker %d on the lost card hangs", w);
		EXPECT_NE(0, slots[w].err);
		TH_LOG("worker %d on the lost card: %ld ops, then error %d", w, slots[w].ops,
		       slots[w].err);
		if (!slots[w].done)
			kill(pid[w], SIGKILL);
		waitpid(pid[w], &st, 0);
	}
	sleep(2);
	for (int w = 0; w < nw; w++)
		slots[w].stop = 1;
	for (int w = 0; w < nw; w++) {
		if (w / WORKERS_PER_CARD == gone)
			continue;
		waitpid(pid[w], NULL, 0);
		EXPECT_EQ(0, slots[w].err) TH_LOG("worker %d on card %d failed", w,
						   w / WORKERS_PER_CARD);
		EXPECT_GT(slots[w].ops, 0);
	}
	/* nothing holds the module: it unloads, and loads with the cards left */
	EXPECT_EQ(0, system("modprobe -r swai"));
	EXPECT_EQ(0, system("modprobe swai"));
	EXPECT_EQ(n0 - 1, swai_wait_cards(n0 - 1, 5000));
	munmap(slots, 4096);
}

TEST_HARNESS_MAIN
