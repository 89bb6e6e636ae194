/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_irq.h - MSI-X interrupts of swai.ko.
 */
#ifndef SWAI_IRQ_H
#define SWAI_IRQ_H

#include <linux/types.h>

struct swai_device;

int swai_irq_init(struct swai_device *sdev);
void swai_irq_enable(struct swai_device *sdev, u32 bits);
void swai_irq_disable(struct swai_device *sdev, u32 bits);
int swai_irq_selftest(struct swai_device *sdev);

#endif /* SWAI_IRQ_H */
