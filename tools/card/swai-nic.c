/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic.c - the NIC collective engine (swai-nic.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "swai-nic.h"

/* Arrival times a port remembers; older ones collapse into one (below). */
#define NIC_TIMES   256
/* READs in flight a port remembers a fault of, by index (below). */
#define NIC_RFAULTS 64
/* Senders whose SENDs a port can be taking in at once (below). */
#define NIC_INMSGS  64

/* A reduce payload with its type: a receive slot's, the result register's. */
struct nic_part {
    unsigned rtype, dtype, width;
    struct swai_nic_vec v;
};

struct nic_slot {
    bool full;
    struct nic_part p;
    uint64_t arrive_ps;
};

/* A RECV: its buffer here, its number among the port's RECVs. */
struct nic_recv {
    uint64_t addr;
    uint32_t len, index;
};

/* A SEND coming in from @src: the RECV it fills, and its first refusal. */
struct nic_inmsg {
    bool used, has_recv;
    unsigned src, status;
    struct nic_recv r;
};

struct nic_port {
    struct swai_nic_desc q[SWAI_NIC_QDEPTH];    /* a ring, head first */
    uint64_t posted_ps[SWAI_NIC_QDEPTH];
    unsigned head, n;
    uint32_t index;             /* descriptors this port has ended */
    /*
     * CP arrivals: the total, how many firings consumed, and the modeled
     * times of arrivals base.. sorted (times of earlier ones are folded
     * into @old_ps, the latest of them).
     */
    uint32_t count, consumed, base;
    uint64_t old_ps;
    uint64_t times[NIC_TIMES];
    unsigned ntimes;
    uint64_t last_ps;           /* when the previous descriptor ended */
    unsigned key;               /* what arriving packets must carry */
    struct nic_part reg;        /* the result register (and its type) */
    bool reg_full;
    struct nic_slot slot[SWAI_NIC_BRANCH_MAX];
    /*
     * READs whose bytes came back refused before their last packet:
     * index + 1 at [index % NIC_RFAULTS], so that the last one ends the
     * READ with the fault (a READ's packets come back in order).
     */
    uint32_t rfault[NIC_RFAULTS];
    /* RECVs posted, head first, and the SENDs being taken in */
    struct nic_recv rq[SWAI_NIC_QDEPTH];
    unsigned rq_head, rq_n;
    uint32_t rq_index;
    struct nic_inmsg in[NIC_INMSGS];
};

struct swai_nic {
    unsigned node;
    uint32_t mbps;              /* the port's wire */
    uint64_t t_desc_ps, t_alu_ps;
    uint64_t wire_ps, lat_ps;   /* a packet on the wire, and then the network */
    struct swai_cal wire;       /* the port's way out */
    const struct swai_nic_ops *ops;
    void *opaque;
    bool running;               /* in run(): a send may deliver back to us */
    struct nic_port *port[SWAI_NIC_VPORTS];    /* each made when first used */
};

struct swai_nic *swai_nic_new(unsigned node, const struct swai_timing_props *tp,
                              const struct swai_nic_ops *ops, void *opaque)
{
    struct swai_nic *n = calloc(1, sizeof(*n));

    if (n) {
        n->node = node;
        n->t_desc_ps = swai_timing_ns_to_ps(tp->t_nic_desc_ns);
        n->t_alu_ps = swai_timing_ns_to_ps(tp->t_nic_alu_ns);
        n->wire_ps = swai_timing_ps(SWAI_NIC_WIRE_BYTES, tp->nic_mbps);
        n->mbps = tp->nic_mbps;
        n->lat_ps = swai_timing_ns_to_ps(tp->t_nic_lat_ns);
        n->ops = ops;
        n->opaque = opaque;
    }
    return n;
}

void swai_nic_free(struct swai_nic *n)
{
    unsigned v;

    if (n) {
        for (v = 0; v < SWAI_NIC_VPORTS; v++) {
            free(n->port[v]);
        }
        free(n);
    }
}

/* A port's state, made when first used (a tree uses one or two of 16). */
static struct nic_port *port_of(struct swai_nic *n, unsigned vport)
{
    if (!n->port[vport]) {
        n->port[vport] = calloc(1, sizeof(struct nic_port));
    }
    return n->port[vport];
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static void end(struct swai_nic *n, unsigned vport, unsigned kind,
                unsigned status, uint32_t index, uint64_t t, uint16_t errvec)
{
    struct swai_nic_cqe e = { vport, kind, status, index, t, errvec };

    if (n->ops->cqe) {
        n->ops->cqe(n->opaque, &e);
    }
}

/* Count a CP arrival at @t, keeping the unconsumed times sorted. */
static bool count_arrival(struct nic_port *p, uint64_t t)
{
    unsigned i, keep = p->consumed - p->base;

    if (p->ntimes == NIC_TIMES) {
        if (!keep) {
            return false;       /* NIC_TIMES pending arrivals: refuse */
        }
        /* Forget the consumed ones; Portals thresholds below see old_ps. */
        p->old_ps = max64(p->old_ps, p->times[keep - 1]);
        memmove(p->times, p->times + keep, (p->ntimes - keep) * sizeof(t));
        p->ntimes -= keep;
        p->base += keep;
        keep = 0;
    }
    for (i = p->ntimes; i > keep && p->times[i - 1] > t; i--) {
        p->times[i] = p->times[i - 1];
    }
    p->times[i] = t;
    p->ntimes++;
    p->count++;
    return true;
}

/* The modeled time the @k-th arrival (from 1) came at. */
static uint64_t arrival(const struct nic_port *p, uint32_t k)
{
    if (!k) {
        return 0;
    }
    return k - 1 < p->base ? p->old_ps : p->times[k - 1 - p->base];
}

/* Whether @d (the head) may fire, and when its trigger came. */
static bool triggered(const struct nic_port *p, const struct swai_nic_desc *d,
                      uint64_t *t)
{
    uint32_t k = d->flags & SWAI_NIC_F_ABS ? d->cpcnt : p->consumed + d->cpcnt;

    if (p->count < k) {
        return false;
    }
    *t = arrival(p, k);
    return true;
}

static bool same_type(const struct nic_part *a, const struct swai_nic_desc *d)
{
    return a->rtype == d->rtype && a->dtype == d->dtype &&
           a->width == d->width && a->v.count == d->v.count;
}

/* A REDUCE: children in slot order, then its own data. */
static unsigned combine(struct swai_nic *n, struct nic_port *p,
                        const struct swai_nic_desc *d, struct swai_nic_vec *acc,
                        uint64_t *ready)
{
    unsigned i, status = SWAI_NIC_OK;

    for (i = 0; i < d->branch; i++) {
        struct nic_slot *s = &p->slot[i];

        if (!s->full) {
            status = SWAI_NIC_E_MISSING;
            continue;
        }
        *ready = max64(*ready, s->arrive_ps);
        if (!same_type(&s->p, d)) {
            status = SWAI_NIC_E_MISMATCH;
        } else if (i == 0) {
            *acc = s->p.v;
        } else {
            swai_nic_alu(acc, &s->p.v, d->rtype, d->dtype, d->width);
        }
        s->full = false;
    }
    if (d->branch) {
        swai_nic_alu(acc, &d->v, d->rtype, d->dtype, d->width);
    }
    (void)n;
    return status;
}

/*
 * A WRITE or SEND, from @t: its bytes read through @vport's owner's space and sent
 * a chunk a packet, each taking the wire in turn (to this node too: a
 * loopback); *t ends when the last has left.  SWAI_NIC_OK or the error.
 */
static unsigned write_out(struct swai_nic *n, unsigned vport, const struct swai_nic_desc *d,
                          uint64_t *t)
{
    struct swai_nic_pkt pk = {
        .kind = d->kind, .src = n->node, .dst = d->dst,
        .dst_vport = d->dst_vport, .key = d->key, .mlen = d->len,
    };
    uint64_t at = *t;
    unsigned status = SWAI_NIC_OK;

    for (uint32_t off = 0; off < d->len && status == SWAI_NIC_OK; off += SWAI_NIC_WRITE_CHUNK) {
        uint32_t len = d->len - off < SWAI_NIC_WRITE_CHUNK ? d->len - off : SWAI_NIC_WRITE_CHUNK;

        if (n->ops->read(n->opaque, vport, d->src_addr + off, pk.payload, len)) {
            status = SWAI_NIC_E_FAULT;
            break;
        }
        pk.addr = d->addr + off;    /* a SEND's: the offset in its message */
        pk.plen = len;
        pk.last = off + len == d->len;
        pk.flags = pk.last ? d->flags & SWAI_NIC_F_CP : 0;
        at = swai_cal_book(&n->wire, *t, swai_timing_ps(SWAI_NIC_WIRE_BYTES + len, n->mbps));
        /*
         * To itself: a loopback through the port (a local copy the NIC's
         * DMA makes), at its line rate, but no network.  Bytes are never
         * free: only the seed's small packets to itself skip the wire.
         */
        if (d->dst == n->node) {
            pk.time_ps = at;
            swai_nic_receive(n, &pk, at);
            continue;
        }
        pk.time_ps = at + n->lat_ps;
        status = n->ops->send(n->opaque, &pk);
    }
    *t = at;
    return status;
}

static void run(struct swai_nic *n);

/* A packet this node sends itself arrives at @at; one for another, t_nic_lat later. */
static unsigned deliver(struct swai_nic *n, struct swai_nic_pkt *pk, uint64_t at)
{
    if (pk->dst == n->node) {
        pk->time_ps = at;
        swai_nic_receive(n, pk, at);
        return SWAI_NIC_OK;
    }
    pk->time_ps = at + n->lat_ps;
    return (unsigned)n->ops->send(n->opaque, pk);
}

/* A READ, from @t: its request, a small packet on this port's wire. */
static unsigned read_ask(struct swai_nic *n, unsigned vport, const struct nic_port *p,
                         const struct swai_nic_desc *d, uint64_t t)
{
    struct swai_nic_pkt pk = {
        .kind = SWAI_NIC_KIND_READ, .flags = d->flags & SWAI_NIC_F_CP, .src = n->node,
        .dst = d->dst, .dst_vport = d->dst_vport, .key = d->key, .addr = d->addr,
        .plen = d->len, .rvport = vport, .rkey = p->key, .raddr = d->src_addr,
        .rindex = p->index,
    };

    return deliver(n, &pk, d->dst == n->node ? t : swai_cal_book(&n->wire, t, n->wire_ps));
}

/*
 * A READ asked of this node's port @p at @t: its bytes read through the
 * port's owner's space and sent back a chunk a packet on this wire; a
 * refusal (key, fault) goes back as one packet that says so, and is
 * reported here as any refused packet is.
 */
static void read_serve(struct swai_nic *n, const struct nic_port *p,
                       const struct swai_nic_pkt *rq, uint64_t t)
{
    struct swai_nic_pkt pk = {
        .kind = SWAI_NIC_PKT_READ_DATA, .src = n->node, .dst = rq->src,
        .dst_vport = rq->rvport, .key = rq->rkey, .rindex = rq->rindex,
    };
    unsigned status = rq->key != p->key ? SWAI_NIC_E_KEY :
                      !rq->plen || rq->plen > SWAI_NIC_WRITE_MAX ? SWAI_NIC_E_FAULT :
                      SWAI_NIC_OK;

    for (uint32_t off = 0; status == SWAI_NIC_OK && off < rq->plen;
         off += SWAI_NIC_WRITE_CHUNK) {
        uint32_t len = rq->plen - off < SWAI_NIC_WRITE_CHUNK ? rq->plen - off :
                       SWAI_NIC_WRITE_CHUNK;

        if (n->ops->read(n->opaque, rq->dst_vport, rq->addr + off, pk.payload, len)) {
            status = SWAI_NIC_E_FAULT;
            break;
        }
        pk.addr = rq->raddr + off;
        pk.plen = len;
        pk.last = off + len == rq->plen;
        pk.flags = pk.last ? rq->flags & SWAI_NIC_F_CP : 0;
        status = deliver(n, &pk, swai_cal_book(&n->wire, t,
                                               swai_timing_ps(SWAI_NIC_WIRE_BYTES + len,
                                                              n->mbps)));
    }
    if (status == SWAI_NIC_OK) {
        return;
    }
    end(n, rq->dst_vport, SWAI_NIC_KIND_READ, status, UINT32_MAX, t, 0);
    pk = (struct swai_nic_pkt){
        .kind = SWAI_NIC_PKT_READ_DATA, .src = n->node, .dst = rq->src,
        .dst_vport = rq->rvport, .key = rq->rkey, .rindex = rq->rindex, .last = true,
        .err = status,
    };
    deliver(n, &pk, swai_cal_book(&n->wire, t, n->wire_ps));
}

/*
 * A READ's bytes back at its port @p (@vport): written through the port's
 * owner's space; the last packet ends the READ -- with the first refusal
 * of any of its packets -- and with CP is counted.
 */
static void read_land(struct swai_nic *n, struct nic_port *p, unsigned vport,
                      const struct swai_nic_pkt *pk, uint64_t t)
{
    uint32_t *fault = &p->rfault[pk->rindex % NIC_RFAULTS];
    unsigned status = pk->err;

    if (pk->key != p->key) {
        end(n, vport, pk->kind, SWAI_NIC_E_KEY, UINT32_MAX, t, 0);
        return;
    }
    if (status == SWAI_NIC_OK && (pk->plen > SWAI_NIC_WRITE_CHUNK ||
                                  n->ops->write(n->opaque, vport, pk->addr, pk->payload,
                                                pk->plen))) {
        status = SWAI_NIC_E_FAULT;
    }
    if (!pk->last) {
        if (status != SWAI_NIC_OK) {
            *fault = pk->rindex + 1;
        }
        return;
    }
    if (*fault == pk->rindex + 1) {
        status = status == SWAI_NIC_OK ? SWAI_NIC_E_FAULT : status;
        *fault = 0;
    }
    if (status == SWAI_NIC_OK && (pk->flags & SWAI_NIC_F_CP) && !count_arrival(p, t)) {
        status = SWAI_NIC_E_COUNTER;
    }
    end(n, vport, SWAI_NIC_KIND_READ, status, pk->rindex, t, 0);
    run(n);
}

/* The SEND from @src that port @p is taking in, or a free entry for a new one; NULL: full. */
static struct nic_inmsg *inmsg(struct nic_port *p, unsigned src)
{
    struct nic_inmsg *free_one = NULL;

    for (unsigned i = 0; i < NIC_INMSGS; i++) {
        if (p->in[i].used && p->in[i].src == src) {
            return &p->in[i];
        }
        if (!p->in[i].used && !free_one) {
            free_one = &p->in[i];
        }
    }
    return free_one;
}

/*
 * A SEND's packet at port @p (@vport): its first takes the RECV at the
 * head of the queue (E_RNR if none, E_LENGTH if its size is not the
 * message's); each is written into it, through the port's owner's space.
 * True when the message is all here and took its RECV whole: then it is
 * counted (CP) as a WRITE's last packet is; its RECV ends either way.
 */
static bool send_land(struct swai_nic *n, struct nic_port *p, unsigned vport,
                      const struct swai_nic_pkt *pk, uint64_t t)
{
    struct nic_inmsg *m = inmsg(p, pk->src);
    unsigned status;

    if (!m) {
        end(n, vport, pk->kind, SWAI_NIC_E_OVERRUN, UINT32_MAX, t, 0);
        return false;
    }
    if (!m->used) {
        *m = (struct nic_inmsg){ .used = true, .src = pk->src };
        if (!p->rq_n) {
            m->status = SWAI_NIC_E_RNR;
        } else {
            m->r = p->rq[p->rq_head];
            m->has_recv = true;
            p->rq_head = (p->rq_head + 1) % SWAI_NIC_QDEPTH;
            p->rq_n--;
            if (m->r.len != pk->mlen) {
                m->status = SWAI_NIC_E_LENGTH;
            }
        }
    }
    if (m->status == SWAI_NIC_OK &&
        (pk->plen > SWAI_NIC_WRITE_CHUNK || pk->addr > m->r.len ||
         pk->plen > m->r.len - pk->addr ||
         n->ops->write(n->opaque, vport, m->r.addr + pk->addr, pk->payload, pk->plen))) {
        m->status = SWAI_NIC_E_FAULT;
    }
    if (!pk->last) {
        return false;
    }
    status = m->status;
    m->used = false;
    if (m->has_recv) {
        end(n, vport, SWAI_NIC_KIND_RECV, status, m->r.index, t, 0);
    } else {
        end(n, vport, pk->kind, status, UINT32_MAX, t, 0);
    }
    return status == SWAI_NIC_OK;
}

static void fire(struct swai_nic *n, unsigned vport, uint64_t trig_ps)
{
    struct nic_port *p = n->port[vport];
    struct swai_nic_desc d = p->q[p->head];
    uint64_t t = max64(max64(p->posted_ps[p->head], p->last_ps), trig_ps);
    struct swai_nic_vec acc = d.v;
    unsigned status = SWAI_NIC_OK;
    uint64_t alu = 0;

    p->head = (p->head + 1) % SWAI_NIC_QDEPTH;
    p->n--;
    if (!(d.flags & SWAI_NIC_F_ABS)) {
        p->consumed += d.cpcnt;
    }
    if (d.kind == SWAI_NIC_KIND_REDUCE) {
        status = combine(n, p, &d, &acc, &t);
        alu = (uint64_t)d.branch * d.v.count * n->t_alu_ps;
    } else if (d.kind == SWAI_NIC_KIND_BCAST && (d.flags & SWAI_NIC_F_SWPFLAG)) {
        if (!p->reg_full || !same_type(&p->reg, &d)) {
            status = p->reg_full ? SWAI_NIC_E_MISMATCH : SWAI_NIC_E_MISSING;
        } else {
            acc = p->reg.v;
        }
    }
    t += n->t_desc_ps + alu;
    if (d.kind == SWAI_NIC_KIND_READ) {
        /* the port goes on; the READ ends when its bytes are here (read_land) */
        status = read_ask(n, vport, p, &d, t);
        p->last_ps = t;
        if (status != SWAI_NIC_OK) {
            end(n, vport, d.kind, status, p->index, t, 0);
        }
        p->index++;
        return;
    }
    if (d.kind == SWAI_NIC_KIND_WRITE || d.kind == SWAI_NIC_KIND_SEND) {
        status = write_out(n, vport, &d, &t);
        p->last_ps = t;
        end(n, vport, d.kind, status, p->index++, t, 0);
        return;
    }
    if (d.kind == SWAI_NIC_KIND_REDUCE || d.kind == SWAI_NIC_KIND_BCAST) {
        p->reg = (struct nic_part){ .rtype = d.rtype, .dtype = d.dtype,
                                    .width = d.width, .v = acc };
        p->reg_full = true;
    }
    if (d.dst != SWAI_NIC_NODE_NONE && status == SWAI_NIC_OK) {
        struct swai_nic_pkt pk = {
            .kind = d.kind, .flags = d.flags & (SWAI_NIC_F_CP | SWAI_NIC_F_SWPMP),
            .src = n->node, .dst = d.dst, .dst_vport = d.dst_vport,
            .child = d.child, .rtype = d.rtype, .dtype = d.dtype,
            .width = d.width, .key = d.key, .addr = d.addr, .v = acc,
            .time_ps = t,
        };

        if (d.dst == n->node) {
            swai_nic_receive(n, &pk, t);    /* to itself: no wire */
        } else {
            pk.time_ps = swai_cal_book(&n->wire, t, n->wire_ps) + n->lat_ps;
            status = n->ops->send(n->opaque, &pk);
        }
    }
    if ((d.flags & SWAI_NIC_F_COMPLETE) && status == SWAI_NIC_OK &&
        n->ops->write(n->opaque, vport, d.addr, acc.data,
                      acc.count * d.width)) {
        status = SWAI_NIC_E_FAULT;
    }
    p->last_ps = t;
    end(n, vport, d.kind, status, p->index++, t, acc.errvec);
}

/* Fire every head that can fire, on every port, until none can. */
static void run(struct swai_nic *n)
{
    bool again = true;
    unsigned v;
    uint64_t t;

    if (n->running) {
        return;                 /* the outer run() picks it up */
    }
    n->running = true;
    while (again) {
        again = false;
        for (v = 0; v < SWAI_NIC_VPORTS; v++) {
            struct nic_port *p = n->port[v];

            while (p && p->n && triggered(p, &p->q[p->head], &t)) {
                fire(n, v, t);
                again = true;
            }
        }
    }
    n->running = false;
}

int swai_nic_post(struct swai_nic *n, const struct swai_nic_desc *d,
                  uint64_t post_ps)
{
    struct nic_port *p;
    unsigned i;

    if (swai_nic_desc_check(d) || d->src != n->node) {
        return -EINVAL;
    }
    p = port_of(n, d->vport);
    if (!p) {
        return -ENOMEM;
    }
    if (d->kind == SWAI_NIC_KIND_RECV) {     /* not fired: a SEND takes it */
        if (p->rq_n == SWAI_NIC_QDEPTH) {
            return -ENOSPC;
        }
        p->rq[(p->rq_head + p->rq_n++) % SWAI_NIC_QDEPTH] =
            (struct nic_recv){ d->src_addr, d->len, p->rq_index++ };
        return 0;
    }
    if (p->n == SWAI_NIC_QDEPTH) {
        return -ENOSPC;
    }
    i = (p->head + p->n++) % SWAI_NIC_QDEPTH;
    p->q[i] = *d;
    p->posted_ps[i] = post_ps;
    run(n);
    return 0;
}

/* ATOMIC at the destination: ADDR's elements op DATA, in the ALU. */
static unsigned atomic(struct swai_nic *n, const struct swai_nic_pkt *pk)
{
    struct swai_nic_vec mem = { .count = pk->v.count };
    size_t len = (size_t)pk->v.count * pk->width;

    if (n->ops->read(n->opaque, pk->dst_vport, pk->addr, mem.data, len)) {
        return SWAI_NIC_E_FAULT;
    }
    swai_nic_alu(&mem, &pk->v, pk->rtype, pk->dtype, pk->width);
    return n->ops->write(n->opaque, pk->dst_vport, pk->addr, mem.data, len)
           ? SWAI_NIC_E_FAULT : SWAI_NIC_OK;
}

void swai_nic_receive(struct swai_nic *n, const struct swai_nic_pkt *pk,
                      uint64_t arrive_ps)
{
    struct nic_port *p;
    unsigned status = SWAI_NIC_OK;
    uint64_t t = arrive_ps;

    if (pk->dst_vport >= SWAI_NIC_VPORTS || pk->child >= SWAI_NIC_BRANCH_MAX ||
        pk->v.count * pk->width > SWAI_NIC_DATA_MAX) {
        end(n, 0, pk->kind, SWAI_NIC_E_ROUTE, UINT32_MAX, t, 0);
        return;
    }
    p = port_of(n, pk->dst_vport);
    if (!p) {
        end(n, pk->dst_vport, pk->kind, SWAI_NIC_E_OVERRUN, UINT32_MAX, t, 0);
        return;
    }
    /* A READ's two halves answer their own (the requester must hear of a refusal). */
    if (pk->kind == SWAI_NIC_KIND_READ) {
        read_serve(n, p, pk, t);
        return;
    }
    if (pk->kind == SWAI_NIC_PKT_READ_DATA) {
        read_land(n, p, pk->dst_vport, pk, t);
        return;
    }
    if (pk->key != p->key) {
        end(n, pk->dst_vport, pk->kind, SWAI_NIC_E_KEY, UINT32_MAX, t, 0);
        return;
    }
    switch (pk->kind) {
    case SWAI_NIC_KIND_REDUCE:
        if (p->slot[pk->child].full) {
            status = SWAI_NIC_E_OVERRUN;
            break;
        }
        p->slot[pk->child] = (struct nic_slot){
            true, { pk->rtype, pk->dtype, pk->width, pk->v }, t,
        };
        break;
    case SWAI_NIC_KIND_BCAST:
        p->reg = (struct nic_part){ pk->rtype, pk->dtype, pk->width, pk->v };
        p->reg_full = true;
        break;
    case SWAI_NIC_KIND_PUT:
        if (n->ops->write(n->opaque, pk->dst_vport, pk->addr, pk->v.data,
                          (size_t)pk->v.count * pk->width)) {
            status = SWAI_NIC_E_FAULT;
        }
        break;
    case SWAI_NIC_KIND_WRITE:
        if (pk->plen > SWAI_NIC_WRITE_CHUNK ||
            n->ops->write(n->opaque, pk->dst_vport, pk->addr, pk->payload, pk->plen)) {
            status = SWAI_NIC_E_FAULT;
        }
        break;
    case SWAI_NIC_KIND_SEND:
        if (!send_land(n, p, pk->dst_vport, pk, t)) {
            return;     /* more of it to come, or it ended there */
        }
        break;
    case SWAI_NIC_KIND_ATOMIC:
        t += (uint64_t)pk->v.count * n->t_alu_ps;
        status = atomic(n, pk);
        break;
    default:                    /* no packet of this kind (a RECV is never sent) */
        status = SWAI_NIC_E_ROUTE;
        break;
    }
    if (status == SWAI_NIC_OK && (pk->flags & SWAI_NIC_F_CP) &&
        !count_arrival(p, t)) {
        status = SWAI_NIC_E_COUNTER;
    }
    if (status != SWAI_NIC_OK) {
        end(n, pk->dst_vport, pk->kind, status, UINT32_MAX, t, pk->v.errvec);
        return;
    }
    run(n);
}

void swai_nic_reset_port(struct swai_nic *n, unsigned vport)
{
    struct nic_port *p;
    unsigned key;

    if (vport >= SWAI_NIC_VPORTS || !n->port[vport]) {
        return;
    }
    p = n->port[vport];
    while (p->n) {
        const struct swai_nic_desc *d = &p->q[p->head];

        end(n, vport, d->kind, SWAI_NIC_E_RESET, p->index++, p->last_ps, 0);
        p->head = (p->head + 1) % SWAI_NIC_QDEPTH;
        p->n--;
    }
    while (p->rq_n) {
        end(n, vport, SWAI_NIC_KIND_RECV, SWAI_NIC_E_RESET, p->rq[p->rq_head].index,
            p->last_ps, 0);
        p->rq_head = (p->rq_head + 1) % SWAI_NIC_QDEPTH;
        p->rq_n--;
    }
    key = p->key;
    memset(p, 0, sizeof(*p));
    p->key = key;
}

void swai_nic_set_key(struct swai_nic *n, unsigned vport, unsigned key)
{
    struct nic_port *p = vport < SWAI_NIC_VPORTS ? port_of(n, vport) : NULL;

    if (p) {
        p->key = key;
    }
}

void swai_nic_reset(struct swai_nic *n)
{
    unsigned v;

    for (v = 0; v < SWAI_NIC_VPORTS; v++) {
        swai_nic_reset_port(n, v);
        swai_nic_set_key(n, v, 0);
    }
    memset(&n->wire, 0, sizeof(n->wire));
}

uint32_t swai_nic_counter(const struct swai_nic *n, unsigned vport)
{
    return vport < SWAI_NIC_VPORTS && n->port[vport] ? n->port[vport]->count : 0;
}

unsigned swai_nic_queued(const struct swai_nic *n, unsigned vport)
{
    return vport < SWAI_NIC_VPORTS && n->port[vport] ?
           n->port[vport]->n + n->port[vport]->rq_n : 0;
}
