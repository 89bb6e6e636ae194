/* SPDX-License-Identifier: MIT */
/*
 * swccl-tp.h - what swccl-mlp and swccl-bench fused-ag/fused-rs share: a
 * communicator over core groups 0..n-1 of one card (tensor-parallel ranks),
 * modeled-time measurement of work on all ranks, Local-HBM buffers and
 * random inputs.  Every failure exits with a message.
 */
#ifndef SWCCL_TP_H
#define SWCCL_TP_H

#include <stddef.h>
#include <stdint.h>

#include "swccl.h"

#define TP_MAX_RANKS 8

struct tp {
	const char *prog;
	int n;
	int dev[TP_MAX_RANKS];
	swcclComm_t comm[TP_MAX_RANKS];
	sdaaStream_t s[TP_MAX_RANKS];
	sdaaEvent_t start, stop[TP_MAX_RANKS];
	struct sdaaTimingParams tp;
	size_t local_bytes, global_bytes;	/* per CG / of the card */
	int card;
};

void tp_check(const struct tp *t, sdaaError_t e, const char *what);
void tp_ccl(const struct tp *t, swcclResult_t r, const char *what);
#define TP_TRY(t, call) tp_check((t), (call), #call)
#define TP_CCL(t, call) tp_ccl((t), (call), #call)

void tp_open(struct tp *t, int nranks, const char *prog);
void tp_close(struct tp *t);
void tp_sync(struct tp *t);
/* Time what is launched between begin and end: modeled us of the latest rank (and wall). */
void tp_begin(struct tp *t);
double tp_end(struct tp *t, double *wall_us);
/* Local-HBM of rank @r (zeroed). */
void *tp_malloc(struct tp *t, int r, size_t bytes);
void tp_free(struct tp *t, int r, void *p);
void tp_upload(struct tp *t, int r, void *dev, const void *host, size_t bytes);
void tp_download(struct tp *t, int r, void *host, const void *dev, size_t bytes);
/* @n uniform values in [lo, hi) of @type (f32 or bf16) into @host, from @seed. */
void tp_fill(void *host, size_t n, swcclDataType_t type, uint64_t seed, float lo, float hi);
size_t tp_esize(swcclDataType_t type);

#endif /* SWCCL_TP_H */
