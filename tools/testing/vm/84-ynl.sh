#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The family "rdma_mcm" driven by the kernel's own ynl CLI
# (tools/net/ynl of the newest kernel source the bench has, which vm-run
# packs with python3-yaml and python3-jsonschema) from the spec rdma-mcm-
# utils installs, /usr/share/ynl/specs/rdma_mcm.yaml: ynl finds it by
# family name and validates it against the kernel's schema; with
# memberships of three join sessions (one source-specific, one of IPv6 on
# RoCE v2, which rdma_mcm itself joins), one of uid 65534 and one of the
# test ULP, 'ynl --dump member-get' lists exactly what 'rdma-mcm -j show'
# lists, field by field (tools/testing/vm/ynl_compare.py), as root and as
# uid 65534, whole and by ctx-id; ctx-get agrees with 'rdma-mcm -j ctx',
# 'ynl --do stats-get' with 'rdma-mcm -j stats'; 'ynl --subscribe events'
# hears the join, joined and leave that 'rdma-mcm -j monitor' hears, with
# the same times; the kernel's policies (ynl --policy) are the spec's. ynl
# runs with --spec, which decodes only what the spec names: an attribute
# the kernel sends and the spec lacks fails it.

. "$(dirname "$0")/lib.sh"

LIBEXEC=/usr/libexec/rdma_mcm
SPEC=/usr/share/ynl/specs/rdma_mcm.yaml
CMP="python3 $LIBEXEC/ynl_compare.py"
NOBODY=65534
T=/tmp/ynl
CTL=/sys/kernel/debug/rdma_mcm_test_ulp/control
STATUS=/sys/kernel/debug/rdma_mcm_test_ulp/status
GA=239.83.0.1		# root session A, and its source-specific GS
GS=232.83.0.2
GB=239.83.0.3		# root session B, send-only
G6=ff1e::83:4		# root session C, IPv6 on RoCE v2
GC=239.83.0.5		# uid 65534's session
GU=239.83.0.6		# the test ULP
GM=239.83.0.7		# joined and left under ynl and monitor
GP=239.83.0.8		# their probe

# ynl with the installed spec, JSON out, unbuffered (read while it runs);
# the spec is validated against the schema once (--validate, below), not at
# each run (jsonschema is most of a run's time in the guest)
ynl_spec() { PYTHONUNBUFFERED=1 ynl --spec $SPEC --no-schema --output-json "$@"; }
as_nobody() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }
cmd() { echo "$*" > $CTL; }
ulp_joined() { awk -v g="$1" '$1 == "member" && $3 == g { print $4 }' $STATUS | grep -qx joined; }
joined_in() { grep -q "^joined $2 " "$1"; }
left_in() { grep -q "^left $2 " "$1"; }
# hex4 A.B.C.D: the address as ynl prints a binary attribute
hex4() { local IFS=.; set -- $1; printf '%02x%02x%02x%02x' "$@"; }

at_exit stop_jobs
at_exit ulp_cleanup
at_exit bench_ipv6_down

plan 29
mkdir -p $T
chmod 0777 $T
check "modprobe rdma_mcm" modprobe rdma_mcm
check "modprobe rdma_mcm_test_ulp" modprobe rdma_mcm_test_ulp
check "2001:db8::1 on veth0, 2001:db8::2 on veth1: RoCE v2 GIDs" bench_ipv6

# --- ynl finds the installed spec ------------------------------------------------
ok "ynl --list-families lists rdma_mcm (the spec is where ynl looks)" \
	sh -c "ynl --list-families | grep -qx rdma_mcm"
check "ynl --validate: the installed spec against the kernel's genetlink-legacy schema" \
	ynl --spec $SPEC --validate
ynl --family rdma_mcm --list-ops > $T/ops.txt
cat $T/ops.txt
ok "ynl --family rdma_mcm --list-ops: member-get, ctx-get (dumps), stats-get (do)" \
	sh -c "grep -q '^member-get  \[ dump \]' $T/ops.txt &&
		grep -q '^ctx-get  \[ dump \]' $T/ops.txt &&
		grep -q '^stats-get  \[ do \]' $T/ops.txt"

# --- memberships: three sessions of root, one of uid 65534, the ULP -------------
session a -b $BENCH_IP1 join $GA
pa=$SPID
exec 7> $T/a.in
echo "join $GS --source $BENCH_IP0" >&7
session b -b $BENCH_IP1 join $GB --send-only
pb=$SPID
exec 8> $T/b.in
session c -b $BENCH_IP6_1 join $G6
pc=$SPID
exec 9> $T/c.in
rm -f $T/n.in
mkfifo $T/n.in
as_nobody rdma-mcm -b $BENCH_IP1 join $GC < $T/n.in > $T/n.out 2>&1 &
pnb=$!
exec 6> $T/n.in
cmd open $BENCH_IP1
cmd join $GU
all_joined() {
	joined_in $T/a.out $GA && joined_in $T/a.out $GS &&
		joined_in $T/b.out $GB && joined_in $T/c.out $G6 &&
		joined_in $T/n.out $GC && ulp_joined $GU
}
ok "six memberships joined: full, source-specific, send-only, IPv6, uid $NOBODY's, the ULP's" \
	wait_for 60 all_joined

# --- the dumps -----------------------------------------------------------------------
ynl_spec --dump member-get > $T/members.json 2> $T/members.err
rc=$?
rdma-mcm -j show > $T/show.json
cat $T/members.json $T/members.err $T/show.json
ok "ynl --dump member-get exits 0" [ $rc -eq 0 ]
check "it lists the six memberships rdma-mcm -j show lists, every field alike" \
	$CMP members $T/members.json $T/show.json --count 6
ynl --family rdma_mcm --output-json --dump member-get > $T/family.json
check "so does ynl --family rdma_mcm (the installed spec, found by name)" \
	$CMP members $T/family.json $T/show.json --count 6
ctx=$(grep "\"group\":\"$GA\"" $T/show.json | grep -o '"ctx":[0-9]*' | cut -d: -f2)
ynl_spec --dump member-get --json "{\"ctx-id\": $ctx}" > $T/ctx-members.json
rdma-mcm -j show ctx "$ctx" > $T/ctx-show.json
check "ynl's dump of ctx-id $ctx (session A): its two, as rdma-mcm -j show ctx $ctx" \
	$CMP members $T/ctx-members.json $T/ctx-show.json --count 2
as_nobody env PYTHONUNBUFFERED=1 ynl --spec $SPEC --no-schema --output-json \
	--dump member-get > $T/nobody.json 2> $T/nobody.err
as_nobody rdma-mcm -j show > $T/nobody-show.json
cat $T/nobody.json $T/nobody.err
check "as uid $NOBODY, ynl's dump is its one membership, as rdma-mcm's" \
	$CMP members $T/nobody.json $T/nobody-show.json --count 1
ynl_spec --dump ctx-get > $T/contexts.json
rdma-mcm -j ctx > $T/ctx.json
cat $T/contexts.json $T/ctx.json
check "ynl --dump ctx-get lists the five contexts of rdma-mcm -j ctx, counters and all" \
	$CMP contexts $T/contexts.json $T/ctx.json --count 5

# stats: a quiet moment, two reads of ynl around rdma-mcm's alike
stats_quiet() {
	ynl_spec --do stats-get > $T/stats1.json &&
		rdma-mcm -j stats > $T/stats.json &&
		ynl_spec --do stats-get > $T/stats2.json &&
		cmp -s $T/stats1.json $T/stats2.json
}
ok "ynl --do stats-get: two reads alike around rdma-mcm -j stats" wait_for 60 stats_quiet
cat $T/stats1.json $T/stats.json
check "ynl --do stats-get agrees with rdma-mcm -j stats: counters, errnos, limits, usage, devices" \
	$CMP stats $T/stats1.json $T/stats.json
as_nobody ynl --spec $SPEC --no-schema --do stats-get > $T/nobody-stats.out 2>&1
rc=$?
cat $T/nobody-stats.out
ok "as uid $NOBODY, stats-get is refused (admin-perm: EPERM)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'Operation not permitted' $T/nobody-stats.out"

# --- the kernel's policies, as ynl reads them (CTRL_CMD_GETPOLICY) ---------------
for op in member-get ctx-get; do
	ynl_spec --dump $op --policy > $T/policy-$op.json
	cat $T/policy-$op.json
	check "the kernel's policy of the $op dump is the spec's (ctx-id: u32, min 1)" \
		$CMP policy $T/policy-$op.json $SPEC $op dump
done
ynl_spec --do stats-get --policy > $T/policy-stats.json 2>&1
cat $T/policy-stats.json
# stats_policy_none: the kernel declares no attribute for stats-get: an
# empty policy, or (5.10's controller, for an op without one) ENODATA
stats_policy_none() {
	grep -qx "lib.ynl.YnlException: Netlink error: -61" $T/policy-stats.json ||
		$CMP policy $T/policy-stats.json $SPEC stats-get do
}
check "the kernel's stats-get accepts no attribute, as the spec has no request" \
	stats_policy_none
ynl_spec --dump member-get --json '{"ctx-id": 0}' > $T/range.out 2>&1
rc=$?
cat $T/range.out
ok "ynl's dump with ctx-id 0: the policy's ERANGE, its extended ack" \
	sh -c "[ $rc -ne 0 ] && grep -q 'Numerical result out of range' $T/range.out"

# --- events: ynl --subscribe events beside rdma-mcm -j monitor ---------------------
# --duration bounds ynl's listening; it is stopped once it heard GM's leave
ynl_spec --subscribe events --duration 300 > $T/ntf.json 2> $T/ntf.err &
pn=$!
timeout 300 rdma-mcm -j monitor > $T/mon.json 2> $T/mon.err &
pm=$!
# both are in the group once both report a probe's join: join and leave a
# probe group until they do
probe() {
	printf 'join %s\nleave %s\n' $GP $GP >&8
	sleep 1
	grep -q "\"group\": \"$(hex4 $GP)\"" $T/ntf.json &&
		grep -q "\"group\":\"$GP\"" $T/mon.json
}
ok "ynl and rdma-mcm monitor both hear a probe's events (both subscribed)" \
	wait_for 120 probe
echo "join $GM" >&8
ok "session B joins $GM" wait_for 30 joined_in $T/b.out $GM
echo "leave $GM" >&8
ok "and leaves it" wait_for 30 left_in $T/b.out $GM
heard_leave() {
	grep -q '"event": "leave".*"group": "'"$(hex4 $GM)"'"' $T/ntf.json &&
		grep -q '"event":"leave".*"group":"'"$GM"'"' $T/mon.json
}
ok "both heard $GM's leave" wait_for 30 heard_leave
kill $pn $pm
wait $pn $pm 2>/dev/null
cat $T/ntf.json $T/ntf.err $T/mon.json
check "ynl --subscribe events heard $GM's join, joined, leave as rdma-mcm -j monitor did, times alike" \
	$CMP events $T/ntf.json $T/mon.json $GM --count 3
ok "in that order" [ "$(grep "\"group\":\"$GM\"" $T/mon.json |
	sed 's/^{"event":"\([a-z-]*\)".*/\1/' | tr '\n' ' ')" = "join joined leave " ]
ynl_spec --subscribe events --duration 2 > $T/quiet.json 2>&1
rc=$?
ok "ynl --subscribe events --duration 2 ends by itself (exit 0), nothing heard" \
	sh -c "[ $rc -eq 0 ] && [ ! -s $T/quiet.json ]"

# --- the end --------------------------------------------------------------------------
for fd in 6 7 8 9; do echo quit >&$fd; done
exec 6>&- 7>&- 8>&- 9>&-
wait $pa $pb $pc $pnb
cmd leave $GU
cmd close
ynl_spec --dump member-get > $T/end.json
ok "at the end, ynl's dump is empty ([])" [ "$(cat $T/end.json)" = "[]" ]
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
