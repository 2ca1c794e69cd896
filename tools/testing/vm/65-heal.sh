#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Healing at scale, on the real rxe: 1,000 full-member memberships in three
# rdma-mcm join sessions (healing, the default), a healing test ULP with its
# own UD QP, an rdma-mcm recv and the example tools/examples/mcm_recv_heal.c
# (verbs objects of its own) holding their QPs, all on rxe1. Then:
#
#  - rdma link delete rxe1 completes while they all hold the device (no
#    process keeps ib_uverbs_remove_one() waiting); every membership waits
#    (each session printed a rejoining line per group and device-removed;
#    the ULP was told once and dropped its verbs objects);
#  - rdma link add rxe1 brings every membership back on its own handle:
#    each session lists all its groups joined with rejoins 1, IGMP lists
#    all 1,000 on veth1 again, the ULP got device_added once, rebuilt its
#    QP and attached it again (set_qp without error) and receives what
#    rdma-mcm send sends after the recovery, as do the recv and the
#    example (which released and rebuilt its verbs objects);
#  - a port flap (veth1 down and up, rxe1's port DOWN then ACTIVE) leaves
#    every membership joined, IGMP lists them all, and the ULP receives
#    (on RoCE nothing is lost: no rejoin; the diagnostic counts them);
#  - the source address deleted and added again: every context lets go of
#    the device as if it were removed (a second rejoining line per group,
#    device-removed, the ULP told) and every membership is joined again
#    once the address is back; the ULP receives again.
#
# Last, every owner closes: no IGMP entry, no live object, no membership
# object in the slab.

. "$(dirname "$0")/lib.sh"

CTL=/sys/kernel/debug/rdma_mcm_test_ulp/control
STATUS=/sys/kernel/debug/rdma_mcm_test_ulp/status
N=1000			# memberships of the sessions
SESSIONS=3
COUNT=20		# datagrams a receiver must have
GU=239.9.0.1		# the ULP's group
GR=239.9.0.2		# the recv's group
GE=239.9.0.3		# the example's (tools/examples/mcm_recv_heal.c)
HEX_RE='^....0[89]EF$'	# 239.8.0.0/16 and 239.9.0.0/16 in /proc/net/igmp

# group K (0 <= K < N): 239.8.(K / 250).(K % 250 + 1)
group_of() { echo "239.8.$(( $1 / 250 )).$(( $1 % 250 + 1 ))"; }
# groups_of S: the groups of session S (0-based), about N / SESSIONS each
groups_of() {
	local k from=$(( $1 * N / SESSIONS )) to=$(( ($1 + 1) * N / SESSIONS ))
	for ((k = from; k < to; k++)); do
		group_of $k
	done
}
size_of() { groups_of "$1" | wc -l; }

cmd() { echo "$*" > $CTL; }
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $STATUS; }
stat_is() { [ "$(stat_of "$1")" = "$2" ]; }
rx_at_least() { [ "$(stat_of rx)" -ge "$1" ]; }
ulp_member() { awk -v g="$1" '$1 == "member" && $3 == g' $STATUS; }
ulp_joined_attached() {
	ulp_member "$1" | grep -q " joined 0 attached=1 "
}
running() { kill -0 "$1" 2>/dev/null; }
not_running() { ! running "$1"; }
lines_of() { grep -c "$1" "$2"; }

# session_stats S: ask session S for its counts, print its latest line
session_stats() {
	local out=/tmp/heal$1.out fd=${fds[$1]} n
	n=$(lines_of '^abi ' "$out")
	echo stats >&"$fd"
	wait_for 10 eval "[ \$(lines_of '^abi ' $out) -gt $n ]" || return 1
	grep '^abi ' "$out" | tail -1
}
# session_all_joined S: every membership of session S is joined
session_all_joined() {
	local want
	want=$(size_of "$1")
	session_stats "$1" |
		grep -q "memberships $want joining 0 joined $want error 0 waiting 0 "
}
all_sessions_joined() {
	local s
	for ((s = 0; s < SESSIONS; s++)); do
		session_all_joined $s || return 1
	done
}
# all_sessions_count REGEX [TIMES]: each session printed TIMES (1) lines
# matching "^REGEX GROUP " per group
all_sessions_count() {
	local s
	for ((s = 0; s < SESSIONS; s++)); do
		[ "$(lines_of "^$1 239\.8\." /tmp/heal$s.out)" -eq \
		  $(( $(size_of $s) * ${2:-1} )) ] || return 1
	done
}
all_sessions_say() {
	local s
	for ((s = 0; s < SESSIONS; s++)); do
		grep -q "$1" /tmp/heal$s.out || return 1
	done
}
# show_sessions: on the console, what the sessions printed but their
# (re)joined and rejoining lines, and whether they run
show_sessions() {
	local s
	for ((s = 0; s < SESSIONS; s++)); do
		echo "--- session $s (pid ${pids[s]}$(running "${pids[s]}" || echo ', exited')):"
		grep -vE '^(joined|rejoined|rejoining|ctx) ' /tmp/heal$s.out | tail -5
	done
}
igmp_is() { [ "$(igmp_count veth1 "$HEX_RE")" -eq "$1" ]; }

# send GROUP: rdma-mcm sends COUNT datagrams from rxe0, send-only, each
# signalled; send_until GROUP CHECK...: send until CHECK holds
send() { timeout 60 rdma-mcm -b $BENCH_IP0 send "$1" -c $COUNT --send-only > /dev/null; }
send_until() {
	local g=$1
	shift
	for _ in $(seq 10); do
		send "$g" || return 1
		wait_for 5 "$@" && return 0
	done
	return 1
}
port_state() { rdma link show rxe1/1 | awk '{ for (i = 1; i < NF; i++) if ($i == "state") print $(i + 1) }'; }
port_is() { [ "$(port_state)" = "$1" ]; }

plan 56

check "rdma_mcm loads" modprobe rdma_mcm
# --- the owners -----------------------------------------------------------
declare -a pids fds
for ((s = 0; s < SESSIONS; s++)); do
	rm -f /tmp/heal$s.in
	mkfifo /tmp/heal$s.in
	# shellcheck disable=SC2046
	rdma-mcm -b $BENCH_IP1 join $(groups_of $s) < /tmp/heal$s.in > /tmp/heal$s.out 2>&1 &
	pids[s]=$!
	exec {fd}> /tmp/heal$s.in
	fds[s]=$fd
done
ok "3 rdma-mcm join sessions joined their $N groups on rxe1" \
	wait_for 120 all_sessions_count joined
show_sessions
ok "each session lists all its memberships joined" all_sessions_joined
check "modprobe rdma_mcm_test_ulp" modprobe rdma_mcm_test_ulp
check "the ULP opens a healing context on $BENCH_IP1 with a UD QP" cmd openheal $BENCH_IP1
check "the ULP joins $GU with its QP" cmd join $GU
ok "the ULP's membership is joined, QP attached" wait_for 30 ulp_joined_attached $GU
rdma-mcm -b $BENCH_IP1 -t 600 recv $GR -c $COUNT > /tmp/healr.out 2>&1 &
rpid=$!
ok "rdma-mcm recv joined $GR and attached its QP" wait_for 30 qp_attached veth1 $GR
mcm_recv_heal -b $BENCH_IP1 -t 600 -c $COUNT $GE > /tmp/heale.out 2>&1 &
epid=$!
ok "mcm_recv_heal joined $GE and attached its QP" wait_for 30 qp_attached veth1 $GE
ok "IGMP lists the $N groups, the ULP's and the receivers' on veth1" wait_for 30 igmp_is $((N + 3))
check "the ULP receives what rdma-mcm sends to $GU" send_until $GU rx_at_least $COUNT

# --- device reset ---------------------------------------------------------
t0=$(date +%s)
check "rdma link delete rxe1 under all of them completes" timeout 60 rdma link delete rxe1
diag "rdma link delete rxe1 took $(( $(date +%s) - t0 )) s"
show_sessions
ok "the sessions and the receivers still run" sh -c "kill -0 ${pids[*]} $rpid $epid"
ok "each session printed a rejoining line per group" \
	wait_for 60 all_sessions_count 'rejoining'
ok "each session printed device-removed" \
	wait_for 10 all_sessions_say '^device-removed ctx [0-9]* status -19'
ok "the ULP was told once and released its verbs objects" \
	wait_for 10 eval '[ "$(stat_of removed_callbacks)" = 1 ] && [ "$(stat_of verbs)" = 0 ]'
check "rdma link add rxe1 again" bench_rxe rxe1 veth1
t0=$(date +%s)
ok "each session printed device-added" \
	wait_for 60 all_sessions_say '^device-added ctx [0-9]* port 1$'
ok "each session printed a rejoined line per group" \
	wait_for 120 all_sessions_count 'rejoined'
diag "all $N rejoined $(( $(date +%s) - t0 )) s after rdma link add returned"
ok "each session lists all its memberships joined" all_sessions_joined
rejoined_once() { session_stats 0 > /dev/null; echo list >&"${fds[0]}"; sleep 1
	[ "$(grep -c "^ctx .* state joined .* rejoins 1 last_status -19 ENODEV" /tmp/heal0.out)" -eq "$(size_of 0)" ]; }
ok "session 1 lists each membership with rejoins 1, last_status ENODEV" wait_for 20 rejoined_once
ok "the ULP got device_added once and rebuilt its verbs objects" \
	wait_for 30 eval '[ "$(stat_of added_callbacks)" = 1 ] && [ "$(stat_of verbs)" = 1 ]'
ok "the ULP's membership is joined again with its new QP attached" \
	wait_for 60 ulp_joined_attached $GU
ok "the ULP attached its QP without error (set_qp_errors 0)" stat_is set_qp_errors 0
ok "the ULP's membership counts one rejoin" eval 'ulp_member $GU | grep -q " rejoins=1 "'
ok "IGMP lists all $((N + 3)) groups on veth1 again" wait_for 60 igmp_is $((N + 3))
rx0=$(stat_of rx)
check "the ULP receives what rdma-mcm sends after the recovery" \
	send_until $GU rx_at_least $((rx0 + COUNT))
check "the recv receives $COUNT datagrams sent after the recovery" \
	send_until $GR not_running $rpid
wait $rpid
rc=$?
cat /tmp/healr.out
ok "recv exited 0 and printed device-removed, device-added, rejoined" \
	sh -c "[ $rc -eq 0 ] && grep -q '^device-removed' /tmp/healr.out &&
	       grep -q '^device-added' /tmp/healr.out && grep -q '^rejoined $GR ' /tmp/healr.out"
check "mcm_recv_heal receives $COUNT datagrams sent after the recovery" \
	send_until $GE not_running $epid
wait $epid
rc=$?
cat /tmp/heale.out
ok "mcm_recv_heal exited 0: joined, device-removed, device-added, rejoined, received $COUNT" \
	sh -c "[ $rc -eq 0 ] && tr '\n' ' ' < /tmp/heale.out |
	       grep -q 'joined .*device-removed .*device-added .*rejoined .*received $COUNT of $COUNT'"

# --- port flap ------------------------------------------------------------
check "ip link set veth1 down" ip link set veth1 down
ok "rxe1's port goes DOWN" wait_for 30 port_is DOWN
check "ip link set veth1 up" ip link set veth1 up
ok "rxe1's port is ACTIVE again" wait_for 30 port_is ACTIVE
diag "after the flap: $(grep -c '^rejoining' /tmp/heal0.out) rejoining lines in session 1 (was $(size_of 0))"
ok "every membership of the sessions is joined after the flap" \
	wait_for 120 all_sessions_joined
ok "IGMP lists the $N groups and the ULP's on veth1 after the flap (the receivers left)" \
	wait_for 60 igmp_is $((N + 1))
ok "the ULP's membership is joined with its QP attached after the flap" \
	wait_for 60 ulp_joined_attached $GU
rx0=$(stat_of rx)
check "the ULP receives what rdma-mcm sends after the flap" \
	send_until $GU rx_at_least $((rx0 + COUNT))

# --- the source address goes and comes back -------------------------------
# (RoCE: the GID goes with it; each context finds its address on no device,
# lets go of it as of a removed device, and finds it again)
check "ip addr del $BENCH_IP1/24 dev veth1" ip addr del $BENCH_IP1/24 dev veth1
ok "each session printed a second rejoining line per group" \
	wait_for 60 all_sessions_count rejoining 2
ok "each session printed device-removed again" \
	wait_for 30 eval '[ "$(grep -c "^device-removed" /tmp/heal0.out)" -eq 2 ]'
ok "the ULP was told again and released its verbs objects" \
	wait_for 30 eval '[ "$(stat_of removed_callbacks)" = 2 ] && [ "$(stat_of verbs)" = 0 ]'
check "ip addr add $BENCH_IP1/24 dev veth1" ip addr add $BENCH_IP1/24 dev veth1
ok "each session printed a second rejoined line per group" \
	wait_for 120 all_sessions_count rejoined 2
ok "every membership of the sessions is joined again" all_sessions_joined
ok "the ULP rebuilt its verbs objects and its membership is joined, QP attached" \
	wait_for 60 eval '[ "$(stat_of added_callbacks)" = 2 ] && ulp_joined_attached $GU'
ok "IGMP lists the $N groups and the ULP's on veth1" \
	wait_for 60 igmp_is $((N + 1))
rx0=$(stat_of rx)
check "the ULP receives what rdma-mcm sends after the address came back" \
	send_until $GU rx_at_least $((rx0 + COUNT))

# --- close ----------------------------------------------------------------
for ((s = 0; s < SESSIONS; s++)); do
	fd=${fds[s]}
	echo quit >&"$fd"
	exec {fd}>&-
done
rcs=0
for ((s = 0; s < SESSIONS; s++)); do
	wait "${pids[s]}" || rcs=$((rcs + 1))
done
ok "the 3 sessions left and exited 0" [ $rcs -eq 0 ]
check "the ULP closes its context" cmd close
check "rmmod rdma_mcm_test_ulp" rmmod rdma_mcm_test_ulp
ok "IGMP lists none of the groups" wait_for 30 igmp_is 0
ok "rdma_mcm's live-object counters are zero" wait_for 20 live_zero
slab_check "no membership object left in the slab"
check "rmmod rdma_mcm" rmmod rdma_mcm
