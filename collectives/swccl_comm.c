// SPDX-License-Identifier: MIT
/*
 * swccl_comm.c - communicators: one rank per core group of one card, or
 * one rank per card of one fabric (swccl_xcard.c) -- all ranks in this
 * process, or each in its own (swccl_xproc.c), found through the TCP
 * bootstrap (swccl_bootstrap.c).
 *
 * The ranks of a communicator share a struct swccl_shared: the host
 * rendezvous (swccl_enqueue.c), the Global-HBM scratch the algorithms
 * write through (sdaaMallocCross, grown on demand; one process has one
 * device address space per card, so every rank's core group sees it at the
 * same address), and the semaphores.  The semaphores -- barrier counter,
 * per-rank flags and progress counters -- are in pinned host memory rather
 * than Global-HBM: the card's BARRIER/WAIT/SIGNAL cost the same there
 * (datasheet §14.3), and the host can read them (which rank is stuck where)
 * and write them (release blocked programs on timeout or abort) without a
 * job, which a queue blocked in a WAIT would never run.
 *
 * A communicator across cards has peer access between all its cards (every
 * card maps every other's allocations at the same addresses, over the
 * fabric) and, on each rank's card, counters its peers signal over the
 * fabric -- so that a wait ends at the signal's modeled time plus the
 * route -- and a landing area they write their messages into.
 */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "swccl_bootstrap.h"
#include "swccl_hier.h"
#include "swccl_kind.h"
#include "swccl_nic.h"
#include "swccl_plan.h"
#include "swccl_rdma.h"
#include "swccl_xcard.h"
#include "swccl_xproc.h"

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reg_cv = PTHREAD_COND_INITIALIZER;

struct pending {
	struct pending *next;
	struct swccl_shared *sh;
	int joined;
	bool ready;
	swcclResult_t result;
};
static struct pending *pendings;

/*
 * Enable peer access among all ranks (between cards: the pairs the fabric
 * joins); false if any pair cannot have it.
 */
static bool enable_peers(struct swccl_shared *sh)
{
	if (!swccl_param_long(SWCCL_PARAM_PEER))
		return false;
	for (int i = 0; i < sh->nranks; i++) {
		if (sdaaSetDevice(sh->comm[i]->dev))
			return false;
		for (int j = 0; j < sh->nranks; j++) {
			sdaaError_t r;

			if (i == j || (sh->xcard && !(sh->reach[i] >> j & 1)))
				continue;
			r = sdaaDeviceEnablePeerAccess(sh->comm[j]->dev, 0);
			if (r && strcmp(sdaaGetErrorName(r), "sdaaErrorPeerAccessAlreadyEnabled")) {
				sdaaGetLastError();
				swccl_log(SWCCL_LOG_INFO, SWCCL_INIT, "no peer access CG %d -> CG %d: %s",
					  sh->comm[i]->cg, sh->comm[j]->cg, sdaaGetErrorString(r));
				return false;
			}
			sdaaGetLastError();
		}
	}
	return true;
}

/* Whether the cards of ranks @a and @b map each other's memory. */
static bool reach_each_other(const struct swccl_shared *sh, int a, int b)
{
	int dev_a = sh->comm[a]->dev, dev_b = sh->comm[b]->dev, ab = 0, ba = 0;

	if (sdaaDeviceCanAccessPeer(&ab, dev_a, dev_b) ||
	    sdaaDeviceCanAccessPeer(&ba, dev_b, dev_a)) {
		sdaaGetLastError();
		return false;
	}
	return ab && ba;
}

/*
 * Ranks on several cards of one fabric: which pairs it joins (all of them
 * on a mesh or a switch; neighbours on a ring -- the algorithms whose
 * schedules need another pair are then unavailable), and the ranks'
 * places in the topology.  The ranks must at least be connected.
 */
static swcclResult_t setup_xcard(struct swccl_shared *sh)
{
	uint32_t seen = 1, grow;

	for (int r = 0; r < sh->nranks; r++) {
		struct swcclComm *c = sh->comm[r];
		unsigned int tag;
		int cards;

		sh->reach[r] = 0;
		for (int q = 0; q < sh->nranks; q++)
			if (q != r && reach_each_other(sh, r, q))
				sh->reach[r] |= 1u << q;
		if (sdaaDeviceGetFabricInfo(c->dev, &sh->fabric_id[r], &cards, &tag))
			return swccl_fail(c, swcclUnhandledSdaaError, "no fabric information: %s",
					  sdaaGetErrorString(sdaaGetLastError()));
	}
	do {
		grow = seen;
		for (int r = 0; r < sh->nranks; r++)
			if (seen >> r & 1)
				grow |= sh->reach[r];
		if (grow == seen)
			break;
		seen = grow;
	} while (true);
	for (int r = 0; r < sh->nranks; r++)
		if (!(seen >> r & 1))
			return swccl_fail(sh->comm[r], swcclInvalidUsage,
					  "card %d (rank %d) and card %d (rank 0) are not joined by a "
					  "fabric, directly or through other ranks' cards "
					  "(tools/vm/swai-vm --topology; SDAA_P2P_DISABLE unset)",
					  sh->comm[r]->card, r, sh->comm[0]->card);
	sh->xcard = true;
	return swcclSuccess;
}

/*
 * Several core groups on each of several cards: a comm per card and a comm
 * per plane (slot j of every card), which swccl_hier.c runs in levels.
 */
static swcclResult_t setup_hier(struct swccl_shared *sh)
{
	struct swccl_hier *h = calloc(1, sizeof(*h));
	int card[SWCCL_MAX_RANKS], dev[SWCCL_MAX_RANKS];
	char why[256];

	if (!h)
		return swcclSystemError;
	sh->hier = h;
	for (int r = 0; r < sh->nranks; r++)
		card[r] = sh->comm[r]->card;
	if (swccl_hier_layout(h, card, sh->nranks, why, sizeof(why)))
		return swccl_fail(sh->comm[0], swcclInvalidUsage, "%s", why);
	for (int k = 0; k < h->ncards; k++) {
		for (int j = 0; j < h->per_card; j++)
			dev[j] = sh->comm[h->rank_at[k][j]]->dev;
		if (swcclCommInitAll(h->card[k], h->per_card, dev))
			return swccl_fail(sh->comm[0], swcclInvalidUsage, "the core groups of card "
					  "%d: %s", card[h->rank_at[k][0]],
					  swcclGetLastError(NULL));
	}
	for (int j = 0; j < h->per_card; j++) {
		for (int k = 0; k < h->ncards; k++)
			dev[k] = sh->comm[h->rank_at[k][j]]->dev;
		if (swcclCommInitAll(h->plane[j], h->ncards, dev))
			return swccl_fail(sh->comm[0], swcclInvalidUsage, "plane %d (slot %d of "
					  "every card): %s", j, j, swcclGetLastError(NULL));
		/* The planes run at once: their schedules and their cost know it. */
		h->plane[j][0]->sh->plane = j;
		h->plane[j][0]->sh->planes = h->per_card;
	}
	sh->execute = swccl_hier_execute;
	swccl_log(SWCCL_LOG_INFO, SWCCL_INIT, "comm of %d ranks: %d cards x %d core groups, "
		  "in levels", sh->nranks, h->ncards, h->per_card);
	return swcclSuccess;
}

/*
 * Several core groups on each card, as many on each: levels.  Uneven
 * cards (3 core groups of one, 1 of another) run the algorithm between
 * cards flat, every rank a peer of every other, those of one card over
 * its peer mappings between core groups.
 */
static bool levels(struct swccl_shared *sh)
{
	int card[SWCCL_MAX_RANKS];
	struct swccl_hier h;
	char why[160];
	bool shared = false;

	for (int r = 0; r < sh->nranks; r++) {
		card[r] = sh->comm[r]->card;
		for (int q = 0; q < r; q++)
			shared |= card[q] == card[r];
	}
	if (!shared)
		return false;
	if (!swccl_hier_layout(&h, card, sh->nranks, why, sizeof(why)))
		return true;
	swccl_log(SWCCL_LOG_INFO, SWCCL_INIT, "comm of %d ranks: %s; the algorithm between "
		  "cards runs over all ranks at once", sh->nranks, why);
	return false;
}

/* The level comms of a hierarchical comm: finished, or (@idle false) aborted. */
static void free_hier(struct swccl_shared *sh, bool idle)
{
	struct swccl_hier *h = sh->hier;

	for (int k = 0; h && k < SWCCL_MAX_RANKS; k++)
		for (int j = 0; j < SWCCL_MAX_RANKS; j++) {
			swcclComm_t *lv[2] = { &h->card[k][j], &h->plane[k][j] };

			for (int i = 0; i < 2; i++)
				if (*lv[i])
					(idle ? swcclCommDestroy : swcclCommAbort)(*lv[i]);
		}
	free(h);
	sh->hier = NULL;
}

/* The ranks' places, all in this process: core groups of one card, or cards. */
static swcclResult_t setup_ranks(struct swccl_shared *sh)
{
	struct sdaaDeviceProp p;
	swcclResult_t res;
	bool cards = false;

	for (int r = 0; r < sh->nranks; r++) {
		if (sdaaGetDeviceProperties(&p, sh->comm[r]->dev))
			return swccl_fail(sh->comm[r], swcclInvalidArgument, "device %d",
					  sh->comm[r]->dev);
		if (r == 0) {
			sh->card = p.card;
			sh->ldm = (size_t)p.cpeCount * p.ldmPerCpe;
		}
		cards |= p.card != sh->card;
		sh->comm[r]->cg = p.coreGroup;
		sh->comm[r]->card = p.card;
		if ((size_t)p.cpeCount * p.ldmPerCpe < sh->ldm)
			sh->ldm = (size_t)p.cpeCount * p.ldmPerCpe;
	}
	for (int r = 0; r < sh->nranks; r++)
		for (int q = 0; q < r; q++)
			if (sh->comm[q]->cg == sh->comm[r]->cg &&
			    sh->comm[q]->card == sh->comm[r]->card)
				return swccl_fail(sh->comm[r], swcclInvalidUsage,
						  "ranks %d and %d are both CG %d of card %d", q, r,
						  sh->comm[r]->cg, sh->comm[r]->card);
	if (cards && levels(sh))
		return setup_hier(sh);
	if (cards) {
		res = setup_xcard(sh);
		if (res)
			return res;
	}
	sh->peer = enable_peers(sh);
	if (sh->xcard && !sh->peer)
		return swccl_fail(sh->comm[0], swcclInvalidUsage, "a comm across cards needs peer "
				  "access between them (SWCCL_PEER=0 forbids it)");
	return swcclSuccess;
}

/* The resources of a comm whose ranks' places are known; @me: a rank of ours. */
static swcclResult_t setup(struct swccl_shared *sh, swcclComm_t me)
{
	swcclResult_t res;
	void *h, *d;
	uint64_t base;
	int dev = 0;

	sdaaGetDevice(&dev);
	res = sh->xproc ? swcclSuccess : setup_ranks(sh);
	if (res)
		return res;
	if (sdaaSetDevice(me->dev) || sdaaDeviceGetTimingParams(&sh->tp, me->dev) ||
	    sdaaMallocHost(&h, 4096))
		return swccl_fail(me, swcclUnhandledSdaaError, "init: %s",
				  sdaaGetErrorString(sdaaGetLastError()));
	memset(h, 0, 4096);
	if (sdaaHostGetDevicePointer(&d, h, 0)) {
		sdaaFreeHost(h);
		return swcclUnhandledSdaaError;
	}
	sh->sems_host = h;
	base = (uint64_t)(uintptr_t)d;
	sh->sems_dev.barrier = base + offsetof(struct swccl_sems, barrier);
	for (int r = 0; r < SWCCL_MAX_RANKS; r++) {
		sh->sems_dev.flag[r] = base + offsetof(struct swccl_sems, flag) + 8 * (uint64_t)r;
		sh->sems_dev.progress[r] = base + offsetof(struct swccl_sems, progress) +
					   8 * (uint64_t)r;
	}
	if (sh->xproc) {
		res = swccl_xproc_flags(sh);
		if (res)
			return res;
	} else if (sh->xcard && swccl_xflags(sh)) {
		return swccl_fail(me, swcclUnhandledSdaaError, "counters: %s",
				  sdaaGetErrorString(sdaaGetLastError()));
	}
	swccl_watchdog_start(sh);
	sdaaSetDevice(dev);
	if (sh->xcard)
		swccl_log(SWCCL_LOG_INFO, SWCCL_INIT, "comm of %d ranks on %d cards (one each%s), "
			  "LDM %zu B, topology %s", sh->nranks, sh->nranks,
			  sh->xproc ? ", one process each" : "", sh->ldm,
			  swccl_param(SWCCL_PARAM_TOPO));
	else
		swccl_log(SWCCL_LOG_INFO, SWCCL_INIT, "comm of %d ranks on card %d, LDM %zu B, "
			  "peer access %s", sh->nranks, sh->card, sh->ldm,
			  sh->peer ? "on" : "off");
	return swcclSuccess;
}

static struct swccl_shared *shared_new(int nranks)
{
	struct swccl_shared *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return NULL;
	sh->nranks = nranks;
	sh->nlocal = nranks;
	sh->execute = swccl_execute;
	sh->plans = swccl_plan_cache_new();
	if (!sh->plans) {
		free(sh);
		return NULL;
	}
	pthread_mutex_init(&sh->mu, NULL);
	pthread_cond_init(&sh->cv, NULL);
	return sh;
}

static void shared_free(struct swccl_shared *sh, bool idle)
{
	swccl_watchdog_stop(sh);
	/* The peers' mappings keep what we shared alive for their jobs. */
	swccl_nic_free(sh);
	swccl_rdma_free(sh);
	swccl_xproc_free(sh);
	free_hier(sh, idle);
	/* Memory a job may still touch is left alone rather than faulted on. */
	if (idle) {
		swccl_mem_free(sh);
		if (sh->sems_host)
			sdaaFreeHost(sh->sems_host);
	}
	swccl_insts_free(sh);
	swccl_plan_cache_free(sh->plans);
	swccl_model_free(sh->model);
	swccl_xcard_free(sh);
	free(sh->retired);
	pthread_mutex_destroy(&sh->mu);
	pthread_cond_destroy(&sh->cv);
	free(sh);
}

static swcclComm_t comm_new(struct swccl_shared *sh, int rank, int dev)
{
	swcclComm_t c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->sh = sh;
	c->rank = rank;
	c->dev = dev;
	sh->comm[rank] = c;
	sh->refs++;
	return c;
}

SWCCL_EXPORT swcclResult_t swcclCommInitAll(swcclComm_t *comms, int ndev, const int *devlist)
{
	struct swccl_shared *sh;
	const char *why = NULL;
	swcclResult_t r;

	if (!comms || ndev < 1 || ndev > SWCCL_MAX_RANKS)
		return swccl_fail(NULL, swcclInvalidArgument, "swcclCommInitAll: %s", !comms ?
				  "comms is NULL" : "ndev must be 1..32");
	sh = shared_new(ndev);
	if (!sh)
		return swcclSystemError;
	for (int i = 0; i < ndev; i++)
		if (!comm_new(sh, i, devlist ? devlist[i] : i)) {
			r = swcclSystemError;
			goto fail;
		}
	r = setup(sh, sh->comm[0]);
	if (r)
		goto fail;
	for (int i = 0; i < ndev; i++)
		comms[i] = sh->comm[i];
	return swcclSuccess;
fail:
	/* The comms go: the message of the one that failed stays with the thread. */
	for (int i = 0; i < ndev; i++)
		if (sh->comm[i] && sh->comm[i]->lasterr[0] && !why)
			why = sh->comm[i]->lasterr;
	swccl_fail(NULL, r, "swcclCommInitAll: %s", why ? why : "out of memory");
	for (int i = 0; i < ndev; i++)
		free(sh->comm[i]);
	shared_free(sh, true);
	return r;
}

SWCCL_EXPORT swcclResult_t swcclGetUniqueId(swcclUniqueId *id)
{
	char why[256];

	if (!id)
		return swccl_fail(NULL, swcclInvalidArgument, "swcclGetUniqueId: id is NULL");
	if (swccl_boot_new_id(id, swccl_timeout_s(), why, sizeof(why)))
		return swccl_fail(NULL, swcclSystemError, "swcclGetUniqueId: %s", why);
	return swcclSuccess;
}

/* All ranks are threads of this process: they meet here. */
static swcclResult_t join_threads(swcclComm_t *comm, int nranks, const swcclUniqueId *id,
				  int rank, int dev)
{
	struct pending *pd, **pp;
	double deadline = swccl_now() + swccl_timeout_s();
	swcclComm_t c;
	swcclResult_t r;

	pthread_mutex_lock(&reg_mu);
	for (pd = pendings; pd; pd = pd->next)
		if (!memcmp(pd->sh->id, id->internal, sizeof(id->internal)))
			break;
	if (!pd) {
		pd = calloc(1, sizeof(*pd));
		if (pd)
			pd->sh = shared_new(nranks);
		if (!pd || !pd->sh) {
			free(pd);
			pthread_mutex_unlock(&reg_mu);
			return swcclSystemError;
		}
		memcpy(pd->sh->id, id->internal, sizeof(id->internal));
		pd->sh->threaded = true;
		pd->next = pendings;
		pendings = pd;
	}
	if (pd->sh->nranks != nranks || pd->sh->comm[rank]) {
		pthread_mutex_unlock(&reg_mu);
		return swcclInvalidUsage;
	}
	c = comm_new(pd->sh, rank, dev);
	if (!c) {
		pthread_mutex_unlock(&reg_mu);
		return swcclSystemError;
	}
	if (++pd->joined == nranks) {
		pd->result = setup(pd->sh, pd->sh->comm[0]);
		pd->ready = true;
		pthread_cond_broadcast(&reg_cv);
	}
	while (!pd->ready) {
		struct timespec ts;

		if (swccl_now() > deadline) {
			pd->sh->comm[rank] = NULL;
			pd->sh->refs--;
			pd->joined--;
			free(c);
			pthread_mutex_unlock(&reg_mu);
			swccl_log(SWCCL_LOG_WARN, SWCCL_INIT, "swcclCommInitRank: rank %d waited SWCCL_TIMEOUT "
				  "for the other ranks to join", rank);
			return swcclTimeout;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&reg_cv, &reg_mu, &ts);
	}
	r = pd->result;
	if (--pd->joined == 0) {	/* the last to leave unlinks it */
		for (pp = &pendings; *pp; pp = &(*pp)->next)
			if (*pp == pd) {
				*pp = pd->next;
				break;
			}
		if (r)
			shared_free(pd->sh, true);
		free(pd);
	}
	pthread_mutex_unlock(&reg_mu);
	if (r) {
		free(c);	/* the last rank to leave freed the shared state */
		return r;
	}
	*comm = c;
	return swcclSuccess;
}

/* Each rank is a process of its own: this one's rank, the others' places. */
static swcclResult_t join_process(swcclComm_t *comm, int nranks, const swcclUniqueId *id,
				  int rank, int dev, struct swccl_boot *boot,
				  const struct swccl_xproc_rec *all)
{
	struct swccl_shared *sh = shared_new(nranks);
	swcclComm_t c = sh ? comm_new(sh, rank, dev) : NULL;
	swcclResult_t r;

	if (!c) {
		if (sh)
			shared_free(sh, true);
		swccl_boot_close(boot);
		return swccl_fail(NULL, swcclSystemError, "swcclCommInitRank: out of memory");
	}
	memcpy(sh->id, id->internal, sizeof(id->internal));
	c->cg = all[rank].cg;
	c->card = all[rank].card;
	r = swccl_xproc_attach(sh, rank, boot, all);
	if (!r)
		r = setup(sh, c);
	if (r) {
		swccl_fail(NULL, r, "%s", c->lasterr);
		for (int q = 0; q < nranks; q++)
			if (sh->comm[q] != c)
				free(sh->comm[q]);
		shared_free(sh, true);
		free(c);
		return r;
	}
	*comm = c;
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swcclCommInitRank(swcclComm_t *comm, int nranks, swcclUniqueId id,
					     int rank)
{
	struct swccl_xproc_rec me, *all;
	struct swccl_boot *boot;
	swcclResult_t r;
	char why[256];
	int dev, here = 0, with = -1;

	if (!comm || nranks < 1 || nranks > SWCCL_MAX_RANKS || rank < 0 || rank >= nranks ||
	    sdaaGetDevice(&dev))
		return swccl_fail(NULL, swcclInvalidArgument, "swcclCommInitRank: rank %d of %d "
				  "(1..%d ranks), a comm pointer and a current device", rank,
				  nranks, SWCCL_MAX_RANKS);
	r = swccl_xproc_rec(dev, &me, why, sizeof(why));
	if (r)
		return swccl_fail(NULL, r, "swcclCommInitRank: %s", why);
	all = calloc((size_t)nranks, sizeof(*all));
	if (!all)
		return swccl_fail(NULL, swcclSystemError, "swcclCommInitRank: out of memory");
	/* SWCCL_COMM_ID: the id names rank 0's host, and rank 0 serves it (NCCL's way). */
	if (rank == 0 && swccl_boot_fixed() &&
	    swccl_boot_serve(&id, swccl_timeout_s(), why, sizeof(why))) {
		free(all);
		return swccl_fail(NULL, swcclSystemError, "swcclCommInitRank: rank 0 cannot "
				  "serve SWCCL_COMM_ID %s: %s", swccl_param(SWCCL_PARAM_COMM_ID),
				  why);
	}
	/* Everyone's place, through the id's root (TCP: any process, any host). */
	if (swccl_boot_join(&id, rank, nranks, &me, sizeof(me), all, swccl_timeout_s(), &boot,
			    why, sizeof(why))) {
		free(all);
		return swccl_fail(NULL, strstr(why, "not an id") ? swcclInvalidArgument :
				  strstr(why, "SWCCL_TIMEOUT") ? swcclTimeout : swcclRemoteError,
				  "swcclCommInitRank: rank %d of %d: %s", rank, nranks, why);
	}
	for (int q = 0; q < nranks; q++)
		if (all[q].pid == me.pid && !strcmp(all[q].host, me.host)) {
			here++;
			with = q != rank ? q : with;
		}
	if (here == nranks) {
		swccl_boot_close(boot);
		free(all);
		return join_threads(comm, nranks, &id, rank, dev);
	}
	if (here > 1) {
		swccl_boot_close(boot);
		free(all);
		return swccl_fail(NULL, swcclInvalidUsage, "swcclCommInitRank: ranks %d and %d are "
				  "in one process and other ranks elsewhere: a comm is all in one "
				  "process or one rank per process", rank, with);
	}
	r = join_process(comm, nranks, &id, rank, dev, boot, all);
	free(all);
	return r;
}

/* Wait (bounded) until every launched collective has finished everywhere. */
static bool drain(struct swccl_shared *sh, double max_s)
{
	double end = swccl_now() + max_s;

	while (sh->launched_seq && !swccl_all_done(sh, sh->launched_seq)) {
		if (swccl_now() > end)
			return false;
		usleep(1000);
	}
	return true;
}

static void comm_release(swcclComm_t comm, bool idle)
{
	struct swccl_shared *sh = comm->sh;
	bool last;

	pthread_mutex_lock(&sh->mu);
	sh->comm[comm->rank] = comm;	/* messages may still name it */
	last = --sh->refs == 0;
	pthread_mutex_unlock(&sh->mu);
	if (last) {
		for (int i = 0; i < sh->nranks; i++)
			if (sh->comm[i] != comm)
				free(sh->comm[i]);
		shared_free(sh, idle);
		free(comm);
	}
	/* Other ranks' messages name this rank: keep it until the last one. */
}

SWCCL_EXPORT swcclResult_t swcclCommDestroy(swcclComm_t comm)
{
	bool idle;

	if (!comm)
		return swcclInvalidArgument;
	idle = drain(comm->sh, comm->sh->failed ? 2 : swccl_timeout_s() + 5);
	comm->dead = true;
	comm_release(comm, idle);
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swcclCommAbort(swcclComm_t comm)
{
	char msg[128];
	bool idle;

	if (!comm)
		return swcclInvalidArgument;
	snprintf(msg, sizeof(msg), "rank %d (CG %d) aborted the communicator", comm->rank,
		 comm->cg);
	comm->dead = true;
	swccl_fail_shared(comm->sh, swcclRemoteError, msg);
	/* A hierarchical comm's work is its levels': release them too. */
	for (int k = 0; comm->sh->hier && k < comm->sh->hier->ncards; k++)
		for (int j = 0; j < comm->sh->hier->per_card; j++) {
			swccl_fail_shared(comm->sh->hier->card[k][j]->sh, swcclRemoteError, msg);
			swccl_fail_shared(comm->sh->hier->plane[j][k]->sh, swcclRemoteError, msg);
		}
	idle = drain(comm->sh, 5);
	comm_release(comm, idle);
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swcclCommCount(const swcclComm_t comm, int *count)
{
	if (!comm || !count)
		return swcclInvalidArgument;
	*count = comm->sh->nranks;
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swcclCommDevice(const swcclComm_t comm, int *device)
{
	if (!comm || !device)
		return swcclInvalidArgument;
	*device = comm->dev;
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swcclCommUserRank(const swcclComm_t comm, int *rank)
{
	if (!comm || !rank)
		return swcclInvalidArgument;
	*rank = comm->rank;
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swcclCommGetAsyncError(swcclComm_t comm, swcclResult_t *err)
{
	if (!comm || !err)
		return swcclInvalidArgument;
	pthread_mutex_lock(&comm->sh->mu);
	*err = comm->sh->failed;
	if (*err)
		snprintf(comm->lasterr, sizeof(comm->lasterr), "%s", comm->sh->failmsg);
	pthread_mutex_unlock(&comm->sh->mu);
	if (!*err && comm->sh->hier)
		*err = swccl_hier_failed(comm->sh, comm->lasterr, sizeof(comm->lasterr));
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swcclCommSetAlgo(swcclComm_t comm, swcclAlgo_t algo)
{
	if (!comm || (unsigned)algo >= swcclNumAlgos)
		return swcclInvalidArgument;
	comm->algo = algo;
	return swcclSuccess;
}

/*
 * swcclCommLastCallInfo@@SWCCL_0.4 fills the whole struct; binaries built
 * against 0.2 or 0.1 call swcclCommLastCallInfo@SWCCL_0.2 or @SWCCL_0.1,
 * which fill only the fields their (smaller) struct has.
 */
__asm__(".symver swccl_last_call_info_v4, swcclCommLastCallInfo@@SWCCL_0.4");
__asm__(".symver swccl_last_call_info_v2, swcclCommLastCallInfo@SWCCL_0.2");
__asm__(".symver swccl_last_call_info_v1, swcclCommLastCallInfo@SWCCL_0.1");

SWCCL_EXPORT swcclResult_t swccl_last_call_info_v4(swcclComm_t comm, struct swcclCallInfo *info)
{
	if (!comm || !info)
		return swcclInvalidArgument;
	*info = comm->last;
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swccl_last_call_info_v2(swcclComm_t comm, struct swcclCallInfo *info)
{
	if (!comm || !info)
		return swcclInvalidArgument;
	memcpy(info, &comm->last, offsetof(struct swcclCallInfo, internode_msgs));
	return swcclSuccess;
}

SWCCL_EXPORT swcclResult_t swccl_last_call_info_v1(swcclComm_t comm, struct swcclCallInfo *info)
{
	if (!comm || !info)
		return swcclInvalidArgument;
	memcpy(info, &comm->last, offsetof(struct swcclCallInfo, fused));
	return swcclSuccess;
}
