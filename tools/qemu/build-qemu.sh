#!/usr/bin/env bash
# tools/qemu/build-qemu.sh CACHE - build QEMU (Debian's bookworm-backports source)
# with the swai device model compiled in; print the path of qemu-system-x86_64.
#
# The device is tools/qemu/ (registers, MMU, queues, PCI glue, trace-events) and
# the engine that runs its jobs, tools/card/; both are copied into hw/misc/swai/.
# The result is cached under CACHE/qemu-<version>/<hash>/, the hash covering those
# sources and this script, so a warm run does not rebuild.  The build tree is
# kept, so a change to the device model is an incremental rebuild.
set -euo pipefail
cache=$1
here=$(cd "$(dirname "$0")" && pwd)
log() { printf 'build-qemu: %s\n' "$*" >&2; }

top=$(cd "$here/../.." && pwd)
# Everything hw/misc/swai/ is made of.
srcs=("$here"/swai*.c "$here"/swai*.h "$here"/trace.h "$here"/trace-events "$here"/meson.build
	"$top"/tools/card/swai*.c "$top"/tools/card/swai*.h "$top"/kernel/swai_regs.h
	"$top"/tools/cluster/swai-topo*.c "$top"/tools/cluster/swai-topo.h
	"$top"/tools/cluster/swai-links.[ch] "$top"/tools/cluster/swai-fabric.[ch]
	"$top"/uapi/drm/swai_program.h "$top"/uapi/drm/swai_nic.h)
hash=$( (cat "$here/build-qemu.sh"; for f in "${srcs[@]}"; do echo "${f##*/}"; cat "$f"; done) |
	sha256sum | cut -c1-16)
ver=$(apt-cache showsrc -t bookworm-backports qemu 2>/dev/null |
	awk '/^Version:/{print $2}' | sort -V | tail -n1)
[ -n "$ver" ] || { log "no qemu source package in bookworm-backports"; exit 1; }
uver=${ver#*:}; uver=${uver%%+*}
qdir=$cache/qemu-$uver
out=$qdir/$hash/qemu-system-x86_64
if [ -x "$out" ]; then echo "$out"; exit 0; fi

mkdir -p "$qdir"
if [ ! -f "$qdir/src/.done" ]; then
	log "fetching qemu $ver source"
	rm -rf "$qdir/dl" "$qdir/src" "$qdir/build" && mkdir -p "$qdir/dl"
	(cd "$qdir/dl" && apt-get source -qq -o APT::Sandbox::User=root --tar-only -t bookworm-backports qemu >/dev/null)
	tarball=$(ls "$qdir"/dl/qemu_*.orig.tar.* | head -n1)
	mkdir -p "$qdir/src"
	tar -xf "$tarball" -C "$qdir/src" --strip-components=1
	rm -rf "$qdir/dl"
	# The +ds tarball drops the prebuilt edk2 images (pc-bios/edk2-*.fd.bz2);
	# pc-bios/meson.build would try to unpack them whenever bzip2 is found.
	sed -i "s/^\(\s*\)unpack_edk2_blobs = bzip2.found()/\1unpack_edk2_blobs = false  # swai: no edk2 blobs in +ds/" \
		"$qdir/src/meson.build"
	grep -q "unpack_edk2_blobs = false  # swai" "$qdir/src/meson.build" ||
		{ log "edk2 blob patch did not apply to meson.build"; exit 1; }
	# Hook our device into hw/misc: Kconfig symbol + meson rule.
	cat >>"$qdir/src/hw/misc/Kconfig" <<'KC'

config SWAI
    bool
    default y if PCI_DEVICES
    depends on PCI && MSI_NONBROKEN
KC
	echo "subdir('swai')" >>"$qdir/src/hw/misc/meson.build"
	touch "$qdir/src/.done"
fi

# Our trace-events join QEMU's tracing (trace.h includes the generated header).
if ! grep -q "'hw/misc/swai'" "$qdir/src/meson.build"; then
	sed -i "0,/^    'hw\/misc',\$/s//    'hw\/misc',\n    'hw\/misc\/swai',/" "$qdir/src/meson.build"
	grep -q "'hw/misc/swai'" "$qdir/src/meson.build" ||
		{ log "trace subdir patch did not apply to meson.build"; exit 1; }
fi

# Sync the device model into the tree (only files that changed, so ninja rebuilds
# only what it must; files that are no longer ours go).
dst=$qdir/src/hw/misc/swai
mkdir -p "$dst"
for f in "${srcs[@]}"; do
	cmp -s "$f" "$dst/${f##*/}" || cp "$f" "$dst/"
done
for f in "$dst"/*; do
	keep=0
	for g in "${srcs[@]}"; do [ "${g##*/}" = "${f##*/}" ] && keep=1 && break; done
	[ "$keep" = 1 ] || rm -f "$f"
done

if [ ! -f "$qdir/build/build.ninja" ]; then
	log "configuring qemu $uver (x86_64-softmmu, minimal)"
	mkdir -p "$qdir/build"
	(cd "$qdir/build" && ../src/configure --target-list=x86_64-softmmu \
		--python=/usr/bin/python3 --without-default-features \
		--disable-install-blobs --enable-fdt=system --disable-docs \
		--disable-werror >"$qdir/configure.log" 2>&1) ||
		{ tail -n 40 "$qdir/configure.log" >&2; exit 1; }
fi
log "building qemu (first build takes about 5 minutes on 2 cores)"
ninja -C "$qdir/build" qemu-system-x86_64 >"$qdir/build.log" 2>&1 ||
	{ grep -E -A12 '^FAILED:' "$qdir/build.log" | head -n 60 >&2; exit 1; }
mkdir -p "$qdir/$hash"
cp "$qdir/build/qemu-system-x86_64" "$out.tmp" && mv "$out.tmp" "$out"
echo "$out"
