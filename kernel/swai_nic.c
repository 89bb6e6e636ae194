// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_nic.c - the card's NIC port (datasheet §16): virtual ports owned by
 * files, descriptors checked and posted, completions taken.
 *
 * The port registers are a window selected by SWAI_REG_NIC_VPORT, so every
 * access to them is serialised by @nic_lock, which also guards
 * @nic_owner.  A port belongs to the context that opened it: the card
 * translates its descriptors' and arriving packets' addresses in that
 * context's page tables only (PORT_ASID), and takes only packets that
 * carry its key, so a file reaches nothing it was not given and a peer
 * writes into a port's memory only if the owner gave it the key.
 */

#include <linux/delay.h>
#include <linux/nospec.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/swai_accel.h>
#include <drm/swai_nic.h>

#include "swai_ctx.h"
#include "swai_debug.h"
#include "swai_drv.h"
#include "swai_hw.h"
#include "swai_nic.h"

/* How long a NIC_WAIT sleeps between looks at the completion queue. */
#define SWAI_NIC_POLL_US	50
#define SWAI_NIC_WAIT_MAX_NS	(60ULL * NSEC_PER_SEC)

/**
 * swai_nic_init() - find the card's NIC port, if it has one on a network
 * @sdev: the card, out of reset
 */
void swai_nic_init(struct swai_device *sdev)
{
	mutex_init(&sdev->nic_lock);
	if (!(sdev->hw_caps & SWAI_CAP_NIC) ||
	    !(swai_rd(sdev, SWAI_REG_NIC_STATUS) & SWAI_NIC_STATUS_LINK))
		return;
	sdev->nic_node = swai_rd(sdev, SWAI_REG_NIC_NODE);
	sdev->has_nic = true;
	dev_info(sdev->drm.dev, "NIC port: node %u\n", sdev->nic_node);
}

/* The port's owner check: 0, or -EINVAL for a port the file does not own. */
static int swai_nic_owned(struct swai_ctx *ctx, u32 vport)
{
	struct swai_device *sdev = ctx->sdev;

	lockdep_assert_held(&sdev->nic_lock);
	if (vport >= SWAI_NIC_VPORTS)
		return -EINVAL;
	vport = array_index_nospec(vport, SWAI_NIC_VPORTS);
	return sdev->nic_owner[vport] == ctx ? 0 : -EINVAL;
}

static void swai_nic_release(struct swai_device *sdev, u32 vport)
{
	lockdep_assert_held(&sdev->nic_lock);
	swai_wr(sdev, SWAI_REG_NIC_VPORT, vport);
	/* No owner: the card drops the port's queue, slots and counter. */
	swai_wr(sdev, SWAI_REG_NIC_PORT_ASID, 0);
	swai_wr(sdev, SWAI_REG_NIC_PORT_KEY, 0);
	sdev->nic_owner[vport] = NULL;
}

/**
 * swai_nic_ctx_close() - close every port of a closing file
 * @ctx: its context
 */
void swai_nic_ctx_close(struct swai_ctx *ctx)
{
	struct swai_device *sdev = ctx->sdev;
	u32 v;
	int idx;

	if (!sdev->has_nic)
		return;
	mutex_lock(&sdev->nic_lock);
	for (v = 0; v < SWAI_NIC_VPORTS; v++) {
		if (sdev->nic_owner[v] != ctx)
			continue;
		if (drm_dev_enter(&sdev->drm, &idx)) {
			swai_nic_release(sdev, v);
			drm_dev_exit(idx);
		} else {
			sdev->nic_owner[v] = NULL;
		}
	}
	mutex_unlock(&sdev->nic_lock);
}

int swai_ioctl_nic_open(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_nic_open *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	int idx, ret = -EBUSY;
	u32 v, key;

	if (args->flags)
		return -EINVAL;
	if (!sdev->has_nic || !ctx)
		return -EOPNOTSUPP;
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	mutex_lock(&sdev->nic_lock);
	for (v = 0; v < SWAI_NIC_VPORTS; v++) {
		if (sdev->nic_owner[v])
			continue;
		key = get_random_u16() | 1;
		swai_wr(sdev, SWAI_REG_NIC_VPORT, v);
		swai_wr(sdev, SWAI_REG_NIC_PORT_ASID, ctx->asid);
		swai_wr(sdev, SWAI_REG_NIC_PORT_KEY, key);
		sdev->nic_owner[v] = ctx;
		args->vport = v;
		args->node = sdev->nic_node;
		args->key = key;
		swai_dbg(drm->dev, NIC, "ctx %u: port %u, key 0x%04x\n",
			 ctx->asid, v, key);
		ret = 0;
		break;
	}
	mutex_unlock(&sdev->nic_lock);
	drm_dev_exit(idx);
	return ret;
}

int swai_ioctl_nic_close(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_nic_close *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	int idx, ret;

	if (args->pad)
		return -EINVAL;
	if (!sdev->has_nic || !ctx)
		return -EOPNOTSUPP;
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	mutex_lock(&sdev->nic_lock);
	ret = swai_nic_owned(ctx, args->vport);
	if (!ret)
		swai_nic_release(sdev, array_index_nospec(args->vport,
							  SWAI_NIC_VPORTS));
	mutex_unlock(&sdev->nic_lock);
	drm_dev_exit(idx);
	return ret;
}

/*
 * The rules of drm/swai_nic.h the driver can see without the card: the
 * descriptor is for this port, from this node, of a known kind and flags.
 * The card checks the rest (the ALU's types, sizes) and refuses with
 * SWAI_NIC_POST_INVALID, which becomes -EINVAL too.
 */
static bool swai_nic_desc_ok(struct swai_device *sdev, const u8 *d, u32 vport)
{
	u32 ctrl = get_unaligned_le32(d + SWAI_NIC_D_CTRL);
	u32 kind = ctrl & SWAI_NIC_KIND_MASK;

	return kind >= SWAI_NIC_KIND_REDUCE && kind <= SWAI_NIC_KIND_MAX &&
	       !(ctrl & ~(SWAI_NIC_KIND_MASK | SWAI_NIC_F_ALL)) &&
	       d[SWAI_NIC_D_VPORT] == vport &&
	       d[SWAI_NIC_D_DST_VPORT] < SWAI_NIC_VPORTS &&
	       get_unaligned_le16(d + SWAI_NIC_D_SRC) == sdev->nic_node;
}

static int swai_nic_post_one(struct swai_device *sdev, const u8 *d,
			     u64 not_before_ns)
{
	u32 i, st;

	lockdep_assert_held(&sdev->nic_lock);
	for (i = 0; i < SWAI_NIC_DESC_SIZE; i += 4)
		swai_wr(sdev, SWAI_REG_NIC_DESC + i, get_unaligned_le32(d + i));
	swai_wr(sdev, SWAI_REG_NIC_TIME_LO, lower_32_bits(not_before_ns));
	swai_wr(sdev, SWAI_REG_NIC_TIME_HI, upper_32_bits(not_before_ns));
	swai_wr(sdev, SWAI_REG_NIC_POST, 1);
	st = swai_rd(sdev, SWAI_REG_NIC_POST_STATUS);
	switch (st) {
	case SWAI_NIC_POST_OK:
		return 0;
	case SWAI_NIC_POST_FULL:
		return -ENOSPC;
	default:
		return -EINVAL;
	}
}

int swai_ioctl_nic_post(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_nic_post *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	u8 *descs;
	int idx, ret;
	u32 i;

	args->posted = 0;
	if (args->pad || !args->count || args->count > DRM_SWAI_NIC_POST_MAX)
		return -EINVAL;
	if (!sdev->has_nic || !ctx)
		return -EOPNOTSUPP;
	descs = memdup_user(u64_to_user_ptr(args->descs),
			    (size_t)args->count * SWAI_NIC_DESC_SIZE);
	if (IS_ERR(descs))
		return PTR_ERR(descs);
	for (i = 0; i < args->count; i++) {
		if (!swai_nic_desc_ok(sdev, descs + i * SWAI_NIC_DESC_SIZE,
				      args->vport)) {
			swai_dbg(drm->dev, NIC,
				 "NIC_POST: descriptor %u: not for port %u of node %u, or no known kind\n",
				 i, args->vport, sdev->nic_node);
			kfree(descs);
			return -EINVAL;
		}
	}
	if (!drm_dev_enter(drm, &idx)) {
		kfree(descs);
		return -ENODEV;
	}
	mutex_lock(&sdev->nic_lock);
	ret = swai_nic_owned(ctx, args->vport);
	if (!ret)
		swai_wr(sdev, SWAI_REG_NIC_VPORT, args->vport);
	for (i = 0; !ret && i < args->count; i++) {
		ret = swai_nic_post_one(sdev, descs + i * SWAI_NIC_DESC_SIZE,
					args->not_before_ns);
		if (!ret)
			args->posted++;
	}
	mutex_unlock(&sdev->nic_lock);
	drm_dev_exit(idx);
	kfree(descs);
	return ret;
}

/* Completions waiting on the port, under @nic_lock. */
static u32 swai_nic_cq_count(struct swai_device *sdev, u32 vport)
{
	lockdep_assert_held(&sdev->nic_lock);
	swai_wr(sdev, SWAI_REG_NIC_VPORT, vport);
	return swai_rd(sdev, SWAI_REG_NIC_CQ_COUNT);
}

int swai_ioctl_nic_wait(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_nic_wait *args = data;
	struct swai_ctx *ctx = file->driver_priv;
	struct drm_swai_nic_cqe *out;
	u64 deadline;
	u32 n = 0, have;
	int idx, ret;

	args->count = 0;
	if (!args->max || args->max > SWAI_NIC_CQ_DEPTH ||
	    args->min > args->max || args->timeout_ns > SWAI_NIC_WAIT_MAX_NS)
		return -EINVAL;
	if (!sdev->has_nic || !ctx)
		return -EOPNOTSUPP;
	out = kvcalloc(args->max, sizeof(*out), SWAI_GFP_USER);
	if (!out)
		return -ENOMEM;
	deadline = ktime_get_ns() + args->timeout_ns;
	for (;;) {
		if (!drm_dev_enter(drm, &idx)) {
			ret = -ENODEV;
			break;
		}
		mutex_lock(&sdev->nic_lock);
		ret = swai_nic_owned(ctx, args->vport);
		have = ret ? 0 : swai_nic_cq_count(sdev, args->vport);
		/* Take what is there; stop once @min are taken. */
		while (!ret && have-- && n < args->max) {
			u32 e;

			swai_wr(sdev, SWAI_REG_NIC_CQ_POP, 1);
			e = swai_rd(sdev, SWAI_REG_NIC_CQ_ENTRY);
			out[n].status = SWAI_NIC_CQE_STATUS(e);
			out[n].kind = SWAI_NIC_CQE_KIND(e);
			out[n].errvec = SWAI_NIC_CQE_ERRVEC(e);
			out[n].index = swai_rd(sdev, SWAI_REG_NIC_CQ_INDEX);
			out[n].time_ns = swai_rd(sdev, SWAI_REG_NIC_CQ_TIME_LO) |
					 (u64)swai_rd(sdev, SWAI_REG_NIC_CQ_TIME_HI) << 32;
			n++;
		}
		mutex_unlock(&sdev->nic_lock);
		drm_dev_exit(idx);
		if (ret || n >= args->min || n == args->max)
			break;
		if (ktime_get_ns() >= deadline) {
			ret = -ETIME;
			break;
		}
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		usleep_range(SWAI_NIC_POLL_US, 2 * SWAI_NIC_POLL_US);
	}
	args->count = n;
	if (n && copy_to_user(u64_to_user_ptr(args->cqes), out,
			      n * sizeof(*out)))
		ret = -EFAULT;
	kvfree(out);
	return ret;
}
