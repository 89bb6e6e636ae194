// SPDX-License-Identifier: MIT
/*
 * swccl_bootstrap.c - the ranks of a communicator find each other over TCP
 * (swccl_bootstrap.h).
 *
 * The id is text: "swccl-tcp <IPv4> <port> <nonce>".  The root is a thread
 * of the process that made the id; it accepts the ranks' hellos (rank,
 * nranks, a record), and when all nranks have come it answers each with
 * every record, or with why not (a duplicate rank, ranks that disagree on
 * nranks or record size, ranks that never came within SWCCL_TIMEOUT of the
 * first) -- then it ends.  The nonce makes a stray connection (an old id,
 * a port reused) an error instead of a wrong communicator.
 *
 * Rank 0 listens too before it says hello, and puts its address (the one
 * its connection to the root left from, so one that reaches the others)
 * into its record; the other ranks connect to it after the join.  Later
 * exchanges go through rank 0: it reads every rank's part in rank order,
 * then sends the whole to each.  So no rank waits on more than one socket,
 * and a peer that exits shows as an end of file on one.
 */
#define _GNU_SOURCE	/* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "swccl_bootstrap.h"
#include "swccl_comm.h"

#define BOOT_MAGIC	0x53574342u	/* "SWCB" */
#define ID_PREFIX	"swccl-tcp "
#define MAX_RECORD	(64u << 10)

enum { HELLO_ROOT = 1, HELLO_HUB = 2 };

struct hello {
	uint32_t magic, kind;
	uint64_t nonce;
	int32_t rank, nranks;
	uint32_t len, pad;
};

/* What a rank tells everyone beyond its record: where rank 0 listens. */
struct hub_addr {
	uint32_t ip;		/* network order */
	uint16_t port;		/* network order */
	uint16_t pad;
};

struct reply {
	uint32_t magic;
	int32_t status;		/* 0, or a failure described in msg */
	uint32_t len;		/* bytes that follow */
	uint32_t pad;
	char msg[192];
};

struct swccl_boot {
	int rank, nranks;
	uint64_t nonce;
	int fd[SWCCL_MAX_RANKS];	/* rank 0: each peer's; others: fd[0], rank 0 */
};

struct root {
	int lfd;
	uint64_t nonce;
	double timeout_s;	/* for the rest once the first has come */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait for @ev on @fd until @deadline: 1 ready, 0 timed out, -1 error. */
static int wait_fd(int fd, short ev, double deadline)
{
	struct pollfd p = { .fd = fd, .events = ev };

	for (;;) {
		double left = deadline - now_s();
		int r;

		if (left <= 0)
			return 0;
		r = poll(&p, 1, left > 1 ? 1000 : (int)(left * 1000) + 1);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

/* All @len bytes, or -1 (errno: ETIMEDOUT, EPIPE for an end of file, ...). */
static int send_all(int fd, const void *buf, size_t len, double deadline)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w;

		if (wait_fd(fd, POLLOUT, deadline) <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		w = send(fd, p, len, MSG_NOSIGNAL);
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int recv_all(int fd, void *buf, size_t len, double deadline)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t r;

		if (wait_fd(fd, POLLIN, deadline) <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = recv(fd, p, len, 0);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r == 0)
			errno = EPIPE;
		if (r <= 0)
			return -1;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

static const char *io_error(void)
{
	return errno == ETIMEDOUT ? "no answer within SWCCL_TIMEOUT" :
	       errno == EPIPE || errno == ECONNRESET ? "it closed the connection (exited?)" :
	       strerror(errno);
}

static int listen_on(uint32_t ip, uint16_t port, uint16_t *bound)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = ip,
				 .sin_port = port };
	socklen_t al = sizeof(a);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, SWCCL_MAX_RANKS * 2) ||
	    getsockname(fd, (struct sockaddr *)&a, &al)) {
		close(fd);
		return -1;
	}
	*bound = a.sin_port;
	return fd;
}

/* Connect, retrying while nobody listens yet, until @deadline. */
static int connect_to(uint32_t ip, uint16_t port, double deadline)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = ip,
				 .sin_port = port };
	int one = 1;

	for (;;) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a))) {
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			return fd;
		}
		close(fd);
		/*
		 * Not listening yet, or its node not up yet (no ARP answer: the
		 * launcher starts the nodes together, and a slow one boots
		 * later): try again until the deadline, as NCCL's bootstrap does.
		 */
		if ((errno != ECONNREFUSED && errno != EINTR && errno != ETIMEDOUT &&
		     errno != EHOSTUNREACH && errno != ENETUNREACH && errno != EHOSTDOWN) ||
		    now_s() > deadline)
			return -1;
		usleep(20000);
	}
}

static int accept_until(int lfd, double deadline)
{
	int one = 1, fd;

	if (wait_fd(lfd, POLLIN, deadline) <= 0)
		return -1;
	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd >= 0)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* --- the root --- */

/* Tell every connected rank why the join failed. */
static void root_fail(const int *fd, int n, const char *fmt, int a, int b)
{
	struct reply rp = { .magic = BOOT_MAGIC, .status = -1 };

	snprintf(rp.msg, sizeof(rp.msg), fmt, a, b);
	for (int r = 0; r < n; r++)
		if (fd[r] >= 0)
			send_all(fd[r], &rp, sizeof(rp), now_s() + 1);
}

static void *root_main(void *arg)
{
	struct root rt = *(struct root *)arg;
	int fd[SWCCL_MAX_RANKS], nranks = 0, joined = 0;
	uint32_t len = 0;
	double deadline = 0;
	uint8_t *all = NULL;

	free(arg);
	for (int r = 0; r < SWCCL_MAX_RANKS; r++)
		fd[r] = -1;
	/* The first rank may come any time; the rest within SWCCL_TIMEOUT of it. */
	while (!nranks || joined < nranks) {
		struct hello h;
		double until = deadline ? deadline : now_s() + 3600;
		int c = accept_until(rt.lfd, until);

		if (c < 0) {
			if (deadline && now_s() > deadline) {
				root_fail(fd, SWCCL_MAX_RANKS, "%d of %d ranks joined within "
					  "SWCCL_TIMEOUT", joined, nranks);
				goto out;
			}
			continue;
		}
		if (recv_all(c, &h, sizeof(h), now_s() + 5) || h.magic != BOOT_MAGIC ||
		    h.kind != HELLO_ROOT || h.nonce != rt.nonce || h.len > MAX_RECORD ||
		    h.nranks < 1 || h.nranks > SWCCL_MAX_RANKS || h.rank < 0 ||
		    h.rank >= h.nranks) {
			close(c);	/* not one of ours: ignore it */
			continue;
		}
		if (!nranks) {
			nranks = h.nranks;
			len = h.len;
			deadline = now_s() + rt.timeout_s;
			all = calloc((size_t)nranks, sizeof(struct hub_addr) + len);
			if (!all) {
				close(c);
				goto out;
			}
		}
		if (h.nranks != nranks || h.len != len || fd[h.rank] >= 0) {
			int dup = fd[h.rank] >= 0;

			fd[h.rank] = fd[h.rank] < 0 ? c : fd[h.rank];
			root_fail(fd, SWCCL_MAX_RANKS, dup ? "rank %d joined twice (of %d)" :
				  "the ranks disagree on nranks (%d and %d) or their library",
				  dup ? h.rank : nranks, dup ? nranks : h.nranks);
			if (fd[h.rank] != c)
				close(c);
			goto out;
		}
		if (recv_all(c, all + (size_t)h.rank * (sizeof(struct hub_addr) + len),
			     sizeof(struct hub_addr) + len, now_s() + 5)) {
			close(c);
			continue;
		}
		fd[h.rank] = c;
		joined++;
	}
	for (int r = 0; r < nranks; r++) {
		struct reply rp = { .magic = BOOT_MAGIC,
				    .len = (uint32_t)((size_t)nranks *
						      (sizeof(struct hub_addr) + len)) };

		if (!send_all(fd[r], &rp, sizeof(rp), now_s() + 5))
			send_all(fd[r], all, rp.len, now_s() + 5);
	}
out:
	for (int r = 0; r < SWCCL_MAX_RANKS; r++)
		if (fd[r] >= 0)
			close(fd[r]);
	close(rt.lfd);
	free(all);
	return NULL;
}

/* The address the id names: SWCCL_SOCKET_IFNAME's, else the first up non-loopback. */
static uint32_t local_ip(void)
{
	const char *want = swccl_param(SWCCL_PARAM_SOCKET_IFNAME);
	struct ifaddrs *ifs, *i;
	uint32_t ip = htonl(INADDR_LOOPBACK);

	if (getifaddrs(&ifs))
		return ip;
	for (i = ifs; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
			continue;
		if (*want ? !strncmp(i->ifa_name, want, strlen(want)) :
			    !(i->ifa_flags & IFF_LOOPBACK)) {
			ip = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
			break;
		}
	}
	freeifaddrs(ifs);
	return ip;
}

/* SWCCL_COMM_ID "host:port" (IPv4), or 0 with nothing set; -1 if it does not parse. */
static int comm_id(uint32_t *ip, uint16_t *port)
{
	const char *v = swccl_param(SWCCL_PARAM_COMM_ID);
	char host[64];
	unsigned int p;
	struct in_addr a;

	if (!*v)
		return 0;
	if (sscanf(v, "%63[^:]:%u", host, &p) != 2 || !p || p > 65535 ||
	    !inet_aton(host, &a))
		return -1;
	*ip = a.s_addr;
	*port = htons((uint16_t)p);
	return 1;
}

static int parse_id(const swcclUniqueId *id, uint32_t *ip, uint16_t *port, uint64_t *nonce);

/* A root for @nonce listening on @ip:@port (0: any); *bound its port. 0 or -1. */
static int start_root(uint32_t ip, uint16_t port, uint64_t nonce, double timeout_s,
		      uint16_t *bound, char *why, size_t n)
{
	struct root *rt = calloc(1, sizeof(*rt));
	pthread_t t;

	if (!rt) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	rt->timeout_s = timeout_s;
	rt->nonce = nonce;
	rt->lfd = listen_on(ip, port, bound);
	if (rt->lfd < 0) {
		snprintf(why, n, "cannot listen for the ranks on port %u: %s", ntohs(port),
			 strerror(errno));
		free(rt);
		return -1;
	}
	if (pthread_create(&t, NULL, root_main, rt)) {
		close(rt->lfd);
		free(rt);
		snprintf(why, n, "cannot start the root thread");
		return -1;
	}
	pthread_detach(t);
	return 0;
}

/*
 * With SWCCL_COMM_ID the id is the same in every process: its address, and
 * a nonce every process derives alike -- SWCCL_COMM_NONCE (hex) if set,
 * else a hash of SWCCL_COMM_ID itself.
 */
static uint64_t fixed_nonce(void)
{
	const char *v = getenv("SWCCL_COMM_NONCE"), *s = swccl_param(SWCCL_PARAM_COMM_ID);
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	if (v && *v)
		return strtoull(v, NULL, 16);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

int swccl_boot_new_id(swcclUniqueId *id, double timeout_s, char *why, size_t n)
{
	uint32_t ip = htonl(INADDR_ANY), adv;
	uint16_t port = 0, bound;
	char addr[INET_ADDRSTRLEN];
	uint64_t nonce;
	int fixed = comm_id(&ip, &port);

	if (fixed < 0) {
		snprintf(why, n, "SWCCL_COMM_ID \"%s\" is not host:port (IPv4)",
			 swccl_param(SWCCL_PARAM_COMM_ID));
		return -1;
	}
	memset(id, 0, sizeof(*id));
	if (fixed) {
		/* As NCCL_COMM_ID: no root here; rank 0 starts it (swccl_boot_serve). */
		inet_ntop(AF_INET, &ip, addr, sizeof(addr));
		snprintf(id->internal, sizeof(id->internal), ID_PREFIX "%s %u %016llx", addr,
			 ntohs(port), (unsigned long long)fixed_nonce());
		return 0;
	}
	if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce)) {
		snprintf(why, n, "no random nonce: %s", strerror(errno));
		return -1;
	}
	adv = local_ip();
	if (start_root(ip, port, nonce, timeout_s, &bound, why, n))
		return -1;
	inet_ntop(AF_INET, &adv, addr, sizeof(addr));
	snprintf(id->internal, sizeof(id->internal), ID_PREFIX "%s %u %016llx", addr,
		 ntohs(bound), (unsigned long long)nonce);
	return 0;
}

int swccl_boot_fixed(void)
{
	uint32_t ip;
	uint16_t port;

	return comm_id(&ip, &port) > 0;
}

int swccl_boot_serve(const swcclUniqueId *id, double timeout_s, char *why, size_t n)
{
	uint32_t ip;
	uint16_t port, bound;
	uint64_t nonce;

	if (parse_id(id, &ip, &port, &nonce)) {
		snprintf(why, n, "not an id of swcclGetUniqueId");
		return -1;
	}
	/* Every address: the id's may be this host's on an interface of its own. */
	return start_root(htonl(INADDR_ANY), port, nonce, timeout_s, &bound, why, n);
}

/* --- a rank --- */

static int parse_id(const swcclUniqueId *id, uint32_t *ip, uint16_t *port, uint64_t *nonce)
{
	char host[INET_ADDRSTRLEN + 1], text[sizeof(id->internal) + 1];
	unsigned long long nc;
	unsigned int p;
	struct in_addr a;

	memcpy(text, id->internal, sizeof(id->internal));
	text[sizeof(id->internal)] = 0;
	if (strncmp(text, ID_PREFIX, strlen(ID_PREFIX)) ||
	    sscanf(text + strlen(ID_PREFIX), "%16s %u %llx", host, &p, &nc) != 3 ||
	    !p || p > 65535 || !inet_aton(host, &a))
		return -1;
	*ip = a.s_addr;
	*port = htons((uint16_t)p);
	*nonce = nc;
	return 0;
}

void swccl_boot_close(struct swccl_boot *b)
{
	if (!b)
		return;
	for (int r = 0; r < SWCCL_MAX_RANKS; r++)
		if (b->fd[r] >= 0)
			close(b->fd[r]);
	free(b);
}

/* Rank 0: the other ranks' hub connections, in rank order. */
static int hub_accept(struct swccl_boot *b, int lfd, double deadline, char *why, size_t n)
{
	for (int got = 1; got < b->nranks; got++) {
		struct hello h;
		int c = accept_until(lfd, deadline);

		if (c < 0) {
			snprintf(why, n, "rank 0: %d of %d ranks connected within SWCCL_TIMEOUT",
				 got, b->nranks);
			return -1;
		}
		if (recv_all(c, &h, sizeof(h), deadline) || h.magic != BOOT_MAGIC ||
		    h.kind != HELLO_HUB || h.nonce != b->nonce || h.rank <= 0 ||
		    h.rank >= b->nranks || b->fd[h.rank] >= 0) {
			close(c);
			got--;		/* not one of ours */
			continue;
		}
		b->fd[h.rank] = c;
	}
	return 0;
}

int swccl_boot_join(const swcclUniqueId *id, int rank, int nranks, const void *mine,
		    size_t len, void *all, double timeout_s, struct swccl_boot **boot,
		    char *why, size_t n)
{
	double deadline = now_s() + timeout_s;
	struct hello h = { .magic = BOOT_MAGIC, .kind = HELLO_ROOT, .rank = rank,
			   .nranks = nranks, .len = (uint32_t)len };
	struct hub_addr me = { 0 };
	struct sockaddr_in a;
	socklen_t al = sizeof(a);
	struct swccl_boot *b;
	struct reply rp;
	uint32_t ip;
	uint16_t port;
	size_t rec = sizeof(struct hub_addr) + len;
	uint8_t *buf = NULL;
	int fd = -1, lfd = -1, ret = -1;

	if (parse_id(id, &ip, &port, &h.nonce)) {
		snprintf(why, n, "not an id of swcclGetUniqueId");
		return -1;
	}
	if (len > MAX_RECORD || nranks > SWCCL_MAX_RANKS) {
		snprintf(why, n, "record of %zu bytes, %d ranks: too large", len, nranks);
		return -1;
	}
	b = calloc(1, sizeof(*b));
	buf = malloc(rec * (size_t)nranks > rec ? rec * (size_t)nranks : rec);
	if (!b || !buf) {
		snprintf(why, n, "out of memory");
		goto out;
	}
	b->rank = rank;
	b->nranks = nranks;
	b->nonce = h.nonce;
	for (int r = 0; r < SWCCL_MAX_RANKS; r++)
		b->fd[r] = -1;
	fd = connect_to(ip, port, deadline);
	if (fd < 0) {
		snprintf(why, n, "cannot reach the root %s:%u of the id: %s", inet_ntoa(
			 (struct in_addr){ ip }), ntohs(port), strerror(errno));
		goto out;
	}
	if (rank == 0) {
		lfd = listen_on(htonl(INADDR_ANY), 0, &me.port);
		if (lfd < 0 || getsockname(fd, (struct sockaddr *)&a, &al)) {
			snprintf(why, n, "rank 0 cannot listen: %s", strerror(errno));
			goto out;
		}
		me.ip = a.sin_addr.s_addr;
	}
	memcpy(buf, &me, sizeof(me));
	memcpy(buf + sizeof(me), mine, len);
	if (send_all(fd, &h, sizeof(h), deadline) || send_all(fd, buf, rec, deadline) ||
	    recv_all(fd, &rp, sizeof(rp), deadline + timeout_s)) {
		snprintf(why, n, "the root of the id: %s", io_error());
		goto out;
	}
	rp.msg[sizeof(rp.msg) - 1] = 0;
	if (rp.magic != BOOT_MAGIC || rp.status || rp.len != rec * (size_t)nranks) {
		snprintf(why, n, "the root refused the join: %s",
			 rp.status ? rp.msg : "a bad answer");
		goto out;
	}
	if (recv_all(fd, buf, rp.len, deadline + timeout_s)) {
		snprintf(why, n, "the root of the id: %s", io_error());
		goto out;
	}
	for (int r = 0; r < nranks; r++)
		memcpy((uint8_t *)all + (size_t)r * len, buf + (size_t)r * rec + sizeof(me), len);
	deadline = now_s() + timeout_s;
	if (rank == 0) {
		if (hub_accept(b, lfd, deadline, why, n))
			goto out;
	} else {
		struct hub_addr hub;
		struct hello hh = { .magic = BOOT_MAGIC, .kind = HELLO_HUB, .nonce = h.nonce,
				    .rank = rank, .nranks = nranks };

		memcpy(&hub, buf, sizeof(hub));
		b->fd[0] = connect_to(hub.ip, hub.port, deadline);
		if (b->fd[0] < 0 || send_all(b->fd[0], &hh, sizeof(hh), deadline)) {
			snprintf(why, n, "cannot reach rank 0 at %s:%u: %s",
				 inet_ntoa((struct in_addr){ hub.ip }), ntohs(hub.port),
				 strerror(errno));
			goto out;
		}
	}
	*boot = b;
	b = NULL;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (lfd >= 0)
		close(lfd);
	free(buf);
	swccl_boot_close(b);
	return ret;
}

int swccl_boot_allgather(struct swccl_boot *b, const void *mine, size_t len, void *all,
			 double timeout_s, char *why, size_t n)
{
	double deadline = now_s() + timeout_s;
	struct reply rp = { .magic = BOOT_MAGIC, .len = (uint32_t)(len * (size_t)b->nranks) };
	uint8_t *out = all;

	memcpy(out + (size_t)b->rank * len, mine, len);
	if (b->rank) {
		struct reply in;

		if (send_all(b->fd[0], &rp, sizeof(rp), deadline) ||
		    send_all(b->fd[0], mine, len, deadline) ||
		    recv_all(b->fd[0], &in, sizeof(in), deadline + timeout_s)) {
			snprintf(why, n, "rank 0: %s", io_error());
			return -1;
		}
		in.msg[sizeof(in.msg) - 1] = 0;
		if (in.magic != BOOT_MAGIC || in.status || in.len != rp.len) {
			snprintf(why, n, "%s", in.status ? in.msg : "rank 0 answered nonsense");
			return -1;
		}
		if (recv_all(b->fd[0], all, in.len, deadline + timeout_s)) {
			snprintf(why, n, "rank 0: %s", io_error());
			return -1;
		}
		return 0;
	}
	/*
	 * Every rank's part is read even after one failed: a socket closed
	 * with unread data resets, and its rank would lose the answer that
	 * names the lost one.
	 */
	for (int r = 1; r < b->nranks; r++) {
		struct reply in = { 0 };

		if (recv_all(b->fd[r], &in, sizeof(in), deadline) || in.magic != BOOT_MAGIC ||
		    in.len != rp.len ||
		    recv_all(b->fd[r], out + (size_t)r * len, len, deadline)) {
			if (rp.status)
				continue;	/* the first loss is the one named */
			snprintf(why, n, "rank %d: %s", r, in.magic == BOOT_MAGIC &&
				 in.len != rp.len ? "the ranks disagree on an exchange" :
				 io_error());
			rp.status = -1;
			snprintf(rp.msg, sizeof(rp.msg), "rank 0 lost rank %d: %s", r, why);
		}
	}
	for (int r = 1; r < b->nranks; r++)
		if (send_all(b->fd[r], &rp, sizeof(rp), deadline) ||
		    (!rp.status && send_all(b->fd[r], all, rp.len, deadline)))
			continue;	/* that one learns it from its own socket */
	return rp.status ? -1 : 0;
}
