#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# IPv6 groups over RoCE v2, which upstream rdma_cm refuses
# (rdma_join_multicast() returns -ENOTSUPP for a RoCE v2 port, and sends no
# MLD report): rdma_mcm joins them itself. With 2001:db8::1 on veth0 (rxe0)
# and 2001:db8::2 on veth1 (rxe1) (bench_ipv6), groups ff1e::62:N:
#
# - rdma-core's mckey cannot join an IPv6 group: 'failure joining: Unknown
#   error 524' (-ENOTSUPP, rdma_cm's refusal on RoCE v2), no MLD; rdma-mcm
#   then joins that same group on this kernel;
# - rdma-mcm recv on 2001:db8::2 receives exactly the datagrams rdma-mcm
#   send on 2001:db8::1 puts on the wire, sent once (rxe0's sent_pkts,
#   rxe1's rcvd_pkts and recv's count agree), and says where they came
#   from (the GRH's source GID: the sender's bound address);
#   /proc/net/igmp6 lists the group on veth1 while it is joined, the QP
#   attach puts the group's MAC 33:33:.. on veth1 (a second time:
#   the MLD membership holds it once), recv's exit drops the MLD
#   membership and its reference (rxe keeps its own: see RXE_KEEPS);
# - a join session: igmp6 lists its groups, 'rdma-mcm -j show' says
#   joined_by rdma_mcm (valid against the schema), its stdin 'leave' and
#   'quit' drop the MLD membership, a send-only join never makes one (the
#   sniffer on veth0 sees the next full member's report and none for it),
#   SIGKILL of a session holding five groups leaves none;
# - the test ULP on 2001:db8::2 joins (joined, attached=1,
#   joined_by=rdma_mcm, igmp6), receives exactly what rdma-mcm sends from
#   rxe0, leaves (igmp6 drops it); after the leave what is sent to the
#   group reaches veth1's IPv6 stack (Ip6InMcastPkts) but neither rxe1 nor
#   the ULP (counted again behind a second group's datagrams, which the
#   ULP receives exactly); cancels joins in flight (no late callback,
#   nothing in igmp6) and closes with three memberships (none left);
# - at the end rdma_mcm's live counters are zero and igmp6 holds none of
#   the test's groups. Whatever fails, the addresses come off the pair and
#   what runs in the background is stopped (at_exit), so that the next
#   test does not fail for this one.

. "$(dirname "$0")/lib.sh"

CTL=/sys/kernel/debug/rdma_mcm_test_ulp/control
STATUS=/sys/kernel/debug/rdma_mcm_test_ulp/status
T=/tmp/ipv6
COUNT=20
SRC0=$BENCH_IP6_0	# rxe0, the sender
SRC1=$BENCH_IP6_1	# rxe1, the receivers
# every group of this test is in ff1e::62:0/112
PREFIX_RE="^$(ipv6_hex ff1e::62:0 | cut -c1-28)"

mkdir -p $T
running() { kill -0 "$1" 2>/dev/null; }
not_running() { ! running "$1"; }
test_groups() { echo $(( $(igmp6_count veth1 "$PREFIX_RE") + $(igmp6_count veth0 "$PREFIX_RE") )); }
no_test_groups() { [ "$(test_groups)" -eq 0 ]; }
mac_refs() { dev_mcast_refs veth1 "$(mcast_mac6_of "$1")"; }
mac_refs_is() { [ "$(mac_refs "$1")" -eq "$2" ]; }

# rxe keeps a group's MAC on the netdev after its last QP detached, in
# every bench kernel (6.1, 6.12, 7.2): rxe_detach_mcg() tears the group
# down with __rxe_destroy_mcg(), which never calls rxe_mcast_del(). After
# a leave the MLD membership's reference goes; rxe's stays.
RXE_KEEPS="rxe_detach_mcg() -> __rxe_destroy_mcg() never calls rxe_mcast_del()"
mac_refs_at_most() { [ "$(mac_refs "$1")" -le "$2" ]; }

at_exit stop_jobs
at_exit ulp_cleanup
at_exit bench_ipv6_down

plan 67
check "modprobe rdma_mcm" modprobe rdma_mcm
check "$SRC0 on veth0, $SRC1 on veth1: RoCE v2 GIDs of rxe0 and rxe1" bench_ipv6

# --- scopes no link carries: refused (kernel review finding 9) -------------
# an interface-local group (ff01::/16, loopback only) would be joined by
# rdma_mcm itself on RoCE v2 and its datagrams put on the wire by a
# hardware HCA; reserved scopes likewise
scope_refused() {
	local g rc
	for g in ff01::62:1 ff00::62:1 ff1f::62:1; do
		timeout 30 rdma-mcm -b $SRC1 join $g < /dev/null > $T/scope.out 2>&1
		rc=$?
		echo "rdma-mcm join $g: exit $rc: $(cat $T/scope.out)"
		[ $rc -ne 0 ] && [ $rc -ne 124 ] || return 1
		grep -q "Invalid argument" $T/scope.out || return 1
		not_in_igmp6 veth1 $g || return 1
	done
}
ok "interface-local and reserved-scope groups are refused (EINVAL), none joined" scope_refused
# :: asks an InfiniBand SA for a group (82-ib): no SA assigns one on RoCE,
# the kernel refuses it
zero_refused() {
	timeout 30 rdma-mcm -b $SRC1 join :: < /dev/null > $T/zero.out 2>&1
	local rc=$?
	echo "rdma-mcm join ::: exit $rc: $(cat $T/zero.out)"
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "Invalid argument" $T/zero.out
}
ok "the group :: is refused on RoCE (EINVAL)" zero_refused

# --- the contrast: rdma_cm (through mckey) cannot join an IPv6 group ------
# rdma_join_multicast() returns -ENOTSUPP (524, which glibc has no text
# for) when the port's GID type is RoCE v2; rdma_mcm joins the same group
G=ff1e::62:99
timeout 60 mckey -m $G -b $SRC1 > $T/mckey.out 2>&1
rc=$?
cat $T/mckey.out
diag "mckey -m $G -b $SRC1 (exit $rc): $(grep -m1 'failure joining' $T/mckey.out)"
ok "rdma-core's mckey cannot join $G on RoCE v2: 'failure joining: Unknown error 524' (ENOTSUPP; exit $rc)" \
	sh -c "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'failure joining: Unknown error 524\$' $T/mckey.out"
ok "mckey's failed join left no MLD membership" not_in_igmp6 veth1 $G
rm -f $T/c.in
mkfifo $T/c.in
rdma-mcm -b $SRC1 join $G < $T/c.in > $T/c.out 2>&1 &
cpid=$!
exec 7> $T/c.in
c_joined() { grep -q "^joined $G " $T/c.out && in_igmp6 veth1 $G; }
ok "rdma-mcm joins that same group $G on this kernel: joined, igmp6 lists it on veth1" \
	wait_for 30 c_joined
echo quit >&7
exec 7>&-
wait_exit $cpid 30
rc=$?
cat $T/c.out
c_left() { [ "$1" -eq 0 ] && grep -q "^left $G " $T/c.out && wait_for 10 not_in_igmp6 veth1 $G; }
ok "it quits (exit $rc) and leaves $G: igmp6 drops it" c_left $rc

# --- recv and send ---------------------------------------------------------
# Sent once: recv must get exactly what rxe0 put on the wire (lib.sh,
# send_counted, says why nothing is lost on this path)
G=ff1e::62:1
rdma-mcm -b $SRC1 -t 300 recv $G -c $COUNT > $T/recv.out 2>&1 &
pid=$!
ok "rdma-mcm recv on $SRC1 joins $G: /proc/net/igmp6 lists it on veth1" \
	wait_for 30 in_igmp6 veth1 $G
ok "recv attached its QP: $(mcast_mac6_of $G) twice on veth1 (MLD and rxe)" \
	wait_for 30 mac_refs_is $G 2
r0=$(rxe_counter rxe1 rcvd_pkts)
check "rdma-mcm on $SRC0 sends $COUNT datagrams to $G once; rxe0 puts $COUNT on the wire" \
	send_counted $SRC0 $G $COUNT
recv_wait $pid 60
cat $T/recv.out
ok "recv received all $SENT datagrams rxe0 sent (exit $RC, count $COUNT of $COUNT)" \
	recv_got $T/recv.out $G $COUNT $RC
got=$(( $(rxe_counter rxe1 rcvd_pkts) - r0 ))
ok "rxe1 received exactly what rxe0 sent (rcvd_pkts +$got, sent $SENT)" [ "$got" -eq "$SENT" ]
ok "recv's source report: from $SRC0 datagrams $COUNT, no other source (the GRH's source GID is the sender's bound address)" \
	sh -c "[ \"\$(grep '^from ' $T/recv.out)\" = 'from $SRC0 datagrams $COUNT' ]"
ok "recv left $G on exit: igmp6 no longer lists it" wait_for 10 not_in_igmp6 veth1 $G
ok "and the MLD membership's reference to the MAC (rxe keeps its own: $RXE_KEEPS)" \
	wait_for 10 mac_refs_at_most $G 1

# the same as JSON: the summary object, valid against the schema
G=ff1e::62:2
rdma-mcm -j -b $SRC1 -t 300 recv $G -c $COUNT > $T/recv.json 2>&1 &
pid=$!
recv_ready() { in_igmp6 veth1 $G && mac_refs_is $G 2; }
ok "rdma-mcm -j recv joins $G and attaches its QP (igmp6, the MAC twice)" wait_for 30 recv_ready
r0=$(rxe_counter rxe1 rcvd_pkts)
check "rdma-mcm on $SRC0 sends $COUNT datagrams to $G once" send_counted $SRC0 $G $COUNT
recv_wait $pid 60
cat $T/recv.json
got=$(( $(rxe_counter rxe1 rcvd_pkts) - r0 ))
grep '^{"event":"received"' $T/recv.json > $T/received.json
json_ok "recv -j's summary is valid against the schema" received $T/received.json 1
ok "recv -j: exit 0, count $COUNT, sources [{$SRC0: $COUNT}]; rxe1 received $got of $SENT sent" \
	sh -c "[ $RC -eq 0 ] && [ $got -eq $SENT ] && grep -q '\"count\":$COUNT,.*\"sources\":\[{\"addr\":\"$SRC0\",\"datagrams\":$COUNT}\]' $T/received.json"

# --- a join session: show, leave, send-only, quit --------------------------
G1=ff1e::62:3
G2=ff1e::62:4
GS=ff1e::62:5		# send-only
GF=ff1e::62:6		# a full member joined after it
rm -f $T/s.in
mkfifo $T/s.in
rdma-mcm -b $SRC1 join $G1 $G2 < $T/s.in > $T/s.out 2>&1 &
spid=$!
exec 7> $T/s.in
joined_in() { grep -q "^joined $2 " "$1"; }
both_joined() { joined_in $T/s.out $G1 && joined_in $T/s.out $G2 && in_igmp6 veth1 $G1 && in_igmp6 veth1 $G2; }
ok "a join session joins $G1 and $G2: igmp6 lists both on veth1" wait_for 30 both_joined
ok "without a QP, $G1's MAC is on veth1 once (the MLD membership's)" mac_refs_is $G1 1
rdma-mcm -j show > $T/show.json
rdma-mcm show > $T/show.txt
cat $T/show.json $T/show.txt
json_ok "show -j is valid against the schema" member $T/show.json 2
ok "show -j: $G1 joined by rdma_mcm on rxe1 from $SRC1, MGID the group, Q_Key 0x01234567" \
	has $T/show.json $G1 '"joined_by":"rdma_mcm"' '"family":"inet6"' \
	"\"src\":\"$SRC1\"" "\"mgid\":\"$G1\"" '"qkey":19088743' '"dev":"rxe1"' \
	'"state":"joined"' '"type":"full"'
ok "show (text): $G2 ... joined-by rdma_mcm" \
	grep -q " group $G2 state joined type full .* joined-by rdma_mcm\$" $T/show.txt

echo "leave $G1" >&7
ok "stdin 'leave $G1' leaves it" wait_for 10 grep -q "^left $G1 " $T/s.out
g1_left() { wait_for 10 not_in_igmp6 veth1 $G1 && in_igmp6 veth1 $G2; }
ok "igmp6 no longer lists $G1, still lists $G2" g1_left

# a send-only join sends no MLD report: the sniffer on veth0 sees the
# report of the full member joined after it, and none for the send-only
# group before it (both come from veth1's MLD, in order)
sniff_start $T/sniff -i veth0 -d in -t 60 --until $GF
echo "join --send-only $GS" >&7
ok "stdin 'join --send-only $GS' joins it" wait_for 30 joined_in $T/s.out $GS
echo "join $GF" >&7
ok "then $GF (full member) joins" wait_for 30 joined_in $T/s.out $GF
sniff_wait
rc=$?
cat $T/sniff
ok "the sniffer on veth0 saw an MLDv2 report for $GF (exit $rc)" [ $rc -eq 0 ]
no_mld() { not_in_igmp6 veth1 $GS && ! grep -q " $GS " $T/sniff; }
ok "a send-only join is never in igmp6 and sent no MLD report" no_mld
rdma-mcm show group $GS > $T/show-gs.txt
ok "show: $GS is send-only, joined by rdma_mcm" \
	grep -q " group $GS state joined type send-only .* joined-by rdma_mcm\$" $T/show-gs.txt

echo quit >&7
exec 7>&-
wait_exit $spid 30
rc=$?
cat $T/s.out
quit_clean() { not_in_igmp6 veth1 $G2 && not_in_igmp6 veth1 $GF; }
quit_ok() { [ "$1" -eq 0 ] && wait_for 10 quit_clean; }
ok "quit (exit $rc) left every group: igmp6 drops $G2 and $GF" quit_ok $rc

groups=()
for i in $(seq 10 14); do groups+=("ff1e::62:$i"); done
rdma-mcm -b $SRC1 join "${groups[@]}" < /dev/null > $T/kill.out 2>&1 &
pid=$!
five() {
	local g
	[ "$(grep -c '^joined ' $T/kill.out)" -eq 5 ] || return 1
	for g in "${groups[@]}"; do in_igmp6 veth1 $g || return 1; done
}
ok "a session holds five IPv6 groups, all in igmp6" wait_for 60 five
kill -KILL $pid
wait $pid 2>/dev/null
all_clean() { no_test_groups && live_zero; }
ok "after SIGKILL, igmp6 lists none of them and no live object remains" wait_for 20 all_clean

# --- the test ULP, a kernel UD QP on rxe1 ---------------------------------------
cmd() { echo "$*" > $CTL; }
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $STATUS; }
stat_is() { [ "$(stat_of "$1")" = "$2" ]; }
member_line() { awk -v g="$1" '$1 == "member" && $3 == g' $STATUS; }
member_is() { [ "$(member_line "$1" | awk '{ print $4 }')" = "$2" ]; }
member_gone() { [ -z "$(member_line "$1")" ]; }

check "modprobe rdma_mcm_test_ulp" modprobe rdma_mcm_test_ulp
check "the ULP opens a context on $SRC1 (rxe1) with a UD QP" cmd open $SRC1
ok "the ULP's verbs objects are up" stat_is verbs 1
G=ff1e::62:100
check "the ULP joins $G with its QP" cmd join $G
ok "$G reaches joined" wait_for 30 member_is $G joined
member_line $G
status_is() { member_line "$1" | grep -q " $2\$"; }
ok "its status: attached=1 sources=0 joined_by=rdma_mcm" \
	status_is $G "attached=1 rejoins=0 sources=0 joined_by=rdma_mcm"
ulp_joined_net() { in_igmp6 veth1 $G && mac_refs_is $G 2; }
ok "igmp6 lists $G on veth1; its MAC twice (MLD and the QP's attach)" ulp_joined_net
check "rdma-mcm on rxe0 sends $COUNT datagrams to $G once" send_counted $SRC0 $G $COUNT
ok "the ULP received every datagram rxe0 sent ($SENT)" wait_for 60 stat_is rx "$SENT"
diag "rxe0 sent $SENT datagrams to $G, the ULP received $(stat_of rx)"
ok "no receive errors" stat_is rx_errors 0
check "the ULP leaves $G" cmd leave $G
ulp_left() { member_gone $G && wait_for 10 not_in_igmp6 veth1 $G; }
ok "$G is no longer a membership; igmp6 drops it" ulp_left

# After the leave the QP receives nothing of $G (40-ulp checks IPv4): the
# datagrams reach veth1's IPv6 stack, which drops them without the MLD
# membership (ip6_mc_input()), so neither rxe1 nor the ULP sees them.
# Then a second group's datagrams, sent after them, reach the ULP; rxe1's
# count over both is exactly the second group's: nothing of $G came late.
rx=$(stat_of rx)
r0=$(rxe_counter rxe1 rcvd_pkts)
m0=$(snmp6_of veth1 Ip6InMcastPkts)
check "rdma-mcm on rxe0 sends $COUNT more datagrams to $G once" send_counted $SRC0 $G $COUNT
left_sent=$SENT
reached_ip6() { [ $(( $(snmp6_of veth1 Ip6InMcastPkts) - m0 )) -ge "$left_sent" ]; }
ok "they reached veth1's IPv6 stack (Ip6InMcastPkts +$left_sent at least)" wait_for 30 reached_ip6
nothing_after_leave() { [ "$(rxe_counter rxe1 rcvd_pkts)" -eq "$r0" ] && stat_is rx "$rx"; }
ok "after the leave none of them reached rxe1 (rcvd_pkts) or the ULP (rx $rx)" nothing_after_leave
G2=ff1e::62:101
cmd join $G2
ok "the ULP joins $G2" wait_for 30 member_is $G2 joined
check "rdma-mcm on rxe0 sends $COUNT datagrams to $G2 once" send_counted $SRC0 $G2 $COUNT
ok "the ULP receives all $SENT of $G2" wait_for 60 stat_is rx $((rx + SENT))
got=$(( $(rxe_counter rxe1 rcvd_pkts) - r0 ))
ok "rxe1 received $G2's $SENT and nothing of $G ($got since the leave)" [ "$got" -eq "$SENT" ]
check "the ULP leaves $G2" cmd leave $G2

# joins left at once (cancel of a join in flight): a join may complete
# before its leave (its callback first, legitimately); none may call back
# after rdma_mcm_leave() returned, nothing of the group stays behind
joined_before=$(stat_of joined_callbacks)
jl_ok=0
for i in $(seq 110 119); do
	cmd joinleave ff1e::62:$i && jl_ok=$((jl_ok + 1))
done
ok "10 IPv6 joins left at once all returned 0 ($jl_ok)" [ "$jl_ok" -eq 10 ]
# a join waited for after them: what the cancelled ones might still have
# done would have come first
GW=ff1e::62:120
cmd join $GW
ok "a join after them reaches joined" wait_for 30 member_is $GW joined
diag "of 10 joins left at once, $(( $(stat_of joined_callbacks) - joined_before - 1 )) completed before their leave"
ok "no callback after rdma_mcm_leave() returned" stat_is late_callbacks 0
jl_gone() {
	local i
	for i in $(seq 110 119); do
		member_gone ff1e::62:$i && not_in_igmp6 veth1 ff1e::62:$i || return 1
	done
}
ok "the cancelled joins left no membership and nothing in igmp6" jl_gone
cmd leave $GW

for g in ff1e::62:130 ff1e::62:131 ff1e::62:132; do cmd join $g; done
three() { member_is ff1e::62:130 joined && member_is ff1e::62:131 joined && member_is ff1e::62:132 joined; }
three_igmp6() { in_igmp6 veth1 ff1e::62:130 && in_igmp6 veth1 ff1e::62:131 && in_igmp6 veth1 ff1e::62:132; }
three_joined() { wait_for 30 three && three_igmp6; }
ok "the ULP joins three more IPv6 groups, all in igmp6" three_joined
check "close the context with three memberships" cmd close
ok "close left every group: igmp6 lists none of the test's groups" wait_for 10 no_test_groups
check "rmmod rdma_mcm_test_ulp" rmmod rdma_mcm_test_ulp

# --- the end ----------------------------------------------------------------------
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
ok "igmp6 holds none of the test's groups (veth0, veth1)" no_test_groups
check "the global IPv6 addresses come off the pair again" bench_ipv6_down
check "rmmod rdma_mcm" rmmod rdma_mcm
