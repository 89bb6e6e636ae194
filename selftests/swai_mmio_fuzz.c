// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_mmio_fuzz - a root process in the guest writes whatever it likes to
 * a card's registers and HBM window, as the driver never would, and the
 * device model must survive it: the card is unbound from swai.ko, its BARs
 * are mapped through sysfs (resource0, resource2) with bus mastering off
 * (so the card cannot scribble over guest memory: its DMA fails, which is
 * one more path to exercise), fuzzed for a while, reset, and bound again;
 * then it must run a copy correctly.  QEMU aborting or hanging fails the
 * run; the VM runner fails it on any kernel report.
 *
 *   swai_mmio_fuzz [SECONDS [SEED]]   (default 20 s, the clock)
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include "swai_test.h"
#include "swai_job.h"
#include "swai_regs.h"	/* the one register map (kernel/) */

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int sysfs_write(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return write_file(path, val);
}

/* Clear (or set) bus mastering in the command register, through sysfs. */
static int bus_master(const char *pcidir, int on)
{
	char path[PATH_MAX + 64];
	uint16_t cmd;
	int fd, ok;

	snprintf(path, sizeof(path), "%s/config", pcidir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ok = pread(fd, &cmd, 2, 4) == 2;
	cmd = on ? (cmd | 4) : (cmd & ~4);
	ok = ok && pwrite(fd, &cmd, 2, 4) == 2;
	close(fd);
	return ok ? 0 : -EIO;
}

static void *map_bar(const char *pcidir, int bar, size_t *len)
{
	char path[PATH_MAX + 64];
	struct stat st;
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/resource%d", pcidir, bar);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		return NULL;
	*len = (size_t)st.st_size > (64u << 20) ? (64u << 20) : (size_t)st.st_size;
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

int main(int argc, char **argv)
{
	static const uint32_t regs[] = {
		SWAI_REG_STATUS, SWAI_REG_SCRATCH, SWAI_REG_ERROR, SWAI_REG_LOCAL_PER_CG_MB,
		SWAI_REG_IRQ_STATUS, SWAI_REG_IRQ_ENABLE, SWAI_REG_IRQ_RAISE,
		SWAI_REG_MMU_CTX_TABLE_LO, SWAI_REG_MMU_CTX_TABLE_HI, SWAI_REG_MMU_INVALIDATE,
		SWAI_REG_MMU_FAULT_STATUS, SWAI_REG_MMU_PROBE_ASID, SWAI_REG_MMU_PROBE_VA_LO,
		SWAI_REG_MMU_PROBE_GO, SWAI_REG_T_RING_MBPS, SWAI_REG_T_PCIE_MBPS,
	};
	long seconds = argc > 1 ? atol(argv[1]) : 20;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : now_ns(), s, end;
	struct swai_card c[SWAI_MAX_CARDS];
	unsigned long ops = 0, errors = 0, faults = 0, bad_rings = 0;
	char pcidir[PATH_MAX + 32];
	size_t len0, len2;
	volatile uint32_t *r;
	volatile uint8_t *hbm;
	int n = swai_find_cards(c, SWAI_MAX_CARDS), ok;

	printf("1..3\n# seed %#llx, %ld s (replay: swai_mmio_fuzz %ld %#llx)\n",
	       (unsigned long long)seed, seconds, seconds, (unsigned long long)seed);
	fflush(stdout);
	if (n < 1) {
		printf("not ok 1 - no swai card\n");
		return 1;
	}
	snprintf(pcidir, sizeof(pcidir), "/sys/bus/pci/devices/%s", c[0].bdf);
	if (write_file("/sys/bus/pci/drivers/swai/unbind", c[0].bdf) ||
	    sysfs_write(pcidir, "enable", "1") || bus_master(pcidir, 0)) {
		printf("not ok 1 - cannot unbind %s and enable it bare\n", c[0].bdf);
		return 1;
	}
	r = map_bar(pcidir, 0, &len0);
	hbm = map_bar(pcidir, 2, &len2);
	if (!r || !hbm) {
		printf("not ok 1 - cannot map the BARs of %s\n", c[0].bdf);
		return 1;
	}
	s = seed;
	end = now_ns() + (uint64_t)seconds * 1000000000ull;
	while (now_ns() < end) {
		for (int k = 0; k < 1000; k++, ops++) {
			uint64_t x = rnd(&s);
			uint32_t v = (uint32_t)rnd(&s), off;

			switch (x % 8) {
			case 0:		/* a register the driver uses, anything in it */
			case 1:
				r[regs[(x >> 8) % (sizeof(regs) / sizeof(regs[0]))] / 4] = v;
				break;
			case 2:		/* a queue's registers, real or absent: doorbells too */
				off = SWAI_QUEUE_BASE + SWAI_QUEUE_STRIDE * ((x >> 8) % 6) +
				      4 * ((x >> 16) % 14);
				r[off / 4] = (x >> 32) % 2 ? v : (uint32_t)((x >> 40) % 32);
				break;
			case 3:		/* anywhere in BAR0 */
				r[((x >> 8) % (len0 / 4))] = v;
				break;
			case 4:
				(void)r[((x >> 8) % (len0 / 4))];
				break;
			case 5:		/* the HBM window */
				hbm[(x >> 8) % len2] = (uint8_t)v;
				break;
			case 6:
				(void)hbm[(x >> 8) % len2];
				break;
			default:	/* reset the card now and then */
				if (!((x >> 8) % 64))
					r[SWAI_REG_RESET / 4] = SWAI_RESET_MAGIC;
				else
					r[SWAI_REG_SCRATCH / 4] = v;
				break;
			}
		}
		errors += r[SWAI_REG_ERROR / 4] != 0;
		faults += r[SWAI_REG_MMU_FAULT_STATUS / 4] != 0;
		for (int q = 0; q < 4; q++)
			bad_rings += (r[(SWAI_QUEUE_BASE + SWAI_QUEUE_STRIDE * q +
					 SWAI_Q_STATUS) / 4] & SWAI_Q_STATUS_BAD_RING) != 0;
		r[SWAI_REG_ERROR / 4] = ~0u;
		r[SWAI_REG_MMU_FAULT_STATUS / 4] = ~0u;
	}
	printf("ok 1 - %lu register and HBM accesses; the card latched ERROR %lu times, MMU "
	       "faults %lu, bad rings %lu\n", ops, errors, faults, bad_rings);
	ok = r[SWAI_REG_ID / 4] == SWAI_ID_MAGIC;
	r[SWAI_REG_RESET / 4] = SWAI_RESET_MAGIC;
	printf("%sok 2 - the card still identifies itself\n", ok ? "" : "not ");
	munmap((void *)r, len0);
	munmap((void *)hbm, len2);
	sysfs_write(pcidir, "enable", "0");
	ok = !write_file("/sys/bus/pci/drivers/swai/bind", c[0].bdf) &&
	     swai_wait_cards(n, 5000) == n;
	if (ok) {
		struct bo a = { 0 }, b = { 0 };
		struct arena ar = { 0 };
		struct prog p = { .n = 0 };
		int fd = open(c[0].node, O_RDWR | O_CLOEXEC);
		long long id;

		n = swai_find_cards(c, SWAI_MAX_CARDS);
		ok = fd >= 0 && !host_bo(fd, 65536, &a) && !host_bo(fd, 65536, &b) &&
		     !arena_init(fd, &ar, 4096);
		if (ok) {
			fill(a.cpu, 65536, 3);
			p_copy(&p, b.va, a.va, 65536);
			p_end(&p);
			id = run_prog(fd, &ar, &p, 0);
			ok = id > 0 && !job_error(fd, (uint64_t)id, 20000) &&
			     !memcmp(a.cpu, b.cpu, 65536);
		}
		if (fd >= 0)
			close(fd);
	}
	printf("%sok 3 - bound again to swai.ko, the card copies correctly\n", ok ? "" : "not ");
	return ok ? 0 : 1;
}
