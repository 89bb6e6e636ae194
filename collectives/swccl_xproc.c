// SPDX-License-Identifier: MIT
/*
 * swccl_xproc.c - a communicator across cards with one rank per process
 * (swccl_xproc.h).
 *
 * The programs are the same as with one process (swccl_lower.c): a rank
 * writes its messages into its peers' landing areas and signals their
 * counters, over the fabric.  What differs is how a rank reaches its
 * peers' memory: each rank allocates its counters and landing area on its
 * own card, in blocks of their own (IPC maps whole blocks, so nothing else
 * of the process is exposed), and every peer maps them through IPC handles
 * -- dma-bufs the kernel hands only to processes the owner's credentials
 * allow.  The handles travel over the bootstrap's connections.
 *
 * A rank knows only its own buffers; a sender therefore never writes into
 * a receiver's buffer directly, only into its landing area, whose layout
 * every rank computes from the call alone (c->xremote).  Every rank grows
 * its landing area at the same call, so the exchange of the new handles is
 * one more collective step of the bootstrap.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swccl_bootstrap.h"
#include "swccl_xproc.h"

#define BLOCK		(2u << 20)	/* sdaa_ipc.c: IPC maps whole blocks */

struct swccl_xproc {
	int rank, dev;
	struct swccl_boot *boot;
	struct swccl_xproc_rec rec[SWCCL_MAX_RANKS];
	bool same_host[SWCCL_MAX_RANKS];
	void **own;			/* our counters and landing areas */
	int nown;
	void **imp;			/* the peers', mapped here */
	int nimp;
};

/* What one rank gives the others for one block. */
struct xhandle {
	sdaaIpcMemHandle_t h;
	uint64_t bytes;
};

swcclResult_t swccl_xproc_rec(int dev, struct swccl_xproc_rec *me, char *why, size_t n)
{
	struct sdaaDeviceProp p;
	unsigned int tag;
	int id, cards;

	memset(me, 0, sizeof(*me));
	if (sdaaGetDeviceProperties(&p, dev)) {
		snprintf(why, n, "device %d: %s", dev, sdaaGetErrorString(sdaaGetLastError()));
		return swcclInvalidArgument;
	}
	if (sdaaDeviceGetFabricInfo(dev, &id, &cards, &tag)) {
		sdaaGetLastError();
		id = -1;	/* decided once all are known: a one-card comm needs none */
		tag = 0;
	}
	me->pid = (int32_t)getpid();
	me->card = p.card;
	me->cg = p.coreGroup;
	me->fabric_id = id;
	me->fabric_tag = tag;
	me->ldm = (uint32_t)((size_t)p.cpeCount * p.ldmPerCpe);
	me->version = SWCCL_VERSION;
	swccl_xproc_host(me->host, sizeof(me->host));
	return swcclSuccess;
}

/*
 * This host's identity: its name and its boot's id, as NCCL's host hash
 * (VMs of one image share a name; a boot id is unique).
 */
void swccl_xproc_host(char *host, size_t n)
{
	char boot[40] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	size_t l;

	if (f) {
		if (!fgets(boot, sizeof(boot), f))
			boot[0] = 0;
		fclose(f);
	}
	boot[strcspn(boot, "\n")] = 0;
	memset(host, 0, n);
	gethostname(host, n / 2);
	l = strlen(host);
	snprintf(host + l, n - l, "/%s", boot);
}

static int list_add(void ***list, int *n, void *p)
{
	void **l = realloc(*list, (size_t)(*n + 1) * sizeof(**list));

	if (!l)
		return -1;
	l[(*n)++] = p;
	*list = l;
	return 0;
}

swcclResult_t swccl_xproc_attach(struct swccl_shared *sh, int rank, struct swccl_boot *boot,
				 const struct swccl_xproc_rec *all)
{
	struct swccl_xproc *x = calloc(1, sizeof(*x));
	char host[64] = { 0 };

	if (!x) {
		swccl_boot_close(boot);
		return swcclSystemError;
	}
	x->rank = rank;
	x->dev = sh->comm[rank]->dev;
	x->boot = boot;
	memcpy(x->rec, all, sizeof(*all) * (size_t)sh->nranks);
	sh->xproc = x;
	swccl_xproc_host(host, sizeof(host));
	sh->nlocal = 1;
	sh->card = all[rank].card;
	sh->ldm = all[rank].ldm;
	for (int q = 0; q < sh->nranks; q++) {
		const struct swccl_xproc_rec *r = &all[q];

		if (r->version != all[rank].version)
			return swccl_fail(sh->comm[rank], swcclInvalidUsage, "rank %d runs "
					  "libswccl %u, rank %d %u: one library for all ranks", q,
					  r->version, rank, all[rank].version);
		x->same_host[q] = !strcmp(host, r->host);
		/* Another node: reached over the NICs only (swccl_nic.h). */
		if (!x->same_host[q])
			sh->xnodes = true;
		if (x->same_host[q] && (r->fabric_id < 0 ||
					 r->fabric_tag != all[rank].fabric_tag))
			return swccl_fail(sh->comm[rank], swcclInvalidUsage, "rank %d's card %d "
					  "is not on rank %d's fabric: the processes of a comm are "
					  "on cards of one fabric (tools/vm/swai-vm --topology)", q,
					  r->card, rank);
		for (int p = 0; p < q; p++)
			if (all[p].card == r->card && !strcmp(all[p].host, r->host))
				return swccl_fail(sh->comm[rank], swcclInvalidUsage,
						  "ranks %d and %d are both on card %d: a comm of "
						  "one process per rank has one rank per card", p,
						  q, r->card);
		sh->fabric_id[q] = r->fabric_id;
		sh->ldm = r->ldm < sh->ldm ? r->ldm : sh->ldm;
		if (q == rank)
			continue;
		sh->comm[q] = calloc(1, sizeof(*sh->comm[q]));
		if (!sh->comm[q])
			return swcclSystemError;
		*sh->comm[q] = (struct swcclComm){ .sh = sh, .rank = q, .dev = -1, .cg = r->cg,
						   .card = r->card, .remote = true,
						   .pid = r->pid };
	}
	/* One process per card: every pair of cards of a node maps the other (IPC). */
	for (int q = 0; q < sh->nranks; q++) {
		sh->reach[q] = 0;
		for (int p = 0; p < sh->nranks; p++)
			if (p != q && !strcmp(all[p].host, all[q].host))
				sh->reach[q] |= 1u << p;
	}
	sh->xcard = true;
	sh->peer = true;
	return swcclSuccess;
}

/* A block of ours, zeroed, its handle; NULL with the error logged. */
static void *own_block(struct swccl_xproc *x, size_t bytes, struct xhandle *h)
{
	void *p = NULL;

	if (sdaaMallocCross(&p, bytes)) {
		sdaaGetLastError();
		if (sdaaMalloc(&p, bytes))
			return NULL;
	}
	if (list_add(&x->own, &x->nown, p)) {
		sdaaFree(p);
		return NULL;
	}
	h->bytes = bytes;
	if (sdaaMemset(p, 0, bytes) || sdaaDeviceSynchronize() || sdaaIpcGetMemHandle(&h->h, p))
		return NULL;
	return p;
}

/*
 * Ours for everyone and everyone's mapped here: @view[q] is rank q's block
 * as this process addresses it.  All ranks give the same size.
 */
static swcclResult_t exchange(struct swccl_shared *sh, size_t bytes, void **view,
			      const char *what)
{
	struct swccl_xproc *x = sh->xproc;
	swcclComm_t me = sh->comm[x->rank];
	struct xhandle mine = { 0 }, all[SWCCL_MAX_RANKS];
	char why[256];
	int dev = 0;
	void *p;

	sdaaGetDevice(&dev);
	sdaaSetDevice(x->dev);
	p = own_block(x, bytes, &mine);
	sdaaSetDevice(dev);
	if (!p)
		return swccl_fail(me, swcclUnhandledSdaaError, "cannot allocate %zu bytes for "
				  "%s on card %d: %s", bytes, what, sh->card,
				  sdaaGetErrorString(sdaaGetLastError()));
	if (swccl_boot_allgather(x->boot, &mine, sizeof(mine), all, swccl_timeout_s(), why,
				 sizeof(why)))
		return swccl_fail(me, swcclRemoteError, "exchanging %s: %s", what, why);
	sdaaSetDevice(x->dev);
	for (int q = 0; q < sh->nranks; q++) {
		sdaaError_t e;

		if (all[q].bytes != bytes) {
			sdaaSetDevice(dev);
			return swccl_fail(me, swcclInvalidUsage, "rank %d has %llu bytes of %s, "
					  "rank %d %zu: the ranks did not make the same calls", q,
					  (unsigned long long)all[q].bytes, what, x->rank, bytes);
		}
		if (q == x->rank) {
			view[q] = p;
			continue;
		}
		if (!x->same_host[q]) {		/* another node's: no IPC there */
			view[q] = NULL;
			continue;
		}
		e = sdaaIpcOpenMemHandle(&view[q], all[q].h, 0);
		if (e || list_add(&x->imp, &x->nimp, view[q])) {
			if (!e)
				sdaaIpcCloseMemHandle(view[q]);
			sdaaSetDevice(dev);
			return swccl_fail(me, swcclUnhandledSdaaError, "cannot map rank %d's %s "
					  "(card %d, process %d) on card %d: %s", q, what,
					  sh->comm[q]->card, sh->comm[q]->pid, sh->card,
					  e ? sdaaGetErrorString(e) : "out of memory");
		}
	}
	sdaaSetDevice(dev);
	return swcclSuccess;
}

swcclResult_t swccl_xproc_flags(struct swccl_shared *sh)
{
	return exchange(sh, BLOCK, sh->xflags, "the counters");
}

swcclResult_t swccl_xproc_allgather(struct swccl_shared *sh, const void *mine, size_t len,
				    void *all, const char *what)
{
	struct swccl_xproc *x = sh->xproc;
	char why[256];

	if (swccl_boot_allgather(x->boot, mine, len, all, swccl_timeout_s(), why, sizeof(why)))
		return swccl_fail(sh->comm[x->rank], swcclRemoteError, "exchanging %s: %s", what,
				  why);
	return swcclSuccess;
}

swcclResult_t swccl_xproc_land(struct swccl_shared *sh, size_t bytes)
{
	size_t want = bytes < 2 * sh->xland_bytes ? 2 * sh->xland_bytes : bytes;
	void *view[SWCCL_MAX_RANKS];
	swcclResult_t r;

	if (bytes <= sh->xland_bytes)
		return swcclSuccess;
	/* Whole blocks: a block shared is only this. */
	want = (want + BLOCK - 1) / BLOCK * BLOCK;
	r = exchange(sh, want, view, "the landing area");
	if (r)
		return r;
	/* The old areas stay mapped (a launched job may still use them) until the end. */
	memcpy(sh->xland, view, sizeof(view[0]) * (size_t)sh->nranks);
	sh->xland_bytes = want;
	return swcclSuccess;
}

/* Has process @pid (of this host) ended -- gone, or a zombie? */
static bool ended(int pid)
{
	char path[64], buf[256], *s;
	FILE *f;
	bool z = false;

	if (kill(pid, 0) && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (s = strrchr(buf, ')')))
		z = s[1] == ' ' && (s[2] == 'Z' || s[2] == 'X');
	fclose(f);
	return z;
}

int swccl_xproc_dead(const struct swccl_shared *sh)
{
	const struct swccl_xproc *x = sh->xproc;

	for (int q = 0; x && q < sh->nranks; q++)
		if (q != x->rank && x->same_host[q] && ended(x->rec[q].pid))
			return q;
	return -1;
}

void swccl_xproc_free(struct swccl_shared *sh)
{
	struct swccl_xproc *x = sh->xproc;
	int dev = 0;

	if (!x)
		return;
	sdaaGetDevice(&dev);
	sdaaSetDevice(x->dev);
	for (int i = 0; i < x->nimp; i++)
		sdaaIpcCloseMemHandle(x->imp[i]);
	/* The peers' mappings keep our blocks alive for their last jobs. */
	for (int i = 0; i < x->nown; i++) {
		struct sdaaPointerAttributes at;

		if (!sdaaPointerGetAttributes(&at, x->own[i]) && at.type == sdaaMemoryTypeLocal)
			sdaaFree(x->own[i]);
		else
			sdaaFreeCross(x->own[i]);
	}
	sdaaGetLastError();
	sdaaSetDevice(dev);
	swccl_boot_close(x->boot);
	free(x->own);
	free(x->imp);
	free(x);
	sh->xproc = NULL;
	memset(sh->xland, 0, sizeof(sh->xland));
	memset(sh->xflags, 0, sizeof(sh->xflags));
}

int swccl_xproc_node(const struct swccl_shared *sh, int q)
{
	const struct swccl_xproc *x = sh->xproc;

	for (int p = 0; x && p < q; p++)
		if (!strcmp(x->rec[p].host, x->rec[q].host))
			return p;
	return q;
}

swcclResult_t swccl_xproc_open_all(struct swccl_shared *sh, swcclComm_t comm0,
				   swcclResult_t (*open)(struct swccl_shared *sh, void *ctx,
							 int r, swcclComm_t comm0),
				   void *ctx, void *recs, size_t len, const char *what)
{
	swcclResult_t res = swcclSuccess;
	char *all;
	int dev = 0;

	sdaaGetDevice(&dev);
	for (int r = 0; r < sh->nranks && !res; r++)
		if (!sh->comm[r]->remote)
			res = open(sh, ctx, r, comm0);
	sdaaSetDevice(dev);
	if (res || !sh->xproc)
		return res;
	all = malloc(len * (size_t)sh->nranks);
	if (!all)
		return swccl_fail(comm0, swcclSystemError, "out of memory");
	res = swccl_xproc_allgather(sh, (char *)recs + len * (size_t)comm0->rank, len, all, what);
	if (!res)
		memcpy(recs, all, len * (size_t)sh->nranks);
	free(all);
	return res;
}

void swccl_xproc_close_all(struct swccl_shared *sh, void (*close)(void *ctx, int r),
			   void *ctx)
{
	int dev = 0;

	sdaaGetDevice(&dev);
	for (int r = 0; r < sh->nranks; r++)
		if (!sh->comm[r]->remote && !sdaaSetDevice(sh->comm[r]->dev))
			close(ctx, r);
	sdaaGetLastError();
	sdaaSetDevice(dev);
}
