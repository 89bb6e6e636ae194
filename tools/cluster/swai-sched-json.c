/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-json.c - the schedule file (Documentation/cluster.md §3),
 * read and written with jansson:
 *
 *   { "swai_schedule": 1, "name": "NHR", "collective": "allreduce",
 *     "ranks": 4, "root": 0, "chunks": 4, "scratch_chunks": 0,
 *     "steps": [ [ { "op": "send", "peer": 3, "src": "in:2", "count": 2,
 *                    "round": 0, "deps": [] }, ... ], ... ] }
 *
 * one array of steps per rank; a step names only the buffers its op uses
 * ("src" for send, "dst" for recv, both for the others).  Reading checks
 * the result with swai_sched_validate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "swai-sched.h"

#define SCHED_FORMAT 1

static const char *const buf_names[SWAI_BUF_N] = { "in", "out", "scratch" };

static bool uses_src(int op)
{
    return op != SWAI_STEP_RECV;
}

static bool uses_dst(int op)
{
    return op != SWAI_STEP_SEND;
}

static json_t *place(int buf, uint32_t off)
{
    char s[32];

    snprintf(s, sizeof(s), "%s:%u", buf_names[buf], off);
    return json_string(s);
}

static json_t *dump_step(const struct swai_sched_rank *r,
                         const struct swai_step *st)
{
    json_t *o = json_pack("{ss}", "op", swai_step_op_name(st->op));
    json_t *deps = json_array();

    if (!o || !deps) {
        json_decref(o);
        json_decref(deps);
        return NULL;
    }
    if (st->op <= SWAI_STEP_RECV_REDUCE) {
        json_object_set_new(o, "peer", json_integer(st->peer));
    }
    if (uses_src(st->op)) {
        json_object_set_new(o, "src", place(st->src_buf, st->src_off));
    }
    if (uses_dst(st->op)) {
        json_object_set_new(o, "dst", place(st->dst_buf, st->dst_off));
    }
    json_object_set_new(o, "count", json_integer(st->count));
    json_object_set_new(o, "round", json_integer(st->round));
    for (uint32_t d = 0; d < st->ndeps; d++) {
        json_array_append_new(deps, json_integer(r->deps[st->deps_at + d]));
    }
    json_object_set_new(o, "deps", deps);
    return o;
}

char *swai_sched_dump(const struct swai_sched *s)
{
    json_t *root, *steps;
    char *out;

    root = json_pack("{si ss ss si si si si}", "swai_schedule", SCHED_FORMAT,
                     "name", s->name, "collective", swai_coll_name(s->coll),
                     "ranks", s->nranks, "root", s->root, "chunks",
                     (json_int_t)s->chunks, "scratch_chunks",
                     (json_int_t)s->scratch_chunks);
    steps = json_array();
    if (!root || !steps) {
        json_decref(root);
        json_decref(steps);
        return NULL;
    }
    for (int r = 0; r < s->nranks; r++) {
        json_t *rank = json_array();

        for (int i = 0; rank && i < s->ranks[r].nsteps; i++) {
            json_array_append_new(rank, dump_step(&s->ranks[r],
                                                  &s->ranks[r].steps[i]));
        }
        json_array_append_new(steps, rank);
    }
    json_object_set_new(root, "steps", steps);
    out = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    return out;
}

static int get_place(json_t *o, const char *key, uint8_t *buf, uint32_t *off)
{
    const char *s = json_string_value(json_object_get(o, key));
    const char *colon = s ? strchr(s, ':') : NULL;
    char *end;
    unsigned long v;

    if (!colon) {
        return -1;
    }
    for (int b = 0; b < SWAI_BUF_N; b++) {
        if (strlen(buf_names[b]) == (size_t)(colon - s) &&
            !strncmp(s, buf_names[b], (size_t)(colon - s))) {
            v = strtoul(colon + 1, &end, 10);
            if (end == colon + 1 || *end || v > SWAI_SCHED_MAX_CHUNKS) {
                return -1;
            }
            *buf = (uint8_t)b;
            *off = (uint32_t)v;
            return 0;
        }
    }
    return -1;
}

static int get_u32(json_t *o, const char *key, uint32_t *v)
{
    json_t *j = json_object_get(o, key);

    if (!json_is_integer(j) || json_integer_value(j) < 0 ||
        json_integer_value(j) > UINT32_MAX) {
        return -1;
    }
    *v = (uint32_t)json_integer_value(j);
    return 0;
}

static int parse_step(struct swai_sched *s, int r, json_t *o, char *why,
                      size_t n)
{
    const char *opname = json_string_value(json_object_get(o, "op"));
    struct swai_step st = { .peer = -1 };
    int op = -1, idx;
    json_t *deps, *d;
    size_t k;

    for (int i = 0; opname && i < SWAI_STEP_N; i++) {
        op = strcmp(opname, swai_step_op_name(i)) ? op : i;
    }
    if (op < 0) {
        snprintf(why, n, "op: one of send, recv, recv_reduce, copy, reduce");
        return -1;
    }
    st.op = (uint8_t)op;
    if (op <= SWAI_STEP_RECV_REDUCE) {
        json_t *p = json_object_get(o, "peer");

        if (!json_is_integer(p) || json_integer_value(p) < 0 ||
            json_integer_value(p) >= s->nranks) {
            snprintf(why, n, "peer: a rank, 0..%d", s->nranks - 1);
            return -1;
        }
        st.peer = (int32_t)json_integer_value(p);
    }
    if ((uses_src(op) && get_place(o, "src", &st.src_buf, &st.src_off)) ||
        (uses_dst(op) && get_place(o, "dst", &st.dst_buf, &st.dst_off))) {
        snprintf(why, n, "src/dst: \"in|out|scratch:<chunk>\"");
        return -1;
    }
    if (get_u32(o, "count", &st.count) || get_u32(o, "round", &st.round)) {
        snprintf(why, n, "count and round: integers >= 0");
        return -1;
    }
    idx = swai_sched_add(s, r, &st);
    deps = json_object_get(o, "deps");
    if (deps && !json_is_array(deps)) {
        snprintf(why, n, "deps: an array of earlier step indices");
        return -1;
    }
    json_array_foreach(deps, k, d) {
        if (!json_is_integer(d) || json_integer_value(d) < 0 ||
            json_integer_value(d) >= idx) {
            snprintf(why, n, "deps[%zu]: an earlier step's index", k);
            return -1;
        }
        swai_sched_dep(s, r, idx, (int)json_integer_value(d));
    }
    return s->err ? -1 : 0;
}

static int parse_root(struct swai_sched *s, json_t *root, char *why,
                      size_t n)
{
    const char *name = json_string_value(json_object_get(root, "name"));
    const char *coll = json_string_value(json_object_get(root, "collective"));
    uint32_t ranks, rt = 0, chunks, scratch = 0;
    json_t *steps = json_object_get(root, "steps"), *rank, *o;
    size_t r, i;
    int c;

    if (json_integer_value(json_object_get(root, "swai_schedule")) !=
        SCHED_FORMAT) {
        snprintf(why, n, "\"swai_schedule\": %d (the format's version) "
                 "missing or different", SCHED_FORMAT);
        return -1;
    }
    c = coll ? swai_coll_parse(coll) : -1;
    if (!name || c < 0 || get_u32(root, "ranks", &ranks) ||
        get_u32(root, "chunks", &chunks) ||
        (json_object_get(root, "root") && get_u32(root, "root", &rt)) ||
        (json_object_get(root, "scratch_chunks") &&
         get_u32(root, "scratch_chunks", &scratch)) ||
        scratch > SWAI_SCHED_MAX_CHUNKS) {
        snprintf(why, n, "needs name, collective, ranks and chunks");
        return -1;
    }
    if (swai_sched_init(s, name, c, (int)ranks, (int)rt, chunks)) {
        snprintf(why, n, "%u ranks, root %u, %u chunks: out of range", ranks,
                 rt, chunks);
        return -1;
    }
    s->scratch_chunks = scratch;
    if (!json_is_array(steps) || json_array_size(steps) != ranks) {
        snprintf(why, n, "steps: one array per rank (%u)", ranks);
        return -1;
    }
    json_array_foreach(steps, r, rank) {
        json_array_foreach(rank, i, o) {
            char inner[160];

            if (!json_is_object(o) ||
                parse_step(s, (int)r, o, inner, sizeof(inner))) {
                snprintf(why, n, "steps[%zu][%zu]: %s", r, i,
                         json_is_object(o) ? inner : "an object");
                return -1;
            }
        }
    }
    return swai_sched_validate(s, why, n) ? -1 : 0;
}

int swai_sched_parse(struct swai_sched *s, const char *text, char *why,
                     size_t n)
{
    json_error_t err;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    int ret;

    memset(s, 0, sizeof(*s));
    if (!root) {
        snprintf(why, n, "line %d column %d: %s", err.line, err.column,
                 err.text);
        return -EINVAL;
    }
    ret = parse_root(s, root, why, n) ? -EINVAL : 0;
    json_decref(root);
    if (ret) {
        swai_sched_free(s);
    }
    return ret;
}
