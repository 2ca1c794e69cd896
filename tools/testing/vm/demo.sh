#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# What 'make demo' shows, inside the bench VM: rdma_mcm loading and the RDMA
# devices it sees, then a real RDMA multicast exchange between rdma-core's
# mckey on rxe0 and on rxe1. Exits non-zero when any step fails.

set -u
. /usr/libexec/rdma_mcm/bench.sh

GROUP=239.1.1.1
COUNT=10

say() { printf '\n--- %s\n' "$*"; }
fail() { echo "demo: FAILED: $*"; exit 1; }

say "kernel $(uname -r); Soft-RoCE devices on the veth pair:"
rdma link show
ibv_devices

say "modprobe rdma_mcm (debug messages on), then what it logged"
echo 'rdma_mcm-demo: loading' > /dev/kmsg
modprobe rdma_mcm dyndbg=+p || fail "modprobe rdma_mcm"
dmesg | sed -n '/rdma_mcm-demo: loading/,$p' | grep 'rdma_mcm:' | sed 's/^\[[^]]*\] //'
ls -l /dev/rdma_mcm
modinfo rdma_mcm | grep -E '^(version|description|license|depends|vermagic):'

say "mckey receiver on rxe1 ($BENCH_IP1) joins $GROUP"
timeout 120 mckey -m $GROUP -b $BENCH_IP1 -C $COUNT > /tmp/recv.log 2>&1 &
recv=$!
for _ in $(seq 100); do
	grep -q 010101EF /proc/net/igmp && break
	sleep 0.2
done
echo "/proc/net/igmp while joined:"
cat /proc/net/igmp
sleep 2

say "mckey sender on rxe0 ($BENCH_IP0) sends $COUNT datagrams to $GROUP"
for run in 1 2 3 4 5; do
	timeout 60 mckey -m $GROUP -b $BENCH_IP0 -s -C $COUNT
	sleep 2
	kill -0 $recv 2>/dev/null || break
	echo "(the receiver is still waiting: sending again, run $((run + 1)))"
done
wait $recv || fail "the receiver did not get all $COUNT datagrams"

say "what the receiver printed"
cat /tmp/recv.log
echo "rxe1 counters:"
rdma statistic show link rxe1/1 |
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^(rcvd_pkts|rdma_recvs)$/) print "    " $i, $(i + 1) }' 

say "after the receiver left, /proc/net/igmp on veth1:"
awk '/^[0-9]/ { d = $2 } d == "veth1"' /proc/net/igmp
grep -q 010101EF /proc/net/igmp && fail "$GROUP still joined"

say "rmmod rdma_mcm"
rmmod rdma_mcm || fail "rmmod rdma_mcm"
[ -e /dev/rdma_mcm ] && fail "/dev/rdma_mcm still exists"
echo "/dev/rdma_mcm is gone; demo complete"
