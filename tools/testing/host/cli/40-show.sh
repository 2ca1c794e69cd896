# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: show: the host's memberships through netlink (testing/host/fake/fake_nl.c).
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

run '' show
cat > "$TMP/want" <<'EOF'
ctx 1 handle 1 dev rxe0 port 1 netdev veth0 group 239.1.0.1 state joined type full owner user pid 1001 uid 0 comm rdma-mcm age 12.3s state-age 2.0s rejoins 0 queued 0 qp attached joined-by rdma_cm
ctx 1 handle 2 dev rxe0 port 1 netdev veth0 group 239.1.0.2 state joined type send-only owner user pid 1001 uid 0 comm rdma-mcm age 12.3s state-age 2.0s rejoins 0 queued 0 joined-by rdma_cm
ctx 2 handle 1 dev rxe1 port 1 netdev veth1 group 239.1.0.3 state joined type full owner user pid 1002 uid 1000 comm rdma-mcm age 12.3s state-age 2.0s rejoins 1 queued 0 qp attached sources 192.0.2.1,192.0.2.2 joined-by rdma_cm
ctx 2 handle 2 dev rxe1 port 1 netdev veth1 group 239.1.0.4 state joined type send-only owner user pid 1002 uid 1000 comm rdma-mcm age 12.3s state-age 2.0s rejoins 0 queued 0 joined-by rdma_cm
ctx 3 handle 1 dev rxe0 port 1 netdev veth0 group 239.1.0.5 state error type full status -110 ETIMEDOUT (Connection timed out) owner kernel comm [rdma_mcm_test_ulp] age 12.3s state-age 2.0s rejoins 0 queued 0
ctx 3 handle 2 dev rxe0 port 1 netdev veth0 group 239.1.0.6 state joined type send-only owner kernel comm [rdma_mcm_test_ulp] age 12.3s state-age 2.0s rejoins 1 queued 0 joined-by rdma_cm
EOF
expect "show: the host's memberships, one line each (sources, joined-by)" 0 ''
cp "$TMP/want" "$TMP/all"

# each filter alone, then several together
for f in "dev rxe1:^ctx 2 " "group 239.1.0.5:group 239.1.0.5 " \
	 "state error:state error " "pid 1002:pid 1002 " "ctx 3:^ctx 3 " \
	 "group 239.9.9.9:NONE" "dev rxe0 state joined pid 1001:^ctx 1 "; do
	# shellcheck disable=SC2086
	run '' show ${f%%:*}
	grep -E -- "${f#*:}" "$TMP/all" > "$TMP/want"
	expect "show ${f%%:*}: the matching lines" 0 ''
done
for args in "show state bogus" "show dev" "show pid x" "show ctx 0" \
	    "show group 999.1.1.1" "show frob 1" "show ctx 3 show" \
	    "ctx group 239.1.1.1" "stats extra" "monitor -c 0" \
	    "monitor frob"; do
	# shellcheck disable=SC2086
	cli $args
	rc=$(cat "$TMP/rc")
	[ "$rc" = 2 ] && [ -s "$TMP/err" ] && [ ! -s "$TMP/out" ]
	result "bad filter or argument, exit 2: rdma-mcm $args" $? "$TMP/err"
done
for args in "show --help" "show dev rxe0 -h" "monitor --help" "stats -h" \
	    "join 239.1.1.1 --help" "--help show" "--help"; do
	# shellcheck disable=SC2086
	cli $args
	rc=$(cat "$TMP/rc")
	[ "$rc" = 0 ] && grep -q '^Usage: rdma-mcm' "$TMP/out" &&
		grep -q '^  show \[dev DEV\]' "$TMP/out" && [ ! -s "$TMP/err" ]
	result "rdma-mcm $args: usage on stdout, exit 0" $? "$TMP/err"
done
cli show --version
rc=$(cat "$TMP/rc")
grep -q "^rdma-mcm $VERSION " "$TMP/out" && [ "$rc" = 0 ]
result "rdma-mcm show --version prints the versions, exit 0" $? "$TMP/err"

FAKE_NL_ABSENT=1 FAKE_NO_DEV=1 run '' show
: > "$TMP/want"
expect "show without the module: exit 1, says why" 1 'the rdma_mcm module is not loaded\)$'

run '' -j show
schema_ok member "$TMP/out" 6 && json_lines "$TMP/out" &&
	[ "$(wc -l < "$TMP/out")" = 6 ] &&
	grep -q '"ctx":3,"handle":1,"owner":"kernel","comm":"rdma_mcm_test_ulp",' "$TMP/out" &&
	grep -q '"pid":1002,"uid":1000,"comm":"rdma-mcm"' "$TMP/out"
result "show -j: six JSON lines valid against the schema" $? "$TMP/why.json"
run '' -p show state error
schema_ok member "$TMP/out" 1 && [ "$(wc -l < "$TMP/out")" -gt 10 ] &&
	grep -q '^  "errno": "ETIMEDOUT",$' "$TMP/out"
result "show -p: indented, valid against the schema" $? "$TMP/why.json"
run '' show -j ctx 2
schema_ok member "$TMP/out" 2 && [ "$(wc -l < "$TMP/out")" = 2 ]
result "show ... -j after the command works too" $? "$TMP/why.json"
FAKE_NL_MEMBERS=100000 run '' -j show
[ "$(wc -l < "$TMP/out")" = 100000 ] && [ "$(cat "$TMP/rc")" = 0 ] &&
	tail -n 1 "$TMP/out" | grep -q '"ctx":50000,"handle":2,'
result "show -j of 100000 memberships" $? "$TMP/err"


# the kernel's extended ack goes with the errno (userspace review 13)
FAKE_NL_OLD_POLICY=1 run '' show ctx 1
: > "$TMP/want"
expect "show ctx on a module that takes no filter: the kernel's word with the errno" 1 \
	'dump of memberships: Invalid argument; the kernel says: Unknown attribute type'
