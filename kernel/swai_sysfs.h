/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_sysfs.h - sysfs attributes of swai.ko on the PCI device.
 */
#ifndef SWAI_SYSFS_H
#define SWAI_SYSFS_H

struct attribute_group;

extern const struct attribute_group *swai_dev_groups[];

#endif /* SWAI_SYSFS_H */
