/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-irq.c - interrupt status, enable and MSI-X vectors (swai-irq.h).
 */
#include "swai-trace.h"

#include "swai_regs.h"
#include "swai-irq.h"

_Static_assert(SWAI_IRQ_QUEUE_MASK == (((1u << SWAI_NUM_CG) - 1) << 8),
               "one queue IRQ bit per core group");

void swai_irq_init(struct swai_irq *q, const struct swai_glue *glue)
{
    q->glue = glue;
    swai_irq_reset(q);
}

void swai_irq_reset(struct swai_irq *q)
{
    q->status = SWAI_IRQ_RESET_DONE;
    q->enable = 0;
}

/* 'was' is status & enable before the change. */
static void update(struct swai_irq *q, uint32_t was)
{
    uint32_t edge = q->status & q->enable & ~was;
    unsigned cg;

    if (edge) {
        trace_swai_irq(edge, q->status, q->enable);
    }
    if (edge & SWAI_IRQ_MGMT_MASK) {
        q->glue->ops->notify(q->glue->opaque, SWAI_MSIX_MGMT);
    }
    for (cg = 0; cg < SWAI_NUM_CG; cg++) {
        if (edge & SWAI_IRQ_QUEUE(cg)) {
            q->glue->ops->notify(q->glue->opaque, SWAI_MSIX_QUEUE(cg));
        }
    }
}

void swai_irq_raise(struct swai_irq *q, uint32_t bits)
{
    uint32_t was = q->status & q->enable;

    q->status |= bits & SWAI_IRQ_ALL;
    update(q, was);
}

void swai_irq_ack(struct swai_irq *q, uint32_t bits)
{
    q->status &= ~bits;
}

void swai_irq_set_enable(struct swai_irq *q, uint32_t v)
{
    uint32_t was = q->status & q->enable;

    q->enable = v & SWAI_IRQ_ALL;
    update(q, was);
}
