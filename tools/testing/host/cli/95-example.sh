# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: the example program.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

"$EXAMPLE" -b 10.0.0.1 239.1.1.1 > "$TMP/out" 2> "$TMP/err"
echo $? > "$TMP/rc"
cat > "$TMP/want" <<'EOF'
joined 239.1.1.1: mgid ::ffff:239.1.1.1 mlid 0x0 qkey 0x1234567 port 1
left 239.1.1.1 after 1 event(s)
EOF
expect "mcm_example joins, prints the MGID, leaves" 0 ''

FAKE_FAIL_GROUP=239.1.1.1 FAKE_FAIL_ERRNO=113 "$EXAMPLE" -b 10.0.0.1 \
	239.1.1.1 > "$TMP/out" 2> "$TMP/err"
echo $? > "$TMP/rc"
: > "$TMP/want"
expect "mcm_example: the ERROR event's status is errno" 1 \
	'rdma_mcm_join_sync: No route to host'

"$EXAMPLE" 239.1.1.1 > "$TMP/out" 2> "$TMP/err"
echo $? > "$TMP/rc"
expect "mcm_example without -b: usage" 2 'usage: mcm_example'
