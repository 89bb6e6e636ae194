// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_ioctl.c - driver-private ioctls of swai.ko and their validation.
 *
 * The DRM core copies min(user size, table size) bytes in and zero-extends or
 * truncates silently.  The swai uAPI promises instead that a driver ioctl
 * with an unknown number fails with -ENOTTY and one whose encoded size or
 * direction differs from the table fails with -EINVAL, so the file
 * operations route every ioctl through swai_check_ioctl() first.
 */

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/ioctl.h>
#include <linux/nospec.h>
#include <linux/pci.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/swai_accel.h>

#include "swai_debug.h"
#include "swai_drv.h"
#include "swai_fabric.h"
#include "swai_gem.h"
#include "swai_hw.h"
#include "swai_ioctl.h"
#include "swai_job.h"
#include "swai_mmu.h"
#include "swai_nic.h"
#include "swai_prime.h"
#include "swai_region.h"
#include "swai_timing.h"

static int swai_ioctl_query_device(struct drm_device *drm, void *data,
				   struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_query_device *args = data;
	struct pci_dev *pdev = sdev->pdev;
	struct drm_swai_query_device out = {};
	unsigned int i;
	u32 local_mb;
	int idx;

	if (args->flags || args->pad)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(args->reserved); i++)
		if (args->reserved[i])
			return -EINVAL;

	/* The only live register read; BAR0 is unmapped after unplug. */
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	local_mb = swai_hw_local_per_cg_mb(sdev);
	drm_dev_exit(idx);

	out.capabilities = swai_hw_capabilities(sdev);
	out.pci_vendor = pdev->vendor;
	out.pci_device = pdev->device;
	out.pci_revision = pdev->revision;
	out.pci_domain = pci_domain_nr(pdev->bus);
	out.pci_bdf = (u32)pdev->bus->number << 8 | pdev->devfn;
	out.hw_version = sdev->hw_version;
	out.num_core_groups = sdev->num_cg;
	out.cpes_per_cg = sdev->cpes_per_cg;
	out.ldm_size = sdev->ldm_size;
	out.global_granule = sdev->global_granule;
	out.hbm_per_cg = (u64)sdev->hbm_per_cg_mb * SZ_1M;
	out.local_per_cg = (u64)local_mb * SZ_1M;
	out.global_size = swai_hw_global_size(sdev, local_mb);
	out.global_base = sdev->global_base;
	out.aperture_size = sdev->aperture_size;
	out.fabric_cards = sdev->fabric_cards;
	out.fabric_id = sdev->fabric_id;
	out.fabric_tag = sdev->fabric_tag;

	*args = out;
	return 0;
}

static int swai_ioctl_set_partition(struct drm_device *drm, void *data,
				    struct drm_file *file)
{
	struct swai_device *sdev = to_swai_device(drm);
	struct drm_swai_set_partition *args = data;
	int idx, ret;

	if (args->flags || args->pad || args->reserved[0] || args->reserved[1])
		return -EINVAL;
	if (!IS_ALIGNED(args->local_per_cg, SWAI_PART_ALIGN_MB * SZ_1M) ||
	    args->local_per_cg > (u64)sdev->hbm_per_cg_mb * SZ_1M)
		return -EINVAL;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = swai_region_set_partition(sdev, args->local_per_cg / SZ_1M);
	drm_dev_exit(idx);
	return ret;
}

/*
 * Accel minors are never render clients, so flags 0 lets any opener of
 * /dev/accel/accelN call the ioctl (as DRM_RENDER_ALLOW would on a GPU).
 * The split is card-wide state shared by every process: root only.
 */
const struct drm_ioctl_desc swai_drm_ioctls[SWAI_NUM_IOCTLS] = {
	DRM_IOCTL_DEF_DRV(SWAI_QUERY_DEVICE, swai_ioctl_query_device, 0),
	DRM_IOCTL_DEF_DRV(SWAI_SET_PARTITION, swai_ioctl_set_partition,
			  DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(SWAI_BO_CREATE, swai_ioctl_bo_create, 0),
	DRM_IOCTL_DEF_DRV(SWAI_BO_INFO, swai_ioctl_bo_info, 0),
	DRM_IOCTL_DEF_DRV(SWAI_MEM_INFO, swai_ioctl_mem_info, 0),
	DRM_IOCTL_DEF_DRV(SWAI_VA_PROBE, swai_ioctl_va_probe, 0),
	DRM_IOCTL_DEF_DRV(SWAI_BO_USERPTR, swai_ioctl_bo_userptr, 0),
	DRM_IOCTL_DEF_DRV(SWAI_QUERY_TIMING, swai_ioctl_query_timing, 0),
	DRM_IOCTL_DEF_DRV(SWAI_SUBMIT, swai_ioctl_submit, 0),
	DRM_IOCTL_DEF_DRV(SWAI_JOB_WAIT, swai_ioctl_job_wait, 0),
	DRM_IOCTL_DEF_DRV(SWAI_QUERY_PEER, swai_ioctl_query_peer, 0),
	DRM_IOCTL_DEF_DRV(SWAI_BO_IMPORT, swai_ioctl_bo_import, 0),
	DRM_IOCTL_DEF_DRV(SWAI_NIC_OPEN, swai_ioctl_nic_open, 0),
	DRM_IOCTL_DEF_DRV(SWAI_NIC_CLOSE, swai_ioctl_nic_close, 0),
	DRM_IOCTL_DEF_DRV(SWAI_NIC_POST, swai_ioctl_nic_post, 0),
	DRM_IOCTL_DEF_DRV(SWAI_NIC_WAIT, swai_ioctl_nic_wait, 0),
};

/*
 * Core ioctls that would share a buffer object some other way than a
 * dma-buf given to whoever may have it: flink names, which any opener can
 * guess, and PRIME_FD_TO_HANDLE, which cannot say which context to map the
 * buffer into (DRM_IOCTL_SWAI_BO_IMPORT does).
 */
static bool swai_ioctl_is_sharing(unsigned int nr)
{
	return nr == DRM_IOCTL_NR(DRM_IOCTL_GEM_FLINK) ||
	       nr == DRM_IOCTL_NR(DRM_IOCTL_GEM_OPEN) ||
	       nr == DRM_IOCTL_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE);
}

/*
 * The DRM core ioctls an accel file may reach: libdrm's version and
 * capability queries, GEM close, PRIME export (swai_prime.c) and the
 * syncobj family (what libsdaa uses, and sync files to pass fences between
 * processes).  The rest assume a
 * primary node: GET_MAGIC, GET_UNIQUE and their kind dereference the file's
 * master, which an accel file has not (a NULL pointer in drm_getmagic()),
 * and mode setting has nothing to act on.
 */
static bool swai_core_ioctl_allowed(unsigned int nr)
{
	switch (nr) {
	case DRM_IOCTL_NR(DRM_IOCTL_VERSION):
	case DRM_IOCTL_NR(DRM_IOCTL_GET_CAP):
	case DRM_IOCTL_NR(DRM_IOCTL_GEM_CLOSE):
	case DRM_IOCTL_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_CREATE):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_DESTROY):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_WAIT):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_QUERY):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TRANSFER):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_EVENTFD):
		return true;
	}
	return false;
}

/*
 * Where the syncobj array ioctls keep count_handles, or 0.  DRM core
 * allocates count_handles entries without __GFP_NOWARN, so a huge count is
 * a page-allocator WARN; it is bounded here first.
 */
static size_t swai_syncobj_count_offset(unsigned int nr)
{
	switch (nr) {
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_WAIT):
		return offsetof(struct drm_syncobj_wait, count_handles);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
		return offsetof(struct drm_syncobj_timeline_wait, count_handles);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
		return offsetof(struct drm_syncobj_array, count_handles);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_QUERY):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL):
		return offsetof(struct drm_syncobj_timeline_array, count_handles);
	}
	return 0;
}

/*
 * A core ioctl on the allow-list; the syncobj arrays at most
 * DRM_SWAI_SYNCOBJ_MAX_HANDLES long.  A thread that changes count_handles
 * between this check and DRM core's copy can still reach the core's
 * allocation with a huge count: that fails with a WARN, not a crash
 * (Documentation/security.md).
 */
static int swai_check_core_ioctl(unsigned int cmd, unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);
	size_t off = swai_syncobj_count_offset(nr);
	u32 count = 0;

	if (swai_ioctl_is_sharing(nr))
		return -EOPNOTSUPP;
	if (!swai_core_ioctl_allowed(nr))
		return -ENOTTY;
	if (!off || _IOC_SIZE(cmd) <= off || !(_IOC_DIR(cmd) & _IOC_WRITE))
		return 0;
	/*
	 * DRM core zero-extends a short argument, so a size that ends inside
	 * count_handles gives it a count of the bytes that are there: read
	 * exactly those.
	 */
	if (copy_from_user(&count, (void __user *)(arg + off),
			   min_t(size_t, sizeof(count), _IOC_SIZE(cmd) - off)))
		return -EFAULT;
	return count > DRM_SWAI_SYNCOBJ_MAX_HANDLES ? -EINVAL : 0;
}

/*
 * Returns 0 if @cmd may go to the DRM core: an allowed core ioctl
 * (swai_check_core_ioctl), or a driver ioctl whose number, size and
 * direction match the table exactly.  An ioctl of another type (a
 * terminal's TCGETS, say) is not ours: DRM core would take it by its number
 * alone.
 */
static int swai_check_ioctl(unsigned int cmd, unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);
	const struct drm_ioctl_desc *desc;

	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	if (nr < DRM_COMMAND_BASE || nr >= DRM_COMMAND_END)
		return swai_check_core_ioctl(cmd, arg);

	nr -= DRM_COMMAND_BASE;
	if (nr >= SWAI_NUM_IOCTLS)
		return -ENOTTY;
	nr = array_index_nospec(nr, SWAI_NUM_IOCTLS);
	desc = &swai_drm_ioctls[nr];
	if (!desc->func)
		return -ENOTTY;

	if (_IOC_SIZE(cmd) != _IOC_SIZE(desc->cmd) ||
	    _IOC_DIR(cmd) != _IOC_DIR(desc->cmd))
		return -EINVAL;

	return 0;
}

/* The IOCTL debug category: which ioctl was turned away, and why. */
static int swai_ioctl_rejected(struct file *filp, unsigned int cmd, int ret)
{
	struct drm_file *file = filp->private_data;

	swai_dbg(file->minor->dev->dev, IOCTL,
		 "pid %d: ioctl 0x%08x (type 0x%02x nr 0x%02x size %u) rejected: %d\n",
		 task_pid_nr(current), cmd, _IOC_TYPE(cmd), _IOC_NR(cmd),
		 _IOC_SIZE(cmd), ret);
	return ret;
}

/**
 * swai_unlocked_ioctl() - &file_operations.unlocked_ioctl of swai
 * @filp: open /dev/accel/accelN
 * @cmd: ioctl command
 * @arg: user argument
 *
 * Return: -ENOTTY for a core ioctl off the allow-list or an unknown one,
 * -EOPNOTSUPP for a sharing ioctl, -EINVAL for a malformed driver ioctl or
 * too many syncobj handles, -EFAULT, else what drm_ioctl() returns.
 */
long swai_unlocked_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	int ret = swai_check_ioctl(cmd, arg);

	if (ret)
		return swai_ioctl_rejected(filp, cmd, ret);

	return drm_ioctl(filp, cmd, arg);
}

#ifdef CONFIG_COMPAT
/**
 * swai_compat_ioctl() - &file_operations.compat_ioctl of swai
 * @filp: open /dev/accel/accelN
 * @cmd: ioctl command
 * @arg: user argument
 *
 * The swai structures have the same layout for 32-bit userspace, so after
 * the same checks as swai_unlocked_ioctl() this defers to drm_compat_ioctl().
 *
 * Return: as swai_unlocked_ioctl(), else what drm_compat_ioctl() returns.
 */
long swai_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	int ret = swai_check_ioctl(cmd, (unsigned long)compat_ptr(arg));

	if (ret)
		return swai_ioctl_rejected(filp, cmd, ret);

	return drm_compat_ioctl(filp, cmd, arg);
}
#endif
