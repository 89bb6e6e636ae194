/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-rel.h - the NIC's reliable delivery over a network that may drop,
 * duplicate or reorder frames (datasheet §16.5), QEMU-independent.
 *
 * Go-back-N per peer, as RDMA's reliable connections do it in hardware:
 * every data frame to a peer carries the next sequence number; the peer
 * takes only the one it expects, and answers every data frame with a
 * cumulative acknowledgement (the next number it expects).  Up to
 * SWAI_REL_WINDOW frames are in flight; more wait in order.  Frames not
 * acknowledged within SWAI_REL_RTO_NS of wall time are all sent again;
 * after SWAI_REL_TRIES such rounds the peer is lost (ops->lost) and what
 * was queued for it is dropped.  So the payloads from one node to another
 * arrive exactly once and in order, whatever the network does.
 *
 * Frames are Ethernet II: destination and source MAC SWAI_REL_MAC(node),
 * EtherType SWAI_REL_ETHERTYPE (IEEE local experimental), then a 16-byte
 * header (version, type, source, destination, length, sequence, ack).
 *
 * Not thread-safe: the card calls it under its lock (QEMU: the BQL).
 */
#ifndef SWAI_REL_H
#define SWAI_REL_H

#include <stddef.h>
#include <stdint.h>

#define SWAI_REL_ETHERTYPE  0x88b5
#define SWAI_REL_HDR        30          /* Ethernet 14 + ours 16 */
#define SWAI_REL_PAYLOAD    1152        /* bytes of payload at most: a WRITE's packet */
#define SWAI_REL_FRAME      (SWAI_REL_HDR + SWAI_REL_PAYLOAD)
#define SWAI_REL_NODES      4096        /* node numbers 0..4095 */
#define SWAI_REL_WINDOW     64          /* frames in flight per peer */
#define SWAI_REL_QUEUE      4096        /* frames queued per peer: 4 MiB of WRITEs */
#define SWAI_REL_RTO_NS     20000000ull /* 20 ms without an ack: resend */
#define SWAI_REL_TRIES      150         /* resend rounds before a peer is lost */

/* The MAC address of a node: locally administered, unicast. */
#define SWAI_REL_MAC(b, node) do { \
    (b)[0] = 0x52; (b)[1] = 0x54; (b)[2] = 0x5a; (b)[3] = 0x4e; \
    (b)[4] = (uint8_t)((node) >> 8); (b)[5] = (uint8_t)(node); \
} while (0)

struct swai_rel_ops {
    void (*tx)(void *opaque, const uint8_t *frame, size_t len);
    /* A payload from @src, in order, once. */
    void (*deliver)(void *opaque, unsigned src, const uint8_t *payload,
                    size_t len);
    /* @peer has not acknowledged anything for SWAI_REL_TRIES rounds. */
    void (*lost)(void *opaque, unsigned peer);
};

struct swai_rel_stats {
    uint64_t tx_frames, rx_frames, resends, dropped_rx;
};

struct swai_rel;

/* NULL when out of memory. */
struct swai_rel *swai_rel_new(unsigned node, const struct swai_rel_ops *ops,
                              void *opaque);
void swai_rel_free(struct swai_rel *r);
/*
 * Queue @len (<= SWAI_REL_PAYLOAD) bytes for @dst and send what the window
 * allows: 0, -EINVAL (bad node or length) or -ENOBUFS (SWAI_REL_QUEUE
 * frames already queued for it, or no memory).
 */
int swai_rel_send(struct swai_rel *r, unsigned dst, const void *payload,
                  size_t len, uint64_t now_ns);
/* A frame from the network (anything not ours is ignored). */
void swai_rel_input(struct swai_rel *r, const uint8_t *frame, size_t len,
                    uint64_t now_ns);
/* Resend what is due; the next wall time something will be (0: nothing). */
uint64_t swai_rel_tick(struct swai_rel *r, uint64_t now_ns);
void swai_rel_stats(const struct swai_rel *r, struct swai_rel_stats *s);

#endif /* SWAI_REL_H */
