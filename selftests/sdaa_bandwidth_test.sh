#!/bin/sh
# sdaa_bandwidth_test - sdaa-bandwidth runs (small sizes), its --json lines
# carry every figure, modeled bandwidth follows the card's timing model, and
# the paper's Fig. 12 comparison favours three-tier loading.
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }

json=$(sdaa-bandwidth --json --min 64K --max 4M --fig12 4M -n 1 --host-gbps 10 2>/dev/null); rc=$?
if [ $rc -eq 1 ] && sdaa-bandwidth --max 64K -n 1 2>&1 | grep -q NotSupported; then
	echo "1..0 # SKIP the card cannot run jobs"
	exit 0
fi
echo "$json" | sed 's/^/# /'
check "sdaa-bandwidth --json exits 0" '[ $rc -eq 0 ]'
check "every line is one JSON object" \
	'[ -z "$(echo "$json" | grep -v "^{\"kind\":\"[a-z_0-9]*\",.*}$")" ]'
check "timing parameters reported" '[ "$(echo "$json" | grep -c "\"kind\":\"timing\"")" -eq 1 ]'
copies=$(echo "$json" | grep -c '"kind":"copy"')
check "a copy figure per direction and size ($copies)" '[ "$copies" -ge 4 ]'
check "host memcpy baseline (--host-gbps) and wall fractions" \
	'echo "$json" | grep -q "\"kind\":\"host_memcpy\",\"bytes\":4194304,\"wall_gbps\":10.0000" &&
	 echo "$json" | grep -q "\"kind\":\"wall_fraction\",\"dir\":\"host->[a-z]*\",\"bytes\":4194304,\"fraction\":[0-9.]*}"'
plain=$(sdaa-bandwidth --min 64K --max 64K -n 1 2>/dev/null)
check "no fraction without the host's figure (never the guest's memcpy)" \
	'[ -n "$plain" ] && ! echo "$plain" | grep -q "host memcpy\|memcpy ("'
hm=$(sdaa-bandwidth --host-memcpy --max 1M -n 1)
check "--host-memcpy prints GB/s without a card ($hm)" \
	'awk "BEGIN { exit !($hm > 0) }"'
sdaa-bandwidth --host-gbps 0 >/dev/null 2>&1; grc=$?
check "--host-gbps 0 is a usage error (exit 2)" '[ $grc -eq 2 ]'
# 4 MiB host->Local: launch 25 us + step 5 us + 4 MiB / 25 GB/s = 197.8 us.
if [ -z "${SWAI_EXPECT_LOCAL_MB:-}" ] || [ "${SWAI_EXPECT_LOCAL_MB}" -gt 8 ]; then
	us=$(echo "$json" | grep '"dir":"host->local","bytes":4194304' | field modeled_us)
	check "modeled host->Local 4 MiB = 197.8 us ($us)" \
		'[ -n "$us" ] && awk "BEGIN { exit !($us > 197.0 && $us < 198.6) }"'
fi
fig=$(echo "$json" | grep '"kind":"fig12"' | tail -n 1)
if [ -n "$fig" ]; then
	ratio=$(echo "$fig" | field ratio)
	check "Fig. 12: three-tier faster than two-tier (ratio $ratio)" \
		'awk "BEGIN { exit !($ratio > 1.5) }"'
fi
sdaa-bandwidth --bogus >/dev/null 2>&1; brc=$?
check "unknown option is a usage error (exit 2)" '[ $brc -eq 2 ]'
echo "1..$n"
exit $fail
