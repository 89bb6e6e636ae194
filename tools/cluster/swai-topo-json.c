/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-topo-json.c - the topology file (Documentation/cluster.md §2),
 * read and written with jansson.
 *
 * Reading is strict: an unknown key, a wrong type or a value out of range
 * is an error that names its place ("links[3].mbps"), because a typo in a
 * topology silently becoming a default would make every time built on it
 * wrong.  Links may be written compactly ("mesh", "ring", "star", and
 * "n0.*" for every card of node n0); writing gives the explicit form.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "swai-topo.h"

#ifndef SWAI_TOPO_DIR
#define SWAI_TOPO_DIR "/usr/local/share/swai/topologies"
#endif

#define TOPO_FORMAT 1

struct link_opts {
    uint32_t mbps, latency_ns;
    bool shared;
    char kind[16];
};

static bool only_keys(json_t *o, const char *const *keys, const char *where,
                      char *why, size_t n)
{
    const char *k;
    json_t *v;

    json_object_foreach(o, k, v) {
        bool known = false;

        for (const char *const *p = keys; *p; p++) {
            known |= !strcmp(*p, k);
        }
        if (!known) {
            snprintf(why, n, "%s: unknown key \"%s\"", where, k);
            return false;
        }
    }
    return true;
}

/* An optional integer key in [lo, hi]; 1 if present, 0 if not, -1 bad. */
static int get_uint(json_t *o, const char *key, long long lo, long long hi,
                    long long *out, const char *where, char *why, size_t n)
{
    json_t *v = json_object_get(o, key);

    if (!v) {
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        snprintf(why, n, "%s.%s: an integer in %lld..%lld", where, key, lo,
                 hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 1;
}

static int get_opts(json_t *o, struct link_opts *lo, const char *where,
                    char *why, size_t n)
{
    long long v;
    json_t *s;
    int r;

    r = get_uint(o, "mbps", 1, 100000000, &v, where, why, n);
    if (r < 0) {
        return -1;
    }
    if (r) {
        lo->mbps = (uint32_t)v;
    }
    r = get_uint(o, "latency_ns", 0, 1000000000, &v, where, why, n);
    if (r < 0) {
        return -1;
    }
    if (r) {
        lo->latency_ns = (uint32_t)v;
    }
    s = json_object_get(o, "shared");
    if (s && !json_is_boolean(s)) {
        snprintf(why, n, "%s.shared: true or false", where);
        return -1;
    }
    if (s) {
        lo->shared = json_is_true(s);
    }
    s = json_object_get(o, "kind");
    if (s && (!json_is_string(s) ||
              strlen(json_string_value(s)) >= sizeof(lo->kind))) {
        snprintf(why, n, "%s.kind: a string of at most %zu characters", where,
                 sizeof(lo->kind) - 1);
        return -1;
    }
    if (s) {
        strcpy(lo->kind, json_string_value(s));
    }
    return 0;
}

/* Expand a list of names ("n0.*", "*", "sw0") into device indices. */
static int expand(const struct swai_topo *t, json_t *arr, int **out,
                  const char *where, char *why, size_t n)
{
    size_t i, cap = 0, len = 0;
    int *v = NULL;
    json_t *e;

    if (!json_is_array(arr) || !json_array_size(arr)) {
        snprintf(why, n, "%s: a non-empty array of device names", where);
        return -1;
    }
    json_array_foreach(arr, i, e) {
        const char *name = json_string_value(e);
        size_t nl, before = len;

        if (!name) {
            snprintf(why, n, "%s[%zu]: a device name", where, i);
            goto bad;
        }
        nl = strlen(name);
        for (int d = 0; d < t->ndevs; d++) {
            const struct swai_topo_dev *dv = &t->devs[d];
            bool all = !strcmp(name, "*") && dv->kind == SWAI_TOPO_CARD;
            bool node = nl > 2 && !strcmp(name + nl - 2, ".*") &&
                        dv->kind == SWAI_TOPO_CARD &&
                        strlen(t->nodes[dv->node].name) == nl - 2 &&
                        !strncmp(t->nodes[dv->node].name, name, nl - 2);

            if (!all && !node && strcmp(dv->name, name)) {
                continue;
            }
            if (len == cap) {
                int *nv;

                cap = cap ? 2 * cap : 16;
                nv = realloc(v, cap * sizeof(*v));
                if (!nv) {
                    snprintf(why, n, "out of memory");
                    goto bad;
                }
                v = nv;
            }
            v[len++] = d;
        }
        if (len == before) {
            snprintf(why, n, "%s[%zu]: no device \"%s\"", where, i, name);
            goto bad;
        }
    }
    *out = v;
    return (int)len;
bad:
    free(v);
    return -1;
}

static int add_link(struct swai_topo *t, int a, int b, bool oneway,
                const struct link_opts *lo, const char *where, char *why,
                size_t n)
{
    struct swai_topo_link l = {
        .a = a, .b = b, .mbps = lo->mbps, .latency_ns = lo->latency_ns,
        .oneway = oneway, .shared = lo->shared,
    };
    char inner[200];

    memcpy(l.kind, lo->kind, sizeof(l.kind));
    if (!lo->mbps) {
        snprintf(why, n, "%s: no mbps (here or in link_defaults)", where);
        return -1;
    }
    if (swai_topo_add_link(t, &l, inner, sizeof(inner)) < 0) {
        snprintf(why, n, "%s: %s", where, inner);
        return -1;
    }
    return 0;
}

static const char *const link_keys[] = {
    "ends", "from", "to", "mesh", "ring", "star", "members",
    "mbps", "latency_ns", "shared", "kind", NULL
};

static int parse_link(struct swai_topo *t, json_t *o, struct link_opts lo,
                      const char *where, char *why, size_t n)
{
    int forms = !!json_object_get(o, "ends") + !!json_object_get(o, "from") +
                !!json_object_get(o, "mesh") + !!json_object_get(o, "ring") +
                !!json_object_get(o, "star");
    char sub[64];
    int *v = NULL, nv, ret = -1;

    if (!json_is_object(o) || !only_keys(o, link_keys, where, why, n)) {
        if (!json_is_object(o)) {
            snprintf(why, n, "%s: an object", where);
        }
        return -1;
    }
    if (forms != 1) {
        snprintf(why, n, "%s: exactly one of ends, from/to, mesh, ring, star",
                 where);
        return -1;
    }
    if (get_opts(o, &lo, where, why, n)) {
        return -1;
    }
    if (json_object_get(o, "ends")) {
        snprintf(sub, sizeof(sub), "%s.ends", where);
        nv = expand(t, json_object_get(o, "ends"), &v, sub, why, n);
        if (nv >= 0 && nv != 2) {
            snprintf(why, n, "%s: two devices", sub);
        } else if (nv == 2) {
            ret = add_link(t, v[0], v[1], false, &lo, where, why, n);
        }
    } else if (json_object_get(o, "from")) {
        json_t *pair = json_pack("[OO]", json_object_get(o, "from"),
                                 json_object_get(o, "to") ?
                                 json_object_get(o, "to") : json_null());

        snprintf(sub, sizeof(sub), "%s.from/to", where);
        nv = pair ? expand(t, pair, &v, sub, why, n) : -1;
        json_decref(pair);
        if (nv >= 0 && (nv != 2 || lo.shared)) {
            snprintf(why, n, "%s: one device each, not shared", sub);
        } else if (nv == 2) {
            ret = add_link(t, v[0], v[1], true, &lo, where, why, n);
        }
    } else if (json_object_get(o, "star")) {
        json_t *hub = json_object_get(o, "star");
        int h = json_is_string(hub) ?
                swai_topo_find(t, json_string_value(hub)) : -1;

        snprintf(sub, sizeof(sub), "%s.members", where);
        if (h < 0) {
            snprintf(why, n, "%s.star: the hub's device name", where);
        } else if ((nv = expand(t, json_object_get(o, "members"), &v, sub,
                                why, n)) >= 0) {
            ret = 0;
            for (int i = 0; i < nv && !ret; i++) {
                ret = add_link(t, h, v[i], false, &lo, where, why, n);
            }
        }
    } else {
        bool ring = json_object_get(o, "ring");

        snprintf(sub, sizeof(sub), "%s.%s", where, ring ? "ring" : "mesh");
        nv = expand(t, json_object_get(o, ring ? "ring" : "mesh"), &v, sub,
                    why, n);
        if (nv >= 0 && nv < 2) {
            snprintf(why, n, "%s: at least two devices", sub);
        } else if (nv >= 2) {
            ret = 0;
            /* a ring of two is one link */
            for (int i = 0; ring && i < (nv > 2 ? nv : 1) && !ret; i++) {
                ret = add_link(t, v[i], v[(i + 1) % nv], false, &lo, where, why,
                           n);
            }
            for (int i = 0; !ring && i < nv && !ret; i++) {
                for (int j = i + 1; j < nv && !ret; j++) {
                    ret = add_link(t, v[i], v[j], false, &lo, where, why, n);
                }
            }
        }
    }
    free(v);
    return ret;
}

static int parse_nodes(struct swai_topo *t, json_t *arr, char *why, size_t n)
{
    static const char *const keys[] = { "name", "cards", "cgs", NULL };
    size_t i;
    json_t *o;

    if (!json_is_array(arr) || !json_array_size(arr)) {
        snprintf(why, n, "nodes: a non-empty array");
        return -1;
    }
    json_array_foreach(arr, i, o) {
        char where[32], inner[200];
        long long cards = 0, cgs = 4;
        const char *name;

        snprintf(where, sizeof(where), "nodes[%zu]", i);
        if (!json_is_object(o)) {
            snprintf(why, n, "%s: an object", where);
            return -1;
        }
        if (!only_keys(o, keys, where, why, n) ||
            get_uint(o, "cards", 1, 4096, &cards, where, why, n) <= 0 ||
            get_uint(o, "cgs", 1, SWAI_TOPO_MAX_CGS, &cgs, where, why,
                     n) < 0) {
            if (!json_object_get(o, "cards")) {
                snprintf(why, n, "%s: needs \"cards\"", where);
            }
            return -1;
        }
        name = json_string_value(json_object_get(o, "name"));
        if (!name) {
            snprintf(why, n, "%s: needs a \"name\"", where);
            return -1;
        }
        if (swai_topo_add_node(t, name, (int)cards, (int)cgs, inner,
                               sizeof(inner)) < 0) {
            snprintf(why, n, "%s: %s", where, inner);
            return -1;
        }
    }
    return 0;
}

static int parse_switches(struct swai_topo *t, json_t *arr, char *why,
                          size_t n)
{
    static const char *const keys[] = { "name", "latency_ns", NULL };
    size_t i;
    json_t *o;

    if (arr && !json_is_array(arr)) {
        snprintf(why, n, "switches: an array");
        return -1;
    }
    json_array_foreach(arr, i, o) {
        char where[32], inner[200];
        long long lat = 0;
        const char *name;

        snprintf(where, sizeof(where), "switches[%zu]", i);
        if (!json_is_object(o) || !only_keys(o, keys, where, why, n) ||
            get_uint(o, "latency_ns", 0, 1000000000, &lat, where, why,
                     n) < 0) {
            if (!json_is_object(o)) {
                snprintf(why, n, "%s: an object", where);
            }
            return -1;
        }
        name = json_string_value(json_object_get(o, "name"));
        if (!name || swai_topo_add_switch(t, name, (uint32_t)lat, inner,
                                          sizeof(inner)) < 0) {
            snprintf(why, n, "%s: %s", where, name ? inner : "needs a name");
            return -1;
        }
    }
    return 0;
}

static char *dup_str(json_t *root, const char *key)
{
    const char *s = json_string_value(json_object_get(root, key));

    return s ? strdup(s) : NULL;
}

static int parse_root(struct swai_topo *t, json_t *root, char *why, size_t n)
{
    static const char *const keys[] = {
        "swai_topology", "name", "description", "source", "routing",
        "nodes", "switches", "link_defaults", "links", NULL
    };
    static const char *const opt_keys[] = {
        "mbps", "latency_ns", "shared", "kind", NULL
    };
    struct link_opts lo = { 0 };
    json_t *defs, *links, *o;
    const char *name;
    size_t i;

    if (!json_is_object(root)) {
        snprintf(why, n, "the top level: an object");
        return -1;
    }
    if (!only_keys(root, keys, "the top level", why, n)) {
        return -1;
    }
    if (json_integer_value(json_object_get(root, "swai_topology")) !=
        TOPO_FORMAT) {
        snprintf(why, n, "\"swai_topology\": %d (the format's version) "
                 "missing or different", TOPO_FORMAT);
        return -1;
    }
    name = json_string_value(json_object_get(root, "name"));
    if (!name || !*name || strlen(name) >= sizeof(t->name)) {
        snprintf(why, n, "name: a string of 1..%zu characters",
                 sizeof(t->name) - 1);
        return -1;
    }
    strcpy(t->name, name);
    t->description = dup_str(root, "description");
    t->source = dup_str(root, "source");
    o = json_object_get(root, "routing");
    if (o && (!json_is_string(o) || (strcmp(json_string_value(o), "first") &&
                                     strcmp(json_string_value(o), "ecmp")))) {
        snprintf(why, n, "routing: \"first\" (the default) or \"ecmp\"");
        return -1;
    }
    t->ecmp = o && !strcmp(json_string_value(o), "ecmp");
    defs = json_object_get(root, "link_defaults");
    if (defs && (!json_is_object(defs) ||
                 !only_keys(defs, opt_keys, "link_defaults", why, n) ||
                 get_opts(defs, &lo, "link_defaults", why, n))) {
        if (!json_is_object(defs)) {
            snprintf(why, n, "link_defaults: an object");
        }
        return -1;
    }
    if (parse_nodes(t, json_object_get(root, "nodes"), why, n) ||
        parse_switches(t, json_object_get(root, "switches"), why, n)) {
        return -1;
    }
    links = json_object_get(root, "links");
    if (links && !json_is_array(links)) {
        snprintf(why, n, "links: an array");
        return -1;
    }
    json_array_foreach(links, i, o) {
        char where[32];

        snprintf(where, sizeof(where), "links[%zu]", i);
        if (parse_link(t, o, lo, where, why, n)) {
            return -1;
        }
    }
    if (swai_topo_finish(t)) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    return 0;
}

int swai_topo_parse(struct swai_topo *t, const char *text, char *why,
                    size_t n)
{
    json_error_t err;
    json_t *root;
    int ret;

    swai_topo_init(t);
    root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        snprintf(why, n, "line %d column %d: %s", err.line, err.column,
                 err.text);
        return -EINVAL;
    }
    ret = parse_root(t, root, why, n) ? -EINVAL : 0;
    json_decref(root);
    if (ret) {
        swai_topo_free(t);
    }
    return ret;
}

/* A preset's file, or the argument itself if it is a path. */
static int resolve(const char *arg, char *path, size_t len)
{
    const char *env = getenv("SWAI_TOPO_PATH");
    size_t al = strlen(arg);
    char dirs[PATH_MAX * 3];

    if (strchr(arg, '/') || (al > 5 && !strcmp(arg + al - 5, ".json"))) {
        snprintf(path, len, "%s", arg);
        return 0;
    }
    char exe[PATH_MAX], *slash;
    ssize_t el = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

    /* an installed tool's presets are in ../share/swai/topologies */
    exe[el > 0 ? el : 0] = 0;
    slash = strrchr(exe, '/');
    if (slash) {
        *slash = 0;
    }
    snprintf(dirs, sizeof(dirs), "%s%s%s:%s/../share/swai/topologies",
             env ? env : "", env ? ":" : "", SWAI_TOPO_DIR, exe);
    for (char *save, *d = strtok_r(dirs, ":", &save); d;
         d = strtok_r(NULL, ":", &save)) {
        snprintf(path, len, "%s/%s.json", d, arg);
        if (!access(path, R_OK)) {
            return 0;
        }
    }
    return -ENOENT;
}

int swai_topo_load(struct swai_topo *t, const char *arg, char *why,
                   size_t n)
{
    char path[PATH_MAX], inner[256];
    json_error_t err;
    struct stat st;
    json_t *root;
    int ret;

    swai_topo_init(t);
    if (resolve(arg, path, sizeof(path))) {
        snprintf(why, n, "no topology preset \"%s\" (in $SWAI_TOPO_PATH or "
                 "%s; or give a file)", arg, SWAI_TOPO_DIR);
        return -ENOENT;
    }
    if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
        snprintf(why, n, "%s is a directory, not a topology file", path);
        return -EISDIR;
    }
    root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!root && err.line < 0) {
        snprintf(why, n, "%s", err.text);   /* not read at all: jansson names the file */
        return access(path, R_OK) ? -ENOENT : -EINVAL;
    }
    if (!root) {
        snprintf(why, n, "%s:%d:%d: %s", path, err.line, err.column,
                 err.text);
        return -EINVAL;
    }
    ret = parse_root(t, root, inner, sizeof(inner)) ? -EINVAL : 0;
    json_decref(root);
    if (ret) {
        snprintf(why, n, "%s: %s", path, inner);
        swai_topo_free(t);
    }
    return ret;
}

static json_t *dump_link(const struct swai_topo *t,
                         const struct swai_topo_link *l)
{
    const char *a = t->devs[l->a].name, *b = t->devs[l->b].name;
    json_t *o = l->oneway ? json_pack("{ssss}", "from", a, "to", b) :
                            json_pack("{s[ss]}", "ends", a, b);

    if (!o) {
        return NULL;
    }
    json_object_set_new(o, "mbps", json_integer(l->mbps));
    json_object_set_new(o, "latency_ns", json_integer(l->latency_ns));
    if (l->shared) {
        json_object_set_new(o, "shared", json_true());
    }
    if (l->kind[0]) {
        json_object_set_new(o, "kind", json_string(l->kind));
    }
    return o;
}

char *swai_topo_dump(const struct swai_topo *t)
{
    json_t *root = json_pack("{si ss s[] s[] s[]}", "swai_topology",
                             TOPO_FORMAT, "name", t->name, "nodes",
                             "switches", "links");
    char *s = NULL;

    if (!root) {
        return NULL;
    }
    if (t->description) {
        json_object_set_new(root, "description",
                            json_string(t->description));
    }
    if (t->source) {
        json_object_set_new(root, "source", json_string(t->source));
    }
    if (t->ecmp) {
        json_object_set_new(root, "routing", json_string("ecmp"));
    }
    for (int i = 0; i < t->nnodes; i++) {
        const struct swai_topo_node *nd = &t->nodes[i];

        json_array_append_new(json_object_get(root, "nodes"),
                              json_pack("{sssisi}", "name", nd->name,
                                        "cards", nd->ncards, "cgs",
                                        t->devs[nd->first].cgs));
    }
    for (int i = 0; i < t->ndevs; i++) {
        if (t->devs[i].kind == SWAI_TOPO_SWITCH) {
            json_array_append_new(json_object_get(root, "switches"),
                                  json_pack("{sssi}", "name",
                                            t->devs[i].name, "latency_ns",
                                            t->devs[i].latency_ns));
        }
    }
    for (int i = 0; i < t->nlinks; i++) {
        json_array_append_new(json_object_get(root, "links"),
                              dump_link(t, &t->links[i]));
    }
    s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return s;
}
