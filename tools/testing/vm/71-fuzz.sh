#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The ioctl fuzzer (tools/testing/fuzz/mcm_fuzz.c): random and
# structure-aware mutations of every command's argument (SET_EVENTS, entry
# and argument sizes included), read() and poll() from two threads, each
# with a racer that closes and replaces its files under the calls. 200000
# calls in a check run; 1,000,000 in a soak (MCM_SOAK). The fuzzer holds
# every call to the ABI's rules (what a call may write back, errnos of
# known causes, every read() to the event types and size its file asked
# for, every join's answer to its model of the flags, group and source
# array, which the kernel must not write) and must exit 0 with no
# violation, having applied the rules; joins,
# leaves, QUERY_CTX and SET_EVENTS must get through (not everything rejected), and
# SET_EVENTS be refused too; every errno (batch entries' too) must be in
# Documentation/uapi.rst's table; source-specific joins must have been
# made, modelled, taken and refused. Contexts of IPv4 and of IPv6 (the
# script adds 2001:db8:71::1 on veth0 and ::2 on veth1, and removes them):
# IPv6 groups on RoCE v2 are rdma_mcm's own joins, and some must have been
# joined (QUERY or LIST said joined, by rdma_mcm). Afterwards nothing may
# be left: no live object, no membership in the slab, no IGMP or MLD group
# of the pool nor a source filter of one (mcfilter and mcfilter6 read
# whole: lib.sh, mcfilter_text), and the module unloads. The host
# fails the run on any WARNING, BUG, Oops, KASAN or lockdep report on the
# console.

. "$(dirname "$0")/lib.sh"

FUZZ=/usr/libexec/rdma_mcm/bin/mcm_fuzz
OUT=/tmp/fuzz.out
SOAK=$(soak_seconds 0)
if [ "$SOAK" -gt 0 ]; then
	# a million calls, however long the soak: run-tests allows the test
	# 300 + 2 * SOAK seconds, so keep 100 s of that for the checks
	CALLS=1000000
	LIMIT=$((2 * SOAK + 200))
else
	# 200000 calls take about 150 s alone and 280 s beside a CPU hog
	# (7.2 made 172805 in 240 s so): the cap leaves run-tests' 600 s room
	# for the checks after it
	CALLS=200000
	LIMIT=450
fi

# the fuzzer's groups: 239.77.0.0/26 (/proc/net/igmp prints 239.77.0.5 as
# 05004DEF) and ff0e::77:0/122
pool_in_igmp() {
	awk '$1 ~ /^[0-3][0-9A-F]004DEF$/ { f = 1 } END { exit !f }' /proc/net/igmp ||
		grep -q ' ff0e00000000000000000000007700' /proc/net/igmp6 2>/dev/null
}
no_pool_group() { ! pool_in_igmp; }
# no source filter of a pool group (mcfilter prints 239.77.0.5 as
# 0xef4d0005), in listings read whole (a failed reading fails this)
no_pool_filter() {
	[ "$(mcfilter_count '$3 ~ /^0xef4d00[0-3][0-9a-f]$/')" -eq 0 ] &&
		[ "$(mcfilter_count -6 'index($3, "ff0e00000000000000000000007700") == 1')" -eq 0 ]
}
# sources KEY: a count of the fuzzer's "sources ..." line
sources() { awk -v k="$1" '$1 == "sources" { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' $OUT; }
sources_modelled() {
	[ "$(sources predicted)" -gt 0 ] && [ "$(sources joined)" -gt 0 ] &&
		[ "$(sources refused)" -gt 0 ]
} 2>/dev/null
# IPv6 sources for contexts: on veth0 and veth1, in rxe0's and rxe1's GIDs
V6_0=2001:db8:71::1
V6_1=2001:db8:71::2
gid_listed() { cat /sys/class/infiniband/"$1"/ports/1/gids/* 2>/dev/null | grep -qx "$2"; }
v6_up() {
	ip -6 addr add $V6_0/64 dev veth0 nodad &&
		ip -6 addr add $V6_1/64 dev veth1 nodad &&
		wait_for 20 gid_listed rxe0 2001:0db8:0071:0000:0000:0000:0000:0001 &&
		wait_for 20 gid_listed rxe1 2001:0db8:0071:0000:0000:0000:0000:0002
}
v6_down() { ip -6 addr del $V6_0/64 dev veth0 && ip -6 addr del $V6_1/64 dev veth1; }
summary() { awk '$1 == "calls" && $3 == "ok" { print $'"$1"' }' $OUT; }
ok_count() { awk -v c="$1" '$1 == "ok" && $2 == c { print $3 }' $OUT; }
errno_count() { awk -v c="$1" -v e="$2" '$1 == "errno" && $2 == c && $3 == e { print $4; f = 1 } END { if (!f) print 0 }' $OUT; }
# checked KIND: how many calls of a kind the fuzzer held to the rules
checked() { awk -v k="$1" '$1 == "checked" { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' $OUT; }
violations() { awk '$1 == "calls" { for (i = 2; i < NF; i++) if ($i == "violations") print $(i + 1) }' $OUT; }
set_events_both() { [ "$(ok_count SET_EVENTS)" -gt 0 ] && [ "$(errno_count SET_EVENTS EINVAL)" -gt 0 ]; }
rules_applied() {
	local k
	for k in arguments arrays reads records; do
		[ "$(checked $k)" -gt 0 ] 2>/dev/null || return 1
	done
}
fuzz() {
	timeout -s KILL $((LIMIT + 60)) $FUZZ --calls $CALLS --seconds $LIMIT \
		--src 192.0.2.1 --src 192.0.2.2 --src $V6_0 --src $V6_1 > $OUT
}

plan 19
check "modprobe rdma_mcm" modprobe rdma_mcm
check "IPv6 sources $V6_0 on veth0 and $V6_1 on veth1, in rxe0's and rxe1's GID tables" v6_up
check "mcm_fuzz: $CALLS calls (at most ${LIMIT} s) exits 0" fuzz
calls=$(summary 2)
secs=$(summary 8)
diag "$(grep '^calls ' $OUT)"
diag "$(grep '^checked ' $OUT)"
diag "$(grep '^sources ' $OUT)"
diag "$(grep '^ipv6 ' $OUT)"
[ -n "$calls" ] && [ -n "$secs" ] &&
	diag "$(awk -v n="$calls" -v s="$secs" 'BEGIN { printf "%.0f calls/s", (s > 0 ? n / s : 0) }')"
while read -r line; do diag "$line"; done < <(grep -E '^(violation:|ok|errno|raced) ' $OUT)
ok "it made at least $CALLS calls (made ${calls:-none})" [ "${calls:-0}" -ge $CALLS ]
ok "no call broke a rule of the ABI (violations: $(violations))" [ "$(violations)" = 0 ]
ok "the rules were applied: $(grep '^checked ' $OUT | cut -d' ' -f2-)" rules_applied
joins=$(ok_count JOIN)
leaves=$(ok_count LEAVE)
ok "some JOINs succeeded (${joins:-none})" [ "${joins:-0}" -gt 0 ]
ok "some LEAVEs succeeded (${leaves:-none})" [ "${leaves:-0}" -gt 0 ]
qctx=$(ok_count QUERY_CTX)
ok "some QUERY_CTXs succeeded (${qctx:-none})" [ "${qctx:-0}" -gt 0 ]
ok "SET_EVENTS succeeded ($(ok_count SET_EVENTS)) and refused bad sizes and reserved fields (EINVAL $(errno_count SET_EVENTS EINVAL))" \
	set_events_both
ok "source arrays were held to the model: $(grep '^sources ' $OUT | cut -d' ' -f2-)" \
	sources_modelled
v6=$(awk '$1 == "ipv6" && $2 == "joined" { print $3 }' $OUT)
ok "IPv6 groups were joined on RoCE v2: QUERY or LIST said joined, by rdma_mcm (${v6:-none})" \
	[ "${v6:-0}" -gt 0 ]
check "every errno is one Documentation/uapi.rst lists" errnos_documented $OUT
ok "rdma_mcm's live objects are zero after exit" wait_for 10 live_zero
slab_check "/proc/slabinfo: no rdma_mcm_membership object is active"
ok "no group of the pool left in /proc/net/igmp" wait_for 10 no_pool_group
ok "no source filter of the pool left in /proc/net/mcfilter or mcfilter6" \
	wait_for 10 no_pool_filter
check "the IPv6 sources are removed" v6_down
check "rmmod rdma_mcm" rmmod rdma_mcm
