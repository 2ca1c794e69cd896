# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: send and recv on the fake device, across what the fabric does.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

R0='joined 239.5.5.1 handle 1 mgid ::ffff:239.5.5.1 mlid 0x0 qkey 0x1234567 sl 0 port 1'
for b in "-b 10.0.0.1" ""; do
	# shellcheck disable=SC2086
	FAKE_VERBS=1 run '' $b -t 10 recv 239.5.5.1 -c 20
	printf '%s\nreceived 239.5.5.1 count 20 of 20\nfrom 10.0.0.2 datagrams 20\n' "$R0" > "$TMP/want"
	expect "recv ${b:-by route}: 20 datagrams on the fake device" 0 ''
	# shellcheck disable=SC2086
	FAKE_VERBS=1 run '' $b -t 10 send 239.5.5.1 -c 20
	printf '%s\nsent 239.5.5.1 count 20 of 20\n' "$R0" > "$TMP/want"
	expect "send ${b:-by route}: 20 datagrams on the fake device" 0 ''
done

# The device is deleted after 5 datagrams, and added back only once the
# process has released every verbs object on it (as rdma link delete
# waits for them): recv and send go on to their count.
CYCLE="rejoining 239.5.5.1 handle 1 status -19 ENODEV (No such device)
device-removed ctx 1 status -19 ENODEV (No such device)
device-added ctx 1 port 1
rejoined 239.5.5.1 handle 1 mgid ::ffff:239.5.5.1 mlid 0x0 qkey 0x1234567 sl 0 port 1"
FAKE_VERBS=1 FAKE_CYCLE_AT=5 run '' -t 10 recv 239.5.5.1 -c 20
printf '%s\n%s\nreceived 239.5.5.1 count 20 of 20\nfrom 10.0.0.2 datagrams 20\n' "$R0" "$CYCLE" > "$TMP/want"
expect "recv across the device's removal and return: releases, rebuilds, goes on" 0 ''
FAKE_VERBS=1 FAKE_CYCLE_AT=5 run '' -t 10 send 239.5.5.1 -c 20 -i 100
printf '%s\n%s\nsent 239.5.5.1 count 20 of 20\n' "$R0" "$CYCLE" > "$TMP/want"
expect "send across the device's removal and return" 0 ''
FAKE_VERBS=1 FAKE_CYCLE_AT=5 run '' -j -t 10 recv 239.5.5.1 -c 20
json_lines "$TMP/out" && [ "$(cat "$TMP/rc")" = 0 ] &&
	grep -q '"event":"received".*"count":20' "$TMP/out" && [ ! -s "$TMP/err" ]
result "-j recv across the device's removal: JSON lines" $? "$TMP/out"

# A port event under recv and send: detached, attached again
RJ5="rejoining 239.5.5.1 handle 1 status -102 ENETRESET (Network dropped connection on reset)
rejoined 239.5.5.1 handle 1 mgid ::ffff:239.5.5.1 mlid 0x0 qkey 0x1234567 sl 0 port 1"
FAKE_VERBS=1 FAKE_REJOIN_AT=5 run '' -t 10 recv 239.5.5.1 -c 20
printf '%s\n%s\nreceived 239.5.5.1 count 20 of 20\nfrom 10.0.0.2 datagrams 20\n' "$R0" "$RJ5" > "$TMP/want"
expect "recv across a port event: attached again on rejoined" 0 ''
FAKE_VERBS=1 FAKE_REJOIN_AT=5 run '' -t 10 send 239.5.5.1 -c 20 -i 100
printf '%s\n%s\nsent 239.5.5.1 count 20 of 20\n' "$R0" "$RJ5" > "$TMP/want"
expect "send across a port event" 0 ''

# --no-heal: the device's removal ends recv, which lets go of it first
FAKE_VERBS=1 FAKE_CYCLE_AT=5 run '' -t 10 recv 239.5.5.1 -c 20 --no-heal
printf '%s\nerror 239.5.5.1 handle 1 status -19 ENODEV (No such device)\ndevice-removed ctx 1 status -19 ENODEV (No such device)\n' "$R0" > "$TMP/want"
expect "recv --no-heal: the device's removal ends it, exit 1" 1 \
	'the RDMA device went away: releasing it'
grep -q 'fake verbs' "$TMP/err"
result "recv --no-heal released every verbs object" $((! $?)) "$TMP/err"
