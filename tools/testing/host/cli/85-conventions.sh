# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: iproute2's conventions: prefixes, help after an object, filters.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

for t in "sh:show" "st:stats" "c:ctx" "c sh d rxe1:ctx show dev rxe1" \
	 "sh st error:show state error" "sh g 239.1.0.5 c 3:show group 239.1.0.5 ctx 3" \
	 "mon -c 2:monitor -c 2" "ctx s p 1002:ctx show pid 1002"; do
	# shellcheck disable=SC2086
	cli ${t#*:}
	mv "$TMP/out" "$TMP/full"
	# shellcheck disable=SC2086
	cli ${t%%:*}
	[ "$(cat "$TMP/rc")" = 0 ] && [ -s "$TMP/out" ] && cmp -s "$TMP/out" "$TMP/full"
	result "prefix: rdma-mcm ${t%%:*} is rdma-mcm ${t#*:}" $? "$TMP/err"
done
for t in "s:ambiguous command 's': show, stats, send" \
	 "show x 1:unknown argument 'x'" "xyz:unknown command 'xyz'"; do
	# shellcheck disable=SC2086
	cli ${t%%:*}
	[ "$(cat "$TMP/rc")" = 2 ] && grep -qF -- "${t#*:}" "$TMP/err"
	result "prefix: rdma-mcm ${t%%:*}: exit 2, '${t#*:}'" $? "$TMP/err"
done
run 'l\nli\nq\n' -b 10.0.0.1 join 239.1.1.1
cat > "$TMP/want" <<EOF
$J1
ctx 1 handle 1 group 239.1.1.1 state joined type full mgid ::ffff:239.1.1.1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns joined-by rdma_cm
left 239.1.1.1 handle 1 events 1
EOF
expect "session prefixes: l is ambiguous, li is list, q is quit" 0 \
	"ambiguous command 'l': leave, list"
for args in "show help" "ctx help" "ctx show help" "ctx sh help" "stats help" \
	    "monitor help" "monitor -c 1 help" "join help" "send help" \
	    "recv help" "list help" "show dev rxe0 help" "sh help"; do
	# shellcheck disable=SC2086
	cli $args
	[ "$(cat "$TMP/rc")" = 0 ] && grep -q '^Usage: rdma-mcm' "$TMP/out" &&
		[ ! -s "$TMP/err" ]
	result "rdma-mcm $args: usage on stdout, exit 0" $? "$TMP/err"
done
for t in "show ctx 1 ctx 2:'ctx' given twice" "show dev rxe0 d rxe1:'dev' given twice" \
	 "ctx pid 1 pid 2:'pid' given twice" "show state error s joined:'state' given twice" \
	 "monitor -c 1 -c 2:-c given twice" "monitor -t -ts:-t or -ts once only"; do
	# shellcheck disable=SC2086
	cli ${t%%:*}
	[ "$(cat "$TMP/rc")" = 2 ] && grep -qF -- "${t#*:}" "$TMP/err" && [ ! -s "$TMP/out" ]
	result "a filter given twice is refused, exit 2: rdma-mcm ${t%%:*}" $? "$TMP/err"
done

# monitor -t, -ts: the event's time on the wall clock, as iproute2's; JSON
# has both clocks. The CLOCK_BOOTTIME stamp plus the clocks' offset (read
# here) is the wall time, to the second (the offset moves only when the
# clock is set).
cli monitor -c 5 -ts
cat > "$TMP/ts.py" <<'PY'
import datetime, json, re, sys, time
mode, path = sys.argv[1], sys.argv[2]
offset = time.clock_gettime(time.CLOCK_REALTIME) - \
    time.clock_gettime(time.CLOCK_BOOTTIME)
lines = open(path).read().splitlines()
stamps = []
if mode == "-ts":
    for l in lines:
        m = re.match(r"\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})\] \S+ ctx .* time (\d+)\.(\d{9})$", l)
        if not m:
            sys.exit("not a -ts line: %r" % l)
        wall = time.mktime(time.strptime(m[1], "%Y-%m-%dT%H:%M:%S")) + int(m[2]) / 1e6
        stamps.append((wall, int(m[3]) + int(m[4]) / 1e9))
elif mode == "-t":
    for ts, ev in zip(lines[0::2], lines[1::2]):
        m = re.match(r"Timestamp: (\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}) (\d+) usec$", ts)
        e = re.match(r"\S+ ctx .* time (\d+)\.(\d{9})$", ev)
        if not m or not e:
            sys.exit("not a -t pair: %r %r" % (ts, ev))
        wall = time.mktime(time.strptime(m[1], "%a %b %d %H:%M:%S %Y")) + int(m[2]) / 1e6
        stamps.append((wall, int(e[1]) + int(e[2]) / 1e9))
else:
    for l in lines:
        o = json.loads(l)
        w = datetime.datetime.strptime(o["wall_time"], "%Y-%m-%dT%H:%M:%S.%fZ")
        wall = w.replace(tzinfo=datetime.timezone.utc).timestamp()
        stamps.append((wall, o["time_ns"] / 1e9))
if len(stamps) != 5:
    sys.exit("%d stamps: %r" % (len(stamps), lines))
for wall, boot in stamps:
    if abs(wall - (boot + offset)) > 1:
        sys.exit("wall %f, boot %f + offset %f" % (wall, boot, offset))
PY
python3 "$TMP/ts.py" -ts "$TMP/out" 2> "$TMP/why"
result "monitor -ts: [YYYY-MM-DDTHH:MM:SS.uuuuuu] before each event, its wall-clock time" $? "$TMP/why"
cli monitor -c 5 -t
python3 "$TMP/ts.py" -t "$TMP/out" 2> "$TMP/why"
result "monitor -t: a 'Timestamp: ... usec' line before each event, its wall-clock time" $? "$TMP/why"
cli -j monitor -c 5
python3 "$TMP/ts.py" -j "$TMP/out" 2> "$TMP/why"
result "monitor -j: \"time_ns\" (CLOCK_BOOTTIME) and \"wall_time\" (RFC 3339, UTC) of each event" $? "$TMP/why"

# text without PORT and GROUP says nothing of them (no "port 0", no
# "group family-0"), as JSON omits them
FAKE_NL_NO_PORT_GROUP=1 cli show
[ "$(wc -l < "$TMP/out")" = 6 ] && ! grep -q ' port \| group ' "$TMP/out"
result "show without PORT and GROUP: neither in the text" $? "$TMP/out"
FAKE_NL_NO_PORT_GROUP=1 cli ctx
[ "$(wc -l < "$TMP/out")" = 3 ] && ! grep -q ' port ' "$TMP/out"
result "ctx without PORT: none in the text" $? "$TMP/out"
FAKE_NL_NO_PORT_GROUP=1 cli -j show
[ "$(wc -l < "$TMP/out")" = 6 ] && ! grep -q '"port"\|"group"' "$TMP/out"
result "show -j without PORT and GROUP: neither key" $? "$TMP/out"

# a loaded module older than the netlink family is told from none loaded
mkdir -p "$TMP/module"
echo 0.5.0 > "$TMP/module/version"
for t in "FAKE_NL_ABSENT=1::the rdma_mcm module loaded is older than its netlink family" \
	 "FAKE_NL_ABSENT=1:FAKE_NO_DEV=1:the rdma_mcm module is not loaded" \
	 "FAKE_NL_ABSENT=1:FAKE_NO_DEV=1 FAKE_MODULE_DIR=$TMP/module:the rdma_mcm module loaded is older than its netlink family"; do
	IFS=: read -r e1 e2 msg <<< "$t"
	for c in show ctx stats "monitor -c 1"; do
		# shellcheck disable=SC2086
		env $e1 $e2 timeout "$HANG" "$CLI" $c < /dev/null > "$TMP/out" 2> "$TMP/err"
		[ $? = 1 ] && grep -qF "$msg" "$TMP/err" && [ ! -s "$TMP/out" ]
		result "$e1 $e2 $c: '$msg'" $? "$TMP/err"
	done
done
FAKE_NO_DEV=1 run '' join 239.1.1.1
: > "$TMP/want"
expect "join, no module: /dev/rdma_mcm: ... (the rdma_mcm module is not loaded)" 1 \
	'^rdma-mcm: /dev/rdma_mcm: No such file or directory \(the rdma_mcm module is not loaded\)$'
FAKE_NO_DEV=1 FAKE_MODULE_DIR=$TMP/module run '' join 239.1.1.1
expect "join, a module loaded without its device node: said so" 1 \
	'\(the rdma_mcm module is loaded: its device node is missing\)$'

# -V: the module's version from sysfs; the library the process runs
FAKE_MODULE_DIR=$TMP/module cli -V
grep -qx 'rdma_mcm module: ABI 1 features sources,ipv6-roce version 0.5.0' "$TMP/out"
result "-V: the module's version, /sys/module/rdma_mcm/version" $? "$TMP/out"
FAKE_MODULE_DIR=$TMP/module cli -j -V
schema_ok version "$TMP/out" 1 && grep -qF '"module_version":"0.5.0","module_abi":1,' "$TMP/out"
result "-j -V: \"module_version\":\"0.5.0\"" $? "$TMP/why.json"
FAKE_NO_DEV=1 cli -V
grep -qx 'rdma_mcm module: not loaded (/dev/rdma_mcm: No such file or directory)' "$TMP/out"
result "-V without the module: not loaded" $? "$TMP/out"
FAKE_NO_DEV=1 FAKE_MODULE_DIR=$TMP/module cli -V
grep -qx 'rdma_mcm module: loaded, its device does not open (/dev/rdma_mcm: No such file or directory) version 0.5.0' "$TMP/out"
result "-V, the module loaded without its device node: said so, with its version" $? "$TMP/out"
# another librdmamcm.so.1 in LD_LIBRARY_PATH: the installed CLI (no run
# path) runs it, and says which, not the version it was built with
mkdir -p "$TMP/lib"
cp "$B/lib/librdmamcm.so.$VERSION" "$TMP/lib/librdmamcm.so.1.99.7"
ln -sf librdmamcm.so.1.99.7 "$TMP/lib/librdmamcm.so.1"
LD_LIBRARY_PATH=$TMP/lib "$B/install/rdma-mcm" -V > "$TMP/out" 2> "$TMP/err"
grep -q "^rdma-mcm $VERSION (librdmamcm 1.99.7, ABI 1)$" "$TMP/out" &&
	grep -qx "librdmamcm: $(realpath "$TMP/lib")/librdmamcm.so.1.99.7" "$TMP/out"
result "-V: the version and file of the library the process runs (1.99.7 by LD_LIBRARY_PATH)" $? "$TMP/out"
LD_LIBRARY_PATH=$TMP/lib "$B/install/rdma-mcm" -j -V > "$TMP/out" 2> "$TMP/err"
json_log -j -V
schema_ok version "$TMP/out" 1 &&
	grep -qF "\"library\":\"1.99.7\",\"library_path\":\"$(realpath "$TMP/lib")/librdmamcm.so.1.99.7\"" "$TMP/out"
result "-j -V: \"library\" and \"library_path\" of the library the process runs" $? "$TMP/why.json"

# errno names from the C library (strerrorname_np), not only the table's
FAKE_FAIL_GROUP=239.9.9.9 FAKE_FAIL_ERRNO=126 run 'quit\n' -b 10.0.0.1 --no-heal join 239.9.9.9
printf 'error 239.9.9.9 handle 1 status -126 ENOKEY (Required key not available)\nleft 239.9.9.9 handle 1 events 1\n' > "$TMP/want"
expect "status -126 as ENOKEY (an errno the tool's table has not)" 0 ''
FAKE_FAIL_GROUP=239.9.9.9 FAKE_FAIL_ERRNO=133 run 'quit\n' -j -b 10.0.0.1 --no-heal join 239.9.9.9
grep -qF '"status":-133,"errno":"EHWPOISON","error":"Memory page has hardware error"}' "$TMP/out"
result "-j: status -133 as \"errno\":\"EHWPOISON\"" $? "$TMP/out"

# the session's show: the netlink view of this process's memberships
# (FAKE_NL_SELF: the fake's context 1 is this process's)
FAKE_NL_SELF=1 run 'show\nshow state error\nshow pid 1\nshow ctx 1 ctx 2\nquit\n' \
	-b 10.0.0.1 join 239.1.1.1
sed -n 2,3p "$TMP/out" > "$TMP/show"
[ "$(wc -l < "$TMP/out")" = 4 ] &&
	[ "$(grep -c '^ctx 1 handle [12] dev rxe0 port 1 netdev veth0 group 239.1.0.[12] state joined type [a-z-]* owner user pid [0-9]* uid 0 comm rdma-mcm age ' "$TMP/show")" = 2 ] &&
	! grep -q ' pid 1001 ' "$TMP/show" &&
	grep -q "unknown argument 'pid'" "$TMP/err" &&
	grep -q "'ctx' given twice" "$TMP/err"
result "session show: the host's view through netlink, of this process only (pid filter its own)" $? "$TMP/out"
