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
# for) and must exit 0 with no violation, having applied the rules; joins,
# leaves, QUERY_CTX and SET_EVENTS must get through (not everything rejected), and
# SET_EVENTS be refused too; every errno (batch entries' too) must be in
# Documentation/uapi.rst's table, and afterwards nothing may be left: no
# live object, no membership in the slab, no IGMP group of the pool, and
# the module unloads. The host fails the run on any WARNING, BUG, Oops,
# KASAN or lockdep report on the console.

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
	CALLS=200000
	LIMIT=240
fi

# the fuzzer's groups: 239.77.0.0/26 (/proc/net/igmp prints 239.77.0.5 as
# 05004DEF) and ff0e::77:0/122
pool_in_igmp() {
	awk '$1 ~ /^[0-3][0-9A-F]004DEF$/ { f = 1 } END { exit !f }' /proc/net/igmp ||
		grep -q ' ff0e00000000000000000000007700' /proc/net/igmp6 2>/dev/null
}
no_pool_group() { ! pool_in_igmp; }
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
	timeout -s KILL $((LIMIT + 60)) $FUZZ --calls $CALLS --seconds $LIMIT > $OUT
}

plan 14
check "modprobe rdma_mcm" modprobe rdma_mcm
check "mcm_fuzz: $CALLS calls (at most ${LIMIT} s) exits 0" fuzz
calls=$(summary 2)
secs=$(summary 8)
diag "$(grep '^calls ' $OUT)"
diag "$(grep '^checked ' $OUT)"
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
check "every errno is one Documentation/uapi.rst lists" errnos_documented $OUT
ok "rdma_mcm's live objects are zero after exit" wait_for 10 live_zero
slab_check "/proc/slabinfo: no rdma_mcm_membership object is active"
ok "no group of the pool left in /proc/net/igmp" wait_for 10 no_pool_group
check "rmmod rdma_mcm" rmmod rdma_mcm
