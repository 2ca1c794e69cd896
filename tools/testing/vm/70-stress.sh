#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Stress: processes x threads of random join / leave / batch / query /
# list / read / destroy / close on /dev/rdma_mcm over rxe0 and rxe1
# (tools/testing/stress/mcm_stress.c, which checks its own invariants),
# while rxe0 is deleted and re-added and veth1 goes down and up. Then
# nothing may be left: live objects, slab objects, IGMP entries; the
# module unloads. 20 s by default; make soak sets the length (MCM_SOAK).

. "$(dirname "$0")/lib.sh"

SECS=$(soak_seconds 20)
MAX=48		# max_memberships per file during the run: the limit is hit
OUT=/tmp/stress.out
FLAPS=/tmp/stress.flaps
STOP=/tmp/stress.stop

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
stat() { awk -v k="$1" -v c="$2" '$1 == k && $2 == c { print $NF; f = 1 } END { if (!f) print 0 }' $OUT; }
errno_count() { awk -v c="$1" -v e="$2" '$1 == "errno" && $2 == c && $3 == e { print $4; f = 1 } END { if (!f) print 0 }' $OUT; }

plan 12
check "rdma_mcm loads" modprobe rdma_mcm
check "max_memberships set to $MAX for the run" \
	sh -c "echo $MAX > /sys/module/rdma_mcm/parameters/max_memberships"

rm -f $STOP $FLAPS
flap &
flapper=$!
echo "--- mcm_stress for $SECS s while rxe0 and veth1 flap"
/usr/libexec/rdma_mcm/bin/mcm_stress --seconds "$SECS" --procs 2 --threads 3 > $OUT
rc=$?
touch $STOP
wait $flapper
while read -r line; do diag "$line"; done < $OUT
diag "rxe0 deleted and re-added, veth1 down and up: $(cat $FLAPS 2>/dev/null || echo 0) times"

ok "mcm_stress finished with no violated invariant" [ $rc -eq 0 ]
ok "the device flapped during the run" [ "$(cat $FLAPS 2>/dev/null || echo 0)" -ge 1 ]
joined_and_left() { [ "$(stat ok JOIN)" -gt 0 ] && [ "$(stat ok LEAVE)" -gt 0 ]; }
ok "joins succeeded ($(stat ok JOIN)) and were left ($(stat ok LEAVE))" joined_and_left
ok "the per-file limit held and was reached (ENOBUFS $(errno_count JOIN ENOBUFS))" \
	[ "$(errno_count JOIN ENOBUFS)" -gt 0 ]
ok "every errno seen is one Documentation/uapi.rst lists" errnos_documented $OUT
check "rxe0 is back" bench_rxe rxe0 veth0
ok "rdma_mcm's live objects are zero" wait_for 10 live_zero
slab_check "/proc/slabinfo: no rdma_mcm_membership object is active"
ok "/proc/net/igmp lists none of the test groups" wait_for 10 igmp_clean
echo 131072 > /sys/module/rdma_mcm/parameters/max_memberships
check "rmmod rdma_mcm" rmmod rdma_mcm
