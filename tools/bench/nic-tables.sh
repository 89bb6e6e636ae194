#!/bin/bash
# nic-tables.sh [BUILD] - seed 001's Tables 1-5 on the emulated cluster: an
# AllReduce of 16, 24, 32, 40 and 48 bytes, in software (HOST: the hosts
# drive every level of the tree) and offloaded to the NICs (NIC), on 2, 4
# and 8 nodes of one card each (tools/vm/swai-cluster --card-nics), in
# double, float and int64, the buffers in pinned host memory as MPI's are
# in the seed.  Prints the seed's layout (us, software | offload, speed-up)
# for each type, then a barrier's, and a JSON line per row to BUILD/nic-tables.json.
# NODES="2 4 8" and TYPES="double float int64" choose.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# absolute: swai-vm --add copies a file to the same absolute path in the guest
build=$(cd "${1:-$top/build}" && pwd)
out=$build/nic-tables.json
: >"$out"
for n in ${NODES:-2 4 8}; do
	# One command on every node: each size and type in turn.
	SWAI_VM_NO_BUILD=1 "$top/tools/vm/swai-cluster" --nodes "$n" --cards 1 --card-nics \
		--timeout 900 -- sh -c '
		for t in '"${TYPES:-double float int64}"'; do
			for s in 16 24 32 40 48; do
				swccl-bench allreduce -b $s -e $s -d $t -a NIC -n 2 -w 1 --place host \
					--json --no-summary &&
				swccl-bench allreduce -b $s -e $s -d $t -a HOST -n 2 -w 1 --place host \
					--json --no-summary || exit 1
			done
		done
		swccl-bench barrier -a all -n 2 -w 1 --place host --json' | sed -n 's/^\[n0\] \({"kind":"row".*\)/\1/p' >>"$out"
done
for t in ${TYPES:-double float int64}; do
	echo "# AllReduce, $t, pinned host memory; us: software (HOST) | offload (NIC) | speed-up"
	printf '%6s' nodes
	for s in 16 24 32 40 48; do printf ' | %8s %8s %5s' "${s}B sw" "${s}B nic" "x"; done
	echo
	for n in ${NODES:-2 4 8}; do
		printf '%6s' "$n"
		for s in 16 24 32 40 48; do
			jq -rs --arg t "$t" --argjson n "$n" --argjson s "$s" '
				map(select(.type == $t and .nodes == $n and .bytes == $s)) |
				(map(select(.algo == "HOST"))[0].time_us) as $h |
				(map(select(.algo == "NIC"))[0].time_us) as $o |
				" | \($h * 1000 | round / 1000) \($o * 1000 | round / 1000) \($h / $o * 100 | round / 100)"' \
				"$out" | tr -d '\n' | awk '{ printf " | %8s %8s %5s", $2, $3, $4 }'
		done
		echo
	done
	echo
done
echo "# Barrier (swcclBarrier: the tree of no data); us: software (HOST) | offload (NIC) | speed-up"
for n in ${NODES:-2 4 8}; do
	jq -rs --argjson n "$n" '
		map(select(.coll == "barrier" and .nodes == $n)) |
		(map(select(.algo == "HOST"))[0].time_us) as $h |
		(map(select(.algo == "NIC"))[0].time_us) as $o |
		"\($n) | \($h * 1000 | round / 1000) | \($o * 1000 | round / 1000) | \($h / $o * 100 | round / 100)"' "$out" |
		awk -F' [|] ' '{ printf "%6s | %8s %8s %5s\n", $1, $2, $3, $4 }'
done
echo
wrong=$(jq -s 'map(.wrong) | add' "$out")
echo "# $(jq -s length "$out") rows, $wrong wrong elements; rows in $out"
[ "$wrong" = 0 ]
