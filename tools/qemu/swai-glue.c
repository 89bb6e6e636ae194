/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-glue.c - reporting a guest's misuse of the card (swai-glue.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "swai-glue.h"

void swai_glue_guest_error(const struct swai_glue *g, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    if (!g->ops->guest_error) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    g->ops->guest_error(g->opaque, msg);
}
