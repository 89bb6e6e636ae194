#!/bin/sh
# swai-selftests [--quick] - run every swai selftest in this (guest) system.
# Each test prints TAP; the host (tools/run-checks.sh) counts the results.
# --quick: 3 load/unload cycles instead of 20 (the extra configurations).
dir=$(dirname "$0")
[ "${1:-}" = --quick ] && export SWAI_LOAD_CYCLES=${SWAI_LOAD_CYCLES:-3}
rc=0
for t in swai_query_test swai_ioctl_test swai_smi_test sdaa_device_test swai_partition_test \
		swai_mem_test sdaa_memory_test sdaa_host_test \
		swai_load_test \
		swai_job_test swai_fault_test swai_stress_test \
		sdaa_stream_test sdaa_memcpy_test sdaa_launch_test sdaa_bandwidth_test; do
	echo "# === $t"
	"$dir/$t" || rc=1
done
exit $rc
