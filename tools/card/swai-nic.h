/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic.h - the card's NIC collective engine (datasheet §16; seed 001
 * §3.1-3.2): virtual ports with CP counters, descriptor queues that fire
 * when their counter reaches a threshold, receive slots for the children's
 * reduce packets, the ALU, and broadcasts that carry the result on.
 *
 * One definition, linked by the QEMU device (which gives it the network
 * and the card's memory), by the simulator and by the tests: the host
 * gives the engine its network (ops->send, and swai_nic_receive() for what
 * arrives) and its memory (ops->write for completions and PUTs).
 *
 * Semantics, per virtual port:
 * - Descriptors run in the order they were posted.  The one at the head
 *   fires when the port has counted at least CPCNT arrivals of packets with
 *   the CP flag (seed: "CP_Counter >= CPCnt"); firing consumes CPCNT of
 *   them, or none with SWAI_NIC_F_ABS (Portals: the threshold is on the
 *   counter's total, as PtlTriggeredPut's).
 * - A REDUCE packet lands in receive slot CHILD (it is not written to
 *   memory, SWPMP); a REDUCE descriptor with BRANCH b combines slots
 *   0..b-1 **in child order**, then its own DATA: ((c0 op c1) ... op
 *   c(b-1)) op own.  Seed 001 combines in arrival order, which is not
 *   reproducible for floats; a fixed order is, whatever order the packets
 *   come in.  The result goes to the port's result register and is sent
 *   to DST (none for SWAI_NIC_NODE_NONE).
 * - A BCAST packet sets the destination port's result register.  A BCAST
 *   descriptor sends its DATA, or with SWPFLAG the register (seed: "its
 *   data field is replaced by the reduction result").
 * - PUT writes DATA at the destination's ADDR; ATOMIC combines it there.
 * - WRITE (RDMA WRITE) moves LEN bytes from SRC_ADDR, read through this
 *   port's owner's address space, to the destination's ADDR, in packets of
 *   SWAI_NIC_WRITE_CHUNK bytes; with CP only its last packet is counted, so
 *   a threshold there means "the bytes are all here".
 * - READ (RDMA READ) asks the destination for LEN bytes at its ADDR, read
 *   through the destination port's owner's space (its key, as a WRITE's),
 *   and they come back in packets of SWAI_NIC_WRITE_CHUNK bytes to SRC_ADDR
 *   here, written through this port's owner's space.  The port goes on at
 *   once; the READ ends (its completion, at its own index) when the last
 *   byte has landed, and with CP that last packet is counted here.  A
 *   request the destination refuses (key, fault) comes back as an error:
 *   the READ ends with it, and the destination reports it too.
 * - SEND moves LEN bytes from SRC_ADDR, as a WRITE does, into the RECV at
 *   the head of the destination port's receive queue: a RECV is not fired
 *   but queued there, and ends (its index counts the port's RECVs) when a
 *   SEND has filled it.  A SEND's length must be its RECV's (else
 *   E_LENGTH); none posted is E_RNR; both are the receiver's to report, as
 *   a WRITE's refusals are.  SENDs from one node take the RECVs in their
 *   order; from several, in the order their first packets come.
 * - COMPLETE writes the register's elements to ADDR when the descriptor
 *   has run: the "completion value is the result" of seed 001.
 *
 * Modeled time travels with every packet.  A descriptor fires at
 *   max(posted, the previous one's end, the arrival that met its
 *   threshold, its children's arrivals) + t_nic_desc,
 * spends branch x count x t_nic_alu in the ALU, and its packet's last byte
 * leaves when the port's wire is free (a calendar at nic_mbps,
 * SWAI_NIC_WIRE_BYTES a packet); it arrives t_nic_lat later, the time it
 * carries.  A packet to this node itself takes no wire: it arrives at once;
 * a WRITE's packets to it do take the wire (a loopback: bytes are never
 * free) and arrive as they leave it.  A READ's request takes the
 * requester's wire as a small packet does; its bytes take the
 * destination's wire from when the request arrived, as a WRITE's would.
 * The arrival that meets a threshold is the CPCNT-th earliest in modeled
 * time, not in the order packets came: so a tree's times never depend on
 * how the host interleaved the NICs.  (Where more packets race for one
 * threshold than it consumes, which ones count does: datasheet §16.5.)
 *
 * Not thread-safe: the host serialises calls on one NIC.
 */
#ifndef SWAI_NIC_H
#define SWAI_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if __has_include(<drm/swai_nic.h>)
#include <drm/swai_nic.h>
#else
#include "swai_nic.h"       /* the copy build-qemu.sh puts beside it */
#endif
#include "swai-nic-alu.h"
#include "swai-timing.h"

/* A descriptor, decoded (swai_nic_desc_decode) or built by software. */
struct swai_nic_desc {
    unsigned kind, flags;           /* SWAI_NIC_KIND_*, SWAI_NIC_F_* */
    unsigned vport, dst_vport;
    unsigned branch, child;
    unsigned rtype, dtype, width;   /* SWAI_NIC_OP_*, SWAI_NIC_T_*, 4 or 8 */
    unsigned src, dst;              /* node numbers; dst may be NONE */
    unsigned key;                   /* the destination port's key */
    uint32_t cpcnt;
    uint64_t addr;
    struct swai_nic_vec v;          /* count, data, loc, errvec */
    uint64_t src_addr;              /* WRITE: from where, and how many bytes */
    uint32_t len;
};

/*
 * Bytes a packet takes on the wire: Ethernet and the delivery header
 * (tools/qemu/swai-rel.h) and the 128-byte packet, plus 32 of preamble,
 * frame check and gap, rounded: what its time on a port is computed from.
 */
#define SWAI_NIC_WIRE_BYTES 190

/* A packet's kind beyond the descriptors': a READ's bytes coming back. */
#define SWAI_NIC_PKT_READ_DATA  15

/* A packet on the network: what a descriptor sends. */
struct swai_nic_pkt {
    unsigned kind, flags;           /* flags: CP and SWPMP only */
    unsigned src, dst, dst_vport, child;
    unsigned rtype, dtype, width;
    unsigned key;
    uint64_t addr;
    struct swai_nic_vec v;
    uint64_t time_ps;               /* when it arrives (fixed by the sender) */
    /*
     * WRITE, READ_DATA: this packet's part of the bytes, to addr; @last: the
     * transfer's end.  READ (the request): plen is the bytes asked for.
     */
    uint32_t plen;
    bool last;
    /*
     * READ and READ_DATA: where the bytes go back -- the requester's port,
     * its key and address -- and the READ's index there; @err: the request
     * was refused (status), no bytes follow.
     */
    unsigned rvport, rkey;
    uint64_t raddr;
    uint32_t rindex;
    unsigned err;
    uint32_t mlen;                  /* SEND: the message's bytes (addr: this part's offset) */
    uint8_t payload[SWAI_NIC_WRITE_CHUNK];
};

/* What a descriptor (or a packet refused on arrival) ended with. */
struct swai_nic_cqe {
    unsigned vport, kind, status;   /* status: SWAI_NIC_OK, SWAI_NIC_E_* */
    uint32_t index;                 /* the port's descriptor count; ~0: a packet */
    uint64_t time_ps;               /* when it ended */
    uint16_t errvec;
};

struct swai_nic_ops {
    /*
     * Put @p (for another node) on the network; p->time_ps is when it
     * arrives: 0, or SWAI_NIC_E_ROUTE if it cannot go.
     */
    int (*send)(void *opaque, const struct swai_nic_pkt *p);
    /*
     * Write @len bytes at @addr, in the address space of @vport's owner
     * (the device: its context's MMU): 0 or SWAI_NIC_E_FAULT.
     */
    int (*write)(void *opaque, unsigned vport, uint64_t addr, const void *buf,
                 size_t len);
    /* Read them (ATOMIC): 0 or SWAI_NIC_E_FAULT. */
    int (*read)(void *opaque, unsigned vport, uint64_t addr, void *buf,
                size_t len);
    void (*cqe)(void *opaque, const struct swai_nic_cqe *e);
};

struct swai_nic;

/* NULL when out of memory. */
struct swai_nic *swai_nic_new(unsigned node, const struct swai_timing_props *tp,
                              const struct swai_nic_ops *ops, void *opaque);
void swai_nic_free(struct swai_nic *n);

/* NULL if @d is a descriptor this NIC runs, else why not. */
const char *swai_nic_desc_check(const struct swai_nic_desc *d);
/* Do descriptors (and packets) of @kind move bytes (LEN at SRC_ADDR/ADDR), not ALU elements? */
bool swai_nic_moves_bytes(unsigned kind);
/* From and to SWAI_NIC_DESC_SIZE bytes; decode checks (0 or -EINVAL). */
int swai_nic_desc_decode(struct swai_nic_desc *d, const uint8_t *raw,
                         const char **why);
void swai_nic_desc_encode(uint8_t *raw, const struct swai_nic_desc *d);

/*
 * Queue @d on its port at modeled time @post_ps and run what can run:
 * 0, -EINVAL (swai_nic_desc_check, or SRC is not this node), -ENOSPC
 * (SWAI_NIC_QDEPTH queued) or -ENOMEM.  Nothing is queued on an error.
 */
int swai_nic_post(struct swai_nic *n, const struct swai_nic_desc *d,
                  uint64_t post_ps);
/* A packet for this node arrived at @arrive_ps; run what can run. */
void swai_nic_receive(struct swai_nic *n, const struct swai_nic_pkt *p,
                      uint64_t arrive_ps);
/*
 * The key packets for @vport must carry (0 after creation: the engine's
 * own users need none); the device gives each opened port a fresh one.
 */
void swai_nic_set_key(struct swai_nic *n, unsigned vport, unsigned key);
/* Drop a port's queue (each ends with SWAI_NIC_E_RESET), slots and counter. */
void swai_nic_reset_port(struct swai_nic *n, unsigned vport);

/* Every port dropped and opened again with no key, the wire free (reset). */
void swai_nic_reset(struct swai_nic *n);

/* Arrivals counted on @vport so far, and descriptors still queued. */
uint32_t swai_nic_counter(const struct swai_nic *n, unsigned vport);
unsigned swai_nic_queued(const struct swai_nic *n, unsigned vport);

#endif /* SWAI_NIC_H */
