#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Recovery after a device reset (part of the benchmark; scripts/bench runs
# it after run.sh): a healing context holds N memberships on rxe1, then
# mcm_heal_bench deletes rxe1 and adds it back, and reports the time from
# 'rdma link add' to DEVICE_ADDED and to the last REJOINED, and the rejoin
# rate against the module's rejoin_rate. N = 100, 1 000, 10 000, send-only
# and full member, REPS times each; then 10 000 again with rejoin_rate
# 5000 and 0 (no limit), to show what the limit costs and what it spares.
# Prints HEAL lines (see tools/testing/bench/mcm_heal_bench.c).

REPS=${REPS:-3}
RATE=/sys/module/rdma_mcm/parameters/rejoin_rate
BIN=/usr/libexec/rdma_mcm/bin/mcm_heal_bench

modprobe rdma_mcm || exit 1
echo "KERNEL $(uname -r)"
default_rate=$(cat $RATE)

run() { # n type
	"$BIN" "$1" "$2" 2>/tmp/heal.err | grep '^HEAL' || {
		echo "HEAL $2 $1 error_no_output"
		tail -5 /tmp/heal.err
	}
	# rxe1 must be back (and its GIDs there) before the next run
	for _ in $(seq 100); do
		rdma link show rxe1/1 >/dev/null 2>&1 && break
		sleep 0.2
	done
}

for n in 100 1000 10000; do
	for _ in $(seq "$REPS"); do
		for type in sendonly full; do
			run "$n" "$type"
		done
	done
done
for rate in 5000 0; do
	echo "$rate" > $RATE
	for _ in $(seq "$REPS"); do
		run 10000 sendonly
	done
done
echo "$default_rate" > $RATE
rmmod rdma_mcm
