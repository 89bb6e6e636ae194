// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_fuzz - an in-tree fuzzer for swai.ko and the card behind it, in the
 * spirit of syzkaller: for a while, many processes of many threads throw
 * at the accel nodes
 *   - ioctls over the whole DRM number range (core and driver), in every
 *     direction and size, with arguments full of plausible values: small
 *     numbers, live buffer and syncobj handles, device addresses, user
 *     pointers, huge values, bad pointers;
 *   - buffer objects and syncobjs made and dropped;
 *   - core-group programs of nearly valid instructions (real opcodes over
 *     real buffers, then a few bits flipped);
 *   - job waits, mmap of random offsets, closes and reopens in flight,
 *     children killed in the middle of all of it.
 * Every fuzzing process is the node's user, not root: it drops
 * CAP_IPC_LOCK and pins at most FUZZ_MEMLOCK, so its userptrs meet
 * RLIMIT_MEMLOCK as a render-group user's do (a root process that pins
 * the guest's whole RAM is the OOM killer's business, as with mlock).
 * Blocking calls are interrupted by a signal every 50 ms.  The kernel's
 * side is judged by the VM runner (any oops, BUG, WARN or KASAN report
 * fails the run); this program fails if a process hangs past the deadline
 * or if the card no longer copies correctly afterwards.
 *
 *   swai_fuzz [-s SEED] [-t SECONDS] [-p PROCESSES] [-T THREADS]
 *   (or SWAI_FUZZ_SEED, SWAI_FUZZ_SECONDS)
 *
 * The seed is printed first, so a finding replays with -s.
 */
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "swai_test.h"
#include "swai_job.h"

#define POOL 16
#define ARG_BYTES 16384		/* the largest _IOC size the fuzzer declares */
#define SCRATCH_BYTES (1 << 20)	/* where argument pointers point, then a guard */
#define FUZZ_MEMLOCK (32u << 20)	/* RLIMIT_MEMLOCK of every fuzzing process */

struct worker {
	int fd;
	const char *node;
	uint64_t rng;
	pthread_mutex_t lock;		/* the pools and fd */
	struct bo bos[POOL];
	uint32_t syncobjs[POOL];
	uint64_t jobs[POOL];
	int dmabufs[POOL];		/* exported by PRIME_HANDLE_TO_FD, or 0 */
	struct arena arena;
	unsigned long ops, ioctls, programs, jobs_ok;
	uint64_t deadline;
};

/* What one process reports to the parent. */
struct tally {
	unsigned long ops, ioctls, programs, jobs_ok;
};

static volatile sig_atomic_t stop;

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int pick(uint64_t *s, unsigned int n)
{
	return (unsigned int)(rnd(s) % n);
}

/*
 * A value a field of an ioctl argument might plausibly hold.  Pointers go
 * into @scratch, followed by a guard page: whatever count the kernel is
 * handed, it writes there or fails with -EFAULT, never over our memory.
 */
static uint64_t plausible(struct worker *w, uint64_t *s, void *scratch)
{
	struct bo *b = &w->bos[pick(s, POOL)];

	switch (pick(s, 10)) {
	case 0: return 0;
	case 1: return pick(s, 16);
	case 2: return b->handle;
	case 3: return w->syncobjs[pick(s, POOL)];
	case 4: return b->va + (b->size ? rnd(s) % (b->size + 64) : 0);
	case 5: return (uintptr_t)scratch + 8 * pick(s, 64);
	case 6: return 1ull << pick(s, 64);
	case 7: return ~0ull - pick(s, 4);
	case 8: return pick(s, 2) ? w->jobs[pick(s, POOL)] :
			 (uint64_t)w->dmabufs[pick(s, POOL)];
	default: return rnd(s);
	}
}

static const unsigned long known[] = {
	DRM_IOCTL_SWAI_QUERY_DEVICE, DRM_IOCTL_SWAI_SET_PARTITION, DRM_IOCTL_SWAI_BO_CREATE,
	DRM_IOCTL_SWAI_BO_INFO, DRM_IOCTL_SWAI_MEM_INFO, DRM_IOCTL_SWAI_VA_PROBE,
	DRM_IOCTL_SWAI_BO_USERPTR, DRM_IOCTL_SWAI_QUERY_TIMING, DRM_IOCTL_SWAI_SUBMIT,
	DRM_IOCTL_SWAI_JOB_WAIT, DRM_IOCTL_SWAI_QUERY_PEER, DRM_IOCTL_SWAI_BO_IMPORT,
	DRM_IOCTL_SWAI_NIC_OPEN, DRM_IOCTL_SWAI_NIC_CLOSE, DRM_IOCTL_SWAI_NIC_POST,
	DRM_IOCTL_SWAI_NIC_WAIT,
	DRM_IOCTL_VERSION, DRM_IOCTL_GET_CAP, DRM_IOCTL_GEM_CLOSE,
	DRM_IOCTL_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD,
	DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, DRM_IOCTL_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_RESET,
	DRM_IOCTL_SYNCOBJ_SIGNAL, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, DRM_IOCTL_SYNCOBJ_QUERY,
	DRM_IOCTL_SYNCOBJ_TRANSFER, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, DRM_IOCTL_GET_MAGIC,
	DRM_IOCTL_GET_UNIQUE, DRM_IOCTL_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_FD_TO_HANDLE,
	DRM_IOCTL_GEM_FLINK,
};

/* Keep a dma-buf the fuzzer exported (for BO_IMPORT), closing an old one. */
static void keep_dmabuf(struct worker *w, uint64_t *s, int out, int fd)
{
	int *slot = &w->dmabufs[pick(s, POOL)];

	if (out <= 2 || out == fd)
		return;
	if (*slot > 2)
		close(*slot);
	*slot = out;
}

/* One ioctl anywhere in the DRM range, with a plausible argument. */
static void fuzz_ioctl(struct worker *w, uint64_t *s)
{
	static __thread uint64_t arg[ARG_BYTES / 8];
	static __thread char *scratch;
	unsigned long cmd;
	void *p = arg;
	bool ok;
	int fd;

	if (!scratch) {
		scratch = mmap(NULL, SCRATCH_BYTES + 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (scratch == MAP_FAILED) {
			scratch = NULL;
			return;
		}
		mprotect(scratch + SCRATCH_BYTES, 4096, PROT_NONE);
	}
	if (pick(s, 10) < 6) {
		cmd = known[pick(s, sizeof(known) / sizeof(known[0]))];
	} else {
		unsigned int nr = pick(s, 2) ? DRM_COMMAND_BASE + pick(s, 16) : pick(s, 256);

		cmd = _IOC(pick(s, 4), pick(s, 32) ? DRM_IOCTL_BASE : pick(s, 256), nr,
			   pick(s, 4) ? pick(s, 256) : pick(s, ARG_BYTES));
	}
	for (size_t i = 0; i < 64; i++) {
		arg[i] = pick(s, 3) ? 0 : plausible(w, s, scratch);
		((uint64_t *)scratch)[i] = pick(s, 2) ? 0 : plausible(w, s, scratch);
	}
	memset(arg + 64, 0, ARG_BYTES - 64 * 8);
	switch (pick(s, 20)) {
	case 0: p = NULL; break;
	case 1: p = (void *)(uintptr_t)pick(s, 4096); break;
	case 2: p = (void *)0xffff888000000000ull; break;
	default: break;
	}
	fd = w->fd;
	__atomic_add_fetch(&w->ioctls, 1, __ATOMIC_RELAXED);
	ok = !ioctl(fd, cmd, p) && p == arg;
	if (ok && cmd == DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD) {
		struct drm_syncobj_handle h;
		int out;

		memcpy(&h, arg, sizeof(h));
		out = h.fd;

		if (out > 2 && out != fd)
			close(out);	/* a sync file it made for us */
	} else if (ok && cmd == DRM_IOCTL_PRIME_HANDLE_TO_FD) {
		struct drm_prime_handle h;

		memcpy(&h, arg, sizeof(h));
		keep_dmabuf(w, s, h.fd, fd);
	}
}

/* Make or drop a buffer object or a syncobj. */
static void fuzz_objects(struct worker *w, uint64_t *s)
{
	unsigned int i = pick(s, POOL);
	struct bo *b = &w->bos[i];

	pthread_mutex_lock(&w->lock);
	switch (pick(s, 4)) {
	case 0:
		bo_free(w->fd, b);
		if (dev_bo(w->fd, pick(s, 3), (1 + pick(s, 64)) * 4096, b))
			memset(b, 0, sizeof(*b));
		break;
	case 1:
		bo_free(w->fd, b);
		if (host_bo(w->fd, (1 + pick(s, 16)) * 4096, b))
			memset(b, 0, sizeof(*b));
		break;
	case 2:
		if (w->syncobjs[i])
			drmSyncobjDestroy(w->fd, w->syncobjs[i]);
		w->syncobjs[i] = 0;
		drmSyncobjCreate(w->fd, pick(s, 2) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0,
				 &w->syncobjs[i]);
		break;
	default:
		bo_free(w->fd, b);
		break;
	}
	pthread_mutex_unlock(&w->lock);
}

/* A program of nearly valid instructions over the pool's buffers. */
static void fuzz_program(struct worker *w, uint64_t *s)
{
	static __thread struct prog p;
	struct drm_swai_sync in = { .handle = w->syncobjs[pick(s, POOL)] };
	struct drm_swai_submit sub;
	unsigned int n = 1 + pick(s, 12);

	p_reset(&p);
	for (unsigned int k = 0; k < n; k++) {
		struct bo *a = &w->bos[pick(s, POOL)], *b = &w->bos[pick(s, POOL)];
		struct swai_insn *i = emit(&p, (uint8_t)pick(s, SWAI_OP_MAX + 3));
		uint8_t *raw = (uint8_t *)i;

		i->flags = (uint8_t)pick(s, 4);
		i->dst = pick(s, 3) ? a->va + pick(s, 4096) : pick(s, 1 << 18);
		i->src = pick(s, 3) ? b->va + pick(s, 4096) : pick(s, 1 << 18);
		i->len = pick(s, 4) ? 8 * (1 + pick(s, 512)) : rnd(s);
		i->rows = pick(s, 4);
		i->dst_stride = pick(s, 2) ? 0 : pick(s, 8192);
		i->src_stride = pick(s, 2) ? 0 : pick(s, 8192);
		for (unsigned int f = pick(s, 3); f; f--)
			raw[pick(s, INSN_SIZE)] ^= (uint8_t)(1u << pick(s, 8));
	}
	if (pick(s, 5))
		p_end(&p);
	pthread_mutex_lock(&w->lock);
	if (!w->arena.bo.cpu) {
		pthread_mutex_unlock(&w->lock);
		return;
	}
	sub = submit_args(pick(s, 5), arena_put(&w->arena, &p), p.n * INSN_SIZE);
	pthread_mutex_unlock(&w->lock);
	if (!pick(s, 4)) {
		sub.in_syncs = (uintptr_t)&in;
		sub.in_sync_count = 1;
	}
	if (!pick(s, 4))
		sub.out_sync.handle = w->syncobjs[pick(s, POOL)];
	__atomic_add_fetch(&w->programs, 1, __ATOMIC_RELAXED);
	if (!submit_raw(w->fd, &sub))
		w->jobs[pick(s, POOL)] = sub.job_id;
}

static void fuzz_wait(struct worker *w, uint64_t *s)
{
	struct drm_swai_job_wait jw;

	if (!job_wait(w->fd, w->jobs[pick(s, POOL)], (int)pick(s, 20), &jw) &&
	    jw.state == DRM_SWAI_JOB_DONE)
		__atomic_add_fetch(&w->jobs_ok, 1, __ATOMIC_RELAXED);
}

static void fuzz_mmap(struct worker *w, uint64_t *s)
{
	size_t len = 4096 * (1 + pick(s, 16));
	off_t off = pick(s, 2) ? (off_t)(rnd(s) & ~4095ull & 0x7fffffffffffull) :
		    (off_t)((uint64_t)pick(s, 1 << 20) << 12);
	void *m = mmap(NULL, len, pick(s, 2) ? PROT_READ : PROT_READ | PROT_WRITE,
		       pick(s, 2) ? MAP_SHARED : MAP_PRIVATE, w->fd, off);

	if (m != MAP_FAILED) {
		if (pick(s, 2))
			(void)*(volatile char *)m;
		munmap(m, len);
	}
}

/* Close the file under the other threads and open it again. */
static void fuzz_reopen(struct worker *w)
{
	int fd = open(w->node, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	pthread_mutex_lock(&w->lock);
	/*
	 * The objects die with the file, but not our mappings of them: a host
	 * object's anonymous pages, a device object's view that would keep the
	 * old file open.  Unmapped here, or every reopen leaks up to a MiB
	 * (a 60-s run grew processes past 200 MB and woke the OOM killer).
	 */
	for (int i = 0; i < POOL; i++)
		if (w->bos[i].cpu)
			munmap(w->bos[i].cpu, w->bos[i].size);
	memset(w->bos, 0, sizeof(w->bos));
	memset(w->syncobjs, 0, sizeof(w->syncobjs));
	if (w->arena.bo.cpu)
		munmap(w->arena.bo.cpu, w->arena.bo.size);
	memset(&w->arena, 0, sizeof(w->arena));
	dup2(fd, w->fd);		/* atomically replaces the old file */
	close(fd);
	arena_init(w->fd, &w->arena, 64 * 4096);
	pthread_mutex_unlock(&w->lock);
}

static void *thread_main(void *arg)
{
	struct worker *w = arg;
	uint64_t s;

	pthread_mutex_lock(&w->lock);
	s = rnd(&w->rng);
	pthread_mutex_unlock(&w->lock);
	while (!stop && now_ns() < w->deadline) {
		unsigned int op = pick(&s, 100);

		if (op < 40)
			fuzz_ioctl(w, &s);
		else if (op < 55)
			fuzz_objects(w, &s);
		else if (op < 78)
			fuzz_program(w, &s);
		else if (op < 88)
			fuzz_wait(w, &s);
		else if (op < 97)
			fuzz_mmap(w, &s);
		else if (op < 98)
			fuzz_reopen(w);
		__atomic_add_fetch(&w->ops, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;		/* only interrupts a blocking call */
}

struct kicker {
	pthread_t *tid;
	int n;
	volatile int done;
};

/* Every 50 ms, interrupt whatever each worker thread is blocked in. */
static void *kick(void *arg)
{
	struct kicker *k = arg;

	while (!k->done) {
		usleep(50000);
		for (int t = 0; t < k->n; t++)
			pthread_kill(k->tid[t], SIGALRM);
	}
	return NULL;
}

/* Pin as an unprivileged user does: no CAP_IPC_LOCK, FUZZ_MEMLOCK at most. */
static int drop_pinning_rights(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct cap[2];
	struct rlimit rl = { FUZZ_MEMLOCK, FUZZ_MEMLOCK };

	if (syscall(SYS_capget, &hdr, cap))
		return -1;
	cap[0].effective &= ~(1u << CAP_IPC_LOCK);
	cap[0].permitted &= ~(1u << CAP_IPC_LOCK);
	cap[0].inheritable &= ~(1u << CAP_IPC_LOCK);
	if (syscall(SYS_capset, &hdr, cap))
		return -1;
	return setrlimit(RLIMIT_MEMLOCK, &rl);
}

/* One process: @threads threads on one card until the deadline. */
static struct tally run_process(const char *node, uint64_t seed, int threads,
				uint64_t deadline)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	pthread_t tid[16], ktid;
	struct kicker k = { .tid = tid, .n = threads };
	static struct worker w;

	if (drop_pinning_rights()) {
		printf("# cannot drop CAP_IPC_LOCK or set RLIMIT_MEMLOCK: %s\n", strerror(errno));
		return (struct tally){ 0 };
	}
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: EINTR */
	w = (struct worker){ .node = node, .rng = seed, .deadline = deadline };
	pthread_mutex_init(&w.lock, NULL);
	w.fd = open(node, O_RDWR | O_CLOEXEC);
	if (w.fd < 0)
		return (struct tally){ 0 };
	arena_init(w.fd, &w.arena, 64 * 4096);
	for (int t = 0; t < threads; t++)
		pthread_create(&tid[t], NULL, thread_main, &w);
	pthread_create(&ktid, NULL, kick, &k);
	for (int t = 0; t < threads; t++)
		pthread_join(tid[t], NULL);
	k.done = 1;
	pthread_join(ktid, NULL);
	return (struct tally){ w.ops, w.ioctls, w.programs, w.jobs_ok };
}

/* The card still runs a copy and gets it right. */
static int card_works(const char *node)
{
	int fd = open(node, O_RDWR | O_CLOEXEC), ok = 0;
	struct bo a = { 0 }, b = { 0 };
	struct arena ar = { 0 };
	struct prog p = { .n = 0 };
	long long id;

	if (fd < 0)
		return 0;
	if (!host_bo(fd, 65536, &a) && !host_bo(fd, 65536, &b) && !arena_init(fd, &ar, 4096)) {
		fill(a.cpu, 65536, 7);
		p_copy(&p, b.va, a.va, 65536);
		p_end(&p);
		id = run_prog(fd, &ar, &p, 0);
		ok = id > 0 && job_error(fd, (uint64_t)id, 20000) == 0 &&
		     !memcmp(a.cpu, b.cpu, 65536);
	}
	close(fd);
	return ok;
}

int main(int argc, char **argv)
{
	const char *env_seed = getenv("SWAI_FUZZ_SEED"), *env_sec = getenv("SWAI_FUZZ_SECONDS");
	uint64_t seed = env_seed ? strtoull(env_seed, NULL, 0) : now_ns();
	long seconds = env_sec ? atol(env_sec) : 60;
	int procs = 6, threads = 4, ncards, hung = 0, c;
	struct swai_card cards[SWAI_MAX_CARDS];
	struct tally total = { 0 };
	unsigned long killed = 0;
	uint64_t deadline;
	pid_t pids[64];
	int fds[64];

	while ((c = getopt(argc, argv, "s:t:p:T:")) != -1) {
		switch (c) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': seconds = atol(optarg); break;
		case 'p': procs = atoi(optarg); break;
		case 'T': threads = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: swai_fuzz [-s SEED] [-t SECONDS] [-p PROCS] "
				"[-T THREADS]\n");
			return 2;
		}
	}
	if (procs < 1 || procs > 64 || threads < 1 || threads > 16 || seconds < 1) {
		fprintf(stderr, "swai_fuzz: 1..64 processes, 1..16 threads, >= 1 s\n");
		return 2;
	}
	ncards = swai_find_cards(cards, SWAI_MAX_CARDS);
	printf("1..3\n# seed %#llx, %ld s, %d processes x %d threads, %d cards "
	       "(replay: swai_fuzz -s %#llx -t %ld -p %d -T %d)\n",
	       (unsigned long long)seed, seconds, procs, threads, ncards,
	       (unsigned long long)seed, seconds, procs, threads);
	fflush(stdout);
	if (ncards < 1) {
		printf("not ok 1 - no swai card\n");
		return 1;
	}
	for (int k = 0; k < ncards; k++)	/* hung jobs end in 0.5 s, not 10 */
		card_attr_write(&cards[k], "job_timeout_ms", "500");
	deadline = now_ns() + (uint64_t)seconds * 1000000000ull;
	for (int i = 0; i < procs; i++) {
		int pfd[2];

		if (pipe(pfd))
			return 1;
		pids[i] = fork();
		if (!pids[i]) {
			struct tally t;

			close(pfd[0]);
			t = run_process(cards[i % ncards].node, seed + (uint64_t)i * 7919, threads,
					deadline);
			if (write(pfd[1], &t, sizeof(t)) != sizeof(t))
				_exit(1);
			_exit(0);
		}
		close(pfd[1]);
		fds[i] = pfd[0];
	}
	/* meanwhile: children of our own, killed in the middle of their work */
	for (uint64_t s = seed; now_ns() < deadline;) {
		pid_t k = fork();

		if (!k) {
			run_process(cards[pick(&s, (unsigned int)ncards)].node, rnd(&s), 2, deadline);
			_exit(0);
		}
		usleep(1000 * (50 + pick(&s, 1000)));
		if (k > 0) {
			kill(k, SIGKILL);
			waitpid(k, NULL, 0);
			killed++;
		}
	}
	for (int i = 0; i < procs; i++) {
		struct tally t;
		int st, waited = 0;

		while (waitpid(pids[i], &st, WNOHANG) == 0 && waited < 300) {
			usleep(100000);
			waited++;
		}
		if (waited >= 300) {
			char path[64], buf[4096];
			FILE *f;

			hung++;
			snprintf(path, sizeof(path), "/proc/%d/stack", pids[i]);
			f = fopen(path, "r");
			printf("# process %d hung 30 s past the deadline; kernel stack:\n", pids[i]);
			while (f && fgets(buf, sizeof(buf), f))
				printf("#   %s", buf);
			if (f)
				fclose(f);
			kill(pids[i], SIGKILL);
			waitpid(pids[i], &st, 0);
		}
		if (read(fds[i], &t, sizeof(t)) == sizeof(t)) {
			total.ops += t.ops;
			total.ioctls += t.ioctls;
			total.programs += t.programs;
			total.jobs_ok += t.jobs_ok;
		}
		else if (WIFSIGNALED(st))
			printf("# process %d died of signal %d (a fuzzer bug)\n", pids[i],
			       WTERMSIG(st));
		close(fds[i]);
	}
	printf("ok 1 - %lu operations in %d processes x %d threads (%lu random ioctls, %lu "
	       "programs submitted, %lu jobs seen to end), %lu processes killed in flight\n",
	       total.ops, procs, threads, total.ioctls, total.programs, total.jobs_ok, killed);
	printf("%sok 2 - no process hung past the deadline\n", hung ? "not " : "");
	c = 1;
	for (int k = 0; k < ncards; k++) {
		card_attr_write(&cards[k], "job_timeout_ms", "10000");
		c &= card_works(cards[k].node);
	}
	printf("%sok 3 - every card still copies correctly\n", c ? "" : "not ");
	return hung || !c;
}
