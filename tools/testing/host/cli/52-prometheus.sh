# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: stats --format prometheus and openmetrics, read by
# python3-prometheus-client's parsers (testing/host/prom_check.py): every
# family of stats -j, its type, label sets and values. Sourced by
# testing/host/cli-test, after cli/lib.sh and the files before this one.

# The Python that has prometheus_client (scripts/deps installs
# python3-prometheus-client for Debian's /usr/bin/python3)
PROM_PY=
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import prometheus_client' 2> /dev/null; then
		PROM_PY=$py
		break
	fi
done

# rdma-mcm-groups' state file as the CLI reads it: none, unless a case
# says (RDMA_MCM_GROUPS_STATE=FILE in its ENV; the host's own is not read)
QSTATE=$TMP/queriers.json
export RDMA_MCM_GROUPS_STATE=$TMP/no-such-file
# four netdevs' watch: two heard a querier, one is silent, one is not
# listened on; a netdev named with a quote and a backslash, one with a
# byte that is not UTF-8 (JSON-escaped as the service writes them: U+FFFD)
cat > "$QSTATE" <<'QEOF'
{"dev":"eth2","family":"inet","protocol":"igmp","listening":true,"error":null,"timeout_ms":255000,"silent":false,"silent_since":null,"silences":2,"queries":41,"ignored":3,"querier":"192.0.2.1","version":"igmpv3","last_query":1796636425,"qqi_s":125,"qrv":2,"max_resp_ms":10000}
{"dev":"e\"2\\x","family":"inet6","protocol":"mld","listening":true,"error":null,"timeout_ms":255000,"silent":true,"silent_since":1796636424,"silences":1,"queries":0,"ignored":0,"querier":null,"version":null,"last_query":null,"qqi_s":null,"qrv":null,"max_resp_ms":null}
{"dev":"eth\ufffd4","family":"inet6","protocol":"mld","listening":true,"error":null,"timeout_ms":255000,"silent":false,"silent_since":null,"silences":0,"queries":1,"ignored":0,"querier":"fe80::1","version":"mldv2","last_query":1796636425,"qqi_s":125,"qrv":2,"max_resp_ms":10000}
{"dev":"eth3","family":"inet","protocol":"igmp","listening":false,"error":"Operation not permitted","timeout_ms":255000,"silent":false,"silent_since":null,"silences":0,"queries":0,"ignored":0,"querier":null,"version":null,"last_query":null,"qqi_s":null,"qrv":null,"max_resp_ms":null}
QEOF

# prom_case NAME FORMAT ENV...: the CLI under ENV (the fake module's),
# its metrics in FORMAT checked against its -j stats and -j ctx (and the
# querier watchdog's state file, when ENV names one)
prom_case() {
	local name=$1 fmt=$2 rc qfile=

	shift 2
	case " $* " in *" RDMA_MCM_GROUPS_STATE=$QSTATE "*) qfile=$QSTATE ;; esac
	: > "$TMP/why"
	if [ -z "$PROM_PY" ]; then
		echo "no python3 with prometheus_client: scripts/deps installs python3-prometheus-client" > "$TMP/why"
		result "$name" 1 "$TMP/why"
		return
	fi
	env "$@" "$CLI" stats --format "$fmt" > "$TMP/prom" 2>> "$TMP/why" &&
		env "$@" "$CLI" -j stats > "$TMP/prom.stats" 2>> "$TMP/why" &&
		env "$@" "$CLI" -j ctx > "$TMP/prom.ctx" 2>> "$TMP/why" &&
		"$PROM_PY" testing/host/prom_check.py "$fmt" "$TMP/prom" \
			"$TMP/prom.stats" "$TMP/prom.ctx" $qfile > "$TMP/prom.sum" 2>> "$TMP/why"
	rc=$?
	result "$name ($(cat "$TMP/prom.sum" 2> /dev/null))" "$rc" "$TMP/why"
}

for fmt in prometheus openmetrics; do
	prom_case "stats --format $fmt: every figure of stats -j, by a parser" \
		"$fmt" FAKE_NL_MCAST0=1 FAKE_NL_EVENTS_LOST=7
	# a later module's counters, limits and counts; a device named with
	# a quote, a backslash, a newline and a byte that is not UTF-8
	prom_case "stats --format $fmt: a later module, a device's odd name escaped" \
		"$fmt" FAKE_NL_NEWER=1 FAKE_NL_DEV="$(printf 'r"x\\e\n0\377')"
	# rdma-mcm-groups' querier watchdog, from its state file
	prom_case "stats --format $fmt: the querier watchdog's state file, by a parser" \
		"$fmt" FAKE_NL_MCAST0=1 RDMA_MCM_GROUPS_STATE="$QSTATE"
done
RDMA_MCM_GROUPS_STATE=$QSTATE cli stats --format prometheus
grep -qxF 'rdma_mcm_groups_querier_silent{dev="e\"2\\x",protocol="mld"} 1' "$TMP/out" &&
	grep -qxF 'rdma_mcm_groups_querier_silences_total{dev="eth2",protocol="igmp"} 2' "$TMP/out" &&
	grep -qxF 'rdma_mcm_groups_querier_last_query_seconds{dev="eth2",protocol="igmp"} 1796636425' "$TMP/out" &&
	! grep -q 'rdma_mcm_groups_querier_last_query_seconds{dev="eth3"' "$TMP/out" &&
	grep -qxF 'rdma_mcm_groups_querier_listening{dev="eth3",protocol="igmp"} 0' "$TMP/out" &&
	grep -qxF "rdma_mcm_groups_querier_queries_total{dev=\"eth$(printf '\357\277\275')4\",protocol=\"mld\"} 1" "$TMP/out"
result "stats --format prometheus: the watchdog's silences, last query, listening; a name escaped" \
	$? "$TMP/out"
RDMA_MCM_GROUPS_STATE=$TMP/no-such-file cli stats --format prometheus
[ "$(cat "$TMP/rc")" = 0 ] && ! grep -q groups_querier "$TMP/out"
result "stats --format prometheus: no state file, no querier family" $? "$TMP/out"

# the label values as the exposition format escapes them
FAKE_NL_DEV="$(printf 'r"x\\e\n0')" cli stats --format prometheus
grep -qF 'rdma_mcm_dev_joins_total{dev="r\"x\\e\n0"} 11' "$TMP/out" &&
	grep -qF 'rdma_mcm_port_memberships{netns="4026531840",dev="rxe1",port="1"} 2' "$TMP/out"
result "stats --format prometheus: label values escaped, netns, dev and port" $? "$TMP/out"

cli -j stats --format openmetrics
[ "$(cat "$TMP/rc")" = 2 ] && [ ! -s "$TMP/out" ] &&
	grep -q '"error":"--format openmetrics and -j or -p: one output format only"' "$TMP/err"
result "stats --format openmetrics with -j: a usage error" $? "$TMP/err"
cli stats --format xml
[ "$(cat "$TMP/rc")" = 2 ] && grep -q "bad format 'xml'" "$TMP/err"
result "stats --format xml: a usage error naming the formats" $? "$TMP/err"
cli stats --format=json
schema_ok stats "$TMP/out" 1
result "stats --format=json: as -j" $? "$TMP/why.json"
