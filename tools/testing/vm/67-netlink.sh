#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The host's view through the generic netlink family "rdma_mcm"
# (include/uapi/rdma/rdma_mcm_netlink.h), as rdma-mcm prints it: three
# join sessions (two of root, one of uid 65534) and the test ULP hold
# memberships; 'rdma-mcm -j show' lists them all with their owners for
# root (pid, uid, comm; the ULP as owner "kernel" named by its module),
# and only its own for uid 65534, who may not monitor; the filters of show
# select; 'rdma-mcm -j stats' counts a join and its leave; 'rdma-mcm -j
# monitor -c 3', started before a session joins and leaves a group, gets
# join, joined, leave in that order with the session's pid. Every JSON
# output is checked against Documentation/rdma-mcm.schema.json with
# tools/testing/vm/json_check.py (JSON_CHECK and RDMA_MCM_SCHEMA say where
# they are).

. "$(dirname "$0")/lib.sh"

NOBODY=65534
T=/tmp/nl
CTL=/sys/kernel/debug/rdma_mcm_test_ulp/control
STATUS=/sys/kernel/debug/rdma_mcm_test_ulp/status
GA=239.8.1.1		# root session A
GB1=239.8.1.2		# root session B, two groups
GB2=239.8.1.3
GC=239.8.1.4		# uid 65534's session
GU=239.8.1.5		# the test ULP
GS=239.8.1.6		# joined and left for stats
GM=239.8.1.7		# joined and left under monitor
GP=239.8.1.8		# the monitor's probe

mkdir -p $T
chmod 0777 $T
cmd() { echo "$*" > $CTL; }
ulp_state() { awk -v g="$1" '$1 == "member" && $3 == g { print $4 }' $STATUS; }
ulp_joined() { [ "$(ulp_state "$1")" = joined ]; }
joined_in() { grep -q "^joined $2 " "$1"; }
left_in() { grep -q "^left $2 " "$1"; }
# jnum KEY FILE: the first number of "KEY":N in FILE (stats: the module's)
jnum() { grep -o "\"$1\":[0-9]*" "$2" | head -n 1 | cut -d: -f2; }

plan 50
check "modprobe rdma_mcm" modprobe rdma_mcm
check "modprobe rdma_mcm_test_ulp" modprobe rdma_mcm_test_ulp

# --- memberships of three processes and a kernel ULP ------------------------
rdma-mcm -b $BENCH_IP1 join $GA < /dev/null > $T/a.out 2>&1 &
pa=$!
rdma-mcm -b $BENCH_IP1 join $GB1 $GB2 --send-only < /dev/null > $T/b.out 2>&1 &
pb=$!
# setpriv execs rdma-mcm: $! is its pid
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
	rdma-mcm -b $BENCH_IP1 join $GC < /dev/null > $T/c.out 2>&1 &
pc=$!
cmd open $BENCH_IP1
cmd join $GU
all_joined() {
	joined_in $T/a.out $GA && joined_in $T/b.out $GB1 &&
		joined_in $T/b.out $GB2 && joined_in $T/c.out $GC && ulp_joined $GU
}
ok "three join sessions (uid 0, 0, $NOBODY) and the ULP joined" wait_for 60 all_joined
diag "sessions: A pid $pa, B pid $pb, C (uid $NOBODY) pid $pc"

# --- show, as root -------------------------------------------------------------
rdma-mcm -j show > $T/show.json 2> $T/show.err
ok "rdma-mcm -j show as root exits 0" [ $? -eq 0 ]
cat $T/show.json
json_ok "show -j is valid against the schema" member $T/show.json 5
ok "root sees session A's membership: pid $pa, uid 0, comm rdma-mcm, joined" \
	has $T/show.json $GA "\"pid\":$pa," '"uid":0,' '"comm":"rdma-mcm"' \
	'"owner":"user"' '"state":"joined"' '"type":"full"'
b_both() {
	has $T/show.json $GB1 "\"pid\":$pb," '"type":"send-only"' &&
		has $T/show.json $GB2 "\"pid\":$pb," '"uid":0,' '"type":"send-only"'
}
ok "root sees session B's two send-only memberships with its pid" b_both
ok "root sees uid $NOBODY's membership: pid $pc, uid $NOBODY" \
	has $T/show.json $GC "\"pid\":$pc," "\"uid\":$NOBODY," '"comm":"rdma-mcm"'
ok "root sees the ULP's membership: owner kernel, comm rdma_mcm_test_ulp" \
	has $T/show.json $GU '"owner":"kernel"' '"comm":"rdma_mcm_test_ulp"' \
	'"state":"joined"'
ulp_anon() {
	lacks $T/show.json $GU '"pid":' && lacks $T/show.json $GU '"uid":' &&
		lacks $T/show.json $GU '"file_ctx":'
}
ok "the ULP's membership has no pid, uid nor file context" ulp_anon
ok "every membership is on rxe1 port 1 (veth1)" \
	sh -c "[ \$(grep -c '\"dev\":\"rxe1\",\"port\":1,\"netdev\":\"veth1\"' $T/show.json) -eq \$(wc -l < $T/show.json) ]"

rdma-mcm show > $T/show.txt
cat $T/show.txt
ok "show (text): one line per membership, the ULP as comm [rdma_mcm_test_ulp]" \
	sh -c "[ \$(wc -l < $T/show.txt) -eq \$(wc -l < $T/show.json) ] &&
		grep -q ' group $GU state joined type full owner kernel comm \[rdma_mcm_test_ulp\] ' $T/show.txt"
ok "show group $GB1: that one membership" \
	sh -c "[ \$(rdma-mcm show group $GB1 | wc -l) -eq 1 ]"
ok "show pid $pb: session B's two" \
	sh -c "[ \$(rdma-mcm show pid $pb | wc -l) -eq 2 ]"
ok "show dev rxe1 state joined lists the five" \
	sh -c "[ \$(rdma-mcm show dev rxe1 state joined | grep -c ' group 239\.8\.1\.') -eq 5 ]"
ok "show state bogus is a usage error (exit 2)" \
	sh -c "rdma-mcm show state bogus 2> /dev/null; [ \$? -eq 2 ]"

rdma-mcm -j ctx > $T/ctx.json
cat $T/ctx.json
json_ok "ctx -j is valid against the schema" context $T/ctx.json 4
ok "ctx: session B's context has two members, the ULP's is the kernel's" \
	sh -c "grep '\"pid\":$pb,' $T/ctx.json | grep -q '\"members\":2,' &&
		grep '\"owner\":\"kernel\"' $T/ctx.json | grep -q '\"comm\":\"rdma_mcm_test_ulp\"'"

# --- show, as uid 65534: its own only ---------------------------------------------
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups rdma-mcm -j show \
	> $T/nobody.json 2> $T/nobody.err
ok "rdma-mcm -j show as uid $NOBODY exits 0" [ $? -eq 0 ]
cat $T/nobody.json
json_ok "its show -j is valid against the schema" member $T/nobody.json 1
ok "uid $NOBODY sees exactly its own membership" \
	sh -c "[ \$(wc -l < $T/nobody.json) -eq 1 ] && grep -q '\"group\":\"$GC\"' $T/nobody.json &&
		grep -q '\"uid\":$NOBODY,' $T/nobody.json"
ok "uid $NOBODY sees neither root's nor the ULP's" \
	sh -c "! grep -q '\"uid\":0,' $T/nobody.json && ! grep -q '\"owner\":\"kernel\"' $T/nobody.json"
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups rdma-mcm monitor -c 1 \
	> /dev/null 2> $T/nobody-mon.err
rc=$?
cat $T/nobody-mon.err
ok "uid $NOBODY may not monitor: exit 1, CAP_NET_ADMIN named" \
	sh -c "[ $rc -eq 1 ] && grep -q 'CAP_NET_ADMIN' $T/nobody-mon.err"
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups rdma-mcm stats \
	> /dev/null 2> $T/nobody-stats.err
rc=$?
cat $T/nobody-stats.err
ok "uid $NOBODY may not read the host's stats: exit 1, CAP_NET_ADMIN named" \
	sh -c "[ $rc -eq 1 ] && grep -q 'CAP_NET_ADMIN' $T/nobody-stats.err"

# --- a container: its own user and network namespaces ------------------------
# root there has CAP_NET_ADMIN over its network namespace, where no context
# is: it sees none of the host's; it may listen to its namespace's events,
# not read the host's stats
unshare -Urn rdma-mcm -j show > $T/ns.json 2> $T/ns.err
rc=$?
ok "in new user and network namespaces, show exits 0 and lists nothing" \
	sh -c "[ $rc -eq 0 ] && [ ! -s $T/ns.json ]"
unshare -Urn rdma-mcm stats > /dev/null 2> $T/ns-stats.err
rc=$?
ok "there, the host's stats are refused (CAP_NET_ADMIN of the host)" \
	sh -c "[ $rc -eq 1 ] && grep -q 'CAP_NET_ADMIN' $T/ns-stats.err"
unshare -Urn timeout 2 rdma-mcm monitor > /dev/null 2> $T/ns-mon.err
rc=$?
cat $T/ns-mon.err
# ended by timeout's SIGTERM: 0, or 124 (coreutils) / 143 (signal)
ok "there, monitor may listen to its own namespace (no refusal)" \
	sh -c "[ $rc -ne 1 ] && [ $rc -ne 2 ] && [ ! -s $T/ns-mon.err ]"

# --- stats across a join and its leave -----------------------------------------
rdma-mcm -j stats > $T/stats0.json
ok "rdma-mcm -j stats exits 0" [ $? -eq 0 ]
cat $T/stats0.json
json_ok "stats -j is valid against the schema" stats $T/stats0.json 1
ok "stats: usage counts the five memberships (at least)" \
	[ "$(jnum memberships $T/stats0.json)" -ge 5 ]
ok "stats: a device entry for rxe1" grep -q '"devices":\[.*"dev":"rxe1"' $T/stats0.json

rm -f $T/s.in
mkfifo $T/s.in
rdma-mcm -b $BENCH_IP1 join $GA < $T/s.in > $T/s.out 2>&1 &
ps=$!
exec 7> $T/s.in
echo "join $GS" >&7
s_joined() { joined_in $T/s.out $GA && joined_in $T/s.out $GS; }
ok "a session joins $GA and $GS" wait_for 30 s_joined
rdma-mcm -j stats > $T/stats1.json
echo "leave $GS" >&7
ok "and leaves it" wait_for 30 left_in $T/s.out $GS
rdma-mcm -j stats > $T/stats2.json
cat $T/stats1.json $T/stats2.json
json_ok "both stats -j are valid against the schema" stats $T/stats2.json 1
# the session's own $GA membership also joined: two joins at least
d_joins=$(( $(jnum joins $T/stats1.json) - $(jnum joins $T/stats0.json) ))
d_joined=$(( $(jnum joined $T/stats1.json) - $(jnum joined $T/stats0.json) ))
d_leaves=$(( $(jnum leaves $T/stats2.json) - $(jnum leaves $T/stats1.json) ))
diag "joins +$d_joins, joined +$d_joined, leaves +$d_leaves"
ok "stats: joins and joined went up by the session's two joins" \
	[ "$d_joins" -eq 2 -a "$d_joined" -eq 2 ]
ok "stats: leaves went up by one with the leave of $GS" [ "$d_leaves" -eq 1 ]
ok "stats: usage's memberships up by two, then down by one" \
	sh -c "[ \$(( $(jnum memberships $T/stats1.json) - $(jnum memberships $T/stats0.json) )) -eq 2 ] &&
		[ \$(( $(jnum memberships $T/stats1.json) - $(jnum memberships $T/stats2.json) )) -eq 1 ]"

# --- monitor: join, joined, leave, in order -------------------------------------
timeout 180 rdma-mcm -j monitor > $T/mon.json 2> $T/mon.err &
pm=$!
# the monitor is in the group once it reports a probe's join (or leave):
# join and leave a probe group until it does
probes=0
probe() {
	probes=$((probes + 1))
	printf 'join %s\nleave %s\n' $GP $GP >&7
	sleep 1
	grep -q "\"group\":\"$GP\"" $T/mon.json
}
ok "the monitor reports a probe's join (it is in the group)" wait_for 90 probe
probes_left() { [ "$(grep -c "^left $GP " $T/s.out)" -eq "$probes" ]; }
ok "the session left every probe" wait_for 30 probes_left
echo "join $GM" >&7
ok "the session joins $GM under monitor" wait_for 30 joined_in $T/s.out $GM
echo "leave $GM" >&7
ok "and leaves it" wait_for 30 left_in $T/s.out $GM
ok "the monitor got $GM's leave" \
	wait_for 30 grep -q "\"event\":\"leave\".*\"group\":\"$GM\"" $T/mon.json
kill $pm
wait $pm
grep "\"group\":\"$GM\"" $T/mon.json > $T/mon-gm.json
cat $T/mon.json $T/mon.err
json_ok "monitor -j is valid against the schema" event $T/mon.json 3
ok "the events of $GM are join, joined, leave, in that order" \
	[ "$(sed 's/^{"event":"\([a-z-]*\)".*/\1/' $T/mon-gm.json | tr '\n' ' ')" = "join joined leave " ]
ok "each names the session's pid, uid 0 and the same ctx and handle" \
	sh -c "[ \$(grep -c '\"pid\":$ps,\"uid\":0,' $T/mon-gm.json) -eq 3 ] &&
		[ \$(grep -o '\"ctx\":[0-9]*,\"handle\":[0-9]*' $T/mon-gm.json | sort -u | wc -l) -eq 1 ]"

# --- the end: nothing left --------------------------------------------------------
echo quit >&7
exec 7>&-
wait $ps
kill -TERM $pa $pb $pc
wait $pa $pb $pc 2>/dev/null
cmd leave $GU
cmd close
rdma-mcm -j show > $T/end.json
ok "after the sessions ended and the ULP closed, show lists nothing" \
	[ ! -s $T/end.json ]
ok "rdma_mcm's live objects are zero" wait_for 20 live_zero
check "rmmod rdma_mcm_test_ulp" rmmod rdma_mcm_test_ulp
check "rmmod rdma_mcm" rmmod rdma_mcm
rdma-mcm show > /dev/null 2> $T/gone.err
rc=$?
cat $T/gone.err
ok "without the module, show exits 1 and asks whether it is loaded" \
	sh -c "[ $rc -eq 1 ] && grep -q 'rdma_mcm module is not loaded' $T/gone.err"
