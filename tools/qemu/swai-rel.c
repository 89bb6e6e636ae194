/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-rel.c - go-back-N reliable delivery for the NIC (swai-rel.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "swai-le.h"
#include "swai-rel.h"

#define T_DATA  1
#define T_ACK   2
#define VERSION 1

struct rel_frame {
    uint16_t len;               /* the whole frame */
    uint8_t b[SWAI_REL_FRAME];
};

/* One peer: what we send it (a ring from seq base) and what we expect. */
struct rel_peer {
    uint32_t base;              /* oldest unacknowledged sequence */
    uint32_t next;              /* sequence of the next frame queued */
    uint32_t sent;              /* frames base..sent-1 have been sent */
    uint64_t last_tx_ns;        /* when base..sent-1 last went out */
    unsigned tries;
    uint32_t rx_next;           /* the sequence we expect from it */
    struct rel_frame q[SWAI_REL_QUEUE];  /* seq s at q[s % QUEUE] */
};

struct swai_rel {
    unsigned node;
    const struct swai_rel_ops *ops;
    void *opaque;
    struct swai_rel_stats st;
    struct rel_peer *peer[SWAI_REL_NODES];  /* each made when first used */
};

struct swai_rel *swai_rel_new(unsigned node, const struct swai_rel_ops *ops,
                              void *opaque)
{
    struct swai_rel *r = node < SWAI_REL_NODES ? calloc(1, sizeof(*r)) : NULL;

    if (r) {
        r->node = node;
        r->ops = ops;
        r->opaque = opaque;
    }
    return r;
}

void swai_rel_free(struct swai_rel *r)
{
    unsigned i;

    if (r) {
        for (i = 0; i < SWAI_REL_NODES; i++) {
            free(r->peer[i]);
        }
        free(r);
    }
}

static struct rel_peer *peer_of(struct swai_rel *r, unsigned n)
{
    if (!r->peer[n]) {
        r->peer[n] = calloc(1, sizeof(struct rel_peer));
    }
    return r->peer[n];
}

static void header(uint8_t *b, unsigned src, unsigned dst, unsigned type,
                   unsigned len, uint32_t seq, uint32_t ack)
{
    SWAI_REL_MAC(b, dst);
    SWAI_REL_MAC(b + 6, src);
    b[12] = SWAI_REL_ETHERTYPE >> 8;
    b[13] = SWAI_REL_ETHERTYPE & 0xff;
    b[14] = VERSION;
    b[15] = (uint8_t)type;
    swai_st_le(b + 16, 2, src);
    swai_st_le(b + 18, 2, dst);
    swai_st_le(b + 20, 2, len);
    swai_st_le(b + 22, 4, seq);
    swai_st_le(b + 26, 4, ack);
}

static void tx(struct swai_rel *r, const uint8_t *b, size_t len)
{
    r->st.tx_frames++;
    r->ops->tx(r->opaque, b, len);
}

/* Send the queued frames the window allows. */
static void pump(struct swai_rel *r, struct rel_peer *p, uint64_t now)
{
    if (p->sent == p->base) {
        p->last_tx_ns = now;    /* the timer runs from the oldest in flight */
    }
    while (p->sent != p->next && p->sent - p->base < SWAI_REL_WINDOW) {
        struct rel_frame *f = &p->q[p->sent % SWAI_REL_QUEUE];

        tx(r, f->b, f->len);
        p->sent++;
    }
}

int swai_rel_send(struct swai_rel *r, unsigned dst, const void *payload,
                  size_t len, uint64_t now_ns)
{
    struct rel_peer *p;
    struct rel_frame *f;

    if (dst >= SWAI_REL_NODES || len > SWAI_REL_PAYLOAD) {
        return -EINVAL;
    }
    p = peer_of(r, dst);
    if (!p || p->next - p->base >= SWAI_REL_QUEUE) {
        return -ENOBUFS;
    }
    f = &p->q[p->next % SWAI_REL_QUEUE];
    header(f->b, r->node, dst, T_DATA, (unsigned)len, p->next, 0);
    memcpy(f->b + SWAI_REL_HDR, payload, len);
    f->len = (uint16_t)(SWAI_REL_HDR + len);
    p->next++;
    pump(r, p, now_ns);
    return 0;
}

static void ack(struct swai_rel *r, unsigned src, uint32_t next)
{
    uint8_t b[SWAI_REL_HDR];

    header(b, r->node, src, T_ACK, 0, 0, next);
    tx(r, b, sizeof(b));
}

void swai_rel_input(struct swai_rel *r, const uint8_t *b, size_t len,
                    uint64_t now_ns)
{
    unsigned src, dst, plen;
    uint32_t seq, an;
    struct rel_peer *p;

    if (len < SWAI_REL_HDR || b[12] != SWAI_REL_ETHERTYPE >> 8 ||
        b[13] != (SWAI_REL_ETHERTYPE & 0xff) || b[14] != VERSION) {
        return;                 /* not ours: the bridge floods what it learns */
    }
    src = (unsigned)swai_ld_le(b + 16, 2);
    dst = (unsigned)swai_ld_le(b + 18, 2);
    plen = (unsigned)swai_ld_le(b + 20, 2);
    seq = (uint32_t)swai_ld_le(b + 22, 4);
    an = (uint32_t)swai_ld_le(b + 26, 4);
    if (dst != r->node || src >= SWAI_REL_NODES || src == r->node ||
        plen > SWAI_REL_PAYLOAD || len < SWAI_REL_HDR + plen) {
        r->st.dropped_rx++;
        return;
    }
    p = peer_of(r, src);
    if (!p) {
        r->st.dropped_rx++;
        return;
    }
    r->st.rx_frames++;
    if (b[15] == T_ACK) {
        /* Cumulative: everything before an is there (ignore stale ones). */
        if (an - p->base <= p->sent - p->base && an != p->base) {
            p->base = an;
            p->tries = 0;
            p->last_tx_ns = now_ns;
            pump(r, p, now_ns);
        }
        return;
    }
    if (b[15] != T_DATA) {
        r->st.dropped_rx++;
        return;
    }
    if (seq == p->rx_next) {
        p->rx_next++;
        ack(r, src, p->rx_next);
        r->ops->deliver(r->opaque, src, b + SWAI_REL_HDR, plen);
        return;
    }
    /* A duplicate, or one after a loss: say again what we expect. */
    r->st.dropped_rx++;
    ack(r, src, p->rx_next);
}

uint64_t swai_rel_tick(struct swai_rel *r, uint64_t now_ns)
{
    uint64_t next = 0, due;
    unsigned i;
    uint32_t s;

    for (i = 0; i < SWAI_REL_NODES; i++) {
        struct rel_peer *p = r->peer[i];

        if (!p || p->base == p->sent) {
            continue;
        }
        due = p->last_tx_ns + SWAI_REL_RTO_NS;
        if (now_ns >= due) {
            if (++p->tries > SWAI_REL_TRIES) {
                /* The peer is gone: forget what it never took. */
                p->base = p->sent = p->next;
                p->tries = 0;
                r->ops->lost(r->opaque, i);
                continue;
            }
            for (s = p->base; s != p->sent; s++) {
                struct rel_frame *f = &p->q[s % SWAI_REL_QUEUE];

                r->st.resends++;
                tx(r, f->b, f->len);
            }
            p->last_tx_ns = now_ns;
            due = now_ns + SWAI_REL_RTO_NS;
        }
        if (!next || due < next) {
            next = due;
        }
    }
    return next;
}

void swai_rel_stats(const struct swai_rel *r, struct swai_rel_stats *s)
{
    *s = r->st;
}
