// SPDX-License-Identifier: MIT
/*
 * swccl-bench-launch.c - swccl-bench under a launcher: tools/vm/swai-cluster
 * (or anything that gives torchrun's environment) runs one swccl-bench on
 * every node with WORLD_SIZE (nodes), RANK (this node), MASTER_ADDR and
 * MASTER_PORT.  The node's swccl-bench then becomes one process per card
 * (--cards M of them, else SWAI_CARDS_PER_NODE, else every card it sees),
 * each one rank of a communicator of all the cards of all the nodes,
 * joined as NCCL's processes join: SWCCL_COMM_ID = MASTER_ADDR:MASTER_PORT
 * (swcclGetUniqueId makes the same id everywhere; rank 0 serves it).
 * Global rank 0 prints the rows; every process checks its own output, and
 * the node's swccl-bench fails if any of its processes did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm/swai_accel.h>

#include "swccl-bench.h"

static long env_long(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 10) : -1;
}

bool bench_launched(void)
{
	return env_long("WORLD_SIZE") > 1 && env_long("RANK") >= 0 && getenv("MASTER_ADDR");
}

/* Cards this process sees, in device order; the first device of each. */
static int cards(int *first, int max)
{
	struct sdaaDeviceProp p;
	int n = 0, ndev, seen[64];

	if (sdaaGetDeviceCount(&ndev))
		return 0;
	for (int d = 0; d < ndev && n < max; d++) {
		int k = 0;

		if (sdaaGetDeviceProperties(&p, d))
			return 0;
		while (k < n && seen[k] != p.card)
			k++;
		if (k == n) {
			seen[n] = p.card;
			first[n++] = d;
		}
	}
	return n;
}

static pid_t kids[64];
static int nkids;

int bench_launch(struct bench *b)
{
	int nodes = (int)env_long("WORLD_SIZE"), node = (int)env_long("RANK");
	int per = b->o.cards ? b->o.cards : (int)env_long("SWAI_CARDS_PER_NODE");
	int first[64], have, j = 0;
	char id[96];

	if (!getenv("SWCCL_COMM_ID")) {
		snprintf(id, sizeof(id), "%s:%s", getenv("MASTER_ADDR"),
			 getenv("MASTER_PORT") ? getenv("MASTER_PORT") : "29500");
		setenv("SWCCL_COMM_ID", id, 1);
	}
	/* fork before libsdaa starts (runtime.md): count the cards in a child. */
	if (per <= 0) {
		int fd[2];
		pid_t p;

		if (pipe(fd) || (p = fork()) < 0)
			return -1;
		if (!p) {
			int n = cards(first, 64);

			if (write(fd[1], &n, sizeof(n)) != sizeof(n))
				_exit(1);
			_exit(0);
		}
		close(fd[1]);
		if (read(fd[0], &per, sizeof(per)) != sizeof(per))
			per = 0;
		close(fd[0]);
		waitpid(p, NULL, 0);
	}
	if (per <= 0 || per > 64 || nodes * per > BENCH_MAX_RANKS) {
		fprintf(stderr, "swccl-bench: %d nodes x %d cards: 1..%d ranks in all\n", nodes,
			per, BENCH_MAX_RANKS);
		return -1;
	}
	/* One process per card: card j is rank node * per + j. */
	for (j = 1; j < per; j++) {
		pid_t p = fork();

		if (p < 0)
			return -1;
		if (!p) {
			nkids = 0;
			break;
		}
		kids[nkids++] = p;
	}
	if (j == per)
		j = 0;
	have = cards(first, 64);
	if (have < per) {
		fprintf(stderr, "swccl-bench: node %d has %d cards, %d asked\n", node, have, per);
		exit(1);
	}
	b->nodes = nodes;
	b->world = nodes * per;
	b->base = node * per + j;
	b->o.nranks = 1;
	b->o.cards = 1;
	b->o.per_card = 1;
	b->dev[0] = first[j];
	if (b->base && !freopen("/dev/null", "w", stdout))
		return -1;
	return 0;
}

int bench_launch_end(int status)
{
	for (int i = 0; i < nkids; i++) {
		int st;

		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st))
			status = 1;
	}
	return status;
}
