// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_nic_test - the NIC ports of swai.ko (DRM_IOCTL_SWAI_NIC_*,
 * datasheet §16) on cards whose NICs share one network (swai-vm
 * --nic-hub): ports of one's own, every refused argument, isolation
 * between files, and seed 001's reduction trees across the cards with
 * results in host memory checked bit for bit, times modeled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "swai_test.h"
#include "swai_job.h"
#include "drm/swai_nic.h"
#include "swai-nic-tree.h"

#define NCARDS 8

struct nic_card {
	int fd;
	__u32 vport, node, key;
	struct bo res;		/* host memory the result lands in */
};

static int nic_open(int fd, struct drm_swai_nic_open *o)
{
	memset(o, 0, sizeof(*o));
	return ioctl(fd, DRM_IOCTL_SWAI_NIC_OPEN, o) ? -errno : 0;
}

static int nic_close(int fd, __u32 vport)
{
	struct drm_swai_nic_close c = { .vport = vport };

	return ioctl(fd, DRM_IOCTL_SWAI_NIC_CLOSE, &c) ? -errno : 0;
}

static int nic_post(int fd, __u32 vport, const struct swai_nic_desc *d,
		    unsigned int n, __u32 *posted)
{
	uint8_t raw[DRM_SWAI_NIC_POST_MAX][SWAI_NIC_DESC_SIZE];
	struct drm_swai_nic_post p = {
		.descs = (__u64)(uintptr_t)raw, .vport = vport, .count = n,
		.not_before_ns = 1000,
	};
	int r;

	for (unsigned int i = 0; i < n; i++)
		swai_nic_desc_encode(raw[i], &d[i]);
	r = ioctl(fd, DRM_IOCTL_SWAI_NIC_POST, &p) ? -errno : 0;
	if (posted)
		*posted = p.posted;
	return r;
}

static int nic_wait(int fd, __u32 vport, struct drm_swai_nic_cqe *c,
		    __u32 max, __u32 min, __u64 timeout_ns, __u32 *count)
{
	struct drm_swai_nic_wait w = {
		.cqes = (__u64)(uintptr_t)c, .vport = vport, .max = max,
		.min = min, .timeout_ns = timeout_ns,
	};
	int r = ioctl(fd, DRM_IOCTL_SWAI_NIC_WAIT, &w) ? -errno : 0;

	if (count)
		*count = w.count;
	return r;
}

FIXTURE(nic) {
	int n;			/* cards with a NIC port */
	struct nic_card c[NCARDS];
};

FIXTURE_SETUP(nic)
{
	struct swai_card cards[SWAI_MAX_CARDS];
	int found = swai_find_cards(cards, SWAI_MAX_CARDS);

	self->n = 0;
	for (int i = 0; i < found && self->n < NCARDS; i++) {
		struct drm_swai_query_device q;
		int fd = open(cards[i].node, O_RDWR);

		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, swai_query(fd, &q));
		if (!(q.capabilities & DRM_SWAI_CAP_NIC)) {
			close(fd);
			continue;
		}
		self->c[self->n++].fd = fd;
	}
	if (self->n < 2)
		SKIP(return, "fewer than two cards with a NIC port (swai-vm --nic-hub)");
}

FIXTURE_TEARDOWN(nic)
{
	for (int i = 0; i < self->n; i++) {
		bo_free(self->c[i].fd, &self->c[i].res);
		close(self->c[i].fd);
	}
}

TEST_F(nic, ports_of_ones_own)
{
	struct drm_swai_nic_open o, first;
	__u32 got[SWAI_NIC_VPORTS];
	int fd = self->c[0].fd, other;

	ASSERT_EQ(0, nic_open(fd, &first));
	EXPECT_NE(0, first.key);
	EXPECT_LT(first.vport, SWAI_NIC_VPORTS);
	got[0] = first.vport;
	for (int i = 1; i < SWAI_NIC_VPORTS; i++) {
		ASSERT_EQ(0, nic_open(fd, &o));
		EXPECT_EQ(first.node, o.node);
		got[i] = o.vport;
	}
	EXPECT_EQ(-EBUSY, nic_open(fd, &o));
	/* Another file owns none of them: it can neither close nor post. */
	other = open("/dev/accel/accel0", O_RDWR);
	ASSERT_GE(other, 0);
	EXPECT_EQ(-EBUSY, nic_open(other, &o));
	EXPECT_EQ(-EINVAL, nic_close(other, got[3]));
	EXPECT_EQ(0, nic_close(fd, got[3]));
	EXPECT_EQ(-EINVAL, nic_close(fd, got[3]));	/* not twice */
	ASSERT_EQ(0, nic_open(other, &o));
	EXPECT_EQ(got[3], o.vport);
	close(other);				/* its port comes back */
	ASSERT_EQ(0, nic_open(fd, &o));
	EXPECT_EQ(got[3], o.vport);
	for (int i = 0; i < SWAI_NIC_VPORTS; i++)
		EXPECT_EQ(0, nic_close(fd, got[i]));
	/* Bad arguments. */
	o = (struct drm_swai_nic_open){ .flags = 1 };
	EXPECT_EQ(-1, ioctl(fd, DRM_IOCTL_SWAI_NIC_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	{
		struct drm_swai_nic_close c = { .vport = 0, .pad = 1 };

		EXPECT_EQ(-1, ioctl(fd, DRM_IOCTL_SWAI_NIC_CLOSE, &c));
		EXPECT_EQ(EINVAL, errno);
	}
	EXPECT_EQ(-EINVAL, nic_close(fd, 99));
	EXPECT_EQ(-EINVAL, nic_close(fd, 0xffffffff));
}

/* A valid REDUCE of one element from @c on its own port, sent nowhere. */
static struct swai_nic_desc lone(const struct drm_swai_nic_open *o)
{
	struct swai_nic_desc d = {
		.kind = SWAI_NIC_KIND_REDUCE, .vport = o->vport,
		.dst_vport = o->vport, .rtype = SWAI_NIC_OP_SUM,
		.dtype = SWAI_NIC_T_FLOAT, .width = 8, .src = o->node,
		.dst = SWAI_NIC_NODE_NONE,
	};

	d.v.count = 1;
	return d;
}

TEST_F(nic, refused_posts_and_waits)
{
	struct drm_swai_nic_cqe cqe[4];
	struct drm_swai_nic_open o;
	struct swai_nic_desc d[3];
	struct drm_swai_nic_post p;
	int fd = self->c[0].fd;
	__u32 posted, n;
	__u64 t0;

	ASSERT_EQ(0, nic_open(fd, &o));
	d[0] = lone(&o);
	EXPECT_EQ(-EINVAL, nic_post(fd, o.vport, d, 0, NULL));
	p = (struct drm_swai_nic_post){ .descs = 8, .vport = o.vport, .count = 1 };
	EXPECT_EQ(-1, ioctl(fd, DRM_IOCTL_SWAI_NIC_POST, &p));
	EXPECT_EQ(EFAULT, errno);
	p.count = DRM_SWAI_NIC_POST_MAX + 1;
	EXPECT_EQ(-1, ioctl(fd, DRM_IOCTL_SWAI_NIC_POST, &p));
	EXPECT_EQ(EINVAL, errno);
	/* Not this port's, not this node's, no such kind: before the card. */
	d[0].vport = (o.vport + 1) % SWAI_NIC_VPORTS;
	EXPECT_EQ(-EINVAL, nic_post(fd, o.vport, d, 1, NULL));
	d[0] = lone(&o);
	d[0].src = o.node + 1;
	EXPECT_EQ(-EINVAL, nic_post(fd, o.vport, d, 1, NULL));
	d[0] = lone(&o);
	d[0].kind = 9;
	EXPECT_EQ(-EINVAL, nic_post(fd, o.vport, d, 1, NULL));
	/* What only the card checks (an ALU width) stops the call there. */
	d[0] = lone(&o);
	d[1] = lone(&o);
	d[1].width = 3;
	d[2] = lone(&o);
	EXPECT_EQ(-EINVAL, nic_post(fd, o.vport, d, 3, &posted));
	EXPECT_EQ(1, posted);
	/* Another file's port. */
	{
		int other = open("/dev/accel/accel0", O_RDWR);

		ASSERT_GE(other, 0);
		EXPECT_EQ(-EINVAL, nic_post(other, o.vport, d, 1, NULL));
		EXPECT_EQ(-EINVAL, nic_wait(other, o.vport, cqe, 4, 0, 0, NULL));
		close(other);
	}
	/* The one taken ran (a lone REDUCE ends at once). */
	ASSERT_EQ(0, nic_wait(fd, o.vport, cqe, 4, 1, 1000000000ULL, &n));
	EXPECT_EQ(1, n);
	EXPECT_EQ(SWAI_NIC_OK, cqe[0].status);
	EXPECT_EQ(SWAI_NIC_KIND_REDUCE, cqe[0].kind);
	EXPECT_EQ(0, cqe[0].index);
	/* Waits: nothing more comes, bounded; bad sizes. */
	t0 = now_ns();
	EXPECT_EQ(-ETIME, nic_wait(fd, o.vport, cqe, 4, 1, 50000000ULL, &n));
	EXPECT_EQ(0, n);
	EXPECT_LT(now_ns() - t0, 2000000000ULL);
	EXPECT_EQ(-EINVAL, nic_wait(fd, o.vport, cqe, 0, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, nic_wait(fd, o.vport, cqe, 4, 5, 0, NULL));
	EXPECT_EQ(-EINVAL, nic_wait(fd, o.vport, cqe, 2000, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, nic_wait(fd, o.vport, cqe, 4, 0, 61000000000ULL, NULL));
	/* Completions to a bad pointer: -EFAULT, never a crash. */
	d[0] = lone(&o);
	ASSERT_EQ(0, nic_post(fd, o.vport, d, 1, NULL));
	usleep(100000);
	EXPECT_EQ(-EFAULT, nic_wait(fd, o.vport, (void *)8, 4, 1, 1000000000ULL, NULL));
}

/* Every card's result lands in its own pinned host page. */
static void setup_ranks(struct __test_metadata *_metadata,
			FIXTURE_DATA(nic) *self, int n)
{
	for (int i = 0; i < n; i++) {
		struct drm_swai_nic_open o;

		ASSERT_EQ(0, nic_open(self->c[i].fd, &o));
		self->c[i].vport = o.vport;
		self->c[i].node = o.node;
		self->c[i].key = o.key;
		ASSERT_EQ(0, host_bo(self->c[i].fd, 4096, &self->c[i].res));
	}
}

/* One AllReduce of @n ranks (cards 0..n-1) of branching degree @k. */
static void tree(struct __test_metadata *_metadata, FIXTURE_DATA(nic) *self,
		 int n, unsigned int k, unsigned int rtype, unsigned int dtype,
		 unsigned int width, unsigned int count, __u64 *end_ns)
{
	struct swai_nic_desc d[SWAI_NIC_TREE_MAX_DESCS];
	struct swai_nic_vec data[NCARDS], want;
	struct drm_swai_nic_cqe cqe[SWAI_NIC_TREE_MAX_DESCS];
	uint16_t node[NCARDS];
	int m[NCARDS];
	const char *why;

	for (int r = 0; r < n; r++) {
		node[r] = self->c[r].node;
		data[r] = (struct swai_nic_vec){ .count = count };
		for (unsigned int i = 0; i < count; i++) {
			uint64_t x = (r + 3) * 0x9e3779b97f4a7c15ULL + i * 977;

			if (dtype == SWAI_NIC_T_FLOAT && width == 8) {
				double v = ldexp((double)(x % 100003), (int)(x % 40) - 20);

				memcpy(data[r].data + 8 * i, &v, 8);
			} else {
				memcpy(data[r].data + width * i, &x, width);
			}
			data[r].loc[i] = r;
		}
	}
	/* Every rank's port has its own key: the tree's packets carry the
	 * destination's (each rank learns its parent's and children's). */
	for (int r = 0; r < n; r++) {
		struct swai_nic_tree t = {
			SWAI_NIC_TREE_ALLREDUCE, n, k, 0, self->c[r].vport, rtype,
			dtype, width, count, node, self->c[r].res.va,
		};

		m[r] = swai_nic_tree_build(&t, r, &data[r], d,
					   SWAI_NIC_TREE_MAX_DESCS, &why);
		ASSERT_GT(m[r], 0) TH_LOG("%s", why);
		for (int i = 0; i < m[r]; i++) {
			for (int p = 0; p < n; p++) {
				if (d[i].dst == self->c[p].node) {
					d[i].dst_vport = self->c[p].vport;
					d[i].key = self->c[p].key;
				}
			}
		}
		ASSERT_EQ(0, nic_post(self->c[r].fd, self->c[r].vport, d, m[r], NULL));
	}
	/* The reference: the tree's own order (swai-nic-tree.h), on the host. */
	{
		struct swai_nic_tree t = {
			SWAI_NIC_TREE_ALLREDUCE, n, k, 0, 0, rtype, dtype, width,
			count, node, 0,
		};
		struct swai_nic_vec res[NCARDS];

		for (int v = n - 1; v >= 0; v--) {
			int first = k * v + 1, any = 0;

			for (int c = first; c < n && c < first + (int)k; c++) {
				if (!any)
					res[v] = res[c];
				else
					swai_nic_alu(&res[v], &res[c], rtype, dtype, width);
				any = 1;
			}
			if (any)
				swai_nic_alu(&res[v], &data[v], rtype, dtype, width);
			else
				res[v] = data[v];
		}
		want = res[0];
		(void)t;
	}
	*end_ns = 0;
	for (int r = 0; r < n; r++) {
		__u32 got = 0;

		ASSERT_EQ(0, nic_wait(self->c[r].fd, self->c[r].vport, cqe,
				      SWAI_NIC_TREE_MAX_DESCS, m[r], 5000000000ULL, &got));
		ASSERT_EQ(m[r], got);
		for (int i = 0; i < m[r]; i++) {
			EXPECT_EQ(SWAI_NIC_OK, cqe[i].status) TH_LOG("rank %d desc %d", r, i);
			if (cqe[i].time_ns > *end_ns)
				*end_ns = cqe[i].time_ns;
		}
		EXPECT_EQ(0, memcmp(self->c[r].res.cpu, want.data, count * width))
			TH_LOG("rank %d of %d (k %u): the result differs", r, n, k);
	}
}

TEST_F(nic, allreduce_trees_across_cards)
{
	__u64 end, e[3];

	setup_ranks(_metadata, self, self->n);
	for (int n = 2; n <= self->n; n++) {
		for (unsigned int k = 1; k <= 3; k++) {
			tree(_metadata, self, n, k, SWAI_NIC_OP_SUM, SWAI_NIC_T_FLOAT,
			     8, 6, &end);
			TH_LOG("n %d k %u: modeled end %llu ns", n, k,
			       (unsigned long long)end);
		}
	}
	/*
	 * A port runs its descriptors in order, so each call starts when the
	 * one before ended: the same call three times takes the same modeled
	 * time each time, whatever the guest and QEMU's threads did (to the
	 * ns: completions round picoseconds up, and a call need not start on
	 * a whole ns).
	 */
	for (int i = 0; i < 3; i++)
		tree(_metadata, self, self->n, 2, SWAI_NIC_OP_SUM, SWAI_NIC_T_FLOAT,
		     8, 6, &e[i]);
	EXPECT_LE(llabs((long long)(e[1] - e[0]) - (long long)(e[2] - e[1])), 1);
	TH_LOG("%d cards, k 2: %llu ns a call", self->n,
	       (unsigned long long)(e[2] - e[1]));
}

TEST_F(nic, allreduce_types_and_ops)
{
	static const struct { unsigned int op, dt, w, n; } cases[] = {
		{ SWAI_NIC_OP_SUM, SWAI_NIC_T_SINT, 8, 6 },
		{ SWAI_NIC_OP_SUM, SWAI_NIC_T_UINT, 4, 12 },
		{ SWAI_NIC_OP_MAXLOC, SWAI_NIC_T_FLOAT, 8, 6 },
		{ SWAI_NIC_OP_MINLOC, SWAI_NIC_T_SINT, 4, 11 },
		{ SWAI_NIC_OP_BXOR, SWAI_NIC_T_UINT, 8, 1 },
		{ SWAI_NIC_OP_LOR, SWAI_NIC_T_UINT, 4, 3 },
	};
	__u64 end;

	setup_ranks(_metadata, self, self->n);
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tree(_metadata, self, self->n, 2, cases[i].op, cases[i].dt,
		     cases[i].w, cases[i].n, &end);
}

TEST_F(nic, keys_and_faults)
{
	struct drm_swai_nic_cqe cqe[2];
	struct swai_nic_desc d;
	__u32 got;

	setup_ranks(_metadata, self, 2);
	/* A PUT with the wrong key: refused at card 1, nothing written. */
	d = (struct swai_nic_desc){
		.kind = SWAI_NIC_KIND_PUT, .flags = SWAI_NIC_F_CP,
		.vport = self->c[0].vport, .dst_vport = self->c[1].vport,
		.rtype = SWAI_NIC_OP_SUM, .dtype = SWAI_NIC_T_UINT, .width = 8,
		.src = self->c[0].node, .dst = self->c[1].node,
		.key = self->c[1].key ^ 0x100, .addr = self->c[1].res.va,
	};
	d.v.count = 1;
	memset(d.v.data, 0x5a, 8);
	ASSERT_EQ(0, nic_post(self->c[0].fd, self->c[0].vport, &d, 1, NULL));
	ASSERT_EQ(0, nic_wait(self->c[1].fd, self->c[1].vport, cqe, 2, 1,
			      2000000000ULL, &got));
	EXPECT_EQ(SWAI_NIC_E_KEY, cqe[0].status);
	EXPECT_EQ(0xffffffffu, cqe[0].index);
	EXPECT_EQ(0, ((uint8_t *)self->c[1].res.cpu)[0]);
	/* The right key: it lands. */
	d.key = self->c[1].key;
	ASSERT_EQ(0, nic_post(self->c[0].fd, self->c[0].vport, &d, 1, NULL));
	for (int i = 0; i < 200 && ((uint8_t *)self->c[1].res.cpu)[0] != 0x5a; i++)
		usleep(10000);
	EXPECT_EQ(0x5a, ((uint8_t *)self->c[1].res.cpu)[7]);
	/* A PUT to an address the receiver never mapped: E_FAULT there. */
	d.addr = 0x7000000000ULL;
	ASSERT_EQ(0, nic_post(self->c[0].fd, self->c[0].vport, &d, 1, NULL));
	ASSERT_EQ(0, nic_wait(self->c[1].fd, self->c[1].vport, cqe, 2, 1,
			      2000000000ULL, &got));
	EXPECT_EQ(SWAI_NIC_E_FAULT, cqe[0].status);
}

/*
 * 1 MiB on card @from (*src, filled with a pattern of @mul over @n bytes)
 * and on card @to (*dst, zeroed): Global-HBM, or core group 0's Local-HBM
 * on a card split all Local.  0, or -1.
 */
static int two_bos(FIXTURE_DATA(nic) *self, int from, int to, struct bo *src,
		   struct bo *dst, size_t n, unsigned int mul)
{
	if (dev_bo(self->c[from].fd, DRM_SWAI_MEM_GLOBAL, 1 << 20, src) &&
	    dev_bo(self->c[from].fd, DRM_SWAI_MEM_LOCAL(0), 1 << 20, src))
		return -1;
	if (dev_bo(self->c[to].fd, DRM_SWAI_MEM_GLOBAL, 1 << 20, dst) &&
	    dev_bo(self->c[to].fd, DRM_SWAI_MEM_LOCAL(0), 1 << 20, dst))
		return -1;
	for (size_t i = 0; i < n; i++)
		((uint8_t *)src->cpu)[i] = (uint8_t)(i * mul + 7);
	memset(dst->cpu, 0, 1 << 20);
	return 0;
}

/* A descriptor of card 0 that moves @len bytes with card 1: @addr there, @here on card 0. */
static struct swai_nic_desc to_card1(FIXTURE_DATA(nic) *self, unsigned int kind,
				     unsigned int flags, __u64 addr, __u64 here, __u32 len)
{
	return (struct swai_nic_desc){
		.kind = kind, .flags = flags, .vport = self->c[0].vport,
		.dst_vport = self->c[1].vport, .src = self->c[0].node, .dst = self->c[1].node,
		.key = self->c[1].key, .addr = addr, .src_addr = here, .len = len,
	};
}

/* The status of the next completion on card @k's port, or -1 (none within 5 s). */
static int next_end(FIXTURE_DATA(nic) *self, int k)
{
	struct drm_swai_nic_cqe cqe;
	__u32 got;

	if (nic_wait(self->c[k].fd, self->c[k].vport, &cqe, 1, 1, 5000000000ULL, &got))
		return -1;
	return cqe.status;
}

/* Post @d on card 0: the status it ends with, or -1. */
static int post_end(FIXTURE_DATA(nic) *self, const struct swai_nic_desc *d)
{
	return nic_post(self->c[0].fd, self->c[0].vport, d, 1, NULL) ? -1 : next_end(self, 0);
}

/* RDMA WRITE from one card's HBM to another's, through both contexts. */
TEST_F(nic, write_between_cards)
{
	struct swai_nic_desc d;
	struct bo src = { 0 }, dst = { 0 };
	size_t n = 300000;

	setup_ranks(_metadata, self, 2);
	ASSERT_EQ(0, two_bos(self, 0, 1, &src, &dst, n, 131));
	d = to_card1(self, SWAI_NIC_KIND_WRITE, SWAI_NIC_F_CP, dst.va, src.va, (__u32)n);
	EXPECT_EQ(SWAI_NIC_OK, post_end(self, &d));
	/* The receiver knows it is all there by a descriptor on its count. */
	d = lone(&(struct drm_swai_nic_open){ .vport = self->c[1].vport,
					       .node = self->c[1].node });
	d.cpcnt = 1;
	ASSERT_EQ(0, nic_post(self->c[1].fd, self->c[1].vport, &d, 1, NULL));
	EXPECT_EQ(SWAI_NIC_OK, next_end(self, 1));
	EXPECT_EQ(0, memcmp(src.cpu, dst.cpu, n));
	/* A WRITE beyond what the sender's context maps faults there. */
	d = to_card1(self, SWAI_NIC_KIND_WRITE, 0, dst.va, 0x7000000000ULL, 4096);
	EXPECT_EQ(SWAI_NIC_E_FAULT, post_end(self, &d));
	bo_free(self->c[0].fd, &src);
	bo_free(self->c[1].fd, &dst);
}

/*
 * RDMA READ: card 0 takes 300000 bytes of card 1's HBM into its own,
 * through both contexts, and its READ ends when they are there; a READ
 * card 1's port refuses (the wrong key, memory it does not map) ends with
 * the refusal, and card 1 reports it too.
 */
TEST_F(nic, read_between_cards)
{
	struct swai_nic_desc d;
	struct bo src = { 0 }, dst = { 0 };
	size_t n = 300000;

	setup_ranks(_metadata, self, 2);
	ASSERT_EQ(0, two_bos(self, 1, 0, &src, &dst, n, 151));
	d = to_card1(self, SWAI_NIC_KIND_READ, SWAI_NIC_F_CP, src.va, dst.va, (__u32)n);
	EXPECT_EQ(SWAI_NIC_OK, post_end(self, &d));
	EXPECT_EQ(0, memcmp(src.cpu, dst.cpu, n));
	/* Its last packet counted here: a descriptor on that count fires. */
	d = lone(&(struct drm_swai_nic_open){ .vport = self->c[0].vport,
					       .node = self->c[0].node });
	d.cpcnt = 1;
	EXPECT_EQ(SWAI_NIC_OK, post_end(self, &d));
	/* The wrong key: refused at card 1, and card 0's READ ends with it. */
	d = to_card1(self, SWAI_NIC_KIND_READ, 0, src.va, dst.va, 4096);
	d.key ^= 0x100;
	memset(dst.cpu, 0, 4096);
	EXPECT_EQ(SWAI_NIC_E_KEY, post_end(self, &d));
	EXPECT_EQ(0, ((uint8_t *)dst.cpu)[1]);
	EXPECT_EQ(SWAI_NIC_E_KEY, next_end(self, 1));
	/* Memory card 1's context does not map: FAULT at both ends. */
	d.key = self->c[1].key;
	d.addr = 0x7000000000ULL;
	EXPECT_EQ(SWAI_NIC_E_FAULT, post_end(self, &d));
	EXPECT_EQ(SWAI_NIC_E_FAULT, next_end(self, 1));
	bo_free(self->c[1].fd, &src);
	bo_free(self->c[0].fd, &dst);
}

/*
 * SEND and RECV: card 1 posts two RECVs, card 0 SENDs 200000 and 5000
 * bytes, each lands in its RECV in order and card 1's RECVs end; a SEND
 * with no RECV posted is E_RNR there, one of another length E_LENGTH.
 */
TEST_F(nic, send_recv_between_cards)
{
	struct drm_swai_nic_cqe cqe[4];
	struct swai_nic_desc d[2];
	struct bo src = { 0 }, dst = { 0 };
	__u32 got;
	size_t n = 200000;

	setup_ranks(_metadata, self, 2);
	ASSERT_EQ(0, two_bos(self, 0, 1, &src, &dst, n + 5000, 29));
	for (int k = 0; k < 2; k++)
		d[k] = (struct swai_nic_desc){
			.kind = SWAI_NIC_KIND_RECV, .vport = self->c[1].vport,
			.src = self->c[1].node, .dst = SWAI_NIC_NODE_NONE,
			.src_addr = dst.va + (k ? n + 4096 : 0), .len = k ? 5000 : (uint32_t)n,
		};
	ASSERT_EQ(0, nic_post(self->c[1].fd, self->c[1].vport, d, 2, NULL));
	for (int k = 0; k < 2; k++)
		d[k] = to_card1(self, SWAI_NIC_KIND_SEND, 0, 0, src.va + (k ? n : 0),
				k ? 5000 : (__u32)n);
	ASSERT_EQ(0, nic_post(self->c[0].fd, self->c[0].vport, d, 2, NULL));
	ASSERT_EQ(0, nic_wait(self->c[1].fd, self->c[1].vport, cqe, 4, 2, 5000000000ULL, &got));
	ASSERT_EQ(2, got);
	for (int k = 0; k < 2; k++) {
		EXPECT_EQ(SWAI_NIC_OK, cqe[k].status);
		EXPECT_EQ(SWAI_NIC_KIND_RECV, cqe[k].kind);
		EXPECT_EQ((__u32)k, cqe[k].index);
	}
	EXPECT_EQ(0, memcmp(src.cpu, dst.cpu, n));
	EXPECT_EQ(0, memcmp((uint8_t *)src.cpu + n, (uint8_t *)dst.cpu + n + 4096, 5000));
	EXPECT_EQ(0, ((uint8_t *)dst.cpu)[n + 1]);	/* nothing between them */
	ASSERT_EQ(0, nic_wait(self->c[0].fd, self->c[0].vport, cqe, 4, 2, 5000000000ULL, &got));
	/* No RECV posted: E_RNR at card 1. */
	ASSERT_EQ(0, nic_post(self->c[0].fd, self->c[0].vport, &d[1], 1, NULL));
	EXPECT_EQ(SWAI_NIC_E_RNR, next_end(self, 1));
	/* A RECV of another length: E_LENGTH, and nothing written. */
	d[0] = (struct swai_nic_desc){
		.kind = SWAI_NIC_KIND_RECV, .vport = self->c[1].vport, .src = self->c[1].node,
		.dst = SWAI_NIC_NODE_NONE, .src_addr = dst.va, .len = 4000,
	};
	memset(dst.cpu, 0, 8192);
	ASSERT_EQ(0, nic_post(self->c[1].fd, self->c[1].vport, d, 1, NULL));
	ASSERT_EQ(0, nic_post(self->c[0].fd, self->c[0].vport, &d[1], 1, NULL));
	EXPECT_EQ(SWAI_NIC_E_LENGTH, next_end(self, 1));
	EXPECT_EQ(0, ((uint8_t *)dst.cpu)[1]);
	/* The driver refuses a RECV that names a peer. */
	d[0].dst = self->c[0].node;
	EXPECT_EQ(-EINVAL, nic_post(self->c[1].fd, self->c[1].vport, d, 1, NULL));
	bo_free(self->c[0].fd, &src);
	bo_free(self->c[1].fd, &dst);
}

/* A process killed with descriptors waiting: its ports close, nothing hangs. */
TEST_F(nic, killed_owner)
{
	struct drm_swai_nic_open o;
	int st;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd = open("/dev/accel/accel0", O_RDWR);
		struct swai_nic_desc d[16];

		if (fd < 0 || nic_open(fd, &o))
			_exit(1);
		for (int i = 0; i < 16; i++) {
			d[i] = lone(&o);
			d[i].cpcnt = 5;		/* waits forever */
		}
		if (nic_post(fd, o.vport, d, 16, NULL))
			_exit(2);
		kill(getpid(), SIGKILL);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st));
	/* All 16 ports are free again. */
	for (int i = 0; i < SWAI_NIC_VPORTS; i++)
		EXPECT_EQ(0, nic_open(self->c[0].fd, &o));
}

TEST_HARNESS_MAIN
