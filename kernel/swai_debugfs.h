/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_debugfs.h - recovery knobs of swai.ko in debugfs.
 */
#ifndef SWAI_DEBUGFS_H
#define SWAI_DEBUGFS_H

struct swai_device;

int swai_debugfs_init(struct swai_device *sdev);

#endif /* SWAI_DEBUGFS_H */
