#!/bin/bash
# sim-figures.sh OUTDIR - the seeds' cluster figures by swccl-sim (SimGrid),
# as markdown tables beside the seeds' own numbers and PNG plots
# (Documentation/cluster.md §9; seed 003's are tools/synth/synth-figures.sh):
#
#   seed000-*   AllReduce 32 MiB on a2-cluster, RING / HD / NHR, N = 2 .. 1024
#               (NHR <= min(RING, HD) checked per N), flat and in HCCL's levels
#               (--levels: whole servers, the algorithm between them), and the
#               small sizes at N = 16 with RB (Reduce + Broadcast)
#   seed001-*   seed 001's Tables 1-5: 16..48 B of doubles reduced on 16..256
#               nodes, NIC-offloaded trees against host-driven ones; Fig. 6: a
#               Reduce of 8 B in double, float, int64 and uint64; Fig. 7: an
#               AllReduce of 8..96 B, the jump past a descriptor's 48 B
#   seed002-*   AllToAll on 2..64 nodes x 4 (seed002-8x4's node), DIRECT
#               against PLANE: messages and bytes between nodes, time
#   seed003-*   the synthesizer's AllGather schedules (swccl-synth) on NDv2,
#               DGX-2 and AMD x 2..10 chassis replayed beside RING (where
#               the cards' links can carry it) and the synthesizer's bound
set -eu
out=${1:?usage: sim-figures.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build/bin/swccl-sim
mkdir -p "$out"

# --- seed 000 ----------------------------------------------------------------
ranks=2,3,4,5,6,7,8,12,16,32,64,100,128,255,256,512,1000,1024
"$b" -t a2-cluster -c allreduce --size 32M -n $ranks -a RING,HD,NHR --json \
	--plot "$out/seed000-allreduce-32M.png" >"$out/seed000-allreduce-32M.json"
jq -sr '
	group_by(.ranks) |
	["| N | RING us | HD us | NHR us | NHR <= min | sim wall s (RING) |",
	 "|---|---|---|---|---|---|"] +
	map((map({(.algo): .}) | add) as $r |
	    "| \($r.RING.ranks) | \($r.RING.time_us) | \($r.HD.time_us) | \($r.NHR.time_us) | " +
	    "\(if $r.NHR.time_us <= ([$r.RING.time_us, $r.HD.time_us] | min) + 0.001
	       then "yes" else "**no**" end) | \($r.RING.sim_wall_s) |") | .[]' \
	"$out/seed000-allreduce-32M.json" >"$out/seed000-allreduce-32M.md"
# In levels: the algorithm between the servers, as seed 000 measures it.
"$b" -t a2-cluster -c allreduce --size 32M -n 16,24,32,40,48,64,96,128,256,512,1000,1024 \
	-a RING,HD,NHR --levels --json --plot "$out/seed000-levels-32M.png" \
	>"$out/seed000-levels-32M.json"
jq -sr '
	group_by(.ranks) |
	["| N (servers x 8) | RING us | HD us | NHR us | NHR <= min |", "|---|---|---|---|---|"] +
	map((map({(.algo): .}) | add) as $r |
	    "| \($r.RING.ranks) | \($r.RING.time_us) | \($r.HD.time_us) | \($r.NHR.time_us) | " +
	    "\(if $r.NHR.time_us <= ([$r.RING.time_us, $r.HD.time_us] | min) + 0.001
	       then "yes" else "**no**" end) |") | .[]' \
	"$out/seed000-levels-32M.json" >"$out/seed000-levels-32M.md"
"$b" -t a2-cluster -c allreduce -n 16 -b 1K -e 32M -f 4 -a RING,HD,NHR,RB --json \
	--plot "$out/seed000-sizes-n16.png" >"$out/seed000-sizes-n16.json"
jq -sr '
	group_by(.bytes) |
	["| bytes (N = 16) | RING us | HD us | NHR us | RB us | fastest |", "|---|---|---|---|---|---|"] +
	map((map({(.algo): .}) | add) as $r | (min_by(.time_us) | .algo) as $best |
	    "| \(.[0].bytes) | \($r.RING.time_us) | \($r.HD.time_us) | \($r.NHR.time_us) | " +
	    "\($r.RB.time_us) | \($best) |") | .[]' \
	"$out/seed000-sizes-n16.json" >"$out/seed000-sizes-n16.md"

# --- seed 001 ----------------------------------------------------------------
# The seed's Tables 1-5 (double, us; software / offloaded), rows 16..256 nodes.
seed001='{"16":[[26.174,15.286],[29.252,15.364],[29.336,15.502],[29.450,15.324],[29.274,15.330]],
 "32":[[35.974,18.140],[39.922,18.326],[39.982,18.226],[39.616,18.586],[40.210,18.132]],
 "64":[[43.860,20.884],[48.288,20.366],[48.032,20.686],[48.138,20.742],[48.062,20.568]],
 "128":[[58.900,26.424],[61.604,26.532],[63.270,26.462],[63.374,26.076],[62.502,26.014]],
 "256":[[70.110,31.120],[77.608,30.838],[81.324,31.492],[82.074,30.290],[78.934,30.774]]}'
"$b" -t a2-cluster -c allreduce -a NIC,HOST -n 16,32,64,128,256 -b 16 -e 48 --step 8 --json \
	>"$out/seed001-nic.json"
jq -sr --argjson seed "$seed001" '
	group_by([.ranks, .bytes]) |
	["| nodes | bytes | ours host us | ours NIC us | ours speedup | seed 001 software | " +
	 "seed 001 offloaded | seed speedup |", "|---|---|---|---|---|---|---|---|"] +
	map((map({(.algo): .}) | add) as $r | $seed[($r.NIC.ranks | tostring)][($r.NIC.bytes / 8 - 2)]
	    as $s |
	    "| \($r.NIC.ranks) | \($r.NIC.bytes) | \($r.HOST.time_us) | \($r.NIC.time_us) | " +
	    "\($r.HOST.time_us / $r.NIC.time_us * 1000 | round / 1000) | \($s[0]) | \($s[1]) | " +
	    "\($s[0] / $s[1] * 1000 | round / 1000) |") | .[]' \
	"$out/seed001-nic.json" >"$out/seed001-nic.md"

# Fig. 6: a Reduce of 8 B, four types (the seed's numbers are in its lost figure).
for ty in double float int64 uint64; do
	"$b" -t a2-cluster -c reduce -a NIC,HOST -n 16,32,64,128,256 --size 8 -d $ty --json
done >"$out/seed001-fig6.json"
jq -sr '
	group_by(.ranks) |
	["| nodes | double host / NIC us | float | int64 | uint64 |", "|---|---|---|---|---|"] +
	map(. as $g | "| \(.[0].ranks) | " +
	    ([("double", "float", "int64", "uint64") as $t |
	      ($g | map(select(.type == $t))) |
	      "\(map(select(.algo == "HOST"))[0].time_us) / \(map(select(.algo == "NIC"))[0].time_us)"] |
	     join(" | ")) + " |") | .[]' \
	"$out/seed001-fig6.json" >"$out/seed001-fig6.md"
# Fig. 7: AllReduce against size; a descriptor carries 48 B, so 56 B takes two trees.
"$b" -t a2-cluster -c allreduce -a NIC,HOST -n 16,256 -b 8 -e 96 --step 8 --json \
	--plot "$out/seed001-fig7.png" >"$out/seed001-fig7.json"
jq -sr '
	group_by([.ranks, .bytes]) |
	["| nodes | bytes | host us | NIC us | speedup |", "|---|---|---|---|---|"] +
	map((map({(.algo): .}) | add) as $r |
	    "| \($r.NIC.ranks) | \($r.NIC.bytes) | \($r.HOST.time_us) | \($r.NIC.time_us) | " +
	    "\($r.HOST.time_us / $r.NIC.time_us * 1000 | round / 1000) |") | .[]' \
	"$out/seed001-fig7.json" >"$out/seed001-fig7.md"

# --- seed 002 ----------------------------------------------------------------
for k in 2 4 8 16 32 64; do
	"$b" -t seed002-8x4 --nodes $k -c alltoall -a DIRECT,PLANE --size 4M --json
done >"$out/seed002-alltoall.json"
jq -sr '
	group_by(.ranks) |
	["| nodes x 4 | DIRECT msgs | PLANE msgs | m-fold | bytes (both) | DIRECT us | PLANE us |",
	 "|---|---|---|---|---|---|---|"] +
	map((map({(.algo): .}) | add) as $r |
	    "| \($r.DIRECT.ranks / 4) | \($r.DIRECT.internode_msgs) | \($r.PLANE.internode_msgs) | " +
	    "\($r.DIRECT.internode_msgs / $r.PLANE.internode_msgs) | \($r.PLANE.internode_bytes) | " +
	    "\($r.DIRECT.time_us) | \($r.PLANE.time_us) |") | .[]' \
	"$out/seed002-alltoall.json" >"$out/seed002-alltoall.md"
# --- seed 003 ----------------------------------------------------------------
# The synthesizer's AllGather schedules (swccl-synth, one chunk a block and
# --chunks auto) replayed on SimGrid beside RING and the synthesizer's bound.
synth=$top/build/bin/swccl-synth
row003() {	# label chassis chunks topology-args...
	local label=$1 k=$2 c=$3 f="$out/seed003-$1-$2-$3.json" syn sim ring
	shift 3
	syn=$("$synth" "$@" --size 64M --chunks "$c" --model --json -o "$f")
	sim=$("$b" "$@" -c allgather --in "$f" --size 64M --json)
	ring=$("$b" "$@" -c allgather -a RING --size 64M --json 2>/dev/null |
		grep '^{"kind":"row"' || echo null)
	jq -nc --arg l "$label" --argjson k "$k" --argjson syn "$syn" --argjson sim "$sim" \
		--argjson ring "$ring" '{label: $l, chassis: $k, syn: $syn, sim: $sim, ring: $ring}'
	rm -f "$f"
}
{
	for k in 2 3 4 6 8 10; do
		row003 ndv2 $k 1 -t ndv2x2 --nodes $k
		row003 ndv2 $k auto -t ndv2x2 --nodes $k
	done
	row003 dgx2 2 1 -t dgx2x2
	row003 dgx2 2 auto -t dgx2x2
	for k in 2 3 4; do
		row003 amd $k 1 -t amdx2 --nodes $k
		row003 amd $k auto -t amdx2 --nodes $k
	done
	row003 amd 10 1 -t amdx2 --nodes 10
	row003 amd 10 auto -t amdx2 --nodes 10	# a minute
} >"$out/seed003-synth.json"
jq -sr '
	["| topology | chassis | ranks | chunks | synthesizer us | its bound us | cost model us | " +
	 "simulated us | RING simulated us | sim wall s |", "|---|---|---|---|---|---|---|---|---|---|"] +
	map("| \(.label) | \(.chassis) | \(.syn.ranks) | \(.syn.chunks) | \(.syn.completion_us) | " +
	    "\(.syn.lower_bound_us) | \(.syn.model_us // "-") | \(.sim.time_us) | " +
	    "\(if .ring then .ring.time_us else "cannot run" end) | \(.sim.sim_wall_s) |") | .[]' \
	"$out/seed003-synth.json" >"$out/seed003-synth.md"
echo "tables and plots in $out"
