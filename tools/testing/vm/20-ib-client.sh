#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# rdma_mcm's ib_client sees RDMA devices: the ones present at load, one
# removed and re-added with 'rdma link', and all of them again at unload.
# The module logs them at debug level; dynamic debug turns that on.

. "$(dirname "$0")/lib.sh"

# logged NAME WHAT MARK: the kernel logged "rdma_mcm: device NAME WHAT" after MARK.
logged() { kmsg_since "$3" | grep -q "rdma_mcm: device $1 $2"; }

plan 10
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

mark=$(kmsg_mark)
check "rmmod rdma_mcm" rmmod rdma_mcm
ok "unload reports rxe0 removed" logged rxe0 removed "$mark"
ok "unload reports rxe1 removed" logged rxe1 removed "$mark"
