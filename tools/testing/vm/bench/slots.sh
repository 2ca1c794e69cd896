#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# How many memberships should share one rdma_cm_id? Joins then leaves N
# send-only groups through the test ULP for several values of rdma_mcm's
# slot_size, timing both in the kernel, and reports the slab memory of
# the memberships. Run with: scripts/vm-run --kernel 6.1 --run THIS
# (N from the kernel command line is not plumbed: edit N here.)

set -u
N=${N:-10000}
CTL=/sys/kernel/debug/rdma_mcm_test_ulp/control
COUNTERS=/sys/kernel/debug/rdma_mcm_test_ulp/counters

batch_ns() { awk '$1 == "last_batch" { print $3 }' $COUNTERS; }
joined() { awk '$1 == "joined_callbacks" { print $2 }' $COUNTERS; }
slab_kib() { # total KiB of every slab cache whose name matches $1
	awk -v re="$1" '$1 ~ re { kib += $3 * $4 / 1024 } END { printf "%d", kib }' /proc/slabinfo
}

printf '%-10s %12s %12s %10s %14s\n' slot_size "join us/op" "leave us/op" ids "kmalloc KiB"
for size in 1 8 64 512 $N; do
	modprobe rdma_mcm slot_size=$size || exit 1
	modprobe rdma_mcm_test_ulp || exit 1
	echo "open 192.0.2.2" > $CTL || exit 1
	before=$(slab_kib '^kmalloc-')
	echo "join_many 239.4.0.0 $N" > $CTL || { echo "join_many failed"; exit 1; }
	join_ns=$(batch_ns)
	for _ in $(seq 600); do [ "$(joined)" -ge "$N" ] && break; sleep 0.5; done
	ids=$(awk '$1 == "slots" { print $2 }' /sys/kernel/debug/rdma_mcm/live)
	after=$(slab_kib '^kmalloc-')
	echo "leave_many 239.4.0.0 $N" > $CTL || { echo "leave_many failed"; exit 1; }
	leave_ns=$(batch_ns)
	echo close > $CTL
	rmmod rdma_mcm_test_ulp rdma_mcm
	awk -v s="$size" -v j="$join_ns" -v l="$leave_ns" -v n="$N" -v ids="$ids" \
		-v kib=$((after - before)) \
		'BEGIN { printf "%-10s %12.1f %12.1f %10d %14d\n", s, j / n / 1000, l / n / 1000, ids, kib }'
done
