// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_debugfs.c - knobs for testing recovery, in the card's debugfs
 * directory /sys/kernel/debug/accel/<PCI address>/ (root only):
 *
 *   reset             write 1: reset every queue (as sysfs "reset")
 *   inject_hang       write a CG, or -1 for any: the next job written to
 *   inject_mmu_fault  that queue's ring carries SWAI_DESC_INJECT_HANG,
 *   inject_dma_fail   _MMU_FAULT or _DMA_FAIL; "off" disarms.  Reads back
 *                     the armed CG, -1, or "off".
 *
 * The files exist only on cards with queues; debugfs removes them at
 * unplug, waiting for a write in progress.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include <drm/drm_managed.h>

#include "swai_debugfs.h"
#include "swai_drv.h"
#include "swai_sched.h"

/**
 * struct swai_debugfs_knob - private data of one inject_* file
 * @sdev: the card
 * @kind: enum swai_inject
 */
struct swai_debugfs_knob {
	struct swai_device *sdev;
	int kind;
};

static ssize_t swai_debugfs_inject_read(struct file *f, char __user *buf,
					size_t len, loff_t *pos)
{
	struct swai_debugfs_knob *knob = f->private_data;
	int armed = atomic_read(&knob->sdev->inject[knob->kind]);
	char s[16];
	int n;

	if (armed == SWAI_INJECT_OFF)
		n = scnprintf(s, sizeof(s), "off\n");
	else
		n = scnprintf(s, sizeof(s), "%d\n", armed);
	return simple_read_from_buffer(buf, len, pos, s, n);
}

static ssize_t swai_debugfs_inject_write(struct file *f, const char __user *buf,
					 size_t len, loff_t *pos)
{
	struct swai_debugfs_knob *knob = f->private_data;
	struct swai_device *sdev = knob->sdev;
	char s[16];
	int cg, ret;

	if (len >= sizeof(s))
		return -EINVAL;
	if (copy_from_user(s, buf, len))
		return -EFAULT;
	s[len] = '\0';

	if (sysfs_streq(s, "off")) {
		cg = SWAI_INJECT_OFF;
	} else {
		ret = kstrtoint(s, 0, &cg);
		if (ret)
			return ret;
		if (cg < SWAI_INJECT_ANY || cg >= (int)sdev->num_cg)
			return -EINVAL;
	}
	atomic_set(&sdev->inject[knob->kind], cg);
	return len;
}

static const struct file_operations swai_debugfs_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = swai_debugfs_inject_read,
	.write = swai_debugfs_inject_write,
	.llseek = default_llseek,
};

static ssize_t swai_debugfs_reset_write(struct file *f, const char __user *buf,
					size_t len, loff_t *pos)
{
	struct swai_device *sdev = f->private_data;
	bool yes;
	int ret;

	ret = kstrtobool_from_user(buf, len, &yes);
	if (ret)
		return ret;
	if (!yes)
		return -EINVAL;
	swai_sched_reset_card(sdev);
	return len;
}

static const struct file_operations swai_debugfs_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = swai_debugfs_reset_write,
	.llseek = noop_llseek,
};

/**
 * swai_debugfs_init() - add the recovery knobs of a card with queues
 * @sdev: the card, before drm_dev_register() (the directory already exists)
 *
 * Return: 0 or -ENOMEM.
 */
int swai_debugfs_init(struct swai_device *sdev)
{
	static const char *const names[SWAI_INJECT_KINDS] = {
		[SWAI_INJECT_HANG] = "inject_hang",
		[SWAI_INJECT_MMU_FAULT] = "inject_mmu_fault",
		[SWAI_INJECT_DMA_FAIL] = "inject_dma_fail",
	};
	struct dentry *root = sdev->drm.debugfs_root;
	struct swai_debugfs_knob *knob;
	int k;

	if (!sdev->has_queues || !root)
		return 0;

	knob = drmm_kcalloc(&sdev->drm, SWAI_INJECT_KINDS, sizeof(*knob),
			    GFP_KERNEL);
	if (!knob)
		return -ENOMEM;
	debugfs_create_file("reset", 0200, root, sdev, &swai_debugfs_reset_fops);
	for (k = 0; k < SWAI_INJECT_KINDS; k++) {
		knob[k].sdev = sdev;
		knob[k].kind = k;
		debugfs_create_file(names[k], 0600, root, &knob[k],
				    &swai_debugfs_inject_fops);
	}
	return 0;
}
