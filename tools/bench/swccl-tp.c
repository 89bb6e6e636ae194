// SPDX-License-Identifier: MIT
/*
 * swccl-tp.c - tensor-parallel ranks on the core groups of one card, for
 * swccl-mlp and swccl-bench's fused subcommands.  Timing as swccl-bench:
 * the host waits for every rank, a start event on rank 0's stream stamps
 * the modeled host clock, the work is launched on every rank, a stop event
 * on each rank's stream; the time is the latest rank's stop - start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"
#include "swccl-tp.h"
#include "swk.h"

void tp_check(const struct tp *t, sdaaError_t e, const char *what)
{
	if (e == sdaaSuccess)
		return;
	fprintf(stderr, "%s: %s: %s (%s)\n", t->prog, what, sdaaGetErrorName(e),
		sdaaGetErrorString(e));
	exit(1);
}

void tp_ccl(const struct tp *t, swcclResult_t r, const char *what)
{
	if (r == swcclSuccess)
		return;
	fprintf(stderr, "%s: %s: %s: %s\n", t->prog, what, swcclGetErrorString(r),
		t->comm[0] ? swcclGetLastError(t->comm[0]) : "");
	exit(1);
}

void tp_open(struct tp *t, int nranks, const char *prog)
{
	struct sdaaDeviceProp p0, q;
	size_t fr;
	int n, found = 0;

	memset(t, 0, sizeof(*t));
	t->prog = prog;
	t->n = nranks;
	if (nranks < 1 || nranks > TP_MAX_RANKS) {
		fprintf(stderr, "%s: 1..%d ranks\n", prog, TP_MAX_RANKS);
		exit(2);
	}
	TP_TRY(t, sdaaGetDeviceCount(&n));
	TP_TRY(t, sdaaGetDeviceProperties(&p0, 0));
	for (int r = 0; r < nranks; r++)
		t->dev[r] = -1;
	for (int d = 0; d < n; d++) {
		TP_TRY(t, sdaaGetDeviceProperties(&q, d));
		if (q.card == p0.card && q.coreGroup < nranks && t->dev[q.coreGroup] < 0) {
			t->dev[q.coreGroup] = d;
			found++;
		}
	}
	if (found < nranks) {
		fprintf(stderr, "%s: %d ranks need core groups 0..%d of card %d visible\n", prog,
			nranks, nranks - 1, p0.card);
		exit(1);
	}
	t->card = p0.card;
	TP_TRY(t, sdaaDeviceGetTimingParams(&t->tp, t->dev[0]));
	TP_TRY(t, sdaaSetDevice(t->dev[0]));
	TP_TRY(t, sdaaMemGetInfo(&fr, &t->local_bytes));
	TP_TRY(t, sdaaMemGetInfoCross(&fr, &t->global_bytes));
	TP_CCL(t, swcclCommInitAll(t->comm, nranks, t->dev));
	for (int r = 0; r < nranks; r++) {
		TP_TRY(t, sdaaSetDevice(t->dev[r]));
		TP_TRY(t, sdaaStreamCreate(&t->s[r]));
		TP_TRY(t, sdaaEventCreate(&t->stop[r]));
	}
	TP_TRY(t, sdaaSetDevice(t->dev[0]));
	TP_TRY(t, sdaaEventCreate(&t->start));
}

void tp_close(struct tp *t)
{
	for (int r = 0; r < t->n; r++) {
		TP_TRY(t, sdaaSetDevice(t->dev[r]));
		TP_TRY(t, sdaaStreamSynchronize(t->s[r]));
		TP_CCL(t, swcclCommDestroy(t->comm[r]));
		TP_TRY(t, sdaaStreamDestroy(t->s[r]));
		TP_TRY(t, sdaaEventDestroy(t->stop[r]));
	}
	TP_TRY(t, sdaaSetDevice(t->dev[0]));
	TP_TRY(t, sdaaEventDestroy(t->start));
}

void tp_sync(struct tp *t)
{
	for (int r = 0; r < t->n; r++) {
		TP_TRY(t, sdaaSetDevice(t->dev[r]));
		TP_TRY(t, sdaaStreamSynchronize(t->s[r]));
	}
}

void tp_begin(struct tp *t)
{
	tp_sync(t);
	TP_TRY(t, sdaaSetDevice(t->dev[0]));
	TP_TRY(t, sdaaEventRecord(t->start, t->s[0]));
}

double tp_end(struct tp *t, double *wall_us)
{
	double model = 0, wall = 0;

	for (int r = 0; r < t->n; r++) {
		TP_TRY(t, sdaaSetDevice(t->dev[r]));
		TP_TRY(t, sdaaEventRecord(t->stop[r], t->s[r]));
	}
	for (int r = 0; r < t->n; r++) {
		float m, w;

		TP_TRY(t, sdaaEventSynchronize(t->stop[r]));
		TP_TRY(t, sdaaEventElapsedTime(&m, t->start, t->stop[r]));
		TP_TRY(t, sdaaEventElapsedTimeWall(&w, t->start, t->stop[r]));
		if (m * 1e3 > model)
			model = m * 1e3;
		if (w * 1e3 > wall)
			wall = w * 1e3;
	}
	if (wall_us)
		*wall_us = wall;
	return model;
}

void *tp_malloc(struct tp *t, int r, size_t bytes)
{
	void *p;

	TP_TRY(t, sdaaSetDevice(t->dev[r]));
	TP_TRY(t, sdaaMalloc(&p, bytes ? bytes : 1));
	TP_TRY(t, sdaaMemset(p, 0, bytes ? bytes : 1));
	return p;
}

void tp_free(struct tp *t, int r, void *p)
{
	TP_TRY(t, sdaaSetDevice(t->dev[r]));
	TP_TRY(t, sdaaFree(p));
}

void tp_upload(struct tp *t, int r, void *dev, const void *host, size_t bytes)
{
	TP_TRY(t, sdaaSetDevice(t->dev[r]));
	TP_TRY(t, sdaaMemcpy(dev, host, bytes, sdaaMemcpyHostToDevice));
}

void tp_download(struct tp *t, int r, void *host, const void *dev, size_t bytes)
{
	TP_TRY(t, sdaaSetDevice(t->dev[r]));
	TP_TRY(t, sdaaMemcpy(host, dev, bytes, sdaaMemcpyDeviceToHost));
}

size_t tp_esize(swcclDataType_t type)
{
	return type == swcclBfloat16 ? 2 : 4;
}

void tp_fill(void *host, size_t n, swcclDataType_t type, uint64_t seed, float lo, float hi)
{
	for (size_t i = 0; i < n; i++) {
		float v = lo + (hi - lo) * (float)((splitmix64(&seed) >> 40) * 0x1p-24);

		if (type == swcclBfloat16)
			((uint16_t *)host)[i] = swk_bf16_from_f32(v);
		else
			((float *)host)[i] = v;
	}
}
