#!/bin/sh
# swccl_sched_file_test - libswccl runs a schedule from a file between cards
# (SWCCL_SCHED_FILE, the algorithm FILE, as MSCCL_XML_FILES): a RING that
# swccl-sched exported (JSON and MSCCL XML) on every card there is and, with
# 8 cards of the default fabric, an AllGather swccl-synth synthesized for
# it.  Zero wrong elements, the cost model's prediction equal to the cards'
# modeled time, and a file for another call refused by name.
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
tmp=${TMPDIR:-/tmp}/swccl-sched-file.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

# How many cards of one fabric there are: the most that a RING between them runs on.
cards=0
for k in 8 4 2; do
	if swccl-bench allgather --cards $k -g 1 -b 4K -e 4K -n 1 -w 0 -c 0 -a RING \
		--place local --no-summary >/dev/null 2>&1; then
		cards=$k
		break
	fi
done
if [ $cards -lt 2 ]; then
	echo "1..0 # SKIP fewer than 2 cards on one fabric"
	exit 0
fi

# run WHAT FILE COLL: FILE's rows -- every one right, and predicted = modeled.
run() {
	out=$(SWCCL_SCHED_FILE="$2" swccl-bench "$3" --cards $cards -g 1 -b 64K -e 1M -f 16 \
		-a FILE -n 1 -w 1 --place local --json --no-summary 2>&1)
	rc=$?
	rows=$(echo "$out" | grep -c '"kind":"row".*"algo":"FILE"')
	bad=$(echo "$out" | grep '"kind":"row"' | grep -vc '"wrong":0,')
	worst=$(echo "$out" | sed -n 's/.*"time_us":\([0-9.]*\),.*"predicted_us":\([0-9.]*\),.*/\1 \2/p' |
		awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.1f", m * 1000 }')
	if [ $rc -eq 0 ] && [ "$rows" -ge 2 ] && [ "$bad" -eq 0 ] &&
	   awk "BEGIN { exit !($worst < 0.5) }"; then
		ok "$1: $rows rows, 0 wrong, predicted = modeled (worst $worst ns)"
	else
		nok "$1: $rows rows, $bad wrong, worst $worst ns, exit $rc"
		echo "$out" | tail -n 5 | sed 's/^/# /'
	fi
}

if swccl-sched export -c allgather -a RING -n $cards >"$tmp/ring.json" 2>/dev/null &&
   swccl-sched export -c allreduce -a RING -n $cards --format msccl >"$tmp/ring.xml"; then
	run "RING AllGather of $cards ranks from a JSON file" "$tmp/ring.json" allgather
	run "RING AllReduce of $cards ranks from MSCCL XML" "$tmp/ring.xml" allreduce
else
	skip "schedules from swccl-sched" "no swccl-sched here"
fi
if [ $cards -eq 8 ] && swccl-synth -t mesh8 -c allgather --size 1M --chunks 2 \
	-o "$tmp/synth.json" >/dev/null 2>&1; then
	run "an AllGather swccl-synth made for the 8 cards of mesh8" "$tmp/synth.json" allgather
else
	skip "a synthesized AllGather" "needs 8 cards of mesh8 and swccl-synth"
fi
if [ -f "$tmp/ring.json" ]; then
	out=$(SWCCL_SCHED_FILE="$tmp/ring.json" swccl-bench reducescatter --cards $cards -g 1 \
		-b 64K -e 64K -a FILE -n 1 -w 0 --place local --no-summary 2>&1); rc=$?
	# swccl-bench prints no row for an algorithm the call cannot run, and why
	if echo "$out" | grep -q "SWCCL_SCHED_FILE .* is for allgather on $cards ranks" &&
	   ! echo "$out" | grep -q "  FILE  *[0-9]"; then
		ok "a file written for another collective is refused, naming SWCCL_SCHED_FILE"
	else
		nok "a file for another collective: exit $rc"
		echo "$out" | tail -n 5 | sed 's/^/# /'
	fi
fi
echo "1..$n"
exit $fail
