#!/bin/sh
# tools/vm/cluster-selftest.sh - run on every node of a swai-cluster (busybox
# sh in the guest): what the launcher promises a node.  Prints one
# "ok - ..." or "not ok - ..." line a check (run-checks.sh numbers them per
# node) and exits 1 if any failed.
#
#   tools/vm/swai-cluster --nodes 2 --cards 2 --add tools/vm/cluster-selftest.sh \
#       -- sh $PWD/tools/vm/cluster-selftest.sh
#
# The nodes boot in parallel but not in step, so everything that needs a
# peer retries for up to PEER_WAIT seconds (the other VM may still be
# booting), as a job on real machines waits for its rendezvous.
# shellcheck disable=SC2317 # the checks are functions called through check
PEER_WAIT=${PEER_WAIT:-60}
PORT=29501	# MASTER_PORT + 1: MASTER_PORT is the job's, not ours
bad=0
check() {	# DESCRIPTION COMMAND...: one TAP-like line
	d=$1; shift
	if "$@" >/tmp/check.out 2>&1; then
		echo "ok - $d"
	else
		sed 's/^/# /' /tmp/check.out
		echo "not ok - $d"
		bad=1
	fi
}

me=${SWAI_NODE:-?} n=${SWAI_NODES:-0} m=${SWAI_CARDS_PER_NODE:-0}

cards_present() {
	j=0
	while [ "$j" -lt "$m" ]; do
		[ -c "/dev/accel/accel$j" ] || { echo "no /dev/accel/accel$j"; ls -l /dev/accel; return 1; }
		j=$((j + 1))
	done
	[ ! -e "/dev/accel/accel$m" ] || { echo "more than $m cards"; return 1; }
}
check "node $me: $m cards (/dev/accel/accel0..$((m - 1)))" cards_present

env_right() {
	want="WORLD_SIZE=$n RANK=$me LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 NODE_RANK=$me NNODES=$n
	      MASTER_ADDR=10.77.0.1 MASTER_PORT=29500 SWAI_NODE=$me SWAI_NODES=$n
	      SWCCL_SOCKET_IFNAME=eth0"
	ok=0
	for kv in $want; do
		k=${kv%%=*}
		v=$(eval "echo \"\${$k-(unset)}\"")
		[ "$k=$v" = "$kv" ] || { echo "$k is '$v', wanted '${kv#*=}'"; ok=1; }
	done
	if [ "$n" -lt 1 ] || [ "$m" -lt 1 ]; then
		echo "SWAI_NODES '$n', SWAI_CARDS_PER_NODE '$m'"; ok=1
	fi
	return "$ok"
}
check "node $me: torchrun's environment and SWAI_NODE/SWAI_NODES/SWAI_CARDS_PER_NODE" env_right

myip=10.77.0.$((me + 1))
check "node $me: eth0 is $myip/24 and up" \
	sh -c "ip -4 addr show dev eth0 | grep -q 'inet $myip/24' && grep -qx 1 /sys/class/net/eth0/carrier"

# ping_peers: every other node answers on the management network.
ping_peers() {
	p=0
	while [ "$p" -lt "$n" ]; do
		if [ "$p" != "$me" ]; then
			t=0
			until ping -c 1 -W 1 "10.77.0.$((p + 1))" >/dev/null 2>&1; do
				t=$((t + 1))
				[ "$t" -lt "$PEER_WAIT" ] || { echo "10.77.0.$((p + 1)) silent for ${PEER_WAIT} s"; return 1; }
			done
		fi
		p=$((p + 1))
	done
}
check "node $me: every other node answers ping on the management network" ping_peers

# tcp_exchange: node 0 listens, node 1 connects; each sends a line and must
# read the other's (busybox nc: both directions on one connection).
tcp_exchange() {
	case $me in
	0) echo "hello from node 0" | timeout "$PEER_WAIT" nc -l -p "$PORT" >/tmp/got || return 1 ;;
	1) t=0
	   until echo "hello from node 1" | nc -w 2 10.77.0.1 "$PORT" >/tmp/got 2>/dev/null &&
		 [ -s /tmp/got ]; do
		t=$((t + 1)); [ "$t" -lt "$PEER_WAIT" ] || { echo "node 0 never listened"; return 1; }
		sleep 1
	   done ;;
	esac
	other=$((1 - me))
	grep -qx "hello from node $other" /tmp/got || { echo "got:"; cat /tmp/got; return 1; }
}
[ "$me" -gt 1 ] || [ "$n" -lt 2 ] ||
	check "node $me: a TCP exchange between node 0 and node 1 (nc, port $PORT)" tcp_exchange
exit $bad
