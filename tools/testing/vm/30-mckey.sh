#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The bench carries real RDMA multicast: rdma-core's mckey receives on rxe1
# every datagram that mckey sends on rxe0, through group 239.1.1.1.
# /proc/net/igmp lists the group (010101EF) on veth1 only while joined.
#
# mckey's sender posts its sends unsignalled and exits without waiting for
# them; on 6.12, where rxe sends from a workqueue, destroying the QP often
# flushes some or all of them before they reach the wire, the more so on a
# loaded machine. So the test counts what really went out (rxe0's
# sent_pkts) instead of trusting a number of runs or a time: the sender
# runs until rxe0 has transmitted COUNT datagrams since the receiver's QP
# was attached (its multicast MAC is on veth1), and from then on the
# receiver must have them all.

. "$(dirname "$0")/lib.sh"

GROUP=239.1.1.1
COUNT=20
SENDER_COUNT=$((5 * COUNT))	# per run: the more posted, the more sent
DEADLINE=200			# seconds of sender runs at most

not_running() { ! kill -0 "$1" 2>/dev/null; }

# send_until_transmitted: run the sender until rxe0 has put COUNT datagrams
# on the wire (or the receiver is done); says how many runs and packets.
send_until_transmitted() {
	local runs=0 sent0 sent=0 end=$(( $(date +%s) + DEADLINE ))
	sent0=$(rxe_counter rxe0 sent_pkts)
	while [ "$sent" -lt $COUNT ] && ! not_running $recv; do
		if [ "$(date +%s)" -ge $end ]; then
			diag "rxe0 transmitted $sent datagrams in $runs sender runs in ${DEADLINE}s"
			return 1
		fi
		timeout 60 mckey -m $GROUP -b $BENCH_IP0 -s -C $SENDER_COUNT > /dev/null || return 1
		runs=$((runs + 1))
		sent=$(( $(rxe_counter rxe0 sent_pkts) - sent0 ))
	done
	diag "rxe0 transmitted $sent datagrams in $runs sender run(s)"
}

plan 6
timeout 280 mckey -m $GROUP -b $BENCH_IP1 -C $COUNT > /tmp/mckey-recv.log 2>&1 &
recv=$!
ok "receiver joins: $GROUP appears in /proc/net/igmp on veth1" wait_for 30 in_igmp veth1 $GROUP
ok "receiver's QP is attached (rxe1 put the group's MAC on veth1)" wait_for 30 qp_attached veth1 $GROUP
check "sender on rxe0 runs until rxe0 has transmitted $COUNT datagrams" send_until_transmitted
# every datagram on the wire after the attach reaches the receiver, which
# then exits at once; the wait only bounds a broken run
ok "receiver got all $COUNT datagrams and exited 0" wait_for 60 not_running $recv
wait $recv
rc=$?
cat /tmp/mckey-recv.log
ok "receiver's exit status is 0 and it reports 'data transfers complete'" \
	bash -c "[ $rc -eq 0 ] && grep -q 'data transfers complete' /tmp/mckey-recv.log"
ok "after the receiver left, veth1 no longer lists $GROUP" wait_for 10 not_in_igmp veth1 $GROUP
