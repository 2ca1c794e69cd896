#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# rdma_mcm's ib_client sees RDMA devices: the ones present at load, one
# removed and re-added with 'rdma link', and all of them again at unload.
# The module logs them at debug level; dynamic debug turns that on.
#
# ib_uverbs loaded again after rdma_mcm registers its ib_client after
# rdma_mcm's; rdma_mcm then moves its own after it (kernel review finding
# 10), so a removal still reaches /dev/rdma_mcm's users before ib_uverbs
# waits for them: 'rdma link delete' completes while 'rdma-mcm recv'
# holds a QP on the device (rxe has no disassociate_ucontext: without the
# move the deletion waits until recv exits, which it does not).

. "$(dirname "$0")/lib.sh"

# logged NAME WHAT MARK: the kernel logged "rdma_mcm: device NAME WHAT" after MARK.
logged() { kmsg_since "$3" | grep -q "rdma_mcm: device $1 $2"; }
at_exit stop_jobs

plan 17
mark=$(kmsg_mark)
check "modprobe rdma_mcm dyndbg=+p" modprobe rdma_mcm dyndbg=+p
ok "rxe0 present at load is reported added" logged rxe0 added "$mark"
ok "rxe1 present at load is reported added" logged rxe1 added "$mark"

mark=$(kmsg_mark)
check "rdma link delete rxe1" rdma link delete rxe1
ok "rxe1 is reported removed" wait_for 10 logged rxe1 removed "$mark"

mark=$(kmsg_mark)
check "rdma link add rxe1 type rxe netdev veth1" bench_rxe rxe1 veth1
ok "rxe1 is reported added again" wait_for 10 logged rxe1 added "$mark"

# --- ib_uverbs reloaded after rdma_mcm ------------------------------------
# rdma_rxe uses ib_uverbs (as mlx5_ib does): uverbs goes only with it
uverbs_out() {
	rdma link delete rxe0 && rdma link delete rxe1 &&
		modprobe -r rdma_ucm rdma_rxe ib_uverbs
}
uverbs_in() {
	modprobe ib_uverbs && modprobe rdma_rxe && modprobe rdma_ucm &&
		bench_rxe rxe0 veth0 && bench_rxe rxe1 veth1
}
check "rxe0, rxe1 deleted; modprobe -r rdma_ucm rdma_rxe ib_uverbs (rdma_mcm stays)" uverbs_out
check "modprobe ib_uverbs rdma_rxe rdma_ucm after rdma_mcm; rxe0 and rxe1 again" uverbs_in
rdma-mcm -b $BENCH_IP1 -t 120 recv 239.20.0.1 > /tmp/ibc-recv.out 2>&1 &
rpid=$!
ok "rdma-mcm recv joined 239.20.0.1 with its QP on rxe1" wait_for 30 qp_attached veth1 239.20.0.1
rdma link delete rxe1 &
dpid=$!
ok "rdma link delete rxe1 completes while recv holds the device" \
	wait_for 60 eval "! kill -0 $dpid 2>/dev/null"
kill "$rpid" 2>/dev/null	# lets a deletion still waiting go on
wait "$dpid"
ok "recv was told device-removed" grep -q '^device-removed' /tmp/ibc-recv.out
wait "$rpid" 2>/dev/null
check "rdma link add rxe1 type rxe netdev veth1 again" bench_rxe rxe1 veth1
ok "rxe1 is known again" wait_for 10 sh -c 'rdma link show rxe1/1 > /dev/null'

mark=$(kmsg_mark)
check "rmmod rdma_mcm" rmmod rdma_mcm
ok "unload reports rxe0 removed" logged rxe0 removed "$mark"
ok "unload reports rxe1 removed" logged rxe1 removed "$mark"
