#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The instruction counter's self-test in the guest (scripts/insn-selftest
# boots it with the QEMU plugin and judges): loops of known length between
# markers (mcm_insn_selftest), then rdma_mcm's measured calls: 100 JOIN and
# LEAVE ioctls with debugfs timing on, whose 'K'/'k' markers the plugin
# must count once per call, as the module's own counters do.

mcm_insn_selftest 1 1000 10000000 || echo "SELFTEST failed $?"
modprobe rdma_mcm || exit 1
T=/sys/kernel/debug/rdma_mcm/timing
tag=1000
for w in cancel joinleave; do
	for type in sendonly full; do
		tag=$((tag + 1))
		echo 1 > $T
		MCM_BENCH_TAG=$tag MCM_BENCH_BUDGET=120 mcm_bench shim "$w" 100 \
			"$type" 2>&1 | grep '^RESULT'
		echo 0 > $T
		echo "TIMING $w $type 100 $(awk '$1 != "enabled" {
			printf "%s %s %s ", $1, $2, $3 }' $T)tag=$tag"
	done
done
rmmod rdma_mcm
