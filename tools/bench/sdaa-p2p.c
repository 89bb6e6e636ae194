// SPDX-License-Identifier: MIT
/*
 * sdaa-p2p - bandwidth and latency between every pair of cards, as CUDA's
 * p2pBandwidthLatencyTest: for each ordered pair (a, b) of cards, a copy of
 * SIZE bytes from a's Global-HBM to b's, timed by events on a's core group
 * 0, once through the fabric (the default when the cards reach each other,
 * datasheet §15) and once through pinned host memory (SDAA_P2P_DISABLE=1),
 * and an 8-byte copy for the latency.  Prints matrices of modeled GB/s and
 * µs (the card's timing model: the topology's links), and the wall GB/s of
 * the emulator against this machine's memcpy of the same size, measured
 * here in the same run (a ratio, since the guest's memcpy under TCG is
 * slower than the host's: pass --host-gbps from outside the VM for that).
 *
 *   sdaa-p2p [--json] [-s SIZE] [-n RUNS] [--host-gbps GBPS]
 *
 * Run it in the VM: tools/vm/swai-vm --cards 8 -- sdaa-p2p.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdaa-bench-copy.h"
#include "sdaa_runtime.h"
#include "swai-cli.h"

#define MAX_CARDS 64

static int json;

#define TRY(call) do {							\
	sdaaError_t e_ = (call);					\
	if (e_ != sdaaSuccess) {					\
		fprintf(stderr, "sdaa-p2p: %s: %s (%s)\n", #call,	\
			sdaaGetErrorName(e_), sdaaGetErrorString(e_));	\
		exit(1);						\
	}								\
} while (0)

struct pair {
	int fabric;			/* the cards reach each other */
	double model_ms, wall_ms;	/* SIZE bytes, the default path */
	double host_model_ms;		/* SIZE bytes through host memory */
	double lat_us;			/* 8 bytes, modeled */
};

/* Best-of-@runs modeled and wall ms of a copy on device @dev's stream 0. */
static void time_copy(int dev, void *dst, const void *src, size_t n, int runs,
		      double *model_ms, double *wall_ms)
{
	*model_ms = *wall_ms = 1e30;
	TRY(sdaaSetDevice(dev));
	for (int r = 0; r < runs; r++) {
		double m, w;

		sdaa_bench_time_copy("sdaa-p2p", dst, src, n, sdaaMemcpyDeviceToDevice, NULL,
				     &m, &w);
		*model_ms = m < *model_ms ? m : *model_ms;
		*wall_ms = w < *wall_ms ? w : *wall_ms;
	}
}

static double gbps(size_t n, double ms)
{
	return ms > 0 ? (double)n / (ms * 1e6) : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: sdaa-p2p [--json] [-s SIZE] [-n RUNS] [--host-gbps GBPS]\n"
		"  -s SIZE        bytes per copy (default 32M; K/M/G suffixes)\n"
		"  -n RUNS        best of RUNS (default 2)\n"
		"  --host-gbps G  this machine's memcpy GB/s measured outside the VM\n");
	exit(2);
}

/* The matrix of one figure, @f(pair) for every ordered pair. */
static void matrix(const char *title, int n, const int *card, struct pair *p,
		   double (*f)(const struct pair *, size_t), size_t size)
{
	printf("%s\n%8s", title, "from\\to");
	for (int j = 0; j < n; j++)
		printf(" %8d", card[j]);
	printf("\n");
	for (int i = 0; i < n; i++) {
		printf("%8d", card[i]);
		for (int j = 0; j < n; j++) {
			if (i == j)
				printf(" %8s", "-");
			else
				printf(" %8.2f", f(&p[i * n + j], size));
		}
		printf("\n");
	}
}

static double f_gbps(const struct pair *p, size_t s) { return gbps(s, p->model_ms); }
static double f_host(const struct pair *p, size_t s) { return gbps(s, p->host_model_ms); }
static double f_lat(const struct pair *p, size_t s) { (void)s; return p->lat_us; }
static double f_wall(const struct pair *p, size_t s) { return gbps(s, p->wall_ms); }

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { "host-gbps", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' }, { 0 }
	};
	int card[MAX_CARDS], dev[MAX_CARDS], n = 0, ndev, runs = 2, c;
	size_t size = 32ULL << 20;
	double host_gbps = 0, here;
	void *src[MAX_CARDS], *dst[MAX_CARDS];
	struct pair *p;
	char *end;

	while ((c = getopt_long(argc, argv, "s:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 's': size = swai_cli_size_or_exit("sdaa-p2p", "-s", optarg); break;
		case 'n':
			runs = (int)strtol(optarg, &end, 10);
			if (*end || runs < 1 || runs > 100)
				usage();
			break;
		case 'g':
			host_gbps = strtod(optarg, &end);
			if (*end || !(host_gbps > 0))
				usage();
			break;
		default: usage();
		}
	}
	if (optind != argc || !size)
		usage();
	TRY(sdaaGetDeviceCount(&ndev));
	/* One device per card: its core group 0, or the first visible. */
	for (int d = 0; d < ndev && n < MAX_CARDS; d++) {
		struct sdaaDeviceProp q;
		int seen = 0;

		TRY(sdaaGetDeviceProperties(&q, d));
		for (int k = 0; k < n; k++)
			seen |= card[k] == q.card;
		if (!seen) {
			card[n] = q.card;
			dev[n++] = d;
		}
	}
	if (n < 2) {
		fprintf(stderr, "sdaa-p2p: needs two cards (tools/vm/swai-vm --cards N)\n");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		TRY(sdaaSetDevice(dev[i]));
		TRY(sdaaMallocCross(&src[i], size));
		TRY(sdaaMallocCross(&dst[i], size));
		TRY(sdaaMemset(src[i], i + 1, size));
	}
	p = calloc((size_t)n * n, sizeof(*p));
	if (!p)
		return 1;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			struct pair *q = &p[i * n + j];
			double w;

			if (i == j)
				continue;
			TRY(sdaaDeviceCanAccessPeer(&q->fabric, dev[i], dev[j]));
			time_copy(dev[i], dst[j], src[i], size, runs, &q->model_ms, &q->wall_ms);
			time_copy(dev[i], dst[j], src[i], 8, 1, &q->lat_us, &w);
			q->lat_us *= 1000;
			setenv("SDAA_P2P_DISABLE", "1", 1);
			time_copy(dev[i], dst[j], src[i], size, 1, &q->host_model_ms, &w);
			unsetenv("SDAA_P2P_DISABLE");
		}
	}
	here = sdaa_bench_memcpy_gbps(size, 5);
	if (json) {
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				const struct pair *q = &p[i * n + j];

				if (i == j)
					continue;
				printf("{\"from\": %d, \"to\": %d, \"bytes\": %zu, \"fabric\": %d, "
				       "\"model_gbps\": %.3f, \"host_path_model_gbps\": %.3f, "
				       "\"latency_us\": %.3f, \"wall_gbps\": %.3f, "
				       "\"memcpy_gbps_here\": %.3f%s", card[i], card[j], size,
				       q->fabric, gbps(size, q->model_ms),
				       gbps(size, q->host_model_ms), q->lat_us,
				       gbps(size, q->wall_ms), here, host_gbps > 0 ? "" : "}\n");
				if (host_gbps > 0)
					printf(", \"memcpy_gbps_host\": %.3f}\n", host_gbps);
			}
		return 0;
	}
	printf("# sdaa-p2p: %d cards, %zu bytes per copy, best of %d (1 = the cards reach "
	       "each other over the fabric)\n", n, size, runs);
	printf("%8s", "fabric");
	for (int j = 0; j < n; j++)
		printf(" %8d", card[j]);
	printf("\n");
	for (int i = 0; i < n; i++) {
		printf("%8d", card[i]);
		for (int j = 0; j < n; j++)
			printf(" %8s", i == j ? "-" : p[i * n + j].fabric ? "1" : "0");
		printf("\n");
	}
	matrix("\n# modeled GB/s, Global -> Global (the default path)", n, card, p, f_gbps, size);
	matrix("\n# modeled GB/s through pinned host memory (SDAA_P2P_DISABLE=1)", n, card, p,
	       f_host, size);
	matrix("\n# modeled time of an 8-byte copy, us (launch and step: a write ends when its bytes leave)", n, card, p,
	       f_lat, size);
	matrix("\n# wall GB/s of the emulator", n, card, p, f_wall, size);
	printf("\n# memcpy of %zu bytes here: %.2f GB/s", size, here);
	if (host_gbps > 0)
		printf("; outside the VM: %.2f GB/s", host_gbps);
	printf("\n");
	return 0;
}
