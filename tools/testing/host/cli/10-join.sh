# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: the join session: its stdin commands, text output, signals.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

run 'list\nleave 239.1.1.1\nlist\njoin 239.1.1.3 --send-only\nstats\nquit\n' \
	-b 10.0.0.1 join 239.1.1.1 239.1.1.2
cat > "$TMP/want" <<EOF
$J1
$J2
ctx 1 handle 1 group 239.1.1.1 state joined type full mgid ::ffff:239.1.1.1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns joined-by rdma_cm
$L2
left 239.1.1.1 handle 1 events 1
$L2
joined 239.1.1.3 handle 3 mgid ::ffff:239.1.1.3 mlid 0x0 qkey 0x1234567 sl 0 port 1
abi 1 contexts 1 memberships 2 joining 0 joined 2 error 0 waiting 0 events 3
left 239.1.1.3 handle 3 events 1
left 239.1.1.2 handle 2 events 1
EOF
expect "join session: list, leave, join --send-only, stats, quit" 0 ''

cat > "$TMP/want" <<'EOF'
{"event":"joined","group":"239.1.1.1","ctx":1,"handle":1,"cookie":1,"mgid":"::ffff:239.1.1.1","mlid":0,"qkey":19088743,"sl":0,"port":1}
{"group":"239.1.1.1","ctx":1,"handle":1,"state":"joined","type":"send-only","flags":"send-only","status":0,"mgid":"::ffff:239.1.1.1","mlid":0,"qkey":19088743,"events":1,"rejoins":0,"last_status":0,"state_age_ms":N,"age":N,"nr_sources":0,"joined_by":"rdma_cm"}
{"event":"left","group":"239.1.1.1","handle":1,"events":1}
EOF
# stdin ends without quit: the session stays joined until SIGTERM, sent
# once it printed the "left" of the leave
printf 'list\nleave 239.1.1.1\n' > "$TMP/in"
signal_when TERM 3 0 "$TMP/in" -j -b 10.0.0.1 join 239.1.1.1 --send-only
expect "JSON lines; end of stdin keeps the session until SIGTERM" 0 ''

run 'join 239.1.1.1\nleave 239.7.7.7\nleave\nfrobnicate\njoin ff0e::1\njoin bad\n# comment\n\nhelp\nexit\n' \
	-b 10.0.0.1 join 239.1.1.1
cat > "$TMP/want" <<EOF
$J1
commands: join GROUP... [--send-only] [--source ADDR]... | leave GROUP... | list | show [dev DEV]
  [group GROUP] [state STATE] [ctx ID] | stats | help | quit
(show: the host's view of this process's memberships, through netlink;
a command may be shortened to a prefix that names one only)
left 239.1.1.1 handle 1 events 1
EOF
expect "session errors are reported and the session goes on" 0 \
	'join 239.1.1.1: Address already in use'
for msg in 'leave 239.7.7.7: Cannot assign requested address' \
	   'usage: leave GROUP' "unknown command 'frobnicate'" \
	   "all groups must be of the source's family" \
	   "bad group address 'bad'"; do
	grep -qF -- "$msg" "$TMP/err"
	result "session error: $msg" $?
done

FAKE_FAIL_GROUP=239.9.9.9 run 'list\nquit\n' -b 10.0.0.1 --no-heal join 239.9.9.9 239.1.1.2
cat > "$TMP/want" <<EOF
error 239.9.9.9 handle 1 status -110 ETIMEDOUT (Connection timed out)
$J2
ctx 1 handle 1 group 239.9.9.9 state error type full status -110 ETIMEDOUT (Connection timed out) events 1 rejoins 0 last_status -110 ETIMEDOUT (Connection timed out) state-age Ns
$L2
left 239.9.9.9 handle 1 events 1
left 239.1.1.2 handle 2 events 1
EOF
expect "--no-heal: ERROR event and error state" 0 ''

# Every status of uapi.rst's "Membership status": its errno name and text,
# in the event and in the list, as text and as JSON (--no-heal: each is an
# error)
for st in "102 ENETRESET Network dropped connection on reset" \
	  "110 ETIMEDOUT Connection timed out" \
	  "111 ECONNREFUSED Connection refused" \
	  "19 ENODEV No such device" \
	  "12 ENOMEM Cannot allocate memory" \
	  "5 EIO Input/output error"; do
	read -r num name text <<< "$st"
	FAKE_FAIL_GROUP=239.9.9.9 FAKE_FAIL_ERRNO=$num run 'list\nquit\n' \
		-b 10.0.0.1 join 239.9.9.9 --no-heal
	cat > "$TMP/want" <<EOF
error 239.9.9.9 handle 1 status -$num $name ($text)
ctx 1 handle 1 group 239.9.9.9 state error type full status -$num $name ($text) events 1 rejoins 0 last_status -$num $name ($text) state-age Ns
left 239.9.9.9 handle 1 events 1
EOF
	expect "status -$num as $name ($text)" 0 ''
	FAKE_FAIL_GROUP=239.9.9.9 FAKE_FAIL_ERRNO=$num run 'list\nquit\n' \
		-j -b 10.0.0.1 --no-heal join 239.9.9.9
	: > "$TMP/why.json"
	json_lines "$TMP/out" && python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
want = {"status": -int(sys.argv[2]), "errno": sys.argv[3], "error": sys.argv[4]}
for obj in lines[:2]:
    got = {k: obj.get(k) for k in want}
    if got != want:
        sys.exit("%r: %r, wanted %r" % (obj, got, want))
' "$TMP/out" "$num" "$name" "$text" 2>> "$TMP/why.json"
	result "-j: status -$num as \"errno\":\"$name\" and its text" $? "$TMP/why.json"
done

# The device goes: ERROR and DEVICE_REMOVED with -ENODEV's name
FAKE_REMOVE_GROUP=239.9.9.8 run 'list\nquit\n' -b 10.0.0.1 --no-heal join 239.9.9.8
cat > "$TMP/want" <<EOF
joined 239.9.9.8 handle 1 mgid ::ffff:239.9.9.8 mlid 0x0 qkey 0x1234567 sl 0 port 1
error 239.9.9.8 handle 1 status -19 ENODEV (No such device)
device-removed ctx 1 status -19 ENODEV (No such device)
ctx 1 handle 1 group 239.9.9.8 state error type full status -19 ENODEV (No such device) events 2 rejoins 0 last_status -19 ENODEV (No such device) state-age Ns
left 239.9.9.8 handle 1 events 2
EOF
expect "--no-heal, device removed: ERROR and device-removed with ENODEV" 0 ''
FAKE_REMOVE_GROUP=239.9.9.8 run 'quit\n' -j -b 10.0.0.1 --no-heal join 239.9.9.8
grep -qxF '{"event":"device-removed","ctx":1,"status":-19,"errno":"ENODEV","error":"No such device"}' "$TMP/out"
result "-j: device-removed with \"errno\":\"ENODEV\"" $? "$TMP/out"

FAKE_NO_COMPLETE=1 run 'list\nleave 239.1.1.1\nquit\n' -b 10.0.0.1 join 239.1.1.1
cat > "$TMP/want" <<EOF
ctx 1 handle 1 group 239.1.1.1 state joining type full events 0 rejoins 0 state-age Ns
left 239.1.1.1 handle 1 events 0
EOF
expect "leave of a join in flight" 0 ''

cat > "$TMP/want" <<'EOF'
joined ff12::1 handle 1 mgid ff12::1 mlid 0x0 qkey 0x1234567 sl 0 port 1
joined ff12::2 handle 2 mgid ff12::2 mlid 0x0 qkey 0x1234567 sl 0 port 1
left ff12::1 handle 1 events 1
left ff12::2 handle 2 events 1
EOF
signal_when INT 2 0 open -b 'fe80::1%1' join ff12::1 ff12::2
expect "IPv6 groups; SIGINT leaves all" 0 ''

signal_when TERM 1 0 open -b 10.0.0.1 join 239.1.1.1
printf '%s\nleft 239.1.1.1 handle 1 events 1\n' "$J1" > "$TMP/want"
expect "SIGTERM with stdin open leaves all" 0 ''
