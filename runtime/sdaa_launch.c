// SPDX-License-Identifier: MIT
/*
 * sdaa_launch.c - sdaaLaunchProgram: a core-group program of the caller's
 * on the stream's device, in stream order.
 *
 * The runtime checks only the length; the card checks the instructions and
 * the MMU the addresses, and a program that breaks a rule ends its job with
 * an error that becomes the card's sticky error (sdaa_job.c).
 */
#include "sdaa_exec.h"

SDAA_API sdaaError_t sdaaLaunchProgram(const struct swai_insn *insns, size_t count,
				       sdaaStream_t stream)
{
	struct sdaa_stream *s;
	struct sdaa_front deps;
	struct sdaa_fence f;
	sdaaError_t err;

	if (!insns || !count || count > SWAI_PROGRAM_MAX_BYTES / sizeof(*insns))
		return sdaa_error(sdaaErrorInvalidValue);
	err = sdaa_stream_begin(stream, &s);
	if (err)
		return sdaa_error(err);
	deps = s->front;
	err = sdaa_submit(s->q, insns, count, &deps, &f);
	if (!err)
		sdaa_front_set(&s->front, s->q->xc->index, s->q->cg, f);
	sdaa_stream_end(s);
	return sdaa_error(err);
}
