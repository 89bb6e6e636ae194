#!/bin/bash
# tools/debug-kernel/build.sh - the debug guest kernel of `make check-debug`.
#
# Debian's linux-source-6.12 (installed by `make setup`), configured from
# allnoconfig plus swai-debug.config (what the guest needs, and KASAN,
# lockdep, DEBUG_OBJECTS, kmemleak, UBSAN), with DRM_SCHED and
# GENERIC_ALLOCATOR made selectable: in-tree only drivers select them and
# swai.ko is out of tree.  Cached in $SWAI_CACHE/debug-kernel/<hash> like
# QEMU; prints the make variables of the result (SWAI_DEBUG_KDIR: the built
# tree swai.ko builds against; SWAI_DEBUG_KERNEL: its bzImage;
# SWAI_DEBUG_KVER: its release).
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cache=${SWAI_CACHE:-$HOME/.cache/swai-intracc}
src=/usr/src/linux-source-6.12.tar.xz
frag=$top/tools/debug-kernel/swai-debug.config
log() { echo "debug-kernel: $*" >&2; }

[ -f "$src" ] || { log "$src is missing: run 'make setup'"; exit 1; }
hash=$( (cat "$frag" "$0"; stat -c '%s %Y' "$src") | sha256sum | cut -c1-16)
dir=$cache/debug-kernel/$hash
k=$dir/linux-source-6.12
if [ ! -f "$dir/.done" ]; then
	log "building a KASAN/lockdep/kmemleak/UBSAN kernel in $dir (first time: 15-30 min)"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar xJf "$src" -C "$dir"
	sed -i '/^config DRM_SCHED$/{n;s/^\ttristate$/\ttristate "GPU scheduler (made selectable for out-of-tree drivers)"/}' \
		"$k/drivers/gpu/drm/Kconfig"
	sed -i '/^config GENERIC_ALLOCATOR$/{n;s/^\tbool$/\tbool "General purpose allocator (made selectable for out-of-tree drivers)"/}' \
		"$k/lib/Kconfig"
	make -C "$k" -s allnoconfig >/dev/null
	"$k/scripts/kconfig/merge_config.sh" -m -O "$k" "$k/.config" "$frag" >/dev/null
	make -C "$k" -s olddefconfig >/dev/null
	# every option asked for must have stuck (a missing dependency would
	# silently drop it)
	while read -r line; do
		case $line in
		CONFIG_*=*) grep -qx "$line" "$k/.config" ||
			{ log "$line did not stick in $k/.config"; exit 1; } ;;
		esac
	done <"$frag"
	if ! make -C "$k" -j"$(nproc)" >"$dir/build.log" 2>&1; then
		tail -n 30 "$dir/build.log" >&2
		exit 1
	fi
	touch "$dir/.done"
fi
echo "SWAI_DEBUG_KDIR := $k"
echo "SWAI_DEBUG_KERNEL := $k/arch/x86/boot/bzImage"
echo "SWAI_DEBUG_KVER := $(make -s -C "$k" kernelrelease)"
