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
#   report (allow/is_in/to_in with the source), 'rdma-mcm show' (sources,
#   joined-by), leave (block with the source); a sniffer that runs from
#   before the join until that block sees no any-source record;
#   recv --source 192.0.2.1 receives exactly what 192.0.2.1 sends, once,
#   and says so; datagrams from 192.0.2.3 (a second address on veth0, rxe0
#   gets its GID), sent before, reach veth1's IP stack and go no further:
#   the IPv4 stack drops a non-included source on rxe's path
#   (ip_check_mc_rcu()); the HCA itself filters by group only. Counted
#   (Ip InReceives, IpExt InMcastPkts, rxe1's rcvd_pkts), not waited for;
# - composition, two processes on one group: A any source, B source
#   192.0.2.1; A makes the interface EXCLUDE{} (to_ex); after A's leave
#   B's source stays, the group stays, and the interface goes back to
#   INCLUDE{192.0.2.1} (to_in with it); A again, B leaves: B's entry goes,
#   the group stays; A leaves: the group goes;
# - the same for IPv6: ff3e::63:N, source 2001:db8::1 (rxe0), MLDv2,
#   /proc/net/mcfilter6 and igmp6; the IPv6 stack drops 2001:db8::3's
#   datagrams too (ip6_protocol_deliver_rcu(), Ip6InDiscards);
# - sessions holding source-specific memberships, IPv4 and IPv6, killed
#   (SIGKILL) or told to end (SIGTERM): no filter, group or live object;
# - 10,000 IPv4 and 10,000 IPv6 join/leave pairs of one source-specific
#   membership through one session's stdin, timed, some joins completing
#   before their leave: no filter, group, live object or socket left
#   (sock_inode_cache counts kernel sockets; shown first to see the four
#   sockets of four held memberships, three of them closed by the leave
#   and one kept empty for the context's next join, which the cycles
#   reuse);
# - the test ULP: 'join GROUP SRC' has sources=1 and the filter, leave
#   drops it (IPv4 and IPv6).
#
# Every mcfilter(6) reading holds a probe so that the kernel lists veth0
# and veth1 whole (lib.sh, mcfilter_text). Whatever fails, the extra
# sources and IPv6 addresses come off veth0/veth1 and the background
# processes are stopped (at_exit).

. "$(dirname "$0")/lib.sh"

CTL=/sys/kernel/debug/rdma_mcm_test_ulp/control
STATUS=/sys/kernel/debug/rdma_mcm_test_ulp/status
T=/tmp/ssm
COUNT=20
CYCLES=10000		# join/leave pairs, IPv4 and IPv6 each
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
# the test's groups: 232.63.0.0/16, ff3e::63:0/112
v4_groups() { igmp_count veth1 '^....3FE8$'; }
v6_groups() { igmp6_count veth1 "^$(ipv6_hex ff3e::63:0 | cut -c1-28)"; }
# filter entries of the test's groups, from the whole listing (lib.sh,
# mcfilter_text): nothing printed, and so a failed '-eq', when it could
# not be read whole
filters() { mcfilter_count '$3 ~ /^0xe83f/'; }
filters6() { mcfilter_count -6 "index(\$3, \"$(ipv6_hex ff3e::63:0 | cut -c1-28)\") == 1"; }
nothing_left() {
	[ "$(v4_groups)" -eq 0 ] && [ "$(v6_groups)" -eq 0 ] &&
		[ "$(filters)" -eq 0 ] && [ "$(filters6)" -eq 0 ]
}
rx_of() { cat /sys/class/net/veth1/statistics/rx_packets; }

# family FAM: the names of one family's readers and reports
family() {
	if [ "$1" = 4 ]; then
		proto=igmpv3 mcf=mcfilter in_grp=in_igmp users=igmp_users fname=inet
	else
		proto=mldv2 mcf=mcfilter6 in_grp=in_igmp6 users=igmp6_users fname=inet6
	fi
}

# cleanup whatever happens: the extra sources, the IPv6 addresses, what
# runs in the background, the test ULP
at_exit stop_jobs
at_exit ulp_cleanup
at_exit "ip addr del $S4X/24 dev veth0 2>/dev/null"
at_exit "ip -6 addr del $S6X/64 dev veth0 2>/dev/null"
at_exit bench_ipv6_down

plan 125
check "modprobe rdma_mcm" modprobe rdma_mcm
check "$S6 on veth0, $R6 on veth1: RoCE v2 GIDs of rxe0 and rxe1" bench_ipv6

# --- one source-specific membership -------------------------------------------
# one FAM GROUP SOURCE LOCAL JOINED_BY: a session joins GROUP with SOURCE
# and leaves it. Two sniffers on veth0: one until the first record that
# includes SOURCE, one for the membership's whole life, from before the
# join until the leave's BLOCK{SOURCE} (what each kernel sends when the
# last INCLUDE member of a group leaves: seen on 6.1, 6.12, 6.12-rt and
# 7.2), in which no any-source record (to_ex, is_ex) may be.
one() {
	local fam=$1 g=$2 src=$3 l=$4 by=$5 rc life
	family $fam
	sniff_start $T/life$fam -i veth0 -d in -t 120 --until "$g,block,$src"
	life=$SNIFF_PID
	sniff_start $T/sn$fam -i veth0 -d in -t 60 --until "$g,$INCLUDED,$src"
	session a$fam -b $l join $g --source $src
	local pa=$SPID
	exec 7> $T/a$fam.in
	ok "IPv$fam: rdma-mcm join $g --source $src on rxe1 joins" wait_for 30 joined_n $T/a$fam.out $g 1
	ok "IPv$fam: /proc/net/$mcf lists veth1 $g $src with INC 1 EXC 0" \
		wait_for 10 ${mcf}_is veth1 $g $src "1 0"
	sniff_wait
	rc=$?
	cat $T/sn$fam
	diag "mcm_sniff on veth0: $(grep -m1 " $g " $T/sn$fam)"
	ok "IPv$fam: mcm_sniff on veth0 saw a $proto record for $g including $src (exit $rc)" [ $rc -eq 0 ]
	ok "IPv$fam: $g on veth1 with one user, the filter's (no any-source membership)" \
		[ "$($users veth1 $g)" -eq 1 ]
	rdma-mcm -j show > $T/show$fam.json
	rdma-mcm show > $T/show$fam.txt
	cat $T/show$fam.json $T/show$fam.txt
	json_ok "IPv$fam: show -j is valid against the schema" member $T/show$fam.json 1
	ok "IPv$fam: show -j: $g has sources [$src], joined_by $by, family $fname" \
		has $T/show$fam.json $g "\"sources\":[\"$src\"]" "\"joined_by\":\"$by\"" \
		'"type":"full"' "\"family\":\"$fname\""
	ok "IPv$fam: show: $g ... sources $src joined-by $by" \
		grep -q " group $g state joined type full .* sources $src joined-by $by\$" $T/show$fam.txt
	echo "leave $g" >&7
	ok "IPv$fam: stdin 'leave $g' leaves it" wait_for 10 left_n $T/a$fam.out $g 1
	gone() { ${mcf}_none veth1 $g $src && ! $in_grp veth1 $g; }
	ok "IPv$fam: the filter entry and the group are gone ($mcf, igmp)" wait_for 10 gone
	wait $life
	rc=$?
	cat $T/life$fam
	ok "IPv$fam: the leave sent $proto block $src for $g (exit $rc)" [ $rc -eq 0 ]
	ok "IPv$fam: from before the join to the leave's block, no any-source (EXCLUDE) record for $g" \
		bash -c "! grep -Eq '^$proto $g (to_ex|is_ex) ' $T/life$fam"
	echo quit >&7
	exec 7>&-
	wait_exit $pa 30
	rc=$?
	ok "IPv$fam: the session quits, exit $rc" [ $rc -eq 0 ]
}
one 4 232.63.0.1 $S4 $R4 rdma_cm

# --- IPv4: what reaches a source-specific receiver ----------------------------
# Deterministic, by counting: 192.0.2.3's datagrams reach veth1 and its IP
# stack (Ip InReceives) and go no further (IpExt InMcastPkts, rxe1's
# rcvd_pkts); then 192.0.2.1's, sent after them, reach recv, all of them,
# and rxe1's count over both is exactly 192.0.2.1's: none of 192.0.2.3's
# came late either.
G=232.63.0.2
check "$S4X on veth0 as well" ip addr add $S4X/24 dev veth0
ok "rxe0 lists $S4X as a RoCE v2 GID" wait_for 30 rxe_has_gid rxe0 ::ffff:c000:203 "RoCE v2"
rdma-mcm -b $R4 -t 300 recv $G --source $S4 -c $COUNT > $T/recv4.out 2>&1 &
pid=$!
ready4() { mcfilter_is veth1 $G $S4 "1 0" && qp_attached veth1 $G; }
ok "recv --source $S4 joins $G: the filter entry, its QP attached" wait_for 30 ready4
r0=$(rxe_counter rxe1 rcvd_pkts)
v0=$(rx_of)
in0=$(snmp_of Ip InReceives)
mc0=$(snmp_of IpExt InMcastPkts)
check "rdma-mcm on $S4X sends $COUNT datagrams to $G once" send_counted $S4X $G $COUNT
s3=$SENT
reached_ip() { [ $(( $(rx_of) - v0 )) -ge "$s3" ] && [ $(( $(snmp_of Ip InReceives) - in0 )) -ge "$s3" ]; }
ok "they reached veth1 (rx_packets) and its IP stack (Ip InReceives +$s3 at least)" \
	wait_for 30 reached_ip
diag "IPv4 after $S4X's datagrams: Ip InReceives +$(( $(snmp_of Ip InReceives) - in0 )), IpExt InMcastPkts +$(( $(snmp_of IpExt InMcastPkts) - mc0 )) (routing refused them)"
ok "routing refused them: IpExt InMcastPkts +0 (ip_check_mc_rcu(): $S4X is not included)" \
	[ "$(snmp_of IpExt InMcastPkts)" -eq "$mc0" ]
ok "none of $S4X's reached rxe1 (rcvd_pkts unchanged): the IPv4 stack drops a non-included source before rxe, not the HCA" \
	[ "$(rxe_counter rxe1 rcvd_pkts)" -eq "$r0" ]
check "rdma-mcm on $S4 sends $COUNT datagrams to $G once" send_counted $S4 $G $COUNT
s1=$SENT
recv_wait $pid 60
cat $T/recv4.out
ok "recv received all $s1 datagrams $S4 sent (exit $RC, count $COUNT of $COUNT)" \
	recv_got $T/recv4.out $G $COUNT $RC
got=$(( $(rxe_counter rxe1 rcvd_pkts) - r0 ))
ok "rxe1 received exactly $S4's $s1 ($got since before $S4X's)" [ "$got" -eq "$s1" ]
ok "recv's source report: from $S4 datagrams $COUNT, nothing from $S4X" \
	[ "$(grep '^from ' $T/recv4.out)" = "from $S4 datagrams $COUNT" ]
gone4() { mcfilter_none veth1 $G $S4 && not_in_igmp veth1 $G; }
ok "recv left $G on exit: no filter entry, not in igmp" wait_for 10 gone4
check "$S4X off veth0 again" ip addr del $S4X/24 dev veth0

# --- composition: any source (A) and source-specific (B) on one group -----------
# compose FAMILY GROUP SOURCE LOCAL: the checks of both families
compose() {
	local fam=$1 g=$2 s=$3 l=$4 rc
	family $fam
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
	rc=$?
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
	local rca rcb
	wait_exit $pa 30
	rca=$?
	wait_exit $pb 30
	rcb=$?
	cat $T/a$fam.out $T/b$fam.out
	ok "IPv$fam: both sessions quit, exit $rca and $rcb" [ "$rca$rcb" = 00 ]
}
compose 4 232.63.0.3 $S4 $R4

one 6 ff3e::63:1 $S6 $R6 rdma_mcm

# --- IPv6: what reaches a source-specific receiver ----------------------------
# The IPv6 stack drops 2001:db8::3's datagrams in ip6_protocol_deliver_rcu()
# and counts each (veth1's Ip6InDiscards); counted as for IPv4 above.
G=ff3e::63:2
check "$S6X on veth0 as well" ip -6 addr add $S6X/64 dev veth0 nodad
ok "rxe0 lists $S6X as a RoCE v2 GID" wait_for 30 rxe_has_gid rxe0 $S6X "RoCE v2"
rdma-mcm -b $R6 -t 300 recv $G --source $S6 -c $COUNT > $T/recv6.out 2>&1 &
pid=$!
ready6() { mcfilter6_is veth1 $G $S6 "1 0" && [ "$(dev_mcast_refs veth1 "$(mcast_mac6_of $G)")" -ge 2 ]; }
ok "recv --source $S6 joins $G: the filter entry, its QP attached (the MAC twice)" wait_for 30 ready6
r0=$(rxe_counter rxe1 rcvd_pkts)
d0=$(snmp6_of veth1 Ip6InDiscards)
check "rdma-mcm on $S6X sends $COUNT datagrams to $G once" send_counted $S6X $G $COUNT
s3=$SENT
discarded() { [ $(( $(snmp6_of veth1 Ip6InDiscards) - d0 )) -ge "$s3" ]; }
ok "veth1's IPv6 discarded them (Ip6InDiscards +$s3 at least)" wait_for 30 discarded
ok "none of $S6X's reached rxe1 (the IPv6 stack drops a non-included source before rxe: ip6_protocol_deliver_rcu(); not the HCA)" \
	[ "$(rxe_counter rxe1 rcvd_pkts)" -eq "$r0" ]
check "rdma-mcm on $S6 sends $COUNT datagrams to $G once" send_counted $S6 $G $COUNT
s1=$SENT
recv_wait $pid 60
cat $T/recv6.out
ok "recv received all $s1 datagrams $S6 sent (exit $RC, count $COUNT of $COUNT)" \
	recv_got $T/recv6.out $G $COUNT $RC
got=$(( $(rxe_counter rxe1 rcvd_pkts) - r0 ))
ok "rxe1 received exactly $S6's $s1 ($got since before $S6X's)" [ "$got" -eq "$s1" ]
ok "recv's source report: from $S6 datagrams $COUNT, nothing from $S6X" \
	[ "$(grep '^from ' $T/recv6.out)" = "from $S6 datagrams $COUNT" ]
gone6() { mcfilter6_none veth1 $G $S6 && not_in_igmp6 veth1 $G; }
ok "recv left $G on exit: no filter entry, not in igmp6" wait_for 10 gone6
check "$S6X off veth0 again" ip -6 addr del $S6X/64 dev veth0

compose 6 ff3e::63:3 $S6 $R6

# --- sessions with source-specific memberships that end without leaving -----
# ends FAM SIGNAL G1 G2 SOURCE LOCAL: a session holds G1 and G2 with
# SOURCE and gets SIGNAL: KILL (the kernel's close of the file leaves
# them) or TERM (the CLI leaves them on its way out, exit 0). Their filter
# entries and groups go; no live object stays.
ends() {
	local fam=$1 sig=$2 g1=$3 g2=$4 src=$5 l=$6 p rc
	family $fam
	session e$fam$sig -b $l join $g1 $g2 --source $src
	p=$SPID
	exec 7> $T/e$fam$sig.in
	held() {
		joined_n $T/e$fam$sig.out $g1 1 && joined_n $T/e$fam$sig.out $g2 1 &&
			${mcf}_is veth1 $g1 $src "1 0" && ${mcf}_is veth1 $g2 $src "1 0"
	}
	ok "IPv$fam: a session holds $g1 and $g2 with source $src: their filter entries" \
		wait_for 30 held
	kill -$sig $p
	wait_exit $p 30 2>/dev/null
	rc=$?
	exec 7>&-
	cat $T/e$fam$sig.out
	released() {
		${mcf}_none veth1 $g1 $src && ${mcf}_none veth1 $g2 $src &&
			! $in_grp veth1 $g1 && ! $in_grp veth1 $g2 && live_zero
	}
	ok "IPv$fam: after SIG$sig (exit $rc), no filter entry, no group, no live object" \
		wait_for 20 released
	[ $sig = TERM ] && ok "IPv$fam: SIGTERM: the session left both and exited 0" \
		eval "[ $rc -eq 0 ] && left_n $T/e$fam$sig.out $g1 1 && left_n $T/e$fam$sig.out $g2 1"
}
ends 4 KILL 232.63.4.1 232.63.4.2 $S4 $R4
ends 6 KILL ff3e::63:41 ff3e::63:42 $S6 $R6
ends 6 TERM ff3e::63:43 ff3e::63:44 $S6 $R6

# --- join/leave cycles ------------------------------------------------------------
# cycles FAM GROUP SOURCE LOCAL N: N 'join GROUP --source SOURCE' / 'leave
# GROUP' pairs written at once to the stdin of session h (open, fd 7): a
# leave that finds the join in flight cancels it. Every leave is reported,
# at least one join completed before its leave (the leave of a joined
# source-specific membership is among them, not only cancels), no error
# line, no filter entry or group left.
cycles() {
	local fam=$1 g=$2 src=$3 n=$5 t0 t1 joined
	family $fam
	local before
	before=$(grep -c "^left $g " $T/h.out)
	t0=$(cut -d' ' -f1 /proc/uptime)
	{
		for i in $(seq $n); do
			echo "join $g --source $src"
			echo "leave $g"
		done
	} >&7
	cycles_done() { [ $(( $(grep -c "^left $g " $T/h.out) - before )) -ge $n ]; }
	ok "IPv$fam: $n 'join $g --source $src' / 'leave $g' pairs through the session's stdin: $n left" \
		wait_for 400 cycles_done
	t1=$(cut -d' ' -f1 /proc/uptime)
	joined=$(grep -c "^joined $g " $T/h.out)
	diag "IPv$fam: $n join/leave pairs took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s; $joined of the joins completed before their leave (the others were cancelled in flight)"
	ok "IPv$fam: at least one join completed before its leave ($joined of $n)" [ "$joined" -ge 1 ]
	ok "IPv$fam: no error line from the session" \
		bash -c "! grep -Ev '^(joined|left) ' $T/h.out | grep -q ."
	cycles_clean() { ${mcf}_none veth1 $g $src && ! $in_grp veth1 $g && [ "$(filters)" -eq 0 ] && [ "$(filters6)" -eq 0 ]; }
	ok "IPv$fam: after the cycles: no filter entry and no group left" wait_for 20 cycles_clean
}

clean_before() { nothing_left && live_zero; }
ok "before the cycles: no filter, group or live object of the test" clean_before
# the baseline once clean_before's mcfilter probes (sockets freed after an
# RCU grace period) are gone from the count: lib.sh, sock_objects_settled
sock0=$(sock_objects_settled)
used0=$(sockets_used)
# a kernel socket per filter: four held memberships hold four more
session h -b $R4 join 232.63.1.11 232.63.1.12 232.63.1.13 232.63.1.14 --source $S4
ph=$SPID
exec 7> $T/h.in
four_joined() { [ "$(grep -c '^joined 232\.63\.1\.1[1-4] ' $T/h.out)" -eq 4 ]; }
ok "a session holds four source-specific memberships" wait_for 30 four_joined
sock1=$(sock_objects)
diag "sockets (sock_inode_cache): $sock0 before, $sock1 with the session and its four filters"
ok "four filter entries" [ "$(filters)" -eq 4 ]
echo "leave 232.63.1.11 232.63.1.12 232.63.1.13 232.63.1.14" >&7
four_left() { [ "$(grep -c '^left 232\.63\.1\.1[1-4] ' $T/h.out)" -eq 4 ]; }
# the leave releases three of the kernel sockets, the context keeps one
# empty for its next join; their inodes go after an RCU grace period:
# waited for
four_freed() { four_left && [ $((sock1 - $(sock_objects))) -ge 3 ]; }
ok "the four filters held four kernel sockets: three gone with the leave, one kept (sock_inode_cache $sock1 - 3 or less, the session alive)" \
	wait_for 30 four_freed
# sock_inode_cache is the host's (other sockets come and go): the
# module's own count says that exactly one is kept
ip_socks() { awk '$1 == "ip_sockets" { print $2 }' /sys/kernel/debug/rdma_mcm/live; }
ok "the context keeps exactly one empty kernel socket (debugfs live: ip_sockets $(ip_socks))" \
	[ "$(ip_socks)" -eq 1 ]
sock2=$(sock_objects)
diag "sockets (sock_inode_cache) with the session, no filter: $sock2"
no_filters() { [ "$(filters)" -eq 0 ]; }
ok "the session left them: no filter entry" no_filters
# 10,000 IPv4 cycles (rdma_cm's send-only join and a filter each, in the
# socket the context keeps), then 10,000 IPv6 ones (rdma_mcm's own join
# and a filter each, likewise)
cycles 4 232.63.1.1 $S4 $R4 $CYCLES
sock_back() { [ "$(sock_objects)" -le "$sock2" ]; }
ok "the sockets are back to where they were ($sock2, sock_inode_cache)" wait_for 30 sock_back
echo quit >&7
exec 7>&-
wait_exit $ph 30
rc=$?
ok "the IPv4 session exits 0 (exit $rc)" [ $rc -eq 0 ]
session h -b $R6 join ff3e::63:10 --source $S6
ph=$SPID
exec 7> $T/h.in
ok "an IPv6 session joins ff3e::63:10 --source $S6" wait_for 30 joined_n $T/h.out ff3e::63:10 1
echo "leave ff3e::63:10" >&7
ok "and leaves it" wait_for 10 left_n $T/h.out ff3e::63:10 1
cycles 6 ff3e::63:200 $S6 $R6 $CYCLES
echo quit >&7
exec 7>&-
wait_exit $ph 30
rc=$?
ok "the IPv6 session exits 0 (exit $rc)" [ $rc -eq 0 ]
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
sock_end() { [ "$(sock_objects)" -le "$sock0" ]; }
ok "sock_inode_cache back to $sock0 after the sessions" wait_for 30 sock_end
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
