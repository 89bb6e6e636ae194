#!/bin/bash
# alltoall-demo.sh [BUILD] - seed 002 on the emulated cluster: 2 nodes x 4
# cards (tools/vm/swai-cluster), one process per card, every message
# between the cards an RDMA WRITE of their NICs.  AllToAll by DIRECT and
# PLANE (and AUTO's choice, by the model of the NICs) from 1 KiB to 1 MiB, AllToAllv and sendrecv,
# and the seed's matrix chain Z = (B x C) x D; every block checked.  Then
# the seed's 32 GPUs (seed002-8x4) on the simulator, plotted.  The rows go
# to BUILD/alltoall.json as well.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# absolute: swai-vm --add copies a file to the same absolute path in the guest
build=$(cd "${1:-$top/build}" && pwd)
out=$build/alltoall.json
SWAI_VM_NO_BUILD=1 "$top/tools/vm/swai-cluster" --nodes 2 --cards 4 --timeout 900 -- sh -c '
	swccl-bench alltoall -b 1K -e 1M -f 4 -a all --json --no-summary &&
	swccl-bench alltoallv -b 64K -e 64K --json --no-summary &&
	swccl-bench sendrecv -b 64K -e 64K --json --no-summary &&
	swccl-bench matrix -a PLANE --json' | sed -n 's/^\[n0\] \({"kind":.*\)/\1/p' >"$out"
echo "# AllToAll on 2 nodes x 4 cards: modeled us, busbw GB/s, messages between the nodes"
jq -r 'select(.kind == "row") | "\(.coll)\t\(.bytes)\t\(.algo)\t\(.chosen)\t\(.time_us)\t" +
	"\(.busbw)\t\(.internode_msgs)\t\(.wrong) wrong"' "$out" | column -t
jq -r 'select(.kind == "matrix") | "# seed 002 Z = (B x C) x D, \(.a) x \(.b) x \(.c) x \(.d) on " +
	"\(.ranks) ranks, blocks \(.block): AllToAll \(.chosen) \(.alltoall_us) us, " +
	"\(.internode_msgs) messages between nodes, \(.wrong) wrong"' "$out"
echo "# the seed's 32 GPUs (8 nodes x 4), simulated (swccl-sim, SimGrid)"
"$build/bin/swccl-sim" -t seed002-8x4 -c alltoall -n 32 -a DIRECT,PLANE -b 1K -e 16M -f 16 \
	--plot "$build/swccl-sim-alltoall.png"
