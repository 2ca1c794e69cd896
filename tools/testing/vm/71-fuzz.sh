#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The ioctl fuzzer (tools/testing/fuzz/mcm_fuzz.c): random and
# structure-aware mutations of every command's argument, read() and poll()
# from two threads, each with a racer that closes and replaces its files
# under the calls. 200000 calls in a check run; 1,000,000 in a soak
# (MCM_SOAK). The fuzzer must exit 0 having made its calls, joins and
# leaves must get through (not everything rejected), every errno must be
# in Documentation/uapi.rst's table, and afterwards nothing may be left:
# no live object, no membership in the slab, no IGMP group of the pool,
# and the module unloads. The host fails the run on any WARNING, BUG,
# Oops, KASAN or lockdep report on the console.

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
fuzz() {
	timeout -s KILL $((LIMIT + 60)) $FUZZ --calls $CALLS --seconds $LIMIT > $OUT
}

plan 10
check "modprobe rdma_mcm" modprobe rdma_mcm
check "mcm_fuzz: $CALLS calls (at most ${LIMIT} s) exits 0" fuzz
calls=$(summary 2)
secs=$(summary 8)
diag "$(grep '^calls ' $OUT)"
[ -n "$calls" ] && [ -n "$secs" ] &&
	diag "$(awk -v n="$calls" -v s="$secs" 'BEGIN { printf "%.0f calls/s", (s > 0 ? n / s : 0) }')"
while read -r line; do diag "$line"; done < <(grep -E '^(ok|errno|raced) ' $OUT)
ok "it made at least $CALLS calls (made ${calls:-none})" [ "${calls:-0}" -ge $CALLS ]
joins=$(ok_count JOIN)
leaves=$(ok_count LEAVE)
ok "some JOINs succeeded (${joins:-none})" [ "${joins:-0}" -gt 0 ]
ok "some LEAVEs succeeded (${leaves:-none})" [ "${leaves:-0}" -gt 0 ]
check "every errno is one Documentation/uapi.rst lists" errnos_documented $OUT
ok "rdma_mcm's live objects are zero after exit" wait_for 10 live_zero
slab_check "/proc/slabinfo: no rdma_mcm_membership object is active"
ok "no group of the pool left in /proc/net/igmp" wait_for 10 no_pool_group
check "rmmod rdma_mcm" rmmod rdma_mcm
