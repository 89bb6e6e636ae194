// SPDX-License-Identifier: MIT
/*
 * sdaa-bandwidth - copy bandwidth of a SW-AI card through libsdaa, in
 * modeled card time (the card's timing model, datasheet §14: what the real
 * hardware would take) and in wall time (what the emulator took).
 *
 *   1. One copy per size (4 KiB .. 64 MiB, x4) and direction: pinned host ->
 *      Local-HBM, pinned host -> Global-HBM, Local -> Global, Global ->
 *      Local, Local -> pinned host, pageable host -> Local (staged).  Modeled
 *      time from events around the copy (sdaaEventElapsedTime), wall time
 *      from the same events (sdaaEventElapsedTimeWall), best of -n runs.
 *   2. The paper's Fig. 12: the same parameters into the Local-HBM of all
 *      four core groups, two-tier (four PCIe copies, one per CG, issued at
 *      once on four streams) against three-tier (one PCIe copy into
 *      Global-HBM, then four ring copies Global -> Local at once on the four
 *      CGs).  The paper measures 2.5x.
 *   3. With --host-gbps, wall bandwidth of the largest size as a fraction
 *      of the host's own memcpy.  That baseline is measured on the host,
 *      outside the VM (sdaa-bandwidth --host-memcpy, run there first: make
 *      demo does), because the emulator's copies run at host speed while a
 *      memcpy inside the TCG guest runs ten times slower -- a ratio against
 *      the guest's memcpy says nothing about the emulator.
 *
 *   sdaa-bandwidth [--json] [-d DEVICE] [--min BYTES] [--max BYTES] [-n RUNS]
 *                  [--fig12 BYTES] [--host-gbps GBPS]
 *   sdaa-bandwidth --host-memcpy [--max BYTES] [-n RUNS]
 * Sizes take K/M/G suffixes.  --json prints every figure as one JSON object
 * per line.  Run it in the VM: tools/vm/swai-vm --cards 1 -- sdaa-bandwidth
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdaa-bench-copy.h"
#include "sdaa_runtime.h"
#include "swai-cli.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define NCG 4

static int json;

#define TRY(call) do {							\
	sdaaError_t e_ = (call);					\
	if (e_ != sdaaSuccess) {					\
		fprintf(stderr, "sdaa-bandwidth: %s: %s (%s)\n", #call,	\
			sdaaGetErrorName(e_), sdaaGetErrorString(e_));	\
		exit(1);						\
	}								\
} while (0)

static const char *human(unsigned long long b, char *buf, size_t n)
{
	if (b >= MIB && b % MIB == 0)
		snprintf(buf, n, "%llu MiB", b / MIB);
	else if (b >= KIB && b % KIB == 0)
		snprintf(buf, n, "%llu KiB", b / KIB);
	else
		snprintf(buf, n, "%llu B", b);
	return buf;
}

/* GB/s (10^9 bytes/s) of @bytes in @ms. */
static double gbps(unsigned long long bytes, double ms)
{
	return ms > 0 ? (double)bytes / (ms * 1e6) : 0;
}

/* The logical devices of core groups 0..3 of @dev's card, -1 if not visible. */
static void card_devices(int dev, int *cg_dev)
{
	struct sdaaDeviceProp p, q;
	int n;

	TRY(sdaaGetDeviceProperties(&p, dev));
	TRY(sdaaGetDeviceCount(&n));
	for (int c = 0; c < NCG; c++)
		cg_dev[c] = -1;
	for (int d = 0; d < n; d++) {
		TRY(sdaaGetDeviceProperties(&q, d));
		if (q.card == p.card && q.coreGroup < NCG && cg_dev[q.coreGroup] < 0)
			cg_dev[q.coreGroup] = d;
	}
}

struct dir {
	const char *name;
	int src, dst;		/* buffer indices below */
	enum sdaaMemcpyKind kind;
};

enum { PINNED, PAGEABLE, LOCAL, GLOBAL, NBUF };

struct fig12 {
	double model_ms, wall_ms;
};

/* Latest stop event of the four streams, relative to @start. */
static void finish(sdaaEvent_t start, sdaaEvent_t *stop, struct fig12 *r)
{
	r->model_ms = r->wall_ms = 0;
	for (int c = 0; c < NCG; c++) {
		float m, w;

		TRY(sdaaEventSynchronize(stop[c]));
		TRY(sdaaEventElapsedTime(&m, start, stop[c]));
		TRY(sdaaEventElapsedTimeWall(&w, start, stop[c]));
		if (m > r->model_ms)
			r->model_ms = m;
		if (w > r->wall_ms)
			r->wall_ms = w;
	}
}

/*
 * Fig. 12 for @n bytes of parameters in pinned @host: into the Local-HBM
 * @local[c] of every core group, two-tier and three-tier (through @global).
 */
static void fig12(const int *cg_dev, void *host, void **local, void *global, size_t n,
		  struct fig12 *two, struct fig12 *three)
{
	sdaaStream_t s[NCG];
	sdaaEvent_t start, mid, stop[NCG];

	for (int c = 0; c < NCG; c++) {
		TRY(sdaaSetDevice(cg_dev[c]));
		TRY(sdaaStreamCreate(&s[c]));
		TRY(sdaaEventCreate(&stop[c]));
	}
	TRY(sdaaSetDevice(cg_dev[0]));
	TRY(sdaaEventCreate(&start));
	TRY(sdaaEventCreate(&mid));

	/* Two-tier: four PCIe copies at once, sharing the link. */
	for (int c = 0; c < NCG; c++) {
		TRY(sdaaSetDevice(cg_dev[c]));
		TRY(sdaaDeviceSynchronize());
	}
	TRY(sdaaEventRecord(start, s[0]));
	for (int c = 0; c < NCG; c++) {
		TRY(sdaaMemcpyAsync(local[c], host, n, sdaaMemcpyHostToDevice, s[c]));
		TRY(sdaaEventRecord(stop[c], s[c]));
	}
	finish(start, stop, two);

	/* Three-tier: one PCIe copy into Global-HBM, then four ring copies. */
	for (int c = 0; c < NCG; c++) {
		TRY(sdaaSetDevice(cg_dev[c]));
		TRY(sdaaDeviceSynchronize());
	}
	TRY(sdaaEventRecord(start, s[0]));
	TRY(sdaaMemcpyAsync(global, host, n, sdaaMemcpyHostToDevice, s[0]));
	TRY(sdaaEventRecord(mid, s[0]));
	for (int c = 0; c < NCG; c++) {
		if (c)
			TRY(sdaaStreamWaitEvent(s[c], mid, 0));
		TRY(sdaaMemcpyAsync(local[c], global, n, sdaaMemcpyDeviceToDevice, s[c]));
		TRY(sdaaEventRecord(stop[c], s[c]));
	}
	finish(start, stop, three);

	for (int c = 0; c < NCG; c++) {
		TRY(sdaaStreamDestroy(s[c]));
		TRY(sdaaEventDestroy(stop[c]));
	}
	TRY(sdaaEventDestroy(start));
	TRY(sdaaEventDestroy(mid));
	TRY(sdaaSetDevice(cg_dev[0]));
}

/* Fig. 12 for @n bytes, best of @runs; check the data; print the row. */
static void fig12_row(const int *cg_dev, void *host, void **local, void *global, size_t n,
		      int runs)
{
	struct fig12 two = { 1e30, 1e30 }, three = { 1e30, 1e30 }, t2, t3;
	double spread = 0;
	char *check = malloc(n), hb[32];

	/* The model should give the same every time; say so if it did not. */
	for (int r = 0; r < runs; r++) {
		fig12(cg_dev, host, local, global, n, &t2, &t3);
		if (r)
			spread = fmax(spread, fmax(fabs(t2.model_ms - two.model_ms),
						   fabs(t3.model_ms - three.model_ms)));
		two.model_ms = fmin(two.model_ms, t2.model_ms);
		two.wall_ms = fmin(two.wall_ms, t2.wall_ms);
		three.model_ms = fmin(three.model_ms, t3.model_ms);
		three.wall_ms = fmin(three.wall_ms, t3.wall_ms);
	}
	if (spread > 0)
		fprintf(stderr, "sdaa-bandwidth: Fig. 12 %zu bytes: modeled time varied "
			"between runs by up to %.1f us\n", n, spread * 1e3);
	/* The parameters did arrive, in the last CG too. */
	if (!check)
		exit(1);
	TRY(sdaaMemcpy(check, local[NCG - 1], n, sdaaMemcpyDeviceToHost));
	if (memcmp(check, host, n)) {
		fprintf(stderr, "sdaa-bandwidth: Fig. 12 copy corrupted data\n");
		exit(1);
	}
	free(check);
	if (json)
		printf("{\"kind\":\"fig12\",\"bytes\":%zu,\"two_tier_us\":%.3f,"
		       "\"three_tier_us\":%.3f,\"ratio\":%.3f,\"paper_ratio\":2.5,"
		       "\"two_tier_wall_us\":%.1f,\"three_tier_wall_us\":%.1f}\n", n,
		       two.model_ms * 1e3, three.model_ms * 1e3, two.model_ms / three.model_ms,
		       two.wall_ms * 1e3, three.wall_ms * 1e3);
	else
		printf("%10s %16.1f %16.1f %7.2fx %14.0f %14.0f\n", human(n, hb, sizeof(hb)),
		       two.model_ms * 1e3, three.model_ms * 1e3, two.model_ms / three.model_ms,
		       two.wall_ms * 1e3, three.wall_ms * 1e3);
}

static void usage(void)
{
	fprintf(stderr, "usage: sdaa-bandwidth [--json] [-d DEVICE] [--min BYTES] [--max BYTES]\n"
		"                      [-n RUNS] [--fig12 BYTES] [--host-gbps GBPS]\n"
		"       sdaa-bandwidth --host-memcpy [--max BYTES] [-n RUNS]\n"
		"  --host-memcpy  measure only this machine's memcpy of --max bytes (run it on\n"
		"                 the host, no card needed) and print it in GB/s\n"
		"  --host-gbps G  that figure: print the wall bandwidth as a fraction of it\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "device", required_argument, NULL, 'd' },
		{ "min", required_argument, NULL, 'a' },
		{ "max", required_argument, NULL, 'b' },
		{ "runs", required_argument, NULL, 'n' },
		{ "fig12", required_argument, NULL, 'f' },
		{ "host-memcpy", no_argument, NULL, 'H' },
		{ "host-gbps", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const struct dir dirs[] = {
		{ "host->local", PINNED, LOCAL, sdaaMemcpyHostToDevice },
		{ "host->global", PINNED, GLOBAL, sdaaMemcpyHostToDevice },
		{ "local->global", LOCAL, GLOBAL, sdaaMemcpyDeviceToDevice },
		{ "global->local", GLOBAL, LOCAL, sdaaMemcpyDeviceToDevice },
		{ "local->host", LOCAL, PINNED, sdaaMemcpyDeviceToHost },
		{ "pageable->local", PAGEABLE, LOCAL, sdaaMemcpyHostToDevice },
	};
	enum { NDIR = sizeof(dirs) / sizeof(dirs[0]) };
	unsigned long long min = 4 * KIB, max = 64 * MIB, f12 = 0;
	double wall_at_max[NDIR] = { 0 }, host_gbps = 0;
	struct sdaaDeviceProp prop;
	struct sdaaTimingParams tp;
	int dev = 0, runs = 3, o, cg_dev[NCG], have_fig12, host_only = 0;
	char *end;
	void *buf[NBUF] = { 0 };
	sdaaStream_t s;
	char hb[32];

	while ((o = getopt_long(argc, argv, "jd:n:h", opts, NULL)) != -1) {
		switch (o) {
		case 'j': json = 1; break;
		case 'd': dev = (int)swai_cli_long_or_exit("sdaa-bandwidth", "-d", optarg, 0, 1 << 20); break;
		case 'a': min = swai_cli_size_or_exit("sdaa-bandwidth", "--min", optarg); break;
		case 'b': max = swai_cli_size_or_exit("sdaa-bandwidth", "--max", optarg); break;
		case 'n': runs = (int)swai_cli_long_or_exit("sdaa-bandwidth", "-n", optarg, 1, 1000); break;
		case 'f': f12 = swai_cli_size_or_exit("sdaa-bandwidth", "--fig12", optarg); break;
		case 'H': host_only = 1; break;
		case 'g': host_gbps = strtod(optarg, &end); if (*end || !(host_gbps > 0)) usage(); break;
		default: usage();
		}
	}
	if (optind != argc || runs < 1 || !min || min > max)
		usage();
	if (host_only) {
		double g = sdaa_bench_memcpy_gbps(max, runs);

		if (json)
			printf("{\"kind\":\"host_memcpy\",\"bytes\":%llu,\"wall_gbps\":%.4f}\n",
			       max, g);
		else
			printf("%.4f\n", g);
		return 0;
	}
	TRY(sdaaSetDevice(dev));
	TRY(sdaaGetDeviceProperties(&prop, dev));
	TRY(sdaaDeviceGetTimingParams(&tp, dev));
	/* Leave room in each tier: clamp the largest size to what fits. */
	while (max > min && ((prop.totalLocalMem && max * 2 > prop.totalLocalMem) ||
			     (prop.totalGlobalMem && max * 2 > prop.totalGlobalMem)))
		max /= 2;
	if (!f12)
		f12 = max;
	card_devices(dev, cg_dev);
	have_fig12 = prop.totalLocalMem && prop.totalGlobalMem;
	for (int c = 0; c < NCG; c++)
		have_fig12 &= cg_dev[c] >= 0;

	if (json)
		printf("{\"kind\":\"timing\",\"card\":%d,\"pcie_mbps\":%u,\"ring_mbps\":%u,"
		       "\"ring_total_mbps\":%u,\"local_mbps\":%u,\"launch_ns\":%u,"
		       "\"sync_ns\":%u,\"step_ns\":%u}\n", prop.card, tp.pcieMBps, tp.ringMBps,
		       tp.ringTotalMBps, tp.localMBps, tp.launchNs, tp.syncNs, tp.stepNs);
	else
		printf("sdaa-bandwidth: %s; model: PCIe %u MB/s, ring %u MB/s per CG (%u total), "
		       "Local-HBM %u MB/s,\n  launch %u ns, host sync %u ns, step %u ns; "
		       "best wall time of %d run(s)\n\n", prop.name, tp.pcieMBps, tp.ringMBps,
		       tp.ringTotalMBps, tp.localMBps, tp.launchNs, tp.syncNs, tp.stepNs, runs);

	TRY(sdaaMallocHost(&buf[PINNED], max));
	buf[PAGEABLE] = malloc(max);
	if (!buf[PAGEABLE])
		return 1;
	memset(buf[PINNED], 0x5a, max);
	memset(buf[PAGEABLE], 0xa5, max);
	if (prop.totalLocalMem)
		TRY(sdaaMalloc(&buf[LOCAL], max));
	if (prop.totalGlobalMem)
		TRY(sdaaMallocCross(&buf[GLOBAL], max));
	TRY(sdaaStreamCreate(&s));

	if (!json)
		printf("%-16s %10s %12s %12s %12s %12s\n", "copy", "size", "modeled us",
		       "modeled GB/s", "wall us", "wall GB/s");
	for (int d = 0; d < NDIR; d++) {
		if (!buf[dirs[d].src] || !buf[dirs[d].dst])
			continue;
		/* Warm up: first use pins staging memory and program pools. */
		TRY(sdaaMemcpy(buf[dirs[d].dst], buf[dirs[d].src], min, dirs[d].kind));
		for (unsigned long long n = min; n <= max; n *= 4) {
			double model = 0, wall = 1e30;

			for (int r = 0; r < runs; r++) {
				double m, w;

				sdaa_bench_time_copy("sdaa-bandwidth", buf[dirs[d].dst],
						     buf[dirs[d].src], n, dirs[d].kind, s, &m, &w);
				/* The model is deterministic: every run gives the same. */
				if (r && m != model)
					fprintf(stderr, "sdaa-bandwidth: %s %llu: modeled %.6f ms, "
						"then %.6f ms\n", dirs[d].name, n, model, m);
				model = m;
				if (w < wall)
					wall = w;
			}
			if (n * 4 > max)
				wall_at_max[d] = gbps(n, wall);
			if (json)
				printf("{\"kind\":\"copy\",\"dir\":\"%s\",\"bytes\":%llu,"
				       "\"modeled_us\":%.3f,\"modeled_gbps\":%.3f,\"wall_us\":%.1f,"
				       "\"wall_gbps\":%.4f}\n", dirs[d].name, n, model * 1e3,
				       gbps(n, model), wall * 1e3, gbps(n, wall));
			else
				printf("%-16s %10s %12.1f %12.2f %12.0f %12.3f\n", dirs[d].name,
				       human(n, hb, sizeof(hb)), model * 1e3, gbps(n, model),
				       wall * 1e3, gbps(n, wall));
		}
	}

	if (host_gbps > 0) {
		if (json)
			printf("{\"kind\":\"host_memcpy\",\"bytes\":%llu,\"wall_gbps\":%.4f}\n",
			       max, host_gbps);
		else
			printf("\nwall bandwidth of %s copies / the host's memcpy (%.3f GB/s, "
			       "measured outside the VM):\n", human(max, hb, sizeof(hb)), host_gbps);
	}
	for (int d = 0; d < NDIR && host_gbps > 0; d++) {
		if (!wall_at_max[d])
			continue;
		if (json)
			printf("{\"kind\":\"wall_fraction\",\"dir\":\"%s\",\"bytes\":%llu,"
			       "\"fraction\":%.4f}\n", dirs[d].name, max,
			       wall_at_max[d] / host_gbps);
		else
			printf("  %-16s %.3f\n", dirs[d].name, wall_at_max[d] / host_gbps);
	}

	if (have_fig12) {
		void *local[NCG];

		if (f12 > max)
			f12 = max;
		for (int c = 0; c < NCG; c++) {
			TRY(sdaaSetDevice(cg_dev[c]));
			TRY(sdaaMalloc(&local[c], f12));
		}
		if (!json)
			printf("\nFig. 12: the same parameters into the Local-HBM of all 4 CGs\n"
			       "%10s %16s %16s %8s %14s %14s\n", "size", "two-tier us",
			       "three-tier us", "ratio", "two wall us", "three wall us");
		for (unsigned long long n = f12 >= 16 * MIB ? f12 / 16 : f12; n <= f12; n *= 4)
			fig12_row(cg_dev, buf[PINNED], local, buf[GLOBAL], n, runs);
		if (!json)
			printf("(paper, Fig. 12: three-tier 2.5x faster)\n");
		for (int c = 0; c < NCG; c++)
			TRY(sdaaFree(local[c]));
	} else if (!json) {
		printf("\nFig. 12 skipped: needs the 4 core groups of the card visible and "
		       "both Local- and Global-HBM\n");
	}

	TRY(sdaaStreamDestroy(s));
	TRY(sdaaFree(buf[LOCAL]));
	TRY(sdaaFreeCross(buf[GLOBAL]));
	TRY(sdaaFreeHost(buf[PINNED]));
	free(buf[PAGEABLE]);
	return 0;
}
