#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Where a healing context's address (or route) goes, on the real rdma_cm
# and ib_core, with the CLI's healing join sessions:
#
# - an address that moves to a VLAN of its netdev (the same rxe device and
#   port, another netdev: kernel review finding 4) is a move: the session
#   hears rejoining, device-removed, device-added, rejoined, and IGMP
#   lists the group under the VLAN, not under the netdev it left (at
#   8998c5d the check passed and IGMP stayed on the old netdev);
# - a route context whose device goes, whose route goes too, and whose
#   device comes back before its route (its search fails, ENETUNREACH:
#   finding 3) finds the device once the route is back, with no RDMA event
#   to tell it (at 8998c5d it waited for good);
# - a storm of address changes on the port (each a GID change, as a
#   container's macvlan makes them: finding 6) makes each context check
#   its address at most once in 250 ms: rdma_cm's id destructions (the
#   rdma_cma:cm_id_destroy tracepoint) are counted and held to that bound,
#   and reported.
# Whatever fails, the VLAN, the routes and the addresses go (at_exit).

. "$(dirname "$0")/lib.sh"

T=/tmp/moves
IPM=198.51.100.1	# the address that moves
GV=239.75.0.1		# the moving session's group
GR=239.75.1.1		# the route session's group
TR=/sys/kernel/tracing
NSESS=8			# sessions of the storm
NCHANGES=100		# address adds and deletes of the storm

mkdir -p $T
cleanup() {
	ip link del veth0.100 2>/dev/null
	ip addr del $IPM/24 dev veth0 2>/dev/null
	ip route del 239.75.1.0/24 2>/dev/null
	[ -e $TR/events/rdma_cma/cm_id_destroy/enable ] &&
		echo 0 > $TR/events/rdma_cma/cm_id_destroy/enable
	bench_rxe rxe1 veth1
	return 0
}
says() { grep -q "$2" "$1"; }
at_exit stop_jobs
at_exit cleanup

plan 18
check "modprobe rdma_mcm" modprobe rdma_mcm

# --- an address moves to a VLAN of its netdev ------------------------------
check "$IPM on veth0, veth0.100 a VLAN of veth0" sh -c \
	"ip addr add $IPM/24 dev veth0 && ip link add link veth0 name veth0.100 type vlan id 100 && ip link set veth0.100 up"
rm -f $T/v.in
mkfifo $T/v.in
rdma-mcm -b $IPM join $GV < $T/v.in > $T/v.out 2>&1 &
vpid=$!
exec 7> $T/v.in
v_joined() { says $T/v.out "^joined $GV " && in_igmp veth0 $GV; }
ok "a healing session joins $GV on $IPM (rxe0): IGMP on veth0" wait_for 30 v_joined
check "move $IPM from veth0 to veth0.100" sh -c \
	"ip addr add $IPM/24 dev veth0.100 && ip addr del $IPM/24 dev veth0"
v_moved() {
	says $T/v.out "^rejoining $GV " && says $T/v.out '^device-removed' &&
		says $T/v.out '^device-added' && says $T/v.out "^rejoined $GV "
}
ok "the session hears the move: rejoining, device-removed, device-added, rejoined" \
	wait_for 60 v_moved
ok "IGMP lists $GV under veth0.100" wait_for 30 in_igmp veth0.100 $GV
ok "and no longer under veth0" not_in_igmp veth0 $GV
echo quit >&7
exec 7>&-
wait_exit $vpid 30
ok "the session quits (exit 0)" [ $? -eq 0 ]
cat $T/v.out
ok "nothing of $GV is left in IGMP" sh -c "! grep -q $(igmp_hex $GV) /proc/net/igmp"

# --- a route context's search fails, then its route comes back --------------
check "a route to $GR's /24 through veth1 (rxe1)" ip route add 239.75.1.0/24 dev veth1
rm -f $T/r.in
mkfifo $T/r.in
rdma-mcm join $GR < $T/r.in > $T/r.out 2>&1 &
rpid=$!
exec 8> $T/r.in
ok "a route-bound healing session joins $GR on rxe1" wait_for 30 says $T/r.out "^joined $GR "
check "rdma link delete rxe1, then the route goes" sh -c \
	"rdma link delete rxe1 && ip route del 239.75.1.0/24"
ok "the session hears device-removed" wait_for 30 says $T/r.out '^device-removed'
check "rdma link add rxe1 (no route to $GR yet: its search fails)" bench_rxe rxe1 veth1
sleep 3		# a search or two fail meanwhile; nothing depends on how many
check "the route comes back" ip route add 239.75.1.0/24 dev veth1
r_back() { says $T/r.out '^device-added' && says $T/r.out "^rejoined $GR "; }
ok "the session finds rxe1 again and rejoins $GR (no RDMA event told it)" \
	wait_for 60 r_back
echo quit >&8
exec 8>&-
wait_exit $rpid 30
cat $T/r.out

# --- a storm of GID changes ------------------------------------------------
ids_destroyed() { grep -c 'cm_id_destroy' $TR/trace; }
# usec: now, in microseconds (busybox's date has no %N)
usec() { echo "${EPOCHREALTIME/./}"; }
rm -f $T/storm.in
mkfifo $T/storm.in
exec 9<> $T/storm.in	# the sessions' stdin: open, never written
pids=()
for i in $(seq 1 $NSESS); do
	rdma-mcm -b $BENCH_IP0 join 239.75.2.$i < $T/storm.in > $T/s$i.out 2>&1 &
	pids+=($!)
done
joined_all() { local i; for i in $(seq 1 $NSESS); do says $T/s$i.out '^joined ' || return 1; done; }
ok "$NSESS healing sessions joined on $BENCH_IP0 (rxe0)" wait_for 60 joined_all
grep -q " $TR tracefs " /proc/mounts || mount -t tracefs none $TR
echo > $TR/trace
echo 1 > $TR/events/rdma_cma/cm_id_destroy/enable
# one ip process for all of them: the changes come as fast as the kernel
# takes them, not at the pace of a process start under TCG
for i in $(seq 1 $NCHANGES); do
	echo "addr add 10.9.9.9/32 dev veth0"
	echo "addr del 10.9.9.9/32 dev veth0"
done > $T/storm.batch
t0=$(usec)
ip -batch $T/storm.batch
t1=$(usec)
sleep 1		# the checks held back by the rate limit come
echo 0 > $TR/events/rdma_cma/cm_id_destroy/enable
n=$(ids_destroyed)
ms=$(( (t1 - t0) / 1000 + 1000 ))
bound=$(( NSESS * (ms / 250 + 2) ))
diag "$((2 * NCHANGES)) GID changes in $(( (t1 - t0) / 1000 )) ms: $n rdma_cm ids destroyed by $NSESS contexts' checks (bound $bound; without the limit $((2 * NCHANGES * NSESS)))"
ok "each context checked, at most once in 250 ms ($NSESS <= $n ids <= $bound)" \
	sh -c "[ $n -ge $NSESS ] && [ $n -le $bound ]"
kill "${pids[@]}" 2>/dev/null
for p in "${pids[@]}"; do
	wait_exit "$p" 30
done
exec 9>&-
