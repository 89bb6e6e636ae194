#!/bin/sh
# demo-cards.sh BUILD HOST_MEMCPY_GBPS - make demo's multi-card part: eight
# cards in one VM joined by the default fabric (mesh8), then
#   1. sdaa-p2p: every pair's modeled GB/s over the fabric and through host
#      memory, and the emulator's wall GB/s against this machine's memcpy;
#   2. swccl-bench allreduce --cards 8 -g 1 (a rank per card), every
#      algorithm between cards, 2 to 32 MiB, checked, busbw against size
#      plotted (BUILD/swccl-bench-allreduce-8cards.png);
#   3. AllReduce of 32 MiB on N = 2..8 cards (a rank each) per algorithm,
#      time against N (seed 000's last figure) plotted (BUILD/swccl-
#      allreduce-32M-cards.png);
#   4. an 8 MiB AllReduce on all 4 core groups of 4 cards (16 ranks, in
#      levels: CSC on each card, the algorithm between cards per plane, the
#      planes timed together, each plane ringing over links of its own);
#   5. what the selector picks for 8 cards on the other fabrics: one PCIe
#      switch (pcie8) and a ring (ring8, where only the ring fits).
set -eu
build=${1:?usage: demo-cards.sh BUILD HOST_MEMCPY_GBPS}
hm=${2:?usage: demo-cards.sh BUILD HOST_MEMCPY_GBPS}
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$build/demo-cards.log
SWAI_VM_NO_BUILD=1 "$top/tools/vm/swai-vm" --cards 8 --timeout 5400 -- sh -c '
	sdaa-p2p --host-gbps '"$hm"' && echo &&
	swccl-bench allreduce --cards 8 -g 1 -b 2M -e 32M -f 4 -a all -n 1 -w 1 -c 1 \
		--plot /root/swccl-bench-allreduce-8cards.png && echo &&
	echo "# AllReduce of 32 MiB (float, Local-HBM, out of place) on N cards" &&
	for n in 2 3 4 5 6 7 8; do
		swccl-bench allreduce --cards $n -g 1 -b 32M -e 32M -a all -n 1 -w 0 --place local \
			--json --no-summary || exit 1
	done && echo &&
	echo "# AllReduce of 8 MiB on 4 cards x 4 core groups (16 ranks, in levels)" &&
	swccl-bench allreduce --cards 4 -g 4 -b 8M -e 8M -a all -n 1 -w 0 --place local \
		--no-summary' | "$top/tools/bench/swccl-plot.sh" "$build" | tee "$log"
for topo in pcie8 ring8; do
	echo
	echo "# === the selector's choice for 8 cards on $topo (AllReduce, Local-HBM)"
	SWAI_VM_NO_BUILD=1 "$top/tools/vm/swai-vm" --cards 8 --topology $topo --timeout 1800 -- \
		swccl-bench allreduce --cards 8 -g 1 -b 1M -e 32M -f 32 -a AUTO -n 1 -w 0 \
		--place local --no-summary
done | tee -a "$log"
# Time against N at 32 MiB, one line per algorithm.
data=$build/swccl-allreduce-32M-cards.dat
awk -F'[,:]' '/"kind":"row"/ {
	for (i = 1; i < NF; i++) {
		if ($i == "\"cards\"") n = $(i + 1)
		if ($i == "\"algo\"") { a = $(i + 1); gsub(/"/, "", a) }
		if ($i == "\"time_us\"") t = $(i + 1)
	}
	print a, n, t
}' "$log" | sort -k1,1 -k2n >"$data"
if command -v gnuplot >/dev/null && [ -s "$data" ]; then
	gnuplot <<GP
set terminal pngcairo size 900,560
set output '$build/swccl-allreduce-32M-cards.png'
set title 'AllReduce 32 MiB between cards (mesh8 fabric), modeled time'
set xlabel 'cards (ranks)'
set ylabel 'time (us)'
set key left top
plot for [a in "RING MESH1 MESH2 HD NHR RB"] '$data' using (strcol(1) eq a ? \$2 : NaN):3 \
	with linespoints title a
GP
	echo "demo-cards.sh: wrote $build/swccl-allreduce-32M-cards.png"
fi
