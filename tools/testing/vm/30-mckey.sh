#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The bench carries real RDMA multicast: rdma-core's mckey receives on rxe1
# every datagram that mckey sends on rxe0, through group 239.1.1.1.
# /proc/net/igmp lists the group (010101EF) on veth1 only while joined.
#
# mckey's sender posts its sends unsignalled and exits without waiting for
# them; on 6.12, where rxe sends from a workqueue, destroying the QP often
# flushes some of them before they reach the wire. The sender is therefore
# run again (up to SENDER_RUNS times) until the receiver has all COUNT
# datagrams; the number of runs it took is reported as a diagnostic.

. "$(dirname "$0")/lib.sh"

GROUP=239.1.1.1
COUNT=20
SENDER_RUNS=10

# in_igmp DEV: /proc/net/igmp lists 239.1.1.1 under DEV.
in_igmp() {
	awk -v dev="$1" '/^[0-9]/ { d = $2 } $1 == "010101EF" && d == dev { f = 1 }
			 END { exit !f }' /proc/net/igmp
}
not_in_igmp() { ! in_igmp "$1"; }

# send_until_received: run the sender until the receiver exits.
send_until_received() {
	local run
	for run in $(seq $SENDER_RUNS); do
		timeout 60 mckey -m $GROUP -b $BENCH_IP0 -s -C $COUNT || return 1
		if wait_for 5 not_running $recv; then
			diag "the sender ran $run time(s)"
			return 0
		fi
	done
	return 1
}
not_running() { ! kill -0 "$1" 2>/dev/null; }

plan 5
timeout 180 mckey -m $GROUP -b $BENCH_IP1 -C $COUNT > /tmp/mckey-recv.log 2>&1 &
recv=$!
ok "receiver joins: $GROUP appears in /proc/net/igmp on veth1" wait_for 30 in_igmp veth1
sleep 2 # the receiver attaches its QP after the join event
check "sender on rxe0 sends until the receiver has $COUNT datagrams" send_until_received
wait $recv
rc=$?
cat /tmp/mckey-recv.log
ok "receiver got all $COUNT datagrams and exited 0" [ $rc -eq 0 ]
ok "receiver reports 'data transfers complete'" grep -q "data transfers complete" /tmp/mckey-recv.log
ok "after the receiver left, veth1 no longer lists $GROUP" wait_for 10 not_in_igmp veth1
