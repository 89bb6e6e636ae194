// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_load_test - loading and unloading swai.ko, and unbinding a card from
 * under an open file, leave nothing behind and bring every card back.
 *
 * SWAI_LOAD_CYCLES sets the number of load/unload cycles (default 10);
 * SWAI_BUSY_CYCLES (unset: skipped) the cycles made while processes try to
 * keep the module busy.
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "kselftest_harness.h"

static int run(const char *cmd)
{
	int rc = system(cmd);

	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Lines of /proc/interrupts that name our driver. */
static int swai_irq_lines(void)
{
	char line[1024];
	int n = 0;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "swai") != NULL;
	fclose(f);
	return n;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -errno;
}

/* How many cards there are that open and answer QUERY_DEVICE. */
static int cards_answering(void)
{
	struct swai_card c[SWAI_MAX_CARDS];
	int n = swai_find_cards(c, SWAI_MAX_CARDS), ok = 0;

	for (int i = 0; i < n; i++) {
		struct drm_swai_query_device q;
		int fd = open(c[i].node, O_RDWR | O_CLOEXEC);

		ok += fd >= 0 && !swai_query(fd, &q);
		if (fd >= 0)
			close(fd);
	}
	return ok;
}

FIXTURE(module) {
	int cards;
};

FIXTURE_SETUP(module)
{
	struct swai_card c[SWAI_MAX_CARDS];

	if (!exists("/sys/module/swai"))
		ASSERT_EQ(0, run("modprobe swai"));
	self->cards = swai_wait_cards(swai_expect("SWAI_EXPECT_CARDS") > 0 ?
				      swai_expect("SWAI_EXPECT_CARDS") : 1, 5000);
	ASSERT_GT(self->cards, 0);
	ASSERT_EQ(self->cards, swai_find_cards(c, SWAI_MAX_CARDS));
}

FIXTURE_TEARDOWN(module)
{
	/* Leave the module loaded for the suites that follow. */
	if (!exists("/sys/module/swai"))
		run("modprobe swai");
	swai_wait_cards(self->cards, 5000);
}

/* A cycle (probe: MSI-X self-test, reset, MMU and queue setup) takes ~1 s under TCG. */
TEST_F_TIMEOUT(module, load_unload_cycles, 120)
{
	long long cycles = swai_expect("SWAI_LOAD_CYCLES");
	struct swai_card c[SWAI_MAX_CARDS];

	if (cycles < 0)
		cycles = 10;
	for (long long k = 0; k < cycles; k++) {
		ASSERT_EQ(0, run("modprobe -r swai")) TH_LOG("cycle %lld", k);
		/* Nothing of the driver survives its unload. */
		ASSERT_FALSE(exists("/sys/module/swai"));
		ASSERT_FALSE(exists("/sys/bus/pci/drivers/swai"));
		ASSERT_EQ(0, swai_find_cards(c, SWAI_MAX_CARDS));
		ASSERT_FALSE(exists("/dev/accel/accel0"));
		ASSERT_EQ(0, swai_irq_lines());

		ASSERT_EQ(0, run("modprobe swai")) TH_LOG("cycle %lld", k);
		ASSERT_EQ(self->cards, swai_wait_cards(self->cards, 5000));
		/* Each card answers after every reload, one MSI-X set each. */
		ASSERT_EQ(self->cards, cards_answering()) TH_LOG("cycle %lld", k);
		ASSERT_EQ(self->cards * 5, swai_irq_lines());
	}
}

/*
 * A process that uses whatever card it finds until it is killed: opens,
 * queries, buffer objects, syncobjs, closes, with short pauses.  Every
 * error is expected (the module comes and goes under it); a crash is not.
 */
static void keep_busy(int id)
{
	unsigned long ops = 0;

	for (;;) {
		struct swai_card c[SWAI_MAX_CARDS];
		int n = swai_find_cards(c, SWAI_MAX_CARDS), fd;
		struct drm_swai_query_device q;
		struct drm_swai_bo_create bo = { .size = 65536 };
		struct drm_gem_close cl = { 0 };
		uint32_t h;

		if (n <= 0)
			continue;
		fd = open(c[(ops + id) % n].node, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		swai_query(fd, &q);
		if (!ioctl(fd, DRM_IOCTL_SWAI_BO_CREATE, &bo)) {
			cl.handle = bo.handle;
			ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
		}
		if (!drmSyncobjCreate(fd, 0, &h))
			drmSyncobjDestroy(fd, h);
		close(fd);
		ops++;
		/* pauses of 0-3 ms: windows in which an unload can happen */
		usleep((unsigned int)((ops * 2654435761u + (unsigned long)id) % 3000));
	}
}

/*
 * Load/unload cycles while four processes keep opening the cards: an unload
 * is refused while one of them has a file open (-EBUSY, retried), never
 * crashes, and every card comes back after each load.
 */
TEST_F_TIMEOUT(module, busy_load_unload_cycles, 900)
{
	long long cycles = swai_expect("SWAI_BUSY_CYCLES");
	long long refused = 0;
	pid_t pid[4];

	if (cycles <= 0)
		SKIP(return, "SWAI_BUSY_CYCLES not set (make check's vm-load-busy sets 100)");
	for (int i = 0; i < 4; i++) {
		pid[i] = fork();
		ASSERT_GE(pid[i], 0);
		if (!pid[i]) {
			keep_busy(i);
			_exit(0);
		}
	}
	for (long long k = 0; k < cycles; k++) {
		int tries = 0;

		while (run("modprobe -r swai 2>/dev/null")) {
			refused++;
			ASSERT_LT(++tries, 2000) TH_LOG("cycle %lld: never unloaded", k);
			usleep(1000);
		}
		ASSERT_FALSE(exists("/sys/module/swai"));
		ASSERT_EQ(0, run("modprobe swai")) TH_LOG("cycle %lld", k);
		ASSERT_EQ(self->cards, swai_wait_cards(self->cards, 5000)) TH_LOG("cycle %lld", k);
	}
	for (int i = 0; i < 4; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	TH_LOG("%lld cycles, %lld unloads refused while busy", cycles, refused);
	/* Every card answers, with one MSI-X vector set each. */
	ASSERT_EQ(self->cards, cards_answering());
	ASSERT_EQ(self->cards * 5, swai_irq_lines());
}

/* An open file pins the module: unload fails until it is closed. */
TEST_F(module, open_file_pins_module)
{
	struct swai_card c[SWAI_MAX_CARDS];
	int fd;

	ASSERT_GT(swai_find_cards(c, SWAI_MAX_CARDS), 0);
	fd = open(c[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	EXPECT_NE(0, run("modprobe -r swai 2>/dev/null"));
	EXPECT_TRUE(exists("/sys/module/swai"));
	close(fd);
	EXPECT_EQ(0, run("modprobe -r swai"));
	EXPECT_FALSE(exists("/sys/module/swai"));
}

/*
 * Unbinding a card while a file is open: the card disappears, the open file
 * gets -ENODEV instead of touching a gone device, and the card binds again.
 */
TEST_F(module, unbind_with_open_file)
{
	struct swai_card c[SWAI_MAX_CARDS], now[SWAI_MAX_CARDS];
	struct drm_swai_query_device q;
	int fd, n, i;

	ASSERT_GT(swai_find_cards(c, SWAI_MAX_CARDS), 0);
	fd = open(c[0].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, write_file("/sys/bus/pci/drivers/swai/unbind", c[0].bdf));
	EXPECT_EQ(self->cards - 1, swai_wait_cards(self->cards - 1, 5000));
	EXPECT_EQ(-ENODEV, swai_query(fd, &q));
	EXPECT_EQ(0, close(fd));
	ASSERT_EQ(0, write_file("/sys/bus/pci/drivers/swai/bind", c[0].bdf));
	ASSERT_EQ(self->cards, swai_wait_cards(self->cards, 5000));
	/* The same PCI device is a card again (its minor may differ). */
	n = swai_find_cards(now, SWAI_MAX_CARDS);
	for (i = 0; i < n && strcmp(now[i].bdf, c[0].bdf); i++)
		;
	ASSERT_LT(i, n);
	fd = open(now[i].node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, swai_query(fd, &q));
	close(fd);
}

TEST_HARNESS_MAIN
