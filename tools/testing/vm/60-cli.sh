#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Userspace through librdmamcm: the rdma-mcm CLI interoperates with
# rdma-core's mckey both ways, leaves through its stdin commands, the
# example program's join/leave leaves nothing behind, a leave of a group
# never joined fails with EADDRNOTAVAIL, and a process killed with
# SIGKILL while holding 100 memberships leaves nothing behind. Then the
# CLI built on the "old" library (no SET_EVENTS, as 0.2.0) and on the
# "new" one (every struct 8 bytes longer with a zero tail, 80-byte events
# asked for), tools/build/compat/rdma-mcm-old and -new, if the guest has
# them: the module serves both. Then rxe1 is removed under a join session
# and a recv, both --no-heal: both report device-removed, recv releases
# its verbs objects at once (the removal completes) and exits 1; rxe1 is
# added back. Last, the same with healing (the default) and recv bound by
# route (no -b): rdma link delete completes while recv runs, recv and the
# session report rejoining and device-removed, rdma link add brings
# device-added and rejoined, recv receives mckey's datagrams sent after
# the recovery and exits 0, the session lists its membership joined again
# (rejoins 1, last_status ENODEV), and a send goes on across another
# delete and add to its count.

. "$(dirname "$0")/lib.sh"

LIVE=/sys/kernel/debug/rdma_mcm/live
COUNT=20

igmp_groups() { awk '$1 ~ /^..0[67]..EF$/' /proc/net/igmp | wc -l; } # 239.6/7.x.x
no_test_groups() { [ "$(igmp_groups)" -eq 0 ]; }
live_members() { awk '$1 == "members" { print $2 }' $LIVE; }
running() { kill -0 "$1" 2>/dev/null; }
not_running() { ! running "$1"; }

# mckey_until_done GROUP PID: mckey sends from rxe0 until rxe0 has put
# COUNT datagrams on the wire (its sent_pkts counter), then PID, which
# attached its QP before, must have them all and exit. The 6.12 mckey
# sender loses many of its datagrams (unsignalled sends, then it exits:
# see Documentation/bench.rst), the more on a loaded machine: what counts
# is what rxe0 transmitted, not a number of runs.
mckey_until_done() {
	local runs=0 sent=0 sent0 end=$(( $(date +%s) + 200 ))
	sent0=$(rxe_counter rxe0 sent_pkts)
	while [ "$sent" -lt $COUNT ] && kill -0 "$2" 2>/dev/null; do
		[ "$(date +%s)" -lt $end ] || break
		timeout 60 mckey -m "$1" -b $BENCH_IP0 -s -C $((COUNT * 5)) > /dev/null
		runs=$((runs + 1))
		sent=$(( $(rxe_counter rxe0 sent_pkts) - sent0 ))
	done
	diag "rxe0 transmitted $sent datagrams in $runs mckey run(s)"
	wait_for 60 not_running "$2"
}

# compat_cli CLI GROUP: a join session of CLI: -V, join, list, leave
compat_cli() {
	local cli=$1 g=$2 pid d
	if ! command -v "$cli" > /dev/null; then
		for d in "-V reports the module's ABI 1" "joins $g" \
			 "lists and leaves $g; IGMP drops it"; do
			ok "$cli $d # SKIP $cli is not in the guest" true
		done
		return
	fi
	ok "$cli -V reports the module's ABI 1" \
		sh -c "$cli -V | grep -q '^rdma_mcm module: ABI 1'"
	rm -f /tmp/compat.in
	mkfifo /tmp/compat.in
	"$cli" -b $BENCH_IP1 join "$g" < /tmp/compat.in > /tmp/compat.out 2>&1 &
	pid=$!
	exec 8> /tmp/compat.in
	compat_joined() { grep -q "^joined $g " /tmp/compat.out && in_igmp veth1 "$g"; }
	ok "$cli joins $g" wait_for 30 compat_joined
	echo "list" >&8
	echo "leave $g" >&8
	compat_left() {
		grep -q "^ctx [0-9]* handle [0-9]* group $g state joined" /tmp/compat.out &&
			grep -q "^left $g handle [0-9]* events 1\$" /tmp/compat.out &&
			not_in_igmp veth1 "$g"
	}
	ok "$cli lists and leaves $g; IGMP drops it" wait_for 10 compat_left
	echo quit >&8
	exec 8>&-
	wait $pid
	cat /tmp/compat.out
}

plan 62
check "modprobe rdma_mcm" modprobe rdma_mcm

G=239.6.0.1
rdma-mcm -b $BENCH_IP1 -t 120 recv $G -c $COUNT > /tmp/recv.out 2>&1 &
pid=$!
ok "rdma-mcm recv on rxe1 joins $G" wait_for 30 in_igmp veth1 $G
ok "rdma-mcm recv attached its QP (rxe1 put the group's MAC on veth1)" \
	wait_for 30 qp_attached veth1 $G
check "mckey -s on rxe0 sends until rdma-mcm recv exits" mckey_until_done $G $pid
wait $pid
rc=$?
cat /tmp/recv.out
ok "rdma-mcm recv received all $COUNT datagrams (exit 0)" [ $rc -eq 0 ]
ok "rdma-mcm left $G on exit: IGMP no longer lists it" wait_for 10 not_in_igmp veth1 $G
counter() { rdma statistic show link "$1/1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
recvs=$(counter rxe1 rdma_recvs)
timeout 60 mckey -m $G -b $BENCH_IP0 -s -C $COUNT > /dev/null
sleep 2
ok "after the leave, a further mckey send reaches no QP on rxe1" \
	[ "$(counter rxe1 rdma_recvs)" = "$recvs" ]

G=239.6.0.2
timeout 120 mckey -m $G -b $BENCH_IP0 -C $COUNT > /tmp/mckey.out 2>&1 &
pid=$!
ok "mckey receiver on rxe0 joins $G" wait_for 30 in_igmp veth0 $G
ok "mckey attached its QP (rxe0 put the group's MAC on veth0)" \
	wait_for 30 qp_attached veth0 $G
check "rdma-mcm send on rxe1 sends $COUNT datagrams" \
	rdma-mcm -b $BENCH_IP1 send $G -c $COUNT
ok "mckey received every datagram (exit 0)" wait_for 60 not_running $pid
wait $pid
rc=$?
cat /tmp/mckey.out
ok "mckey's exit status is 0" [ $rc -eq 0 ]

G=239.6.0.3
mkfifo /tmp/cli.in
rdma-mcm -b $BENCH_IP1 join $G < /tmp/cli.in > /tmp/cli.out 2>&1 &
pid=$!
exec 7> /tmp/cli.in
joined_line() { grep -q "^joined $G" /tmp/cli.out; }
ok "rdma-mcm join prints the joined event" wait_for 30 joined_line
ok "/proc/net/igmp lists $G" in_igmp veth1 $G
echo "leave $G" >&7
left_line() { grep -q "^left $G" /tmp/cli.out; }
ok "the stdin command 'leave' leaves $G" wait_for 10 left_line
ok "/proc/net/igmp no longer lists $G" wait_for 10 not_in_igmp veth1 $G
echo "leave 239.6.9.9" >&7
notmember_line() { grep -qi "239.6.9.9.*\(not a member\|EADDRNOTAVAIL\|Cannot assign\)" /tmp/cli.out; }
ok "leave of a group never joined reports EADDRNOTAVAIL" wait_for 10 notmember_line
echo quit >&7
exec 7>&-
wait $pid
cat /tmp/cli.out

ok "the example program joins, prints the MGID and leaves" \
	timeout 60 mcm_example -b $BENCH_IP1 239.6.0.4
ok "after the example, no IGMP entry remains" not_in_igmp veth1 239.6.0.4

groups=()
for i in $(seq 100); do groups+=("239.7.0.$i"); done
rdma-mcm -b $BENCH_IP1 join "${groups[@]}" < /dev/null > /tmp/kill.out 2>&1 &
pid=$!
hundred() { [ "$(live_members)" -eq 100 ] && [ "$(grep -c '^joined' /tmp/kill.out)" -eq 100 ]; }
ok "one process holds 100 joined memberships" wait_for 60 hundred
kill -KILL $pid
wait $pid 2>/dev/null
all_clean() { no_test_groups && live_zero; }
ok "after SIGKILL, no IGMP entry and no live object remains" wait_for 20 all_clean

compat_cli rdma-mcm-old 239.6.0.5
compat_cli rdma-mcm-new 239.6.0.6

G=239.6.0.7
rdma-mcm -b $BENCH_IP1 --no-heal join 239.6.0.8 < /dev/null > /tmp/rmj.out 2>&1 &
jpid=$!
rdma-mcm -b $BENCH_IP1 -t 120 --no-heal recv $G -c 1000000 > /tmp/rm.out 2>&1 &
pid=$!
both_joined() { grep -q "^joined $G " /tmp/rm.out && grep -q '^joined 239.6.0.8 ' /tmp/rmj.out; }
ok "rdma-mcm recv and a join session hold memberships on rxe1" wait_for 30 both_joined
sleep 1
check "rdma link delete rxe1 under them completes" timeout 60 rdma link delete rxe1
ok "rdma-mcm recv released the device and exited" wait_for 30 not_running $pid
wait $pid
rc=$?
cat /tmp/rm.out
ok "recv printed device-removed and exited 1" \
	sh -c "[ $rc -eq 1 ] && grep -q '^device-removed ctx [0-9]* status -19' /tmp/rm.out"
session_saw() { grep -q '^device-removed ctx [0-9]* status -19' /tmp/rmj.out &&
		grep -q '^error 239.6.0.8 handle [0-9]* status -19' /tmp/rmj.out; }
ok "the join session printed device-removed and the membership's error" \
	wait_for 10 session_saw
kill -TERM $jpid
wait $jpid
ok "the join session left its membership in error and exited 0" [ $? -eq 0 ]
cat /tmp/rmj.out
check "re-add rxe1" bench_rxe rxe1 veth1

# --- healing (the default); recv bound by the route to its group ---------
G=239.6.0.9
GJ=239.6.0.10
check "a route to 239.6.0.0/16 through veth1" ip route add 239.6.0.0/16 dev veth1
mkfifo /tmp/heal.in
rdma-mcm -b $BENCH_IP1 join $GJ < /tmp/heal.in > /tmp/hj.out 2>&1 &
jpid=$!
exec 9> /tmp/heal.in
rdma-mcm -t 300 recv $G -c $COUNT > /tmp/hr.out 2>&1 &
pid=$!
heal_joined() { grep -q "^joined $G " /tmp/hr.out && grep -q "^joined $GJ " /tmp/hj.out; }
ok "recv without -b (by route) and a healing session joined on rxe1" wait_for 30 heal_joined
ok "recv's group is on veth1, the route's netdev" wait_for 10 in_igmp veth1 $G
ok "recv attached its QP on rxe1" wait_for 30 qp_attached veth1 $G
sleep 1
t0=$(date +%s)
check "rdma link delete rxe1 under a healing recv completes" timeout 30 rdma link delete rxe1
diag "rdma link delete rxe1 took $(( $(date +%s) - t0 )) s"
ok "recv still runs without its device" running $pid
recv_lost() { grep -q "^rejoining $G handle [0-9]* status -19 ENODEV" /tmp/hr.out &&
	      grep -q '^device-removed ctx [0-9]* status -19' /tmp/hr.out; }
ok "recv printed rejoining -19 ENODEV and device-removed" wait_for 10 recv_lost
session_lost() { grep -q "^rejoining $GJ handle [0-9]* status -19 ENODEV" /tmp/hj.out &&
		 grep -q '^device-removed ctx [0-9]* status -19' /tmp/hj.out; }
ok "the session printed rejoining -19 ENODEV and device-removed" wait_for 10 session_lost
echo list >&9
session_waits() { grep -q "^ctx [0-9]* handle [0-9]* group $GJ state waiting .*last_status -19 ENODEV" /tmp/hj.out; }
ok "the session lists its membership waiting, last_status ENODEV" wait_for 10 session_waits
check "rdma link add rxe1 again" bench_rxe rxe1 veth1
recv_back() { grep -q '^device-added ctx [0-9]* port 1$' /tmp/hr.out &&
	      grep -q "^rejoined $G handle " /tmp/hr.out; }
ok "recv printed device-added and rejoined" wait_for 60 recv_back
session_back() { grep -q '^device-added ctx [0-9]* port 1$' /tmp/hj.out &&
		 grep -q "^rejoined $GJ handle " /tmp/hj.out; }
ok "the session printed device-added and rejoined" wait_for 60 session_back
both_igmp() { in_igmp veth1 $G && in_igmp veth1 $GJ; }
ok "IGMP lists both groups on veth1 again" wait_for 30 both_igmp
check "mckey on rxe0 sends after the recovery until recv has $COUNT" mckey_until_done $G $pid
wait $pid
rc=$?
cat /tmp/hr.out
ok "recv received $COUNT datagrams sent after the recovery (exit 0)" [ $rc -eq 0 ]
ok "recv left $G on exit" wait_for 10 not_in_igmp veth1 $G
echo list >&9
session_rejoined() { grep -q "^ctx [0-9]* handle [0-9]* group $GJ state joined .* rejoins 1 last_status -19 ENODEV" /tmp/hj.out; }
ok "the session lists its membership joined again, rejoins 1" wait_for 10 session_rejoined
echo quit >&9
exec 9>&-
wait $jpid
ok "the healing session left and exited 0" [ $? -eq 0 ]
cat /tmp/hj.out
ok "the session's group left: IGMP no longer lists it" wait_for 10 not_in_igmp veth1 $GJ

# send heals too: it stops at rejoining, goes on after rejoined
G=239.6.0.11
rdma-mcm -b $BENCH_IP1 -t 120 send $G -c 40 -i 200000 > /tmp/hs.out 2>&1 &
pid=$!
send_joined() { grep -q "^joined $G " /tmp/hs.out; }
ok "a healing send joined $G on rxe1" wait_for 30 send_joined
sleep 2
check "rdma link delete rxe1 under a healing send completes" timeout 30 rdma link delete rxe1
ok "send still runs without its device" running $pid
check "rdma link add rxe1 again" bench_rxe rxe1 veth1
ok "send finished its count (exit 0)" wait_for 120 not_running $pid
wait $pid
send_rc=$?		# not "rc": check() has a local of that name
cat /tmp/hs.out
send_healed() { grep -q '^device-removed ctx' /tmp/hs.out &&
		grep -q '^device-added ctx' /tmp/hs.out &&
		grep -q "^rejoined $G " /tmp/hs.out &&
		grep -q "^sent $G count 40 of 40\$" /tmp/hs.out; }
send_ok() { [ $send_rc -eq 0 ] && send_healed; }
ok "send printed device-removed, device-added, rejoined, sent 40 of 40" send_ok
check "remove the route to 239.6.0.0/16" ip route del 239.6.0.0/16 dev veth1
all_clean() { no_test_groups && live_zero; }
ok "nothing left: no IGMP entry, no live object" wait_for 20 all_clean
check "rmmod rdma_mcm" rmmod rdma_mcm
