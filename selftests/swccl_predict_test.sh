#!/bin/sh
# swccl_predict_test - libswccl's cost model is the card: for every row that
# swccl-bench prints (every collective, every algorithm, a size sweep, the
# fused calls too), the selector's prediction (predicted_us, from the card's
# own engine run on the plan in timing mode) equals the time the card took
# (time_us, its modeled clock) to the nanosecond.  Exact on an idle card,
# which is how swccl-bench runs: one call at a time, after a warm-up.
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }

# Rows of $1 (JSON lines) as "modeled predicted" pairs; fused rows give two.
pairs() {
	sed -n -e 's/.*"kind":"row".*"time_us":\([0-9.]*\),.*"predicted_us":\([0-9.]*\),.*/\1 \2/p' \
		-e 's/.*"kind":"fused_row".*"unfused_us":\([0-9.]*\),"fused_us":\([0-9.]*\),.*"predicted_unfused_us":\([0-9.]*\),"predicted_fused_us":\([0-9.]*\),.*/\1 \3\n\2 \4/p'
}
# "rows maxdiff_ns" over the pairs on stdin.
worst() {
	awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d; k++ }
	     END { printf "%d %.1f\n", k, m * 1000 }'
}

swccl-bench allgather -b 4K -e 4K -n 1 -w 1 -c 0 >/dev/null 2>&1; rc=$?
if [ $rc -eq 1 ] && swccl-bench allgather -b 4K -e 4K -n 1 2>&1 | grep -q NotSupported; then
	echo "1..0 # SKIP the card cannot run jobs"
	exit 0
fi
for args in "allgather" "reducescatter" "allreduce" "broadcast" "reduce" \
	    "allgather --place local" "reducescatter -d half -o max" "allreduce -d bf16 -o avg" \
	    "allgather -a AUTO"; do
	a="-a all"
	case $args in *"-a "*) a= ;; esac
	# shellcheck disable=SC2086
	json=$(swccl-bench $args -b 4K -e 4M -f 4 $a -n 2 -w 1 -c 0 --json --no-summary 2>&1)
	rc=$?
	read -r rows ns <<-EOF
	$(echo "$json" | pairs | worst)
	EOF
	check "swccl-bench $args: $rows rows, predicted = modeled (worst $ns ns)" \
		'[ $rc -eq 0 ] && [ "$rows" -ge 6 ] && awk "BEGIN { exit !($ns < 0.5) }"'
	[ "$rc" -eq 0 ] || echo "$json" | tail -n 5 | sed 's/^/# /'
done
for f in fused-ag fused-rs; do
	json=$(swccl-bench $f -b 256K -e 1M -f 4 -n 1 -w 1 -c 0 --json --no-summary 2>&1); rc=$?
	read -r rows ns <<-EOF
	$(echo "$json" | pairs | worst)
	EOF
	check "swccl-bench $f: $rows calls (fused and unfused), predicted = modeled (worst $ns ns)" \
		'[ $rc -eq 0 ] && [ "$rows" -ge 4 ] && awk "BEGIN { exit !($ns < 0.5) }"'
done
echo "1..$n"
exit $fail
