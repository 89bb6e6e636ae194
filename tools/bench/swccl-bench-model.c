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
	size_t n = esize && c != COLL_BAR ? bytes / esize : 0;	/* a barrier: none */

	if (c == COLL_AG || c == COLL_RS || c == COLL_A2A || c == COLL_A2AV) {
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
	case COLL_A2A:		/* nccl-tests' alltoall: (n - 1) / n */
	case COLL_A2AV:
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

struct bench_fusion_eq bench_eq9_11(double v, double bw_l, double bw_g, double launch_us)
{
	/* bytes / (MB/s) = us */
	double lw = v / bw_l, gw = v / bw_g, gr = 3 * v / bw_g, ll = 4 * v / bw_l;
	struct bench_fusion_eq e;

	e.t1_us = lw + gw + gr + ll + 3 * launch_us;
	e.t2_us = gw + gr + lw + 2 * launch_us;
	e.p = ll / (lw + gw + gr + ll);
	return e;
}

/* Tables 3 and 4: size in KB (KiB), communication time, overlap gain (us), gain (%). */
static const double paper_overlap[2][5][4] = {
	{ { 2048, 32, 19, 59 }, { 4096, 55, 29, 52 }, { 8192, 200, 46, 54 },
	  { 16384, 195, 84, 43 }, { 32768, 356, 181, 50 } },
	{ { 2048, 54, 19, 35 }, { 4096, 98, 32, 33 }, { 8192, 184, 58, 32 },
	  { 16384, 347, 116, 33 }, { 32768, 631, 209, 33 } },
};

int bench_paper_overlap(int rs, size_t bytes, struct bench_paper_overlap *row)
{
	for (int i = 0; i < 5; i++) {
		const double *t = paper_overlap[rs ? 1 : 0][i];

		if ((double)bytes == t[0] * 1024) {
			*row = (struct bench_paper_overlap){ t[1], t[2], t[3] };
			return 0;
		}
	}
	return -1;
}

size_t bench_fused_shape(int rs, size_t bytes, size_t esize, size_t hidden, size_t n, int nranks,
			 struct bench_fused_shape *s)
{
	size_t es = rs ? 4 : esize, per = hidden * es * (size_t)nranks;

	s->hidden = hidden;
	s->n = n;
	s->rows = per ? bytes / per : 0;
	if (!s->rows)
		s->rows = 1;
	s->tokens = s->rows * (size_t)nranks;
	return s->tokens * hidden * es;
}
