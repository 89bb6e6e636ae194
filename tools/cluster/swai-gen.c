/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen.c - the table of schedule generators and building one by name
 * (swai-gen.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "swai-gen.h"

const struct swai_gen *const swai_gens[] = {
    &swai_gen_ring, &swai_gen_mesh1, &swai_gen_mesh2, &swai_gen_hd,
    &swai_gen_nhr, &swai_gen_rb, &swai_gen_direct, &swai_gen_plane, NULL
};

const struct swai_gen *swai_gen_find(const char *name)
{
    for (int i = 0; swai_gens[i]; i++) {
        if (!strcasecmp(swai_gens[i]->name, name)) {
            return swai_gens[i];
        }
    }
    return NULL;
}

static int gcd(int a, int b)
{
    return b ? gcd(b, a % b) : a;
}

bool swai_gen_stride_ok(int nranks, int stride)
{
    return stride >= 1 && stride < (nranks > 1 ? nranks : 2) && gcd(stride, nranks) == 1;
}

/* Rank r's program to rank r * @stride mod N, its peers with it (swai_gen.relabels). */
static int relabel(struct swai_sched *s, int stride, char *why, size_t n)
{
    int N = s->nranks;
    struct swai_sched_rank *to = calloc((size_t)N, sizeof(*to));

    if (!to) {
        snprintf(why, n, "out of memory");
        return -ENOMEM;
    }
    for (int r = 0; r < N; r++) {
        struct swai_sched_rank *rk = &to[(int)((int64_t)r * stride % N)];

        *rk = s->ranks[r];
        for (int i = 0; i < rk->nsteps; i++) {
            if (rk->steps[i].peer >= 0) {
                rk->steps[i].peer = (int)((int64_t)rk->steps[i].peer * stride % N);
            }
        }
    }
    memcpy(s->ranks, to, (size_t)N * sizeof(*to));
    free(to);
    return 0;
}

int swai_gen_build(struct swai_sched *s, const char *algo,
                   enum swai_coll coll, int nranks,
                   const struct swai_gen_opts *o, char *why, size_t n)
{
    const struct swai_gen *g = swai_gen_find(algo);
    struct swai_gen_opts def = { 0 };
    int ret;

    memset(s, 0, sizeof(*s));
    if (!g) {
        snprintf(why, n, "no algorithm \"%s\" (RING, MESH1, MESH2, HD, NHR, "
                 "RB, DIRECT, PLANE)", algo);
        return -EINVAL;
    }
    if ((unsigned)coll >= SWAI_COLL_N || !(g->colls & (1u << coll))) {
        snprintf(why, n, "%s has no %s", g->name, swai_coll_name(coll));
        return -EINVAL;
    }
    if (nranks < 1 || nranks > SWAI_SCHED_MAX_RANKS) {
        snprintf(why, n, "%d ranks (1..%d)", nranks, SWAI_SCHED_MAX_RANKS);
        return -EINVAL;
    }
    o = o ? o : &def;
    if (o->root < 0 || o->root >= nranks) {
        snprintf(why, n, "root %d is not one of the %d ranks", o->root,
                 nranks);
        return -EINVAL;
    }
    if (o->stride && !swai_gen_stride_ok(nranks, o->stride)) {
        snprintf(why, n, "stride %d is not in 1..%d and coprime with %d ranks", o->stride,
                 nranks > 1 ? nranks - 1 : 1, nranks);
        return -EINVAL;
    }
    if (nranks == 1) {
        /* one rank: its input is its output, whatever the algorithm */
        ret = swai_sched_init(s, g->name, coll, 1, 0, 1);
        if (!ret) {
            swai_sched_copy(s, 0, SWAI_BUF_IN, 0, SWAI_BUF_OUT, 0, 1, 0);
        }
    } else {
        ret = g->build(s, coll, nranks, o, why, n);
        if (!ret && !s->err && g->relabels && coll == SWAI_COLL_ALLREDUCE && o->stride > 1) {
            ret = relabel(s, o->stride, why, n);
        }
    }
    if (!ret && s->err) {
        ret = s->err;
        snprintf(why, n, "%s", ret == -ENOMEM ? "out of memory" :
                 "the generator built a bad step");
    }
    if (!ret) {
        ret = swai_sched_autodeps(s);
        if (ret) {
            snprintf(why, n, "%s: bad schedule (%d)", g->name, ret);
        }
    }
    if (ret) {
        swai_sched_free(s);
    }
    return ret;
}
