/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-nic-desc.c - a NIC descriptor's bytes and their rules (swai-nic.h,
 * datasheet §16.3).  The driver checks posted descriptors with the same
 * rules (kernel/swai_nic.c) before the card sees them.
 */
#include <errno.h>
#include <string.h>

#include "swai-le.h"
#include "swai-nic.h"

bool swai_nic_moves_bytes(unsigned kind)
{
    return kind >= SWAI_NIC_KIND_WRITE && kind <= SWAI_NIC_KIND_RECV;
}

const char *swai_nic_desc_check(const struct swai_nic_desc *d)
{
    if (d->kind < SWAI_NIC_KIND_REDUCE || d->kind > SWAI_NIC_KIND_MAX) {
        return "unknown kind";
    }
    if (d->flags & ~SWAI_NIC_F_ALL) {
        return "unknown flags";
    }
    if (d->vport >= SWAI_NIC_VPORTS || d->dst_vport >= SWAI_NIC_VPORTS) {
        return "virtual port out of range";
    }
    if (d->branch > SWAI_NIC_BRANCH_MAX || d->child >= SWAI_NIC_BRANCH_MAX) {
        return "branch or child out of range";
    }
    if (swai_nic_moves_bytes(d->kind)) {
        /* Bytes, not elements: the ALU's fields are not theirs. */
        if (d->rtype || d->dtype || d->width || d->v.count || d->branch || d->v.errvec) {
            return "a WRITE, READ, SEND or RECV has no RTYPE, DTYPE, WIDTH, COUNT, "
                   "BRANCH or ERRVEC";
        }
        if (!d->len || d->len > SWAI_NIC_WRITE_MAX) {
            return "a WRITE, READ, SEND or RECV moves 1 byte .. 1 MiB (LEN)";
        }
        if (d->kind == SWAI_NIC_KIND_RECV) {
            /* a buffer on the receive queue: no peer, no trigger, nothing to send */
            return d->dst != SWAI_NIC_NODE_NONE || d->flags || d->cpcnt || d->addr ||
                   d->key ? "a RECV has no DST, flags, CPCNT, ADDR or KEY" : NULL;
        }
        if (d->dst == SWAI_NIC_NODE_NONE ||
            (d->flags & (SWAI_NIC_F_SWPFLAG | SWAI_NIC_F_SWPMP | SWAI_NIC_F_COMPLETE))) {
            return "a WRITE, READ or SEND needs a peer and takes neither SWPFLAG, SWPMP "
                   "nor COMPLETE";
        }
        if (d->kind == SWAI_NIC_KIND_SEND && d->addr) {
            return "a SEND has no ADDR: its bytes go into the peer's RECV";
        }
        return d->src > 0xffff || d->dst > 0xffff || d->key > 0xffff ?
               "node or key out of range" : NULL;
    }
    if (!swai_nic_alu_valid(d->rtype, d->dtype, d->width)) {
        return "the ALU has no such operation on that type and width";
    }
    if (d->v.count * d->width > SWAI_NIC_DATA_MAX) {
        return "more than 48 bytes of data";
    }
    if (d->src > 0xffff || d->dst > 0xffff || d->key > 0xffff) {
        return "node or key out of range";
    }
    if (d->v.errvec >> d->v.count) {
        return "error bits beyond the elements";
    }
    if (d->branch && d->kind != SWAI_NIC_KIND_REDUCE) {
        return "only a REDUCE combines children";
    }
    switch (d->kind) {
    case SWAI_NIC_KIND_REDUCE:
    case SWAI_NIC_KIND_BCAST:
        /* Their packets feed the peer's engine, never its memory. */
        if (d->dst != SWAI_NIC_NODE_NONE && !(d->flags & SWAI_NIC_F_SWPMP)) {
            return "a REDUCE or BCAST packet must go to the receive queue (SWPMP)";
        }
        if ((d->flags & SWAI_NIC_F_SWPFLAG) && d->kind != SWAI_NIC_KIND_BCAST) {
            return "SWPFLAG is a BCAST's";
        }
        break;
    default:                    /* PUT, ATOMIC: ADDR is the peer's */
        if (d->flags & (SWAI_NIC_F_SWPFLAG | SWAI_NIC_F_SWPMP |
                        SWAI_NIC_F_COMPLETE)) {
            return "PUT and ATOMIC take neither SWPFLAG, SWPMP nor COMPLETE";
        }
        if (d->dst == SWAI_NIC_NODE_NONE) {
            return "PUT and ATOMIC need a destination";
        }
        break;
    }
    return NULL;
}

int swai_nic_desc_decode(struct swai_nic_desc *d, const uint8_t *raw,
                         const char **why)
{
    unsigned i;

    memset(d, 0, sizeof(*d));
    d->kind = raw[SWAI_NIC_D_CTRL] & SWAI_NIC_KIND_MASK;
    d->flags = (unsigned)swai_ld_le(raw + SWAI_NIC_D_CTRL, 4) & ~SWAI_NIC_KIND_MASK;
    d->vport = raw[SWAI_NIC_D_VPORT];
    d->dst_vport = raw[SWAI_NIC_D_DST_VPORT];
    d->branch = raw[SWAI_NIC_D_BRANCH];
    d->child = raw[SWAI_NIC_D_CHILD];
    d->rtype = raw[SWAI_NIC_D_RTYPE];
    d->dtype = raw[SWAI_NIC_D_DTYPE];
    d->width = raw[SWAI_NIC_D_WIDTH];
    d->v.count = raw[SWAI_NIC_D_COUNT];
    d->src = (unsigned)swai_ld_le(raw + SWAI_NIC_D_SRC, 2);
    d->dst = (unsigned)swai_ld_le(raw + SWAI_NIC_D_DST, 2);
    d->cpcnt = (uint32_t)swai_ld_le(raw + SWAI_NIC_D_CPCNT, 4);
    d->v.errvec = (uint16_t)swai_ld_le(raw + SWAI_NIC_D_ERRVEC, 2);
    d->key = (unsigned)swai_ld_le(raw + SWAI_NIC_D_KEY, 2);
    d->addr = swai_ld_le(raw + SWAI_NIC_D_ADDR, 8);
    for (i = 0; i < SWAI_NIC_ELEMS_MAX; i++) {
        d->v.loc[i] = (uint32_t)swai_ld_le(raw + SWAI_NIC_D_LOC + 4 * i, 4);
    }
    memcpy(d->v.data, raw + SWAI_NIC_D_DATA, SWAI_NIC_DATA_MAX);
    if (swai_nic_moves_bytes(d->kind)) {
        d->src_addr = swai_ld_le(raw + SWAI_NIC_D_SRC_ADDR, 8);
        d->len = (uint32_t)swai_ld_le(raw + SWAI_NIC_D_LEN, 4);
        memset(d->v.loc, 0, sizeof(d->v.loc));
    }
    *why = swai_nic_desc_check(d);
    return *why ? -EINVAL : 0;
}

void swai_nic_desc_encode(uint8_t *raw, const struct swai_nic_desc *d)
{
    unsigned i;

    memset(raw, 0, SWAI_NIC_DESC_SIZE);
    swai_st_le(raw + SWAI_NIC_D_CTRL, 4, d->kind | d->flags);
    raw[SWAI_NIC_D_VPORT] = (uint8_t)d->vport;
    raw[SWAI_NIC_D_DST_VPORT] = (uint8_t)d->dst_vport;
    raw[SWAI_NIC_D_BRANCH] = (uint8_t)d->branch;
    raw[SWAI_NIC_D_CHILD] = (uint8_t)d->child;
    raw[SWAI_NIC_D_RTYPE] = (uint8_t)d->rtype;
    raw[SWAI_NIC_D_DTYPE] = (uint8_t)d->dtype;
    raw[SWAI_NIC_D_WIDTH] = (uint8_t)d->width;
    raw[SWAI_NIC_D_COUNT] = (uint8_t)d->v.count;
    swai_st_le(raw + SWAI_NIC_D_SRC, 2, d->src);
    swai_st_le(raw + SWAI_NIC_D_DST, 2, d->dst);
    swai_st_le(raw + SWAI_NIC_D_CPCNT, 4, d->cpcnt);
    swai_st_le(raw + SWAI_NIC_D_ERRVEC, 2, d->v.errvec);
    swai_st_le(raw + SWAI_NIC_D_KEY, 2, d->key);
    swai_st_le(raw + SWAI_NIC_D_ADDR, 8, d->addr);
    for (i = 0; i < SWAI_NIC_ELEMS_MAX; i++) {
        swai_st_le(raw + SWAI_NIC_D_LOC + 4 * i, 4, d->v.loc[i]);
    }
    memcpy(raw + SWAI_NIC_D_DATA, d->v.data, SWAI_NIC_DATA_MAX);
    if (swai_nic_moves_bytes(d->kind)) {
        swai_st_le(raw + SWAI_NIC_D_SRC_ADDR, 8, d->src_addr);
        swai_st_le(raw + SWAI_NIC_D_LEN, 4, d->len);
    }
}
