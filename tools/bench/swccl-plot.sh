#!/bin/sh
# swccl-plot.sh DIR - render on the host the plots swccl-bench --plot asked
# for in the VM (which has no gnuplot).  Reads swccl-bench's output (from
# tools/vm/swai-vm) on stdin and passes it to stdout, except the gnuplot scripts
# swccl-bench printed between "#### swccl-bench gnuplot FILE.png begin" and
# "#### swccl-bench gnuplot end": each is saved as DIR/NAME.gp with its
# output set to DIR/NAME.png (NAME: FILE's base name) and run through gnuplot.
#   tools/vm/swai-vm -- swccl-bench allgather -a all --plot ag.png | tools/bench/swccl-plot.sh build
set -eu
dir=${1:?usage: swccl-plot.sh DIR}
mkdir -p "$dir"
list=$(mktemp)
trap 'rm -f "$list"' EXIT
awk -v dir="$dir" -v list="$list" '
	/^#### swccl-bench gnuplot .* begin$/ {
		name = $4; sub(/.*\//, "", name); sub(/\.png$/, "", name)
		gp = dir "/" name ".gp"; png = dir "/" name ".png"
		printf "" > gp; print gp > list; next
	}
	/^#### swccl-bench gnuplot end$/ { close(gp); gp = ""; next }
	gp != "" {
		if ($0 ~ /^set output /) $0 = "set output \047" png "\047"
		print >> gp; next
	}
	{ print; fflush() }
'
rc=0
while read -r gp; do
	if ! command -v gnuplot >/dev/null; then
		echo "swccl-plot.sh: no gnuplot (apt-get install gnuplot-nox); $gp kept" >&2
		rc=1
	elif gnuplot "$gp"; then
		echo "swccl-plot.sh: wrote ${gp%.gp}.png"
	else
		rc=1
	fi
done <"$list"
exit $rc
