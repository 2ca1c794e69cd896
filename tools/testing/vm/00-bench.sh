#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The bench itself: the RDMA stack loads, the veth pair and both Soft-RoCE
# devices come up. Every later test relies on this.

. "$(dirname "$0")/lib.sh"

plan 5
check "RDMA stack modules load" bench_modules
check "veth pair up with $BENCH_IP0 and $BENCH_IP1" bench_veth
check "rxe0 added on veth0" bench_rxe rxe0 veth0
check "rxe1 added on veth1" bench_rxe rxe1 veth1
lists_both() { ibv_devices | tee /dev/stderr | grep -qw rxe0 && ibv_devices | grep -qw rxe1; }
ok "ibv_devices lists rxe0 and rxe1" lists_both
