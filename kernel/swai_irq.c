// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_irq.c - MSI-X vectors, interrupt handlers and the probe-time
 * interrupt self-test of the SW-AI card.
 *
 * All sources share SWAI_REG_IRQ_STATUS (RW1C).  Management sources (bits
 * 0..7) signal vector SWAI_MSIX_MGMT, the completion source of core group cg
 * signals vector SWAI_MSIX_QUEUE(cg).  Each handler acknowledges only the
 * enabled bits that belong to its vector, so vectors never steal each
 * other's events, and returns IRQ_NONE when none of them is pending.
 */

#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/pci.h>

#include "swai_drv.h"
#include "swai_hw.h"
#include "swai_irq.h"
#include "swai_mmu.h"
#include "swai_queue.h"

#define SWAI_IRQ_TEST_TIMEOUT_MS	1000

/* Pending, enabled bits of @mask; 0 if none or the card is gone. */
static u32 swai_irq_pending(struct swai_device *sdev, u32 mask)
{
	u32 status = swai_rd(sdev, SWAI_REG_IRQ_STATUS);

	if (status == U32_MAX)
		return 0;

	return status & READ_ONCE(sdev->irq_enabled) & mask;
}

static irqreturn_t swai_irq_mgmt_handler(int irq, void *arg)
{
	struct swai_irq_vector *vec = arg;
	struct swai_device *sdev = vec->sdev;
	u32 pending;

	pending = swai_irq_pending(sdev, SWAI_IRQ_MGMT_MASK);
	if (!pending)
		return IRQ_NONE;

	swai_wr(sdev, SWAI_REG_IRQ_STATUS, pending);

	if (pending & SWAI_IRQ_SWI)
		complete(&sdev->swi_done);
	if (pending & SWAI_IRQ_MMU_FAULT)
		swai_mmu_fault_irq(sdev);
	if (pending & SWAI_IRQ_ERROR)
		dev_err_ratelimited(&sdev->pdev->dev, "card error 0x%08x\n",
				    swai_rd(sdev, SWAI_REG_ERROR));

	return IRQ_HANDLED;
}

static irqreturn_t swai_irq_queue_handler(int irq, void *arg)
{
	struct swai_irq_vector *vec = arg;
	struct swai_device *sdev = vec->sdev;
	u32 cg = vec->index - SWAI_MSIX_QUEUE(0);
	struct swai_queue *queues;
	u32 pending;

	pending = swai_irq_pending(sdev, SWAI_IRQ_QUEUE(cg));
	if (!pending)
		return IRQ_NONE;

	/* Acknowledge first: a completion after this is a new edge. */
	swai_wr(sdev, SWAI_REG_IRQ_STATUS, pending);

	queues = READ_ONCE(sdev->queues);
	if (queues && cg < sdev->num_cg)
		swai_queue_irq(&queues[cg]);

	return IRQ_HANDLED;
}

/**
 * swai_irq_enable() - let interrupt sources signal
 * @sdev: the card
 * @bits: SWAI_IRQ_* bits to enable
 *
 * Context: any; takes sdev->irq_lock with interrupts disabled.
 */
void swai_irq_enable(struct swai_device *sdev, u32 bits)
{
	unsigned long flags;

	spin_lock_irqsave(&sdev->irq_lock, flags);
	WRITE_ONCE(sdev->irq_enabled, sdev->irq_enabled | (bits & SWAI_IRQ_ALL));
	swai_wr(sdev, SWAI_REG_IRQ_ENABLE, sdev->irq_enabled);
	spin_unlock_irqrestore(&sdev->irq_lock, flags);
}

/**
 * swai_irq_disable() - stop interrupt sources from signalling
 * @sdev: the card
 * @bits: SWAI_IRQ_* bits to disable
 *
 * A handler already running may still see the bits; callers that need to
 * wait for it use synchronize_irq().
 *
 * Context: any; takes sdev->irq_lock with interrupts disabled.
 */
void swai_irq_disable(struct swai_device *sdev, u32 bits)
{
	unsigned long flags;

	spin_lock_irqsave(&sdev->irq_lock, flags);
	WRITE_ONCE(sdev->irq_enabled, sdev->irq_enabled & ~bits);
	swai_wr(sdev, SWAI_REG_IRQ_ENABLE, sdev->irq_enabled);
	spin_unlock_irqrestore(&sdev->irq_lock, flags);
}

/* devm action, runs before the handlers are freed: silence the card. */
static void swai_irq_fini(void *arg)
{
	struct swai_device *sdev = arg;

	swai_irq_disable(sdev, SWAI_IRQ_ALL);
	swai_wr(sdev, SWAI_REG_IRQ_STATUS, SWAI_IRQ_ALL);
}

/**
 * swai_irq_init() - allocate the MSI-X vectors and install the handlers
 * @sdev: the card, out of reset (every source disabled)
 *
 * Everything is device-managed: on unbind or a later probe failure the card
 * is silenced first, then the handlers and finally the vectors are freed.
 *
 * Return: 0 on success, a negative errno otherwise.
 */
int swai_irq_init(struct swai_device *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	struct device *dev = &pdev->dev;
	unsigned int i;
	int ret;

	spin_lock_init(&sdev->irq_lock);
	init_completion(&sdev->swi_done);

	ret = pci_alloc_irq_vectors(pdev, SWAI_MSIX_VECTORS, SWAI_MSIX_VECTORS,
				    PCI_IRQ_MSIX);
	if (ret < 0) {
		dev_err(dev, "cannot allocate %u MSI-X vectors: %d\n",
			SWAI_MSIX_VECTORS, ret);
		return ret;
	}

	sdev->irq_enabled = 0;
	swai_wr(sdev, SWAI_REG_IRQ_ENABLE, 0);
	swai_wr(sdev, SWAI_REG_IRQ_STATUS, SWAI_IRQ_ALL);

	for (i = 0; i < SWAI_MSIX_VECTORS; i++) {
		struct swai_irq_vector *vec = &sdev->vec[i];
		irq_handler_t handler;
		const char *name;

		vec->sdev = sdev;
		vec->index = i;
		vec->irq = pci_irq_vector(pdev, i);
		if (vec->irq < 0)
			return vec->irq;

		if (i == SWAI_MSIX_MGMT) {
			handler = swai_irq_mgmt_handler;
			name = devm_kasprintf(dev, GFP_KERNEL, "swai-%s-mgmt",
					      pci_name(pdev));
		} else {
			handler = swai_irq_queue_handler;
			name = devm_kasprintf(dev, GFP_KERNEL, "swai-%s-cg%u",
					      pci_name(pdev),
					      i - SWAI_MSIX_QUEUE(0));
		}
		if (!name)
			return -ENOMEM;

		ret = devm_request_irq(dev, vec->irq, handler, 0, name, vec);
		if (ret) {
			dev_err(dev, "cannot request MSI-X vector %u: %d\n", i, ret);
			return ret;
		}
	}

	return devm_add_action_or_reset(dev, swai_irq_fini, sdev);
}

/**
 * swai_irq_selftest() - check that a test interrupt reaches the driver
 * @sdev: the card, with swai_irq_init() done
 *
 * Raises SWAI_IRQ_SWI through SWAI_REG_IRQ_RAISE and waits up to one second
 * for the management handler to see it.  May sleep.
 *
 * Return: 0 if the interrupt arrived, -EOPNOTSUPP if the card cannot raise
 * test interrupts, -ETIMEDOUT if it never arrived.
 */
int swai_irq_selftest(struct swai_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;
	unsigned long left;

	if (!(sdev->hw_caps & SWAI_CAP_SWI))
		return -EOPNOTSUPP;

	reinit_completion(&sdev->swi_done);
	swai_irq_enable(sdev, SWAI_IRQ_SWI);
	swai_wr(sdev, SWAI_REG_IRQ_RAISE, SWAI_IRQ_SWI);

	left = wait_for_completion_timeout(&sdev->swi_done,
					   msecs_to_jiffies(SWAI_IRQ_TEST_TIMEOUT_MS));

	swai_irq_disable(sdev, SWAI_IRQ_SWI);
	swai_wr(sdev, SWAI_REG_IRQ_STATUS, SWAI_IRQ_SWI);
	synchronize_irq(sdev->vec[SWAI_MSIX_MGMT].irq);

	if (!left) {
		dev_warn(dev, "interrupt self-test timed out after %u ms\n",
			 SWAI_IRQ_TEST_TIMEOUT_MS);
		return -ETIMEDOUT;
	}

	return 0;
}
