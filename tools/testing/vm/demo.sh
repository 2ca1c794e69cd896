#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# What 'make demo' shows, inside the bench VM: rdma_mcm loading and the RDMA
# devices it sees; a real RDMA multicast exchange between rdma-core's mckey
# on rxe0 and on rxe1; then a kernel ULP (the test ULP, on rdma_mcm's API
# with its own UD QP on rxe1) joining, receiving mckey's datagrams, leaving,
# and cancelling a join in flight. Exits non-zero when any step fails.

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

CTL=/sys/kernel/debug/rdma_mcm_test_ulp/control
STATUS=/sys/kernel/debug/rdma_mcm_test_ulp/status
ULP_GROUP=239.2.2.2
ulp() { echo "ulp> $*"; echo "$*" > $CTL || fail "ULP command '$*'"; }
rx() { awk '$1 == "rx" { print $2 }' $STATUS; }
member_line() { grep "^member .* $1 " $STATUS; }

say "a kernel ULP on rdma_mcm: context on rxe1 ($BENCH_IP1), its own UD QP"
modprobe rdma_mcm_test_ulp || fail "modprobe rdma_mcm_test_ulp"
ulp open $BENCH_IP1
ulp join $ULP_GROUP
for _ in $(seq 100); do
	member_line $ULP_GROUP | grep -q joined && break
	sleep 0.2
done
member_line $ULP_GROUP | grep -q joined || fail "$ULP_GROUP never joined"
echo "membership:   $(member_line $ULP_GROUP)"
dmesg | grep 'rdma_mcm_test_ulp: joined' | tail -n 1 | sed 's/^\[[^]]*\] /kernel log:  /'

say "mckey on rxe0 sends $COUNT datagrams to $ULP_GROUP; the ULP's QP receives them"
for run in 1 2 3 4 5; do
	timeout 60 mckey -m $ULP_GROUP -b $BENCH_IP0 -s -C $COUNT > /dev/null
	sleep 1
	[ "$(rx)" -ge $COUNT ] && break
done
echo "datagrams received by the kernel ULP: $(rx)"
[ "$(rx)" -ge $COUNT ] || fail "the ULP did not receive $COUNT datagrams"

say "leave $ULP_GROUP: QP detached, group left, IGMP forgets it"
before=$(rx)
ulp leave $ULP_GROUP
member_line $ULP_GROUP && fail "still a member"
awk '/^[0-9]/ { d = $2 } d == "veth1"' /proc/net/igmp
timeout 60 mckey -m $ULP_GROUP -b $BENCH_IP0 -s -C $COUNT > /dev/null
sleep 2
echo "after leave, mckey sent $COUNT more; the ULP received $(( $(rx) - before ))"

say "cancel: join 239.2.2.3 and leave it before the join completes"
cbs=$(awk '$1 == "joined_callbacks" { print $2 }' $STATUS)
ulp joinleave 239.2.2.3
sleep 2
echo "joined callbacks before: $cbs, after: $(awk '$1 == "joined_callbacks" { print $2 }' $STATUS)"
grep -q 030202EF /proc/net/igmp && fail "the cancelled join left an IGMP entry"
echo "no IGMP entry for 239.2.2.3"

say "close the kernel ULP's context"
ulp close
rmmod rdma_mcm_test_ulp || fail "rmmod rdma_mcm_test_ulp"

say "userspace: rdma-mcm (librdmamcm over /dev/rdma_mcm) receives from mckey"
CLI_GROUP=239.6.6.6
rdma-mcm -b $BENCH_IP1 -t 120 recv $CLI_GROUP -c $COUNT > /tmp/cli-recv.log 2>&1 &
cli=$!
for _ in $(seq 100); do grep -q 060606EF /proc/net/igmp && break; sleep 0.2; done
sleep 2
for run in 1 2 3 4 5; do
	timeout 60 mckey -m $CLI_GROUP -b $BENCH_IP0 -s -C $COUNT > /dev/null
	sleep 2
	kill -0 $cli 2>/dev/null || break
done
wait $cli || fail "rdma-mcm recv did not get $COUNT datagrams"
cat /tmp/cli-recv.log

say "rdma-mcm join: events on stdout, commands on stdin (list, leave, cancel)"
mkfifo /tmp/demo.in
rdma-mcm -b $BENCH_IP1 join 239.6.7.1 < /tmp/demo.in > /tmp/demo.out 2>&1 &
cli=$!
exec 8> /tmp/demo.in
for _ in $(seq 100); do grep -q '^joined' /tmp/demo.out && break; sleep 0.2; done
echo "list" >&8
sleep 1
echo "leave 239.6.7.1" >&8
sleep 1
# rdma-mcm prints the events each command brings before it reads the next,
# so this join may complete before the leave: the cancel of a join in
# flight is shown with the kernel ULP above and checked by the ABI test.
busybox printf 'join 239.6.7.2\nleave 239.6.7.2\n' >&8
sleep 2
echo "quit" >&8
exec 8>&-
wait $cli
sed 's/^/rdma-mcm| /' /tmp/demo.out
grep -q '07..EF' /proc/net/igmp && fail "IGMP still lists a 239.6.7.x group"
if grep -q '^joined 239.6.7.2' /tmp/demo.out; then
	echo "(239.6.7.2 completed before the leave reached it: joined, then left)"
else
	echo "(the join of 239.6.7.2 was cancelled: no joined event, no IGMP entry)"
fi

say "unload"
echo "rdma_mcm live objects: $(tr '\n' ' ' < /sys/kernel/debug/rdma_mcm/live)"
rmmod rdma_mcm || fail "rmmod rdma_mcm"
[ -e /dev/rdma_mcm ] && fail "/dev/rdma_mcm still exists"
echo "/dev/rdma_mcm is gone; demo complete"
