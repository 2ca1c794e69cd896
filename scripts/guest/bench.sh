# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Bench set-up inside the VM: the RDMA stack, one veth pair in the initial
# network namespace (rxe in 6.1 works only there) and a Soft-RoCE device on
# each end. Sourced by /init and by the tests.

BENCH_IP0=192.0.2.1
BENCH_IP1=192.0.2.2
# Modules the bench needs besides rdma_mcm. crc32 is not in modules.dep of
# rdma_rxe but rxe's ICRC needs it: without it 'rdma link add' fails ENOENT.
BENCH_MODULES="ib_core rdma_cm ib_uverbs rdma_ucm rdma_rxe veth"
BENCH_OPT_MODULES="crc32_generic crc32-pclmul"

bench_modules() {
	local m
	for m in $BENCH_OPT_MODULES; do
		modprobe -q "$m" 2>/dev/null || true
	done
	for m in $BENCH_MODULES; do
		modprobe "$m" || return 1
	done
}

bench_sysctl() {
	local k
	for k in all default veth0 veth1; do
		[ -d /proc/sys/net/ipv4/conf/$k ] || continue
		echo 0 > /proc/sys/net/ipv4/conf/$k/rp_filter
		echo 1 > /proc/sys/net/ipv4/conf/$k/accept_local
	done
}

bench_veth() {
	if ! ip link show veth0 >/dev/null 2>&1; then
		ip link add veth0 type veth peer name veth1 || return 1
	fi
	bench_sysctl
	ip addr replace $BENCH_IP0/24 dev veth0 || return 1
	ip addr replace $BENCH_IP1/24 dev veth1 || return 1
	ip link set veth0 up && ip link set veth1 up
}

# bench_rxe NAME NETDEV: add a Soft-RoCE device unless it exists.
bench_rxe() {
	if [ -e "/sys/class/infiniband/$1" ]; then
		return 0
	fi
	rdma link add "$1" type rxe netdev "$2"
}

bench_setup() {
	bench_modules && bench_veth &&
		bench_rxe rxe0 veth0 && bench_rxe rxe1 veth1
}
