# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: monitor: the host's events through netlink.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

run '' monitor -c 5
cat > "$TMP/want" <<'EOF'
join ctx 1 handle 1 group 239.9.0.1 state joining owner user pid 1001 uid 0 comm rdma-mcm time 1.000000000
joined ctx 1 handle 1 group 239.9.0.1 state joined owner user pid 1001 uid 0 comm rdma-mcm time 1.000001000
leave ctx 1 handle 1 group 239.9.0.1 state joined owner user pid 1001 uid 0 comm rdma-mcm time 1.000002000
device-lost ctx 1 dev rxe0 owner user pid 1001 uid 0 comm rdma-mcm time 1.000003000
device-added ctx 1 dev rxe0 owner user pid 1001 uid 0 comm rdma-mcm time 1.000004000
EOF
expect "monitor -c 5: five events in order, exit 0" 0 ''
FAKE_NL_EVENTS=10 FAKE_NL_ENOBUFS_AT=3 FAKE_NL_LOST=2 run '' monitor -c 8
sed -n 4p "$TMP/out" | grep -qx 'lost events: the socket overflowed (events_lost 2 since the module loaded)' &&
	[ "$(wc -l < "$TMP/out")" = 9 ] &&
	sed -n 5p "$TMP/out" | grep -q '^join ctx 1 .* time 1.000005000$' &&
	[ "$(cat "$TMP/rc")" = 0 ]
result "monitor: ENOBUFS prints 'lost events' and goes on" $? "$TMP/out"
FAKE_NL_EVENTS=10 FAKE_NL_ENOBUFS_AT=3 FAKE_NL_LOST=2 run '' -j monitor -c 8
schema_ok event "$TMP/out" 9 && json_lines "$TMP/out" &&
	sed -n 4p "$TMP/out" | grep -qx '{"event":"lost","events_lost":2}' &&
	sed -n 2p "$TMP/out" | grep -q '^{"event":"joined","time_ns":1000001000,"wall_time":"[-0-9T:.]*Z","ctx":1,"handle":1,"family":"inet","group":"239.9.0.1","type":"full","state":"joined","status":0,"owner":"user",'
result "monitor -j: events and the loss, valid against the schema" $? "$TMP/why.json"
FAKE_NL_DENY=1 run '' monitor -c 1
: > "$TMP/want"
expect "monitor without CAP_NET_ADMIN: exit 1, says why" 1 'needs CAP_NET_ADMIN'
# without -c it runs until SIGTERM, and exits 0
FAKE_NL_EVENTS=2 signal_when TERM 2 0 /dev/null monitor
rc=$(cat "$TMP/rc")
[ "$rc" = 0 ] && [ "$(wc -l < "$TMP/out")" = 2 ] && [ ! -s "$TMP/err" ]
result "monitor: SIGTERM ends it, exit 0" $? "$TMP/err"
# events that keep coming (a heal storm: each one waiting when the last
# is printed) do not hold up SIGINT; a monitor that never looks at its
# signals runs until $HANG kills it
FAKE_NL_EVENTS=50000000 FAKE_NL_EVENT_US=100 signal_when INT 1 0 /dev/null monitor
[ "$(cat "$TMP/rc")" = 0 ] && [ ! -s "$TMP/err" ]
result "monitor: SIGINT ends it while events keep coming, exit 0" $? "$TMP/err"
# modprobe -r while it runs: the events before, then exit 1, not deaf
FAKE_NL_EVENTS=10 FAKE_NL_UNREGISTER_AT=3 run '' monitor
[ "$(cat "$TMP/rc")" = 1 ] && [ "$(wc -l < "$TMP/out")" = 3 ] &&
	grep -qx 'rdma-mcm: the rdma_mcm module was unloaded' "$TMP/err"
result "monitor: the module unloaded: exit 1, says so" $? "$TMP/err"
