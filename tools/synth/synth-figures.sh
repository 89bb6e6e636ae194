#!/bin/bash
# synth-figures.sh OUTDIR - seed 003's figures 3-9 by swccl-synth: ours
# (MTEG-EA) and the seed's MTEGCCA exactly (--tm), as tables (.txt) and
# PNG plots (gnuplot).  The seed's own numbers stand beside them in
# Documentation/cluster.md §10; TE-CCL and TACCL need Gurobi and are not run.
#
#   fig3-5  NDv2 x 2, AllGather 1 KiB .. 1 GiB: completion, solve time, algbw
#   fig6-8  DGX1, AMD, DGX-2 x 2, NDv2 x 2, NDv2 x 4, AMD x 2 at 64 MiB
#   fig9    NDv2 x 2 .. x 10 chassis at 64 MiB: solve time
#   auto    ours with --chunks auto on the same topologies at 64 MiB (a table:
#           chunks, completion against the bound)
#   alltoall  ours on the same topologies at 1 and 64 MiB (a table)
set -eu
out=${1:?usage: synth-figures.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build/bin/swccl-synth
mkdir -p "$out"

# row LABEL ARGS...: one line per algorithm -- label, algo, bytes, completion, algbw, solve, bound
row() {
	local label=$1
	shift
	for tm in "" --tm; do
		"$b" "$@" $tm --json | jq -r --arg l "$label" \
			'[$l, .algo, .bytes, .completion_us, .algbw_gbps, .solve_s, .lower_bound_us] | @tsv'
	done
}

hdr=$'# label\talgo\tbytes\tcompletion_us\talgbw_gbps\tsolve_s\tlower_bound_us'
{
	echo "$hdr"
	for s in 1K 4K 16K 64K 256K 1M 4M 16M 64M 256M 1G; do
		row "$s" -t ndv2x2 --size "$s"
	done
} >"$out/fig3-5-ndv2x2.txt"
{
	echo "$hdr"
	row dgx1 -t dgx1 --size 64M
	row amd -t amd --size 64M
	row dgx2x2 -t dgx2x2 --size 64M
	row ndv2x2 -t ndv2x2 --size 64M
	row ndv2x4 -t ndv2x2 --nodes 4 --size 64M
	row amdx2 -t amdx2 --size 64M
} >"$out/fig6-8-topologies.txt"
{
	echo "$hdr"
	for k in 2 3 4 5 6 7 8 9 10; do
		row "$k" -t ndv2x2 --nodes "$k" --size 64M
	done
} >"$out/fig9-chassis.txt"
# Ours with the chunk count it picks (--chunks auto): how near the bound it gets
{
	echo $'# label\tchunks\tcompletion_us\tlower_bound_us\tabove_pct\tsolve_s'
	for a in "dgx1 -t dgx1" "amd -t amd" "dgx2x2 -t dgx2x2" "ndv2x2 -t ndv2x2" \
		"ndv2x4 -t ndv2x2 --nodes 4" "amdx2 -t amdx2"; do
		set -- $a
		label=$1
		shift
		"$b" "$@" --size 64M --chunks auto --json | jq -r --arg l "$label" \
			'[$l, .chunks, .completion_us, .lower_bound_us,
			  ((.completion_us / .lower_bound_us - 1) * 1000 | round / 10), .solve_s] | @tsv'
	done
} >"$out/auto-topologies.txt"
# AllToAll (ours only: the seed's MTEGCCA is of broadcasts), its demands' paths
{
	echo "$hdr"
	for a in "dgx1 -t dgx1" "amd -t amd" "dgx2x2 -t dgx2x2" "ndv2x2 -t ndv2x2" \
		"ndv2x4 -t ndv2x2 --nodes 4" "ndv2x10 -t ndv2x2 --nodes 10"; do
		set -- $a
		label=$1
		shift
		for s in 1M 64M; do
			"$b" "$@" -c alltoall --size "$s" --json | jq -r --arg l "$label" \
				'[$l, .algo, .bytes, .completion_us, .algbw_gbps, .solve_s,
				  .lower_bound_us] | @tsv'
		done
	done
} >"$out/alltoall-topologies.txt"

command -v gnuplot >/dev/null || { echo "no gnuplot: tables only in $out"; exit 0; }
# plot FILE.png TITLE YLABEL COLUMN DATA [logx]
plot() {
	local data=$5 col=$4 bound=""
	# the bound is a time: beside completion only
	[ "$col" = 4 ] && bound=", \"< grep MTEG-EA $data\" using 0:7:xtic(1) with lines dashtype 2 title \"lower bound\""
	gnuplot <<EOF
set terminal pngcairo size 800,500
set output "$1"
set title "$2"
set ylabel "$3"
set key top left
set logscale y
${6:-}
set xtics rotate by -45
plot "< grep MTEG-EA $data" using 0:$col:xtic(1) with linespoints title "MTEG-EA (ours)", \
     "< grep MTEGCCA $data" using 0:$col:xtic(1) with linespoints title "MTEGCCA (seed 003)"$bound
EOF
}
plot "$out/fig3-ndv2x2-completion.png" "NDv2 x 2 AllGather: completion" "us" 4 \
	"$out/fig3-5-ndv2x2.txt"
plot "$out/fig4-ndv2x2-solve.png" "NDv2 x 2 AllGather: solve time" "s" 6 \
	"$out/fig3-5-ndv2x2.txt"
plot "$out/fig5-ndv2x2-algbw.png" "NDv2 x 2 AllGather: algbw" "GB/s" 5 \
	"$out/fig3-5-ndv2x2.txt" "unset logscale y"
plot "$out/fig6-topologies-completion.png" "AllGather 64 MiB: completion" "us" 4 \
	"$out/fig6-8-topologies.txt"
plot "$out/fig7-topologies-solve.png" "AllGather 64 MiB: solve time" "s" 6 \
	"$out/fig6-8-topologies.txt"
plot "$out/fig8-topologies-algbw.png" "AllGather 64 MiB: algbw" "GB/s" 5 \
	"$out/fig6-8-topologies.txt" "unset logscale y"
plot "$out/fig9-chassis-solve.png" "NDv2 x k AllGather 64 MiB: solve time" "s" 6 \
	"$out/fig9-chassis.txt"
echo "tables and plots in $out"
