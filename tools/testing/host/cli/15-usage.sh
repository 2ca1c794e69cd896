# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: failures and usage.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

run '' -b 203.0.113.1 join 239.1.1.1
: > "$TMP/want"
expect "source on no netdev: exit 1" 1 'source 203.0.113.1: Cannot assign requested address'

# A group that is not one is a usage error, said before anything is done
# (userspace review 9): with -b or by route, join, send and recv
for args in "-b 10.0.0.1 join 10.1.1.1" "join 10.1.1.1" \
	    "-b 10.0.0.1 join 239.1.1.1 10.1.1.1" "join 2001:db8::1" \
	    "send 10.1.1.1" "recv 10.1.1.1" "-b 10.0.0.1 recv 192.0.2.1"; do
	# shellcheck disable=SC2086
	FAKE_ROUTE_ERRNO=22 FAKE_VERBS=1 run '' $args
	expect "unicast group, exit 2 before anything: rdma-mcm $args" 2 \
		"group address '(10.1.1.1|2001:db8::1|192.0.2.1)' is not a multicast address"
done

run '' -b 10.0.0.1 join 239.1.1.1.1
expect "bad group: exit 2" 2 "bad group address '239.1.1.1.1'"

run '' -b nowhere join 239.1.1.1
expect "bad source: exit 1" 1 "bad source address 'nowhere'"

run '' -b 10.0.0.1 join ff0e::1
expect "group of another family: exit 1" 1 'different families'

run '' -b 10.0.0.1 recv 239.1.1.1 -c 1 -t 1
expect "recv without an RDMA device: exit 1" 1 'no RDMA device has the address 10.0.0.1'
run '' recv 239.1.1.1 -c 1 -t 1
expect "recv without -b nor an RDMA device: exit 1" 1 \
	'no RDMA device on the route to 239.1.1.1: No such device'

for args in "" "frob" "join" "join --send-only" "-t 0 join 239.1.1.1" \
	    "-x list" "recv" "recv 239.1.1.1 --send-only" "send 239.1.1.1 -c 0" \
	    "send 239.1.1.1 -s" "list extra"; do
	# shellcheck disable=SC2086
	cli $args
	rc=$(cat "$TMP/rc")
	[ "$rc" = 2 ] && [ -s "$TMP/err" ]
	result "usage error, exit 2: rdma-mcm $args" $?
done

run '' list
expect "list in a new process lists nothing" 0 'belong to the open file'
for opt in -h --help; do
	cli $opt
	rc=$(cat "$TMP/rc")
	grep -q 'Usage: rdma-mcm' "$TMP/out" && [ "$rc" = 0 ] && [ ! -s "$TMP/err" ]
	result "$opt prints usage on stdout, exit 0" $?
done
for opt in -V --version; do
	cli $opt
	rc=$(cat "$TMP/rc")
	grep -q "^rdma-mcm $VERSION (librdmamcm $VERSION, ABI 1)" "$TMP/out" &&
		grep -q '^rdma_mcm module: ABI 1' "$TMP/out" && [ "$rc" = 0 ]
	result "$opt prints the versions, exit 0" $?
done
cli -x list
rc=$(cat "$TMP/rc")
[ "$rc" = 2 ] && grep -q 'invalid option -x' "$TMP/err"
result "an unknown option is named, exit 2" $?

# The CLI of the build tree: runs without LD_LIBRARY_PATH (its run path);
# without the module, -V still prints the library's version, exit 0.
if [ -e /dev/rdma_mcm ]; then
	echo "ok - # skip: /dev/rdma_mcm exists, the module is loaded here"
	passed=$((passed + 1))
else
	env -u LD_LIBRARY_PATH "$B/rdma-mcm" -V > "$TMP/out" 2> "$TMP/err"
	rc=$?
	grep -q "^rdma-mcm $VERSION (librdmamcm $VERSION" "$TMP/out" &&
		grep -q '^rdma_mcm module: not loaded' "$TMP/out" &&
		[ "$rc" = 0 ]
	result "build-tree rdma-mcm -V without the module and LD_LIBRARY_PATH: exit 0" $? "$TMP/err"
	env -u LD_LIBRARY_PATH "$B/rdma-mcm" -j --version > "$TMP/out" 2> "$TMP/err"
	rc=$?
	json_log -j --version
	json_lines "$TMP/out" && grep -q '"module_abi":null,"module":"not loaded"' \
		"$TMP/out" && [ "$rc" = 0 ]
	result "rdma-mcm -j --version without the module: JSON, exit 0" $? "$TMP/out"
fi
