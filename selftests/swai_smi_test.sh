#!/bin/sh
# swai_smi_test - swai-smi lists every card, as a table and as JSON, with the
# geometry the VM was booted with (SWAI_EXPECT_*).
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }

cards=$(ls /sys/class/accel | wc -l)
table=$(swai-smi) ; trc=$?
json=$(swai-smi --json) ; jrc=$?
check "swai-smi exits 0" '[ $trc -eq 0 ]'
check "table has a row per card" '[ "$(echo "$table" | grep -c "/dev/accel/accel")" -eq "$cards" ]'
check "swai-smi --json exits 0" '[ $jrc -eq 0 ]'
check "json has an entry per card" '[ "$(echo "$json" | grep -o "\"node\":" | wc -l)" -eq "$cards" ]'
if [ -n "${SWAI_EXPECT_LOCAL_MB:-}" ]; then
	lb=$((SWAI_EXPECT_LOCAL_MB * 1048576))
	gb=$((4 * (SWAI_EXPECT_HBM_MB - SWAI_EXPECT_LOCAL_MB) * 1048576))
	check "json local_per_cg = ${SWAI_EXPECT_LOCAL_MB} MiB on every card" \
		'[ "$(echo "$json" | grep -o "\"local_per_cg\": *$lb\b" | wc -l)" -eq "$cards" ]'
	check "json global_size = 4 x (hbm - local) on every card" \
		'[ "$(echo "$json" | grep -o "\"global_size\": *$gb\b" | wc -l)" -eq "$cards" ]'
fi
# Every card here runs jobs: the capabilities beyond memory are named too.
for cap in submit timing peer compute; do
	check "json names capability '$cap' on every card" \
		'[ "$(echo "$json" | grep -o "\"capabilities\": \[[^]]*\"$cap\"" | wc -l)" -eq "$cards" ]'
done
swai-smi --bogus >/dev/null 2>&1; brc=$?
check "unknown option is a usage error (exit 2)" '[ $brc -eq 2 ]'
echo "1..$n"
exit $fail
