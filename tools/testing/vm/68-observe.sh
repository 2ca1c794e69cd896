#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# What an administrator sees of rdma_mcm besides the membership table
# (67-netlink): the rdma_mcm: tracepoints, and the counters of the paths
# that fail or lose memberships, on the real rxe.
#
#  - the six tracepoints exist under tracefs; a session that joins and
#    leaves a group fires mcm_join, mcm_state (joining -> joined, joined
#    -> leaving -> left), mcm_deliver (joined) and mcm_leave, in the
#    formats Documentation/netlink.rst shows;
#  - rdma link delete rxe1 under a healing session, then rdma link add:
#    mcm_device_loss (lost, added) and mcm_rejoin fire; rdma-mcm -j stats
#    counts one device loss, one device found again, one wait for -ENODEV
#    and one rejoin, module-wide and in rxe1's counters; rdma-mcm -j
#    monitor gets device-lost, waiting, device-added, rejoin, joined, in
#    that order;
#  - a join refused by the char device itself (the per-file limit,
#    max_memberships) counts in join_failures as ENOBUFS.

. "$(dirname "$0")/lib.sh"

TR=/sys/kernel/tracing
T=/tmp/obs
G1=239.10.0.1
G2=239.10.0.2
G3=239.10.0.3
G4=239.10.0.4
GP=239.10.0.9		# the monitor's probe

mkdir -p $T
# stat EXPR: a value of 'rdma-mcm -j stats' (s: its object)
stat() {
	rdma-mcm -j stats | python3 -c '
import json, sys
s = json.load(sys.stdin)
dev = {d["dev"]: d for d in s["devices"]}
def failed(bd, name):
    return sum(e["count"] for e in bd if e["name"] == name)
print(eval(sys.argv[1]))' "$1"
}
# a join session fed from a fifo: session NAME GROUP...
session() {
	local name=$1
	shift
	rm -f $T/$name.in
	mkfifo $T/$name.in
	rdma-mcm -b $BENCH_IP1 join "$@" < $T/$name.in > $T/$name.out 2>&1 &
	eval "${name}_pid=$!"
	eval "exec {${name}_fd}> $T/$name.in"
}
say() { local fd="${1}_fd"; echo "$2" >&"${!fd}"; }
end_session() {
	local fd="${1}_fd" pid="${1}_pid"
	echo quit >&"${!fd}"
	eval "exec ${!fd}>&-"
	wait "${!pid}"
}
# has_line FILE REGEX
has_line() { grep -qE "$2" "$1" || { echo "no line matching $2 in $1:"; cat "$1"; return 1; }; }

plan 28

check "modprobe rdma_mcm" modprobe rdma_mcm
[ -d $TR/events ] || mount -t tracefs nodev $TR
tp_all() {
	local e
	for e in mcm_join mcm_state mcm_deliver mcm_leave mcm_rejoin \
		 mcm_device_loss; do
		[ -d $TR/events/rdma_mcm/$e ] || { echo "no $e"; return 1; }
	done
}
ok "the six rdma_mcm: tracepoints are in tracefs" tp_all

# --- a join and a leave, traced -------------------------------------------------
echo > $TR/trace
echo 1 > $TR/events/rdma_mcm/enable
session s1 $G1
ok "a session joins $G1" wait_for 30 grep -q "^joined $G1 " $T/s1.out
say s1 "leave $G1"
ok "and leaves it" wait_for 30 grep -q "^left $G1 " $T/s1.out
end_session s1
echo 0 > $TR/events/rdma_mcm/enable
cp $TR/trace $T/trace1
ok "mcm_join: ctx, handle, group ::ffff:$G1, full" \
	has_line $T/trace1 "mcm_join: ctx=[0-9]+ handle=[0-9]+ group=::ffff:$G1 type=full$"
ok "mcm_state: joining -> joined" \
	has_line $T/trace1 "mcm_state: ctx=[0-9]+ handle=[0-9]+ joining -> joined status=0$"
ok "mcm_deliver: its joined event went to the file" \
	has_line $T/trace1 "mcm_deliver: ctx=[0-9]+ handle=[0-9]+ event=joined status=0$"
ok "mcm_leave: left from joined" \
	has_line $T/trace1 "mcm_leave: ctx=[0-9]+ handle=[0-9]+ group=::ffff:$G1 from=joined$"
leave_order() {
	[ "$(grep -oE 'joined -> leaving|leaving -> left' $T/trace1 | tr '\n' ,)" = \
		"joined -> leaving,leaving -> left," ]
}
ok "mcm_state: joined -> leaving, then leaving -> left" leave_order

# --- a device lost and found again under a healing session --------------------
session s2 $G2
ok "a healing session joins $G2" wait_for 30 grep -q "^joined $G2 " $T/s2.out
losses0=$(stat 's["counters"]["device_losses"]')
adds0=$(stat 's["counters"]["device_adds"]')
rejoins0=$(stat 's["counters"]["rejoins"]')
waits0=$(stat 'failed(s["errors"], "ENODEV")')
dev_losses0=$(stat 'dev["rxe1"]["counters"]["device_losses"]')
timeout 300 rdma-mcm -j monitor > $T/mon.json 2> $T/mon.err &
mon=$!
# the monitor is in the group once it reports a probe's join (or leave)
probes=0
probe() {
	probes=$((probes + 1))
	say s2 "join $GP"
	say s2 "leave $GP"
	sleep 1
	grep -q "\"group\":\"$GP\"" $T/mon.json
}
ok "the monitor reports a probe's join (it is in the group)" wait_for 90 probe
# every probe is left before the device goes (no probe in what follows)
probes_left() { [ "$(grep -c "^left $GP " $T/s2.out)" -eq "$probes" ]; }
ok "the session left every probe" wait_for 30 probes_left
echo > $TR/trace
echo 1 > $TR/events/rdma_mcm/enable
check "rdma link delete rxe1" timeout 60 rdma link delete rxe1
check "rdma link add rxe1 again" bench_rxe rxe1 veth1
ok "the session is joined again" wait_for 60 grep -q "^rejoined $G2 " $T/s2.out
echo 0 > $TR/events/rdma_mcm/enable
cp $TR/trace $T/trace2
ok "mcm_device_loss: rxe1 lost, then added" \
	sh -c "grep -qE 'mcm_device_loss: ctx=[0-9]+ dev=rxe1 lost$' $T/trace2 &&
		grep -qE 'mcm_device_loss: ctx=[0-9]+ dev=rxe1 added$' $T/trace2"
ok "mcm_rejoin: the membership, its reason -ENODEV" \
	has_line $T/trace2 "mcm_rejoin: ctx=[0-9]+ handle=[0-9]+ rejoins=0 reason=-19$"
ok "stats: one more device loss and one device found again" \
	sh -c "[ $(stat 's["counters"]["device_losses"]') -eq $((losses0 + 1)) ] &&
		[ $(stat 's["counters"]["device_adds"]') -eq $((adds0 + 1)) ]"
# mon_count EVENT [STATUS]: the monitor's events of that kind (and status),
# the probe's aside
mon_count() {
	python3 - "$T/mon.json" "$GP" "$1" "${2:-any}" <<-'PY'
	import json, sys
	f, probe, ev, status = sys.argv[1:]
	print(sum(1 for e in map(json.loads, open(f))
	          if e.get("group") != probe and e["event"] == ev and
	          (status == "any" or e.get("status") == int(status))))
	PY
}
ok "stats: rxe1's own counters have the loss" \
	[ "$(stat 'dev["rxe1"]["counters"]["device_losses"]')" -eq $((dev_losses0 + 1)) ]
# the events of the loss and the recovery, the probe's aside: those the
# scenario makes, in order (a rejoin that fails once adds a waiting and a
# rejoin, which may come between them)
mon_events() {
	python3 - "$T/mon.json" "$GP" <<-'PY'
	import json, sys
	want = ["device-lost", "waiting", "device-added", "rejoin", "joined"]
	got = [e["event"] for e in map(json.loads, open(sys.argv[1]))
	       if e.get("group") != sys.argv[2]]
	it = iter(got)
	ok = all(w in it for w in want)
	print(" ".join(got))
	sys.exit(0 if ok else 1)
	PY
}
ok "monitor: device-lost, waiting, device-added, rejoin, joined, in order" \
	wait_for 30 mon_events
# a rejoin that failed once (the new device not ready) is one more of each
n_rejoin=$(mon_count rejoin)
n_enodev=$(mon_count waiting -19)
diag "the monitor saw $n_rejoin rejoins and $n_enodev waits for ENODEV"
ok "stats: as many more rejoins as the monitor saw (at least one)" \
	sh -c "[ $n_rejoin -ge 1 ] &&
		[ $(stat 's["counters"]["rejoins"]') -eq $((rejoins0 + n_rejoin)) ]"
ok "stats: as many more losses by ENODEV as waits for ENODEV it saw" \
	sh -c "[ $n_enodev -ge 1 ] &&
		[ $(stat 'failed(s["errors"], "ENODEV")') -eq $((waits0 + n_enodev)) ]"
kill $mon
wait $mon
ok "monitor -j is valid against the schema" \
	python3 /usr/libexec/rdma_mcm/json_check.py \
		/usr/libexec/rdma_mcm/rdma-mcm.schema.json event $T/mon.json --min 5
end_session s2

# --- a join the char device refuses: its per-file limit ----------------------
enobufs0=$(stat 'failed(s["join_failures"], "ENOBUFS")')
old_max=$(cat /sys/module/rdma_mcm/parameters/max_memberships)
echo 1 > /sys/module/rdma_mcm/parameters/max_memberships
session s3 $G3
ok "a session joins $G3 under a limit of one membership" \
	wait_for 30 grep -q "^joined $G3 " $T/s3.out
say s3 "join $G4"
ok "its second join is refused with ENOBUFS" \
	wait_for 30 grep -q "ENOBUFS\|No buffer space" $T/s3.out
end_session s3
echo "$old_max" > /sys/module/rdma_mcm/parameters/max_memberships
ok "stats: join_failures ENOBUFS counts it" \
	[ "$(stat 'failed(s["join_failures"], "ENOBUFS")')" -eq $((enobufs0 + 1)) ]

ok "nothing is left: no live object" live_zero
check "rmmod rdma_mcm" rmmod rdma_mcm
