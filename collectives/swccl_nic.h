/* SPDX-License-Identifier: MIT */
/*
 * swccl_nic.h - the NIC transport: collectives whose messages cross the
 * cards' NIC ports (Documentation/datasheet.md §16) instead of the fabric,
 * between any ranks -- on one card, across cards, across nodes.
 *
 * Two algorithms, both seed 001's reduction tree of branching degree
 * SWCCL_NIC_BRANCH (default 4) over the ranks, for AllReduce, Reduce and
 * Broadcast of at most 48 bytes (one descriptor's data):
 *   NIC   offloaded: every rank posts its leaf/intermediate/root
 *         descriptors once (tools/card/swai-nic-tree.h); the NICs combine
 *         and broadcast, the result lands in each rank's buffer.
 *   HOST  the same tree in software, as MPI over a NIC does it: a rank's
 *         host waits for its children's partials (PUT into its staging),
 *         combines them on the CPU in the same order, and puts the result
 *         on -- every level through the host.
 * Both combine in child order, so both give the same bits.
 */
#ifndef SWCCL_NIC_H
#define SWCCL_NIC_H

#include "swai-nic.h"
#include "swai-nic-tree.h"
#include "swccl_comm.h"

struct swccl_plan;

/* Where a rank's NIC port is, as every rank learns it. */
struct swccl_nic_peer {
	uint32_t node, vport, key, pad;
	uint64_t stage;			/* device VA of its staging (HOST's partials) */
};

/* Staging: a slot per child, the result (HOST), the input read from the card. */
#define SWCCL_NIC_SLOT		64
#define SWCCL_NIC_RES_SLOT	SWAI_NIC_BRANCH_MAX
#define SWCCL_NIC_IN_SLOT	(SWAI_NIC_BRANCH_MAX + 1)
#define SWCCL_NIC_STAGE		((SWAI_NIC_BRANCH_MAX + 2) * SWCCL_NIC_SLOT)

struct swccl_nic {
	struct swccl_nic_peer peer[SWCCL_MAX_RANKS];
	sdaaNicPort_t port[SWCCL_MAX_RANKS];	/* this process's ranks */
	void *stage[SWCCL_MAX_RANKS];		/* their staging, pinned host memory */
};

/* NULL if @algo (NIC or HOST) can run @c, else why not. */
const char *swccl_nic_unsupported(const struct swccl_call *c, swcclAlgo_t algo);
/* Every rank's port, opened and known to all (once per comm). */
swcclResult_t swccl_nic_setup(struct swccl_shared *sh, swcclComm_t comm0);
void swccl_nic_free(struct swccl_shared *sh);
/* The tree's branching degree (SWCCL_NIC_BRANCH). */
unsigned int swccl_nic_branch(void);
/* The ALU's names for @c's type and operation. */
void swccl_nic_types(const struct swccl_call *c, unsigned int *rtype, unsigned int *dtype,
		     unsigned int *width);

/*
 * swccl_nic_tree.c: the two trees, on what runs them (the cards' ports, or
 * their model): one call as the trees see it ...
 */
struct swccl_nic_job {
	int coll;			/* enum swai_nic_tree_coll */
	int nranks, root;
	unsigned int k, rtype, dtype, width, count;
	const struct swccl_nic_peer *peer;	/* [nranks] */
	bool local[SWCCL_MAX_RANKS];		/* ranks this process runs */
	uint64_t recv[SWCCL_MAX_RANKS];		/* where each result goes (0: nowhere) */
	struct swai_nic_vec data[SWCCL_MAX_RANKS];	/* the local ranks' inputs */
	uint64_t start_ns;			/* when the hosts start (modeled) */
	uint64_t lag_ns[SWCCL_MAX_RANKS];	/* and each rank this much later (its input's copy) */
	uint64_t sync_ns;			/* HOST: a host learns of a completion this late */
	swcclComm_t comm;			/* failures are its (NULL: the thread's) */
};

/* ... and what runs them.  Every function returns 0 or fails the call. */
struct swccl_nic_io {
	void *o;
	/* Queue @n descriptors on rank @r's port at modeled @at_ns. */
	swcclResult_t (*post)(void *o, int r, const struct swai_nic_desc *d, int n,
			      uint64_t at_ns);
	/*
	 * Take @n completions of rank @r's port, all OK; *end_ns the latest.
	 * swcclTimeout (no message: the tree says who it waited for) when
	 * only *done came within SWCCL_TIMEOUT.
	 */
	swcclResult_t (*wait)(void *o, int r, int n, uint64_t *end_ns, int *done);
	/* @len bytes of rank @r's staging from @off. */
	void (*read_stage)(void *o, int r, size_t off, void *buf, size_t len);
};

/* Run @j offloaded (NIC) or in software (HOST); *end_ns its last completion. */
swcclResult_t swccl_nic_tree_offload(const struct swccl_nic_job *j,
				     const struct swccl_nic_io *io, uint64_t *end_ns);
swcclResult_t swccl_nic_tree_host(const struct swccl_nic_job *j,
				  const struct swccl_nic_io *io, uint64_t *end_ns);

/* swccl_nic_model.c: the modeled time of @j (ns, from its start), on the NIC engines. */
swcclResult_t swccl_nic_model(const struct swccl_nic_job *j, swcclAlgo_t algo,
			      const struct sdaaTimingParams *tp, uint64_t *ns);

/* swccl_nic_run.c: plan @c for c->want (NIC or HOST): the algorithm and its model's time. */
swcclResult_t swccl_nic_plan(struct swccl_shared *sh, struct swccl_call *c,
			     struct swccl_plan *p, swcclComm_t comm0);
/*
 * AUTO: should @c go over the NICs?  @best is the cards' best plan (NULL:
 * none can run); true with *p the NIC's plan if it is cheaper.
 */
bool swccl_nic_auto(struct swccl_shared *sh, struct swccl_call *c, const struct swccl_plan *best,
		    struct swccl_plan *p, swcclComm_t comm0);
/* Run @c with p->algo (NIC or HOST) for this process's ranks. */
swcclResult_t swccl_nic_run(struct swccl_shared *sh, struct swccl_call *c,
			    struct swccl_plan *p, swcclComm_t comm0);

#endif /* SWCCL_NIC_H */
