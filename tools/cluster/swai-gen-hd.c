/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-hd.c - HD: recursive halving then recursive doubling
 * (Rabenseifner), log2 N rounds per pass (seed 000 §3).
 *
 *   ReduceScatter  halving: in round k rank r exchanges half of its
 *                  current range with r ^ (N >> (k + 1)) and keeps the
 *                  half holding block r.
 *   AllGather      doubling: in round k ranks r and r ^ (1 << k) swap
 *                  what they have, so the ranges double.
 *   AllReduce      both, on any N: with p = the largest power of two
 *                  <= N, the first 2(N - p) ranks pair up first (the even
 *                  one hands its input to the odd one, and gets the result
 *                  back at the end), which is why HD leaves links idle
 *                  when N is not a power of two.
 * ReduceScatter and AllGather alone need a power of two.  Reduction
 * order: the kept half first (src), then the partner's.
 */
#include <errno.h>
#include <stdio.h>

#include "swai-gen.h"

struct hd {
    int N, p2, L, rem;
    uint32_t round;             /* the first halving round */
};

/* The real rank of virtual rank v. */
static int real(const struct hd *h, int v)
{
    return v < h->rem ? 2 * v + 1 : v + h->rem;
}

/*
 * Halving at virtual rank v (real r), on blocks of one chunk: from
 * @base_buf at @base_off, partials in scratch from @w_off, and the block
 * v ends in out[@fin].
 */
static void halving(struct swai_sched *s, const struct hd *h, int r, int v,
                    int base_buf, uint32_t base_off, uint32_t w_off,
                    uint32_t fin)
{
    uint32_t lo = 0, len = (uint32_t)h->p2;
    bool reduced = false;

    for (int k = 0; k < h->L; k++) {
        int mask = h->p2 >> (k + 1), partner = real(h, v ^ mask);
        uint32_t half = len / 2;
        uint32_t keep = (v & mask) ? lo + half : lo;
        uint32_t give = (v & mask) ? lo : lo + half;
        int cur = reduced ? SWAI_BUF_SCRATCH : base_buf;
        uint32_t cur_off = reduced ? w_off : base_off;
        bool last = k == h->L - 1;

        swai_sched_send(s, r, partner, cur, cur_off + give, half,
                        h->round + (uint32_t)k);
        swai_sched_recv_reduce(s, r, partner, cur, cur_off + keep,
                               last ? SWAI_BUF_OUT : SWAI_BUF_SCRATCH,
                               last ? fin : w_off + keep, half,
                               h->round + (uint32_t)k);
        reduced = true;
        lo = keep;
        len = half;
    }
}

/* Doubling at virtual rank v (real r) on out[], from round @round. */
static void doubling(struct swai_sched *s, const struct hd *h, int r, int v,
                     uint32_t round)
{
    for (int k = 0; k < h->L; k++) {
        int mask = 1 << k, pv = v ^ mask;
        uint32_t mine = (uint32_t)(v & ~(mask - 1));
        uint32_t theirs = (uint32_t)(pv & ~(mask - 1));

        swai_sched_send(s, r, real(h, pv), SWAI_BUF_OUT, mine,
                        (uint32_t)mask, round + (uint32_t)k);
        swai_sched_recv(s, r, real(h, pv), SWAI_BUF_OUT, theirs,
                        (uint32_t)mask, round + (uint32_t)k);
    }
}

static void allreduce(struct swai_sched *s, struct hd *h)
{
    uint32_t C = (uint32_t)h->p2, pre = h->rem ? 1 : 0;

    s->scratch_chunks = 2 * C;
    h->round = pre;
    for (int r = 0; r < h->N; r++) {
        bool paired = r < 2 * h->rem;
        int v = paired ? r / 2 : r - h->rem;

        if (paired && !(r & 1)) {
            /* hands its input over, gets the result at the end */
            swai_sched_send(s, r, r + 1, SWAI_BUF_IN, 0, C, 0);
            swai_sched_recv(s, r, r + 1, SWAI_BUF_OUT, 0, C,
                            pre + 2 * (uint32_t)h->L);
            continue;
        }
        if (paired) {
            swai_sched_recv_reduce(s, r, r - 1, SWAI_BUF_IN, 0,
                                   SWAI_BUF_SCRATCH, 0, C, 0);
        }
        if (h->L) {
            halving(s, h, r, v, paired ? SWAI_BUF_SCRATCH : SWAI_BUF_IN, 0,
                    C, (uint32_t)v);
        }
        doubling(s, h, r, v, pre + (uint32_t)h->L);
        if (paired) {
            swai_sched_send(s, r, r - 1, SWAI_BUF_OUT, 0, C,
                            pre + 2 * (uint32_t)h->L);
        }
    }
}

static int build(struct swai_sched *s, enum swai_coll coll, int N,
                 const struct swai_gen_opts *o, char *why, size_t n)
{
    struct hd h = { .N = N, .p2 = 1 };
    int ret;

    while (h.p2 * 2 <= N) {
        h.p2 *= 2;
        h.L++;
    }
    h.rem = N - h.p2;
    if (coll != SWAI_COLL_ALLREDUCE && h.rem) {
        snprintf(why, n, "HD %s needs a power-of-two rank count, not %d",
                 swai_coll_name(coll), N);
        return -EINVAL;
    }
    ret = swai_sched_init(s, "HD", coll, N, o->root,
                          coll == SWAI_COLL_ALLREDUCE ? (uint32_t)h.p2 : 1);
    if (ret) {
        return ret;
    }
    if (coll == SWAI_COLL_ALLREDUCE) {
        allreduce(s, &h);
    } else if (coll == SWAI_COLL_REDUCESCATTER) {
        s->scratch_chunks = (uint32_t)N;
        for (int r = 0; r < N; r++) {
            halving(s, &h, r, r, SWAI_BUF_IN, 0, 0, 0);
        }
    } else {
        for (int r = 0; r < N; r++) {
            swai_sched_copy(s, r, SWAI_BUF_IN, 0, SWAI_BUF_OUT, (uint32_t)r,
                            1, 0);
            doubling(s, &h, r, r, 0);
        }
    }
    return 0;
}

const struct swai_gen swai_gen_hd = {
    .name = "HD",
    .what = "recursive halving-doubling: log2 N rounds per pass",
    .colls = 1u << SWAI_COLL_ALLREDUCE | 1u << SWAI_COLL_REDUCESCATTER |
             1u << SWAI_COLL_ALLGATHER,
    .build = build,
    .relabels = true,
};
