#!/bin/sh
# swai-selftests [--quick] - run every swai selftest in this (guest) system.
# Each test prints TAP; the host (tools/run-checks.sh) counts the results.
# --quick (the extra configurations): 3 load/unload cycles instead of 10, and
# none of the long tests whose subject does not depend on the geometry
# (swai_stress_test, swccl_coll_test, swccl_bench_test, swccl_predict_test,
# swccl_mlp_test).
dir=$(dirname "$0")
quick=
[ "${1:-}" = --quick ] && quick=1 && export SWAI_LOAD_CYCLES=${SWAI_LOAD_CYCLES:-3}
rc=0
for t in swai_query_test swai_ioctl_test swai_smi_test sdaa_device_test swai_partition_test \
		swai_mem_test swai_share_test sdaa_memory_test sdaa_host_test \
		swai_load_test \
		swai_job_test swai_trace_test swai_fault_test swai_limits_test swai_stress_test \
		swai_nic_test \
		sdaa_stream_test sdaa_memcpy_test sdaa_launch_test sdaa_peer_test sdaa_fabric_test \
		sdaa_kernels_test \
		sdaa_bandwidth_test swccl_coll_test swccl_comm_test swccl_xcard_test swccl_xproc_test \
		swccl_bench_test swccl_predict_test swccl_sched_file_test swccl_fused_test \
		swccl_mlp_test; do
	case "$quick:$t" in
	1:swai_stress_test | 1:swccl_coll_test | 1:swccl_bench_test | 1:swccl_predict_test | \
	1:swccl_mlp_test)
		echo "# === $t skipped (--quick)"; continue ;;
	esac
	echo "# === $t"
	t0=$(date +%s)
	"$dir/$t" || rc=1
	echo "# === $t took $(($(date +%s) - t0)) s"
done
exit $rc
