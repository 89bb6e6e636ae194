/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched.c - the schedule model (swai-sched.h): building one,
 * deriving its data dependencies, and checking that it is well formed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-sched.h"

static const char *const coll_names[SWAI_COLL_N] = {
    [SWAI_COLL_ALLREDUCE] = "allreduce",
    [SWAI_COLL_REDUCESCATTER] = "reducescatter",
    [SWAI_COLL_ALLGATHER] = "allgather",
    [SWAI_COLL_BROADCAST] = "broadcast",
    [SWAI_COLL_REDUCE] = "reduce",
    [SWAI_COLL_ALLTOALL] = "alltoall",
};

static const char *const op_names[SWAI_STEP_N] = {
    [SWAI_STEP_SEND] = "send",
    [SWAI_STEP_RECV] = "recv",
    [SWAI_STEP_RECV_REDUCE] = "recv_reduce",
    [SWAI_STEP_COPY] = "copy",
    [SWAI_STEP_REDUCE] = "reduce",
};

const char *swai_coll_name(enum swai_coll c)
{
    return (unsigned)c < SWAI_COLL_N ? coll_names[c] : "?";
}

int swai_coll_parse(const char *name)
{
    for (int c = 0; c < SWAI_COLL_N; c++) {
        if (!strcmp(name, coll_names[c])) {
            return c;
        }
    }
    return -1;
}

const char *swai_step_op_name(enum swai_step_op op)
{
    return (unsigned)op < SWAI_STEP_N ? op_names[op] : "?";
}

bool swai_coll_reduces(enum swai_coll c)
{
    return c == SWAI_COLL_ALLREDUCE || c == SWAI_COLL_REDUCESCATTER ||
           c == SWAI_COLL_REDUCE;
}

int swai_sched_init(struct swai_sched *s, const char *name,
                    enum swai_coll coll, int nranks, int root,
                    uint32_t chunks)
{
    bool wide = coll == SWAI_COLL_ALLGATHER || coll == SWAI_COLL_ALLTOALL ||
                coll == SWAI_COLL_REDUCESCATTER;

    memset(s, 0, sizeof(*s));
    if ((unsigned)coll >= SWAI_COLL_N || nranks < 1 ||
        nranks > SWAI_SCHED_MAX_RANKS || root < 0 || root >= nranks ||
        !chunks || (uint64_t)chunks * (wide ? (unsigned)nranks : 1) >
        SWAI_SCHED_MAX_CHUNKS) {
        return -EINVAL;
    }
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->coll = coll;
    s->nranks = nranks;
    s->root = root;
    s->chunks = chunks;
    s->in_chunks = chunks;
    s->out_chunks = chunks;
    if (coll == SWAI_COLL_REDUCESCATTER || coll == SWAI_COLL_ALLTOALL) {
        s->in_chunks = chunks * (uint32_t)nranks;
    }
    if (coll == SWAI_COLL_ALLGATHER || coll == SWAI_COLL_ALLTOALL) {
        s->out_chunks = chunks * (uint32_t)nranks;
    }
    s->ranks = calloc((size_t)nranks, sizeof(*s->ranks));
    return s->ranks ? 0 : -ENOMEM;
}

int swai_sched_clone(struct swai_sched *dst, const struct swai_sched *src)
{
    *dst = *src;
    dst->ranks = calloc((size_t)src->nranks, sizeof(*dst->ranks));
    if (!dst->ranks) {
        return -ENOMEM;
    }
    for (int r = 0; r < src->nranks; r++) {
        const struct swai_sched_rank *a = &src->ranks[r];
        struct swai_sched_rank *b = &dst->ranks[r];

        b->nsteps = b->cap = a->nsteps;
        b->ndeps = b->depcap = a->ndeps;
        b->steps = malloc(((size_t)a->nsteps + 1) * sizeof(*b->steps));
        b->deps = malloc(((size_t)a->ndeps + 1) * sizeof(*b->deps));
        if (!b->steps || !b->deps) {
            swai_sched_free(dst);
            return -ENOMEM;
        }
        memcpy(b->steps, a->steps, (size_t)a->nsteps * sizeof(*b->steps));
        memcpy(b->deps, a->deps, (size_t)a->ndeps * sizeof(*b->deps));
    }
    return 0;
}

void swai_sched_free(struct swai_sched *s)
{
    for (int r = 0; s->ranks && r < s->nranks; r++) {
        free(s->ranks[r].steps);
        free(s->ranks[r].deps);
    }
    free(s->ranks);
    memset(s, 0, sizeof(*s));
}

uint32_t swai_sched_buf_chunks(const struct swai_sched *s, enum swai_buf b)
{
    return b == SWAI_BUF_IN ? s->in_chunks :
           b == SWAI_BUF_OUT ? s->out_chunks : s->scratch_chunks;
}

int swai_sched_add(struct swai_sched *s, int rank, const struct swai_step *st)
{
    struct swai_sched_rank *r;

    if (s->err) {
        return -1;
    }
    if (rank < 0 || rank >= s->nranks) {
        s->err = -EINVAL;
        return -1;
    }
    r = &s->ranks[rank];
    if (r->nsteps == r->cap) {
        int cap = r->cap ? 2 * r->cap : 8;
        struct swai_step *v = realloc(r->steps, (size_t)cap * sizeof(*v));

        if (!v) {
            s->err = -ENOMEM;
            return -1;
        }
        r->steps = v;
        r->cap = cap;
    }
    r->steps[r->nsteps] = *st;
    r->steps[r->nsteps].ndeps = 0;
    r->steps[r->nsteps].deps_at = 0;
    r->steps[r->nsteps].pad = 0;
    return r->nsteps++;
}

static int add(struct swai_sched *s, int rank, int op, int peer, int sbuf,
               uint32_t soff, int dbuf, uint32_t doff, uint32_t count,
               uint32_t round)
{
    struct swai_step st = {
        .op = (uint8_t)op, .peer = peer,
        .src_buf = (uint8_t)(sbuf < 0 ? 0 : sbuf), .src_off = soff,
        .dst_buf = (uint8_t)(dbuf < 0 ? 0 : dbuf), .dst_off = doff,
        .count = count, .round = round,
    };

    return swai_sched_add(s, rank, &st);
}

int swai_sched_send(struct swai_sched *s, int rank, int to, int buf,
                    uint32_t off, uint32_t count, uint32_t round)
{
    return add(s, rank, SWAI_STEP_SEND, to, buf, off, -1, 0, count, round);
}

int swai_sched_recv(struct swai_sched *s, int rank, int from, int buf,
                    uint32_t off, uint32_t count, uint32_t round)
{
    return add(s, rank, SWAI_STEP_RECV, from, -1, 0, buf, off, count, round);
}

int swai_sched_recv_reduce(struct swai_sched *s, int rank, int from,
                           int src_buf, uint32_t src_off, int dst_buf,
                           uint32_t dst_off, uint32_t count, uint32_t round)
{
    return add(s, rank, SWAI_STEP_RECV_REDUCE, from, src_buf, src_off,
               dst_buf, dst_off, count, round);
}

int swai_sched_copy(struct swai_sched *s, int rank, int src_buf,
                    uint32_t src_off, int dst_buf, uint32_t dst_off,
                    uint32_t count, uint32_t round)
{
    return add(s, rank, SWAI_STEP_COPY, -1, src_buf, src_off, dst_buf,
               dst_off, count, round);
}

int swai_sched_reduce(struct swai_sched *s, int rank, int src_buf,
                      uint32_t src_off, int dst_buf, uint32_t dst_off,
                      uint32_t count, uint32_t round)
{
    return add(s, rank, SWAI_STEP_REDUCE, -1, src_buf, src_off, dst_buf,
               dst_off, count, round);
}

/*
 * Dependencies are appended while a step is the rank's last one (what
 * autodeps and the parsers do), so each step's are one slice of deps[].
 */
void swai_sched_dep(struct swai_sched *s, int rank, int step, int on)
{
    struct swai_sched_rank *r;
    struct swai_step *st;

    if (s->err) {
        return;
    }
    if (rank < 0 || rank >= s->nranks || step < 0 ||
        step >= s->ranks[rank].nsteps || on < 0 || on >= step) {
        s->err = -EINVAL;
        return;
    }
    r = &s->ranks[rank];
    st = &r->steps[step];
    if (st->ndeps && st->deps_at + st->ndeps != r->ndeps) {
        s->err = -EINVAL;       /* not the step being built */
        return;
    }
    for (uint32_t i = 0; i < st->ndeps; i++) {
        if (r->deps[st->deps_at + i] == (uint32_t)on) {
            return;
        }
    }
    if (r->ndeps == r->depcap) {
        uint32_t cap = r->depcap ? 2 * r->depcap : 16;
        uint32_t *v = realloc(r->deps, cap * sizeof(*v));

        if (!v) {
            s->err = -ENOMEM;
            return;
        }
        r->deps = v;
        r->depcap = cap;
    }
    if (!st->ndeps) {
        st->deps_at = r->ndeps;
    }
    r->deps[r->ndeps++] = (uint32_t)on;
    st->ndeps++;
}

/* What a step reads and writes on its own rank. */
static void step_access(const struct swai_step *st, int *rbuf, int *wbuf)
{
    *rbuf = -1;
    *wbuf = -1;
    switch (st->op) {
    case SWAI_STEP_SEND:
        *rbuf = st->src_buf;
        break;
    case SWAI_STEP_RECV:
        *wbuf = st->dst_buf;
        break;
    case SWAI_STEP_RECV_REDUCE:
    case SWAI_STEP_COPY:
        *rbuf = st->src_buf;
        *wbuf = st->dst_buf;
        break;
    case SWAI_STEP_REDUCE:
        *rbuf = st->src_buf;
        *wbuf = st->dst_buf;
        break;
    }
}

/*
 * Per chunk of every buffer: the last step that wrote it and the steps
 * that read it since (a short list; older readers are covered through
 * the later writer that depends on them).
 */
struct chunk_state {
    int writer;
    int nreaders, cap;
    int *readers;
};

static int autodeps_rank(struct swai_sched *s, int rank)
{
    struct swai_sched_rank *r = &s->ranks[rank];
    uint32_t off[SWAI_BUF_N + 1];
    struct chunk_state *cs;
    int ret = 0;

    off[0] = 0;
    for (int b = 0; b < SWAI_BUF_N; b++) {
        off[b + 1] = off[b] + swai_sched_buf_chunks(s, b);
    }
    cs = calloc(off[SWAI_BUF_N] + 1, sizeof(*cs));
    if (!cs) {
        return -ENOMEM;
    }
    for (uint32_t c = 0; c < off[SWAI_BUF_N]; c++) {
        cs[c].writer = -1;
    }
    /* dependencies are rebuilt from scratch */
    r->ndeps = 0;
    for (int i = 0; i < r->nsteps; i++) {
        r->steps[i].ndeps = 0;
        r->steps[i].deps_at = 0;
    }
    for (int i = 0; i < r->nsteps && !ret && !s->err; i++) {
        const struct swai_step *st = &r->steps[i];
        int rb, wb;

        step_access(st, &rb, &wb);
        if (rb >= 0) {
            for (uint32_t c = 0; c < st->count; c++) {
                struct chunk_state *k = &cs[off[rb] + st->src_off + c];

                if (k->writer >= 0) {
                    swai_sched_dep(s, rank, i, k->writer);
                }
            }
        }
        if (wb >= 0) {
            for (uint32_t c = 0; c < st->count; c++) {
                struct chunk_state *k = &cs[off[wb] + st->dst_off + c];

                if (k->writer >= 0) {
                    swai_sched_dep(s, rank, i, k->writer);
                }
                for (int j = 0; j < k->nreaders; j++) {
                    if (k->readers[j] != i) {
                        swai_sched_dep(s, rank, i, k->readers[j]);
                    }
                }
            }
        }
        /* then record this step's accesses */
        if (rb >= 0) {
            for (uint32_t c = 0; c < st->count && !ret; c++) {
                struct chunk_state *k = &cs[off[rb] + st->src_off + c];

                if (k->nreaders == k->cap) {
                    int cap = k->cap ? 2 * k->cap : 2;
                    int *v = realloc(k->readers, (size_t)cap * sizeof(*v));

                    if (!v) {
                        ret = -ENOMEM;
                        break;
                    }
                    k->readers = v;
                    k->cap = cap;
                }
                k->readers[k->nreaders++] = i;
            }
        }
        if (wb >= 0) {
            for (uint32_t c = 0; c < st->count; c++) {
                struct chunk_state *k = &cs[off[wb] + st->dst_off + c];

                k->writer = i;
                k->nreaders = 0;
            }
        }
    }
    for (uint32_t c = 0; c < off[SWAI_BUF_N]; c++) {
        free(cs[c].readers);
    }
    free(cs);
    return ret ? ret : s->err;
}

int swai_sched_autodeps(struct swai_sched *s)
{
    char why[160];

    if (s->err) {
        return s->err;
    }
    /* ranges must be inside their buffers before chunks are indexed */
    if (swai_sched_validate(s, why, sizeof(why))) {
        return -EINVAL;
    }
    for (int r = 0; r < s->nranks; r++) {
        int ret = autodeps_rank(s, r);

        if (ret) {
            s->err = ret;
            return ret;
        }
    }
    return 0;
}

static bool range_ok(const struct swai_sched *s, int buf, uint32_t off,
                     uint32_t count)
{
    return buf >= 0 && buf < SWAI_BUF_N &&
           (uint64_t)off + count <= swai_sched_buf_chunks(s, buf);
}

static int check_step(const struct swai_sched *s, int rank, int i,
                      char *why, size_t n)
{
    const struct swai_sched_rank *r = &s->ranks[rank];
    const struct swai_step *st = &r->steps[i];
    bool remote = st->op <= SWAI_STEP_RECV_REDUCE;
    int rb, wb;

    if (st->op >= SWAI_STEP_N || !st->count) {
        snprintf(why, n, "rank %d step %d: bad op %u or no chunks", rank, i,
                 st->op);
        return -1;
    }
    if (remote && (st->peer < 0 || st->peer >= s->nranks ||
                   st->peer == rank)) {
        snprintf(why, n, "rank %d step %d (%s): peer %d is not another rank",
                 rank, i, swai_step_op_name(st->op), st->peer);
        return -1;
    }
    step_access(st, &rb, &wb);
    if ((rb >= 0 && !range_ok(s, rb, st->src_off, st->count)) ||
        (wb >= 0 && !range_ok(s, wb, st->dst_off, st->count))) {
        snprintf(why, n, "rank %d step %d (%s): chunks %u+%u or %u+%u "
                 "outside their buffer (in %u, out %u, scratch %u)", rank, i,
                 swai_step_op_name(st->op), st->src_off, st->count,
                 st->dst_off, st->count, s->in_chunks, s->out_chunks,
                 s->scratch_chunks);
        return -1;
    }
    if (wb == SWAI_BUF_IN) {
        snprintf(why, n, "rank %d step %d (%s): writes its input", rank, i,
                 swai_step_op_name(st->op));
        return -1;
    }
    if ((uint64_t)st->deps_at + st->ndeps > r->ndeps) {
        snprintf(why, n, "rank %d step %d: dependencies out of range", rank,
                 i);
        return -1;
    }
    for (uint32_t d = 0; d < st->ndeps; d++) {
        if (r->deps[st->deps_at + d] >= (uint32_t)i) {
            snprintf(why, n, "rank %d step %d depends on step %u, not an "
                     "earlier one", rank, i, r->deps[st->deps_at + d]);
            return -1;
        }
    }
    return 0;
}

static bool is_recv(const struct swai_step *st)
{
    return st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE;
}

void swai_sched_match_free(const struct swai_sched *s, int **match)
{
    for (int r = 0; match && r < s->nranks; r++) {
        free(match[r]);
    }
    free(match);
}

/* Rank a's sends against their receivers' receives, in issue order. */
static int match_sends(const struct swai_sched *s, int a, int **match,
                       int *cursor, char *why, size_t n)
{
    const struct swai_sched_rank *ra = &s->ranks[a];

    memset(cursor, 0, (size_t)s->nranks * sizeof(*cursor));
    for (int i = 0; i < ra->nsteps; i++) {
        const struct swai_step *st = &ra->steps[i];
        const struct swai_sched_rank *rb;
        int j;

        if (st->op != SWAI_STEP_SEND) {
            continue;
        }
        rb = &s->ranks[st->peer];
        for (j = cursor[st->peer]; j < rb->nsteps; j++) {
            if (is_recv(&rb->steps[j]) && rb->steps[j].peer == a) {
                break;
            }
        }
        if (j == rb->nsteps || rb->steps[j].count != st->count) {
            snprintf(why, n, "rank %d step %d sends %u chunks to rank %d, "
                     "which %s", a, i, st->count, st->peer,
                     j == rb->nsteps ? "never receives them" :
                     "receives a different count");
            return -EINVAL;
        }
        match[st->peer][j] = i;
        cursor[st->peer] = j + 1;
    }
    return 0;
}

int swai_sched_match(const struct swai_sched *s, int ***out, char *why,
                     size_t n)
{
    int **match = calloc((size_t)s->nranks, sizeof(*match));
    int *cursor = calloc((size_t)s->nranks, sizeof(*cursor));
    int ret = match && cursor ? 0 : -ENOMEM;

    for (int r = 0; !ret && r < s->nranks; r++) {
        match[r] = malloc(((size_t)s->ranks[r].nsteps + 1) * sizeof(int));
        if (!match[r]) {
            ret = -ENOMEM;
            break;
        }
        for (int i = 0; i < s->ranks[r].nsteps; i++) {
            match[r][i] = -1;
        }
    }
    for (int a = 0; !ret && a < s->nranks; a++) {
        ret = match_sends(s, a, match, cursor, why, n);
    }
    for (int b = 0; !ret && b < s->nranks; b++) {
        for (int j = 0; j < s->ranks[b].nsteps; j++) {
            if (is_recv(&s->ranks[b].steps[j]) && match[b][j] < 0) {
                snprintf(why, n, "rank %d step %d receives from rank %d, "
                         "which sends nothing more", b, j,
                         s->ranks[b].steps[j].peer);
                ret = -EINVAL;
                break;
            }
        }
    }
    if (ret == -ENOMEM) {
        snprintf(why, n, "out of memory");
    }
    free(cursor);
    if (ret) {
        swai_sched_match_free(s, match);
        match = NULL;
    }
    *out = match;
    return ret;
}

int swai_sched_validate(const struct swai_sched *s, char *why, size_t n)
{
    if (s->err) {
        snprintf(why, n, "the builder failed: %s", s->err == -ENOMEM ?
                 "out of memory" : "a bad step or dependency");
        return -EINVAL;
    }
    if (!s->ranks || s->nranks < 1) {
        snprintf(why, n, "no ranks");
        return -EINVAL;
    }
    for (int r = 0; r < s->nranks; r++) {
        for (int i = 0; i < s->ranks[r].nsteps; i++) {
            if (check_step(s, r, i, why, n)) {
                return -EINVAL;
            }
        }
    }
    {
        int **match, ret = swai_sched_match(s, &match, why, n);

        swai_sched_match_free(s, match);
        return ret;
    }
}
