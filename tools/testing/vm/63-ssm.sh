#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Source-specific joins (SSM) on RoCE, IPv4 and IPv6. A full-member join
# with sources holds a kernel socket's source filter on the netdev
# (MCAST_JOIN_SOURCE_GROUP per source): /proc/net/mcfilter(6) lists
# (device, group, source) with INC 1, and the host sends an IGMPv3 / MLDv2
# report with the source, which mcm_sniff (tools/testing/mcsniff) sees on
# the other end of the pair, veth0. For IPv4 rdma_cm is asked for a
# send-only join: no any-source IGMP.
#
# - IPv4 232.63.0.N with source 192.0.2.1 (rxe0) on rxe1: the filter, the
#   report (allow/is_in/to_in with the source, never an any-source one),
#   'rdma-mcm show' (sources, joined-by), leave (block with the source);
#   recv --source 192.0.2.1 receives what 192.0.2.1 sends and says so;
#   datagrams from 192.0.2.3 (a second address on veth0, rxe0 gets its
#   GID) do not reach it: the IPv4 stack drops a non-included source on
#   rxe's path (ip_check_mc_rcu()); the HCA itself filters by group only;
# - composition, two processes on one group: A any source, B source
#   192.0.2.1; A makes the interface EXCLUDE{} (to_ex); after A's leave
#   B's source stays, the group stays, and the interface goes back to
#   INCLUDE{192.0.2.1} (to_in with it); A again, B leaves: B's entry goes,
#   the group stays; A leaves: the group goes;
# - the same for IPv6: ff3e::63:N, source 2001:db8::1 (rxe0), MLDv2,
#   /proc/net/mcfilter6 and igmp6; the IPv6 stack drops 2001:db8::3's
#   datagrams too (ip6_protocol_deliver_rcu(), Ip6InDiscards);
# - 10,000 join/leave pairs of one source-specific membership through one
#   session's stdin, timed: no filter, group, live object or socket left
#   (sock_inode_cache counts kernel sockets; shown first to see the four
#   sockets of four held memberships);
# - the test ULP: 'join GROUP SRC' has sources=1 and the filter, leave
#   drops it (IPv4 and IPv6).

. "$(dirname "$0")/lib.sh"

CTL=/sys/kernel/debug/rdma_mcm_test_ulp/control
STATUS=/sys/kernel/debug/rdma_mcm_test_ulp/status
LIBEXEC=/usr/libexec/rdma_mcm
JSON_CHECK=${JSON_CHECK:-$LIBEXEC/json_check.py}
SCHEMA=${RDMA_MCM_SCHEMA:-$LIBEXEC/rdma-mcm.schema.json}
T=/tmp/ssm
COUNT=20
CYCLES=10000
S4=$BENCH_IP0		# the IPv4 source, rxe0
S4X=192.0.2.3		# a second address on veth0, never included
S6=$BENCH_IP6_0		# the IPv6 source, rxe0
S6X=2001:db8::3
R4=$BENCH_IP1		# the receivers, rxe1
R6=$BENCH_IP6_1
INCLUDED='allow/is_in/to_in'	# records that include a source

mkdir -p $T
running() { kill -0 "$1" 2>/dev/null; }
not_running() { ! running "$1"; }
joined_n() { [ "$(grep -c "^joined $2 " "$1")" -ge "$3" ]; }
left_n() { [ "$(grep -c "^left $2 " "$1")" -ge "$3" ]; }
json_ok() { check "$1" python3 "$JSON_CHECK" "$SCHEMA" "$2" "$3" --min "$4"; }
line_of() { grep "\"group\":\"$1\"" "$2"; }
has() {
	local file=$1 group=$2 l t
	shift 2
	l=$(line_of "$group" "$file") || { echo "no line for $group"; return 1; }
	for t in "$@"; do
		case $l in
		*"$t"*) ;;
		*) echo "$group: no '$t' in $l"; return 1 ;;
		esac
	done
}
# the test's groups: 232.63.0.0/16, ff3e::63:0/112
v4_groups() { igmp_count veth1 '^....3FE8$'; }
v6_groups() { igmp6_count veth1 "^$(ipv6_hex ff3e::63:0 | cut -c1-28)"; }
filters() { awk '$3 ~ /^0xe83f/' /proc/net/mcfilter | wc -l; }
filters6() { awk -v p="$(ipv6_hex ff3e::63:0 | cut -c1-28)" 'index($3, p) == 1' /proc/net/mcfilter6 | wc -l; }
nothing_left() {
	[ "$(v4_groups)" -eq 0 ] && [ "$(v6_groups)" -eq 0 ] &&
		[ "$(filters)" -eq 0 ] && [ "$(filters6)" -eq 0 ]
}
rx_of() { cat /sys/class/net/veth1/statistics/rx_packets; }
snmp6_of() { awk -v k="$1" '$1 == k { print $2 }' /proc/net/dev_snmp6/veth1; }
snmp_of() {	# snmp_of Ip InReceives
	awk -v t="$1:" -v k="$2" '$1 == t { if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1 } else print $c[k] }' \
		/proc/net/snmp /proc/net/netstat
}

# session NAME ARGS...: rdma-mcm ARGS (a join session) reading its stdin
# from the fifo $T/NAME.in, written through fd $FD (set by the caller),
# its output in $T/NAME.out; its pid in SPID
session() {
	local name=$1
	shift
	rm -f $T/$name.in
	mkfifo $T/$name.in
	rdma-mcm "$@" < $T/$name.in > $T/$name.out 2>&1 &
	SPID=$!
}

plan 101
check "modprobe rdma_mcm" modprobe rdma_mcm
check "$S6 on veth0, $R6 on veth1: RoCE v2 GIDs of rxe0 and rxe1" bench_ipv6

# --- IPv4: one source-specific membership -------------------------------------
G=232.63.0.1
sniff_start $T/sn1 -i veth0 -d in -t 60 --until "$G,$INCLUDED,$S4"
session a -b $R4 join $G --source $S4
pa=$SPID
exec 7> $T/a.in
ok "rdma-mcm join $G --source $S4 on rxe1 joins" wait_for 30 joined_n $T/a.out $G 1
ok "/proc/net/mcfilter lists veth1 $G $S4 with INC 1 EXC 0" \
	wait_for 10 mcfilter_is veth1 $G $S4 "1 0"
sniff_wait
rc=$?
cat $T/sn1
diag "mcm_sniff on veth0: $(grep -m1 " $G " $T/sn1)"
ok "mcm_sniff on veth0 saw an IGMPv3 record for $G including $S4 (exit $rc)" [ $rc -eq 0 ]
ok "and no any-source (EXCLUDE) record for $G" \
	bash -c "! grep -Eq '^igmp.* $G (to_ex|is_ex) ' $T/sn1"
ok "/proc/net/igmp: $G on veth1 with one user, the filter's (rdma_cm's join is send-only)" \
	[ "$(igmp_users veth1 $G)" -eq 1 ]
rdma-mcm -j show > $T/show4.json
rdma-mcm show > $T/show4.txt
cat $T/show4.json $T/show4.txt
json_ok "show -j is valid against the schema" member $T/show4.json 1
ok "show -j: $G has sources [$S4], joined_by rdma_cm" \
	has $T/show4.json $G "\"sources\":[\"$S4\"]" '"joined_by":"rdma_cm"' '"type":"full"'
ok "show: $G ... sources $S4 joined-by rdma_cm" \
	grep -q " group $G state joined type full .* sources $S4 joined-by rdma_cm\$" $T/show4.txt
sniff_start $T/sn2 -i veth0 -d in -t 60 --until "$G,block/to_in,$S4"
echo "leave $G" >&7
ok "stdin 'leave $G' leaves it" wait_for 10 left_n $T/a.out $G 1
gone4() { mcfilter_none veth1 $G $S4 && not_in_igmp veth1 $G; }
ok "the filter entry and the group are gone (mcfilter, igmp)" wait_for 10 gone4
sniff_wait
rc=$?
cat $T/sn2
ok "mcm_sniff saw the report that blocks $S4 for $G (exit $rc)" [ $rc -eq 0 ]
echo quit >&7
exec 7>&-
wait $pa

# --- IPv4: what reaches a source-specific receiver ----------------------------
G=232.63.0.2
check "$S4X on veth0 as well" ip addr add $S4X/24 dev veth0
ok "rxe0 lists $S4X as a RoCE v2 GID" wait_for 30 rxe_has_gid rxe0 ::ffff:c000:203 "RoCE v2"
rdma-mcm -b $R4 -t 300 recv $G --source $S4 -c $COUNT > $T/recv4.out 2>&1 &
pid=$!
ready4() { mcfilter_is veth1 $G $S4 "1 0" && qp_attached veth1 $G; }
ok "recv --source $S4 joins $G: the filter entry, its QP attached" wait_for 30 ready4
s0=$(rxe_counter rxe0 sent_pkts)
r0=$(rxe_counter rxe1 rcvd_pkts)
v0=$(rx_of)
in0=$(snmp_of Ip InReceives)
mc0=$(snmp_of IpExt InMcastPkts)
check "rdma-mcm on $S4X sends $COUNT datagrams to $G" \
	timeout 60 rdma-mcm -b $S4X send $G -c $COUNT --send-only
s3=$(( $(rxe_counter rxe0 sent_pkts) - s0 ))
veth_has() { [ $(( $(rx_of) - v0 )) -ge "$s3" ]; }
reached_veth1() { [ "$s3" -gt 0 ] && wait_for 30 veth_has; }
ok "rxe0 put $s3 of them on the wire, and they reached veth1" reached_veth1
# a negative check: the wait can only miss a late datagram, never fail a
# good run (recv's source report below would show one)
sleep 1
diag "IPv4 after $S4X's datagrams: Ip InReceives +$(( $(snmp_of Ip InReceives) - in0 )), IpExt InMcastPkts +$(( $(snmp_of IpExt InMcastPkts) - mc0 )) (routing refused them)"
ok "none of $S4X's reached rxe1 (the IPv4 stack drops a non-included source before rxe: ip_check_mc_rcu(); not the HCA)" \
	[ "$(rxe_counter rxe1 rcvd_pkts)" -eq "$r0" ]
check "rdma-mcm on $S4 sends to $G until recv exits" send_until_exit $S4 $G $pid $COUNT
wait $pid
rc=$?
cat $T/recv4.out
ok "recv received $COUNT datagrams (exit 0)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^received $G count $COUNT of $COUNT\$' $T/recv4.out"
ok "recv's source report: from $S4 datagrams $COUNT, nothing from $S4X" \
	[ "$(grep '^from ' $T/recv4.out)" = "from $S4 datagrams $COUNT" ]
gone4() { mcfilter_none veth1 $G $S4 && not_in_igmp veth1 $G; }
ok "recv left $G on exit: no filter entry, not in igmp" wait_for 10 gone4
check "$S4X off veth0 again" ip addr del $S4X/24 dev veth0

# --- composition: any source (A) and source-specific (B) on one group -----------
# compose FAMILY GROUP SOURCE LOCAL: the checks of both families
compose() {
	local fam=$1 g=$2 s=$3 l=$4 proto mcf in_grp users
	if [ "$fam" = 4 ]; then
		proto=igmpv3 mcf=mcfilter in_grp=in_igmp users=igmp_users
	else
		proto=mldv2 mcf=mcfilter6 in_grp=in_igmp6 users=igmp6_users
	fi
	session b$fam -b $l join $g --source $s
	local pb=$SPID
	exec 8> $T/b$fam.in
	b_in() { wait_for 30 joined_n $T/b$fam.out $g 1 && wait_for 10 ${mcf}_is veth1 $g $s "1 0"; }
	ok "IPv$fam: B joins $g with source $s: its filter entry, INC 1 EXC 0" b_in
	sniff_start $T/c$fam-1 -i veth0 -d in -t 60 --until "$g,to_ex"
	session a$fam -b $l join $g
	local pa=$SPID
	exec 9> $T/a$fam.in
	ok "IPv$fam: A joins $g, any source" wait_for 30 joined_n $T/a$fam.out $g 1
	sniff_wait
	local rc=$?
	cat $T/c$fam-1
	ok "IPv$fam: A makes veth1 EXCLUDE{} for $g: $proto to_ex (exit $rc)" [ $rc -eq 0 ]
	both() { ${mcf}_is veth1 $g $s "1 0" && [ "$($users veth1 $g)" -eq 2 ]; }
	ok "IPv$fam: B's entry unchanged (INC 1 EXC 0), $g has two users" both

	sniff_start $T/c$fam-2 -i veth0 -d in -t 30 --until "$g,to_in,$s"
	echo "leave $g" >&9
	ok "IPv$fam: A leaves $g" wait_for 10 left_n $T/a$fam.out $g 1
	b_stays() { ${mcf}_is veth1 $g $s "1 0" && $in_grp veth1 $g; }
	ok "IPv$fam: B's source entry stays (INC 1 EXC 0), the group stays" wait_for 10 b_stays
	sniff_wait
	rc=$?
	cat $T/c$fam-2
	ok "IPv$fam: veth1 goes back to INCLUDE{$s}: $proto to_in with $s (exit $rc)" [ $rc -eq 0 ]

	echo "join $g" >&9
	ok "IPv$fam: A joins $g again" wait_for 30 joined_n $T/a$fam.out $g 2
	echo "leave $g" >&8
	ok "IPv$fam: B leaves $g" wait_for 10 left_n $T/b$fam.out $g 1
	a_stays() { ${mcf}_none veth1 $g $s && $in_grp veth1 $g; }
	ok "IPv$fam: B's source entry is gone, A keeps the group" wait_for 10 a_stays
	echo "leave $g" >&9
	ok "IPv$fam: A leaves $g" wait_for 10 left_n $T/a$fam.out $g 2
	g_gone() { ! $in_grp veth1 $g; }
	ok "IPv$fam: the group is gone" wait_for 10 g_gone
	echo quit >&8
	echo quit >&9
	exec 8>&- 9>&-
	wait $pa $pb
	cat $T/a$fam.out $T/b$fam.out
}
compose 4 232.63.0.3 $S4 $R4

# --- IPv6: one source-specific membership -------------------------------------
G=ff3e::63:1
sniff_start $T/sn6 -i veth0 -d in -t 60 --until "$G,$INCLUDED,$S6"
session a6 -b $R6 join $G --source $S6
pa=$SPID
exec 7> $T/a6.in
ok "rdma-mcm join $G --source $S6 on rxe1 joins" wait_for 30 joined_n $T/a6.out $G 1
ok "/proc/net/mcfilter6 lists veth1 $G $S6 with INC 1 EXC 0" \
	wait_for 10 mcfilter6_is veth1 $G $S6 "1 0"
sniff_wait
rc=$?
cat $T/sn6
diag "mcm_sniff on veth0: $(grep -m1 " $G " $T/sn6)"
ok "mcm_sniff on veth0 saw an MLDv2 record for $G including $S6 (exit $rc)" [ $rc -eq 0 ]
ok "and no any-source (EXCLUDE) record for $G" \
	bash -c "! grep -Eq '^mld.* $G (to_ex|is_ex) ' $T/sn6"
ok "/proc/net/igmp6: $G on veth1 with one user, the filter's (no any-source MLD membership)" \
	[ "$(igmp6_users veth1 $G)" -eq 1 ]
rdma-mcm -j show > $T/show6.json
rdma-mcm show > $T/show6.txt
cat $T/show6.json $T/show6.txt
json_ok "show -j is valid against the schema" member $T/show6.json 1
ok "show -j: $G has sources [$S6], joined_by rdma_mcm" \
	has $T/show6.json $G "\"sources\":[\"$S6\"]" '"joined_by":"rdma_mcm"' '"family":"inet6"'
ok "show: $G ... sources $S6 joined-by rdma_mcm" \
	grep -q " group $G state joined type full .* sources $S6 joined-by rdma_mcm\$" $T/show6.txt
sniff_start $T/sn6b -i veth0 -d in -t 60 --until "$G,block/to_in,$S6"
echo "leave $G" >&7
ok "stdin 'leave $G' leaves it" wait_for 10 left_n $T/a6.out $G 1
gone6() { mcfilter6_none veth1 $G $S6 && not_in_igmp6 veth1 $G; }
ok "the filter entry and the group are gone (mcfilter6, igmp6)" wait_for 10 gone6
sniff_wait
rc=$?
cat $T/sn6b
ok "mcm_sniff saw the report that blocks $S6 for $G (exit $rc)" [ $rc -eq 0 ]
echo quit >&7
exec 7>&-
wait $pa

# --- IPv6: what reaches a source-specific receiver ----------------------------
G=ff3e::63:2
check "$S6X on veth0 as well" ip -6 addr add $S6X/64 dev veth0 nodad
ok "rxe0 lists $S6X as a RoCE v2 GID" wait_for 30 rxe_has_gid rxe0 $S6X "RoCE v2"
rdma-mcm -b $R6 -t 300 recv $G --source $S6 -c $COUNT > $T/recv6.out 2>&1 &
pid=$!
ready6() { mcfilter6_is veth1 $G $S6 "1 0" && [ "$(dev_mcast_refs veth1 "$(mcast_mac6_of $G)")" -ge 2 ]; }
ok "recv --source $S6 joins $G: the filter entry, its QP attached (the MAC twice)" wait_for 30 ready6
s0=$(rxe_counter rxe0 sent_pkts)
r0=$(rxe_counter rxe1 rcvd_pkts)
d0=$(snmp6_of Ip6InDiscards)
check "rdma-mcm on $S6X sends $COUNT datagrams to $G" \
	timeout 60 rdma-mcm -b $S6X send $G -c $COUNT --send-only
s3=$(( $(rxe_counter rxe0 sent_pkts) - s0 ))
discarded() { [ $(( $(snmp6_of Ip6InDiscards) - d0 )) -ge "$s3" ]; }
all_discarded() { [ "$s3" -gt 0 ] && wait_for 30 discarded; }
ok "rxe0 put $s3 on the wire; veth1's IPv6 discarded them (Ip6InDiscards)" all_discarded
ok "none of $S6X's reached rxe1 (the IPv6 stack drops a non-included source before rxe: ip6_protocol_deliver_rcu(); not the HCA)" \
	[ "$(rxe_counter rxe1 rcvd_pkts)" -eq "$r0" ]
check "rdma-mcm on $S6 sends to $G until recv exits" send_until_exit $S6 $G $pid $COUNT
wait $pid
rc=$?
cat $T/recv6.out
ok "recv received $COUNT datagrams (exit 0)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^received $G count $COUNT of $COUNT\$' $T/recv6.out"
ok "recv's source report: from $S6 datagrams $COUNT, nothing from $S6X" \
	[ "$(grep '^from ' $T/recv6.out)" = "from $S6 datagrams $COUNT" ]
gone6() { mcfilter6_none veth1 $G $S6 && not_in_igmp6 veth1 $G; }
ok "recv left $G on exit: no filter entry, not in igmp6" wait_for 10 gone6
check "$S6X off veth0 again" ip -6 addr del $S6X/64 dev veth0

compose 6 ff3e::63:3 $S6 $R6

# --- 10,000 join/leave cycles ------------------------------------------------------
G=232.63.1.1
clean_before() { nothing_left && live_zero; }
ok "before the cycles: no filter, group or live object of the test" clean_before
sock0=$(sock_objects)
used0=$(sockets_used)
# a kernel socket per filter: four held memberships hold four more
session h -b $R4 join 232.63.1.11 232.63.1.12 232.63.1.13 232.63.1.14 --source $S4
ph=$SPID
exec 7> $T/h.in
four() { [ "$(grep -c '^joined 232\.63\.1\.1[1-4] ' $T/h.out)" -eq 4 ] && [ "$(filters)" -eq 4 ]; }
ok "a session holds four source-specific memberships: four filter entries" wait_for 30 four
sock1=$(sock_objects)
diag "sockets (sock_inode_cache): $sock0 before, $sock1 with the session and its four filters"
echo "leave 232.63.1.11 232.63.1.12 232.63.1.13 232.63.1.14" >&7
no_filters() { [ "$(filters)" -eq 0 ]; }
ok "the session leaves them: no filter entry" wait_for 10 no_filters
sock2=$(sock_objects)
diag "sockets (sock_inode_cache) with the session, no filter: $sock2"
ok "the four filters held four kernel sockets (sock_inode_cache, the session alive both times: $sock1 - $sock2 >= 4)" \
	[ $((sock1 - sock2)) -ge 4 ]
t0=$(cut -d' ' -f1 /proc/uptime)
{
	for i in $(seq $CYCLES); do
		echo "join $G --source $S4"
		echo "leave $G"
	done
} >&7
cycles_done() { [ "$(grep -c "^left $G " $T/h.out)" -ge $CYCLES ]; }
ok "$CYCLES 'join $G --source $S4' / 'leave $G' pairs through the session's stdin: $CYCLES left" \
	wait_for 400 cycles_done
t1=$(cut -d' ' -f1 /proc/uptime)
diag "$CYCLES join/leave pairs took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s; $(grep -c "^joined $G " $T/h.out) of the joins completed before their leave (the others were cancelled in flight)"
ok "no error line from the session" \
	bash -c "! grep -Ev '^(joined|left) 232\.63\.1\.1[1-4]? ' $T/h.out | grep -q ."
cycles_clean() { mcfilter_none veth1 $G $S4 && not_in_igmp veth1 $G && [ "$(filters)" -eq 0 ]; }
ok "after the cycles: no filter entry and no group left" wait_for 20 cycles_clean
sock_back() { [ "$(sock_objects)" -le "$sock2" ]; }
ok "the sockets are back to where they were ($sock2, sock_inode_cache)" wait_for 30 sock_back
echo quit >&7
exec 7>&-
wait $ph
ok "the session exits 0" [ $? -eq 0 ]
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
sock_end() { [ "$(sock_objects)" -le "$sock0" ]; }
ok "sock_inode_cache back to $sock0 after the session" wait_for 30 sock_end
diag "sockstat 'sockets: used' $used0 before, $(sockets_used) after (it counts no kernel socket: sock_inode_cache above is the check)"

# --- the test ULP -------------------------------------------------------------------
cmd() { echo "$*" > $CTL; }
member_line() { awk -v g="$1" '$1 == "member" && $3 == g' $STATUS; }
member_is() { [ "$(member_line "$1" | awk '{ print $4 }')" = "$2" ]; }
status_has() { member_line "$1" | grep -q " $2\$"; }
check "modprobe rdma_mcm_test_ulp" modprobe rdma_mcm_test_ulp
check "the ULP opens a context on $R4" cmd open $R4
G=232.63.2.1
check "the ULP joins $G with source $S4" cmd join $G $S4
ok "$G reaches joined" wait_for 30 member_is $G joined
member_line $G
ok "its status: attached=1 sources=1 joined_by=rdma_cm" \
	status_has $G "attached=1 rejoins=0 sources=1 joined_by=rdma_cm"
ok "mcfilter lists veth1 $G $S4 INC 1 EXC 0" wait_for 10 mcfilter_is veth1 $G $S4 "1 0"
check "the ULP leaves $G" cmd leave $G
ok "the filter entry is gone" wait_for 10 mcfilter_none veth1 $G $S4
check "close; open a context on $R6" eval "cmd close && cmd open $R6"
G=ff3e::63:100
check "the ULP joins $G with source $S6" cmd join $G $S6
ok "$G reaches joined" wait_for 30 member_is $G joined
member_line $G
ok "its status: attached=1 sources=1 joined_by=rdma_mcm" \
	status_has $G "attached=1 rejoins=0 sources=1 joined_by=rdma_mcm"
ok "mcfilter6 lists veth1 $G $S6 INC 1 EXC 0" wait_for 10 mcfilter6_is veth1 $G $S6 "1 0"
check "the ULP leaves $G" cmd leave $G
ok "the filter entry is gone" wait_for 10 mcfilter6_none veth1 $G $S6
check "close, rmmod rdma_mcm_test_ulp" eval "cmd close && rmmod rdma_mcm_test_ulp"

# --- the end ---------------------------------------------------------------------------
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
ok "no filter entry and no group of the test left (mcfilter, mcfilter6, igmp, igmp6)" \
	wait_for 10 nothing_left
check "the global IPv6 addresses come off the pair again" bench_ipv6_down
check "rmmod rdma_mcm" rmmod rdma_mcm
