// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_drv.c - PCI and DRM accel driver of the SW-AI card: module entry,
 * probe and remove.
 *
 * Everything probe sets up is device-managed, so a failing probe and the
 * driver core's devres release after remove() undo it in reverse order:
 * card interrupts silenced, IRQ handlers freed, MSI-X vectors freed, BARs
 * released, drm_device reference dropped, PCI function disabled.
 */

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/swai_accel.h>

#include "swai_ctx.h"
#include "swai_debug.h"
#include "swai_debugfs.h"
#include "swai_drv.h"
#include "swai_gem.h"
#include "swai_hw.h"
#include "swai_ioctl.h"
#include "swai_irq.h"
#include "swai_mmu.h"
#include "swai_region.h"
#include "swai_sched.h"
#include "swai_sysfs.h"
#include "swai_fabric.h"
#include "swai_nic.h"
#include "swai_timing.h"

unsigned int swai_debug_mask;
module_param_named(debug, swai_debug_mask, uint, 0644);
MODULE_PARM_DESC(debug,
		 "Debug message categories (mask): 0x1 PROBE, 0x2 IOCTL, 0x4 JOB, 0x8 QUEUE, 0x10 MMU, 0x20 RESET, 0x40 PRIME");

static int local_mb = -1;
module_param(local_mb, int, 0444);
MODULE_PARM_DESC(local_mb,
		 "Local-HBM per core group in MiB at load, the rest is Global-HBM (-1: the card's reset value)");

/* DEFINE_DRM_ACCEL_FOPS with validating ioctl entry points. */
static const struct file_operations swai_accel_fops = {
	.owner		= THIS_MODULE,
	.open		= accel_open,
	.release	= drm_release,
	.unlocked_ioctl	= swai_unlocked_ioctl,
	.compat_ioctl	= swai_compat_ioctl,
	.poll		= drm_poll,
	.read		= drm_read,
	.llseek		= noop_llseek,
	.mmap		= drm_gem_mmap,
	.show_fdinfo	= drm_show_fdinfo,
	.fop_flags	= FOP_UNSIGNED_OFFSET,
};

static const struct drm_driver swai_drm_driver = {
	.driver_features	= DRIVER_COMPUTE_ACCEL | DRIVER_GEM |
				  DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE,
	.open			= swai_ctx_open,
	.postclose		= swai_ctx_postclose,
	.show_fdinfo		= swai_ctx_show_fdinfo,
	.gem_prime_import	= swai_gem_prime_import,
	.fops			= &swai_accel_fops,
	.ioctls			= swai_drm_ioctls,
	.num_ioctls		= ARRAY_SIZE(swai_drm_ioctls),
	.name			= DRM_SWAI_DRIVER_NAME,
	.desc			= SWAI_DRIVER_DESC,
	.date			= SWAI_DRIVER_DATE,
	.major			= DRM_SWAI_UAPI_MAJOR,
	.minor			= DRM_SWAI_UAPI_MINOR,
};

static int swai_map_bars(struct swai_device *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	struct device *dev = &pdev->dev;
	int ret;

	if (!(pci_resource_flags(pdev, SWAI_BAR_MMIO) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, SWAI_BAR_MMIO) < SWAI_MMIO_SIZE) {
		dev_err(dev, "BAR%d is not a %u KiB memory BAR\n",
			SWAI_BAR_MMIO, SWAI_MMIO_SIZE / 1024);
		return -ENODEV;
	}

	sdev->mmio = pcim_iomap_region(pdev, SWAI_BAR_MMIO, KBUILD_MODNAME);
	if (IS_ERR(sdev->mmio)) {
		ret = PTR_ERR(sdev->mmio);
		dev_err(dev, "cannot map BAR%d: %d\n", SWAI_BAR_MMIO, ret);
		return ret;
	}

	/* The HBM aperture is claimed now and mapped by later features. */
	if ((pci_resource_flags(pdev, SWAI_BAR_HBM) & IORESOURCE_MEM) &&
	    pci_resource_len(pdev, SWAI_BAR_HBM)) {
		ret = pcim_request_region(pdev, SWAI_BAR_HBM, KBUILD_MODNAME);
		if (ret) {
			dev_err(dev, "cannot claim BAR%d: %d\n", SWAI_BAR_HBM, ret);
			return ret;
		}
		sdev->aperture_start = pci_resource_start(pdev, SWAI_BAR_HBM);
		sdev->aperture_size = pci_resource_len(pdev, SWAI_BAR_HBM);
	}

	return 0;
}

static int swai_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct swai_device *sdev;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret) {
		dev_err(dev, "cannot enable PCI device: %d\n", ret);
		return ret;
	}

	sdev = devm_drm_dev_alloc(dev, &swai_drm_driver, struct swai_device, drm);
	if (IS_ERR(sdev))
		return PTR_ERR(sdev);
	sdev->pdev = pdev;
	pci_set_drvdata(pdev, sdev);

	ret = swai_map_bars(sdev);
	if (ret)
		return ret;

	/* Nothing is written to the card before it proved to be one. */
	ret = swai_hw_check_identity(sdev);
	if (ret)
		return ret;

	ret = swai_hw_reset(sdev);
	if (ret)
		return ret;

	ret = swai_hw_read_geometry(sdev);
	if (ret)
		return ret;

	ret = drmm_mutex_init(&sdev->drm, &sdev->partition_lock);
	if (ret)
		return ret;

	/* MMU entries carry address bits 51:12 (SWAI_PTE_ADDR_MASK). */
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(52));
	if (ret) {
		dev_err(dev, "no usable 52-bit DMA: %d\n", ret);
		return ret;
	}
	/* Bus mastering is needed for MSI-X messages as well as for DMA. */
	pci_set_master(pdev);

	ret = swai_irq_init(sdev);
	if (ret)
		return ret;

	ret = swai_irq_selftest(sdev);
	sdev->irq_ok = !ret;
	if (ret == -EOPNOTSUPP)
		dev_warn(dev, "card cannot raise test interrupts, interrupts untested\n");

	ret = swai_mmu_init(sdev);
	if (ret)
		return ret;

	ret = swai_region_init(sdev);
	if (ret)
		return ret;

	/* A split the card refuses is reported and the card's own kept. */
	if (local_mb >= 0 && swai_region_set_partition(sdev, local_mb))
		dev_warn(dev, "local_mb=%d not applied (HBM is %u MiB per CG)\n",
			 local_mb, sdev->hbm_per_cg_mb);

	swai_timing_init(sdev);
	swai_fabric_init(sdev);
	swai_nic_init(sdev);
	ret = swai_sched_init(sdev);
	if (ret)
		return ret;

	swai_region_debugfs_init(sdev);
	ret = swai_debugfs_init(sdev);
	if (ret)
		return ret;

	ret = drm_dev_register(&sdev->drm, 0);
	if (ret) {
		dev_err(dev, "cannot register DRM device: %d\n", ret);
		return ret;
	}

	dev_info(dev, "SW-AI v%u.%u: %u core groups x %u CPEs, %u MiB HBM per CG, accel%d\n",
		 sdev->hw_version >> 16, sdev->hw_version & 0xffff,
		 sdev->num_cg, sdev->cpes_per_cg, sdev->hbm_per_cg_mb,
		 sdev->drm.accel->index);
	return 0;
}

static void swai_remove(struct pci_dev *pdev)
{
	struct swai_device *sdev = pci_get_drvdata(pdev);

	/*
	 * Unregister /dev/accel/accelN and wait for ioctls inside
	 * drm_dev_enter(); open files then only see -ENODEV.  The devres
	 * release that follows quiesces and frees the hardware resources.
	 */
	drm_dev_unplug(&sdev->drm);
	/* Jobs on the card end now; the card itself is stopped by devres. */
	swai_sched_unplug(sdev);
	/*
	 * CPU mappings of buffer objects point into BAR2: zap them; mmap()
	 * refuses new ones after the unplug.  The contexts and objects of
	 * open files live on until they are closed, without the card.
	 */
	unmap_mapping_range(sdev->drm.anon_inode->i_mapping, 0, 0, 1);
}

static const struct pci_device_id swai_pci_ids[] = {
	{ PCI_DEVICE(SWAI_PCI_VENDOR_ID, SWAI_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, swai_pci_ids);

static struct pci_driver swai_pci_driver = {
	.name		= KBUILD_MODNAME,
	.id_table	= swai_pci_ids,
	.probe		= swai_probe,
	.remove		= swai_remove,
	/* Copied to .driver.dev_groups (and would overwrite it) on register. */
	.dev_groups	= swai_dev_groups,
};
module_pci_driver(swai_pci_driver);

MODULE_DESCRIPTION("DRM accel driver for the SW-AI accelerator card");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(DMA_BUF);
