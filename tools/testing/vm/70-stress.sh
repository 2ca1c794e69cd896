#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Stress: processes x threads of random join / leave / batch / query /
# list / read / SET_EVENTS / destroy / close on /dev/rdma_mcm over rxe0 and
# rxe1 (tools/testing/stress/mcm_stress.c, which checks its own
# invariants: every record read is of the size and a type its file asked
# for; DEVICE_REMOVED once per context of 192.0.2.1, none of 192.0.2.2,
# after its memberships' errors, JOIN refused afterwards; a third of the
# contexts heal: their memberships wait and rejoin, and only theirs), while rxe0 is
# deleted and re-added and veth1 goes down and up. Twice: with the
# per-file limit reached (ENOBUFS), then with max_user_memberships low
# (ENOSPC) and private files closed and reopened often by three processes
# of one user; after which, with every file closed, the user's whole
# budget is free again. Some joins are source-specific (1-3 sources on
# veth0's subnet: IGMPv3 filters), and a third source, 2001:db8:70::2 on
# veth1 (added here, kept while veth1 is down), makes contexts that join
# IPv6 groups, which rdma_mcm joins itself on RoCE v2 (MLD); the program
# checks what QUERY and LIST say of both. Then nothing may be left: live
# objects (the "users" accounts too), slab objects, IGMP and MLD entries,
# source filters (/proc/net/mcfilter, mcfilter6); the module unloads. 20 s
# (and 10 s) by default; make soak sets the length (MCM_SOAK).

. "$(dirname "$0")/lib.sh"

SECS=$(soak_seconds 20)
SECS2=$((SECS / 2 > 5 ? SECS / 2 : 5))
MAX=48		# max_memberships per file during the runs: the limit is hit
USER_MAX=64	# max_user_memberships during the second run: hit as well
P=/sys/module/rdma_mcm/parameters
BIN=/usr/libexec/rdma_mcm/bin/mcm_stress
OUT=/tmp/stress.out
OUT2=/tmp/stress-user.out
BUDGET=/tmp/stress-budget.out
FLAPS=/tmp/stress.flaps
STOP=/tmp/stress.stop
V6=2001:db8:70::2
V6_GID=2001:0db8:0070:0000:0000:0000:0000:0002
KEEP=/proc/sys/net/ipv6/conf/veth1/keep_addr_on_down

# flap: until $STOP exists, delete rxe0, take veth1 down and up, re-add rxe0
flap() {
	local n=0
	while [ ! -e $STOP ]; do
		sleep "0.$((RANDOM % 9 + 1))"
		rdma link delete rxe0 || echo "flap: rdma link delete rxe0 failed"
		ip link set veth1 down
		sleep "0.$((RANDOM % 5 + 1))"
		ip link set veth1 up
		sleep "0.$((RANDOM % 9 + 1))"
		bench_rxe rxe0 veth0 || echo "flap: re-adding rxe0 failed"
		n=$((n + 1))
		echo $n > $FLAPS
	done
}

# test groups are 239.3.x.y: /proc/net/igmp prints them as yx03EF
igmp_clean() { ! awk '$1 ~ /^[0-9A-F]{4}03EF$/ { f = 1 } END { exit !f }' /proc/net/igmp; }
# and ff0e::7003:g, as igmp6 and mcfilter6 print them
V6_GROUPS=ff0e000000000000000000007003
igmp6_clean() { ! awk -v p=$V6_GROUPS 'index($3, p) == 1 { f = 1 } END { exit !f }' /proc/net/igmp6; }
# no source filter of a test group (mcfilter prints 239.3.x.y as
# 0xef03xxxx), in listings read whole (the kernel lists a device only if
# its newest group has sources: lib.sh, mcfilter_text; a failed reading
# fails this)
filters_clean() {
	[ "$(mcfilter_count '$3 ~ /^0xef03/')" -eq 0 ] &&
		[ "$(mcfilter_count -6 "index(\$3, \"$V6_GROUPS\") == 1")" -eq 0 ]
}
gid_listed() { cat /sys/class/infiniband/"$1"/ports/1/gids/* 2>/dev/null | grep -qx "$2"; }
# the IPv6 source: on veth1, kept while veth1 is down, in rxe1's GID table
KEEP_WAS=$(cat $KEEP 2>/dev/null || echo 0)
v6_up() {
	echo 1 > $KEEP && ip -6 addr add $V6/64 dev veth1 nodad &&
		wait_for 20 gid_listed rxe1 $V6_GID
}
v6_down() { ip -6 addr del $V6/64 dev veth1 && echo "$KEEP_WAS" > $KEEP; }
# stat K C [FILE]: the last field of the line "K C ..." of a run's output
stat() { awk -v k="$1" -v c="$2" '$1 == k && $2 == c { print $NF; f = 1 } END { if (!f) print 0 }' "${3:-$OUT}"; }
errno_count() { awk -v c="$1" -v e="$2" '$1 == "errno" && $2 == c && $3 == e { print $4; f = 1 } END { if (!f) print 0 }' "${3:-$OUT}"; }
violations() { awk '$1 == "stress:" { print $5; f = 1 } END { if (!f) print "none" }' "$1"; }
records() { awk '$1 == "records" { print $2; f = 1 } END { if (!f) print 0 }' $OUT; }
flaps() { cat $FLAPS 2>/dev/null || echo 0; }
users_zero() { [ "$(awk '$1 == "users" { print $2 }' /sys/kernel/debug/rdma_mcm/live)" = 0 ]; }

plan 26
check "rdma_mcm loads" modprobe rdma_mcm
check "IPv6 source $V6 on veth1 (kept while it is down), in rxe1's GID table" v6_up
check "max_memberships set to $MAX for the runs" \
	sh -c "echo $MAX > $P/max_memberships"

rm -f $STOP $FLAPS
flap &
flapper=$!
echo "--- mcm_stress for $SECS s while rxe0 and veth1 flap"
$BIN --seconds "$SECS" --procs 2 --threads 3 --src 192.0.2.1 --src 192.0.2.2 \
	--src $V6 --lost-src 192.0.2.1 > $OUT
rc=$?
echo "--- mcm_stress for $SECS2 s with max_user_memberships=$USER_MAX"
echo $USER_MAX > $P/max_user_memberships
$BIN --seconds "$SECS2" --procs 3 --threads 2 --close-percent 5 \
	--src 192.0.2.1 --src 192.0.2.2 --src $V6 --lost-src 192.0.2.1 > $OUT2
rc2=$?
touch $STOP
wait $flapper
while read -r line; do diag "$line"; done < $OUT
diag "rxe0 deleted and re-added, veth1 down and up: $(flaps) times"
while read -r line; do diag "user limit: $line"; done < <(grep -vE '^(op|ok) ' $OUT2)

ok "mcm_stress finished with no violated invariant ($(violations $OUT))" [ $rc -eq 0 ]
ok "the device flapped during the runs" [ "$(flaps)" -ge 1 ]
joined_and_left() { [ "$(stat ok JOIN)" -gt 0 ] && [ "$(stat ok LEAVE)" -gt 0 ]; }
ok "joins succeeded ($(stat ok JOIN)) and were left ($(stat ok LEAVE))" joined_and_left
ok "the per-file limit held and was reached (ENOBUFS $(errno_count JOIN ENOBUFS))" \
	[ "$(errno_count JOIN ENOBUFS)" -gt 0 ]
negotiated() { [ "$(stat ok SET_EVENTS)" -gt 0 ] && [ "$(records)" -gt 0 ]; }
ok "files negotiated their events ($(stat ok SET_EVENTS)) and read $(records) records, each checked" \
	negotiated
ok "contexts of rxe0 were told their device was removed (DEVICE_REMOVED $(stat event DEVICE_REMOVED))" \
	[ "$(stat event DEVICE_REMOVED)" -gt 0 ]
# Healing contexts ran under the invariants above. How many of their
# events came is chance (contexts and memberships churn faster than rxe0
# comes back): counted, not required; 65-heal and the ABI test require them.
diag "healing: REJOINING $(stat event REJOINING), DEVICE_ADDED $(stat event DEVICE_ADDED), REJOINED $(stat event REJOINED)"
ok "healing contexts took part ($(stat healing contexts) of $(stat ok CREATE_CTX) created; their invariants are in the violation count)" \
	[ "$(stat healing contexts)" -gt 0 ]
ok "source-specific joins worked ($(stat sources joined)), QUERY and LIST held to their sources" \
	[ "$(stat sources joined)" -gt 0 ]
ok "IPv6 groups were joined on RoCE v2 ($(stat ipv6 joined)), QUERY and LIST said by rdma_mcm" \
	[ "$(stat ipv6 joined)" -gt 0 ]
ok "every errno seen is one Documentation/uapi.rst lists" errnos_documented $OUT
ok "with max_user_memberships=$USER_MAX: no violated invariant ($(violations $OUT2))" [ $rc2 -eq 0 ]
user_limit_hit() { [ "$(errno_count JOIN ENOSPC $OUT2)" -gt 0 ] || [ "$(errno_count BATCH_JOIN_ENTRY ENOSPC $OUT2)" -gt 0 ]; }
ok "the per-user limit was reached (ENOSPC: JOIN $(errno_count JOIN ENOSPC $OUT2), batch entries $(errno_count BATCH_JOIN_ENTRY ENOSPC $OUT2))" \
	user_limit_hit
ok "every errno of that run is one Documentation/uapi.rst lists" errnos_documented $OUT2
check "rxe0 is back" bench_rxe rxe0 veth0
# every file of the user is closed: its account is empty, the whole
# budget is there again (on rxe1, which stayed)
$BIN --budget --src 192.0.2.2 > $BUDGET
rc3=$?
diag "$(cat $BUDGET)"
ok "the user's budget is whole again: exactly $USER_MAX joins, then ENOSPC" [ $rc3 -eq 0 ]
echo 262144 > $P/max_user_memberships
echo 131072 > $P/max_memberships
ok "rdma_mcm's live objects are zero" wait_for 10 live_zero
diag "live: $(tr '\n' ' ' < /sys/kernel/debug/rdma_mcm/live)"
ok "no per-user account is left (users 0)" users_zero
slab_check "/proc/slabinfo: no rdma_mcm_membership object is active"
ok "/proc/net/igmp lists none of the test groups" wait_for 10 igmp_clean
ok "/proc/net/igmp6 lists none of the IPv6 test groups" wait_for 10 igmp6_clean
ok "/proc/net/mcfilter and mcfilter6 list no filter of a test group" wait_for 10 filters_clean
check "the IPv6 source is removed from veth1" v6_down
check "rmmod rdma_mcm" rmmod rdma_mcm
