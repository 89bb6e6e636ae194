#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# swai-probe.sh KDIR - can swai.ko be built against the kernel whose build
# tree (headers) is KDIR?  The kernel-feature probe of the DKMS package (run
# as its PRE_BUILD; also by hand).  Checks the configuration and the kernel
# interfaces the driver uses, and says which is missing and what to do.
# Exit 0 if all are there, 1 if one is not, 2 on bad usage.
kdir=${1:-}
[ -n "$kdir" ] || { echo "usage: swai-probe.sh KDIR (the kernel's build tree)" >&2; exit 2; }
conf=$kdir/include/config/auto.conf
inc=$kdir/include
[ -f "$conf" ] || { echo "swai: $kdir is not a configured kernel build tree (no include/config/auto.conf): install the kernel's headers" >&2; exit 1; }
bad=0
need_conf() {
	grep -Eq "^$1=(y|m)$" "$conf" && return 0
	echo "swai: this kernel has no $1 ($2): swai.ko needs it" >&2
	bad=1
}
# need_hdr FILE PATTERN WHAT: a declaration the driver relies on.
need_hdr() {
	f=$inc/$1
	# Debian splits headers into an arch and a common package: look there too.
	[ -f "$f" ] || f=$(readlink -f "$kdir")/../$(basename "$(readlink -f "$kdir")" | sed 's/-[a-z0-9]*$/-common/')/include/$1
	if [ -f "$f" ] && grep -Eq "$2" "$f"; then
		return 0
	fi
	echo "swai: this kernel's <$1> lacks $3: swai.ko needs Linux 6.12 or later" >&2
	bad=1
}
need_conf CONFIG_DRM "DRM core"
need_conf CONFIG_DRM_ACCEL "compute accelerators, /dev/accel"
need_conf CONFIG_DRM_SCHED "the GPU scheduler, drm_sched"
need_conf CONFIG_PCI_MSI "MSI-X"
need_hdr drm/drm_accel.h "DRM_ACCEL_FOPS" "the accel file operations"
need_hdr drm/gpu_scheduler.h "drm_client_id" "drm_sched_job_init() with the client id"
need_hdr linux/dma-fence-chain.h "dma_fence_chain_alloc" "dma_fence_chain_alloc()"
[ $bad -eq 0 ] && echo "swai: $(basename "$kdir") has everything swai.ko needs"
exit $bad
