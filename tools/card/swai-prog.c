// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * swai-prog.c - the program builder (swai-prog.h).
 */
#include <stdlib.h>
#include <string.h>

#include "swai-prog.h"

struct swai_insn swai_insn_xfer(uint8_t op, uint8_t flags, uint64_t dst,
                                uint64_t src, uint32_t rows, uint64_t len,
                                uint64_t dst_stride, uint64_t src_stride)
{
    return (struct swai_insn){
        .op = op, .flags = flags, .rows = rows, .len = len,
        .dst = dst, .src = src,
        .dst_stride = rows > 1 ? dst_stride : 0,
        .src_stride = rows > 1 ? src_stride : 0,
    };
}

struct swai_insn swai_insn_copy(uint64_t dst, uint64_t src, uint64_t len)
{
    return swai_insn_xfer(SWAI_OP_COPY, 0, dst, src, 1, len, 0, 0);
}

struct swai_insn swai_insn_reduce(uint8_t dtype, uint8_t rop, uint64_t dst,
                                  uint64_t src, uint64_t n)
{
    return (struct swai_insn){
        .op = SWAI_OP_REDUCE, .dtype = dtype, .rop = rop, .len = n,
        .dst = dst, .src = src,
    };
}

struct swai_insn swai_insn_div(uint8_t dtype, uint64_t dst, uint64_t divisor,
                               uint64_t n)
{
    return (struct swai_insn){
        .op = SWAI_OP_DIV, .dtype = dtype, .len = n, .dst = dst,
        .src = divisor,
    };
}

struct swai_insn swai_insn_barrier(uint64_t sem, uint64_t ncg, bool host)
{
    return (struct swai_insn){
        .op = SWAI_OP_BARRIER, .flags = host ? SWAI_BARRIER_HOST : 0,
        .len = ncg, .dst = sem,
    };
}

struct swai_insn swai_insn_signal(uint64_t sem, uint64_t value, bool set)
{
    return (struct swai_insn){
        .op = SWAI_OP_SIGNAL, .flags = set ? SWAI_SIGNAL_SET : 0,
        .dst = sem, .src = value,
    };
}

struct swai_insn swai_insn_wait(uint64_t sem, uint64_t value, bool eq)
{
    return (struct swai_insn){
        .op = SWAI_OP_WAIT, .flags = eq ? SWAI_WAIT_EQ : 0,
        .dst = sem, .src = value,
    };
}

struct swai_insn swai_insn_fence(uint64_t sem, uint64_t value)
{
    return (struct swai_insn){ .op = SWAI_OP_FENCE, .dst = sem, .src = value };
}

struct swai_insn swai_insn_op(uint8_t op)
{
    return (struct swai_insn){ .op = op };
}

void swai_prog_init(struct swai_prog *p)
{
    memset(p, 0, sizeof(*p));
}

void swai_prog_free(struct swai_prog *p)
{
    free(p->in);
    swai_prog_init(p);
}

/* Room for one more element of esize in *buf of *cap; false without memory. */
static bool grow(void **buf, int n, int *cap, size_t esize)
{
    int ncap;
    void *nb;

    if (n < *cap) {
        return true;
    }
    ncap = *cap ? *cap * 2 : 16;
    nb = realloc(*buf, (size_t)ncap * esize);
    if (!nb) {
        return false;
    }
    *buf = nb;
    *cap = ncap;
    return true;
}

struct swai_insn *swai_prog_add(struct swai_prog *p)
{
    struct swai_insn *in;

    if (!grow((void **)&p->in, p->n, &p->cap, sizeof(*p->in))) {
        p->nomem = true;
        return NULL;
    }
    in = &p->in[p->n++];
    memset(in, 0, sizeof(*in));
    return in;
}

void swai_prog_push(struct swai_prog *p, struct swai_insn in)
{
    struct swai_insn *slot = swai_prog_add(p);

    if (slot) {
        *slot = in;
    }
}

void swai_prog_append(struct swai_prog *p, const struct swai_insn *in, int n)
{
    int i;

    for (i = 0; i < n; i++) {
        swai_prog_push(p, in[i]);
    }
}

void swai_progs_init(struct swai_progs *ps)
{
    memset(ps, 0, sizeof(*ps));
}

void swai_progs_free(struct swai_progs *ps)
{
    int i;

    for (i = 0; i < ps->n; i++) {
        swai_prog_free(&ps->p[i]);
    }
    free(ps->p);
    swai_progs_init(ps);
}

struct swai_prog *swai_progs_add(struct swai_progs *ps)
{
    struct swai_prog *p;

    if (!grow((void **)&ps->p, ps->n, &ps->cap, sizeof(*ps->p))) {
        ps->nomem = true;
        return NULL;
    }
    p = &ps->p[ps->n++];
    swai_prog_init(p);
    return p;
}

void swai_progs_truncate(struct swai_progs *ps, int first)
{
    int i;

    for (i = first; i < ps->n; i++) {
        swai_prog_free(&ps->p[i]);
    }
    ps->n = first;
    ps->nomem = false;
}

bool swai_progs_nomem(const struct swai_progs *ps, int first)
{
    bool nomem = ps->nomem;
    int i;

    for (i = first; i < ps->n; i++) {
        nomem |= ps->p[i].nomem;
    }
    return nomem;
}

long swai_progs_insns(const struct swai_progs *ps)
{
    long n = 0;
    int i;

    for (i = 0; i < ps->n; i++) {
        n += ps->p[i].n;
    }
    return n;
}
