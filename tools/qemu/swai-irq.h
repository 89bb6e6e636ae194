/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-irq.h - the card's interrupt status and enable registers and their
 * MSI-X vectors (kernel/swai_regs.h; datasheet §7).  MSI-X is
 * edge-triggered: a vector fires only for bits that have just become
 * pending and enabled.
 */
#ifndef SWAI_IRQ_H
#define SWAI_IRQ_H

#include <stdint.h>

#include "swai-glue.h"

struct swai_irq {
    uint32_t status;            /* IRQ_STATUS */
    uint32_t enable;            /* IRQ_ENABLE */
    const struct swai_glue *glue;
};

void swai_irq_init(struct swai_irq *q, const struct swai_glue *glue);
/* Reset values: RESET_DONE pending, nothing enabled, so nothing fires. */
void swai_irq_reset(struct swai_irq *q);
/* Set IRQ_STATUS bits (SWAI_IRQ_ALL), signalling new pending&enabled ones. */
void swai_irq_raise(struct swai_irq *q, uint32_t bits);
/* IRQ_STATUS is write-1-to-clear. */
void swai_irq_ack(struct swai_irq *q, uint32_t bits);
/* IRQ_ENABLE: enabling a pending bit fires it. */
void swai_irq_set_enable(struct swai_irq *q, uint32_t v);

#endif /* SWAI_IRQ_H */
