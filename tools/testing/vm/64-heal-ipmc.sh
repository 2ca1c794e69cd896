#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Healing of the memberships rdma_mcm joins beyond rdma_cm: IPv6 groups on
# RoCE v2 (rdma_mcm's own join, its MLD membership) and source-specific
# groups, IPv4 and IPv6 (the kernel sockets' INCLUDE filters), on rxe1,
# across the loss of the device and a port flap (65-heal does the same
# for 1,000 IPv4 any-source memberships). With bench_ipv6's addresses:
#
#  - three rdma-mcm join sessions (healing, the CLI's default): A holds
#    ff1e::64:1 (IPv6, any source), B 232.64.0.1 with source 192.0.2.1, C
#    ff3e::64:1 with source 2001:db8::1; and three rdma-mcm recv, each
#    with its QP attached: ff1e::64:2, 232.64.0.2 --source 192.0.2.1,
#    ff3e::64:2 --source 2001:db8::1;
#  - rdma link delete rxe1: /proc/net/igmp6 no longer lists the IPv6
#    groups, /proc/net/mcfilter and mcfilter6 have no entry of the
#    source-specific ones, igmp no IPv4 group; each session printed
#    rejoining and device-removed and counts its membership waiting, each
#    receiver runs on, told so;
#  - rdma link add rxe1: every membership is joined again on its handle
#    (rejoined, rejoins 1, last status ENODEV), igmp6 lists the IPv6 groups
#    again, the filters are back with INC 1 EXC 0; each receiver rebuilt
#    its verbs objects and receives exactly the datagrams sent to it after
#    the recovery, sent once (rxe0's sent_pkts, rxe1's rcvd_pkts and the
#    receivers' counts agree), from the source it asked for;
#  - a port flap (veth1 down and up, rxe1's port DOWN then ACTIVE, IPv6
#    addresses kept over it: keep_addr_on_down): every membership is
#    joined afterwards, igmp6 and the filters are as before, and three
#    receivers started before the flap receive exactly what is sent after
#    it;
#  - the sessions quit: nothing left (igmp, igmp6, filters, live objects).
#
# Whatever fails, rxe1 and veth1 come back, keep_addr_on_down is set
# back, the addresses come off the pair, the background processes are
# stopped (at_exit).

. "$(dirname "$0")/lib.sh"

T=/tmp/healip
COUNT=20
S4=$BENCH_IP0		# the sources, rxe0
S6=$BENCH_IP6_0
R4=$BENCH_IP1		# the members, rxe1
R6=$BENCH_IP6_1
GA=ff1e::64:1		# session A: IPv6, any source
GB=232.64.0.1		# session B: IPv4, source S4
GC=ff3e::64:1		# session C: IPv6, source S6
KEEP=/proc/sys/net/ipv6/conf/veth1/keep_addr_on_down
KEEP_WAS=$(cat $KEEP)

mkdir -p $T
running() { kill -0 "$1" 2>/dev/null; }
lines() { grep -c "$1" "$2"; }

# the test's groups: 232.64.0.0/16 (igmp prints 232.64.0.1 as 010040E8),
# ff1e::64:0/112 and ff3e::64:0/112
v4_groups() { igmp_count veth1 '^....40E8$'; }
v6_groups() {
	echo $(( $(igmp6_count veth1 "^$(ipv6_hex ff1e::64:0 | cut -c1-28)") +
		 $(igmp6_count veth1 "^$(ipv6_hex ff3e::64:0 | cut -c1-28)") ))
}
filters() { mcfilter_count '$3 ~ /^0xe840/'; }
filters6() { mcfilter_count -6 "index(\$3, \"$(ipv6_hex ff3e::64:0 | cut -c1-28)\") == 1"; }
port_state() { rdma link show rxe1/1 | awk '{ for (i = 1; i < NF; i++) if ($i == "state") print $(i + 1) }'; }
port_is() { [ "$(port_state)" = "$1" ]; }

# session NAME ARGS...: rdma-mcm ARGS (a join session), stdin from the
# fifo $T/NAME.in (held open on an fd in FD[NAME]), output in $T/NAME.out
declare -A FD PID
session() {
	local name=$1 fd
	shift
	rm -f $T/$name.in
	mkfifo $T/$name.in
	rdma-mcm "$@" < $T/$name.in > $T/$name.out 2>&1 &
	PID[$name]=$!
	exec {fd}> $T/$name.in
	FD[$name]=$fd
}
# stats_of NAME: the session's latest stats line, asked for now
stats_of() {
	local out=$T/$1.out n
	n=$(lines '^abi ' "$out")
	echo stats >&"${FD[$1]}"
	wait_for 10 eval "[ \$(lines '^abi ' $out) -gt $n ]" || return 1
	grep '^abi ' "$out" | tail -1
}
# one_is NAME STATE: the session's one membership is STATE
# (joined / waiting), by its stats
one_is() {
	case $2 in
	joined) stats_of "$1" | grep -q "memberships 1 joining 0 joined 1 error 0 waiting 0 " ;;
	waiting) stats_of "$1" | grep -q "memberships 1 joining 0 joined 0 error 0 waiting 1 " ;;
	esac
}
all_are() { one_is a "$1" && one_is b "$1" && one_is c "$1"; }
# listed_rejoined NAME GROUP: 'list' shows GROUP joined, rejoins 1, last
# status ENODEV
listed_rejoined() {
	echo list >&"${FD[$1]}"
	wait_for 10 grep -q "^ctx .* group $2 state joined .* rejoins 1 last_status -19 ENODEV" $T/$1.out
}

# receivers: rdma-mcm recv NAME GROUP [SOURCE], COUNT datagrams, healing
declare -A RPID
receiver() {
	local name=$1 g=$2 src=$3 l
	case $g in *:*) l=$R6 ;; *) l=$R4 ;; esac
	rdma-mcm -b $l -t 900 recv $g ${src:+--source $src} -c $COUNT > $T/$name.out 2>&1 &
	RPID[$name]=$!
}
# ready GROUP [SOURCE]: a receiver's membership and QP are in place
# (IPv4: the group's MAC on veth1, rxe's; IPv6: the MAC twice, MLD's and
# rxe's; with a source its filter entry): only for a fresh group, as rxe
# never takes a MAC away
ready() {
	local g=$1 src=$2
	case $g in
	*:*)	[ "$(dev_mcast_refs veth1 "$(mcast_mac6_of $g)")" -ge 2 ] || return 1
		[ -z "$src" ] && { in_igmp6 veth1 $g; return; }
		mcfilter6_is veth1 $g $src "1 0" ;;
	*)	qp_attached veth1 $g || return 1
		mcfilter_is veth1 $g $src "1 0" ;;
	esac
}
# deliver NAME GROUP SOURCE...: one round: SOURCE sends COUNT datagrams to
# GROUP once, for each receiver; each receiver must exit 0 with all of
# them, all from SOURCE; rxe1 must have received exactly what rxe0 sent
# (sum over the round)
deliver() {
	local r0 sent=0 got name g s
	r0=$(rxe_counter rxe1 rcvd_pkts)
	while [ $# -ge 3 ]; do
		name=$1 g=$2 s=$3
		shift 3
		check "$s sends $COUNT datagrams to $g once" send_counted $s $g $COUNT
		sent=$((sent + SENT))
		recv_wait "${RPID[$name]}" 60
		cat $T/$name.out
		ok "recv $g received all $COUNT (exit $RC), from $s alone" \
			eval "recv_got $T/$name.out $g $COUNT $RC &&
			      [ \"\$(grep '^from ' $T/$name.out)\" = 'from $s datagrams $COUNT' ]"
	done
	got=$(( $(rxe_counter rxe1 rcvd_pkts) - r0 ))
	ok "rxe1 received exactly what rxe0 sent in this round ($got of $sent)" [ "$got" -eq "$sent" ]
}

at_exit stop_jobs
at_exit "ip link set veth1 up"
at_exit "bench_rxe rxe1 veth1"
at_exit "echo $KEEP_WAS > $KEEP"
at_exit bench_ipv6_down

plan 53
check "modprobe rdma_mcm" modprobe rdma_mcm
check "$S6 on veth0, $R6 on veth1: RoCE v2 GIDs of rxe0 and rxe1" bench_ipv6
check "veth1 keeps its IPv6 addresses while down (keep_addr_on_down, for the flap)" \
	sh -c "echo 1 > $KEEP"

# --- the members --------------------------------------------------------------
session a -b $R6 join $GA
session b -b $R4 join $GB --source $S4
session c -b $R6 join $GC --source $S6
members_in() {
	in_igmp6 veth1 $GA && mcfilter_is veth1 $GB $S4 "1 0" && in_igmp veth1 $GB &&
		mcfilter6_is veth1 $GC $S6 "1 0" && in_igmp6 veth1 $GC
}
joined_all() {
	grep -q "^joined $GA " $T/a.out && grep -q "^joined $GB " $T/b.out &&
		grep -q "^joined $GC " $T/c.out
}
ok "sessions join $GA (any source), $GB from $S4, $GC from $S6 on rxe1" wait_for 30 joined_all
ok "igmp6 lists $GA; mcfilter $GB $S4 and mcfilter6 $GC $S6 INC 1 EXC 0; igmp and igmp6 the groups" \
	wait_for 10 members_in
receiver r6 ff1e::64:2
receiver r4s 232.64.0.2 $S4
receiver r6s ff3e::64:2 $S6
receivers_ready() { ready ff1e::64:2 && ready 232.64.0.2 $S4 && ready ff3e::64:2 $S6; }
ok "receivers on ff1e::64:2, 232.64.0.2 from $S4, ff3e::64:2 from $S6: joined, QPs attached" \
	wait_for 30 receivers_ready
diag "before: igmp $(v4_groups), igmp6 $(v6_groups), mcfilter $(filters), mcfilter6 $(filters6) of the test's groups"

# --- the device goes ------------------------------------------------------------
t0=$(date +%s)
check "rdma link delete rxe1 under them completes" timeout 60 rdma link delete rxe1
diag "rdma link delete rxe1 took $(( $(date +%s) - t0 )) s"
ok "the sessions and the receivers still run" \
	sh -c "kill -0 ${PID[a]} ${PID[b]} ${PID[c]} ${RPID[r6]} ${RPID[r4s]} ${RPID[r6s]}"
said() { grep -q "$2" $T/$1.out; }
each_said() { said a "$1 $GA" && said b "$1 $GB" && said c "$1 $GC"; }
ok "each session printed rejoining for its group" wait_for 30 each_said '^rejoining'
all_removed() { said a '^device-removed ctx [0-9]* status -19' && said b '^device-removed' && said c '^device-removed'; }
ok "each session printed device-removed (status -19 ENODEV)" wait_for 30 all_removed
ok "each session counts its membership waiting (stats: joined 0 waiting 1)" all_are waiting
nothing_on_veth1() {
	[ "$(v4_groups)" -eq 0 ] && [ "$(v6_groups)" -eq 0 ] &&
		[ "$(filters)" -eq 0 ] && [ "$(filters6)" -eq 0 ]
}
ok "igmp6 lists no group of the test, igmp none, mcfilter and mcfilter6 no entry (the MLD membership and the filters went with the device)" \
	wait_for 30 nothing_on_veth1
r_said() { grep -q "$2" $T/$1.out; }
recv_told() {
	local r
	for r in r6 r4s r6s; do
		r_said $r '^device-removed' && r_said $r '^rejoining ' || return 1
	done
}
ok "each receiver was told (rejoining, device-removed) and runs on" \
	eval 'wait_for 30 recv_told && kill -0 ${RPID[r6]} ${RPID[r4s]} ${RPID[r6s]}'

# --- it comes back ---------------------------------------------------------------
check "rdma link add rxe1 again" bench_rxe rxe1 veth1
t0=$(date +%s)
all_added() { said a '^device-added ctx [0-9]* port 1$' && said b '^device-added' && said c '^device-added'; }
ok "each session printed device-added" wait_for 60 all_added
ok "each session printed rejoined for its group" wait_for 60 each_said '^rejoined'
diag "rejoined $(( $(date +%s) - t0 )) s after rdma link add returned"
ok "each session counts its membership joined again" all_are joined
ok "session A lists $GA joined, rejoins 1, last status ENODEV" listed_rejoined a $GA
ok "session B lists $GB joined, rejoins 1, last status ENODEV" listed_rejoined b $GB
ok "session C lists $GC joined, rejoins 1, last status ENODEV" listed_rejoined c $GC
ok "igmp6 lists $GA again; the filters of $GB ($S4) and $GC ($S6) are back, INC 1 EXC 0" \
	wait_for 30 members_in
back_ready() { ready ff1e::64:2 && ready 232.64.0.2 $S4 && ready ff3e::64:2 $S6; }
ok "the receivers' groups are back too (igmp6, mcfilter, mcfilter6)" wait_for 60 back_ready
recv_back() {
	local r
	for r in r6 r4s r6s; do
		r_said $r '^device-added' && r_said $r '^rejoined ' || return 1
	done
}
ok "each receiver printed device-added and rejoined" wait_for 60 recv_back
# what the receivers get after the recovery: nothing was sent before
deliver r6 ff1e::64:2 $S6 r4s 232.64.0.2 $S4 r6s ff3e::64:2 $S6

# --- a port flap -------------------------------------------------------------------
receiver f6 ff1e::64:3
receiver f4s 232.64.0.3 $S4
receiver f6s ff3e::64:3 $S6
flap_ready() { ready ff1e::64:3 && ready 232.64.0.3 $S4 && ready ff3e::64:3 $S6; }
ok "receivers on ff1e::64:3, 232.64.0.3 from $S4, ff3e::64:3 from $S6: joined, QPs attached" \
	wait_for 30 flap_ready
rejoining0=$(( $(lines '^rejoining' $T/a.out) + $(lines '^rejoining' $T/b.out) + $(lines '^rejoining' $T/c.out) ))
check "ip link set veth1 down" ip link set veth1 down
ok "rxe1's port goes DOWN" wait_for 30 port_is DOWN
check "ip link set veth1 up" ip link set veth1 up
ok "rxe1's port is ACTIVE again" wait_for 30 port_is ACTIVE
ok "every membership of the sessions is joined after the flap" wait_for 120 all_are joined
diag "rejoining lines of the sessions during the flap: $(( $(lines '^rejoining' $T/a.out) + $(lines '^rejoining' $T/b.out) + $(lines '^rejoining' $T/c.out) - rejoining0 ))"
ok "after the flap igmp6 lists $GA, the filters of $GB and $GC are INC 1 EXC 0" \
	wait_for 60 members_in
flap_back() {
	in_igmp6 veth1 ff1e::64:3 && mcfilter_is veth1 232.64.0.3 $S4 "1 0" &&
		mcfilter6_is veth1 ff3e::64:3 $S6 "1 0"
}
ok "and the flap receivers' groups: igmp6, mcfilter, mcfilter6" wait_for 60 flap_back
flap_running() { kill -0 ${RPID[f6]} ${RPID[f4s]} ${RPID[f6s]}; }
ok "the flap receivers run on" flap_running
# a receiver whose membership waited during the flap attaches its QP again
# at rejoined: wait for it before sending
flap_attached() {
	local r
	for r in f6 f4s f6s; do
		[ "$(lines '^rejoining ' $T/$r.out)" -eq "$(lines '^rejoined ' $T/$r.out)" ] || return 1
	done
}
ok "every flap receiver that was told rejoining was told rejoined" wait_for 60 flap_attached
deliver f6 ff1e::64:3 $S6 f4s 232.64.0.3 $S4 f6s ff3e::64:3 $S6

# --- the end ------------------------------------------------------------------------
for s in a b c; do
	echo quit >&"${FD[$s]}"
done
rcs=
for s in a b c; do
	wait_exit "${PID[$s]}" 30
	rcs="$rcs$?"
	fd=${FD[$s]}
	exec {fd}>&-
done
ok "the three sessions quit, exit 0 ($rcs)" [ "$rcs" = 000 ]
cat $T/a.out $T/b.out $T/c.out | grep -vE '^(abi|ctx) '
ok "nothing of the test is left: igmp, igmp6, mcfilter, mcfilter6" wait_for 20 nothing_on_veth1
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
check "keep_addr_on_down set back" sh -c "echo $KEEP_WAS > $KEEP"
check "the global IPv6 addresses come off the pair again" bench_ipv6_down
check "rmmod rdma_mcm" rmmod rdma_mcm
