#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# 76-bridge's cases in IPv6: the snooping switch (bridge.sh) with MLDv2,
# RoCE v2 datagrams to IPv6 groups, which rdma_cm cannot join on RoCE v2
# and rdma_mcm joins itself, MLD membership included:
#
# - the switch is the querier (MLDv2 queries from br0's link-local
#   address): an unregistered IPv6 group reaches no port;
# - two RDMA receivers on sw2 and sw3 (rdma-mcm recv of ff1e::77:1):
#   forwarded to no port before any join, to sw2 only, then to both; every
#   datagram received, from host 1; their exits prune the group;
# - leave and SIGKILL prune the group from sw2 after the querier's
#   last-listener queries, quit at once with fast leave, and nothing is
#   forwarded afterwards (76-bridge has each with fast leave off and on);
# - a send-only join sends no MLD report and gets no traffic;
# - source-specific joins (ff3e::77:1) are (S,G) INCLUDE entries, each
#   source forwarded to its port only, a third source to none; h2's leave
#   prunes its source at once with fast leave, h3's stays;
# - with force_mld_version=1 on h3's netdev, h3 reports in MLDv1, the
#   switch forwards to sw3, rxeh3 receives, and the MLDv1 done prunes.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.sh"
bridge_skip_without_eht

BT=/tmp/bridge77
COUNT=10
BR_GROUPS='::77:'
mkdir -p $BT
trap '' PIPE
at_exit bridge_teardown
br_family 6

plan 47
check "modprobe rdma_mcm" modprobe rdma_mcm
check "the switch (br0 in $BR_NS: snooping, IGMPv3, MLDv2) and three hosts on its ports, each with rxe: $(bridge_topology)" \
	bridge_setup
ok "each host's rxe lists its addresses as RoCE v2 GIDs" wait_for 60 bridge_ready
ok "the switch becomes the querier and stops flooding unregistered groups" br_querier_on

case_receivers ff1e::77:1
case_prune ff1e::77:2 leave off
case_prune ff1e::77:3 quit on
case_prune ff1e::77:4 kill off
case_send_only ff1e::77:8 ff1e::77:9
case_ssm ff3e::77:1
case_old_version ff1e::77:10

ok "every session and receiver has exited" wait_for 20 none_left
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
ok "the switch has no entry of the test's groups" mdb_view_is ""
check "the hosts, their rxe devices and the switch removed" bridge_teardown
check "rmmod rdma_mcm" rmmod rdma_mcm
