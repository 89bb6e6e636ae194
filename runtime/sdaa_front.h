/* SPDX-License-Identifier: MIT */
/*
 * sdaa_front.h - what a piece of work must wait for, as a "front": for each
 * queue (core group) of one card, the newest job of this process on it.
 *
 * Jobs of one file on one queue complete in submission order, so the newest
 * job of a queue stands for all older ones there, and a set of jobs of one
 * card never needs more than one entry per queue.  A job submitted to queue
 * q after everything of a front waits for the front's other queues through
 * in-fences (the timeline point of each); its own queue's entry is implied
 * by the queue order and needs no fence (a fence would cost a modeled host
 * sync the hardware does not need).
 */
#ifndef SDAA_FRONT_H
#define SDAA_FRONT_H

#include <stdint.h>

#include "drm/swai_accel.h"

/* Queues per card the runtime handles (the card has 4). */
#define SDAA_MAX_CG 8

/* One job: its point on its queue's timeline syncobj and its job id. */
struct sdaa_fence {
	uint64_t point;		/* 0: no job */
	uint64_t job;
};

struct sdaa_front {
	int card;		/* index of the card; -1 while empty */
	struct sdaa_fence q[SDAA_MAX_CG];
};

void sdaa_front_init(struct sdaa_front *f);
int sdaa_front_empty(const struct sdaa_front *f);
/* Add @src's jobs to @dst (both of one card, or either empty). */
void sdaa_front_merge(struct sdaa_front *dst, const struct sdaa_front *src);
/* Make @f the single job @fence on queue @cg of card @card. */
void sdaa_front_set(struct sdaa_front *f, int card, int cg, struct sdaa_fence fence);

/*
 * The in-fences a job on queue @cg needs to run after @f: one per other
 * queue whose entry is newer than @waited[queue] (jobs the host already
 * waited for are over, and the modeled host clock is past them).
 * @syncobj[queue] is each queue's timeline syncobj.  Returns how many were
 * written to @out (at most SDAA_MAX_CG).
 */
int sdaa_front_syncs(const struct sdaa_front *f, int cg, const uint64_t *waited,
		     const uint32_t *syncobj, struct drm_swai_sync *out);

#endif /* SDAA_FRONT_H */
