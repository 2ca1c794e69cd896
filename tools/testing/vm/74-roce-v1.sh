#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# IPv6 groups on a RoCE v1 port (rdma_cm's configfs default_roce_mode
# "IB/RoCE v1" on rxe1's port 1; the kernel review's test class): there
# rdma_cm joins an IPv6 group itself (it refuses one only on RoCE v2), so
# rdma_mcm does not join it on its own ('rdma-mcm -j show' says joined_by
# rdma_cm), and, as on RoCE v2, rdma_mcm holds the MLD side of a full
# member in its sockets (rdma_cm sends MLD for none), none for a send-only
# member; leave and SIGKILL drop it. rdma-core's mckey, which fails to
# join an IPv6 group on RoCE v2 (62-ipv6), joins on RoCE v1. rxe sends
# RoCE v2 packets only (it refuses an address handle of a RoCE v1 GID,
# rxe_av_chk_attr()), so no datagram is sent here. At the end the port is
# RoCE v2 again, whatever failed.

. "$(dirname "$0")/lib.sh"

LIBEXEC=/usr/libexec/rdma_mcm
JSON_CHECK=${JSON_CHECK:-$LIBEXEC/json_check.py}
SCHEMA=${RDMA_MCM_SCHEMA:-$LIBEXEC/rdma-mcm.schema.json}
CFS=/sys/kernel/config/rdma_cm/rxe1
MODE=$CFS/ports/1/default_roce_mode
T=/tmp/rocev1
SRC1=$BENCH_IP6_1	# rxe1
GF=ff1e::74:1		# a full member's group
GS=ff1e::74:2		# a send-only member's
GK=ff1e::74:3		# the group of a session killed
GM=ff1e::74:4		# mckey's

mkdir -p $T
roce_v1() {
	grep -q ' /sys/kernel/config configfs ' /proc/mounts ||
		mount -t configfs none /sys/kernel/config || return 1
	mkdir -p $CFS && echo "IB/RoCE v1" > $MODE &&
		[ "$(cat $MODE)" = "IB/RoCE v1" ]
}
roce_v2_again() {
	[ -e $MODE ] && echo "RoCE v2" > $MODE
	[ -d $CFS ] && rmdir $CFS
	return 0
}
# show_has GROUP TEXT: 'rdma-mcm -j show' lists GROUP with TEXT
show_has() {
	rdma-mcm -j show > $T/show.json || return 1
	grep "\"group\":\"$1\"" $T/show.json | grep -q "$2"
}

at_exit stop_jobs
at_exit roce_v2_again
at_exit bench_ipv6_down

plan 15
check "modprobe rdma_mcm" modprobe rdma_mcm
check "$SRC1 on veth1 (rxe1)" bench_ipv6
check "rxe1 port 1: default_roce_mode IB/RoCE v1 (configfs)" roce_v1

# mckey's sender joins, then sends or fails on rxe's refusal of a RoCE v1
# address handle: either way it exits, its output flushed
timeout 30 mckey -s -m $GM -b $SRC1 > $T/mckey.out 2>&1
rc=$?
cat $T/mckey.out
ok "mckey joins $GM on RoCE v1 (no 'failure joining'; exit $rc)" \
	sh -c "[ $rc -ne 124 ] && grep -q 'joining' $T/mckey.out && ! grep -q 'failure joining' $T/mckey.out"

rm -f $T/s.in
mkfifo $T/s.in
rdma-mcm -b $SRC1 join $GF < $T/s.in > $T/s.out 2>&1 &
spid=$!
exec 7> $T/s.in
ok "a full member of $GF is joined" wait_for 30 grep -q "^joined $GF " $T/s.out
ok "igmp6 lists $GF on veth1 (rdma_mcm's MLD)" wait_for 10 in_igmp6 veth1 $GF
ok "show: $GF joined_by rdma_cm (rdma_cm joined it on RoCE v1)" \
	show_has $GF '"joined_by":"rdma_cm"'
check "show's JSON is valid against the schema" python3 "$JSON_CHECK" "$SCHEMA" member $T/show.json --min 1
echo "join $GS --send-only" >&7
ok "a send-only member of $GS is joined, by rdma_cm" \
	wait_for 30 show_has $GS '"joined_by":"rdma_cm"'
ok "no MLD membership for the send-only $GS" not_in_igmp6 veth1 $GS
echo "leave $GF" >&7
ok "leave drops the MLD membership of $GF" wait_for 30 not_in_igmp6 veth1 $GF
echo quit >&7
exec 7>&-
wait_exit $spid 30
ok "the session quits (exit 0)" [ $? -eq 0 ]

rm -f $T/k.in
mkfifo $T/k.in
rdma-mcm -b $SRC1 join $GK < $T/k.in > $T/k.out 2>&1 &
kpid=$!
exec 8> $T/k.in
ok "a session joins $GK (MLD on veth1)" wait_for 30 in_igmp6 veth1 $GK
kill -KILL $kpid
wait $kpid 2>/dev/null
exec 8>&-
ok "SIGKILL of the session drops the MLD membership of $GK" wait_for 30 not_in_igmp6 veth1 $GK
check "rxe1 port 1: RoCE v2 again" roce_v2_again
