#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# A context's memberships live in its network namespace: the IGMP/MLD
# side rdma_mcm holds for a RoCE full member (any-source and
# source-specific, IPv4 and IPv6) is on the netdev of the namespace the
# context was opened in, never on the host's, and goes with leave, quit
# and SIGKILL. Set-up: network namespace "mcmns" with vethB (its peer
# vethA stays in the initial namespace), 10.64.0.2/24 and
# 2001:db8:64::2/64 on vethB, and rxe2 on vethB, added from inside the
# namespace (rdma_cm's shared namespace mode: the device is seen
# everywhere, its GIDs are vethB's addresses).
#
# - four join sessions in the namespace: 239.61.0.1 and ff1e::61:1
#   any-source, 232.61.0.1 from 10.64.0.1 and ff3e::61:1 from
#   2001:db8:64::1; the namespace's /proc/net/igmp, igmp6, mcfilter and
#   mcfilter6 list them on vethB, the initial namespace's list none of
#   them on any netdev;
# - the namespace's rdma-mcm show lists the four on rxe2/vethB, the
#   initial namespace's lists none (netlink dumps are per namespace; both
#   must exit 0, or an empty listing would prove nothing);
# - a context of the initial namespace cannot bind vethB's address:
#   CREATE_CTX fails with EADDRNOTAVAIL (no netdev of the namespace owns
#   it), "rdma-mcm: source 10.64.0.2: <strerror>";
# - stdin leave and quit, and SIGKILL, take each part away in the
#   namespace; at the end nothing is left and the live counters are zero.
#
# rxe works in a namespace other than the initial one on every bench
# kernel as far as this test needs (device, GIDs, joins); 6.1's rxe sends
# and receives only in the initial namespace (bench.rst), and no datagram
# is sent here.

. "$(dirname "$0")/lib.sh"

LIB=$(cd "$(dirname "$0")" && pwd)/lib.sh
NS=mcmns
T=/tmp/netns
A4=10.64.0.2
A6=2001:db8:64::2
S4=10.64.0.1		# a source (vethA's address)
S6=2001:db8:64::1
G4=239.61.0.1
G6=ff1e::61:1
SG4=232.61.0.1
SG6=ff3e::61:1
G4X=239.61.0.9		# the initial namespace's join that cannot be made
mkdir -p $T
# a session that died (a failed check) must not kill the script with
# SIGPIPE when it is told to leave: the write fails, the checks report
trap '' PIPE

# ns CMD...: CMD in the namespace
ns() { ip netns exec $NS "$@"; }
# in_ns FUNC ARGS...: one of lib.sh's /proc/net readers, run in the
# namespace (/proc/net is the reading process's namespace's); the
# mcfilter readers' probe (lib.sh, mcfilter_text) is on vethB there
in_ns() {
	ip netns exec $NS bash -c ". $LIB
		mcfilter_text() { \"\$MCM_MCFILTER\" \"\$@\" vethB; }
		$*"
}

# teardown: rxe2, the namespace and the pair (vethB goes with the
# namespace, vethA with its peer); true when all of them are gone
teardown() {
	stop_jobs
	ns rdma link delete rxe2 2>/dev/null
	ip netns del $NS 2>/dev/null
	ip link del vethA 2>/dev/null
	[ ! -e /sys/class/infiniband/rxe2 ] && [ ! -e /run/netns/$NS ] &&
		[ ! -e /sys/class/net/vethA ]
}
at_exit teardown

setup() {
	ip netns add $NS &&
		ip link add vethA type veth peer name vethB &&
		ip link set vethB netns $NS &&
		ip addr add $S4/24 dev vethA &&
		ip -6 addr add $S6/64 dev vethA nodad &&
		ip link set vethA up &&
		ns ip link set lo up &&
		ns ip addr add $A4/24 dev vethB &&
		ns ip -6 addr add $A6/64 dev vethB nodad &&
		ns ip link set vethB up &&
		ns rdma link add rxe2 type rxe netdev vethB
}
# (10.64.0.2's GID is ::ffff:a40:2)
rxe2_ready() {
	rxe_has_gid rxe2 $A6 "RoCE v2" && rxe_has_gid rxe2 ::ffff:a40:2 "RoCE v2"
}

# session NAME ARGS...: rdma-mcm ARGS in the namespace, commands on its
# stdin through the fifo $T/NAME.in (fd opened by the caller); its pid in
# PID[NAME] ('ip netns exec' execs the command)
declare -A PID
session() {
	local name=$1
	shift
	rm -f $T/$name.in
	mkfifo $T/$name.in
	ip netns exec $NS rdma-mcm "$@" < $T/$name.in > $T/$name.out 2>&1 &
	PID[$name]=$!
}
running() { kill -0 "$1" 2>/dev/null; }
none_running() { local p; for p in "$@"; do ! running $p || return 1; done; }
joined_in() { grep -q "^joined $2 " "$1"; }
left_in() { grep -q "^left $2 " "$1"; }

# every group of the test, on any netdev of the initial namespace
host_has_none() {
	! in_igmp_any $G4 && ! in_igmp_any $SG4 && ! in_igmp6_any $G6 &&
		! in_igmp6_any $SG6
}
in_igmp_any() { awk -v g="$(igmp_hex "$1")" '$1 == g { f = 1 } END { exit !f }' /proc/net/igmp; }
in_igmp6_any() { awk -v g="$(ipv6_hex "$1")" '$3 == g { f = 1 } END { exit !f }' /proc/net/igmp6; }

plan 20
check "modprobe rdma_mcm" modprobe rdma_mcm
check "namespace $NS with vethB ($A4, $A6) and rxe2 on it, added from inside" setup
ok "rxe2 lists vethB's addresses as RoCE v2 GIDs" wait_for 30 rxe2_ready

session a4 -b $A4 join $G4
exec 7> $T/a4.in
session a6 -b $A6 join $G6
exec 8> $T/a6.in
session b4 -b $A4 join $SG4 --source $S4
exec 9> $T/b4.in
session b6 -b $A6 join $SG6 --source $S6
exec 6> $T/b6.in
all_joined() {
	joined_in $T/a4.out $G4 && joined_in $T/a6.out $G6 &&
		joined_in $T/b4.out $SG4 && joined_in $T/b6.out $SG6
}
ok "four sessions in $NS join $G4, $G6, $SG4 from $S4, $SG6 from $S6" wait_for 60 all_joined
cat $T/*.out

ns_igmp() {
	in_ns in_igmp vethB $G4 && in_ns in_igmp vethB $SG4 &&
		in_ns in_igmp6 vethB $G6 && in_ns in_igmp6 vethB $SG6
}
ok "$NS's igmp and igmp6 list the four groups on vethB" ns_igmp
ns_filters() {
	in_ns mcfilter_is vethB $SG4 $S4 "'1 0'" && in_ns mcfilter6_is vethB $SG6 $S6 "'1 0'"
}
ok "$NS's mcfilter and mcfilter6: INCLUDE of each source on vethB (INC 1 EXC 0)" ns_filters
ok "the initial namespace's igmp and igmp6 list none of them, on any netdev" host_has_none

ns rdma-mcm show > $T/show-ns.txt
rc_ns=$?
rdma-mcm show > $T/show-host.txt
rc_host=$?
cat $T/show-ns.txt
four_shown() {
	local g
	[ $rc_ns -eq 0 ] || return 1
	for g in $G4 $G6 $SG4 $SG6; do
		grep -q " dev rxe2 port 1 netdev vethB group $g state joined type full " \
			$T/show-ns.txt || return 1
	done
}
ok "rdma-mcm show in $NS lists the four on rxe2 / vethB (exit $rc_ns)" four_shown
ok "rdma-mcm show in the initial namespace exits 0 and lists none of them (exit $rc_host)" \
	bash -c "[ $rc_host -eq 0 ] && ! grep -q 'dev rxe2' $T/show-host.txt"

# CREATE_CTX: EADDRNOTAVAIL (glibc's and musl's strerror of it)
rdma-mcm -b $A4 join $G4X < /dev/null > $T/host.out 2>&1
host_rc=$?
cat $T/host.out
not_bound() {
	[ $host_rc -ne 0 ] && ! grep -q '^joined' $T/host.out &&
		grep -Eq "^rdma-mcm: source $A4: (Cannot assign requested address|Address not available)\$" $T/host.out
}
ok "a context of the initial namespace cannot bind vethB's $A4: EADDRNOTAVAIL (exit $host_rc)" not_bound

echo "leave $G4" >&7
ok "stdin 'leave $G4' in $NS leaves it" wait_for 10 left_in $T/a4.out $G4
g4_gone() { ! in_ns in_igmp vethB $G4 && in_ns in_igmp vethB $SG4; }
ok "$NS's igmp drops $G4 and keeps $SG4" wait_for 10 g4_gone
echo quit >&8
exec 8>&-
g6_gone() { ! in_ns in_igmp6 vethB $G6 && in_ns in_igmp6 vethB $SG6; }
ok "quit of the IPv6 any-source session: $NS's igmp6 drops $G6, keeps $SG6" wait_for 10 g6_gone
ok "the two source-specific sessions run" bash -c "kill -0 ${PID[b4]} && kill -0 ${PID[b6]}"
kill -KILL ${PID[b4]} ${PID[b6]}
filters_gone() {
	! in_ns in_igmp vethB $SG4 && ! in_ns in_igmp6 vethB $SG6 &&
		in_ns mcfilter_none vethB $SG4 $S4 &&
		in_ns mcfilter6_none vethB $SG6 $S6
}
ok "SIGKILL of both: $NS's groups and source filters are gone" wait_for 20 filters_gone
echo quit >&7
exec 9>&- 6>&- 7>&-
ok "every session has exited" wait_for 20 none_running "${PID[@]}"
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
ok "the initial namespace still lists none of the groups" host_has_none
check "rxe2 deleted, $NS and the veth pair removed" teardown
check "rmmod rdma_mcm" rmmod rdma_mcm
