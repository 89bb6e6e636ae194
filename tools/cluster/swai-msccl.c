/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-msccl.c - MSCCL's XML algorithm format (swai-msccl.h), written by
 * hand (it is a flat list of elements) and read with libxml2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "swai-msccl.h"

static const char buf_letter[SWAI_BUF_N] = { 'i', 'o', 's' };

/* Threadblocks of a rank: 0 local, 1 + 2p sends to p, 2 + 2p receives. */
static int tb_of(const struct swai_step *st)
{
    if (st->op == SWAI_STEP_SEND) {
        return 1 + 2 * st->peer;
    }
    if (st->op == SWAI_STEP_RECV || st->op == SWAI_STEP_RECV_REDUCE) {
        return 2 + 2 * st->peer;
    }
    return 0;
}

/* The receive at the peer that gets send @i of rank @r (its dst). */
static const struct swai_step *matching(const struct swai_sched *s, int r,
                                        int i)
{
    const struct swai_step *st = &s->ranks[r].steps[i];
    const struct swai_sched_rank *pr = &s->ranks[st->peer];
    int k = 0;

    for (int j = 0; j < i; j++) {
        k += s->ranks[r].steps[j].op == SWAI_STEP_SEND &&
             s->ranks[r].steps[j].peer == st->peer;
    }
    for (int j = 0; j < pr->nsteps; j++) {
        const struct swai_step *q = &pr->steps[j];

        if ((q->op == SWAI_STEP_RECV || q->op == SWAI_STEP_RECV_REDUCE) &&
            q->peer == r && !k--) {
            return q;
        }
    }
    return st;
}

struct out {
    char *buf;
    size_t len;
    FILE *f;
};

static void export_rank(const struct swai_sched *s, int r, FILE *f)
{
    const struct swai_sched_rank *rk = &s->ranks[r];
    int ntb = 2 + 2 * s->nranks;
    int *pos = calloc((size_t)rk->nsteps + 1, sizeof(*pos));   /* in tb */
    int *cnt = calloc((size_t)ntb, sizeof(*cnt));
    static const char *const type[SWAI_STEP_N] = { "s", "r", "rrc", "cpy",
                                                   "re" };

    if (!pos || !cnt) {
        free(pos);
        free(cnt);
        return;
    }
    /* where each step lands, nops for extra dependencies included */
    for (int i = 0; i < rk->nsteps; i++) {
        int tb = tb_of(&rk->steps[i]);

        cnt[tb] += rk->steps[i].ndeps > 1 ? (int)rk->steps[i].ndeps - 1 : 0;
        pos[i] = cnt[tb]++;
    }
    fprintf(f, "  <gpu id=\"%d\" i_chunks=\"%u\" o_chunks=\"%u\" "
            "s_chunks=\"%u\">\n", r, s->in_chunks, s->out_chunks,
            s->scratch_chunks);
    for (int tb = 0; tb < ntb; tb++) {
        int peer = tb ? (tb - 1) / 2 : -1, sent = 0;

        if (!cnt[tb]) {
            continue;
        }
        fprintf(f, "    <tb id=\"%d\" send=\"%d\" recv=\"%d\" chan=\"0\">\n",
                tb, tb % 2 ? peer : -1, tb && !(tb % 2) ? peer : -1);
        for (int i = 0; i < rk->nsteps; i++) {
            const struct swai_step *st = &rk->steps[i];
            const struct swai_step *rv = st->op == SWAI_STEP_SEND ?
                                         matching(s, r, i) : st;
            int sbuf = st->op == SWAI_STEP_RECV ? SWAI_BUF_OUT : st->src_buf;
            uint32_t soff = st->op == SWAI_STEP_RECV ? 0 : st->src_off;

            if (tb_of(st) != tb) {
                continue;
            }
            for (uint32_t d = 0; d < st->ndeps; d++) {
                int on = (int)rk->deps[st->deps_at + d];
                bool last = d == st->ndeps - 1;

                fprintf(f, "      <step s=\"%d\" type=\"%s\" srcbuf=\"%c\" "
                        "srcoff=\"%u\" dstbuf=\"%c\" dstoff=\"%u\" "
                        "cnt=\"%u\" depid=\"%d\" deps=\"%d\" hasdep=\"%d\"/>\n",
                        sent++, last ? type[st->op] : "nop",
                        buf_letter[sbuf], soff, buf_letter[rv->dst_buf],
                        rv->dst_off, last ? st->count : 0,
                        tb_of(&rk->steps[on]), pos[on], 0);
            }
            if (!st->ndeps) {
                fprintf(f, "      <step s=\"%d\" type=\"%s\" srcbuf=\"%c\" "
                        "srcoff=\"%u\" dstbuf=\"%c\" dstoff=\"%u\" "
                        "cnt=\"%u\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n",
                        sent++, type[st->op], buf_letter[sbuf], soff,
                        buf_letter[rv->dst_buf], rv->dst_off, st->count);
            }
        }
        fprintf(f, "    </tb>\n");
    }
    fprintf(f, "  </gpu>\n");
    free(pos);
    free(cnt);
}

char *swai_msccl_export(const struct swai_sched *s)
{
    struct out o = { 0 };

    o.f = open_memstream(&o.buf, &o.len);
    if (!o.f) {
        return NULL;
    }
    fprintf(o.f, "<algo name=\"%s\" proto=\"Simple\" nchannels=\"1\" "
            "nchunksperloop=\"%u\" ngpus=\"%d\" coll=\"%s\" inplace=\"0\" "
            "outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n", s->name,
            s->in_chunks > s->out_chunks ? s->in_chunks : s->out_chunks,
            s->nranks, swai_coll_name(s->coll));
    for (int r = 0; r < s->nranks; r++) {
        export_rank(s, r, o.f);
    }
    fprintf(o.f, "</algo>\n");
    if (fclose(o.f)) {
        free(o.buf);
        return NULL;
    }
    return o.buf;
}

/* ---- import ---------------------------------------------------------- */

struct xstep {
    char type[8];
    int sbuf, dbuf, tb, s, depid, deps;
    uint32_t soff, doff, cnt;
    int sendpeer, recvpeer;     /* the threadblock's */
    int first, last;            /* our steps for it (-1: none yet) */
    int *carry, ncarry;         /* a nop's: the steps it waits for */
    bool placed;
};

/* What waiting for @x means: its last step, or all a nop waits for. */
static int inherit(const struct xstep *x, int **set, int *n)
{
    int *v;

    if (!x) {
        return 0;
    }
    v = realloc(*set, (size_t)(*n + x->ncarry + 1) * sizeof(*v));
    if (!v) {
        return -1;
    }
    *set = v;
    if (x->last >= 0) {
        v[(*n)++] = x->last;
    }
    for (int i = 0; i < x->ncarry; i++) {
        v[(*n)++] = x->carry[i];
    }
    return 0;
}

static int attr_int(xmlNode *n, const char *name, long lo, long hi, long *v)
{
    xmlChar *a = xmlGetProp(n, (const xmlChar *)name);
    char *end;

    if (!a) {
        return -1;
    }
    *v = strtol((const char *)a, &end, 10);
    if (end == (char *)a || *end || *v < lo || *v > hi) {
        xmlFree(a);
        return -1;
    }
    xmlFree(a);
    return 0;
}

static int attr_buf(xmlNode *n, const char *name)
{
    xmlChar *a = xmlGetProp(n, (const xmlChar *)name);
    int b = -1;

    if (a && a[0] && !a[1]) {
        b = a[0] == 'i' ? SWAI_BUF_IN : a[0] == 'o' ? SWAI_BUF_OUT :
            a[0] == 's' ? SWAI_BUF_SCRATCH : -1;
    }
    xmlFree(a);
    return b;
}

static bool is(xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE &&
           !strcmp((const char *)n->name, name);
}

/* A gpu's steps, flattened in document order. */
static int read_gpu(xmlNode *gpu, int nranks, struct xstep **out, int *nout,
                    char *why, size_t n)
{
    struct xstep *v = NULL;
    int len = 0, cap = 0;

    for (xmlNode *tb = gpu->children; tb; tb = tb->next) {
        long id, sp, rp;

        if (!is(tb, "tb")) {
            continue;
        }
        if (attr_int(tb, "id", 0, 1 << 20, &id) ||
            attr_int(tb, "send", -1, nranks - 1, &sp) ||
            attr_int(tb, "recv", -1, nranks - 1, &rp)) {
            snprintf(why, n, "a <tb> needs id, send and recv (ranks or -1)");
            goto bad;
        }
        for (xmlNode *st = tb->children; st; st = st->next) {
            xmlChar *type;
            long s, so, dof, c, di, ds;

            if (!is(st, "step")) {
                continue;
            }
            if (len == cap) {
                struct xstep *nv;

                cap = cap ? 2 * cap : 64;
                nv = realloc(v, (size_t)cap * sizeof(*v));
                if (!nv) {
                    snprintf(why, n, "out of memory");
                    goto bad;
                }
                v = nv;
            }
            type = xmlGetProp(st, (const xmlChar *)"type");
            if (!type || strlen((const char *)type) >= sizeof(v->type) ||
                attr_int(st, "s", 0, 1 << 24, &s) ||
                attr_int(st, "srcoff", -1, SWAI_SCHED_MAX_CHUNKS, &so) ||
                attr_int(st, "dstoff", -1, SWAI_SCHED_MAX_CHUNKS, &dof) ||
                attr_int(st, "cnt", 0, SWAI_SCHED_MAX_CHUNKS, &c) ||
                attr_int(st, "depid", -1, 1 << 20, &di) ||
                attr_int(st, "deps", -1, 1 << 24, &ds)) {
                xmlFree(type);
                snprintf(why, n, "tb %ld: a <step> needs s, type, srcoff, "
                         "dstoff, cnt, depid and deps", id);
                goto bad;
            }
            v[len] = (struct xstep){
                .sbuf = attr_buf(st, "srcbuf"), .dbuf = attr_buf(st, "dstbuf"),
                .tb = (int)id, .s = (int)s, .depid = (int)di, .deps = (int)ds,
                .soff = so < 0 ? 0 : (uint32_t)so,
                .doff = dof < 0 ? 0 : (uint32_t)dof, .cnt = (uint32_t)c,
                .sendpeer = (int)sp, .recvpeer = (int)rp,
                .first = -1, .last = -1,
            };
            strcpy(v[len].type, (const char *)type);
            xmlFree(type);
            len++;
        }
    }
    *out = v;
    *nout = len;
    return 0;
bad:
    free(v);
    return -1;
}

static struct xstep *find(struct xstep *v, int len, int tb, int s)
{
    for (int i = 0; i < len; i++) {
        if (v[i].tb == tb && v[i].s == s) {
            return &v[i];
        }
    }
    return NULL;
}

/* Our steps for one MSCCL step; its dependencies are already placed. */
static int emit(struct swai_sched *s, int r, struct xstep *x,
                struct xstep *prev, struct xstep *dep, char *why, size_t n)
{
    const char *t = x->type;
    bool reduce = !strcmp(t, "rrc") || !strcmp(t, "rrs") ||
                  !strcmp(t, "rrcs");
    bool recv = reduce || !strcmp(t, "r") || !strcmp(t, "rcs");
    bool send = !strcmp(t, "s") || !strcmp(t, "rcs") || !strcmp(t, "rrs") ||
                !strcmp(t, "rrcs");
    bool local = !strcmp(t, "cpy") || !strcmp(t, "re");
    int first = -1, last = -1;

    if (!strcmp(t, "nop")) {
        x->first = x->last = -1;
    } else if (!recv && !send && !local) {
        snprintf(why, n, "step type \"%s\" (s, r, rrc, rcs, rrs, rrcs, cpy, "
                 "re, nop)", t);
        return -1;
    } else if ((x->sbuf < 0 && !(recv && !reduce)) || x->dbuf < 0 ||
               !x->cnt) {
        snprintf(why, n, "a %s step needs srcbuf/dstbuf i|o|s and cnt", t);
        return -1;
    }
    if (recv) {
        if (x->recvpeer < 0) {
            snprintf(why, n, "a %s step in a tb without recv", t);
            return -1;
        }
        first = last = reduce ?
            swai_sched_recv_reduce(s, r, x->recvpeer, x->sbuf, x->soff,
                                   x->dbuf, x->doff, x->cnt, 0) :
            swai_sched_recv(s, r, x->recvpeer, x->dbuf, x->doff, x->cnt, 0);
    }
    if (send) {
        if (x->sendpeer < 0) {
            snprintf(why, n, "a %s step in a tb without send", t);
            return -1;
        }
        last = swai_sched_send(s, r, x->sendpeer, recv ? x->dbuf : x->sbuf,
                               recv ? x->doff : x->soff, x->cnt, 0);
        if (first < 0) {
            first = last;
        } else {
            swai_sched_dep(s, r, last, first);
        }
    }
    if (local) {
        first = last = !strcmp(t, "cpy") ?
            swai_sched_copy(s, r, x->sbuf, x->soff, x->dbuf, x->doff, x->cnt,
                            0) :
            swai_sched_reduce(s, r, x->sbuf, x->soff, x->dbuf, x->doff,
                              x->cnt, 0);
    }
    /* a nop passes its dependencies on; a real step takes them */
    if (inherit(prev, &x->carry, &x->ncarry) ||
        inherit(dep, &x->carry, &x->ncarry)) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    if (first >= 0) {
        for (int i = 0; i < x->ncarry; i++) {
            swai_sched_dep(s, r, first, x->carry[i]);
        }
        free(x->carry);
        x->carry = NULL;
        x->ncarry = 0;
    }
    x->first = first;
    x->last = last;
    x->placed = true;
    return s->err ? -1 : 0;
}

static int import_gpu(struct swai_sched *s, int r, struct xstep *v, int len,
                      char *why, size_t n)
{
    for (int placed = 0; placed < len;) {
        int before = placed;

        /* every step whose predecessors are placed, in document order */
        for (int i = 0; i < len; i++) {
            struct xstep *x = &v[i], *prev, *dep = NULL;

            if (x->placed) {
                continue;
            }
            prev = x->s ? find(v, len, x->tb, x->s - 1) : NULL;
            if (x->depid >= 0) {
                dep = find(v, len, x->depid, x->deps);
                if (!dep) {
                    snprintf(why, n, "gpu %d tb %d step %d: depends on tb %d "
                             "step %d, which does not exist", r, x->tb, x->s,
                             x->depid, x->deps);
                    return -1;
                }
            }
            if ((x->s && (!prev || !prev->placed)) || (dep && !dep->placed)) {
                continue;
            }
            if (emit(s, r, x, prev, dep, why, n)) {
                return -1;
            }
            placed++;
        }
        if (placed == before) {
            snprintf(why, n, "gpu %d: its steps' dependencies form a cycle "
                     "or skip a step number", r);
            return -1;
        }
    }
    return 0;
}

static int import_algo(struct swai_sched *s, xmlNode *algo, char *why,
                       size_t n)
{
    xmlChar *name = xmlGetProp(algo, (const xmlChar *)"name");
    xmlChar *coll = xmlGetProp(algo, (const xmlChar *)"coll");
    long ngpus, ic = -1, oc = -1, sc = 0;
    int c = coll ? swai_coll_parse((const char *)coll) : -1;
    int r = 0, ret = -1;
    uint32_t chunks;

    if (attr_int(algo, "ngpus", 1, SWAI_SCHED_MAX_RANKS, &ngpus) || c < 0) {
        snprintf(why, n, "<algo> needs ngpus and a coll this project has "
                 "(allreduce, reducescatter, allgather, broadcast, reduce, "
                 "alltoall)");
        goto out;
    }
    for (xmlNode *g = algo->children; g; g = g->next) {
        if (is(g, "gpu") && ic < 0 &&
            (attr_int(g, "i_chunks", 1, SWAI_SCHED_MAX_CHUNKS, &ic) ||
             attr_int(g, "o_chunks", 1, SWAI_SCHED_MAX_CHUNKS, &oc))) {
            snprintf(why, n, "<gpu> needs i_chunks and o_chunks");
            goto out;
        }
        if (is(g, "gpu")) {
            long v;

            if (!attr_int(g, "s_chunks", 0, SWAI_SCHED_MAX_CHUNKS, &v) &&
                v > sc) {
                sc = v;
            }
        }
    }
    chunks = (uint32_t)(c == SWAI_COLL_REDUCESCATTER || c == SWAI_COLL_ALLTOALL
                        ? ic / ngpus : ic);
    if (ic < 0 || !chunks ||
        swai_sched_init(s, name ? (const char *)name : "MSCCL", c,
                        (int)ngpus, 0, chunks) ||
        s->in_chunks != (uint32_t)ic || s->out_chunks != (uint32_t)oc) {
        snprintf(why, n, "i_chunks %ld / o_chunks %ld do not fit a %s on %ld "
                 "ranks", ic, oc, coll, ngpus);
        goto out;
    }
    s->scratch_chunks = (uint32_t)sc;
    for (xmlNode *g = algo->children; g; g = g->next) {
        struct xstep *v;
        int len;
        long id;

        if (!is(g, "gpu")) {
            continue;
        }
        if (attr_int(g, "id", 0, ngpus - 1, &id) || id != r) {
            snprintf(why, n, "<gpu> ids must be 0..%ld in order", ngpus - 1);
            goto out;
        }
        if (read_gpu(g, (int)ngpus, &v, &len, why, n)) {
            goto out;
        }
        ret = import_gpu(s, r, v, len, why, n);
        for (int i = 0; i < len; i++) {
            free(v[i].carry);
        }
        free(v);
        if (ret) {
            goto out;
        }
        ret = -1;
        r++;
    }
    if (r != ngpus) {
        snprintf(why, n, "%d <gpu> elements for ngpus=\"%ld\"", r, ngpus);
        goto out;
    }
    ret = swai_sched_validate(s, why, n) ? -1 : 0;
out:
    xmlFree(name);
    xmlFree(coll);
    return ret;
}

int swai_msccl_import(struct swai_sched *s, const char *xml, size_t len,
                      char *why, size_t n)
{
    xmlDoc *doc;
    xmlNode *root;
    int ret = -EINVAL;

    memset(s, 0, sizeof(*s));
    if (len > 1u << 30) {
        snprintf(why, n, "larger than 1 GiB");
        return -EINVAL;
    }
    doc = xmlReadMemory(xml, (int)len, "msccl.xml", NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR |
                        XML_PARSE_NOWARNING);
    if (!doc) {
        const xmlError *e = xmlGetLastError();

        snprintf(why, n, "not XML: %s", e && e->message ? e->message : "?");
        return -EINVAL;
    }
    root = xmlDocGetRootElement(doc);
    if (!root || !is(root, "algo")) {
        snprintf(why, n, "the root element is not <algo>");
    } else if (!import_algo(s, root, why, n)) {
        ret = 0;
    }
    xmlFreeDoc(doc);
    if (ret) {
        swai_sched_free(s);
    }
    return ret;
}
