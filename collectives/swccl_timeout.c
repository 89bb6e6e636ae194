// SPDX-License-Identifier: MIT
/*
 * swccl_timeout.c - SWCCL_TIMEOUT: no collective hangs.
 *
 * Every program reports its progress: SIGNAL (free on the card) of
 * (seq << 8 | step) into the rank's progress counter, which lives in pinned
 * host memory so that the host reads it without a job (a queue with a job
 * blocked in a WAIT runs nothing else).  A watchdog thread per communicator
 * notices a launched collective not done within SWCCL_TIMEOUT, fails the
 * communicator with a message naming, per rank, the core group and the step
 * it is in (or that it never started), and releases the blocked programs by
 * writing their semaphores from the host -- which the card sees, and so the
 * jobs end (with meaningless data) instead of waiting for the driver's job
 * timeout to reset the queue and fail the whole process's context.  The
 * same release serves swcclCommAbort.
 *
 * Between cards a rank waits on counters in card memory that only its
 * peers' jobs write: the message names the card, core group and peer each
 * rank waits on, and a job that never gets its message ends when the
 * driver's job timeout (swai.ko job_timeout_ms, 10 s) resets its queue.
 * With one rank per process, a peer process of this host that has ended
 * fails the communicator at once, naming it, without waiting for the
 * timeout (swccl_xproc_dead).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "swccl_algo.h"
#include "swccl_kind.h"
#include "swccl_xproc.h"

double swccl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rd(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static const char *step_name(unsigned step)
{
	switch (step) {
	case SWCCL_STEP_START: return "1 (writing its data to Global-HBM)";
	case SWCCL_STEP_WRITTEN: return "2 (waiting for the peers' data: barrier or flags)";
	case SWCCL_STEP_SYNCED: return "3 (reading / reducing)";
	case SWCCL_STEP_REDUCED: return "4 (waiting for the peers' results or the final barrier)";
	case SWCCL_STEP_READ: return "5 (final barrier: waiting for the peers to finish reading)";
	case SWCCL_STEP_DONE: return "done";
	default: return "?";
	}
}

/* Has every rank finished collective @seq? */
bool swccl_all_done(struct swccl_shared *sh, uint64_t seq)
{
	for (int r = 0; r < sh->nranks; r++)
		if (!sh->comm[r]->remote && rd(&sh->sems_host->progress[r]) < (seq << 8 | SWCCL_STEP_DONE))
			return false;
	return true;
}

void swccl_describe_stall(struct swccl_shared *sh, uint64_t seq, char *buf, size_t n)
{
	size_t len = 0;

	for (int r = 0; r < sh->nranks && len < n; r++) {
		uint64_t p = rd(&sh->sems_host->progress[r]);

		if (sh->comm[r]->remote)	/* its own process reports it */
			continue;
		if (p >> 8 < seq && sh->xcard)
			len += (size_t)snprintf(buf + len, n - len,
						"; rank %d (card %d, CG %d) has not started it (not "
						"called, or its stream is blocked by earlier work)",
						r, sh->comm[r]->card, sh->comm[r]->cg);
		else if (p >> 8 < seq)
			len += (size_t)snprintf(buf + len, n - len,
						"; rank %d (CG %d) has not started it (not called, "
						"or its stream is blocked by earlier work)",
						r, sh->comm[r]->cg);
		else if (p >> 8 == seq && sh->xcard && (p & 0xff) >= SWCCL_STEP_XMSG &&
			 (p & 0xff) < SWCCL_STEP_XMSG + SWCCL_MAX_RANKS)
			len += (size_t)snprintf(buf + len, n - len, "; rank %d (card %d, CG %d) "
						"waits for a message from rank %d (card %d)", r,
						sh->comm[r]->card, sh->comm[r]->cg,
						(int)(p & 0xff) - SWCCL_STEP_XMSG,
						sh->comm[(p & 0xff) - SWCCL_STEP_XMSG]->card);
		else if (p >> 8 == seq && sh->xcard && (p & 0xff) >= SWCCL_STEP_XCREDIT &&
			 (p & 0xff) < SWCCL_STEP_XCREDIT + SWCCL_MAX_RANKS)
			len += (size_t)snprintf(buf + len, n - len, "; rank %d (card %d, CG %d) "
						"waits for rank %d (card %d) to start this call "
						"(earlier work on its stream?)", r,
						sh->comm[r]->card, sh->comm[r]->cg,
						(int)(p & 0xff) - SWCCL_STEP_XCREDIT,
						sh->comm[(p & 0xff) - SWCCL_STEP_XCREDIT]->card);
		else if (p >> 8 == seq && (p & 0xff) != SWCCL_STEP_DONE)
			len += (size_t)snprintf(buf + len, n - len, "; rank %d (CG %d) is in step %s",
						r, sh->comm[r]->cg, step_name(p & 0xff));
	}
}

/* Make every blocked BARRIER and WAIT of the comm's programs pass. */
void swccl_release(struct swccl_shared *sh)
{
	struct swccl_sems *s = sh->sems_host;

	__atomic_store_n(&s->barrier, rd(&s->barrier) + (1ULL << 40), __ATOMIC_RELEASE);
	for (int r = 0; r < sh->nranks; r++)
		__atomic_store_n(&s->flag[r], ~0ULL >> 1, __ATOMIC_RELEASE);
}

void swccl_fail_shared(struct swccl_shared *sh, swcclResult_t r, const char *msg)
{
	pthread_mutex_lock(&sh->mu);
	if (!sh->failed) {
		sh->failed = r;
		snprintf(sh->failmsg, sizeof(sh->failmsg), "%s", msg);
	}
	swccl_release(sh);
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->mu);
}

/* Remember a launched collective for the watchdog (the RING ones wait themselves). */
void swccl_launched(struct swccl_shared *sh, const struct swccl_call *c, const char *how)
{
	struct swccl_open *o;

	pthread_mutex_lock(&sh->mu);
	sh->launched_seq = c->seq;
	if (sh->nopen == 64) {		/* the oldest is surely done or reported */
		memmove(&sh->open[0], &sh->open[1], 63 * sizeof(sh->open[0]));
		sh->nopen--;
	}
	o = &sh->open[sh->nopen++];
	o->seq = c->seq;
	o->at = swccl_now();
	snprintf(o->what, sizeof(o->what), "%s #%llu (%s)", c->kind->name(c),
		 (unsigned long long)c->seq, how);
	pthread_mutex_unlock(&sh->mu);
}

/* Forget the finished collectives; the oldest open one, or NULL. */
static struct swccl_open *oldest_open(struct swccl_shared *sh)
{
	int k = 0;

	while (k < sh->nopen && swccl_all_done(sh, sh->open[k].seq))
		k++;
	if (k) {
		memmove(&sh->open[0], &sh->open[k], (size_t)(sh->nopen - k) * sizeof(sh->open[0]));
		sh->nopen -= k;
	}
	return sh->nopen ? &sh->open[0] : NULL;
}

static void *watchdog(void *arg)
{
	struct swccl_shared *sh = arg;

	pthread_mutex_lock(&sh->mu);
	while (!sh->stop) {
		struct timespec ts;
		struct swccl_open *o = oldest_open(sh);

		int dead = o && !sh->failed ? swccl_xproc_dead(sh) : -1;

		if (o && sh->failed) {
			swccl_release(sh);	/* programs past one barrier meet the next */
		} else if (dead >= 0) {
			snprintf(sh->failmsg, sizeof(sh->failmsg), "%s: rank %d (card %d, CG %d, "
				 "process %d) exited: the communicator is broken (swcclCommAbort "
				 "it)", o->what, dead, sh->comm[dead]->card, sh->comm[dead]->cg,
				 sh->comm[dead]->pid);
			swccl_log(SWCCL_LOG_WARN, SWCCL_COLL, "%s", sh->failmsg);
			sh->failed = swcclRemoteError;
			swccl_release(sh);
			pthread_cond_broadcast(&sh->cv);
		} else if (o && swccl_now() - o->at > swccl_timeout_s()) {
			char msg[512];
			int len;

			len = snprintf(msg, sizeof(msg), "%s did not finish within SWCCL_TIMEOUT "
				       "(%.0f s)", o->what, swccl_timeout_s());
			swccl_describe_stall(sh, o->seq, msg + len, sizeof(msg) - (size_t)len);
			swccl_log(SWCCL_LOG_WARN, SWCCL_COLL, "%s", msg);
			sh->failed = swcclTimeout;
			snprintf(sh->failmsg, sizeof(sh->failmsg), "%s", msg);
			swccl_release(sh);
			pthread_cond_broadcast(&sh->cv);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&sh->cv, &sh->mu, &ts);
	}
	pthread_mutex_unlock(&sh->mu);
	return NULL;
}

void swccl_watchdog_start(struct swccl_shared *sh)
{
	sh->watchdog_on = !pthread_create(&sh->watchdog, NULL, watchdog, sh);
}

void swccl_watchdog_stop(struct swccl_shared *sh)
{
	if (!sh->watchdog_on)
		return;
	pthread_mutex_lock(&sh->mu);
	sh->stop = true;
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->mu);
	pthread_join(sh->watchdog, NULL);
	sh->watchdog_on = false;
}
