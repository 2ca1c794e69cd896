# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: healing (the default), route-bound contexts.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

# A port event: rejoining with the reason, rejoined; the list says so
RJ='rejoining 239.4.4.1 handle 1 status -102 ENETRESET (Network dropped connection on reset)'
FAKE_REJOIN_GROUP=239.4.4.1 run 'list\nstats\nquit\n' -b 10.0.0.1 join 239.4.4.1
cat > "$TMP/want" <<EOF
joined 239.4.4.1 handle 1 mgid ::ffff:239.4.4.1 mlid 0x0 qkey 0x1234567 sl 0 port 1
$RJ
rejoined 239.4.4.1 handle 1 mgid ::ffff:239.4.4.1 mlid 0x0 qkey 0x1234567 sl 0 port 1
ctx 1 handle 1 group 239.4.4.1 state joined type full mgid ::ffff:239.4.4.1 mlid 0x0 qkey 0x1234567 events 3 rejoins 1 last_status -102 ENETRESET (Network dropped connection on reset) state-age Ns joined-by rdma_cm
abi 1 contexts 1 memberships 1 joining 0 joined 1 error 0 waiting 0 events 3
left 239.4.4.1 handle 1 events 3
EOF
expect "join heals by default: rejoining, rejoined, rejoins 1 and last_status" 0 ''

# Lost and not joined again yet: state waiting
FAKE_WAIT_GROUP=239.4.4.2 run 'list\nstats\nquit\n' -b 10.0.0.1 join 239.4.4.2
cat > "$TMP/want" <<EOF
joined 239.4.4.2 handle 1 mgid ::ffff:239.4.4.2 mlid 0x0 qkey 0x1234567 sl 0 port 1
rejoining 239.4.4.2 handle 1 status -102 ENETRESET (Network dropped connection on reset)
ctx 1 handle 1 group 239.4.4.2 state waiting type full status -102 ENETRESET (Network dropped connection on reset) events 2 rejoins 0 last_status -102 ENETRESET (Network dropped connection on reset) state-age Ns
abi 1 contexts 1 memberships 1 joining 0 joined 0 error 0 waiting 1 events 2
left 239.4.4.2 handle 1 events 2
EOF
expect "list and stats show a waiting membership" 0 ''
FAKE_WAIT_GROUP=239.4.4.2 run 'list\nstats\nquit\n' -j -b 10.0.0.1 join 239.4.4.2
: > "$TMP/why.json"
json_lines "$TMP/out" && python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ev, mb, st = lines[1], lines[2], lines[3]
want_ev = {"event": "rejoining", "group": "239.4.4.2", "handle": 1,
           "status": -102, "errno": "ENETRESET"}
want_mb = {"state": "waiting", "status": -102, "errno": "ENETRESET",
           "rejoins": 0, "last_status": -102,
           "last_errno": "ENETRESET",
           "last_error": "Network dropped connection on reset"}
for obj, want in ((ev, want_ev), (mb, want_mb), (st, {"waiting": 1})):
    got = {k: obj.get(k) for k in want}
    if got != want:
        sys.exit("%r: %r, wanted %r" % (obj, got, want))
if not isinstance(mb.get("age"), float) or mb["age"] < 0:
    sys.exit("age %r" % mb.get("age"))
' "$TMP/out" 2>> "$TMP/why.json"
result "-j: rejoining, a waiting member with last_errno and age, stats" $? "$TMP/why.json"

# A transient join error heals; a permanent one does not
FAKE_FAIL_GROUP=239.9.9.9 FAKE_FAIL_ERRNO=110 run 'list\nquit\n' \
	-b 10.0.0.1 join 239.9.9.9
cat > "$TMP/want" <<EOF
rejoining 239.9.9.9 handle 1 status -110 ETIMEDOUT (Connection timed out)
ctx 1 handle 1 group 239.9.9.9 state waiting type full status -110 ETIMEDOUT (Connection timed out) events 1 rejoins 0 last_status -110 ETIMEDOUT (Connection timed out) state-age Ns
left 239.9.9.9 handle 1 events 1
EOF
expect "a join that times out waits to be joined again" 0 ''
FAKE_FAIL_GROUP=239.9.9.9 FAKE_FAIL_ERRNO=111 run 'quit\n' \
	-b 10.0.0.1 join 239.9.9.9
printf 'error 239.9.9.9 handle 1 status -111 ECONNREFUSED (Connection refused)\nleft 239.9.9.9 handle 1 events 1\n' > "$TMP/want"
expect "a join the SA refuses is an error, healing or not" 0 ''

# The device goes and comes back under a join session
FAKE_REMOVE_GROUP=239.9.9.8 FAKE_DEVICE_BACK=1 run 'list\nquit\n' \
	-b 10.0.0.1 join 239.9.9.8
cat > "$TMP/want" <<EOF
joined 239.9.9.8 handle 1 mgid ::ffff:239.9.9.8 mlid 0x0 qkey 0x1234567 sl 0 port 1
rejoining 239.9.9.8 handle 1 status -19 ENODEV (No such device)
device-removed ctx 1 status -19 ENODEV (No such device)
device-added ctx 1 port 1
rejoined 239.9.9.8 handle 1 mgid ::ffff:239.9.9.8 mlid 0x0 qkey 0x1234567 sl 0 port 1
ctx 1 handle 1 group 239.9.9.8 state joined type full mgid ::ffff:239.9.9.8 mlid 0x0 qkey 0x1234567 events 3 rejoins 1 last_status -19 ENODEV (No such device) state-age Ns joined-by rdma_cm
left 239.9.9.8 handle 1 events 3
EOF
expect "device gone and back: rejoining, device-removed, device-added, rejoined" 0 ''
FAKE_REMOVE_GROUP=239.9.9.8 FAKE_DEVICE_BACK=1 run 'quit\n' -j -b 10.0.0.1 join 239.9.9.8
: > "$TMP/why.json"
json_lines "$TMP/out" &&
	grep -qxF '{"event":"device-added","ctx":1,"port":1}' "$TMP/out" &&
	grep -qF '{"event":"rejoined","group":"239.9.9.8","ctx":1,"handle":1,"cookie":1,"mgid":"::ffff:239.9.9.8",' "$TMP/out" &&
	grep -qxF '{"event":"rejoining","group":"239.9.9.8","ctx":1,"handle":1,"cookie":1,"status":-19,"errno":"ENODEV","error":"No such device"}' "$TMP/out"
result "-j: rejoining, device-added and rejoined lines" $? "$TMP/out"

# --no-heal: the same port event ends in error
FAKE_REJOIN_GROUP=239.4.4.1 run 'quit\n' -b 10.0.0.1 join 239.4.4.1 --no-heal
printf 'joined 239.4.4.1 handle 1 mgid ::ffff:239.4.4.1 mlid 0x0 qkey 0x1234567 sl 0 port 1\nerror 239.4.4.1 handle 1 status -102 ENETRESET (Network dropped connection on reset)\nleft 239.4.4.1 handle 1 events 2\n' > "$TMP/want"
expect "join --no-heal: a port event is an error" 0 ''

# Without -b, the context is bound by route to the first group
printf 'joined 239.4.4.3 handle 1 mgid ::ffff:239.4.4.3 mlid 0x0 qkey 0x1234567 sl 0 port 1\nleft 239.4.4.3 handle 1 events 1\n' > "$TMP/want"
run 'quit\n' join 239.4.4.3
expect "join without -b: a context bound by route" 0 ''
FAKE_ROUTE_ERRNO=101 run 'quit\n' join 239.4.4.3
: > "$TMP/want"
expect "join without -b, no route: exit 1" 1 \
	'route to 239.4.4.3: Network is unreachable'
FAKE_ROUTE_ERRNO=101 run 'quit\n' -b 10.0.0.1 join 239.4.4.3
printf 'joined 239.4.4.3 handle 1 mgid ::ffff:239.4.4.3 mlid 0x0 qkey 0x1234567 sl 0 port 1\nleft 239.4.4.3 handle 1 events 1\n' > "$TMP/want"
expect "join with -b needs no route" 0 ''

# A module before healing: told once, no heal, as before
FAKE_NO_HEAL=1 FAKE_REJOIN_GROUP=239.4.4.1 run 'list\nquit\n' -b 10.0.0.1 join 239.4.4.1
cat > "$TMP/want" <<EOF
joined 239.4.4.1 handle 1 mgid ::ffff:239.4.4.1 mlid 0x0 qkey 0x1234567 sl 0 port 1
error 239.4.4.1 handle 1 status -102 ENETRESET (Network dropped connection on reset)
ctx 1 handle 1 group 239.4.4.1 state error type full status -102 ENETRESET (Network dropped connection on reset) events 2 rejoins 0
left 239.4.4.1 handle 1 events 2
EOF
expect "a module before healing: a warning, errors, no age" 0 \
	'takes no context flags .* memberships will not heal'
FAKE_NO_HEAL=1 run 'quit\n' -b 10.0.0.1 --no-heal join 239.4.4.1
printf 'joined 239.4.4.1 handle 1 mgid ::ffff:239.4.4.1 mlid 0x0 qkey 0x1234567 sl 0 port 1\nleft 239.4.4.1 handle 1 events 1\n' > "$TMP/want"
expect "a module before healing, --no-heal: no warning" 0 ''
FAKE_NO_HEAL=1 run 'quit\n' join 239.4.4.1
: > "$TMP/want"
expect "a module before healing, no -b: the GID walk, and no device" 1 \
	'no RDMA device has an IPv4 address'
FAKE_NO_HEAL=1 FAKE_VERBS=1 run 'quit\n' --no-heal join 239.4.4.1
printf 'joined 239.4.4.1 handle 1 mgid ::ffff:239.4.4.1 mlid 0x0 qkey 0x1234567 sl 0 port 1\nleft 239.4.4.1 handle 1 events 1\n' > "$TMP/want"
expect "a module before healing, no -b: the GID walk finds 10.0.0.1" 0 ''
