# tools/vm/initramfs.sh - build the guest initramfs for tools/vm/swai-vm (sourced).
#
# The base image holds busybox, /init, swai.ko with the guest kernel modules it
# depends on, and everything under build/ (bin/, lib/, selftests/) with the
# shared libraries they need.  It is cached by a hash of all of that, so
# repeated runs only build the small per-run image.

# swai_copy_libs STAGE FILE: copy the shared libraries FILE needs (if an ELF).
swai_copy_libs() {
	local stage=$1 f=$2 lib
	[ "$(head -c4 "$f" 2>/dev/null)" = $'\x7fELF' ] || return 0
	for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# swai_stage_path STAGE ABSPATH: copy a host file/dir to the same path in STAGE.
swai_stage_path() {
	local stage=$1 p=$2 f
	mkdir -p "$stage$(dirname "$p")"
	cp -a "$p" "$stage$p"
	while IFS= read -r -d '' f; do
		swai_copy_libs "$stage" "$f"
	done < <(find "$stage$p" -type f -perm -u+x -print0)
}

# swai_module_closure MODDIR NAME...: print the modules.dep paths needed.
swai_module_closure() {
	local moddir=$1; shift
	local todo=("$@") seen=" " n line path
	while [ ${#todo[@]} -gt 0 ]; do
		n=${todo[0]//-/_}; todo=("${todo[@]:1}")
		case $seen in *" $n "*) continue ;; esac
		seen+="$n "
		line=$(awk -v n="$n" -F: '{ b = $1; sub(".*/", "", b); sub("\\.ko.*", "", b);
			gsub("-", "_", b); if (b == n) { print; exit } }' "$moddir/modules.dep")
		[ -n "$line" ] || continue	# built into the kernel
		path=${line%%:*}
		echo "$path"
		for dep in ${line#*:}; do
			dep=${dep##*/}; todo+=("${dep%%.ko*}")
		done
	done
}

# swai_base_initramfs TOP BUILD CACHE GUEST_MODDIR KVER [MODULE]: print the
# image path.  MODULE is the swai.ko to load (default BUILD/swai.ko; the
# debug kernel's is built apart).
swai_base_initramfs() {
	local top=$1 build=$2 cache=$3 moddir=$4 kver=$5 ko=${6:-$2/swai.ko} hash out stage m deps f
	hash=$( (cat "$top/tools/vm/init" "$top/tools/vm/initramfs.sh" /bin/busybox;
		echo "$kver";
		find "$ko" "$build/bin" "$build/lib" "$build/selftests" \
			-type f 2>/dev/null | sort | xargs cat) | sha256sum | cut -c1-16)
	out=$cache/initramfs/base-$hash.cpio.gz
	if [ -f "$out" ]; then echo "$out"; return; fi
	mkdir -p "$cache/initramfs"
	find "$cache/initramfs" -name 'base-*.cpio.gz' -mmin +1440 -delete 2>/dev/null || true
	stage=$(mktemp -d "${TMPDIR:-/tmp}/swai-initramfs.XXXXXX")
	mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,root,etc,usr/bin,usr/lib,opt/swai}
	cp /bin/busybox "$stage/bin/busybox"
	install -m 0755 "$top/tools/vm/init" "$stage/init"
	# Kernel modules: swai.ko plus the closure of what it depends on, and
	# virtio_net (a module in Debian's kernel, with net_failover and failover;
	# virtio_pci is built in) for swai-cluster's management network.  /init
	# loads it only when asked, so a plain run boots as before.
	m=$stage/lib/modules/$kver
	mkdir -p "$m/extra"
	cp "$ko" "$m/extra/swai.ko"
	cp "$moddir"/modules.builtin* "$moddir/modules.order" "$m/"
	deps=$(modinfo -F depends "$ko" | tr , ' ')
	# shellcheck disable=SC2086 # $deps: one word a module
	for f in $(swai_module_closure "$moddir" $deps virtio_net); do
		mkdir -p "$m/$(dirname "$f")"
		case $f in
		*.xz) xz -dc "$moddir/$f" >"$m/${f%.xz}" ;;
		*) cp "$moddir/$f" "$m/$f" ;;
		esac
	done
	depmod -b "$stage" "$kver"
	# Project outputs and their shared libraries.
	[ ! -d "$build/bin" ] || cp -a "$build/bin/." "$stage/usr/bin/"
	[ ! -d "$build/lib" ] || cp -a "$build/lib/." "$stage/usr/lib/"
	[ ! -d "$build/selftests" ] || cp -a "$build/selftests" "$stage/opt/swai/"
	while IFS= read -r -d '' f; do
		swai_copy_libs "$stage" "$f"
	done < <(find "$stage/usr" "$stage/opt" -type f -print0)
	# run-checks boots two VMs at once: a private temporary, then an atomic rename.
	(cd "$stage" && find . -mindepth 1 | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$out.tmp.$$"
	mv "$out.tmp.$$" "$out"
	rm -rf "$stage"
	echo "$out"
}
