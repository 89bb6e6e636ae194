// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_sysfs.c - attributes of a bound SW-AI card, one value per file, on
 * the PCI device (/sys/bus/pci/devices/<bdf>/, also reachable as
 * /sys/class/accel/accelN/device/).  All are read-only but the job
 * recovery ones of a card with queues: job_timeout_ms and card_reset, which
 * only root may write.
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
#include "swai_sched.h"
#include "swai_sysfs.h"

/* Longest job timeout accepted: an hour. */
#define SWAI_JOB_TIMEOUT_MAX_MS	(3600U * 1000U)

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

static ssize_t job_timeout_ms_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(dev_to_swai(dev)->job_timeout_ms));
}

static ssize_t job_timeout_ms_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	u32 ms;
	int ret;

	ret = kstrtou32(buf, 0, &ms);
	if (ret)
		return ret;
	if (ms > SWAI_JOB_TIMEOUT_MAX_MS)
		return -EINVAL;
	swai_sched_set_timeout(dev_to_swai(dev), ms);
	return count;
}
static DEVICE_ATTR_RW(job_timeout_ms);

/*
 * card_reset, not reset: behind a port that can reset it, the PCI core gives
 * the device a "reset" attribute of its own.
 */
static ssize_t card_reset_store(struct device *dev, struct device_attribute *attr,
				const char *buf, size_t count)
{
	bool yes;
	int ret;

	ret = kstrtobool(buf, &yes);
	if (ret)
		return ret;
	if (!yes)
		return -EINVAL;
	swai_sched_reset_card(dev_to_swai(dev));
	return count;
}
static DEVICE_ATTR_WO(card_reset);

static ssize_t reset_count_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  (long long)atomic64_read(&dev_to_swai(dev)->resets));
}
static DEVICE_ATTR_RO(reset_count);

static struct attribute *swai_job_attrs[] = {
	&dev_attr_job_timeout_ms.attr,
	&dev_attr_card_reset.attr,
	&dev_attr_reset_count.attr,
	NULL
};

/* Job recovery attributes exist only on cards with queues. */
static umode_t swai_job_attr_visible(struct kobject *kobj,
				     struct attribute *attr, int n)
{
	struct device *dev = kobj_to_dev(kobj);

	return dev_to_swai(dev)->has_queues ? attr->mode : 0;
}

static const struct attribute_group swai_job_attr_group = {
	.attrs = swai_job_attrs,
	.is_visible = swai_job_attr_visible,
};

/* &pci_driver.dev_groups of swai (the PCI core copies it to .driver) */
const struct attribute_group *swai_dev_groups[] = {
	&swai_attr_group,
	&swai_job_attr_group,
	NULL
};
