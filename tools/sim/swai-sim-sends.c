/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sim-sends.c - a rank's sends on SimGrid: in flight, or queued on
 * the rank's queue pair to their peer (swai-sim-act.h).
 */
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>

#include "swai-sched.h"
#include "swai-sim-act.h"

/*
 * A rank's sends in flight.  None is detached: SimGrid 3.32 keeps detached
 * comms on one list of the maestro and walks all of it as each one ends
 * (CommImpl::finish), a thousand entries per transfer at a thousand ranks.
 * A rank's own sends instead end while it waits for something else (its
 * next receive, a dependency, its local work): that wait is on the sends
 * too, so each is reaped at the simulated time it lands, and nothing waits
 * longer than it would have.  The wait is on at most REAP_MAX of them:
 * SimGrid's wait on many comms costs their number twice, and the rest are
 * reaped once among them and done.
 *
 * A rank's messages to one peer go by one queue pair, one after another,
 * first come, first served, as an RDMA NIC works a queue pair's requests
 * and as the fabric's calendars and the cost model book a link: a send
 * waits until the one before it to the same peer has left (its bytes at
 * the route's rate after it started; its latency still ahead of it), and
 * only then does SimGrid carry it.  Alone, SimGrid would share the link
 * max-min fairly between the two, so that each lands late: a ring's chunk
 * that should go on at once would wait for the one behind it.  Messages to
 * different peers share their links max-min fairly, as a NIC arbitrates
 * among its queue pairs.  The rank goes on meanwhile: a queued send starts
 * from whatever the actor waits on when its time comes.
 *
 * A rank's port (its way out: the first hop of a send's route) takes a
 * round's sends that became ready later than its earlier rounds' only
 * once those have left (their bytes at the port's bandwidth, one after
 * another), as the card's calendar books a send after the ones booked
 * before it became ready (swai-links.h).  Alone, SimGrid would let a round
 * that a peer's data made ready early share the port with the round
 * before it, which the next rank is waiting for: NHR on 12 ranks of
 * a2-cluster took 2792.6 us against the cost model's 2635.1; now 2610.7.
 * Sends posted at one instant share the port, whatever their rounds, as a
 * NIC arbitrates among its queue pairs: the calendar fills each one's gaps
 * with the others', which max-min sharing comes nearer to than any fixed
 * order -- DIRECT AllToAll's rounds in order per port on seed002-2x4 at
 * 4 MiB took 162.0 us against the model's 89.5 (105.1 shared), each
 * round's first sends all meeting on one receiver.  A send's fence
 * (swai-sim-act.h) says where it stands among its port's rounds.
 *
 * Messages posted to one peer at one instant (the sends that follow one
 * another in issue order to that peer, waiting for nothing) go in order
 * too, but in at most BATCH_MAX batches of neighbouring messages: a batch
 * is one SimGrid transfer of its messages' bytes, and the receiver takes
 * them all when it lands (the first of them carries their number, the
 * rest are credited to the peer's next receives).  Up to BATCH_MAX
 * messages that is first come, first served exactly, so that a receiver
 * reduces the first of a round's parts while the next lands, as the cost
 * model lets it.  A fragmented round (NHR's on 512 ranks sends 256
 * one-slice messages to one peer at once) would otherwise cost SimGrid an
 * event and a solve of its flows for each message -- 244 s instead of 21
 * for that ReduceScatter; in batches each message lands at most 1/16 of
 * the round late.
 */
#define REAP_MAX 16
#define BATCH_MAX 16

/* 1 ps: a clock read after sleeping until a queue pair is free may be below it. */
#define QP_EPS 1e-12

struct qp {
    double free_at;         /* when its last send's bytes have left */
    int head, tail;         /* its queued SEND acts (act.next); head -1: none */
};

struct port {
    double free_at;         /* when every send posted on it will have left */
    double opened;          /* when its latest round may start */
    double posted;          /* when a send was last posted on it */
};

struct swai_sim_sends {
    struct act *act;        /* the rank's acts */
    int nacts;              /* their number */
    int *at;                /* the sending acts' positions, in no order */
    int n;
    struct qp *qp;          /* [nqps] */
    struct port *port;      /* [prog.nports] */
    const uint32_t *port_mbps;
    int *busy, nbusy;       /* the queue pairs with sends queued */
    int queued;             /* sends queued, on all of them */
    uint64_t *transfers;    /* the run's count of sends started */
    uint32_t *credit;       /* [peer]: its messages landed in a batch, not yet received */
    uint32_t credits;       /* their sum: none, and a receive reads no credit[] (cold) */
    sg_comm_t set[REAP_MAX + 1];    /* scratch: REAP_MAX of their comms and one more */
};

static void landed(struct swai_sim_sends *fl, int at)
{
    for (int i = 0; i < fl->n; i++) {
        if (fl->at[i] == at) {
            fl->at[i] = fl->at[--fl->n];
            break;
        }
    }
    fl->act[at].comm = NULL;
}

/* The messages batch @k carries: itself and the members after it. */
static uintptr_t batch_size(const struct swai_sim_sends *fl, int k)
{
    uintptr_t n = 1;

    while (k + (int)n < fl->nacts && fl->act[k + (int)n].member &&
           fl->act[k + (int)n].next == k) {
        n++;
    }
    return n;
}

static void start(struct swai_sim_sends *fl, int k)
{
    struct act *a = &fl->act[k];

    if (a->qp >= 0) {
        struct qp *q = &fl->qp[a->qp];
        double now = simgrid_get_clock();

        q->free_at = (q->free_at > now ? q->free_at : now) +
                     (double)a->bytes / ((double)a->mbps * 1e6);
    }
    a->comm = sg_mailbox_put_async(a->box, (void *)batch_size(fl, k), (long)a->bytes);
    fl->at[fl->n++] = k;
    (*fl->transfers)++;
}

/* Start the queued sends whose queue pair is free by now. */
static void pump(struct swai_sim_sends *fl)
{
    double now = simgrid_get_clock();

    for (int i = 0; i < fl->nbusy;) {
        struct qp *q = &fl->qp[fl->busy[i]];

        while (q->head >= 0 && q->free_at <= now + QP_EPS &&
               fl->act[q->head].not_before <= now + QP_EPS) {
            int k = q->head;

            q->head = fl->act[k].next;
            fl->act[k].queued = false;
            fl->queued--;
            start(fl, k);
        }
        if (q->head < 0) {
            fl->busy[i] = fl->busy[--fl->nbusy];
        } else {
            i++;
        }
    }
}

/* Seconds until a queued send may start; -1: none is queued. */
static double due(const struct swai_sim_sends *fl)
{
    double t = -1, now = simgrid_get_clock();

    for (int i = 0; i < fl->nbusy; i++) {
        const struct qp *q = &fl->qp[fl->busy[i]];
        double at = q->free_at > fl->act[q->head].not_before ? q->free_at :
                    fl->act[q->head].not_before;
        double d = at > now ? at - now : 0;

        if (t < 0 || d < t) {
            t = d;
        }
    }
    return t;
}

/* When send @k may start as far as its port is concerned; books it there. */
static double port_post(struct swai_sim_sends *fl, int k)
{
    const struct act *a = &fl->act[k];
    struct port *p = &fl->port[a->port];
    double now = simgrid_get_clock(), at = 0;
    uint8_t fence = a->fence;

    /* a batch (below) goes as one send: the latest round its messages open */
    for (int m = k + 1; m < fl->nacts && fl->act[m].member && fl->act[m].next == k; m++) {
        fence = fl->act[m].fence > fence ? fl->act[m].fence : fence;
    }
    if (fence == SWAI_SIM_FENCE_OPEN && now > p->posted + QP_EPS) {
        p->opened = p->free_at;
    }
    p->posted = now;
    if (fence != SWAI_SIM_FENCE_NONE) {
        at = p->opened;
    }
    p->free_at = (p->free_at > now ? p->free_at : now) +
                 (double)a->bytes / ((double)fl->port_mbps[a->port] * 1e6);
    return at;
}

/* Post send @k: start it, or queue it behind its queue pair's or its port's. */
static void post(struct swai_sim_sends *fl, int k)
{
    struct act *a = &fl->act[k];
    struct qp *q = a->qp >= 0 ? &fl->qp[a->qp] : NULL;
    double now = simgrid_get_clock();

    a->not_before = a->port >= 0 ? port_post(fl, k) : 0;
    if (!q || (q->head < 0 && q->free_at <= now + QP_EPS &&
               a->not_before <= now + QP_EPS)) {
        start(fl, k);
        return;
    }
    a->queued = true;
    a->next = -1;
    if (q->head < 0) {
        q->head = k;
        fl->busy[fl->nbusy++] = a->qp;
    } else {
        fl->act[q->tail].next = k;
    }
    q->tail = k;
    fl->queued++;
}

/*
 * The messages to @k's peer that the rank posts with it (the sends after
 * it in issue order to the same peer, waiting for nothing) go in at most
 * BATCH_MAX batches of neighbouring messages, one after another.
 */
void swai_sim_send(struct swai_sim_sends *fl, int k)
{
    const struct act *a = &fl->act[k];
    int end = k + 1, n, nb;

    while (a->qp >= 0 && end < fl->nacts && fl->act[end].op == SWAI_STEP_SEND &&
           fl->act[end].box == a->box && !fl->act[end].ndeps && !fl->act[end].taken) {
        end++;
    }
    n = end - k;
    nb = n < BATCH_MAX ? n : BATCH_MAX;
    for (int b = 0; b < nb; b++) {
        int lead = k + (int)((long)n * b / nb), last = k + (int)((long)n * (b + 1) / nb);

        for (int m = lead + 1; m < last; m++) {
            struct act *member = &fl->act[m];

            fl->act[lead].bytes += member->bytes;
            member->taken = true;
            member->member = true;
            member->next = lead;
        }
        fl->act[lead].taken = true;
        post(fl, lead);
    }
}

/*
 * Wait until @also (a receive; NULL: none) ends, one of the sends in
 * flight lands or a queued send's time comes, whichever is first; true if
 * it was @also.  Something must be pending.
 *
 * While a send is queued, the wait has a timeout and is on one comm only
 * (@also, else the first send in flight): SimGrid 3.32's wait on any of
 * several comms drops a reference to each when it times out
 * (sg_comm_wait_any_for), its wait on all of them does not.  The sends
 * that land meanwhile are reaped by a later wait.
 */
static bool wait_some(struct swai_sim_sends *fl, sg_comm_t also)
{
    int n = fl->n < REAP_MAX ? fl->n : REAP_MAX;
    double t;
    ssize_t i;

    pump(fl);
    t = due(fl);
    if (t >= 0) {
        sg_comm_t c = also ? also : fl->n ? fl->act[fl->at[0]].comm : NULL;

        if (!c) {
            sg_actor_sleep_for(t);
        } else if (sg_comm_wait_all_for(&c, 1, t) == 1) {
            if (also) {
                return true;
            }
            landed(fl, fl->at[0]);
        }
        return false;
    }
    if (!n && also) {
        /* The receive alone: SimGrid's wait on one comm costs less than on any of a set. */
        sg_comm_wait(also);
        return true;
    }
    for (int k = 0; k < n; k++) {
        fl->set[k] = fl->act[fl->at[k]].comm;
    }
    if (also) {
        fl->set[n] = also;
    }
    i = sg_comm_wait_any(fl->set, (size_t)n + (also ? 1 : 0));
    if (i == n) {
        return true;
    }
    landed(fl, fl->at[i]);
    return false;
}

void swai_sim_receive(struct swai_sim_sends *fl, int k)
{
    int from = fl->act[k].from;
    void *got;
    sg_comm_t rc;

    if (fl->credits && fl->credit[from]) {
        fl->credit[from]--;     /* it landed with an earlier one of its batch */
        fl->credits--;
        return;
    }
    rc = sg_mailbox_get_async(fl->act[k].box, &got);
    while (!wait_some(fl, rc)) {
    }
    if ((uintptr_t)got > 1) {
        fl->credit[from] += (uint32_t)(uintptr_t)got - 1;
        fl->credits += (uint32_t)(uintptr_t)got - 1;
    }
}

/* A step after a send of the same bytes waits for them to be gone. */
void swai_sim_wait_send(struct swai_sim_sends *fl, int on)
{
    if (fl->act[on].member) {
        on = fl->act[on].next;
    }
    while (fl->act[on].queued || fl->act[on].comm) {
        for (int i = 0; fl->act[on].comm && i < fl->n; i++) {
            if (fl->at[i] == on) {  /* first among those waited on */
                fl->at[i] = fl->at[0];
                fl->at[0] = on;
                break;
            }
        }
        wait_some(fl, NULL);
    }
}

/* A step's local work: @s seconds, during which queued sends start on time. */
void swai_sim_work(struct swai_sim_sends *fl, double s)
{
    for (;;) {
        double t = due(fl);

        if (t < 0 || t >= s) {
            sg_actor_sleep_for(s);
            return;
        }
        sg_actor_sleep_for(t);
        s -= t;
        pump(fl);
    }
}

static void sends_free(struct swai_sim_sends *fl)
{
    free(fl->at);
    free(fl->qp);
    free(fl->port);
    free(fl->busy);
    free(fl->credit);
    free(fl);
}

struct swai_sim_sends *swai_sim_sends_new(struct prog *pg, uint64_t *transfers)
{
    struct swai_sim_sends *fl = calloc(1, sizeof(*fl));

    if (!fl) {
        return NULL;
    }
    fl->act = pg->act;
    fl->nacts = pg->n;
    fl->at = calloc((size_t)pg->n + 1, sizeof(*fl->at));
    fl->qp = calloc((size_t)pg->nqps + 1, sizeof(*fl->qp));
    fl->port = calloc((size_t)pg->nports + 1, sizeof(*fl->port));
    fl->port_mbps = pg->port_mbps;
    fl->busy = calloc((size_t)pg->nqps + 1, sizeof(*fl->busy));
    fl->credit = calloc((size_t)pg->nranks + 1, sizeof(*fl->credit));
    fl->transfers = transfers;
    if (!fl->at || !fl->qp || !fl->port || !fl->busy || !fl->credit) {
        sends_free(fl);
        return NULL;
    }
    for (int p = 0; p < pg->nqps; p++) {
        fl->qp[p].head = -1;
    }
    return fl;
}

void swai_sim_sends_end(struct swai_sim_sends *fl)
{
    while (fl->n || fl->queued) {
        wait_some(fl, NULL);
    }
    sends_free(fl);
}
