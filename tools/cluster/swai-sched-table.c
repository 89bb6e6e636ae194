/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-sched-table.c - a schedule as seed 000 writes one: per round, who
 * sends which chunks to whom ("3->2[0,2]": rank 3 sends chunks 0 and 2
 * of its buffer to rank 2), and how many contiguous pieces that is.
 */
#include <stdio.h>
#include <stdlib.h>

#include "swai-sched.h"

int swai_sched_rounds(const struct swai_sched *s)
{
    uint32_t last = 0;
    bool any = false;

    for (int r = 0; r < s->nranks; r++) {
        for (int i = 0; i < s->ranks[r].nsteps; i++) {
            if (s->ranks[r].steps[i].round >= last) {
                last = s->ranks[r].steps[i].round;
                any = true;
            }
        }
    }
    return any ? (int)last + 1 : 0;
}

struct sent {
    int peer;
    uint32_t chunk;
};

static int cmp_sent(const void *a, const void *b)
{
    const struct sent *x = a, *y = b;

    if (x->peer != y->peer) {
        return x->peer < y->peer ? -1 : 1;
    }
    return x->chunk < y->chunk ? -1 : x->chunk > y->chunk;
}

/* Rank r's sends in @round, expanded to chunks and sorted; the count. */
static int gather(const struct swai_sched *s, int r, uint32_t round,
                  struct sent **out)
{
    const struct swai_sched_rank *rk = &s->ranks[r];
    size_t n = 0, cap = 0;
    struct sent *v = NULL;

    for (int i = 0; i < rk->nsteps; i++) {
        const struct swai_step *st = &rk->steps[i];

        if (st->op != SWAI_STEP_SEND || st->round != round) {
            continue;
        }
        for (uint32_t c = 0; c < st->count; c++) {
            if (n == cap) {
                struct sent *nv;

                cap = cap ? 2 * cap : 16;
                nv = realloc(v, cap * sizeof(*v));
                if (!nv) {
                    free(v);
                    return -1;
                }
                v = nv;
            }
            v[n++] = (struct sent){ st->peer, st->src_off + c };
        }
    }
    qsort(v, n, sizeof(*v), cmp_sent);
    *out = v;
    return (int)n;
}

int swai_sched_print_table(const struct swai_sched *s, FILE *f)
{
    int rounds = swai_sched_rounds(s);

    fprintf(f, "%s %s, %d ranks, %u chunks a rank\n", s->name,
            swai_coll_name(s->coll), s->nranks, s->chunks);
    for (int k = 0; k < rounds; k++) {
        fprintf(f, "step %d:", k);
        for (int r = 0; r < s->nranks; r++) {
            struct sent *v = NULL;
            int n = gather(s, r, (uint32_t)k, &v);

            if (n < 0) {
                return -1;
            }
            for (int i = 0; i < n; i++) {
                bool first = !i || v[i].peer != v[i - 1].peer;
                bool end = i == n - 1 || v[i + 1].peer != v[i].peer;

                if (first) {
                    fprintf(f, " %d->%d[", r, v[i].peer);
                }
                fprintf(f, "%u%s", v[i].chunk, end ? "]" : ",");
            }
            free(v);
        }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int swai_sched_pieces(const struct swai_sched *s, int *pieces, int max)
{
    int rounds = swai_sched_rounds(s);

    if (rounds > max) {
        return -1;
    }
    for (int k = 0; k < rounds; k++) {
        pieces[k] = 0;
    }
    for (int r = 0; r < s->nranks; r++) {
        const struct swai_sched_rank *rk = &s->ranks[r];

        /* steps of one message are issued together: count runs of them */
        for (int i = 0, run = 0; i < rk->nsteps; i++) {
            const struct swai_step *st = &rk->steps[i];
            const struct swai_step *prev = i ? &rk->steps[i - 1] : NULL;

            if (st->op != SWAI_STEP_SEND) {
                continue;
            }
            if (prev && prev->op == SWAI_STEP_SEND &&
                prev->peer == st->peer && prev->round == st->round) {
                run++;
            } else {
                run = 1;
            }
            if (run > pieces[st->round]) {
                pieces[st->round] = run;
            }
        }
    }
    return rounds;
}
