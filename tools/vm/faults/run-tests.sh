#!/usr/bin/env bash
# tools/vm/faults/run-tests.sh - the VM runner's own failure detection: a
# module that oopses or warns at load, and a command that hangs, must each
# fail the run with the right exit status (125 kernel problem, 124 timeout)
# and show the kernel log; a clean module must pass.  Prints TAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
vm() { SWAI_VM_NO_BUILD=1 "$here/../swai-vm" --no-load "$@"; }
ko=$here/swai_fault.ko
n=0
t() {	# NAME WANT-STATUS WANT-STDERR-REGEX -- SWAI-VM-ARGS
	local name=$1 want=$2 re=$3 rc; shift 4
	n=$((n + 1))
	vm "$@" >"$here/out.log" 2>&1; rc=$?
	if [ "$rc" = "$want" ] && { [ -z "$re" ] || grep -Eq "$re" "$here/out.log"; }; then
		echo "ok $n - $name"
	else
		sed 's/^/# /' "$here/out.log" | tail -n 30
		echo "not ok $n - $name (exit $rc, wanted $want)"
	fi
}
t "clean module load passes" 0 '' -- --add "$ko" -- insmod "$ko" mode=none
t "oops at load fails the run" 125 'Oops|BUG: kernel NULL pointer' -- --add "$ko" -- insmod "$ko" mode=oops
t "WARN at load fails the run" 125 'WARNING:' -- --add "$ko" -- insmod "$ko" mode=warn
t "a hang is killed by the timeout" 124 'timeout after' -- --timeout 10 -- sleep 1000
t "the command's exit status is the run's" 7 '' -- -- sh -c 'exit 7'
rm -f "$here/out.log"
echo "1..$n"
