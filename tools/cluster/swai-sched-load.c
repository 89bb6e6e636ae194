/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-load.c - a schedule from a file: the native JSON
 * (swai-sched-json.c) or, for a name ending in .xml, MSCCL's algorithm
 * XML (swai-msccl.c).  What every tool that takes --in FILE calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swai-msccl.h"
#include "swai-sched.h"

/* The whole of @path, NUL-terminated, its length in *len; NULL and errno. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t cap = 0;

    *len = 0;
    if (!f) {
        return NULL;
    }
    errno = 0;
    for (;;) {
        size_t got;

        if (*len + 4096 + 1 > cap) {
            char *nb = realloc(buf, cap = 2 * cap + 8192);

            if (!nb) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + *len, 1, cap - *len - 1, f);
        *len += got;
        if (!got) {
            break;
        }
    }
    if (ferror(f)) {
        int e = errno ? errno : EIO;    /* fread's own: EISDIR for a directory */

        free(buf);
        fclose(f);
        errno = e;
        return NULL;
    }
    fclose(f);
    buf[*len] = 0;
    return buf;
}

int swai_sched_load(struct swai_sched *s, const char *path, char *why,
                    size_t n)
{
    size_t len, pl = strlen(path);
    char *text = slurp(path, &len);
    int ret;

    if (!text) {
        ret = -errno;
        snprintf(why, n, "%s: %s", path, strerror(errno));
        return ret;
    }
    ret = pl > 4 && !strcmp(path + pl - 4, ".xml") ?
          swai_msccl_import(s, text, len, why, n) :
          swai_sched_parse(s, text, why, n);
    free(text);
    if (ret && n) {
        char *what = strdup(why);

        snprintf(why, n, "%s: %s", path, what ? what : "cannot be read");
        free(what);
    }
    return ret;
}
