#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# librdmamcm-preload.so: unmodified librdmacm programs get rdma_mcm.
#  - rdma-core's mckey, through "rdma-mcm exec", on both ends: every
#    datagram rxe0 puts on the wire after the receiver's attach arrives
#    (IPv4, and IPv6 on RoCE v2, which mckey alone cannot join: 62-ipv6);
#    rdma-mcm show lists mckey's membership under mckey's pid.
#  - the librdmacm trap: a leave while a MULTICAST_JOIN is unacked hangs
#    in librdmacm (shown, bounded by a timeout) and returns at once
#    through the preload.
#  - a join left before its event (cancel) leaves no IGMP entry and no
#    event; a non-blocking program that epolls channel->fd sees each of
#    its joins' events (the doorbell).
#  - a source-specific join chosen by configuration (rdma-mcm exec
#    --source) is an IGMPv3 INCLUDE of that source.
#  - with no /dev/rdma_mcm (bind-mounted away in a mount namespace), the
#    same program works through librdmacm alone.
#  - a port flap (nothing lost on RoCE) and a move of the source address
#    (the memberships wait and rejoin; the preload detaches and attaches
#    the QP) are unseen by a preloaded program, and mckey keeps receiving
#    after them; a device reset reaches the program as librdmacm's
#    DEVICE_REMOVAL, at once: librdmacm's own comes on rxe only after the
#    program let go of the device, which rdma link delete waits for.
# The datagram counts follow 30-mckey: the sender runs until rxe0 has
# transmitted COUNT datagrams after the receiver's attach, then the
# receiver must have them all.

. "$(dirname "$0")/lib.sh"

EXEC="rdma-mcm exec --"
COUNT=20
T=/tmp/preload
mkdir -p $T

not_running() { ! kill -0 "$1" 2>/dev/null; }
not_fn() { ! "$@"; }

# send_until_sent PID SRC GROUP: preloaded mckey senders on SRC until rxe0
# has transmitted COUNT datagrams (or the receiver PID is done)
send_until_sent() {
	local runs=0 sent0 sent=0 end=$(( $(date +%s) + 200 ))
	sent0=$(rxe_counter rxe0 sent_pkts)
	while [ "$sent" -lt $COUNT ] && ! not_running "$1"; do
		[ "$(date +%s)" -lt $end ] || { diag "rxe0 sent $sent in $runs runs"; return 1; }
		timeout 60 $EXEC mckey -m "$3" -b "$2" -s -C $((5 * COUNT)) > /dev/null || return 1
		runs=$((runs + 1))
		sent=$(( $(rxe_counter rxe0 sent_pkts) - sent0 ))
	done
	diag "rxe0 transmitted $sent datagrams in $runs preloaded sender run(s)"
	# the receiver cannot finish on fewer: fewer means it died
	[ "$sent" -ge $COUNT ]
}

show_of() { rdma-mcm show -j group "$1" > $T/show.json 2>&1; cat $T/show.json; }
owned_by() { show_of "$1" && has $T/show.json "$1" "\"pid\":$2" '"state":"joined"'; }
nobody_holds() { show_of "$1"; ! grep -q "\"group\":\"$1\"" $T/show.json; }
rejoined() { show_of "$1" && has $T/show.json "$1" '"state":"joined"' && ! has $T/show.json "$1" '"rejoins":0' >/dev/null; }
port_is() { [ "$(rdma link show rxe1/1 | awk '{ for (i = 1; i < NF; i++) if ($i == "state") print $(i + 1) }')" = "$1" ]; }

# mckey_pair DESC GROUP RECV_SRC SEND_SRC IN_FN: a preloaded receiver
# and preloaded senders; 5 checks
mckey_pair() {
	local g=$2 rs=$3 ss=$4 in_fn=$5 recv rc
	timeout 280 $EXEC mckey -m $g -b $rs -C $COUNT > $T/recv.log 2>&1 &
	recv=$!
	ok "$1: the preloaded receiver joins: $g on veth1 ($in_fn)" wait_for 60 $in_fn veth1 $g
	ok "$1: rdma-mcm show lists the membership under mckey's pid $recv, JOINED" \
		wait_for 30 owned_by $g $recv
	check "$1: preloaded senders run until rxe0 has transmitted $COUNT datagrams" \
		send_until_sent $recv $ss $g
	ok "$1: the receiver got all $COUNT and exited" wait_for 60 not_running $recv
	wait $recv
	rc=$?
	cat $T/recv.log
	left=0
	wait_for 10 not_fn $in_fn veth1 $g && left=1
	ok "$1: mckey's exit status is 0 ($rc), 'data transfers complete', and the group is left" \
		sh -c "[ $rc -eq 0 ] && [ $left = 1 ] && grep -q 'data transfers complete' $T/recv.log"
}

plan 39

check "rdma_mcm loads" modprobe rdma_mcm
ok "rdma-mcm exec --help describes it" sh -c "rdma-mcm exec --help | grep -q librdmamcm-preload"

# --- mckey, IPv4 and IPv6 ---------------------------------------------------
mckey_pair "IPv4" 239.1.8.1 $BENCH_IP1 $BENCH_IP0 in_igmp
check "IPv6 addresses as RoCE v2 GIDs on rxe0 and rxe1" bench_ipv6
mckey_pair "IPv6 (mckey alone: error 524)" ff1e::8:1 $BENCH_IP6_1 $BENCH_IP6_0 in_igmp6
bench_ipv6_down

# --- the trap ---------------------------------------------------------------
timeout 10 mcm_cmprobe trap -b $BENCH_IP1 -m 239.1.8.2 > $T/trap0.log 2>&1
rc=$?
cat $T/trap0.log
ok "librdmacm alone: leave with an unacked MULTICAST_JOIN hangs (killed after 10 s: exit $rc)" \
	sh -c "case $rc in 124|143) ;; *) exit 1 ;; esac; grep -q 'not acked; leaving' $T/trap0.log && ! grep -q 'leave returned' $T/trap0.log"
timeout 60 rdma-mcm exec --debug -- mcm_cmprobe trap -b $BENCH_IP1 -m 239.1.8.2 > $T/trap1.log 2>&1
rc=$?
cat $T/trap1.log
diag "preloaded: $(grep 'leave returned' $T/trap1.log)"
ok "preloaded: the same leave returns 0 at once (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'leave returned 0 in' $T/trap1.log"

# --- cancel -------------------------------------------------------------------
timeout 60 $EXEC mcm_cmprobe cancel -b $BENCH_IP1 -m 239.1.8.3 -s 8 > $T/cancel.log 2>&1 &
pid=$!
ok "a join left before its event: the leave returns" wait_for 30 grep -q 'left before the event' $T/cancel.log
ok "...and veth1 does not list 239.1.8.3, nor rdma-mcm show, while the program lives" \
	sh -c "kill -0 $pid && ! awk -v g=$(igmp_hex 239.1.8.3) '\$1 == g' /proc/net/igmp | grep -q . &&
	       ! rdma-mcm show -j | grep -q '\"group\":\"239.1.8.3\"'"
wait $pid
rc=$?
cat $T/cancel.log
ok "...and no event comes for it (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'events after leave: 0' $T/cancel.log"

# --- epoll on channel->fd -----------------------------------------------------
timeout 120 mcm_cmprobe epoll -b $BENCH_IP1 -m 239.1.9.1 -n 40 > $T/epoll0.log 2>&1
rc0=$?
timeout 120 $EXEC mcm_cmprobe epoll -b $BENCH_IP1 -m 239.1.9.1 -n 40 > $T/epoll1.log 2>&1
rc1=$?
diag "librdmacm alone: $(cat $T/epoll0.log); preloaded: $(cat $T/epoll1.log)"
ok "a non-blocking program epolling channel->fd: 40/40 joins, alone (exit $rc0) and preloaded (exit $rc1)" \
	sh -c "[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ] && grep -q 'joined 40/40' $T/epoll1.log"
ok "...and the preloaded run left nothing behind" wait_for 10 nobody_holds 239.1.9.1

# --- a source-specific join, chosen by configuration -------------------------
SG=232.8.1.1
timeout 120 rdma-mcm exec --source $SG=$BENCH_IP0 -- \
	mcm_cmprobe wait -b $BENCH_IP1 -m $SG -t 60 > $T/ssm.log 2>&1 &
ssm=$!
ssm_shown() { show_of $SG && has $T/show.json $SG "\"sources\":[\"$BENCH_IP0\"]" '"state":"joined"'; }
ok "rdma-mcm exec --source $SG=$BENCH_IP0: the preloaded join is an IGMPv3 INCLUDE of $BENCH_IP0 (/proc/net/mcfilter on veth1)" \
	wait_for 60 mcfilter_is veth1 $SG $BENCH_IP0 "1 0"
ok "...and rdma-mcm show lists the membership with its source" wait_for 30 ssm_shown
kill $ssm 2>/dev/null
wait $ssm
ok "...and it is gone with the program" wait_for 30 mcfilter_none veth1 $SG $BENCH_IP0

# --- a thread blocked before the first join; a migrated id -------------------
timeout 60 $EXEC mcm_cmprobe thread -b $BENCH_IP1 -m 239.1.9.201 > $T/thread.log 2>&1
rc=$?
cat $T/thread.log
ok "preloaded: a thread blocked in rdma_get_cm_event before the first join gets the MULTICAST_JOIN (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'got RDMA_CM_EVENT_MULTICAST_JOIN for our id' $T/thread.log"
timeout 60 mcm_cmprobe migrate -b $BENCH_IP1 -m 239.1.9.202 > $T/migrate0.log 2>&1
rc0=$?
timeout 60 $EXEC mcm_cmprobe migrate -b $BENCH_IP1 -m 239.1.9.202 > $T/migrate1.log 2>&1
rc1=$?
diag "librdmacm alone: $(tr '\n' ' ' < $T/migrate0.log); preloaded: $(tr '\n' ' ' < $T/migrate1.log)"
ok "an id migrated before its MULTICAST_JOIN was fetched gets it on the new channel, alone (exit $rc0) and preloaded (exit $rc1)" \
	sh -c "[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ]"

# --- no /dev/rdma_mcm: librdmacm's calls, unchanged -------------------------
unshare -m sh -c "mount --bind /dev/null /dev/rdma_mcm &&
	RDMA_MCM_PRELOAD_DEBUG=1 timeout 120 $EXEC mcm_cmprobe epoll -b $BENCH_IP1 -m 239.1.9.101 -n 5" > $T/nodev.log 2>&1
rc=$?
cat $T/nodev.log
ok "without /dev/rdma_mcm the preloaded program joins through librdmacm (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'joined 5/5' $T/nodev.log && grep -q 'librdmacm serves every join' $T/nodev.log"

# --- a port flap: unseen, and mckey keeps receiving ---------------------------
timeout 150 $EXEC mcm_cmprobe wait -b $BENCH_IP1 -m 239.1.8.4 -t 90 > $T/wait.log 2>&1 &
waiter=$!
timeout 280 $EXEC mckey -m 239.1.8.5 -b $BENCH_IP1 -C $COUNT > $T/recv.log 2>&1 &
recv=$!
both_joined() { wait_for 60 grep -q joined $T/wait.log && wait_for 60 owned_by 239.1.8.5 $recv; }
both_rejoined() { wait_for 120 rejoined 239.1.8.4 && wait_for 120 rejoined 239.1.8.5; }
ok "a preloaded program and a preloaded mckey receiver join" both_joined
check "ip link set veth1 down" ip link set veth1 down
ok "rxe1's port goes DOWN" wait_for 30 port_is DOWN
check "ip link set veth1 up" ip link set veth1 up
# on RoCE a flap loses nothing (65-heal): both stay joined, no rejoin
still_joined() { owned_by 239.1.8.4 $waiter && owned_by 239.1.8.5 $recv; }
ok "both memberships are still joined after the flap" wait_for 60 still_joined
# the source address goes and comes back: each membership waits and is
# joined again on its own (REJOINING, REJOINED), the preload detaches the
# QP and attaches it again, and the program is told nothing
move_address() { ip addr del $BENCH_IP1/24 dev veth1 && sleep 2 && ip addr add $BENCH_IP1/24 dev veth1; }
check "veth1's address goes and comes back" move_address
ok "both memberships are joined again, a rejoin counted" both_rejoined
check "mckey receives all $COUNT after the flap and the rejoin" send_until_sent $recv $BENCH_IP0 239.1.8.5
wait $recv
rc=$?
ok "mckey exited 0 after them (exit $rc)" sh -c "[ $rc -eq 0 ] && grep -q 'data transfers complete' $T/recv.log"

# --- a device reset: librdmacm's DEVICE_REMOVAL -------------------------------
check "rdma link delete rxe1 completes once the program let go" timeout 90 rdma link delete rxe1
wait $waiter
cat $T/wait.log
ok "the program saw no event across the flap and the rejoin, then DEVICE_REMOVAL at once (rdma_mcm's), as librdmacm delivers it" \
	sh -c "[ \"\$(sed -n 2p $T/wait.log)\" = 'event RDMA_CM_EVENT_DEVICE_REMOVAL status 0' ]"
check "rdma link add rxe1 again" bench_rxe rxe1 veth1
ok "nothing of the programs is left in rdma_mcm" wait_for 30 live_zero
