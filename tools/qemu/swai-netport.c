/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-netport.c - the card's network port (swai-netport.h).
 */
#include "swai-trace.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "swai-le.h"
#include "swai-netport.h"

/*
 * A packet in a frame's payload: the engine's fields, little endian, in
 * PK_BYTES; a WRITE's, a SEND's or a READ's returning bytes follow (their
 * length where a reduce's locations are, then a READ's way back and index,
 * and a SEND's whole length).
 */
#define PK_BYTES    128
#define PK_F_CP     1
#define PK_F_SWPMP  2
#define PK_F_LAST   4       /* WRITE: its last packet */

/* The bytes of @p into @b; how many. */
static size_t pk_encode(uint8_t *b, const struct swai_nic_pkt *p)
{
    unsigned i;

    memset(b, 0, PK_BYTES);
    b[0] = (uint8_t)p->kind;
    b[1] = (uint8_t)((p->flags & SWAI_NIC_F_CP ? PK_F_CP : 0) |
                     (p->flags & SWAI_NIC_F_SWPMP ? PK_F_SWPMP : 0) |
                     (p->last ? PK_F_LAST : 0));
    b[2] = (uint8_t)p->dst_vport;
    b[3] = (uint8_t)p->child;
    b[4] = (uint8_t)p->rtype;
    b[5] = (uint8_t)p->dtype;
    b[6] = (uint8_t)p->width;
    b[7] = (uint8_t)p->v.count;
    swai_st_le(b + 8, 2, p->key);
    swai_st_le(b + 10, 2, p->v.errvec);
    swai_st_le(b + 12, 2, p->src);
    swai_st_le(b + 14, 2, p->dst);
    swai_st_le(b + 16, 8, p->addr);
    swai_st_le(b + 24, 8, p->time_ps);
    if (swai_nic_moves_bytes(p->kind) || p->kind == SWAI_NIC_PKT_READ_DATA) {
        swai_st_le(b + 32, 4, p->plen);
        swai_st_le(b + 36, 2, p->rkey);
        b[38] = (uint8_t)p->rvport;
        b[39] = (uint8_t)p->err;
        swai_st_le(b + 40, 8, p->raddr);
        swai_st_le(b + 48, 4, p->rindex);
        swai_st_le(b + 52, 4, p->mlen);
    }
    if (p->kind == SWAI_NIC_KIND_READ) {
        return PK_BYTES;
    }
    if (swai_nic_moves_bytes(p->kind) || p->kind == SWAI_NIC_PKT_READ_DATA) {
        memcpy(b + PK_BYTES, p->payload, p->plen);
        return PK_BYTES + p->plen;
    }
    for (i = 0; i < SWAI_NIC_ELEMS_MAX; i++) {
        swai_st_le(b + 32 + 4 * i, 4, p->v.loc[i]);
    }
    memcpy(b + 80, p->v.data, SWAI_NIC_DATA_MAX);
    return PK_BYTES;
}

/* False if the bytes cannot be a packet (the engine checks the rest). */
static bool pk_decode(struct swai_nic_pkt *p, const uint8_t *b, size_t len)
{
    unsigned i;

    if (len < PK_BYTES) {
        return false;
    }
    memset(p, 0, sizeof(*p));
    p->kind = b[0];
    p->flags = (b[1] & PK_F_CP ? SWAI_NIC_F_CP : 0) |
               (b[1] & PK_F_SWPMP ? SWAI_NIC_F_SWPMP : 0);
    p->dst_vport = b[2];
    p->child = b[3];
    p->rtype = b[4];
    p->dtype = b[5];
    p->width = b[6];
    p->v.count = b[7];
    p->key = (unsigned)swai_ld_le(b + 8, 2);
    p->v.errvec = (uint16_t)swai_ld_le(b + 10, 2);
    p->src = (unsigned)swai_ld_le(b + 12, 2);
    p->dst = (unsigned)swai_ld_le(b + 14, 2);
    p->addr = swai_ld_le(b + 16, 8);
    p->time_ps = swai_ld_le(b + 24, 8);
    if (swai_nic_moves_bytes(p->kind) || p->kind == SWAI_NIC_PKT_READ_DATA) {
        p->plen = (uint32_t)swai_ld_le(b + 32, 4);
        p->rkey = (unsigned)swai_ld_le(b + 36, 2);
        p->rvport = b[38];
        p->err = b[39];
        p->raddr = swai_ld_le(b + 40, 8);
        p->rindex = (uint32_t)swai_ld_le(b + 48, 4);
        p->mlen = (uint32_t)swai_ld_le(b + 52, 4);
        p->last = b[1] & PK_F_LAST;
    }
    if (p->kind == SWAI_NIC_KIND_READ) {  /* a request: the bytes it asks for, none carried */
        return len == PK_BYTES && p->plen <= SWAI_NIC_WRITE_MAX &&
               p->rvport < SWAI_NIC_VPORTS;
    }
    if (swai_nic_moves_bytes(p->kind) || p->kind == SWAI_NIC_PKT_READ_DATA) {
        if (p->plen > SWAI_NIC_WRITE_CHUNK || len != PK_BYTES + p->plen) {
            return false;
        }
        memcpy(p->payload, b + PK_BYTES, p->plen);
        return true;
    }
    if (len != PK_BYTES) {
        return false;
    }
    for (i = 0; i < SWAI_NIC_ELEMS_MAX; i++) {
        p->v.loc[i] = (uint32_t)swai_ld_le(b + 32 + 4 * i, 4);
    }
    memcpy(p->v.data, b + 80, SWAI_NIC_DATA_MAX);
    /* The ALU must never see a width it does not have. */
    return (p->width == 4 || p->width == 8) &&
           p->v.count * p->width <= SWAI_NIC_DATA_MAX;
}

/* --- the engine's host ----------------------------------------------- */

static uint64_t wall(const struct swai_netport *np)
{
    return np->glue->ops->wall_ns(np->glue->opaque);
}

static void rearm(struct swai_netport *np)
{
    np->net->timer(np->net_opaque, swai_rel_tick(np->rel, wall(np)));
}

static int eng_send(void *opaque, const struct swai_nic_pkt *p)
{
    struct swai_netport *np = opaque;
    uint8_t b[PK_BYTES + SWAI_NIC_WRITE_CHUNK];
    size_t len;

    trace_swai_nic_send(np->node, p->dst, p->dst_vport, p->kind, p->time_ps);
    len = pk_encode(b, p);
    if (swai_rel_send(np->rel, p->dst, b, len, wall(np))) {
        return SWAI_NIC_E_ROUTE;
    }
    rearm(np);
    return SWAI_NIC_OK;
}

/* Reach @len bytes at @va of @vport's owner, page by page, through its MMU. */
static int mem_access(struct swai_netport *np, unsigned vport, uint64_t va,
                  uint8_t *buf, size_t len, bool write)
{
    uint32_t asid = np->vport[vport].asid;

    while (len) {
        struct swai_mmu_xlat x;
        size_t n;

        if (!asid || swai_mmu_translate(np->mmu, asid, va, write, &x) ||
            x.fabric) {
            return SWAI_NIC_E_FAULT;
        }
        n = len < x.run ? len : x.run;
        if (x.host) {
            const struct swai_glue_ops *o = np->glue->ops;

            if (write ? o->dma_write(np->glue->opaque, x.addr, buf, n)
                      : o->dma_read(np->glue->opaque, x.addr, buf, n)) {
                return SWAI_NIC_E_FAULT;
            }
        } else {
            if (!np->hbm || x.addr > np->hbm_bytes || n > np->hbm_bytes - x.addr) {
                return SWAI_NIC_E_FAULT;
            }
            if (write) {
                memcpy(np->hbm + x.addr, buf, n);
            } else {
                memcpy(buf, np->hbm + x.addr, n);
            }
        }
        va += n;
        buf += n;
        len -= n;
    }
    return SWAI_NIC_OK;
}

static int eng_write(void *opaque, unsigned vport, uint64_t addr,
                     const void *buf, size_t len)
{
    return mem_access(opaque, vport, addr, (uint8_t *)buf, len, true);
}

static int eng_read(void *opaque, unsigned vport, uint64_t addr, void *buf,
                    size_t len)
{
    return mem_access(opaque, vport, addr, buf, len, false);
}

static void eng_cqe(void *opaque, const struct swai_nic_cqe *e)
{
    struct swai_netport *np = opaque;
    struct swai_netport_vport *v = &np->vport[e->vport];
    struct swai_netport_cqe *c;

    trace_swai_nic_cqe(np->node, e->vport, e->kind, e->status, e->index, e->time_ps);
    if (v->cq_n == SWAI_NIC_CQ_DEPTH) {
        /* Full: the oldest goes (the driver drains long before). */
        v->cq_head = (v->cq_head + 1) % SWAI_NIC_CQ_DEPTH;
        v->cq_n--;
    }
    c = &v->cq[(v->cq_head + v->cq_n++) % SWAI_NIC_CQ_DEPTH];
    c->entry = SWAI_NIC_CQE_VALID | (e->status & 0xff) | (e->kind & 0xf) << 8 |
               (uint32_t)e->errvec << 16;
    c->index = e->index;
    c->time_ns = (e->time_ps + SWAI_PS_PER_NS - 1) / SWAI_PS_PER_NS;
    swai_irq_raise(np->irq, SWAI_IRQ_NIC);
}

static const struct swai_nic_ops eng_ops = {
    .send = eng_send, .write = eng_write, .read = eng_read, .cqe = eng_cqe,
};

/* --- the link -------------------------------------------------------------- */

static uint32_t per_mille(struct swai_netport *np)
{
    np->rng ^= np->rng << 13;
    np->rng ^= np->rng >> 7;
    np->rng ^= np->rng << 17;
    return (uint32_t)(np->rng % 1000);
}

static void rel_tx(void *opaque, const uint8_t *frame, size_t len)
{
    struct swai_netport *np = opaque;
    size_t held = np->held_len;

    if (np->drop_pm && per_mille(np) < np->drop_pm) {
        return;
    }
    if (!held && np->reorder_pm && per_mille(np) < np->reorder_pm &&
        len <= sizeof(np->held)) {
        memcpy(np->held, frame, len);
        np->held_len = len;
        return;
    }
    np->net->tx(np->net_opaque, frame, len);
    if (held) {
        np->held_len = 0;
        np->net->tx(np->net_opaque, np->held, held);
    }
}

void swai_netport_faults(struct swai_netport *np, uint32_t drop_pm,
                         uint32_t reorder_pm, uint64_t seed)
{
    np->drop_pm = drop_pm;
    np->reorder_pm = reorder_pm;
    np->rng = seed | 1;
}

static void rel_deliver(void *opaque, unsigned src, const uint8_t *b, size_t len)
{
    struct swai_netport *np = opaque;
    struct swai_nic_pkt p;

    if (!pk_decode(&p, b, len) || p.src != src || p.dst != np->node ||
        p.dst_vport >= SWAI_NIC_VPORTS) {
        swai_glue_guest_error(np->glue, "swai: NIC %u: a malformed packet "
                              "from node %u dropped", np->node, src);
        return;
    }
    trace_swai_nic_recv(np->node, src, p.dst_vport, p.kind, p.time_ps);
    if (!np->vport[p.dst_vport].asid) {
        return;                 /* a closed port: nobody to tell */
    }
    swai_nic_receive(np->nic, &p, p.time_ps);
}

static void rel_lost(void *opaque, unsigned peer)
{
    struct swai_netport *np = opaque;

    swai_glue_guest_error(np->glue, "swai: NIC %u: node %u acknowledged "
                          "nothing for %u resends; its packets are dropped",
                          np->node, peer, SWAI_REL_TRIES);
}

static const struct swai_rel_ops rel_ops = {
    .tx = rel_tx, .deliver = rel_deliver, .lost = rel_lost,
};

void swai_netport_init(struct swai_netport *np, const struct swai_glue *glue,
                       struct swai_mmu *mmu, struct swai_irq *irq)
{
    memset(np, 0, sizeof(*np));
    np->node = SWAI_NIC_NODE_NONE;
    np->glue = glue;
    np->mmu = mmu;
    np->irq = irq;
}

void swai_netport_attach_hbm(struct swai_netport *np, uint8_t *hbm,
                             uint64_t bytes)
{
    np->hbm = hbm;
    np->hbm_bytes = bytes;
}

int swai_netport_connect(struct swai_netport *np, unsigned node,
                         const struct swai_netport_net *net, void *opaque,
                         const struct swai_timing_props *tp)
{
    if (node >= SWAI_REL_NODES || np->nic) {
        return -EINVAL;
    }
    np->nic = swai_nic_new(node, tp, &eng_ops, np);
    np->rel = swai_rel_new(node, &rel_ops, np);
    if (!np->nic || !np->rel) {
        swai_netport_free(np);
        return -ENOMEM;
    }
    np->node = node;
    np->net = net;
    np->net_opaque = opaque;
    return 0;
}

void swai_netport_free(struct swai_netport *np)
{
    swai_nic_free(np->nic);
    swai_rel_free(np->rel);
    np->nic = NULL;
    np->rel = NULL;
    np->node = SWAI_NIC_NODE_NONE;
}

static void close_port(struct swai_netport *np, unsigned v)
{
    if (np->nic) {
        swai_nic_reset_port(np->nic, v);
        swai_nic_set_key(np->nic, v, 0);
    }
    np->vport[v].cq_head = np->vport[v].cq_n = 0;
}

void swai_netport_reset(struct swai_netport *np)
{
    unsigned v;

    if (np->nic) {
        swai_nic_reset(np->nic);
    }
    for (v = 0; v < SWAI_NIC_VPORTS; v++) {
        close_port(np, v);
        np->vport[v].asid = 0;
        np->vport[v].key = 0;
        np->vport[v].cq_n = 0;     /* reset_port's E_RESET entries too */
    }
    np->sel = 0;
    np->time_ns = 0;
    np->post_status = 0;
    memset(np->desc, 0, sizeof(np->desc));
    memset(&np->taken, 0, sizeof(np->taken));
}

/* --- registers -------------------------------------------------------------- */

bool swai_netport_read(const struct swai_netport *np, uint64_t off,
                       uint32_t *val)
{
    const struct swai_netport_vport *v = &np->vport[np->sel];
    struct swai_rel_stats st = { 0 };

    if (off >= SWAI_REG_NIC_DESC && off < SWAI_REG_NIC_DESC + SWAI_NIC_DESC_SIZE) {
        *val = (uint32_t)swai_ld_le(np->desc + (off - SWAI_REG_NIC_DESC), 4);
        return true;
    }
    if (np->rel) {
        swai_rel_stats(np->rel, &st);
    }
    switch (off) {
    case SWAI_REG_NIC_NODE:
        *val = np->node;
        break;
    case SWAI_REG_NIC_STATUS:
        *val = np->nic ? SWAI_NIC_STATUS_LINK : 0;
        break;
    case SWAI_REG_NIC_VPORT:
        *val = np->sel;
        break;
    case SWAI_REG_NIC_PORT_ASID:
        *val = v->asid;
        break;
    case SWAI_REG_NIC_PORT_KEY:
        *val = v->key;
        break;
    case SWAI_REG_NIC_TIME_LO:
        *val = (uint32_t)np->time_ns;
        break;
    case SWAI_REG_NIC_TIME_HI:
        *val = (uint32_t)(np->time_ns >> 32);
        break;
    case SWAI_REG_NIC_POST_STATUS:
        *val = np->post_status;
        break;
    case SWAI_REG_NIC_COUNTER:
        *val = np->nic ? swai_nic_counter(np->nic, np->sel) : 0;
        break;
    case SWAI_REG_NIC_CQ_COUNT:
        *val = v->cq_n;
        break;
    case SWAI_REG_NIC_CQ_ENTRY:
        *val = np->taken.entry;
        break;
    case SWAI_REG_NIC_CQ_INDEX:
        *val = np->taken.index;
        break;
    case SWAI_REG_NIC_CQ_TIME_LO:
        *val = (uint32_t)np->taken.time_ns;
        break;
    case SWAI_REG_NIC_CQ_TIME_HI:
        *val = (uint32_t)(np->taken.time_ns >> 32);
        break;
    case SWAI_REG_NIC_TX_FRAMES:
        *val = (uint32_t)st.tx_frames;
        break;
    case SWAI_REG_NIC_RX_FRAMES:
        *val = (uint32_t)st.rx_frames;
        break;
    case SWAI_REG_NIC_RESENDS:
        *val = (uint32_t)st.resends;
        break;
    case SWAI_REG_NIC_PORT_CTRL:
    case SWAI_REG_NIC_POST:
    case SWAI_REG_NIC_CQ_POP:
        *val = 0;               /* write-only */
        break;
    default:
        return false;
    }
    return true;
}

static void post(struct swai_netport *np)
{
    struct swai_nic_desc d;
    const char *why = NULL;
    int r;

    if (!np->nic) {
        np->post_status = SWAI_NIC_POST_NO_LINK;
        swai_glue_guest_error(np->glue, "swai: NIC_POST on a card with no "
                              "NIC port (netdev=)");
        return;
    }
    if (!np->vport[np->sel].asid) {
        np->post_status = SWAI_NIC_POST_CLOSED;
        swai_glue_guest_error(np->glue, "swai: NIC_POST on closed port %u",
                              np->sel);
        return;
    }
    if (swai_nic_desc_decode(&d, np->desc, &why) || d.vport != np->sel ||
        d.src != np->node) {
        np->post_status = SWAI_NIC_POST_INVALID;
        swai_glue_guest_error(np->glue, "swai: NIC_POST on port %u: %s",
                              np->sel, why ? why : "VPORT or SRC is not this "
                              "port's or node's");
        return;
    }
    trace_swai_nic_post(np->node, np->sel, d.kind, d.cpcnt, np->time_ns);
    r = swai_nic_post(np->nic, &d, swai_timing_ns_to_ps(np->time_ns));
    np->post_status = r == -ENOSPC ? SWAI_NIC_POST_FULL :
                      r ? SWAI_NIC_POST_INVALID : SWAI_NIC_POST_OK;
}

static void cq_pop(struct swai_netport *np)
{
    struct swai_netport_vport *v = &np->vport[np->sel];

    if (!v->cq_n) {
        memset(&np->taken, 0, sizeof(np->taken));   /* VALID clear */
        return;
    }
    np->taken = v->cq[v->cq_head];
    v->cq_head = (v->cq_head + 1) % SWAI_NIC_CQ_DEPTH;
    v->cq_n--;
}

bool swai_netport_write(struct swai_netport *np, uint64_t off, uint32_t val)
{
    struct swai_netport_vport *v = &np->vport[np->sel];

    if (off >= SWAI_REG_NIC_DESC && off < SWAI_REG_NIC_DESC + SWAI_NIC_DESC_SIZE) {
        swai_st_le(np->desc + (off - SWAI_REG_NIC_DESC), 4, val);
        return true;
    }
    switch (off) {
    case SWAI_REG_NIC_VPORT:
        if (val >= SWAI_NIC_VPORTS) {
            swai_glue_guest_error(np->glue, "swai: NIC_VPORT %u: the NIC has "
                                  "%u ports", val, SWAI_NIC_VPORTS);
            break;
        }
        np->sel = val;
        break;
    case SWAI_REG_NIC_PORT_ASID:
        /* A new owner starts from nothing: no queue, no counts. */
        close_port(np, np->sel);
        v->asid = val;
        break;
    case SWAI_REG_NIC_PORT_KEY:
        v->key = (uint16_t)val;
        if (np->nic) {
            swai_nic_set_key(np->nic, np->sel, v->key);
        }
        break;
    case SWAI_REG_NIC_PORT_CTRL:
        if (val & SWAI_NIC_PORT_RESET) {
            close_port(np, np->sel);
        }
        break;
    case SWAI_REG_NIC_TIME_LO:
        np->time_ns = (np->time_ns & ~0xffffffffull) | val;
        break;
    case SWAI_REG_NIC_TIME_HI:
        np->time_ns = (np->time_ns & 0xffffffffull) | (uint64_t)val << 32;
        break;
    case SWAI_REG_NIC_POST:
        post(np);
        break;
    case SWAI_REG_NIC_CQ_POP:
        cq_pop(np);
        break;
    default:
        return off >= SWAI_REG_NIC_NODE && off < SWAI_REG_NIC_DESC + SWAI_NIC_DESC_SIZE
               ? (swai_glue_guest_error(np->glue, "swai: write to read-only "
                                        "NIC register 0x%" PRIx64, off), true)
               : false;
    }
    return true;
}

void swai_netport_rx(struct swai_netport *np, const uint8_t *frame, size_t len)
{
    if (np->rel) {
        swai_rel_input(np->rel, frame, len, wall(np));
        rearm(np);
    }
}

void swai_netport_tick(struct swai_netport *np)
{
    if (np->rel) {
        rearm(np);
    }
}
