// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_sysfs.c - read-only attributes of a bound SW-AI card, one value per
 * file, on the PCI device (/sys/bus/pci/devices/<bdf>/, also reachable as
 * /sys/class/accel/accelN/device/).
 *
 * They are driver dev_groups: the driver core creates them after probe
 * succeeded and removes them (waiting for readers) before remove() runs, so
 * every show() sees a fully probed card with BAR0 mapped.
 */

#include <linux/device.h>
#include <linux/sizes.h>
#include <linux/sysfs.h>

#include "swai_drv.h"
#include "swai_hw.h"
#include "swai_sysfs.h"

static struct swai_device *dev_to_swai(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static ssize_t hw_version_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	return sysfs_emit(buf, "0x%08x\n", dev_to_swai(dev)->hw_version);
}
static DEVICE_ATTR_RO(hw_version);

static ssize_t core_groups_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_swai(dev)->num_cg);
}
static DEVICE_ATTR_RO(core_groups);

static ssize_t cpes_per_cg_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_swai(dev)->cpes_per_cg);
}
static DEVICE_ATTR_RO(cpes_per_cg);

static ssize_t ldm_size_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_swai(dev)->ldm_size);
}
static DEVICE_ATTR_RO(ldm_size);

static ssize_t hbm_per_cg_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)dev_to_swai(dev)->hbm_per_cg_mb * SZ_1M);
}
static DEVICE_ATTR_RO(hbm_per_cg);

static ssize_t local_per_cg_show(struct device *dev, struct device_attribute *attr,
				 char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)swai_hw_local_per_cg_mb(dev_to_swai(dev)) * SZ_1M);
}
static DEVICE_ATTR_RO(local_per_cg);

static ssize_t global_size_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	struct swai_device *sdev = dev_to_swai(dev);

	return sysfs_emit(buf, "%llu\n",
			  swai_hw_global_size(sdev, swai_hw_local_per_cg_mb(sdev)));
}
static DEVICE_ATTR_RO(global_size);

static ssize_t global_granule_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_swai(dev)->global_granule);
}
static DEVICE_ATTR_RO(global_granule);

static ssize_t aperture_size_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)dev_to_swai(dev)->aperture_size);
}
static DEVICE_ATTR_RO(aperture_size);

static ssize_t capabilities_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n",
			  swai_hw_capabilities(dev_to_swai(dev)));
}
static DEVICE_ATTR_RO(capabilities);

static ssize_t contexts_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&dev_to_swai(dev)->num_contexts));
}
static DEVICE_ATTR_RO(contexts);

static ssize_t objects_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(dev_to_swai(dev)->num_objects));
}
static DEVICE_ATTR_RO(objects);

static struct attribute *swai_attrs[] = {
	&dev_attr_hw_version.attr,
	&dev_attr_core_groups.attr,
	&dev_attr_cpes_per_cg.attr,
	&dev_attr_ldm_size.attr,
	&dev_attr_hbm_per_cg.attr,
	&dev_attr_local_per_cg.attr,
	&dev_attr_global_size.attr,
	&dev_attr_global_granule.attr,
	&dev_attr_aperture_size.attr,
	&dev_attr_capabilities.attr,
	&dev_attr_contexts.attr,
	&dev_attr_objects.attr,
	NULL
};

static const struct attribute_group swai_attr_group = {
	.attrs = swai_attrs,
};

/* &pci_driver.dev_groups of swai (the PCI core copies it to .driver) */
const struct attribute_group *swai_dev_groups[] = {
	&swai_attr_group,
	NULL
};
