#!/bin/bash
# synth-demo.sh [BUILD] - seed 003 end to end: swccl-synth plans an AllGather,
# an AllReduce and an AllToAll (relayed: DIRECT cannot run there) for TE-CCL's DGX1 (ours, beside the seed's MTEGCCA and the
# MILP's optimum for a Broadcast); eight emulated cards wired as dgx1 run
# them from the files beside HD, every element checked; the simulator
# replays the same schedules as the cards run them (swccl-sim --card); an
# AllGather and an AllReduce planned in the card's slots (--card), their
# predictions beside the cards' time; then the synthesizer on NDv2 x 2..10 chassis.  The rows go to BUILD/synth.json.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# absolute: swai-vm --add copies a file to the same absolute path in the guest
build=$(cd "${1:-$top/build}" && pwd)
b=$build/bin/swccl-synth
x=$build/bin/swccl-sim
out=$build/synth.json
run='-g 1 -n 1 -w 1 --place local --json --no-summary'

echo "# swccl-synth on dgx1: ours (MTEG-EA), the seed's MTEGCCA, the MILP (CBC)"
for a in "" --tm; do
	"$b" -t dgx1 -c allgather --size 1M --chunks 2 $a
done
"$b" -t dgx1 -c broadcast --size 1M --chunks 2 --milp=30
"$b" -t dgx1 -c allgather --size 1M --chunks 2 -o "$build/synth-dgx1-ag.json" >/dev/null
"$b" -t dgx1 -c allreduce --size 1M -o "$build/synth-dgx1-ar.json" >/dev/null
"$b" -t dgx1 -c alltoall --size 1M --chunks 2 -o "$build/synth-dgx1-a2a.json"

echo "# on 8 emulated cards wired as dgx1: the files (FILE) beside HD"
SWAI_VM_NO_BUILD=1 "$top/tools/vm/swai-vm" --cards 8 --topology dgx1 --hbm-mb 64 \
	--add "$build/synth-dgx1-ag.json" --add "$build/synth-dgx1-ar.json" \
	--add "$build/synth-dgx1-a2a.json" --timeout 900 -- sh -c "
	SWCCL_SCHED_FILE=$build/synth-dgx1-ag.json swccl-bench allgather --cards 8 -b 64K -e 4M \
		-f 4 -a FILE $run &&
	swccl-bench allgather --cards 8 -b 64K -e 4M -f 4 -a HD $run &&
	SWCCL_SCHED_FILE=$build/synth-dgx1-ar.json swccl-bench allreduce --cards 8 -b 64K -e 4M \
		-f 4 -d float -a FILE $run &&
	swccl-bench allreduce --cards 8 -b 64K -e 4M -f 4 -a HD $run &&
	SWCCL_SCHED_FILE=$build/synth-dgx1-a2a.json swccl-bench alltoall --cards 8 -b 64K -e 4M \
		-f 4 -a FILE --verify $run" |
	grep '^{"kind":"row"' >"$out"
{
	"$x" -t dgx1 --in "$build/synth-dgx1-ag.json" -b 64K -e 4M -f 4 --card --json
	"$x" -t dgx1 -c allgather -a HD -n 8 -b 64K -e 4M -f 4 --card --json
	"$x" -t dgx1 --in "$build/synth-dgx1-ar.json" -b 64K -e 4M -f 4 --card --json
	"$x" -t dgx1 -c allreduce -a HD -n 8 -b 64K -e 4M -f 4 --card --json
	"$x" -t dgx1 --in "$build/synth-dgx1-a2a.json" -b 64K -e 4M -f 4 --card --json
} | sed 's/"algo":"MTEG"/"algo":"FILE"/' >"$out.sim"
echo "# coll  bytes  algo  cards us  simulated us (--card)  wrong"
jq -rs 'group_by([.coll, .algo, .bytes]) | map(select(length == 2) |
	(map(select(.predicted_us)) | .[0]) as $e | (map(select(.predicted_us | not)) | .[0]) as $s |
	"\($e.coll)\t\($e.bytes)\t\($e.algo)\t\($e.time_us)\t\($s.time_us)\t\($e.wrong)") | .[]' \
	"$out" "$out.sim" | column -t

echo "# --card: an AllGather and an AllReduce planned in the card's slots (one send at a"
echo "# time, each partial sum reduced in), their predictions beside the cards' time at 4 MiB"
for c in allgather allreduce; do
	"$b" -t dgx1 -c $c --size 4M --chunks auto --card -o "$build/synth-dgx1-card-$c.json"
done
SWAI_VM_NO_BUILD=1 "$top/tools/vm/swai-vm" --cards 8 --topology dgx1 --hbm-mb 64 \
	--add "$build/synth-dgx1-card-allgather.json" \
	--add "$build/synth-dgx1-card-allreduce.json" --timeout 900 -- sh -c "
	for c in allgather allreduce; do
		SWCCL_SCHED_FILE=$build/synth-dgx1-card-\$c.json swccl-bench \$c --cards 8 -b 4M \
			-e 4M -d float -a FILE $run || exit 1
	done" |
	grep '^{"kind":"row"' | jq -r '"\(.coll) on the cards: \(.time_us) us, \(.wrong) wrong"'

echo "# swccl-synth on NDv2 x k chassis, 64 MiB AllGather: ours, its bound, the seed's MTEGCCA"
for k in 2 4 10; do
	"$b" --preset ndv2 --chassis $k --size 64M
	"$b" --preset ndv2 --chassis $k --size 64M --tm | tail -n 1
done
