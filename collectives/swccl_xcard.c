// SPDX-License-Identifier: MIT
/*
 * swccl_xcard.c - the collectives between cards as algorithms of libswccl:
 * for each collective and each generator of the cluster library (RING,
 * MESH1, MESH2, HD, NHR, RB) -- and FILE, the schedule SWCCL_SCHED_FILE
 * names (as MSCCL_XML_FILES) -- a struct swccl_algo whose programs are the
 * schedule lowered by swccl_lower.c, and whose cost is those
 * programs run on the model of the cards (swccl_xcost.c, on the topology
 * SWCCL_TOPO -- default mesh8, the file the emulated node's fabric is built
 * from -- with ranks at their cards' fabric indices): the emulator's
 * modeled time, exactly.  Where that model cannot be built, seed 000's
 * alpha-beta estimate of the schedule with link contention stands in.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "swai-gen.h"
#include "swai-sched-cost.h"
#include "swai-topo.h"
#include "swai_regs.h"
#include "swccl_plan.h"
#include "swccl_xcard.h"

static enum swai_coll coll_of(enum swccl_coll c)
{
	static const enum swai_coll map[SWCCL_NCOLLS] = {
		[SWCCL_ALLGATHER] = SWAI_COLL_ALLGATHER,
		[SWCCL_REDUCESCATTER] = SWAI_COLL_REDUCESCATTER,
		[SWCCL_ALLREDUCE] = SWAI_COLL_ALLREDUCE,
		[SWCCL_BROADCAST] = SWAI_COLL_BROADCAST,
		[SWCCL_REDUCE] = SWAI_COLL_REDUCE,
		[SWCCL_ALLTOALL] = SWAI_COLL_ALLTOALL,
	};

	return map[c];
}

/*
 * SWCCL_SCHED_FILE's schedule, read once: like every parameter it does not
 * change under a running program, and every call between cards (planning,
 * lowering each rank, counting its messages) asks for it.
 */
static pthread_once_t file_once = PTHREAD_ONCE_INIT;
static struct swai_sched file_s;
static char file_why[256];
static int file_err;

static void file_load(void)
{
	const char *path = swccl_param(SWCCL_PARAM_SCHED_FILE);

	file_err = -1;
	if (!*path)
		snprintf(file_why, sizeof(file_why), "SWCCL_SCHED_FILE names no schedule file");
	else
		file_err = swai_sched_load(&file_s, path, file_why, sizeof(file_why));
}

/* FILE: SWCCL_SCHED_FILE's schedule, if it is one of this call's collective and ranks. */
static int file_sched(const struct swccl_call *c, struct swai_sched *s, char *why, size_t n)
{
	const char *path = swccl_param(SWCCL_PARAM_SCHED_FILE);

	pthread_once(&file_once, file_load);
	if (file_err) {
		snprintf(why, n, "%s", file_why);
		return -1;
	}
	if (swai_sched_clone(s, &file_s)) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	if (s->coll != coll_of(c->coll) || s->nranks != c->nranks ||
	    ((s->coll == SWAI_COLL_BROADCAST || s->coll == SWAI_COLL_REDUCE) &&
	     s->root != c->root)) {
		snprintf(why, n, "SWCCL_SCHED_FILE %s is for %s on %d ranks (root %d), not this "
			 "call's %s on %d ranks (root %d)", path, swai_coll_name(s->coll),
			 s->nranks, s->root, swai_coll_name(coll_of(c->coll)), c->nranks, c->root);
		swai_sched_free(s);
		return -1;
	}
	return 0;
}

/*
 * RING's stride for plane c->xplane of c->xplanes: the strides coprime
 * with N whose every link r -> r + stride the fabric has, in the order 1,
 * N - 1 (the same links the other way), 2, N - 2, ...; plane j takes the
 * j-th, so that on a full mesh no two planes send over one link direction
 * (NCCL's channels on different rings).  More planes than strides share.
 */
static int ring_stride(const struct swccl_call *c)
{
	int N = c->nranks, st[SWCCL_MAX_RANKS], ns = 0;

	for (int k = 1; k <= N / 2; k++)
		for (int w = 0; w < 2; w++) {
			int d = w ? N - k : k;
			bool all = swai_gen_stride_ok(N, d) && (ns == 0 || st[ns - 1] != d);

			for (int r = 0; r < N && all; r++)
				all = c->xreach[r] >> ((r + d) % N) & 1;
			if (all)
				st[ns++] = d;
		}
	return ns ? st[c->xplane % ns] : 1;
}

int swccl_xcard_sched(const struct swccl_call *c, const char *name, struct swai_sched *s,
		      char *why, size_t n)
{
	/* An AllToAllv's blocks are each anywhere: PLANE copies them out of scratch. */
	struct swai_gen_opts o = { .root = c->root, .nhr_order = SWAI_NHR_BEST,
				   .node_of = c->node, .via_scratch = c->v };

	if (!strcmp(name, swcclAlgoName(swcclAlgoFile)))
		return file_sched(c, s, why, n);
	/* Planes sending at once start at different peers, or ring on links of their own. */
	if (c->xplanes > 1) {
		o.shift = c->xplane * (c->nranks - 1) / c->xplanes;
		o.stride = ring_stride(c);
	}

	return swai_gen_build(s, name, coll_of(c->coll), c->nranks, &o, why, n) ? -1 : 0;
}

/* The generator behind @a, by its name. */
static const struct swai_gen *gen_of(const struct swccl_algo *a)
{
	return swai_gen_find(swcclAlgoName(a->algo));
}

static const char *unsupported(const struct swccl_call *c, const struct swccl_algo *a)
{
	static __thread char why[256];
	const struct swai_gen *g = gen_of(a);
	struct swai_sched s;

	if (!c->xcard)
		return "between cards only (the comm is one card's core groups)";
	if (c->v && a->algo != swcclAlgoDirect)
		return "over the fabric AllToAllv and Send/Recv run DIRECT (PLANE's relays "
		       "lay their blocks out by size over the NICs, between nodes)";
	if (a->algo != swcclAlgoFile && (!g || !(g->colls & (1u << coll_of(c->coll)))))
		return "no schedule of this collective";
	/* Some serve only some rank counts (HD's AllGather: powers of two). */
	if (swccl_xcard_sched(c, swcclAlgoName(a->algo), &s, why, sizeof(why)))
		return why;
	/* On a ring or a partial mesh, only schedules that send where a link goes. */
	why[0] = 0;
	for (int r = 0; r < s.nranks && !why[0]; r++)
		for (int i = 0; i < s.ranks[r].nsteps && !why[0]; i++) {
			int q = s.ranks[r].steps[i].peer;

			if (s.ranks[r].steps[i].op == SWAI_STEP_SEND && !(c->xreach[r] >> q & 1))
				snprintf(why, sizeof(why), "rank %d sends to rank %d, whose card "
					 "the fabric does not join to its own", r, q);
		}
	swai_sched_free(&s);
	return why[0] ? why : NULL;
}

/* The landing area every rank needs. */
static size_t scratch(const struct swccl_call *c, const struct swccl_algo *a)
{
	struct swai_sched s;
	char why[256];
	size_t b;

	if (swccl_xcard_sched(c, swcclAlgoName(a->algo), &s, why, sizeof(why)))
		return 0;
	b = swccl_lower_bytes(c, &s);
	swai_sched_free(&s);
	/* An AllToAllv whose only blocks are each rank's own lands nothing, and runs. */
	return b ? b : 1;
}

static int steps(const struct swccl_call *c)
{
	(void)c;
	return 1;
}

static void build(const struct swccl_call *c, int r, struct swai_prog *p,
		  const struct swccl_algo *a)
{
	struct swai_sched s;
	char why[256];
	int **match;

	if (swccl_xcard_sched(c, swcclAlgoName(a->algo), &s, why, sizeof(why))) {
		p->nomem = true;
		return;
	}
	if (swai_sched_match(&s, &match, why, sizeof(why))) {
		p->nomem = true;
	} else {
		swccl_lower(c, &s, match, r, p);
		swai_sched_match_free(&s, match);
	}
	swai_sched_free(&s);
}

/* One struct swccl_algo per (collective, generator). */
#define XCARD(coll_, COLL, algo_, ALGO)						\
	static const char *unsup_##coll_##_##algo_(const struct swccl_call *c);	\
	static size_t scratch_##coll_##_##algo_(const struct swccl_call *c);	\
	static void build_##coll_##_##algo_(const struct swccl_call *c, int st, int r, \
					    struct swai_prog *p);		\
	const struct swccl_algo swccl_##coll_##_x##algo_ = {			\
		.name = #ALGO, .coll = COLL, .algo = swcclAlgo##algo_,		\
		.props = SWCCL_ALGO_XCARD, .unsupported = unsup_##coll_##_##algo_, \
		.scratch = scratch_##coll_##_##algo_, .steps = steps,		\
		.build = build_##coll_##_##algo_,				\
	};									\
	static const char *unsup_##coll_##_##algo_(const struct swccl_call *c)	\
	{									\
		return unsupported(c, &swccl_##coll_##_x##algo_);		\
	}									\
	static size_t scratch_##coll_##_##algo_(const struct swccl_call *c)	\
	{									\
		return scratch(c, &swccl_##coll_##_x##algo_);			\
	}									\
	static void build_##coll_##_##algo_(const struct swccl_call *c, int st, int r, \
					    struct swai_prog *p)		\
	{									\
		(void)st;							\
		build(c, r, p, &swccl_##coll_##_x##algo_);			\
	}
#define XCARD_ALL(coll_, COLL)							\
	XCARD(coll_, COLL, Ring, RING) XCARD(coll_, COLL, Mesh1, MESH1)	\
	XCARD(coll_, COLL, Mesh2, MESH2) XCARD(coll_, COLL, Hd, HD)		\
	XCARD(coll_, COLL, Nhr, NHR) XCARD(coll_, COLL, Rb, RB)		\
	XCARD(coll_, COLL, File, FILE)

XCARD_ALL(allgather, SWCCL_ALLGATHER)
XCARD_ALL(reducescatter, SWCCL_REDUCESCATTER)
XCARD_ALL(allreduce, SWCCL_ALLREDUCE)
XCARD_ALL(broadcast, SWCCL_BROADCAST)
XCARD_ALL(reduce, SWCCL_REDUCE)
XCARD(alltoall, SWCCL_ALLTOALL, Direct, DIRECT) XCARD(alltoall, SWCCL_ALLTOALL, Plane, PLANE)
XCARD(alltoall, SWCCL_ALLTOALL, File, FILE)

void swccl_xcard_done(struct swccl_shared *sh, const struct swccl_call *c,
		      const struct swccl_algo *a, struct swccl_plan *p)
{
	struct swai_sched s;
	char why[256];

	if (swccl_xcard_sched(c, swcclAlgoName(a->algo), &s, why, sizeof(why)))
		return;
	for (int r = 0; r < s.nranks; r++)
		for (int i = 0; i < s.ranks[r].nsteps; i++) {
			const struct swai_step *st = &s.ranks[r].steps[i];
			uint64_t at, len = 1;

			if (st->op != SWAI_STEP_SEND)
				continue;
			/* AllToAllv's empty blocks send nothing; every rank knows their receivers' */
			if (c->v)
				swccl_span(c, &s, st->peer, SWAI_BUF_OUT, (uint32_t)r, 1, &at, &len);
			if (len)
				sh->xsent[r][st->peer]++;
		}
	sh->xcalls++;
	swccl_internode(c, &s, &p->internode_msgs, &p->internode_bytes);
	swai_sched_free(&s);
}

/* The topology of SWCCL_TOPO, loaded once per comm; NULL if it does not read. */
static const struct swai_topo *topo(struct swccl_shared *sh)
{
	char why[512];

	if (!sh->topo_tried) {
		sh->topo_tried = true;
		sh->topo = calloc(1, sizeof(*sh->topo));
		if (sh->topo && swai_topo_load(sh->topo, swccl_param(SWCCL_PARAM_TOPO), why,
					       sizeof(why))) {
			swccl_log(SWCCL_LOG_WARN, SWCCL_PLAN, "SWCCL_TOPO %s: %s: the algorithm "
				  "between cards is RING unless forced",
				  swccl_param(SWCCL_PARAM_TOPO), why);
			free(sh->topo);
			sh->topo = NULL;
		}
	}
	return sh->topo;
}

static double estimate(const struct swccl_call *c, const struct swccl_algo *a)
{
	struct swai_sched_cost_out out;
	struct swai_timing_props tp;
	struct swai_sched s;
	struct swai_sched_cost_in in = { .bytes = c->count * c->esize,
					 .rank_card = c->fabric_id, .card = &tp };
	char why[256];
	int ret;

	if (!c->topo)
		return a->algo == swcclAlgoRing ? 0 : -1;
	swai_timing_props_init(&tp);
	tp.ring_mbps = c->tp.ringMBps ? c->tp.ringMBps : tp.ring_mbps;
	tp.local_mbps = c->tp.localMBps ? c->tp.localMBps : tp.local_mbps;
	tp.t_dma_ns = c->tp.dmaNs;
	tp.t_barrier_ns = c->tp.barrierNs;
	if (swccl_xcard_sched(c, swcclAlgoName(a->algo), &s, why, sizeof(why)))
		return -1;
	ret = swai_sched_cost(&s, c->topo, &in, &out, why, sizeof(why));
	swai_sched_free(&s);
	if (ret) {
		swccl_log(SWCCL_LOG_INFO, SWCCL_PLAN, "%s on the topology: %s", a->name, why);
		return -1;
	}
	/* One launch for the whole call, then the schedule. */
	return (double)c->tp.launchNs / 1e3 + (double)out.ps / 1e6;
}

/*
 * @c as plane @p of a model run, with the addresses the run classifies by
 * and no history: each rank's memory of each plane in a window of its own
 * beyond every device address (39 bits), the user buffers at their offsets
 * (so in place stays in place, and ranks of other processes, whose buffers
 * mirror ours, stay apart).  The planes of a level are alike but for their
 * core groups: plane p runs where @c's would, p - c->xplane core groups on.
 */
static void model_call(const struct swccl_call *c, const struct swccl_algo *a, int p,
		       struct swccl_call *m)
{
	*m = *c;
	/* AllToAllv's blocks move with the buffers: the model's own copies */
	for (int r = 0; r < c->nranks; r++)
		if (c->v && c->r[r].pv) {
			m->r[r].pv = malloc(sizeof(*m->r[r].pv));
			if (m->r[r].pv)
				*m->r[r].pv = *c->r[r].pv;
		}
	m->xplane = p;
	m->xland_bytes = a->scratch(m);
	m->xcalls = 0;
	memset(m->xsent, 0, sizeof(m->xsent));
	for (int r = 0; r < c->nranks; r++) {
		uint64_t win = (1ULL << 50) + ((uint64_t)(r * SWAI_NUM_CG + p) << 41);
		int cg = ((c->r[r].cg + p - c->xplane) % SWAI_NUM_CG + SWAI_NUM_CG) % SWAI_NUM_CG;
		struct swccl_buf *u[2 + 2 * SWCCL_MAX_RANKS] = { &m->r[r].send, &m->r[r].recv };
		int nu = 2;

		for (int q = 0; m->r[r].pv && q < c->nranks; q++) {
			u[nu++] = &m->r[r].pv->send[q];
			u[nu++] = &m->r[r].pv->recv[q];
		}
		m->xflags[r] = win;
		m->xland[r] = win + (1ULL << 20);
		for (int k = 0; k < nu; k++) {
			if (u[k]->va)
				u[k]->va = win + (1ULL << 40) + (u[k]->va & ((1ULL << 40) - 1));
			if (u[k]->tier == SWCCL_LOCAL && u[k]->cg == c->r[r].cg)
				u[k]->cg = cg;
		}
		m->r[r].cg = cg;
	}
}

/*
 * What @a takes: @c's call and, when @c is one of the planes of a level,
 * every other plane's at the same time on the other core groups (they
 * share the links); the latest end of them all.
 */
double swccl_xcard_cost(struct swccl_shared *sh, const struct swccl_call *c,
			const struct swccl_algo *a)
{
	int np = c->xplanes > 1 && c->xplanes <= SWAI_NUM_CG ? c->xplanes : 1;
	const struct swccl_call *cp[SWAI_NUM_CG];
	const struct swccl_sched *sp[SWAI_NUM_CG];
	struct swccl_sched s[SWAI_NUM_CG];
	struct swccl_call *m;
	char why[512];
	bool nomem = false;
	double us = -1;

	if (!c->topo)
		return a->algo == swcclAlgoRing ? 0 : -1;
	if (!sh->xmodel_tried) {
		sh->xmodel_tried = true;
		sh->xmodel = swccl_xmodel_new(c, swccl_param(SWCCL_PARAM_TOPO), why, sizeof(why));
		if (!sh->xmodel)
			swccl_log(SWCCL_LOG_WARN, SWCCL_PLAN, "no model of the cards (%s): the "
				  "schedules' estimates choose", why);
	}
	if (!sh->xmodel)
		return estimate(c, a);
	m = calloc((size_t)np, sizeof(*m));
	if (!m)
		return estimate(c, a);
	for (int p = 0; p < np; p++) {
		model_call(c, a, np > 1 ? p : c->xplane, &m[p]);
		swccl_sched_init(&s[p], c->nranks, false);
		swccl_sched_algo(&s[p], &m[p], a);
		nomem |= s[p].nomem;
		cp[p] = &m[p];
		sp[p] = &s[p];
	}
	if (nomem || swccl_xmodel_run(sh->xmodel, np, cp, sp, &us, why, sizeof(why))) {
		swccl_log(SWCCL_LOG_WARN, SWCCL_PLAN, "%s between cards: %s", a->name,
			  nomem ? "no memory for its programs" : why);
		us = estimate(c, a);
	}
	for (int p = 0; p < np; p++) {
		swccl_sched_free(&s[p]);
		for (int r = 0; c->v && r < c->nranks; r++)
			if (m[p].r[r].pv != c->r[r].pv)
				free(m[p].r[r].pv);
	}
	free(m);
	return us;
}

void swccl_xcard_topo(struct swccl_shared *sh, struct swccl_call *c)
{
	c->xcard = sh->xcard;
	if (!sh->xcard)
		return;
	memcpy(c->fabric_id, sh->fabric_id, sizeof(c->fabric_id));
	memcpy(c->xreach, sh->reach, sizeof(c->xreach));
	c->xplane = sh->plane;
	c->xplanes = c->alone ? 1 : sh->planes;
	c->topo = topo(sh);
	/* The topology's nodes group the cards (PLANE); without one, a node of all. */
	for (int r = 0; r < c->nranks; r++)
		c->node[r] = c->topo ? swai_topo_card_node(c->topo, c->fabric_id[r]) : 0;
}

void swccl_xcard_free(struct swccl_shared *sh)
{
	swccl_xmodel_free(sh->xmodel);
	if (sh->topo) {
		swai_topo_free(sh->topo);
		free(sh->topo);
	}
}
