// SPDX-License-Identifier: MIT
/*
 * sdaa_model.c - the runtime's share of the timing model: the process's
 * modeled host clock H and the modeled time of events.
 *
 * The card models what happens on it; the host's part is modeled here.  H
 * is where the host is on the card's clock.  Each job is launched "at H"
 * (SUBMIT.not_before_ns), and launching does not move H: the host issues
 * launches to several core groups in parallel, as the paper assumes.  A host
 * wait for a job moves H to the job's end plus the host sync cost, because
 * the host learns of the end only after an interrupt and a return to user
 * space.  Only waits move H, and waits happen at fixed points of a program,
 * so the same program sees the same modeled times on every run, however fast
 * the emulator happens to be.
 */
#include "sdaa_exec.h"

uint64_t sdaa_model_after_wait(uint64_t h, uint64_t end, uint32_t sync_ns)
{
	return end + sync_ns > h ? end + sync_ns : h;
}

void sdaa_model_advance(uint64_t *h, uint64_t end, uint32_t sync_ns)
{
	uint64_t old = __atomic_load_n(h, __ATOMIC_RELAXED), want;

	do {
		want = sdaa_model_after_wait(old, end, sync_ns);
		if (want == old)
			return;
	} while (!__atomic_compare_exchange_n(h, &old, want, 0, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
}

/*
 * An event is a marker the stream passes when everything before it is done
 * and the host has issued it: the later of the two, as a CUDA event's
 * timestamp is taken when the GPU reaches the record command.
 */
uint64_t sdaa_model_event_time(uint64_t h_rec, uint64_t end)
{
	return end > h_rec ? end : h_rec;
}

float sdaa_model_elapsed_ms(uint64_t t0, uint64_t t1)
{
	if (t1 >= t0)
		return (float)((double)(t1 - t0) / 1e6);
	return -(float)((double)(t0 - t1) / 1e6);
}
