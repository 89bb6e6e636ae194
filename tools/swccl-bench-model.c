// SPDX-License-Identifier: MIT
/*
 * swccl-bench-model.c - nccl-tests' conventions and the paper's models.
 *
 * The paper's V is the total AllGather volume in bytes (its "8 MB" is 8e6:
 * eq. (3) gives 41.0 GB/s exactly with 8e6 B, 42.4 with 8 MiB) and its
 * bandwidths are 1e9 bytes/s, as nccl-tests' GB.  The paper gives the
 * ReduceScatter analysis as "similar", so swccl-bench prints the same
 * forms for RS (they leave out the reduction itself).
 */
#include "swccl-bench-model.h"

size_t bench_counts(enum bench_coll c, size_t bytes, size_t esize, int nranks, size_t *count,
		    size_t *param)
{
	size_t n = esize ? bytes / esize : 0;

	if (c == COLL_AG || c == COLL_RS) {
		*param = n / (size_t)nranks;
		n = *param * (size_t)nranks;
	} else {
		*param = n;
	}
	*count = n;
	return n * esize;
}

double bench_busbw_factor(enum bench_coll c, int nranks)
{
	switch (c) {
	case COLL_AG:
	case COLL_RS:
		return (double)(nranks - 1) / nranks;
	case COLL_AR:
		return 2.0 * (nranks - 1) / nranks;
	default:
		return 1.0;
	}
}

double bench_gbps(double bytes, double us)
{
	return us > 0 ? bytes / (us * 1e3) : 0;
}

/* Microseconds to move @bytes at @gbps. */
static double xfer_us(double bytes, double gbps)
{
	return bytes / (gbps * 1e3);
}

double bench_eq3(const struct bench_paper *p, double bytes, int nranks)
{
	double step = p->launch_us + p->sync_us + xfer_us(bytes / nranks, p->bw_gbps) +
		p->others_us;

	return bench_gbps(bytes, (nranks - 1) * step);
}

double bench_eq4(const struct bench_paper *p, double bytes, int nranks)
{
	double t = p->launch_us + p->sync_us +
		(nranks - 1) * (xfer_us(bytes / nranks, p->bw_gbps) + p->others_us);

	return bench_gbps(bytes, t);
}

double bench_eq78(const struct bench_paper *p, double bytes, int nranks)
{
	return bench_gbps(bytes, (nranks - 1) * (xfer_us(bytes / nranks, p->bw_gbps) +
						 p->others_us));
}
