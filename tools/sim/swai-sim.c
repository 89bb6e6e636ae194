/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sim.c - a schedule replayed on SimGrid (swai-sim.h).
 *
 * The network model is SimGrid's CM02 on purpose, with TCP's window bound
 * (TCP-gamma) and cross traffic off: a transfer of B bytes over a route
 * alone takes the route's latency + B / its narrowest bandwidth, which is
 * what the card's fabric and the cost model charge.  The default LV08
 * applies TCP correction factors (32 MB over 25 GB/s, 1 us took 1398.6 us
 * instead of 1281 us); links sharing capacity are max-min fair, as in
 * every SimGrid flow model.
 *
 * SimGrid's engine is once per process, so each run is a child process:
 * it writes the platform of the pairs the schedule uses, runs one actor
 * per rank, and sends its result back through a pipe.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

#include "swai-board.h"
#include "swai-sched-card.h"
#include "swai-sched-cost.h"
#include "swai-sim.h"
#include "swai-sim-act.h"
#include "swai-sim-platform.h"

/* The run, for the actors (a child process runs one). */
static struct {
    const struct swai_sched *s;
    const struct swai_topo *t;
    struct swai_timing_props p;
    uint64_t bytes;
    const int *card;
    bool as_card, bare;
    bool **direct;          /* --card: [rank][step], a receive the sender writes in place */
    sg_bar_t ready;
    double *end;            /* [rank] seconds */
    /*
     * [rank]: its program's departure times, which its sends' payloads
     * point at.  A receiver may read one after the sender's program has
     * ended (--card: a send is eager, the receiver may not be there yet),
     * so they are freed once every actor has.
     */
    double **left;
    uint32_t *mbps;         /* [card * ncards + card]: a route's narrowest link, as written */
    uint32_t *lat_ns;       /* [card * ncards + card]: its latency (--card: the receiver's) */
    int32_t *out;           /* [card * ncards + card]: its first hop (swai_topo_resource) */
    uint64_t transfers;
} run;

struct result {
    int err;
    double us, wall_s;
    uint64_t transfers;
    char why[1024];
};

static double ps_s(uint64_t ps)
{
    return (double)ps / 1e12;
}

static sg_mailbox_t mbox(int from, int to)
{
    char name[32];

    snprintf(name, sizeof(name), "%d>%d", from, to);
    return sg_mailbox_by_name(name);
}

/* The way out to a peer: its queue pair (0 ..; -1: none), a rate, a port. */
struct way {
    int qp;
    uint32_t mbps;          /* the route's narrowest link */
    int port;               /* the rank's index of the route's first hop */
};

/*
 * A rank's steps as acts (above): costs from the cost model, or as a core
 * group runs them under --card (swai-sched-card.h); a step's dependencies on
 * sends as positions in issue order (only a send can be in flight).
 */
static int prog_build(int r, struct prog *pg, sg_mailbox_t *to, sg_mailbox_t *from,
                      const struct way *way)
{
    const struct swai_sched_rank *rk = &run.s->ranks[r];
    int cgs = run.t->devs[run.t->card_dev[run.card[r]]].cgs;
    int *order = calloc((size_t)rk->nsteps + 1, sizeof(*order));
    int *pos = calloc((size_t)rk->nsteps + 1, sizeof(*pos));
    /* [port]: 1 + the latest round sent on it so far, in issue order */
    uint32_t *latest = calloc((size_t)pg->nports + 1, sizeof(*latest));
    uint32_t nd = 0;

    pg->n = rk->nsteps;
    pg->nranks = run.s->nranks;
    pg->rank = r;
    if (run.as_card) {
        pg->left = malloc(((size_t)rk->nsteps + 1) * sizeof(*pg->left));
        pg->peer = malloc(((size_t)rk->nsteps + 1) * sizeof(*pg->peer));
        pg->credit = calloc((size_t)run.s->nranks, sizeof(*pg->credit));
        if (!pg->left || !pg->peer || !pg->credit) {
            free(order);
            free(pos);
            free(latest);
            return -1;
        }
    }
    pg->act = calloc((size_t)rk->nsteps + 1, sizeof(*pg->act));
    pg->deps = calloc((size_t)rk->ndeps + 1, sizeof(*pg->deps));
    if (!order || !pos || !latest || !pg->act || !pg->deps ||
        swai_sched_issue_order(rk, order)) {
        free(order);
        free(pos);
        free(latest);
        return -1;
    }
    for (int k = 0; k < rk->nsteps; k++) {
        pos[order[k]] = k;
    }
    for (int k = 0; k < rk->nsteps; k++) {
        const struct swai_step *st = &rk->steps[order[k]];
        struct act *a = &pg->act[k];
        bool send = st->op == SWAI_STEP_SEND;

        a->op = st->op;
        a->box = send ? to[st->peer] : st->peer >= 0 ? from[st->peer] : NULL;
        a->bytes = swai_sched_range_bytes(run.s, run.bytes, send ? st->src_off : st->dst_off,
                                          st->count);
        if (run.as_card) {
            bool direct = run.direct[r][order[k]];

            pg->left[k] = -1;
            pg->peer[k] = st->peer;
            a->pre_ps = swai_sched_card_before_ps(&run.p, st);
            a->post_ps = swai_sched_card_after_ps(&run.p, st, direct, a->bytes,
                                                SWAI_CG_LDM_DEFAULT);
        } else if (!send) {
            a->post_ps = swai_sched_local_ps(run.s, st, run.bytes, cgs, &run.p);
        }
        a->deps_at = nd;
        for (uint32_t d = 0; d < st->ndeps; d++) {
            int on = (int)rk->deps[st->deps_at + d];

            if (rk->steps[on].op == SWAI_STEP_SEND) {
                pg->deps[nd++] = (uint32_t)pos[on];
                a->ndeps++;
            }
        }
        if (!run.as_card) {
            a->qp = send ? way[st->peer].qp : -1;
            a->mbps = send ? way[st->peer].mbps : 0;
            a->port = send ? way[st->peer].port : -1;
            if (a->port >= 0) {
                uint32_t *top = &latest[a->port];

                a->fence = st->round + 1 > *top ? SWAI_SIM_FENCE_OPEN :
                           st->round + 1 == *top ? SWAI_SIM_FENCE_SAME :
                           SWAI_SIM_FENCE_NONE;
                *top = st->round + 1 > *top ? st->round + 1 : *top;
            }
            if (send) {
                a->next = -1;
            } else {
                a->from = st->peer;
            }
        }
    }
    free(order);
    free(pos);
    free(latest);
    return 0;
}

/* The route's latency from rank @a's card to rank @b's, in seconds. */
static double lat_s(int a, int b)
{
    return (double)run.lat_ns[(size_t)run.card[a] * (size_t)run.t->ncards +
                              (size_t)run.card[b]] / 1e9;
}

/* Sleep until simulated time @t (if it is ahead). */
static void sleep_until(double t)
{
    double now = simgrid_get_clock();

    if (t > now) {
        sg_actor_sleep_for(t - now);
    }
}

/*
 * --card: act @k as a core group runs it (collectives/swccl_lower.c on the
 * emulated card).  A SEND first waits once per peer for the peer to have
 * started (its start signal, written when its launch ended, is here the
 * route's latency later), then issues its COPY, which holds the core group
 * until its last byte has left; a receive's WAIT ends when the signal that
 * follows that byte has crossed the route, and a WAIT always costs its
 * wake-up (swai-sync.c adds it whether or not it had to sleep).
 */
static void card_act(struct prog *pg, int k)
{
    const struct act *a = &pg->act[k];
    double *left;

    if (a->op == SWAI_STEP_SEND) {
        int peer = pg->peer[k];

        if (!pg->credit[peer]) {
            pg->credit[peer] = true;
            sleep_until(ps_s(swai_sched_card_launch_ps(&run.p)) + lat_s(peer, pg->rank));
            sg_actor_sleep_for(ps_s(swai_sched_card_wait_ps(&run.p)));
        }
        sg_actor_sleep_for(ps_s(a->pre_ps));
        sg_mailbox_put(a->box, &pg->left[k], (long)a->bytes);
        pg->left[k] = simgrid_get_clock();
        run.transfers++;
    } else if (a->op == SWAI_STEP_RECV || a->op == SWAI_STEP_RECV_REDUCE) {
        left = sg_mailbox_get(a->box);
        /* the sender's clock is not back yet only if it left just now */
        sleep_until((*left >= 0 ? *left : simgrid_get_clock()) + lat_s(pg->peer[k], pg->rank));
    }
    sg_actor_sleep_for(ps_s(a->post_ps));
}

/*
 * The baseline (swai_sim_in.bare): the rank's transfers in its issue
 * order as plainly as SimGrid's C API writes them -- a send started and
 * waited for after the next receive, a receive a blocking get, the same
 * sleeps, no dependencies.  What it takes to simulate is what SimGrid's
 * actors cost for these transfers on this machine, measured beside the
 * replay's own wall time (replay() makes about as many simcalls).
 */
static void bare_main(struct prog *pg)
{
    static char payload;
    sg_comm_t *sent = calloc((size_t)pg->n + 1, sizeof(*sent));
    int n = 0;

    if (!sent) {
        fprintf(stderr, "swccl-sim: out of memory\n");
        abort();
    }
    for (int k = 0; k < pg->n; k++) {
        const struct act *a = &pg->act[k];

        if (a->op == SWAI_STEP_SEND) {
            sent[n++] = sg_mailbox_put_async(a->box, &payload, (long)a->bytes);
            run.transfers++;
            continue;
        }
        if (a->op == SWAI_STEP_RECV || a->op == SWAI_STEP_RECV_REDUCE) {
            sg_mailbox_get(a->box);
        }
        while (n) {
            sg_comm_wait(sent[--n]);
        }
        sg_actor_sleep_for(ps_s(a->post_ps));
    }
    while (n) {
        sg_comm_wait(sent[--n]);
    }
    free(sent);
}

/* The rank's program as the schedule runs it (swai-sim.h). */
static void replay(struct prog *pg)
{
    struct swai_sim_sends *fl;

    if (run.as_card) {
        /* its sends block until they have left: nothing is in flight to wait for */
        for (int k = 0; k < pg->n; k++) {
            card_act(pg, k);
        }
        return;
    }
    fl = swai_sim_sends_new(pg, &run.transfers);
    if (!fl) {
        fprintf(stderr, "swccl-sim: out of memory\n");
        abort();
    }
    for (int k = 0; k < pg->n; k++) {
        struct act *a = &pg->act[k];

        for (uint32_t d = 0; d < a->ndeps; d++) {
            swai_sim_wait_send(fl, (int)pg->deps[a->deps_at + d]);
        }
        if (a->op == SWAI_STEP_SEND) {
            if (!a->taken) {
                swai_sim_send(fl, k);
            }
            continue;
        }
        if (a->op == SWAI_STEP_RECV || a->op == SWAI_STEP_RECV_REDUCE) {
            swai_sim_receive(fl, k);
        }
        swai_sim_work(fl, ps_s(a->post_ps));
    }
    swai_sim_sends_end(fl);
}

/*
 * Rank @r's way out to peer @to: the next of the rank's queue pairs
 * (pg->nqps counts them), the rate of the route the platform took, and
 * the rank's port for the route's first hop (pg->port_mbps[] holds the
 * ports found so far, @hop their first hops); none within a card, over
 * its ring bus.
 */
static struct way way_to(int r, int to, struct prog *pg, int32_t *hop)
{
    size_t pair = (size_t)run.card[r] * (size_t)run.t->ncards + (size_t)run.card[to];
    int a = run.card[r], b = run.card[to], port = 0;

    if (run.t->card_dev[a] == run.t->card_dev[b]) {
        return (struct way){ -1, 0, -1 };
    }
    while (port < pg->nports && hop[port] != run.out[pair]) {
        port++;
    }
    if (port == pg->nports) {
        hop[port] = run.out[pair];
        /* swai_topo_resource() is 2 * link + way */
        pg->port_mbps[port] = run.t->links[run.out[pair] / 2].mbps;
        pg->nports++;
    }
    return (struct way){ pg->nqps++, run.mbps[pair], port };
}

static void rank_main(int argc, char **argv)
{
    int r = atoi(argv[argc - 1]);
    const struct swai_sched_rank *rk = &run.s->ranks[r];
    /* This rank's mailboxes to and from each peer, looked up once. */
    sg_mailbox_t *to = calloc((size_t)run.s->nranks, sizeof(*to));
    sg_mailbox_t *from = calloc((size_t)run.s->nranks, sizeof(*from));
    struct way *way = calloc((size_t)run.s->nranks, sizeof(*way));
    int32_t *hop = calloc((size_t)run.s->nranks, sizeof(*hop));
    struct prog pg = { 0 };

    pg.port_mbps = calloc((size_t)run.s->nranks, sizeof(*pg.port_mbps));
    if (!to || !from || !way || !hop || !pg.port_mbps) {
        fprintf(stderr, "swccl-sim: rank %d: out of memory\n", r);
        abort();
    }
    /* Take every peer's bytes as they come, before anyone sends. */
    for (int i = 0; i < rk->nsteps; i++) {
        const struct swai_step *st = &rk->steps[i];
        char name[32];

        if ((st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE) &&
            !from[st->peer]) {
            snprintf(name, sizeof(name), "%d>%d", st->peer, r);
            sg_mailbox_set_receiver(name);
            from[st->peer] = sg_mailbox_by_name(name);
        }
        if (st->op == SWAI_STEP_SEND && !to[st->peer]) {
            to[st->peer] = mbox(r, st->peer);
            way[st->peer] = way_to(r, st->peer, &pg, hop);
        }
    }
    if (prog_build(r, &pg, to, from, way)) {
        fprintf(stderr, "swccl-sim: rank %d: out of memory, or its steps have no order\n", r);
        abort();
    }
    free(to);
    free(from);
    free(way);
    free(hop);
    sg_barrier_wait(run.ready);
    if (run.as_card) {
        sg_actor_sleep_for(ps_s(swai_sched_card_launch_ps(&run.p)));
    }
    if (run.bare) {
        bare_main(&pg);
    } else {
        replay(&pg);
    }
    run.end[r] = simgrid_get_clock();
    free(pg.act);
    free(pg.deps);
    run.left[r] = pg.left;
    free(pg.peer);
    free(pg.credit);
    free(pg.port_mbps);
}

static double wall_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --card: which receives the lowering makes direct (swai_sched_direct), per rank. */
static int card_direct(const struct swai_sched *s, struct result *res)
{
    int **match;

    res->err = swai_sched_match(s, &match, res->why, sizeof(res->why));
    run.direct = res->err ? NULL : calloc((size_t)s->nranks, sizeof(*run.direct));
    for (int r = 0; run.direct && r < s->nranks; r++) {
        run.direct[r] = calloc((size_t)s->ranks[r].nsteps + 1, sizeof(**run.direct));
        for (int i = 0; run.direct[r] && i < s->ranks[r].nsteps; i++) {
            run.direct[r][i] = swai_sched_direct(s, match, r, i);
        }
        if (!run.direct[r]) {
            run.direct = NULL;  /* the child exits: its memory goes with it */
        }
    }
    if (!res->err && !run.direct) {
        res->err = -ENOMEM;
        snprintf(res->why, sizeof(res->why), "out of memory");
    }
    if (!res->err) {
        swai_sched_match_free(s, match);
    }
    return res->err;
}

/* The child: platform, actors, run; the result into @res. */
static void simulate(const struct swai_sim_in *in, struct result *res)
{
    static char *args[] = {
        "swccl-sim", "--cfg=network/model:CM02", "--cfg=network/TCP-gamma:0",
        "--cfg=network/crosstraffic:0", "--cfg=network/latency-factor:1",
        "--cfg=network/bandwidth-factor:1", "--log=root.thres:critical", NULL,
    };
    const struct swai_sched *s = in->s;
    size_t N = (size_t)in->t->ncards;
    const char *tmp = getenv("TMPDIR");
    char path[512];
    int argc = (int)(sizeof(args) / sizeof(args[0])) - 1, fd;
    bool *want = calloc(N * N, sizeof(*want));
    double t0 = wall_now(), last = 0;
    FILE *f;

    run.end = calloc((size_t)s->nranks, sizeof(*run.end));
    run.left = calloc((size_t)s->nranks, sizeof(*run.left));
    run.mbps = calloc(N * N, sizeof(*run.mbps));
    run.lat_ns = calloc(N * N, sizeof(*run.lat_ns));
    run.out = calloc(N * N, sizeof(*run.out));
    if (!want || !run.end || !run.left || !run.mbps || !run.lat_ns || !run.out) {
        res->err = -ENOMEM;
        snprintf(res->why, sizeof(res->why), "out of memory");
        return;
    }
    for (int r = 0; r < s->nranks; r++) {
        for (int i = 0; i < s->ranks[r].nsteps; i++) {
            const struct swai_step *st = &s->ranks[r].steps[i];

            if (st->op != SWAI_STEP_SEND) {
                continue;
            }
            want[(size_t)run.card[r] * N + (size_t)run.card[st->peer]] = true;
            /* --card: the receiver's "started" signal comes back (the credit wait) */
            if (run.as_card) {
                want[(size_t)run.card[st->peer] * N + (size_t)run.card[r]] = true;
            }
        }
    }
    snprintf(path, sizeof(path), "%s/swccl-sim-XXXXXX.xml", tmp && *tmp ? tmp : "/tmp");
    fd = mkstemps(path, 4);
    f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        res->err = -errno;
        snprintf(res->why, sizeof(res->why), "%s: %s", path, strerror(errno));
        return;
    }
    res->err = swai_sim_platform_write(f, in->t, &run.p, run.as_card, want, run.mbps,
                                       run.lat_ns, run.out, res->why, sizeof(res->why));
    if (fclose(f) && !res->err) {
        res->err = -EIO;
        snprintf(res->why, sizeof(res->why), "%s: %s", path, strerror(errno));
    }
    free(want);
    if (res->err) {
        unlink(path);
        return;
    }
    if (run.as_card && card_direct(s, res)) {
        unlink(path);
        return;
    }
    simgrid_init(&argc, args);
    simgrid_load_platform(path);
    unlink(path);
    run.ready = sg_barrier_init((unsigned)s->nranks);
    for (int r = 0; r < s->nranks; r++) {
        char host[16], name[16], idx[16];
        char *argv[] = { name, idx, NULL };

        snprintf(host, sizeof(host), "c%d", run.card[r]);
        snprintf(name, sizeof(name), "rank%d", r);
        snprintf(idx, sizeof(idx), "%d", r);
        sg_actor_create(name, sg_host_by_name(host), rank_main, 2, argv);
    }
    simgrid_run();
    for (int r = 0; r < s->nranks; r++) {
        last = run.end[r] > last ? run.end[r] : last;
        free(run.left[r]);
    }
    res->us = last * 1e6;
    res->wall_s = wall_now() - t0;
    res->transfers = run.transfers;
}

int swai_sim_run(const struct swai_sim_in *in, struct swai_sim_out *out,
                 char *why, size_t n)
{
    struct result res = { 0 };
    int pfd[2], status, *ident = NULL;
    ssize_t got = 0;
    pid_t pid;

    if (swai_sched_validate(in->s, why, n)) {
        return -EINVAL;
    }
    if (!in->rank_card && in->s->nranks > in->t->ncards) {
        snprintf(why, n, "%d ranks on a topology of %d cards", in->s->nranks,
                 in->t->ncards);
        return -EINVAL;
    }
    for (int r = 0; in->rank_card && r < in->s->nranks; r++) {
        if (in->rank_card[r] < 0 || in->rank_card[r] >= in->t->ncards) {
            snprintf(why, n, "rank %d on card %d, not one of the %d cards", r,
                     in->rank_card[r], in->t->ncards);
            return -EINVAL;
        }
    }
    if (pipe(pfd)) {
        snprintf(why, n, "pipe: %s", strerror(errno));
        return -errno;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        snprintf(why, n, "fork: %s", strerror(errno));
        close(pfd[0]);
        close(pfd[1]);
        return -EAGAIN;
    }
    if (!pid) {
        close(pfd[0]);
        run.s = in->s;
        run.t = in->t;
        run.bytes = in->bytes;
        run.as_card = in->as_card && !in->bare;
        run.bare = in->bare;
        if (in->card) {
            run.p = *in->card;
        } else {
            swai_timing_props_init(&run.p);
        }
        run.card = in->rank_card;
        if (!run.card) {
            ident = malloc((size_t)in->s->nranks * sizeof(*ident));
            for (int r = 0; ident && r < in->s->nranks; r++) {
                ident[r] = r;
            }
            run.card = ident;
        }
        if (!run.card) {
            res.err = -ENOMEM;
            snprintf(res.why, sizeof(res.why), "out of memory");
        } else {
            simulate(in, &res);
        }
        if (write(pfd[1], &res, sizeof(res)) != (ssize_t)sizeof(res)) {
            _exit(1);
        }
        _exit(0);
    }
    close(pfd[1]);
    while (got < (ssize_t)sizeof(res)) {
        ssize_t k = read(pfd[0], (char *)&res + got, sizeof(res) - (size_t)got);

        if (k <= 0) {
            break;
        }
        got += k;
    }
    close(pfd[0]);
    waitpid(pid, &status, 0);
    if (got != (ssize_t)sizeof(res)) {
        snprintf(why, n, "the simulation ended without a result (%s %d)",
                 WIFSIGNALED(status) ? "signal" : "exit status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        return -EIO;
    }
    if (res.err) {
        snprintf(why, n, "%s", res.why);
        return res.err;
    }
    out->us = res.us;
    out->wall_s = res.wall_s;
    out->transfers = res.transfers;
    return 0;
}
