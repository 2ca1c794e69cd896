#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The switch's view through what makes switches forget (bridge.sh's
# snooping switch and hosts): h2 holds four memberships, 239.78.0.1 and
# ff1e::78:1 from any source, 232.78.0.1 from 198.51.100.1 and ff3e::78:1
# from 2001:db8:76::1, h3 one, 239.78.0.2; V is the switch's view of them
# (its mdb: seven entries). After each event the view must come back to V
# on its own, from the reports the hosts' kernels send, and host 1's
# datagrams reach sw2 again (an any-source IPv4 group and a
# source-specific IPv6 one, counted on each port):
#
# - an mdb flush (every entry deleted; 'bridge mdb flush' where iproute2
#   and the kernel have it): the group's datagrams reach no port; h2's
#   answers to the next general query (queries every 5 s; is_ex records,
#   seen by a sniffer on sw2) bring V back. h2's reports are dropped at
#   sw2 from before the flush until the loss was counted, so that no
#   query in between heals the view early;
# - a querier restart: with the querier off the switch floods every
#   group to every port (it knows no querier), and the view is lost
#   meanwhile (flushed); the answers to its first query once it is on
#   again bring V back, and it stops flooding;
# - a port flap (h2 down and up; IPv6 addresses kept): the switch drops
#   sw2's entries with the carrier, keeps sw3's; h2's kernel reports its
#   groups again on link up, unasked (to_ex), and V is back; rdma_mcm's
#   memberships stay joined (no rejoin on RoCE);
# - a device reset (rdma link delete / add of rxeh2): rdma_mcm leaves the
#   groups with the device (its memberships wait, ENODEV) and the switch
#   prunes sw2's entries; once the device is back every membership is
#   rejoined on its handle, with a join's reports (to_ex), and the view is
#   V again.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.sh"

BT=/tmp/bridge78
COUNT=10
BR_GROUPS='\.78\.|::78:'
mkdir -p $BT
trap '' PIPE
at_exit bridge_teardown

GA4=239.78.0.1		# h2, any source
GS4=232.78.0.1		# h2, from S4
GA6=ff1e::78:1		# h2, any source
GS6=ff3e::78:1		# h2, from S6
GB4=239.78.0.2		# h3, any source
S4=$(br4 1)
S6=$(br6 1)

plan 32
check "modprobe rdma_mcm" modprobe rdma_mcm
check "the switch (br0 in $BR_NS: snooping, IGMPv3, MLDv2) and three hosts on its ports, each with rxe: $(bridge_topology)" \
	bridge_setup
ok "each host's rxe lists its addresses as RoCE v2 GIDs" wait_for 60 bridge_ready
ok "the switch becomes the querier and stops flooding unregistered groups" br_querier_on

bsession a4 2 -b "$(br4 2)" join $GA4
say a4 "join $GS4 --source $S4"
bsession a6 2 -b "$(br6 2)" join $GA6
say a6 "join $GS6 --source $S6"
bsession b4 3 -b "$(br4 3)" join $GB4
# view_full: every membership joined, the switch has each entry
view_full() {
	joined_in a4 $GA4 && joined_in a4 $GS4 && joined_in a6 $GA6 && joined_in a6 $GS6 &&
		joined_in b4 $GB4 &&
		mdb_has 2 $GA4 "" exclude && mdb_has 2 $GS4 "$S4" include &&
		mdb_has 2 $GA6 "" exclude && mdb_has 2 $GS6 "$S6" include &&
		mdb_has 3 $GB4 "" exclude
}
ok "h2 joins $GA4, $GA6, $GS4 from $S4 and $GS6 from $S6, h3 $GB4: the switch has them all" \
	wait_for 60 view_full
V=$(mdb_view)
mdb_log "V"
diag "V has $(echo "$V" | grep -c .) entries"
forwarded "initial, IPv4 any-source" "$S4" $GA4 $COUNT $COUNT 0
forwarded "initial, IPv6 source-specific" "$S6" $GS6 $COUNT $COUNT 0

# back_traffic EVENT: traffic to sw2 again (2 checks)
back_traffic() {
	forwarded "after $1, IPv4 any-source" "$S4" $GA4 $COUNT $COUNT 0
	forwarded "after $1, IPv6 source-specific" "$S6" $GS6 $COUNT $COUNT 0
}

# sniffed TYPE: the sniffer on sw2 (started before) saw h2's TYPE record
# of GA4 (is_ex: the answer to a query; to_ex: the host's own report of a
# change, as at a join)
sniffed() {
	local rc
	sniff_wait
	rc=$?
	cat $BT/sniff
	[ $rc -eq 0 ] && grep -q "^igmpv3 $GA4 $1 " $BT/sniff
}

# -- mdb flush, healed by the next general query. h2's reports are gated
# at sw2 meanwhile, so that a periodic query cannot heal the view before
# its loss is counted: the query that heals it is one after the gate opens
ok "mdb flush: the switch has no entry of the test's groups (h2's reports gated)" \
	eval "gate_reports 2 on && mdb_flush"
mdb_log "flushed"
forwarded "flushed: unregistered, pruned everywhere" "$S4" $GA4 $COUNT 0 0
sw_sniff_start $BT/sniff 2 -t 60 --until "$GA4,is_ex"
gate_reports 2 off
ok "the next general query's reports (h2's is_ex) bring V back" \
	eval "sniffed is_ex && wait_for 60 mdb_view_is \"\$V\""
mdb_log "after the next query"
back_traffic "the flush"

# -- querier restart
_floods_both() { floods 4 && floods 6; }
ok "querier off: the switch, knowing no querier, floods unregistered groups to every port" \
	eval "br_querier_off && _floods_both"
ok "the view lost meanwhile (flushed)" mdb_flush
forwarded "no querier, no entry: flooded to every port" "$S4" $GA4 $COUNT $COUNT $COUNT
sw_sniff_start $BT/sniff 2 -t 60 --until "$GA4,is_ex"
ok "querier on again: the reports (is_ex) to its first general query bring V back" \
	eval "br_set mcast_querier 1 && sniffed is_ex && wait_for 60 mdb_view_is \"\$V\""
mdb_log "after the querier's restart"
_ready_both() { querier_ready 4 && querier_ready 6; }
ok "and the switch stops flooding" wait_for 20 _ready_both
back_traffic "the querier's restart"

# -- port flap
sw2_none() { ! mdb_view | grep -q "^dev br0 port sw2 " && mdb_has 3 $GB4 "" exclude; }
ok "h2 down: the switch drops sw2's entries with its carrier, keeps sw3's" \
	eval "on 2 ip link set h2 down && wait_for 20 sw2_none"
mdb_log "h2 down"
no_rejoin() { ! grep -q '^rejoining' $BT/a4.out && ! grep -q '^rejoining' $BT/a6.out; }
sw_sniff_start $BT/sniff 2 -t 60 --until "$GA4,to_ex"
ok "h2 up: its kernel reports again on its own (to_ex), V is back; rdma_mcm's memberships stayed joined (no rejoin)" \
	eval "on 2 ip link set h2 up && sniffed to_ex && wait_for 60 mdb_view_is \"\$V\" && no_rejoin"
mdb_log "h2 up"
back_traffic "the port flap"

# -- device reset
waiting_all() {
	grep -q "^rejoining $GA4 .* ENODEV" $BT/a4.out && grep -q "^rejoining $GS4 .* ENODEV" $BT/a4.out &&
		grep -q "^rejoining $GA6 .* ENODEV" $BT/a6.out &&
		grep -q "^rejoining $GS6 .* ENODEV" $BT/a6.out && sw2_none
}
ok "rdma link delete rxeh2: h2's memberships wait (ENODEV), the switch prunes sw2's entries" \
	eval "on 2 rdma link delete rxeh2 && wait_for 30 waiting_all"
mdb_log "rxeh2 deleted"
rejoined_all() {
	grep -q "^rejoined $GA4 " $BT/a4.out && grep -q "^rejoined $GS4 " $BT/a4.out &&
		grep -q "^rejoined $GA6 " $BT/a6.out && grep -q "^rejoined $GS6 " $BT/a6.out &&
		mdb_view_is "$V"
}
sw_sniff_start $BT/sniff 2 -t 60 --until "$GA4,to_ex"
ok "rdma link add rxeh2: every membership rejoined (to_ex: a join's report), the view is V again" \
	eval "on 2 rdma link add rxeh2 type rxe netdev h2 && sniffed to_ex && wait_for 60 rejoined_all"
mdb_log "rxeh2 added"
back_traffic "the device reset"

say a4 quit
say a6 quit
say b4 quit
ok "every session quits" wait_for 20 none_left
ok "the switch prunes every entry of the test's groups" wait_for 20 mdb_view_is ""
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
check "the hosts, their rxe devices and the switch removed" bridge_teardown
check "rmmod rdma_mcm" rmmod rdma_mcm
