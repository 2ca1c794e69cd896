#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# RoCE as a snooping switch sees it, IPv4 (IGMPv3): a Linux bridge with
# IGMP snooping and its own querier between three hosts, each with a
# Soft-RoCE device (bridge.sh: the topology, per kernel). Host 1 sends
# RoCE v2 datagrams with rdma-mcm; every count is of the group's packets
# on each port of the switch (tc flower counters: what entered at sw1,
# what left by sw1, sw2, sw3), and the switch's view, its mdb, is logged
# at each step.
#
# - without a querier the switch floods an unregistered group to every
#   port; once it is the querier, to none;
# - two RDMA receivers (rdma-mcm recv, full members with their QPs
#   attached): the group reaches no port before h2's join, sw2 only after
#   it, sw2 and sw3 once h3 joins too; rxeh2 and rxeh3 receive every
#   datagram, from host 1; their exits prune the group;
# - leave, quit (close) and SIGKILL of a join session each prune the
#   group from sw2, with fast leave off (the querier's last-member queries)
#   and on (at once: the last-member interval is then 30 s), and nothing is
#   forwarded afterwards;
# - a send-only join sends no IGMP report (the sniffer on sw3 sees the
#   report of a full join made after it, and nothing of the group) and its
#   port gets none of the traffic;
# - source-specific joins are (S,G) INCLUDE entries, each on its port; the
#   switch forwards each source to its port only, and a source no host
#   included to none; h2's leave prunes its source from sw2 at once with
#   fast leave (the bridge's per-host tracking), h3's stays;
# - with force_igmp_version=2 on h3's netdev (the knob for switches that
#   mishandle IGMPv3) h3 reports in IGMPv2, the switch forwards to sw3,
#   rxeh3 receives, and the IGMPv2 leave prunes.
#
# 78-bridge-heal takes the switch's view through an mdb flush, a querier
# restart, a port flap and a device reset; 77-bridge-mld does this test's
# cases in IPv6 (MLDv2).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.sh"
bridge_skip_without_eht

BT=/tmp/bridge76
COUNT=10
BR_GROUPS='\.76\.'
mkdir -p $BT
# a session that died (a failed check) must not kill the script with
# SIGPIPE when it is told to leave: the write fails, the checks report
trap '' PIPE
at_exit bridge_teardown
br_family 4

plan 60
check "modprobe rdma_mcm" modprobe rdma_mcm
check "the switch (br0 in $BR_NS: snooping, IGMPv3, MLDv2) and three hosts on its ports, each with rxe: $(bridge_topology)" \
	bridge_setup
ok "each host's rxe lists its addresses as RoCE v2 GIDs" wait_for 60 bridge_ready
ok "without a querier the switch floods an unregistered group to every port" floods 4
ok "the switch becomes the querier and stops flooding unregistered groups" br_querier_on

case_receivers 239.76.0.1
case_prune 239.76.0.2 leave off
case_prune 239.76.0.3 quit off
case_prune 239.76.0.4 kill off
case_prune 239.76.0.5 leave on
case_prune 239.76.0.6 quit on
case_prune 239.76.0.7 kill on
case_send_only 239.76.0.8 239.76.0.9
case_ssm 232.76.0.1
case_old_version 239.76.0.10

ok "every session and receiver has exited" wait_for 20 none_left
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
ok "the switch has no entry of the test's groups" mdb_view_is ""
check "the hosts, their rxe devices and the switch removed" bridge_teardown
check "rmmod rdma_mcm" rmmod rdma_mcm
