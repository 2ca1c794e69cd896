#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The SDK's example ULP (tools/examples/ulp): modprobe'd with an address of
# rxe1 and a group, it joins through rdma_mcm's exported API and logs
# JOINED; rdma-mcm show lists the membership as the ULP's (comm
# [rdma_mcm_example]); rmmod leaves it, and rdma_mcm's live-object
# counters are back to zero, and rdma_mcm unloads. scripts/install-test boots it built against
# the installed SDK (vm-run --example-ulp); the VM suite, built with the
# module.

. "$(dirname "$0")/lib.sh"

G=239.12.0.1
ULP=rdma_mcm_example

shown() {
	rdma-mcm show | grep -F " group $G " | grep -F "comm [$ULP]" |
		grep -q ' state joined '
}
not_shown() { ! rdma-mcm show | grep -qF " group $G "; }
logged() { kmsg_since "$MARK" | grep -q "$ULP: $1"; }
left_and_gone() { logged "left $G (0)" && not_shown; }

plan 8
ok "depmod knows $ULP, which depends on rdma_mcm" \
	bash -c "modinfo -F depends $ULP | tr , '\n' | grep -qx rdma_mcm"
diag "$ULP: $(modinfo -n $ULP) sha256 $(sha256sum "$(modinfo -n $ULP)" | cut -d' ' -f1)"
MARK=$(kmsg_mark)
check "modprobe $ULP src=$BENCH_IP1 group=$G" modprobe $ULP src=$BENCH_IP1 group=$G
ok "it logs JOINED $G" wait_for 30 logged "JOINED $G "
ok "rdma-mcm show: $G joined, owned by [$ULP]" wait_for 10 shown
check "rmmod $ULP" rmmod $ULP
ok "it logs that it left $G; rdma-mcm show lists $G no more" \
	left_and_gone
ok "rdma_mcm's live-object counters are zero" wait_for 10 live_zero
# the next scripts load rdma_mcm themselves (20-ib-client counts what it
# logs at load): leave it unloaded, as every script does
check "rmmod rdma_mcm (the ULP's modprobe loaded it)" rmmod rdma_mcm
