# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: an older module is told by what it says, never by an errno (review 9).
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

# EINVAL from a route-bound context on a module that has them is the
# route's error, said as such: no fallback, no word of an older module
for v in "FAKE_VERBS=1" "FAKE_TODAY=1"; do
	env "$v" FAKE_ROUTE_ERRNO=22 timeout "$HANG" "$CLI" join 239.1.1.1 \
		< /dev/null > "$TMP/out" 2> "$TMP/err"
	echo $? > "$TMP/rc"
	: > "$TMP/want"
	expect "$v FAKE_ROUTE_ERRNO=22 join 239.1.1.1: the route's EINVAL, exit 1" 1 \
		'^rdma-mcm: route to 239.1.1.1: Invalid argument$'
	[ "$(wc -l < "$TMP/err")" = 1 ]
	result "$v FAKE_ROUTE_ERRNO=22: no other message (no older module, no GID walk)" $? "$TMP/err"
done
FAKE_ROUTE_ERRNO=22 FAKE_VERBS=1 run '' -t 10 recv 239.5.5.1 -c 1
: > "$TMP/want"
expect "FAKE_ROUTE_ERRNO=22 recv: the route's EINVAL, exit 1" 1 \
	'^rdma-mcm: route to 239.5.5.1: Invalid argument$'
# the module before healing is still told, by what it says of itself
FAKE_NO_HEAL=1 FAKE_ROUTE_ERRNO=22 FAKE_VERBS=1 run 'quit\n' join 239.4.4.1
printf 'joined 239.4.4.1 handle 1 mgid ::ffff:239.4.4.1 mlid 0x0 qkey 0x1234567 sl 0 port 1\nleft 239.4.4.1 handle 1 events 1\n' > "$TMP/want"
expect "a module before healing (no healing events, no features): the GID walk, said once" 0 \
	'takes no context flags .* memberships will not heal'
# a session's join of a unicast address: refused, the session goes on
run 'join 10.1.1.2 239.1.1.2\nlist\nquit\n' -b 10.0.0.1 join 239.1.1.1
cat > "$TMP/want" <<EOF
$J1
ctx 1 handle 1 group 239.1.1.1 state joined type full mgid ::ffff:239.1.1.1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns joined-by rdma_cm
left 239.1.1.1 handle 1 events 1
EOF
expect "session join of a unicast address: refused whole, said, the session goes on" 0 \
	"^rdma-mcm: group address '10.1.1.2' is not a multicast address"
