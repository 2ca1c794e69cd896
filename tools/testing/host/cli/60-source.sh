# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: source-specific joins (--source), IPv6, where datagrams came from.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

S1='joined 239.1.3.1 handle 1 mgid ::ffff:239.1.3.1 mlid 0x0 qkey 0x1234567 sl 0 port 1'
run 'list\njoin 239.1.3.2 --source 10.0.0.9\nlist\nquit\n' \
	-b 10.0.0.1 join 239.1.3.1 --source 192.0.2.1 --source 192.0.2.2
cat > "$TMP/want" <<EOF
$S1
ctx 1 handle 1 group 239.1.3.1 state joined type full mgid ::ffff:239.1.3.1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns sources 2 joined-by rdma_cm
joined 239.1.3.2 handle 2 mgid ::ffff:239.1.3.2 mlid 0x0 qkey 0x1234567 sl 0 port 1
ctx 1 handle 1 group 239.1.3.1 state joined type full mgid ::ffff:239.1.3.1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns sources 2 joined-by rdma_cm
ctx 1 handle 2 group 239.1.3.2 state joined type full mgid ::ffff:239.1.3.2 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns sources 1 joined-by rdma_cm
left 239.1.3.1 handle 1 events 1
left 239.1.3.2 handle 2 events 1
EOF
expect "join --source (twice), and the session's join --source: list shows the sources" 0 ''

# every group of the command, with all the sources; a module that lists
# them in JSON; the membership objects valid against the schema
run 'list\nquit\n' -j -b 10.0.0.1 join 239.1.3.1 --source 192.0.2.1 239.1.3.3 \
	--source 192.0.2.2 --source 192.0.2.3
grep '"state"' "$TMP/out" > "$TMP/list.json"
schema_ok membership "$TMP/list.json" 2 &&
	[ "$(grep -c '"nr_sources":3,"joined_by":"rdma_cm"}$' "$TMP/list.json")" = 2 ]
result "-j join GROUP GROUP --source x3: both groups with the three, list valid against the schema" $? "$TMP/why.json"
run 'list\nquit\n' -j -b 10.0.0.1 --no-heal join 239.1.3.1 --send-only
grep '"state"' "$TMP/out" > "$TMP/list.json"
schema_ok membership "$TMP/list.json" 1 &&
	grep -q '"nr_sources":0,"joined_by":"rdma_cm"}$' "$TMP/list.json"
result "-j list: nr_sources 0 for a join of any source" $? "$TMP/why.json"
FAKE_NO_COMPLETE=1 run 'list\nquit\n' -j -b 10.0.0.1 join 239.1.3.1
grep -q '"state":"joining",.*"nr_sources":0,"joined_by":null}$' "$TMP/out"
result "-j list: joined_by null until joined" $? "$TMP/out"

# IPv6 on RoCE v2: rdma_mcm joins it itself
run 'list\nquit\n' -b 'fe80::1%1' join ff12::1 --source 2001:db8::1
cat > "$TMP/want" <<'EOF'
joined ff12::1 handle 1 mgid ff12::1 mlid 0x0 qkey 0x1234567 sl 0 port 1
ctx 1 handle 1 group ff12::1 state joined type full mgid ff12::1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns sources 1 joined-by rdma_mcm
left ff12::1 handle 1 events 1
EOF
expect "an IPv6 group with --source: joined by rdma_mcm" 0 ''

# usage errors: exit 2, said plainly
for t in "join 239.1.1.1 --source:--source needs an address" \
	 "join 239.1.1.1 --send-only --source 10.0.0.9:--source needs a full-member join" \
	 "join 239.1.1.1 --source 10.0.0.9 --send-only:--source needs a full-member join" \
	 "join 239.1.1.1 --source bogus:bad source address" \
	 "recv 239.1.1.1 --source:--source needs an address" \
	 "send 239.1.1.1 --source 10.0.0.9:unexpected argument" \
	 "join --source 10.0.0.9:usage: join GROUP"; do
	# shellcheck disable=SC2086
	cli -b 10.0.0.1 ${t%%:*}
	rc=$(cat "$TMP/rc")
	[ "$rc" = 2 ] && grep -qF -- "${t#*:}" "$TMP/err" && [ ! -s "$TMP/out" ]
	result "usage error, exit 2: ${t%%:*}" $? "$TMP/err"
done
many=$(for i in $(seq 65); do printf ' --source 10.1.0.%d' "$i"; done)
# shellcheck disable=SC2086
cli -b 10.0.0.1 join 239.1.1.1 $many
rc=$(cat "$TMP/rc")
[ "$rc" = 2 ] && grep -q 'at most 64 --source addresses' "$TMP/err"
result "65 --source: at most 64, exit 2" $? "$TMP/err"

# what the module refuses: exit 1, with what it means
eleven=$(for i in $(seq 11); do printf ' --source 10.1.0.%d' "$i"; done)
for t in "FAKE_NO_SOURCES=1:join 239.1.1.1 --source 10.0.0.9:the rdma_mcm module is too old for source-specific joins" \
	 "FAKE_NO_HEAL=1:join 239.1.1.1 --source 10.0.0.9:the rdma_mcm module is too old for source-specific joins" \
	 "FAKE_IB_PORT=1:join 239.1.1.1 --source 10.0.0.9:source-specific joins need RoCE" \
	 "FAKE_TODAY=1:join 239.1.1.1$eleven:(11 sources: more than net.ipv4.igmp_max_msf allows?)" \
	 "FAKE_TODAY=1:join 239.1.1.1 --source 10.0.0.9 --source 10.0.0.9:join 239.1.1.1: Invalid argument" \
	 "FAKE_TODAY=1:join 239.1.1.1 --source 239.2.2.2:join 239.1.1.1: Invalid argument"; do
	env=${t%%:*}
	rest=${t#*:}
	# shellcheck disable=SC2086
	env "$env" timeout "$HANG" "$CLI" -b 10.0.0.1 ${rest%%:*} < /dev/null \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	# shellcheck disable=SC2086
	json_log ${rest%%:*}
	[ "$rc" = 1 ] && grep -qF -- "${rest#*:}" "$TMP/err"
	result "$env ${rest%%:*}: exit 1, '${rest#*:}'" $? "$TMP/err"
done

cli -b 10.0.0.1 join 239.1.1.1 --source 2001:db8::1
rc=$(cat "$TMP/rc")
[ "$rc" = 1 ] && grep -qF "source 2001:db8::1 is not of the group's family" "$TMP/err"
result "join --source of the other family: exit 1, said" $? "$TMP/err"

# in the session: an error, and the session goes on
run 'join 239.1.3.5 --send-only --source 10.0.0.9\njoin 239.1.3.6 --source\njoin 239.1.3.7 --source 10.0.0.9 --source bad\nlist\nquit\n' \
	-b 10.0.0.1 join 239.1.3.1
cat > "$TMP/want" <<EOF
$S1
ctx 1 handle 1 group 239.1.3.1 state joined type full mgid ::ffff:239.1.3.1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns joined-by rdma_cm
left 239.1.3.1 handle 1 events 1
EOF
expect "session join --source errors: reported, nothing joined, the session goes on" 0 \
	'needs a full-member join'
grep -q -- '--source needs an address' "$TMP/err" &&
	grep -q "bad source address 'bad'" "$TMP/err"
result "session join --source: each error said" $? "$TMP/err"

# recv: where the datagrams came from, counted from their GRH
R3='joined 239.5.5.3 handle 1 mgid ::ffff:239.5.5.3 mlid 0x0 qkey 0x1234567 sl 0 port 1'
FAKE_VERBS=1 FAKE_SOURCES=192.0.2.1,192.0.2.2 run '' -t 10 recv 239.5.5.3 \
	--source 192.0.2.1 --source 192.0.2.2 -c 20
printf '%s\nreceived 239.5.5.3 count 20 of 20\nfrom 192.0.2.1 datagrams 10\nfrom 192.0.2.2 datagrams 10\n' \
	"$R3" > "$TMP/want"
expect "recv --source x2: a line per source the datagrams came from" 0 ''
FAKE_VERBS=1 FAKE_SOURCES=192.0.2.1,192.0.2.2,192.0.2.3 run '' -j -t 10 \
	recv 239.5.5.3 -c 30 --source 192.0.2.1
tail -n 1 "$TMP/out" > "$TMP/recv.json"
schema_ok received "$TMP/recv.json" 1 &&
	grep -qxF '{"event":"received","group":"239.5.5.3","count":30,"wanted":30,"sources":[{"addr":"192.0.2.1","datagrams":10},{"addr":"192.0.2.2","datagrams":10},{"addr":"192.0.2.3","datagrams":10}]}' "$TMP/recv.json"
result "recv -j: \"sources\" in the summary, valid against the schema (the HCA does not filter)" $? "$TMP/why.json"
FAKE_VERBS=1 FAKE_GRH=ib run '' -t 10 recv 239.5.5.3 -c 5
printf '%s\nreceived 239.5.5.3 count 5 of 5\nfrom 10.0.0.2 datagrams 5\n' "$R3" > "$TMP/want"
expect "recv, a GRH of InfiniBand's layout: the IPv4-mapped GID as IPv4" 0 ''
FAKE_VERBS=1 FAKE_GRH=none run '' -t 10 recv 239.5.5.3 -c 5
printf '%s\nreceived 239.5.5.3 count 5 of 5\nfrom unknown datagrams 5\n' "$R3" > "$TMP/want"
expect "recv, completions without a GRH: from unknown" 0 ''
FAKE_VERBS=1 FAKE_GRH=none run '' -j -t 10 recv 239.5.5.3 -c 5
tail -n 1 "$TMP/out" > "$TMP/recv.json"
schema_ok received "$TMP/recv.json" 1 &&
	grep -qF '"sources":[{"addr":null,"datagrams":5}]}' "$TMP/recv.json"
result "recv -j without a GRH: addr null" $? "$TMP/why.json"
FAKE_VERBS=1 FAKE_SOURCES=2001:db8::7,192.0.2.5,2001:db8::8 run '' -t 10 \
	-b 'fe80::fc:ff:fe00:1%2' recv ff12::5 -c 4 --source 2001:db8::7 \
	--source 2001:db8::8
printf 'joined ff12::5 handle 1 mgid ff12::5 mlid 0x0 qkey 0x1234567 sl 0 port 1\nreceived ff12::5 count 4 of 4\nfrom 2001:db8::7 datagrams 2\nfrom 2001:db8::8 datagrams 2\n' > "$TMP/want"
expect "recv of an IPv6 group: its IPv6 sources" 0 ''
FAKE_VERBS=1 FAKE_NO_SOURCES=1 run '' -t 10 recv 239.5.5.3 -c 5 --source 192.0.2.1
: > "$TMP/want"
expect "recv --source on a module older than sources: exit 1" 1 \
	'the rdma_mcm module is too old for source-specific joins'
FAKE_VERBS=1 run '' -j -t 10 send 239.5.5.3 -c 3
tail -n 1 "$TMP/out" > "$TMP/send.json"
schema_ok received "$TMP/send.json" 1 && ! grep -q sources "$TMP/send.json"
result "send -j: its result valid against the schema, no sources" $? "$TMP/why.json"

# show: the sources and who joined, text and JSON
FAKE_NL_MEMBERS=8 run '' show ctx 4
cat > "$TMP/want" <<'EOF'
ctx 4 handle 1 dev rxe1 port 1 netdev veth1 group ff0e::1:0:7 state joined type full owner user pid 1004 uid 1000 comm rdma-mcm age 12.3s state-age 2.0s rejoins 0 queued 0 qp attached sources 2001:db8::1,2001:db8::2 joined-by rdma_mcm
ctx 4 handle 2 dev rxe1 port 1 netdev veth1 group ff0e::1:0:8 state joined type send-only owner user pid 1004 uid 1000 comm rdma-mcm age 12.3s state-age 2.0s rejoins 0 queued 0 joined-by rdma_mcm
EOF
expect "show: an IPv6 context's sources and joined-by rdma_mcm" 0 ''
FAKE_NL_MEMBERS=8 run '' -j show
schema_ok member "$TMP/out" 8 &&
	grep -q '"ctx":2,"handle":1,.*"qp_attached":true,"sources":\["192.0.2.1","192.0.2.2"\],"joined_by":"rdma_cm"}$' "$TMP/out" &&
	grep -q '"ctx":4,"handle":1,.*"sources":\["2001:db8::1","2001:db8::2"\],"joined_by":"rdma_mcm"}$' "$TMP/out" &&
	grep '"ctx":3,"handle":1,' "$TMP/out" | grep -qv 'joined_by' &&
	[ "$(grep -c '"sources"' "$TMP/out")" = 2 ]
result "show -j: sources and joined_by, valid against the schema" $? "$TMP/why.json"

# -V: the module's features
cli -V
grep -qx 'rdma_mcm module: ABI 1 features sources,ipv6-roce' "$TMP/out"
result "-V: the module's features" $? "$TMP/out"
FAKE_NO_SOURCES=1 cli -V
grep -qx 'rdma_mcm module: ABI 1 features none' "$TMP/out"
result "-V: a module older than features: none" $? "$TMP/out"
cli -j -V
schema_ok version "$TMP/out" 1 &&
	grep -qF '"module_abi":1,"features":["sources","ipv6-roce"]}' "$TMP/out"
result "-j -V: features, valid against the schema" $? "$TMP/why.json"
FAKE_NO_SOURCES=1 cli -j -V
schema_ok version "$TMP/out" 1 && grep -qF '"features":[]}' "$TMP/out"
result "-j -V on a module older than features: []" $? "$TMP/why.json"
