/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-access.c - device-address accesses of core-group programs
 * (swai-access.h).
 */
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "swai-access.h"

#define PAGE_SIZE       (1ull << SWAI_MMU_PAGE_SHIFT)
/* Source runs of one COPY piece that are remembered (<= 64 KiB of pages). */
#define COPY_RUNS       (SWAI_CHUNK / PAGE_SIZE + 2)

int swai_access_locate(struct swai_engine *e, unsigned cg,
                       struct swai_engine_job *j, uint64_t va, uint64_t len,
                       bool write, struct swai_place *p)
{
    /* Injected: looks to the driver exactly like a missing page. */
    if (j->inject_mmu) {
        j->inject_mmu = false;
        j->fault.mmu_reason = SWAI_MMU_R_NOT_PRESENT;
        j->fault.mmu_write = write;
        j->fault.va = va;
        return SWAI_JOB_ERR_MMU;
    }
    return e->ops->locate(e->opaque, cg, j, va, len, write, p, &j->fault);
}

/* Count n bytes on the paths an access of place p uses. */
static void account(uint64_t acct[SWAI_ACCT_N], const struct swai_place *p,
                    bool write, uint64_t n)
{
    unsigned peer = write ? SWAI_ACCT_FABRIC_WR_CARD : SWAI_ACCT_FABRIC_RD_CARD;

    if (!acct) {
        return;
    }
    switch (p->tier) {
    case SWAI_TIER_LOCAL:
        acct[write ? SWAI_RES_LOCAL_WR : SWAI_RES_LOCAL_RD] += n;
        break;
    case SWAI_TIER_GLOBAL:
        acct[write ? SWAI_RES_BUS_WR : SWAI_RES_BUS_RD] += n;
        acct[SWAI_RES_BUS_TOTAL] += n;
        break;
    case SWAI_TIER_PEER:
        /*
         * Over the ring bus like Global-HBM, and through the peer's Local
         * port.  One transfer reads one side and writes the other, so the
         * peer's port can stand in the CG's own LOCAL_RD/LOCAL_WR slot:
         * the chunk then also lasts at least bytes / local_mbps.
         * Contention at the peer's port with the peer's own traffic is not
         * modeled.
         */
        acct[write ? SWAI_RES_BUS_WR : SWAI_RES_BUS_RD] += n;
        acct[SWAI_RES_BUS_TOTAL] += n;
        acct[write ? SWAI_RES_LOCAL_WR : SWAI_RES_LOCAL_RD] += n;
        break;
    case SWAI_TIER_FABRIC:
        /*
         * Over the card's own fabric port and the route's links (booked by
         * the host, ops->fabric_book); the peer's HBM port is not modeled.
         */
        acct[write ? SWAI_ACCT_FABRIC_WR : SWAI_ACCT_FABRIC_RD] += n;
        if (!acct[peer]) {
            acct[peer] = (uint64_t)p->card + 1;
        }
        break;
    default:
        acct[write ? SWAI_RES_PCIE_WR : SWAI_RES_PCIE_RD] += n;
        break;
    }
}

int swai_access_rw(struct swai_engine *e, unsigned cg,
                   struct swai_engine_job *j, uint64_t va, uint8_t *buf,
                   uint64_t len, bool write, uint64_t acct[SWAI_ACCT_N],
                   uint64_t *moved)
{
    struct swai_place m;
    uint64_t done = 0;
    bool by_page = false;   /* after a failed run: find the failing page */
    int r = SWAI_JOB_OK;

    while (done < len) {
        uint64_t page_rest = PAGE_SIZE - ((va + done) & (PAGE_SIZE - 1));
        uint64_t n;

        r = swai_access_locate(e, cg, j, va + done, len - done, write, &m);
        if (r) {
            break;
        }
        n = len - done < m.run ? len - done : m.run;
        if (by_page && n > page_rest) {
            n = page_rest;
        }
        if (!buf) {
            /* timing only */
        } else if (m.ptr) {
            if (write) {
                memcpy(m.ptr, buf + done, n);
            } else {
                memcpy(buf + done, m.ptr, n);
            }
        } else if (m.dma &&
                   (write ? e->ops->dma_write(e->opaque, m.addr, buf + done, n)
                          : e->ops->dma_read(e->opaque, m.addr, buf + done,
                                             n))) {
            if (n > page_rest) {
                by_page = true;
                continue;
            }
            j->fault.va = va + done;
            r = SWAI_JOB_ERR_DMA;
            break;
        }
        account(acct, &m, write, n);
        done += n;
    }
    if (moved) {
        *moved = done;
    }
    return r;
}

/* The COPY the way the card defines it: all of the source into LDM first. */
static int copy_through(struct swai_engine *e, unsigned cg,
                        struct swai_engine_job *j, uint64_t dst, uint64_t src,
                        uint64_t len, uint64_t acct[SWAI_ACCT_N],
                        uint64_t *moved)
{
    uint8_t *buf = e->ldm ? e->bounce : NULL;
    uint64_t got;
    int r;

    *moved = 0;
    r = swai_access_rw(e, cg, j, src, buf, len, false, acct, &got);
    if (r) {
        return r;
    }
    return swai_access_rw(e, cg, j, dst, buf, len, true, acct, moved);
}

struct run {
    struct swai_place p;
    uint64_t n;
};

static bool overlaps(const uint8_t *a, uint64_t na, const uint8_t *b,
                     uint64_t nb)
{
    return a && b && a < b + nb && b < a + na;
}

/* Would writing [d, d + n) change source bytes not read yet? */
static bool clobbers(const uint8_t *d, uint64_t n, const struct run *s,
                     unsigned ns, unsigned si, uint64_t soff)
{
    if (overlaps(d, n, s[si].p.ptr ? s[si].p.ptr + soff : NULL,
                 s[si].n - soff)) {
        return true;
    }
    for (si++; si < ns; si++) {
        if (overlaps(d, n, s[si].p.ptr, s[si].n)) {
            return true;
        }
    }
    return false;
}

/*
 * Bytes between two places in this process that do not overlap.  Pieces
 * of a page or more use non-temporal stores on x86-64: a transfer's
 * destination is rarely read again soon, and streaming it avoids reading
 * every line before writing it -- most of what an emulated HBM-to-HBM copy
 * costs.  The caller fences once after its pieces (copy_fence()): a fence
 * per 4 KiB page of interleaved Global-HBM would cost a quarter of the time.
 */
static void copy_bytes(uint8_t *d, const uint8_t *s, uint64_t n)
{
#if defined(__x86_64__)
    if (n >= 4096) {
        uint64_t head = (16 - ((uintptr_t)d & 15)) & 15, i;

        if (head) {
            memcpy(d, s, head);
        }
        for (i = head; i + 64 <= n; i += 64) {
            __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
            __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
            __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
            __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));

            _mm_stream_si128((__m128i *)(d + i), a);
            _mm_stream_si128((__m128i *)(d + i + 16), b);
            _mm_stream_si128((__m128i *)(d + i + 32), c);
            _mm_stream_si128((__m128i *)(d + i + 48), e);
        }
        if (i < n) {
            memcpy(d + i, s + i, n - i);
        }
        return;
    }
#endif
    memcpy(d, s, n);
}

/* Make copy_bytes()'s stores visible to other threads, in order. */
static void copy_fence(void)
{
#if defined(__x86_64__)
    _mm_sfence();
#endif
}

/* m bytes from s + soff to d + doff; false: copy through LDM instead. */
static bool move(struct swai_engine *e, const struct swai_place *d,
                 uint64_t doff, const struct swai_place *s, uint64_t soff,
                 uint64_t m)
{
    if (d->ptr && s->ptr) {
        if (overlaps(d->ptr + doff, m, s->ptr + soff, m)) {
            memmove(d->ptr + doff, s->ptr + soff, m);
        } else {
            copy_bytes(d->ptr + doff, s->ptr + soff, m);
        }
        return true;
    }
    if (d->ptr && s->dma) {
        return !e->ops->dma_read(e->opaque, s->addr + soff, d->ptr + doff, m);
    }
    if (s->ptr && d->dma) {
        return !e->ops->dma_write(e->opaque, d->addr + doff, s->ptr + soff, m);
    }
    /* Host to host may overlap where this cannot see: through LDM. */
    return !(s->dma && d->dma);     /* else a side the host only times */
}

int swai_access_copy(struct swai_engine *e, unsigned cg,
                     struct swai_engine_job *j, uint64_t dst, uint64_t src,
                     uint64_t len, uint64_t acct[SWAI_ACCT_N],
                     uint64_t *moved)
{
    struct swai_engine_job saved = *j;
    uint64_t acct0[SWAI_ACCT_N];
    struct run s[COPY_RUNS];
    uint64_t got = 0, done = 0, soff = 0;
    unsigned ns = 0, si = 0;
    int r;

    /*
     * The source first, run by run, counted as it is read (a failing
     * source ends the piece with nothing written, as through LDM); then
     * the destination, each run filled straight from the source runs.
     * Anything the direct path cannot do as the card would -- a bus
     * error, or a destination overlapping source bytes not read yet --
     * goes back to the copy through LDM, from the same state.
     */
    memcpy(acct0, acct, sizeof(acct0));
    *moved = 0;
    while (got < len) {
        if (ns == COPY_RUNS) {
            goto through;
        }
        r = swai_access_locate(e, cg, j, src + got, len - got, false,
                               &s[ns].p);
        if (r) {
            return r;
        }
        s[ns].n = len - got < s[ns].p.run ? len - got : s[ns].p.run;
        account(acct, &s[ns].p, false, s[ns].n);
        got += s[ns++].n;
    }
    while (done < len) {
        struct swai_place d;
        uint64_t dl, x = 0;

        r = swai_access_locate(e, cg, j, dst + done, len - done, true, &d);
        if (r) {
            copy_fence();
            *moved = done;
            return r;
        }
        dl = len - done < d.run ? len - done : d.run;
        if (e->ldm && clobbers(d.ptr, dl, s, ns, si, soff)) {
            goto through;
        }
        while (e->ldm && x < dl) {
            uint64_t m = s[si].n - soff < dl - x ? s[si].n - soff : dl - x;

            if (!move(e, &d, x, &s[si].p, soff, m)) {
                goto through;
            }
            x += m;
            soff += m;
            if (soff == s[si].n) {
                si++;
                soff = 0;
            }
        }
        account(acct, &d, true, dl);
        done += dl;
    }
    copy_fence();
    *moved = done;
    return SWAI_JOB_OK;

through:
    copy_fence();
    *j = saved;
    memcpy(acct, acct0, sizeof(acct0));
    return copy_through(e, cg, j, dst, src, len, acct, moved);
}
