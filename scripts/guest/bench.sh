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

# --- IPv6 (RoCE v2) -----------------------------------------------------------
# Global addresses on the veth pair for the IPv6 and source-specific tests
# (62-ipv6, 63-ssm): not made at boot, so the other tests see the pair as
# they always did; bench_ipv6_down takes them away again.
BENCH_IP6_0=2001:db8::1
BENCH_IP6_1=2001:db8::2

# ipv6_hex ADDR: an IPv6 literal as 32 lower-case hex digits, the form of
# /proc/net/igmp6 and mcfilter6 (2001:db8::1 -> 20010db8000...0001)
ipv6_hex() {
	awk -v a="$1" 'BEGIN {
		a = tolower(a)
		if ((i = index(a, "::")) > 0) { l = substr(a, 1, i - 1); r = substr(a, i + 2) }
		else { l = a; r = "" }
		nl = l == "" ? 0 : split(l, L, ":")
		nr = r == "" ? 0 : split(r, R, ":")
		out = ""
		for (k = 1; k <= nl; k++) out = out pad(L[k])
		for (k = 0; k < 8 - nl - nr; k++) out = out "0000"
		for (k = 1; k <= nr; k++) out = out pad(R[k])
		print out
	}
	function pad(x) { while (length(x) < 4) x = "0" x; return x }'
}

# ipv6_gid ADDR: the address as the GID table in sysfs prints it
# (2001:0db8:0000:...:0001)
ipv6_gid() { ipv6_hex "$1" | sed 's/\(....\)/\1:/g; s/:$//'; }

# rxe_has_gid DEV ADDR TYPE: DEV's port 1 lists ADDR as a GID of TYPE
# ("RoCE v2", "IB/RoCE v1")
rxe_has_gid() {
	local d=/sys/class/infiniband/$1/ports/1 f
	# one grep over the table (256 entries: a cat each is slow under TCG)
	for f in $(grep -lx "$(ipv6_gid "$2")" "$d"/gids/* 2>/dev/null); do
		[ "$(cat "$d/gid_attrs/types/${f##*/}" 2>/dev/null)" = "$3" ] && return 0
	done
	return 1
}

# bench_ipv6: 2001:db8::1/64 on veth0, 2001:db8::2/64 on veth1 (no DAD:
# usable at once), and wait until rxe0 and rxe1 list them as RoCE v2 GIDs
# (rxe's GID table follows the netdev's addresses through a notifier)
bench_ipv6() {
	local t k
	for k in all default veth0 veth1; do
		[ -w /proc/sys/net/ipv6/conf/$k/disable_ipv6 ] &&
			echo 0 > /proc/sys/net/ipv6/conf/$k/disable_ipv6
	done
	ip -6 addr replace $BENCH_IP6_0/64 dev veth0 nodad || return 1
	ip -6 addr replace $BENCH_IP6_1/64 dev veth1 nodad || return 1
	for t in $(seq 150); do
		rxe_has_gid rxe0 $BENCH_IP6_0 "RoCE v2" &&
			rxe_has_gid rxe1 $BENCH_IP6_1 "RoCE v2" && return 0
		sleep 0.2
	done
	echo "bench_ipv6: rxe0/rxe1 do not list $BENCH_IP6_0/$BENCH_IP6_1 as RoCE v2 GIDs" >&2
	return 1
}

# bench_ipv6_down: take the global IPv6 addresses off the pair again, and
# wait until rxe0 and rxe1 dropped their GIDs (ib_core does it from a
# work item)
bench_ipv6_down() {
	local t
	ip -6 addr del $BENCH_IP6_0/64 dev veth0 2>/dev/null
	ip -6 addr del $BENCH_IP6_1/64 dev veth1 2>/dev/null
	for t in $(seq 150); do
		! rxe_has_gid rxe0 $BENCH_IP6_0 "RoCE v2" &&
			! rxe_has_gid rxe1 $BENCH_IP6_1 "RoCE v2" && return 0
		sleep 0.2
	done
	return 1
}
