// SPDX-License-Identifier: MIT
/*
 * swccl_sched.c - schedules: every rank's jobs, phase by phase
 * (swccl_plan.h), and an algorithm's programs as a schedule.
 */
#include <stdlib.h>
#include <string.h>

#include "swccl_algo.h"
#include "swccl_plan.h"

void swccl_sched_init(struct swccl_sched *s, int nranks, bool host_sync)
{
	memset(s, 0, sizeof(*s));
	s->nranks = nranks;
	s->host_sync = host_sync;
}

void swccl_sched_free(struct swccl_sched *s)
{
	for (int i = 0; i < s->nphases * s->nranks; i++)
		swai_progs_free(&s->jobs[i]);
	free(s->jobs);
	swccl_sched_init(s, s->nranks, s->host_sync);
}

int swccl_sched_phase(struct swccl_sched *s)
{
	if (s->nphases == s->cap) {
		int cap = s->cap ? 2 * s->cap : 4;
		struct swai_progs *j = realloc(s->jobs, (size_t)cap * (size_t)s->nranks * sizeof(*j));

		if (!j) {
			s->nomem = true;
			return -1;
		}
		s->jobs = j;
		s->cap = cap;
	}
	for (int r = 0; r < s->nranks; r++)
		swai_progs_init(&s->jobs[s->nphases * s->nranks + r]);
	return s->nphases++;
}

struct swai_progs *swccl_sched_jobs(const struct swccl_sched *s, int p, int r)
{
	return &s->jobs[p * s->nranks + r];
}

/*
 * An algorithm's steps: one phase each for a host-synchronised algorithm,
 * else one job per rank in the current phase.  Empty programs are not
 * launched.
 */
void swccl_sched_algo(struct swccl_sched *s, const struct swccl_call *c,
		      const struct swccl_algo *a)
{
	int steps = a->steps(c);

	for (int st = 0; st < steps; st++) {
		int p = s->nphases - 1;

		if (p < 0 || (a->props & SWCCL_ALGO_HOST_SYNC))
			p = swccl_sched_phase(s);
		if (p < 0)
			return;
		for (int r = 0; r < c->nranks; r++) {
			struct swai_progs *js = swccl_sched_jobs(s, p, r);
			struct swai_prog *prog = swai_progs_add(js);

			if (!prog) {
				s->nomem = true;
				return;
			}
			a->build(c, st, r, prog);
			s->nomem |= prog->nomem;
			if (!prog->n)
				swai_progs_truncate(js, js->n - 1);
		}
	}
}

void swccl_sched_count(const struct swccl_sched *s, int *launches, int *host_syncs)
{
	*launches = 0;
	*host_syncs = s->host_sync ? s->nphases : 0;
	for (int p = 0; p < s->nphases; p++)
		for (int r = 0; r < s->nranks; r++) {
			const struct swai_progs *js = swccl_sched_jobs(s, p, r);

			for (int j = 0; j < js->n; j++) {
				*launches += js->p[j].n > 0;
				for (int i = 0; r == 0 && i < js->p[j].n; i++)
					*host_syncs += js->p[j].in[i].op == SWAI_OP_BARRIER &&
						       (js->p[j].in[i].flags & SWAI_BARRIER_HOST);
			}
		}
}
