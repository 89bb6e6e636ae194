#!/bin/sh
# swai_trace_test - swai.ko's tracepoints (events/swai/) and debug categories
# (swai.debug) name a job as every layer does, "ctx <ASID> q <CG> job <id>",
# libsdaa's job log (SDAA_LOG_SUBSYS=JOB) too:
# every job submitted is seen written to its ring and done, in that order,
# under the same name; a card reset is traced; the JOB category logs.
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }

t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs tracefs $t 2>/dev/null
[ -d $t/events ] || t=/sys/kernel/debug/tracing
if [ ! -d $t/events/swai ]; then
	echo "1..0 # SKIP no tracefs, or swai.ko without tracepoints"
	exit 0
fi
for e in swai_job_submit swai_job_run swai_job_done swai_mmu_fault swai_queue_reset \
	 swai_card_reset; do
	check "tracepoint $e exists" '[ -d $t/events/swai/$e ]'
done

# The categories are dev_dbg(): with dynamic debug, switch the module's on.
dd=/sys/kernel/debug/dynamic_debug/control
[ -w $dd ] && echo "module swai +p" >$dd
dmesg -c >/dev/null
echo 0 >$t/tracing_on
# Submit and run happen on one CPU, done in the interrupt on another: only
# the global clock orders events across CPUs.
clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $t/trace_clock)
echo global >$t/trace_clock
echo >$t/trace
echo 1 >$t/events/swai/enable
echo 0x4 >/sys/module/swai/parameters/debug
echo 1 >$t/tracing_on
SDAA_LOG_LEVEL=debug SDAA_LOG_SUBSYS=JOB sdaa-bandwidth --min 4K --max 4K --fig12 4K -n 1 \
	>/dev/null 2>/tmp/sdaa.log; brc=$?
card=$(ls -d /sys/class/accel/accel*/device | head -n 1)
echo 1 >"$card/card_reset"
echo 0 >$t/tracing_on
echo 0 >/sys/module/swai/parameters/debug
echo 0 >$t/events/swai/enable
trace=$(grep -E 'swai_(job|card|queue)_' $t/trace)
echo "${clock:-local}" >$t/trace_clock	# (this clears the buffer)
klog=$(dmesg)
check "sdaa-bandwidth ran (exit $brc)" '[ $brc -eq 0 ]'

# The jobs by name, in trace order, one line per event: "<event> <ctx q job>".
ev=$(echo "$trace" | sed -n 's/.* \(swai_job_[a-z]*\): \(ctx [0-9]* q [0-9]* job [0-9]*\):.*/\1 \2/p')
subs=$(echo "$ev" | grep -c '^swai_job_submit ')
check "jobs submitted and traced ($subs)" '[ "$subs" -ge 2 ]'
# For every submitted job: run after submit, done after run, same name.
# (Events of jobs an earlier process left behind may come first: not ours.)
bad=$(echo "$ev" | awk '
	{ name = $2 " " $3 " " $4 " " $5 " " $6 " " $7 }
	$1 == "swai_job_submit" { s[name] = NR }
	$1 == "swai_job_run" && (name in s) { r[name] = NR }
	$1 == "swai_job_done" && (name in s) { if (!(name in r) || r[name] < s[name]) bad++; d[name] = NR }
	END { for (k in s) if (!(k in d)) bad++; print bad + 0 }')
check "every job: submit, run, done in order, under one ctx/q/job ($bad out of order)" \
	'[ "$bad" -eq 0 ]'
first=$(echo "$ev" | sed -n 's/^swai_job_submit //p' | head -n 1)
check "a done event carries the modeled times ($first)" \
	'echo "$trace" | grep -q "swai_job_done: $first: error 0, modeled [0-9]*\.\.[0-9]* ns"'
ulog=$(cat /tmp/sdaa.log)
check "libsdaa's JOB log (SDAA_LOG_SUBSYS=JOB) names the job the same ($first)" \
	'echo "$ulog" | grep -q "libsdaa debug JOB: card [0-9]*: $first: submitted"'
check "SDAA_LOG_SUBSYS=JOB leaves the other subsystems out" \
	'[ -n "$ulog" ] && ! echo "$ulog" | grep -v "libsdaa [a-z]* JOB: " | grep -q "libsdaa debug"'
check "the card reset is traced" 'echo "$trace" | grep -q "swai_card_reset: every queue"'
check "swai.debug=0x4 (JOB) logs the same job names" \
	'echo "$klog" | grep -q "\[JOB\] $first: submitted"'
check "with the JOB bit clear, nothing more is logged" \
	'sdaa-bandwidth --min 4K --max 4K --fig12 4K -n 1 >/dev/null 2>&1 &&
	 [ "$(dmesg | grep -c "\[JOB\]")" -eq "$(echo "$klog" | grep -c "\[JOB\]")" ]'
[ -w $dd ] && echo "module swai -p" >$dd
echo "1..$n"
exit $fail
