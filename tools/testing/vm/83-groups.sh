#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The memberships the system owns: rdma-mcm-groups, the program of
# rdma-mcm-groups.service, run directly (no systemd in the guest) as the
# unit runs it: without a capability (uid 65534 here, no new privileges),
# NOTIFY_SOCKET pointed at mcm_notify (tools/testing/groups/mcm_notify.c),
# which prints what it is told.
#
# - a configuration with an error at start: exit 2, FILE:LINE in the log,
#   nothing joined, no READY=1;
# - five memberships on rxe1 (veth1): IPv4 any source and send-only by
#   netdev, IPv4 source-specific by netdev, IPv6 by netdev, IPv6
#   source-specific by local address: READY=1, STATUS=5 memberships: 5
#   joined; rdma-mcm show -j lists them with comm rdma-mcm-groups, their
#   types, sources and source addresses (valid against the schema);
#   /proc/net/igmp(6) has the full members and not the send-only one,
#   /proc/net/mcfilter(6) the sources with INC 1;
# - its process moved into a cgroup named as systemd names the unit's
#   (cgroup2): show shows "unit rdma-mcm-groups.service" and 'show unit
#   rdma-mcm-groups' keeps its five, not a root session's membership;
# - a reload (SIGHUP) after one membership is removed, one added and one's
#   sources changed: RELOADING=1 with MONOTONIC_USEC, READY=1; the three
#   unchanged keep their context, handle and join time (age_ms only grew,
#   rejoins 0), and rdma-mcm monitor, listening from before, saw no event
#   of theirs; the removed one is left (and out of IGMP), the added one
#   joined (in IGMP), the changed one has a new handle and both sources;
# - a reload with an error: refused, STATUS= names FILE:LINE, the five as
#   they were (same handles);
# - rdma link delete rxe1 / add: every membership lost and joined again
#   on its handle (rejoins 1), IGMP, MLD and the filters back;
# - the netdev's IPv4 address replaced by another: the three IPv4
#   memberships named by netdev move to it (show's src), and back;
# - SIGTERM: STOPPING=1, exit 0, nothing left (show, IGMP, MLD, filters);
# - SIGKILL of a second run: the kernel leaves everything when the file
#   closes; no live object;
# - the querier watchdog: without CAP_NET_RAW (uid 65534) it says it is
#   off, once per family; as root, with -q 3 and a state file, it watches
#   veth1 for IGMP and MLD (where the full members are) and not veth0
#   (a send-only member there); no query in 3 s: one warning per family,
#   STATUS= names both, the state file counts a silence; an IGMPv3 query
#   from veth0 (mcm_query): heard again, querier, version, interval and
#   robustness in the state file, STATUS= names MLD only; an MLD query
#   from a global address, or without MLD's Router Alert, is ignored as
#   the host ignores it; MLDv2 from a link-local one is heard; silent again once the querier stops (2
#   silences); a reload without the IPv6 member stops the MLD watch;
#   SIGTERM removes the state file.

. "$(dirname "$0")/lib.sh"

T=/tmp/groups
D=$T/groups.d
GROUPS_BIN=/usr/sbin/rdma-mcm-groups
NOTIFY=/usr/libexec/rdma_mcm/bin/mcm_notify
QUERY=/usr/libexec/rdma_mcm/bin/mcm_query
SOCK=@rdma-mcm-groups-test
NOBODY=65534
CG=/sys/fs/cgroup
UNIT=$CG/system.slice/rdma-mcm-groups.service
G1=239.83.0.1		# any source, by netdev: unchanged by the reload
G2=239.83.0.2		# send-only: removed by the reload
G3=232.83.0.1		# source-specific: its sources changed by the reload
G4=239.83.0.4		# added by the reload
G6=ff3e::83:1		# IPv6 by netdev: unchanged
G7=ff3e::83:2		# IPv6 source-specific by local address: unchanged
G9=239.83.9.1		# a root session's
GP=239.83.9.2		# the monitor's probe
S4=$BENCH_IP0		# the sources: rxe0's addresses
S4X=192.0.2.3
S6=$BENCH_IP6_0
MOVED=192.0.2.12	# veth1's address for a while
Q6=fe80::83		# veth0's querier address (MLD: link-local)
QJ=$T/queriers.json	# the watchdog's state file

mkdir -p $D
chmod 0755 $T $D

# --- helpers -------------------------------------------------------------------
# notified LINE [N]: mcm_notify printed LINE (KEY=VALUE) at least N times
notified() { [ "$(grep -c " $1\$" $T/notify)" -ge "${2:-1}" ]; }
last_status() { sed -n 's/^[0-9]* STATUS=//p' $T/notify | tail -n 1; }
status_is() { [ "$(last_status)" = "$1" ]; }
status_starts() { case $(last_status) in "$1"*) return 0 ;; esac; return 1; }
log_count() { grep -c -- "$1" $T/log; }
# start_groups [setpriv ARGS...]: the service in the background, its log
# in $T/log, its pid in GPID; $GROUPS_OPTS its options beyond -d
start_groups() {
	: > $T/log
	NOTIFY_SOCKET=$SOCK "$@" $GROUPS_BIN -d $D ${GROUPS_OPTS:-} >> $T/log 2>&1 &
	GPID=$!
}
as_nobody() { start_groups setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups --nnp; }
# summary FILE: show -j's memberships of the service, one line each:
# group ctx handle age_ms rejoins src state
summary() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("comm") == "rdma-mcm-groups":
        print(o["group"], o["ctx"], o["handle"], o.get("age_ms", 0),
              o.get("rejoins", 0), o.get("src", "-"), o["state"])' "$1" | sort
}
show_now() { rdma-mcm -j show > $T/show.json && summary $T/show.json > $T/now; }
of() { awk -v g="$1" '$1 == g' $T/now; }
of_file() { awk -v g="$1" '$1 == g' "$2"; }
# field GROUP N: field N of GROUP's summary line (2 ctx, 3 handle, 4 age,
# 5 rejoins, 6 src, 7 state)
field() { of "$1" | awk -v n="$2" '{ print $n }'; }
service_count() { show_now && [ "$(wc -l < $T/now)" -eq "$1" ]; }
all_joined() { show_now && [ "$(wc -l < $T/now)" -eq "$1" ] &&
	[ "$(awk '$7 == "joined"' $T/now | wc -l)" -eq "$1" ]; }
# same_keys A B GROUP...: each GROUP has the same ctx and handle in A and B
same_keys() {
	local a=$1 b=$2 g
	shift 2
	for g in "$@"; do
		if [ -z "$(of_file "$g" "$a")" ] ||
		   [ "$(of_file "$g" "$a" | cut -d' ' -f2,3)" != "$(of_file "$g" "$b" | cut -d' ' -f2,3)" ]; then
			echo "$g: $(of_file "$g" "$a") / $(of_file "$g" "$b")"
			return 1
		fi
	done
}
nothing_left() {
	show_now && [ ! -s $T/now ] && not_in_igmp veth1 $G1 && not_in_igmp veth1 $G4 &&
		not_in_igmp veth1 $G3 && not_in_igmp6 veth1 $G6 && not_in_igmp6 veth1 $G7 &&
		mcfilter_none veth1 $G3 $S4 && mcfilter6_none veth1 $G7 $S6
}
conf_v1() {
	cat > $D/10-feeds.conf <<EOF
# IPv4 on the RoCE netdev
group $G1 dev veth1
group $G2 dev veth1 type send-only
group $G3 dev veth1 source $S4
EOF
	cat > $D/20-v6.conf <<EOF
group $G6 dev veth1
group $G7 local $BENCH_IP6_1 source $S6   # MLDv2 INCLUDE
EOF
}
cg_out() {
	[ -n "${GPID:-}" ] && [ -e $CG/cgroup.procs ] && echo "$GPID" > $CG/cgroup.procs 2>/dev/null
	rmdir $UNIT $CG/system.slice 2>/dev/null
	umount $CG 2>/dev/null
	return 0
}

at_exit stop_jobs
at_exit cg_out
at_exit "ip addr replace $BENCH_IP1/24 dev veth1; ip addr del $MOVED/24 dev veth1 2>/dev/null; echo 0 > /proc/sys/net/ipv4/conf/veth1/promote_secondaries"
at_exit "bench_rxe rxe1 veth1"
at_exit bench_ipv6_down
at_exit "ip -6 addr del $Q6/64 dev veth0 2>/dev/null"

plan 65
check "modprobe rdma_mcm" modprobe rdma_mcm
check "$BENCH_IP6_0 on veth0, $BENCH_IP6_1 on veth1: RoCE v2 GIDs" bench_ipv6
$NOTIFY -t 1800 $SOCK > $T/notify 2>&1 &
ok "mcm_notify listens on $SOCK" wait_for 30 grep -q "${SOCK#@}" /proc/net/unix

# --- a configuration refused at start ---------------------------------------------
conf_v1
echo "group $G4 dev veth1 type send-only source $S4" > $D/30-bad.conf
as_nobody
wait_exit $GPID 60
rc=$?
cat $T/log
refused_at_start() {
	[ "$rc" -eq 2 ] && grep -q "$D/30-bad.conf:1: group $G4: sources need a full member" $T/log &&
		! grep -q READY=1 $T/notify && ! rdma-mcm show | grep -q rdma-mcm-groups
}
ok "a bad configuration at start: exit 2, $D/30-bad.conf:1 in the log, no READY=1, nothing joined" \
	refused_at_start
rm -f $D/30-bad.conf

# --- five memberships -----------------------------------------------------------------
as_nobody
ok "READY=1" wait_for 60 notified READY=1
ok "STATUS=5 memberships: 5 joined" wait_for 60 status_is "5 memberships: 5 joined"
cat $T/log
rdma-mcm -j show > $T/show.json
rdma-mcm show
json_ok "show -j: valid against the schema" member $T/show.json 5
five_of_service() {
	[ "$(grep -c "\"pid\":$GPID,\"uid\":$NOBODY,\"comm\":\"rdma-mcm-groups\"" $T/show.json)" -eq 5 ] &&
		[ "$(grep '"comm":"rdma-mcm-groups"' $T/show.json | grep -c '"state":"joined"')" -eq 5 ]
}
ok "show -j: five memberships of rdma-mcm-groups, its pid, uid $NOBODY, all joined" five_of_service
v4_shown() {
	has $T/show.json $G1 '"netdev":"veth1"' "\"src\":\"$BENCH_IP1\"" '"type":"full"' &&
		has $T/show.json $G2 "\"src\":\"$BENCH_IP1\"" '"type":"send-only"' &&
		has $T/show.json $G3 "\"src\":\"$BENCH_IP1\"" "\"sources\":[\"$S4\"]"
}
ok "show -j: IPv4 by netdev from $BENCH_IP1: full, send-only, source-specific [$S4]" v4_shown
v6_shown() {
	has $T/show.json $G6 "\"src\":\"$BENCH_IP6_1\"" '"type":"full"' &&
		has $T/show.json $G7 "\"src\":\"$BENCH_IP6_1\"" "\"sources\":[\"$S6\"]"
}
ok "show -j: IPv6 by netdev from $BENCH_IP6_1 (its global address), and by local address with [$S6]" \
	v6_shown
igmp_first() { in_igmp veth1 $G1 && not_in_igmp veth1 $G2; }
ok "IGMP: $G1 on veth1; $G2 (send-only) not" igmp_first
ok "mcfilter: veth1 $G3 $S4 INC 1" wait_for 10 mcfilter_is veth1 $G3 $S4 "1 0"
mld_first() { in_igmp6 veth1 $G6 && mcfilter6_is veth1 $G7 $S6 "1 0"; }
ok "MLD: $G6 on veth1; mcfilter6: veth1 $G7 $S6 INC 1" mld_first
watch_off_once() {
	[ "$(grep -c 'dev veth1: querier watchdog off for IGMP: Operation not permitted (it needs CAP_NET_RAW)$' $T/log)" -eq 1 ] &&
		[ "$(grep -c 'dev veth1: querier watchdog off for MLD: Operation not permitted (it needs CAP_NET_RAW)$' $T/log)" -eq 1 ]
}
ok "uid $NOBODY, no CAP_NET_RAW: the querier watchdog says it is off, once for IGMP, once for MLD" \
	watch_off_once

# --- the unit that owns them -------------------------------------------------------------
rm -f $T/s.in
mkfifo $T/s.in
rdma-mcm -b $BENCH_IP1 join $G9 < $T/s.in > $T/s.out 2>&1 &
spid=$!
exec 7> $T/s.in
ok "a root session joins $G9" wait_for 30 grep -q "^joined $G9 " $T/s.out
to_unit() {
	# (the guest has no mountpoint(1); 73-limits may have mounted it)
	{ grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG; } && mkdir -p $UNIT &&
		echo "$GPID" > $UNIT/cgroup.procs &&
		grep -qx "0::/system.slice/rdma-mcm-groups.service" /proc/$GPID/cgroup
}
check "the service moved into a cgroup as systemd's (/system.slice/rdma-mcm-groups.service)" to_unit
rdma-mcm show unit rdma-mcm-groups > $T/unit.txt
rdma-mcm show > $T/all.txt
cat $T/unit.txt
unit_shown() {
	[ "$(wc -l < $T/unit.txt)" -eq 5 ] &&
		[ "$(grep -c " owner user pid $GPID uid $NOBODY comm rdma-mcm-groups unit rdma-mcm-groups.service " $T/unit.txt)" -eq 5 ] &&
		[ "$(wc -l < $T/all.txt)" -eq 6 ] && grep -q " group $G9 .* comm rdma-mcm " $T/all.txt &&
		! grep -q " group $G9 .* unit " $T/all.txt
}
ok "show unit rdma-mcm-groups: its five, 'comm rdma-mcm-groups unit rdma-mcm-groups.service'; all: six" \
	unit_shown
cg_out

# --- reload: only the differences ---------------------------------------------------------
timeout 1200 rdma-mcm -j monitor > $T/mon.json 2> $T/mon.err &
mpid=$!
probe() {
	printf 'join %s\nleave %s\n' $GP $GP >&7
	sleep 1
	grep -q "\"group\":\"$GP\"" $T/mon.json
}
ok "rdma-mcm monitor listens (it reports a probe's join)" wait_for 90 probe
show_now
cp $T/now $T/before
cat $T/before
# one removed, one added, one's sources changed; the others moved about
cat > $D/10-feeds.conf <<EOF
# reordered, rewritten, the send-only one gone
group $G3 dev veth1 source $S4X,$S4
dev veth1   group $G1   type full
EOF
cat > $D/15-new.conf <<EOF
group $G4 dev veth1
EOF
sleep 1
kill -HUP $GPID
reloaded() { wait_for 60 notified READY=1 2 && wait_for 60 status_is "5 memberships: 5 joined"; }
ok "reload: READY=1 again, STATUS=5 memberships: 5 joined" reloaded
ok "reload: RELOADING=1 and MONOTONIC_USEC in one datagram, before the second READY=1" \
	awk '/ RELOADING=1$/ { r = $1 } / MONOTONIC_USEC=[0-9]+$/ { m = $1 }
	     / READY=1$/ { n++; if (n == 2) ready = $1 }
	     END { exit !(r && r == m && ready > r) }' $T/notify
ok "reload: every membership joined" wait_for 60 all_joined 5
cp $T/now $T/after
cat $T/after
untouched() {
	same_keys $T/before $T/after $G1 $G6 $G7 &&
		awk -v a="$G1 $G6 $G7" 'BEGIN { split(a, g, " "); for (i in g) want[g[i]] = 1 }
			FNR == NR { age[$1] = $4; next }
			$1 in want { if ($4 <= age[$1] || $5 != 0) bad = 1; n++ }
			END { exit bad || n != 3 }' $T/before $T/after
}
ok "reload: $G1, $G6, $G7 untouched: same context and handle, rejoins 0, age_ms grew" untouched
left_and_joined() {
	[ -z "$(of_file $G2 $T/after)" ] && [ -n "$(of_file $G4 $T/after)" ] &&
		wait_for 10 in_igmp veth1 $G4 && not_in_igmp veth1 $G2
}
ok "reload: $G2 left (not shown), $G4 joined: in IGMP" left_and_joined
replaced() {
	! same_keys $T/before $T/after $G3 > /dev/null && [ -n "$(of_file $G3 $T/after)" ] &&
		mcfilter_is veth1 $G3 $S4 "1 0" && mcfilter_is veth1 $G3 $S4X "1 0"
}
ok "reload: $G3 joined again, a new handle, both sources INC 1" replaced
gone_from_monitor() {
	grep -q "\"event\":\"joined\".*\"group\":\"$G4\"" $T/mon.json &&
		grep -q "\"event\":\"joined\".*\"group\":\"$G3\"" $T/mon.json &&
		grep -q "\"event\":\"leave\".*\"group\":\"$G2\"" $T/mon.json
}
ok "the monitor saw $G2 left, $G3 and $G4 joined" wait_for 30 gone_from_monitor
ok "the monitor saw no event of $G1, $G6, $G7 (no leave, no join)" \
	eval "! grep -E '\"group\":\"($G1|$G6|$G7)\"' $T/mon.json"
grep -v "\"group\":\"$GP\"" $T/mon.json
ok "the log counts it: 1 joined, 1 left, 1 replaced, 3 unchanged" \
	grep -q 'reloaded: 1 joined, 1 left, 1 replaced, 3 unchanged$' $T/log

# --- a reload refused ---------------------------------------------------------------------
echo "group 239.83.0.5 dev veth1 ttl 1" > $D/90-bad.conf
kill -HUP $GPID
refused() {
	wait_for 60 notified READY=1 3 &&
		wait_for 30 status_starts "reload refused ($D/90-bad.conf:1: unknown keyword 'ttl'" &&
		case $(last_status) in *"; 5 memberships: 5 joined") ;; *) return 1 ;; esac
}
ok "a reload with an error: READY=1, STATUS= starts with reload refused ($D/90-bad.conf:1: ...)" \
	refused
show_now
ok "... the five as they were: same contexts and handles" \
	same_keys $T/after $T/now $G1 $G3 $G4 $G6 $G7
refused_logged() {
	grep -q "$D/90-bad.conf:1: unknown keyword 'ttl'" $T/log &&
		grep -q "reload refused: 1 error in $D; the memberships held stay as they were" $T/log
}
ok "... the log names $D/90-bad.conf:1 and says the memberships stay" refused_logged
# the refusal stays in STATUS= until a reload passes
rm -f $D/90-bad.conf
kill -HUP $GPID
passed_again() {
	wait_for 60 notified READY=1 4 && wait_for 30 status_is "5 memberships: 5 joined" &&
		grep -q 'reloaded: 0 joined, 0 left, 0 replaced, 5 unchanged$' $T/log
}
ok "the next reload passes: STATUS=5 memberships: 5 joined, nothing changed" passed_again

# --- a device reset ------------------------------------------------------------------------
cp $T/now $T/reset.before
check "rdma link delete rxe1 under the service" timeout 60 rdma link delete rxe1
all_lost() { [ "$(log_count ': lost (')" -ge 5 ] && grep -q 'its RDMA device went away' $T/log; }
ok "each membership lost, waiting (5 'lost' lines), its contexts without a device" \
	wait_for 60 all_lost
check "rdma link add rxe1 again" bench_rxe rxe1 veth1
ok "STATUS=5 memberships: 5 joined again" wait_for 120 status_is "5 memberships: 5 joined"
healed() {
	wait_for 60 all_joined 5 && same_keys $T/reset.before $T/now $G1 $G3 $G4 $G6 $G7 &&
		[ "$(awk '$5 == 1' $T/now | wc -l)" -eq 5 ]
}
ok "show: every membership joined again on its handle, rejoins 1" healed
all_back() {
	in_igmp veth1 $G1 && in_igmp veth1 $G4 && in_igmp6 veth1 $G6 &&
		mcfilter_is veth1 $G3 $S4 "1 0" && mcfilter6_is veth1 $G7 $S6 "1 0"
}
ok "IGMP, MLD and the source filters back on veth1" wait_for 30 all_back

# --- the netdev's address replaced ------------------------------------------------------
echo 1 > /proc/sys/net/ipv4/conf/veth1/promote_secondaries
ip addr add $MOVED/24 dev veth1
ip addr del $BENCH_IP1/24 dev veth1
moved_to() {
	show_now && [ "$(field $G1 6)" = "$1" ] && [ "$(field $G3 6)" = "$1" ] &&
		[ "$(field $G4 6)" = "$1" ] && [ "$(field $G6 6)" = "$BENCH_IP6_1" ] &&
		[ "$(awk '$7 == "joined"' $T/now | wc -l)" -eq 5 ]
}
ok "veth1's IPv4 address now $MOVED: its three IPv4 memberships move to it, joined; IPv6 stays" \
	wait_for 90 moved_to $MOVED
ok "the log says so" grep -q "dev veth1: $BENCH_IP1 is gone: its memberships move to $MOVED" $T/log
ip addr add $BENCH_IP1/24 dev veth1
ip addr del $MOVED/24 dev veth1
ok "and back to $BENCH_IP1 when it is veth1's again" wait_for 90 moved_to $BENCH_IP1
echo 0 > /proc/sys/net/ipv4/conf/veth1/promote_secondaries
g1_once() { in_igmp veth1 $G1 && [ "$(igmp_users veth1 $G1)" -eq 1 ]; }
ok "IGMP: $G1 on veth1 throughout, once" g1_once

# --- stop ---------------------------------------------------------------------------------
kill $mpid 2>/dev/null
wait $mpid 2>/dev/null
echo quit >&7
exec 7>&-
wait_exit $spid 30
kill -TERM $GPID
wait_exit $GPID 60
rc=$?
stopped_clean() { [ "$rc" -eq 0 ] && wait_for 10 notified STOPPING=1 && grep -q 'left 5 memberships$' $T/log; }
ok "SIGTERM: exit 0, STOPPING=1, 'left 5 memberships'" stopped_clean
ok "nothing left: no membership, IGMP, MLD or filter of theirs" wait_for 30 nothing_left
ok "no live object" wait_for 30 live_zero

cat $T/log $T/notify

# --- SIGKILL: the kernel cleans up --------------------------------------------------------
start_groups
ok "a second run (root): STATUS=5 memberships: 5 joined" \
	wait_for 60 status_is "5 memberships: 5 joined"
second_in() { in_igmp veth1 $G4 && in_igmp6 veth1 $G6; }
ok "... in IGMP and MLD" wait_for 30 second_in
kill -KILL $GPID
wait $GPID 2>/dev/null
ok "SIGKILL: nothing left once the kernel closed the file" wait_for 60 nothing_left
ok "no live object" wait_for 30 live_zero
cat $T/log

# --- the querier watchdog ---------------------------------------------------------------
# qj DEV FAMILY KEY: KEY of DEV's FAMILY line in the state file, as JSON
qj() {
	python3 -c 'import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["dev"] == sys.argv[2] and o["family"] == sys.argv[3]:
        print(json.dumps(o[sys.argv[4]]))' $QJ "$@" 2> /dev/null
}
qj_is() { [ "$(qj "$1" "$2" "$3")" = "$4" ]; }
qj_lines() { [ -f $QJ ] && [ "$(wc -l < $QJ)" -eq "$1" ]; }
rm -f $D/*.conf
cat > $D/40-watch.conf <<EOF
group $G1 dev veth1
group $G6 local $BENCH_IP6_1
group $G2 dev veth0 type send-only
EOF
ip -6 addr add $Q6/64 dev veth0 nodad
GROUPS_OPTS="-q 3 -s $QJ" start_groups
ok "a run as root with -q 3 -s $QJ: STATUS=3 memberships: 3 joined" \
	wait_for 60 status_starts "3 memberships: 3 joined"
watching() {
	qj_lines 2 && qj_is veth1 inet listening true && qj_is veth1 inet6 listening true &&
		qj_is veth1 inet timeout_ms 3000 && [ -z "$(qj veth0 inet listening)" ]
}
ok "it listens on veth1 for IGMP and MLD (the IPv6 member by its local address), not on veth0 (send-only there)" \
	wait_for 30 watching
cat $QJ
silent_both() {
	[ "$(grep -c 'dev veth1: no IGMP query heard in [0-9]* s: without a querier' $T/log)" -eq 1 ] &&
		[ "$(grep -c 'dev veth1: no MLD query heard in [0-9]* s: without a querier' $T/log)" -eq 1 ] &&
		qj_is veth1 inet silences 1 && qj_is veth1 inet6 silences 1 &&
		qj_is veth1 inet silent true && qj_is veth1 inet6 querier null
}
ok "no query in 3 s: one warning for IGMP, one for MLD; the state file counts a silence each" \
	wait_for 60 silent_both
status_names_both() {
	case $(last_status) in
	"3 memberships: 3 joined; no querier: "*"IGMP on veth1"*) ;;
	*) return 1 ;;
	esac
	case $(last_status) in *"MLD on veth1"*) return 0 ;; esac
	return 1
}
ok "STATUS= names both: 3 memberships: 3 joined; no querier: ..." wait_for 30 status_names_both
ok "mcm_query sends an IGMPv3 query from veth0 ($BENCH_IP0, interval 125 s, robustness 2)" \
	$QUERY -i veth0 -V igmpv3 -s $BENCH_IP0 -q 125 -r 2 -m 10 -c 1
igmp_heard() {
	grep -q "dev veth1: IGMP query heard again, from $BENCH_IP0 (igmpv3), [0-9]* s after the last$" $T/log &&
		qj_is veth1 inet querier "\"$BENCH_IP0\"" && qj_is veth1 inet version '"igmpv3"' &&
		qj_is veth1 inet qqi_s 125 && qj_is veth1 inet qrv 2 &&
		[ "$(qj veth1 inet queries)" -ge 1 ]
}
ok "heard again: the log, and querier, version, interval, robustness in the state file" \
	wait_for 60 igmp_heard
cat $QJ
ok "STATUS= then named MLD only: 3 memberships: 3 joined; no querier: MLD on veth1" \
	wait_for 30 grep -q ' STATUS=3 memberships: 3 joined; no querier: MLD on veth1$' $T/notify
ok "mcm_query sends an MLDv2 query from a global address ($S6)" \
	$QUERY -i veth0 -V mldv2 -s $S6 -c 1
mld_ignored() {
	grep -q "dev veth1: mldv2 query from $S6 ignored, as the host ignores it (its source is not link-local)" $T/log &&
		qj_is veth1 inet6 ignored 1 && qj_is veth1 inet6 queries 0 && qj_is veth1 inet6 silent true
}
ok "... ignored, as the host ignores it: counted, logged, still silent" wait_for 60 mld_ignored
ok "mcm_query sends an MLDv2 query from $Q6 without MLD's Router Alert" \
	$QUERY -i veth0 -V mldv2 -s $Q6 -R -c 1
no_ra_ignored() {
	grep -q "dev veth1: mldv2 query from $Q6 ignored, as the host ignores it (it has no MLD Router Alert)" $T/log &&
		qj_is veth1 inet6 ignored 2 && qj_is veth1 inet6 queries 0 && qj_is veth1 inet6 silent true
}
ok "... ignored too: no Router Alert" wait_for 60 no_ra_ignored
ok "mcm_query sends an MLDv2 query from $Q6 (link-local)" \
	$QUERY -i veth0 -V mldv2 -s $Q6 -c 1
mld_heard() {
	grep -q "dev veth1: MLD query heard again, from $Q6 (mldv2)" $T/log &&
		qj_is veth1 inet6 querier "\"$Q6\"" && qj_is veth1 inet6 version '"mldv2"'
}
ok "... heard again from $Q6" wait_for 60 mld_heard
ok "no query since: silent again, IGMP counted twice" wait_for 60 qj_is veth1 inet silences 2
echo "group $G1 dev veth1" > $D/40-watch.conf
echo "group $G2 dev veth0 type send-only" >> $D/40-watch.conf
kill -HUP $GPID
mld_unwatched() { qj_lines 1 && [ -z "$(qj veth1 inet6 listening)" ] && qj_is veth1 inet listening true; }
ok "a reload without the IPv6 member: MLD no longer watched, IGMP still" wait_for 60 mld_unwatched
kill -TERM $GPID
wait_exit $GPID 60
rc=$?
watch_stopped() { [ "$rc" -eq 0 ] && [ ! -e $QJ ] && [ ! -e $QJ.tmp ]; }
ok "SIGTERM: exit 0, the state file removed" watch_stopped
ok "nothing left" wait_for 30 nothing_left
cat $T/log
